// The end of a game on its table: the verdict, the scores, the Pokédex marks, the ratings it changed, the record,
// the replay and a rematch of the same seats.
import { api, el, keepGame, keptSeat, linkToken, morph, myGames } from "/static/common.js";
import { list, t, tn } from "/static/i18n.js";

// How a game ended when no rule ended it (payload.ending: a seat resigned, aborted, or did not move in time), in
// words: "Player 2 resigned: Player 1 wins.", or to the seat that won, "Player 2 resigned: you win." Null when the
// rules ended it. ``you``: the seat this table plays (null for a spectator or a replay).
export function endingWords(ending, seats, seatName, you = null) {
  if (!ending) return null;
  const player = seatName(ending.seat);
  if (ending.by === "aborted") return t("{player} aborted the game: no winner, not rated.", { player });
  if (ending.by === "no_start") {
    return t("{player} did not make a first move in time: the game is called off, no winner, not rated.", { player });
  }
  if (ending.by === "expired") return t("Nobody took the open seats in time: the game expired, no winner, not rated.");
  if (ending.by === "abandoned") {
    return t("{player} left the game without a move for weeks: it was called off as abandoned, no winner, not rated.",
      { player });
  }
  const others = seats.map((_, i) => i).filter((i) => i !== ending.seat);
  const youWin = others.length === 1 && others[0] === you;
  if (ending.by === "resigned") {
    return youWin ? t("{player} resigned: you win.", { player })
      : t("{player} resigned: {winner} wins.", { player, winner: list(others.map(seatName)) });
  }
  if (ending.by === "time") {
    return youWin ? t("{player} ran out of time: you win.", { player })
      : t("{player} ran out of time: {winner} wins.", { player, winner: list(others.map(seatName)) });
  }
  return t("{player} did not move in time and lost the game.", { player });
}

// Whether an ending called the game off (core.record.CALLED_OFF): nobody won or lost, nothing was rated.
export function calledOff(ending) {
  return Boolean(ending && ["aborted", "no_start", "expired", "abandoned"].includes(ending.by));
}

// A person who leaves a rated game before this many moves of their own leaves it counting for nobody's rating
// (the server's splendor.server.moves.RATED_AFTER_MOVES; each seat's forfeit says whether it was ``too_soon``).
export const RATED_AFTER_MOVES = 5;

// Whether a seat's words may say that it leaves the game counting for nobody's rating: a rated game, unless its
// ratings are known to have changed (a game rated before the five-move rule, whose seat left sooner, had said so
// above the changes it made).
export function mayCountForNobody(state) {
  return Boolean(state.payload.rated) && !(state.ratings && state.ratings.rated === true);
}

// A seat of three or four whose person left (resigned, or idle past the limit) and a bot played on, in words:
// while the game goes on (and in a replay's caption at that move), or once it is ``over``, when the bot has played
// it on and the seat ranks last. One who left before their fifth move, with an account, leaves a rated game
// counting for nobody: said then, not only at its end. ``rated``: whether the game was created rated.
export function forfeitWords(seatInfo, seatName, rated = false, over = false) {
  const player = seatName(seatInfo.seat);
  const by = seatInfo.forfeit && seatInfo.forfeit.by;
  const said = over
    ? (by === "time" ? t("{player} ran out of time; a bot played their seat on, and it ranks last.", { player })
      : by === "resigned" ? t("{player} resigned; a bot played their seat on, and it ranks last.", { player })
        : t("{player} did not move in time; a bot played their seat on, and it ranks last.", { player }))
    : by === "time" ? t("{player} ran out of time; a bot plays their seat on and it ranks last.", { player })
      : by === "resigned" ? t("{player} resigned; a bot plays their seat on.", { player })
        : t("{player} did not move in time; a bot plays their seat on.", { player });
  const forfeit = rated && seatInfo.has_account && seatInfo.forfeit;
  const why = !forfeit ? null
    : forfeit.moved === false ? t("They never moved, so the game counts for nobody's rating.")
      : forfeit.too_soon ? tn("They left before making {n} move, so the game counts for nobody's rating.",
        "They left before making {n} moves, so the game counts for nobody's rating.", RATED_AFTER_MOVES)
        : null;
  return why ? `${said} ${why}` : said;
}

