// Actions in full sentences of the reader's language, for the log, the announcements and the buttons. Each
// sentence is one message with its values filled in (never English words glued together).
import { COMMA, N_, SEMICOLON, list, t, tn, tokens } from "/static/i18n.js";

// A token's name by its colour ("pink" → "Heal Ball", "black" in Kids → "mushroom"), in the reader's language:
// the games' own table, served with the catalog.
export function tokenName(game, colour) {
  return tokens[game]?.words[colour] ?? colour;
}

// A number of one colour's tokens, as a cost or a noble's demand says it: "3 white" in classic (a colour, said as
// an adjective), "4 Great Balls" in Pokémon (a ball, a noun counted in the reader's language).
export function tokensOf(game, colour, n) {
  return game === "pokemon" ? tn("{n} {ball}", "{n} {ball}s", n, { n, ball: tokenName(game, colour) })
    : t("{n} {colour}", { n, colour: tokenName(game, colour) });
}

// A token's name by its letter ("r" → "red", "Poké Ball", "apple").
export function colourName(game, letter) {
  const colour = tokens[game]?.letters[letter];
  return colour ? tokenName(game, colour) : letter;
}

// The card a move takes, as ``view`` shows it (a seat's or the spectator's): so a move's words name the card ("buys
// a tier 1 card (1★, ...)"), not only its place. As details for `describe` and `advice`; null for a card not in
// sight (a deck's top, another's card reserved face down) or a move that takes none.
export function cardInSight(view, seat, action) {
  const w = action.split(" ");
  if (!view || !["buy", "catch", "reserve"].includes(w[0]) || w[1] === "deck") return null;
  const [row, n] = w[1].split(".");
  const card = w[1] === "reserved" ? ((view.seats[seat] || {}).reserved || [])[Number(w[2]) - 1]
    : ((view.market || {})[row] || [])[n ? Number(n) - 1 : 0];
  return card && !card.hidden ? { card } : null;
}

// A card in words: "Pikachu (level 1, 1★, Poké Ball bonus, costs 2 Heal Ball)"; "a tier 2 card (2★, ...)";
// without its cost where none is paid (an evolution) or where what was paid is said instead (a buy's log). Alone
// (a card's title, what a screen reader names it) "tier 2 card (…)": a message of its own, for the languages whose
// object takes another case than a name does (Slovenian "kupi karto", "karta stopnje 2").
export function cardWords(game, card, { cost = true, alone = false } = {}) {
  const worth = [card.points ? `${card.points}★` : t("no points"),
    card.bonus_count > 1 ? t("double {colour} bonus", { colour: tokenName(game, card.bonus) })
      : t("{colour} bonus", { colour: tokenName(game, card.bonus) }),
    ...(cost ? [costWords(game, card)] : [])].join(COMMA);
  if (game === "pokemon") {       // a rare or a legendary Pokémon is that, not "level rare"
    const pokemon = t(card.name);
    if (card.level === "rare") return t("{pokemon} (rare, {worth})", { pokemon, worth });
    if (card.level === "legendary") return t("{pokemon} (legendary, {worth})", { pokemon, worth });
    return t("{pokemon} (level {level}, {worth})", { pokemon, level: card.level, worth });
  }
  return alone ? t("tier {tier} card ({worth})", { tier: card.tier, worth })
    : t("a tier {tier} card ({worth})", { tier: card.tier, worth });
}

function where(slot, game) {
  if (slot === "rare") return t("the rare Pokémon");
  if (slot === "legendary") return t("the legendary Pokémon");
  const [tier, n] = slot.split(".");
  return game === "pokemon" ? t("the card at level {tier}, slot {slot}", { tier, slot: n })
    : t("the card at tier {tier}, slot {slot}", { tier, slot: n });
}

// Counts by colour, each as a cost says it ("2 white", "3 Heal Balls"), the zeros left out.
// What a card costs, in words: "costs 2 Poké Balls and 3 Ultra Balls", or "free".
export function costWords(game, card) {
  const costs = countsOf(game, card.cost || {});
  return costs.length ? t("costs {cost}", { cost: list(costs) }) : t("free");
}

// Counts by colour in the game's own order (classic: white, blue, green, red, black), whatever order they came in:
// the review's cards came sorted by name, so one card's cost read in two orders on one screen.
function countsOf(game, counts) {
  const order = Object.values(tokens[game]?.letters || {});
  const rank = (colour) => (order.includes(colour) ? order.indexOf(colour) : order.length);
  return Object.entries(counts).filter(([, n]) => n).sort(([a], [b]) => rank(a) - rank(b))
    .map(([c, n]) => tokensOf(game, c, n));
}

