// The end of a game on its table: the verdict, the scores, the Pokédex marks, the ratings it changed, the record,
// the replay and a rematch of the same seats.
import { api, el, keepGame, morph } from "/static/common.js";
import { list, t } from "/static/i18n.js";

// How a game ended when no rule ended it (payload.ending: a seat resigned, aborted, or did not move in time), in
// words: "Player 2 resigned: Player 1 wins." Null when the rules ended it.
export function endingWords(ending, seats, seatName) {
  if (!ending) return null;
  const player = seatName(ending.seat);
  if (ending.by === "aborted") return t("{player} aborted the game: no winner, not rated.", { player });
  if (ending.by === "no_start") {
    return t("{player} did not make a first move in time: the game is called off, no winner, not rated.", { player });
  }
  if (ending.by === "expired") return t("Nobody took the open seats in time: the game expired, no winner, not rated.");
  if (ending.by === "resigned") {
    const others = seats.map((_, i) => i).filter((i) => i !== ending.seat).map(seatName);
    return t("{player} resigned: {winner} wins.", { player, winner: list(others) });
  }
  if (ending.by === "time") {
    const others = seats.map((_, i) => i).filter((i) => i !== ending.seat).map(seatName);
    return t("{player} ran out of time: {winner} wins.", { player, winner: list(others) });
  }
  return t("{player} did not move in time and lost the game.", { player });
}

// A seat of three or four whose person left (resigned, or idle past the limit) and a bot played on, in words:
// while the game goes on (and in a replay's caption at that move), or once it is ``over``, when the bot has played
// it on and the seat ranks last. One who left before their first move, with an account, leaves a rated game
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
  const unplayed = rated && seatInfo.has_account && seatInfo.forfeit && seatInfo.forfeit.moved === false;
  return unplayed ? `${said} ${t("They never moved, so the game counts for nobody's rating.")}` : said;
}

// page: { state, gameId, mode, seat, seatName, render, showError }
export function renderEnd(page) {
  const { state, gameId, mode, seatName } = page;
  const box = document.getElementById("end");
  const { view, ending } = state.payload;
  if (!view.is_over || !(view.result || ending)) { morph(box); return; }
  const first = !box.childElementCount;
  const items = [el("h2", {}, t("Game over"))];
  if (ending) items.push(el("p", { class: "status", id: "ending" }, endingWords(ending, view.seats, seatName)));
  else {
    const r = view.result;
    // the server's winners leave out a seat whose person left: the bot that played it on wins no one's victory
    const won = (w) => state.payload.winners.includes(w);
    const names = r.winners.filter(won).map(seatName);
    const bots = r.winners.filter((w) => !won(w)).map(seatName);
    const verdict = r.status === "truncated" ? t("The game reached its turn limit: no winner.")
      : r.status === "stalled" ? t("No seat could act for a whole round, so the game ended there: no winner.")
      : !names.length ? t("The bot that played on for {player} wins: no player who stayed won.", { player: list(bots) })
      : names.length > 1 ? t("{players} share the victory!", { players: list(names) })
      : t("{player} wins!", { player: names[0] });
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
    const rows = order.map((i) => el("tr", { "data-seat": i }, el("td", {}, seatName(i)), el("td", {}, standing(i)),
      el("td", {}, said(i))));
    items.push(el("p", { class: "status" }, verdict));
    if (r.tie_break) items.push(el("p", {}, t("Tie-break: {rule}.", { rule: t(r.tie_break) })));
    items.push(el("table", { class: "list" }, el("thead", {}, el("tr", {}, el("th", {}, t("player")),
      el("th", {}, state.payload.game === "kids" ? t("in the Palace") : t("points")), el("th", {}))),
      el("tbody", {}, rows)));
  }
  for (const s of state.payload.seats.filter((x) => x.forfeited)) {
    items.push(el("p", { class: "note", "data-forfeit": s.seat },
      forfeitWords(s, seatName, state.payload.rated, true)));
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
  items.push(ratingsSection(page));
  items.push(el("p", {}, el("a", { href: `/api/games/${gameId}/record`, download: `splendor-${gameId}.record` },
    t("Download the record")), ...(neverBegan ? [] : [" · ", el("a", { href: `/replay/${gameId}` },
    t("Replay it step by step")), " · ", el("a", { href: `/replay/${gameId}?review`, id: "review-link",
    class: "button" }, t("Review"))])));
  if (mode === "play" && neverBegan) items.push(el("p", {}, el("a", { href: "/" }, t("Back to the lobby"))));
  else if (mode === "play") {
    items.push(el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "rematch",
      onclick: () => rematch(page) }, t("Rematch (the same seats)")), el("a", { href: "/" }, t("Back to the lobby"))));
    if (state.rematchLinks) items.push(state.rematchLinks);
  }
  morph(box, [el("section", { class: "panel", id: "game-over" }, ...items)]);
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
  if (!r.rated) {
    return el("p", { class: "note", id: "rating-changes" }, r.unplayed
      ? t("Not rated: someone in it never moved, as in an aborted game.")
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

// The same game again: its options, its clock, its people (one who left it and a bot played on for is a person
// again) and its bots, rated as it was where the one asking may play rated (signed in). You go to your seat
// there; the other people's links are shown for you to send them.
async function rematch(page) {
  const { state, seat } = page;
  const { view, clock, rated } = state.payload;
  const seats = state.payload.seats.map((s) => s.kind === "bot" && !s.forfeited
    ? { kind: "bot", bot: s.bot, name: s.name }
    : { kind: "human", name: s.name, mine: Boolean(state.me) && s.seat === seat || undefined });
  const options = state.payload.game === "kids" ? { short: view.short, mysteries: view.mysteries } : {};
  try {
    const made = await api("/api/games", { method: "POST", body: JSON.stringify({ game: state.payload.game, seats,
      options, clock: clock ? clock.control : null, rated: Boolean(rated && state.me) }) });
    const mine = made.seats.find((s) => s.seat === seat);
    keepGame({ id: made.id, game: state.payload.game, seat, link: mine.link, at: Date.now() });
    const others = made.seats.filter((s) => s.link && s.seat !== seat);
    if (!others.length) { location.href = mine.link; return; }
    state.rematchLinks = el("div", { id: "rematch-links" }, el("p", {},
      t("Send the others their new links, then go to your seat:"), " ", el("a", { href: mine.link },
        t("your seat"))), ...others.map((s) => el("p", {},
      el("label", {}, `${s.name || t("Player {number}", { number: s.seat + 1 })}: `,
        el("input", { readonly: true, value: s.link })))));
    page.render();
  } catch (e) { page.showError(t("No rematch: {reason}", { reason: e.message })); }
}