// How the game came out, in a sentence: "ann wins!", "ann and bob share the victory!", "bob resigned: ann wins."; to
// the seat that won alone, "You win!". Said on the end panel and, in the dock, when the panel is folded away. Null
// while the game goes on. ``you``: the seat this table plays (null for a spectator).
export function verdictWords(state, seatName, you = null) {
  const { view, ending } = state.payload;
  if (!view.is_over) return null;
  if (ending) return endingWords(ending, view.seats, seatName, you);
  const r = view.result;
  if (!r) return null;
  // the server's winners leave out a seat whose person left: the bot that played it on wins no one's victory
  const won = (w) => state.payload.winners.includes(w);
  const winners = r.winners.filter(won);
  const names = winners.map(seatName);
  const bots = r.winners.filter((w) => !won(w)).map(seatName);
  return r.status === "truncated" ? t("The game reached its turn limit: no winner.")
    : r.status === "stalled" ? t("No seat could act for a whole round, so the game ended there: no winner.")
    : !names.length ? t("The bot that played on for {player} wins: no player who stayed won.", { player: list(bots) })
    : names.length > 1 ? t("{players} share the victory!", { players: list(names) })
    : winners[0] === you ? t("You win!")
    : t("{player} wins!", { player: names[0] });
}

// Whether the end panel is folded away (``state.endFolded``: null, or the rematch there was when it was folded). A
// rematch asked for since shows it again: its offer to accept is on the panel, and folded it had waited unseen.
// Asked before the dock is drawn, so that the dock's "Show the result" goes with the fold.
export function endFolded(state) {
  if (state.endFolded && state.payload.rematch && state.payload.rematch !== state.endFolded.rematch) {
    state.endFolded = null;
  }
  return Boolean(state.endFolded);
}

// page: { state, gameId, mode, seat, seatName, render, showError }
export function renderEnd(page) {
  const { state, gameId, mode, seatName } = page;
  const box = document.getElementById("end");
  const { view, ending } = state.payload;
  // Folded away, to see the final table whole (the panel above it pushed it below a desktop's screen): the dock
  // says the verdict, with a button to show the panel again.
  if (!view.is_over || !(view.result || ending) || endFolded(state)) { morph(box); return; }
  const first = !box.childElementCount;
  const fold = el("button", { type: "button", id: "end-fold", class: "end-fold",
    onclick: () => { state.endFolded = { rematch: state.payload.rematch || null }; page.render(); } },
  t("Show the table"));
  const heading = [el("h2", {}, t("Game over")),
    el("span", { class: "status", id: ending ? "ending" : null }, verdictWords(state, seatName, page.seat))];
  const items = [];
  const after = [];
  if (!ending) {
    const r = view.result;
    const won = (w) => state.payload.winners.includes(w);
    // Kids has no points: whether each traveler reached the Palace (its score is 1 or 0), as a mark, not a number
    const standing = (i) => (state.payload.game !== "kids" ? r.scores[i] : r.scores[i] ? "✓" : "—");
    // the winners first, then the others by their points (ratings rank them together), and last a seat whose
    // person left, as ratings rank it
    const left = (i) => state.payload.seats[i] && state.payload.seats[i].forfeited;
    const rank = (i) => (left(i) ? 2 : won(i) ? 0 : 1);
    const order = view.seats.map((_, i) => i)
      .sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? r.scores[b] - r.scores[a] : 0) || a - b);
    const said = (i) => [r.winners.includes(i) ? `★ ${won(i) ? t("winner") : t("the bot playing on")}` : "",
      left(i) ? t("left: ranks last") : ""].filter(Boolean).join(" · ");
    // beside the points, the count the rules' tie-break reads: a classic seat's development cards (fewer wins a
    // tie), a Pokémon seat's cards under its trainer tile (more wins one)
    const game = state.payload.game;
    const tieCount = game === "classic" && r.cards_bought ? [t("cards"), r.cards_bought]
      : game === "pokemon" && r.under_tile ? [t("under the trainer tile"), r.under_tile] : null;
    const rows = order.map((i) => el("tr", { "data-seat": i }, el("td", {}, seatName(i)), el("td", {}, standing(i)),
      tieCount ? el("td", {}, tieCount[1][i]) : null, el("td", {}, said(i))));
    if (r.tie_break) items.push(el("p", {}, t("Tie-break: {rule}.", { rule: t(r.tie_break) })));
    items.push(el("table", { class: "list" }, el("thead", {}, el("tr", {}, el("th", {}, t("player")),
      el("th", {}, game === "kids" ? t("in the Palace") : t("points")), tieCount ? el("th", {}, tieCount[0]) : null,
      el("th", {}))),
      el("tbody", {}, rows)));
  }
  for (const s of state.payload.seats.filter((x) => x.forfeited)) {
    items.push(el("p", { class: "note", "data-forfeit": s.seat },
      forfeitWords(s, seatName, mayCountForNobody(state), true)));
  }
  const r = view.result || {};
  if (r.pokedex) {
    items.push(el("h2", {}, t("Pokédex marks")));
    r.pokedex.forEach((caught, i) => items.push(el("p", {},
      `${seatName(i)}: ${caught.map((p) => t(p)).join(", ") || t("none")}`,
      state.payload.seats[i].profile ? " " : "",
      state.payload.seats[i].profile
        ? el("a", { href: `/pokedex/${encodeURIComponent(state.payload.seats[i].profile)}` }, t("(Pokédex)")) : "")));
  }
  // A game called off or expired while a seat was still open never began: nothing to review, no seats to play again.
  const neverBegan = state.payload.seats.some((s) => s.kind === "open");
  after.push(ratingsSection(page));
  const unplayed = neverBegan || !state.payload.actions;  // no move to replay or review
  // the record and the replay as links on a line, the review a button beside them (a dot before it had been left
  // dangling at a line's end when it wrapped); a replay does not link to itself
  after.push(el("p", { class: "row end-links" }, el("a", { href: `/api/games/${gameId}/record`,
    download: `splendor-${gameId}.record` }, t("Download the record")),
  ...(unplayed ? [] : [mode === "replay" ? null : el("a", { href: `/replay/${gameId}` }, t("Replay it step by step")),
    el("a", { href: `/replay/${gameId}?review`, id: "review-link", class: "button" }, t("Review"))])));
  if (mode === "play" && neverBegan) after.push(el("p", {}, el("a", { href: "/" }, t("Back to the lobby"))));
  else if (!neverBegan && mode !== "replay") after.push(rematchRow(page));
  // the scores and what comes next side by side where there is room, so the panel is short
  // (a game that ended by a resignation has no scores: what comes next takes the whole width)
  morph(box, [el("section", { class: "panel", id: "game-over" }, el("div", { class: "end-head" }, ...heading, fold),
    el("div", { class: items.length ? "end-body" : "end-body alone" }, items.length
      ? el("div", { class: "end-result" }, ...items) : null, el("div", { class: "end-after" }, ...after)))]);
  if (first && mode !== "replay") box.scrollIntoView({ block: "start" });     // the result, at the top
}