// A noble's visit, as a phrase after its player's ("...; pays 1 red; is visited by Patron of ... (3★, for bonuses of
// 3 white, 3 blue and 3 black)"): "Patron of ... visits" had left whom it visited unsaid. ``player``: as a whole
// sentence, the noble chosen among several.
function nobleWords(game, noble, player = null) {
  const words = { noble: noble.name ? t(noble.name) : t("noble {number}", { number: noble.id }),
    points: noble.points, needs: list(countsOf(game, noble.requires)) };
  return player === null ? t("is visited by {noble} ({points}★, for bonuses of {needs})", words)
    : t("{player} chooses to be visited by {noble} ({points}★, for bonuses of {needs})", { ...words, player });
}

const VILLAGE_TILES = {
  Tornado: N_("turns up the Tornado: the Marketplace's tiles are gone for the rest of the game"),
  Treasure: N_("turns up a Treasure"),
  Drought: N_("turns up the Drought"), "Kind-Hearted Thief": N_("turns up the Kind-Hearted Thief"),
  "Queen's Gem": N_("turns up the Queen's Gem") };

// What a player did, as a sentence: "Ana buys a tier 2 card (...); pays 3 red and 1 gold; is visited by Patron of
// Rubies and Onyx (...)".
// details is what everyone saw of it (the server's log), when known; nameOf(seat) names a seat.
export function describe(game, text, details = null, nameOf = (seat) => t("seat {seat}", { seat }), actor = null) {
  const player = actor === null ? "" : nameOf(actor);
  const d = details || {};
  const then = [];
  // the tokens that changed hands, which the card's cost does not say: a gold or a Master Ball standing in
  const counted = (tokens) => {
    const parts = countsOf(game, tokens);
    return parts.length ? list(parts) : t("nothing");
  };
  // nothing paid is a phrase of its own: "pays {tokens}" with "nothing" read "支付了无" in Chinese
  if (d.paid) then.push(countsOf(game, d.paid).length ? t("pays {tokens}", { tokens: counted(d.paid) })
    : t("pays nothing"));
  if (d.received) then.push(t("receives {tokens}", { tokens: counted(d.received) }));
  // a noble chosen among several is the action itself, said once: "ann chooses to be visited by ..."
  const chosen = text.split(" ")[0] === "noble" ? (d.nobles || []).find((n) => String(n.id) === text.split(" ")[1])
    : null;
  for (const noble of d.nobles || []) if (noble !== chosen) then.push(nobleWords(game, noble));
  if (d.village_tile) then.push(VILLAGE_TILES[d.village_tile] ? t(VILLAGE_TILES[d.village_tile]) : d.village_tile);
  if (d.city_tiles && text.split(" ")[0] !== "city") {   // a City tile chosen is said by the action itself
    then.push(t("takes {tiles}", { tiles: list(d.city_tiles.map((c) => t("a City tile ({resource})",
      { resource: tokenName("kids", c) }))) }));
  }
  // A medal chosen is said by the action itself ("medal 3"); one given without a choice, as a consequence.
  if (d.medal && text.split(" ")[0] !== "medal") then.push(t("receives Queen's Medal {medal}", { medal: d.medal }));
  if (d.extra_turn) then.push(t("plays again (a village)"));
  const head = chosen ? nobleWords(game, chosen, player) : sentence(game, text, d, nameOf, player);
  return [head, ...then].join(SEMICOLON);
}

// A seat's turn in words, a phrase an action, except that the tokens it returned (Kids: discarded to a Drought) are
// said together, after what it took without its name again: "ann takes white, blue and green; returns 2 white and
// 1 blue", where each return had been a phrase of its own with the name ("ann returns one white; ann returns one
// white; ..."), and cut a seat's last turn short.
const TOGETHER = {
  return: { named: N_("{player} returns {tokens}"), after: N_("returns {tokens}") },
  discard: { named: N_("{player} discards {tokens} (Drought)"), after: N_("discards {tokens} (Drought)") } };
export function turnWords(game, entries, nameOf) {
  const out = [];
  for (let i = 0; i < entries.length; i++) {
    const kind = entries[i].action.split(" ")[0];
    // a Pokémon seat asked whether to evolve, which declines, is asked each turn it holds a hidden card that might be
    // the evolution (ruling 5): said after its turn's move, not as a sentence of its own each time
    if (entries[i].action === "evolve none" && i > 0 && entries[i - 1].seat === entries[i].seat && out.length) {
      out[out.length - 1] += `${SEMICOLON}${t("does not evolve")}`;
      continue;
    }
    if (!TOGETHER[kind]) {
      out.push(describe(game, entries[i].action, entries[i].details, nameOf, entries[i].seat));
      continue;
    }
    let j = i;
    while (j + 1 < entries.length && entries[j + 1].action.split(" ")[0] === kind) j++;
    const tokens = tokensTogether(game, entries.slice(i, j + 1).map((e) => e.action.split(" ")[1]));
    const sameSeat = i > 0 && entries[i - 1].seat === entries[i].seat;
    if (sameSeat && out.length) out[out.length - 1] += `${SEMICOLON}${t(TOGETHER[kind].after, { tokens })}`;
    else out.push(t(TOGETHER[kind].named, { player: nameOf(entries[i].seat), tokens }));
    i = j;
  }
  return out;
}

// Tokens given back in one turn, by their letters: counted as colours are ("2 white and 1 blue"); Kids' resources,
// nouns, named one by one as its payments are ("mushroom, mushroom and apple").
function tokensTogether(game, letters) {
  if (game === "kids") return list(letters.map((l) => colourName(game, l)));
  const counts = {};
  for (const letter of letters) {
    const colour = tokens[game]?.letters[letter] || letter;
    counts[colour] = (counts[colour] || 0) + 1;
  }
  return list(countsOf(game, counts));
}

function sentence(game, text, d, nameOf, player) {
  const w = text.split(" ");
  const name = (l) => colourName(game, l);
  const p = { player };
  const bought = () => cardWords(game, d.card, { cost: !d.paid });    // what was paid is said after it, not the cost
  if (d.card && w[0] === "buy") return t("{player} buys {card}", { ...p, card: bought() });
  if (d.card && w[0] === "catch") return t("{player} catches {card}", { ...p, card: bought() });
  if (d.card && w[0] === "reserve" && w[1] !== "deck") {
    return t("{player} reserves {card}", { ...p, card: cardWords(game, d.card) });
  }
  if (d.card && d.into && w[0] === "evolve") {
    return t("{player} evolves {pokemon} into {card}",
      { ...p, pokemon: t(d.card.name), card: cardWords(game, d.into, { cost: false }) });
  }
  switch (w[0]) {
    case "take":
      if (w[1] === "y" && game === "kids" && w.length === 2) return t("{player} takes a gold coin", p);
      if (w.length === 3 && w[1] === w[2]) return t("{player} takes two {token} tokens", { ...p, token: name(w[1]) });
      return t("{player} takes {tokens}", { ...p, tokens: list(w.slice(1).map(name)) });
    case "reserve":
      if (w[1] !== "deck") return t("{player} reserves {card}", { ...p, card: where(w[1], game) });
      return game === "pokemon" ? t("{player} reserves the top card of the level {tier} deck", { ...p, tier: w[2] })
        : t("{player} reserves the top card of the tier {tier} deck", { ...p, tier: w[2] });
    case "buy":
      return w[1] === "reserved" ? t("{player} buys reserved card {number}", { ...p, number: w[2] })
        : t("{player} buys {card}", { ...p, card: where(w[1], game) });
    case "catch":
      return w[1] === "reserved" ? t("{player} catches reserved card {number}", { ...p, number: w[2] })
        : t("{player} catches {card}", { ...p, card: where(w[1], game) });
    case "return": return t(TOGETHER.return.named, { ...p, tokens: tokensTogether(game, [w[1]]) });
    case "discard": return t(TOGETHER.discard.named, { ...p, tokens: tokensTogether(game, [w[1]]) });
    case "noble": return t("{player} is visited by noble {number}", { ...p, number: w[1] });
    case "evolve":
      if (w[1] === "none") return t("{player} does not evolve", p);
      return t("{player} evolves #{id} into {card}", { ...p, id: w[1],
        card: w[2] === "reserved" ? t("reserved card {number}", { number: w[3] }) : where(w[2], game) });
    case "move": {
      const payment = paymentWords(game, w);
      return d.to ? t("{player} moves along road {road} to {place}, paying {payment}",
        { ...p, road: w[1], place: t(d.to.name), payment })
        : t("{player} moves along road {road}, paying {payment}", { ...p, road: w[1], payment });
    }
    case "give":
      return t("{player} gives one {token} to {receiver} (the Kind-Hearted Thief)",
        { ...p, token: name(w[1]), receiver: nameOf(Number(w[3])) });
    case "city": {
      const tile = (d.city_tiles || [])[0];     // what it turned out to be, when the log knows it
      if (tile) {
        const resource = tokenName("kids", tile);
        return w[1] === "stack" ? t("{player} takes the top City tile ({resource})", { ...p, resource })
          : t("{player} takes Marketplace tile {slot} ({resource})", { ...p, slot: w[2], resource });
      }
      return w[1] === "stack" ? t("{player} takes the top City tile", p)
        : t("{player} takes Marketplace tile {slot}", { ...p, slot: w[2] });
    }
    case "medal": return t("{player} receives Queen's Medal {medal}", { ...p, medal: w[1] });
    case "pass": return t("{player} passes", p);
    default: return `${player} ${text}`;
  }
}