// What the game did to its players' ratings, read once when it is over (and again if the reader asks, after a
// failure).
function ratingsSection(page) {
  const { state, gameId, seatName } = page;
  if (state.ratings === null) {
    state.ratings = "asked";
    api(`/api/games/${gameId}/ratings`).then((r) => { state.ratings = r; page.render(); })
      .catch(() => { state.ratings = { rated: false, changes: [], failed: true }; page.render(); });
  }
  const r = state.ratings;
  if (!r || r === "asked") return null;
  if (r.failed) {                          // said, with a way to ask again, never hidden for good
    return el("p", { class: "note", id: "rating-changes" }, t("The ratings could not be read."), " ",
      el("button", { type: "button", id: "ratings-again", onclick: () => { state.ratings = null; page.render(); } },
        t("Read them again")));
  }
  if (!r.rated && calledOff(state.payload.ending)) return null;   // its ending says "not rated" already: once
  if (!r.rated) {
    return el("p", { class: "note", id: "rating-changes" }, r.unplayed
      ? tn("Not rated: someone left it before making {n} move, as an aborted game is not.",
        "Not rated: someone left it before making {n} moves (or never moved), as an aborted game is not.",
        RATED_AFTER_MOVES)
      : !state.payload.seats.some((s) => s.has_account) ? t("Not rated: nobody in it played with an account.")
      : !state.payload.rated ? t("Not rated: the game was created unrated.")
      : state.payload.seats.every((s) => s.kind !== "human" || s.has_account)
        ? t("Not rated: the game ended without a winner.")
        : t("Not rated: a game is rated when every person in it plays with an account."));
  }
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  return el("section", { id: "rating-changes" }, el("h2", {}, t("Ratings")), ...r.changes.map((c) =>
    el("p", { "data-rating-seat": c.seat }, t("{name}: {before} → {after} ({change})", { name: seatName(c.seat),
      before: c.before, after: c.after, change: signed(c.change) }))),
  el("p", {}, el("a", { href: `/leaderboard#${state.payload.game}` }, t("See the leaderboard"))));
}