// A road's payment in words ("mushroom and a City tile (apple)"): the tokens and tiles after "move N pay".
function paymentWords(game, w) {
  return list(w.slice(3).map((x) => x.startsWith("tile:")
    ? t("a City tile ({resource})", { resource: colourName(game, x.slice(5)) }) : colourName(game, x)));
}

// An action as advice to the one who may do it, for the hint: "Take red, blue and green", "Buy the card at tier 2,
// slot 3"; the decisions after a turn's action as their buttons say them.
export function advice(game, text, nameOf, details = null) {
  const w = text.split(" ");
  const card = details && details.card ? cardWords(game, details.card) : null;    // the card, when it is in sight
  const name = (l) => colourName(game, l);
  switch (w[0]) {
    case "take":
      if (w[1] === "y" && game === "kids" && w.length === 2) return t("Take a gold coin");
      if (w.length === 3 && w[1] === w[2]) return t("Take two {token} tokens", { token: name(w[1]) });
      return t("Take {tokens}", { tokens: list(w.slice(1).map(name)) });
    case "reserve":
      if (w[1] !== "deck") return t("Reserve {card}", { card: card || where(w[1], game) });
      return game === "pokemon" ? t("Reserve the top card of the level {tier} deck", { tier: w[2] })
        : t("Reserve the top card of the tier {tier} deck", { tier: w[2] });
    case "buy":
      if (card) return t("Buy {card}", { card });
      return w[1] === "reserved" ? t("Buy reserved card {number}", { number: w[2] })
        : t("Buy {card}", { card: where(w[1], game) });
    case "catch":
      if (card) return t("Catch {card}", { card });
      return w[1] === "reserved" ? t("Catch reserved card {number}", { number: w[2] })
        : t("Catch {card}", { card: where(w[1], game) });
    case "evolve":
      if (w[1] === "none") return actionLabel(game, text, nameOf);
      return t("Evolve #{id} into {card}", { id: w[1],
        card: w[2] === "reserved" ? t("reserved card {number}", { number: w[3] }) : where(w[2], game) });
    case "move": return t("Move along road {road}, paying {payment}", { road: w[1], payment: paymentWords(game, w) });
    default: return actionLabel(game, text, nameOf);
  }
}

// An action as a button says it, to the one who will do it: "Return one red", "Give one apple to Ana".
export function actionLabel(game, text, nameOf) {
  const w = text.split(" ");
  const name = (l) => colourName(game, l);
  switch (w[0]) {
    case "return": return t("Return one {token}", { token: name(w[1]) });
    case "discard": return t("Discard one {token}", { token: name(w[1]) });
    case "noble": return t("Noble {number}", { number: w[1] });
    case "evolve": return w[1] === "none" ? t("Do not evolve") : t("Evolve #{id}", { id: w[1] });
    case "give": return t("Give one {token} to {receiver}", { token: name(w[1]), receiver: nameOf(Number(w[3])) });
    case "city": return w[1] === "stack" ? t("Take the top City tile")
      : t("Take Marketplace tile {slot}", { slot: w[2] });
    case "medal": return t("Queen's Medal {medal}", { medal: w[1] });
    case "move": return t("Pay {payment}", { payment: paymentWords(game, w) });
    case "pass": return t("Pass");
    default: return text;
  }
}