// The same game again, with the same people (splendor/server/rematches.py): the first to ask deals it, the bots
// in their seats and every other person's seat kept for them; each other table of this game then offers its person
// their seat ("ann asked for a rematch." Accept), and nobody plays until all are seated. You go to your seat there.
// Before accepting, the panel reads the rematch again: one called off meanwhile is said (a press then asks for a
// new one), and a seat taken meanwhile (in another tab) is gone to, never given a new secret that would shut the
// other tab out. ``again``: the seat is this person's already but this browser lost its link: a new secret.
async function rematch(page, { seat, headers }, again = false) {
  const { gameId, state } = page;
  if (state.rematchAsking) return;                  // one request at a time: a second press sends nothing
  state.rematchAsking = true;
  page.render();
  if (state.payload.rematch && !again) {
    const before = state.rematchInfo;
    await readRematch(page);
    const now = state.rematchInfo;
    const mine = now.seats && now.seats[seat];
    if ((now.dead && !(before && before.dead)) || (mine && mine.kind !== "open")) {
      state.rematchAsking = false;                  // drawn as it now stands: said, not pressed through
      page.render();
      return;
    }
  }
  try {
    const made = await api(`/api/games/${gameId}/seats/${seat}/rematch`, { method: "POST", headers });
    keepGame({ id: made.id, game: state.payload.game, seat, link: made.link });
    location.href = made.link;
  } catch (e) {
    state.rematchAsking = false;
    page.showError(t("No rematch: {reason}", { reason: e.message }));
    if (state.payload.rematch) readRematch(page);
  }
}

// Where this game's rematch stands: who sits in it already, and whether it ended before it began (expired, or
// called off: then a new one may be asked for). Read when it appears, every five seconds while it waits, and
// before a press.
async function readRematch(page) {
  const { state } = page;
  const id = state.payload.rematch;
  clearTimeout(state.rematchTimer);
  try {
    const answer = await api(`/api/games/${id}`);
    const waiting = answer.seats.some((s) => s.kind === "open");
    state.rematchInfo = { id, seats: answer.seats, dead: answer.over && waiting,
      ending: answer.ending && answer.ending.by };
    if (waiting && !answer.over) state.rematchTimer = setTimeout(() => readRematch(page), 5000);
  } catch (e) { state.rematchInfo = { id, seats: null }; }
  page.render();
}

// Who at this table is one of the game's people: the seat played here; watching (a seat that resigned watches on),
// the seat this browser played (its link kept in "Your games", as the chat finds it) or the account keeps. Null: a
// spectator.
function person(page) {
  if (page.mode === "play") return { seat: page.seat, headers: page.auth };
  const kept = keptSeat(page.gameId);
  if (kept) return kept;
  const mine = page.state.me && (page.state.me.games || []).find((g) => g.id === page.gameId);
  return mine ? { seat: mine.seat, headers: {} } : null;            // the session's cookie
}

// The end panel's way on: ask for a rematch, accept the one another asked for, or go to your seat in it; a
// spectator watches it.
function rematchRow(page) {
  const { state } = page;
  const id = state.payload.rematch;
  const who = person(page);
  const lobby = el("a", { href: "/" }, t("Back to the lobby"));
  if (id && (!state.rematchInfo || state.rematchInfo.id !== id)) {
    state.rematchInfo = { id, seats: null };       // read once it appears; drawn again when read
    readRematch(page);
  }
  const info = id ? state.rematchInfo : null;
  const dead = Boolean(info && info.dead);         // it expired, or was called off: ask again
  const asking = { disabled: Boolean(state.rematchAsking) };
  if (!id || dead) {
    const said = !dead ? null : el("span", { id: "rematch-gone" }, info.ending === "aborted"
      ? t("The rematch was called off.") : t("The rematch expired: nobody took the seats in time."));
    return who ? el("div", { class: "row" }, said, el("button", { type: "button", class: "primary", id: "rematch",
      ...asking, onclick: () => rematch(page, who) }, t("Rematch (the same seats)")), lobby) : said;
  }
  if (!who) return el("p", {}, el("a", { href: `/watch/${id}`, id: "watch-rematch" }, t("Watch the rematch")));
  const seats = info.seats || [];
  const mine = seats[who.seat];
  if (mine && mine.kind !== "open") {              // seated there already: its link, kept in this browser or account
    const kept = myGames().find((g) => g.id === id && g.seat === who.seat && linkToken(g.link));
    const link = kept ? kept.link : mine.has_account && state.me ? `/play/${id}?seat=${who.seat}` : null;
    if (!link) {                                   // its link lost (the answer never came): the seat, a new secret
      return el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "rematch",
        ...asking, onclick: () => rematch(page, who, true) }, t("Take my seat in the rematch")), lobby);
    }
    return el("div", { class: "row" }, el("a", { class: "button primary", id: "to-rematch", href: link },
      t("Go to the rematch")), lobby);
  }
  const askers = seats.filter((s) => s.kind === "human").map((s) => page.seatName(s.seat));
  return el("div", { class: "row rematch-offer" }, el("span", { id: "rematch-asked" }, askers.length
    ? t("{players} asked for a rematch.", { players: list(askers) }) : t("A rematch was asked for.")),
  el("button", { type: "button", class: "primary", id: "rematch", ...asking, onclick: () => rematch(page, who) },
    t("Accept the rematch")), lobby);
}
