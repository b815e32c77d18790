// "How to play": each game's rules in a few lines, as the table plays them (docs/classic.md, pokemon.md, kids.md
// hold the full statement and the project's rulings).
import { el } from "/static/common.js";
import { N_, t } from "/static/i18n.js";
import { LETTER_KEYS, letterKeysOn } from "/static/keys.js";

const RULES = {
  classic: [
    N_("On your turn, do one thing: take 3 tokens of different colours; take 2 tokens of one colour (only when 4 or "
      + "more of it are left); reserve a card (into your hand, at most 3, with a gold token if any is left); or buy "
      + "a card from the table or your hand."),
    N_("A card's cost is paid with tokens, less one for each bonus of that colour you own: every card you buy gives a "
      + "permanent bonus (its gem). Gold pays for any colour."),
    N_("You may hold 10 tokens at most: return the extra at the end of your turn."),
    N_("A noble visits you at the end of your turn when your bonuses meet what it asks for (3★); if several could, "
      + "you choose one."),
    N_("When someone reaches 15★, the round is played to its end. Most points wins; on a tie, fewer cards wins."),
  ],
  pokemon: [
    N_("On your turn, do one thing: take 3 balls of different colours; take 2 of one colour (only when 4 or more are "
      + "left); reserve a Pokémon (at most 3, with a Master Ball if any is left); or catch a Pokémon from the table "
      + "or your hand."),
    N_("A Pokémon's cost is paid with balls, less one for each bonus of that colour in your play area. A Master Ball "
      + "stands in for any colour; rare and legendary Pokémon also cost one Master Ball, which only a Master Ball "
      + "pays, and give two bonuses."),
    N_("You may hold 10 balls at most. Then, if your bonuses allow it, you may evolve one Pokémon into the next one "
      + "(from the table or your hand, for free): the old card goes under your trainer tile."),
    N_("When someone reaches 18★, the round is played to its end. Most points wins; on a tie, most cards under the "
      + "trainer tile, then most Pokémon in play. Every Pokémon you catch goes into your Pokédex."),
  ],
  kids: [
    N_("Travel from the Port to the Palace of Splendor. On your turn, do one thing: take 3 resources of different "
      + "kinds; take 2 of one kind; take a gold coin; or move along a road, paying exactly its banner with "
      + "resources, active City tiles and gold coins (any kind)."),
    N_("Your purse holds 8 tokens at most: return the extra. Arriving in a city, take a City tile: it pays one "
      + "resource of its kind on a later road, and all your used tiles turn active again. A village gives you "
      + "another turn."),
    N_("Reaching the Palace, take a Queen's Medal; the gates close and the round is played to its end. Everyone in "
      + "the Palace then shares the victory."),
    N_("Mysteries variant: the middle villages hide tiles (a Tornado, a Treasure, a Drought, the Kind-Hearted Thief, "
      + "the Queen's Gem, whose holder wins alone in the Palace) and three City tiles lie open in the Marketplace."),
  ],
};

// The keys of the table, per game: listed under the rules so that nobody has to guess them.
const KEYS = {
  classic: [
    [["w", "b", "g", "r", "k"], N_("choose a colour of the supply (again: two of it, or put it back)")],
    [["Enter"], N_("take the chosen tokens; in a card's menu, its focused action")],
    [["Esc"], N_("let go of the chosen tokens or close a menu")],
    [["1–3", "1–4"], N_("a card by its tier and slot: opens its menu (Buy, Reserve)")],
    [["1–3", "d"], N_("a deck: reserve its top card")],
    [["0", "1–3"], N_("one of your reserved cards")],
    [["?"], N_("open or close this panel")],
  ],
  pokemon: [
    [["r", "b", "k", "p", "y"], N_("choose a ball of the supply (again: two of it, or put it back)")],
    [["Enter"], N_("take the chosen balls; in a card's menu, its focused action")],
    [["Esc"], N_("let go of the chosen balls or close a menu")],
    [["1–3", "1–4"], N_("a Pokémon by its level and slot: opens its menu (Catch, Reserve)")],
    [["4", "1–2"], N_("the rare or the legendary Pokémon")],
    [["1–3", "d"], N_("a deck: reserve its top card")],
    [["0", "1–3"], N_("one of your reserved cards")],
    [["?"], N_("open or close this panel")],
  ],
  kids: [
    [["k", "r", "g", "h", "b", "y"], N_("choose a resource or the gold coin (again: two of it, or put it back)")],
    [["Enter"], N_("take the chosen resources")],
    [["Esc"], N_("let go of the chosen resources or a road")],
    [["0–9"], N_("a road by its number: opens its payments (then Tab and Enter)")],
    [["?"], N_("open or close this panel")],
  ],
};

// What the rings and borders on the table say, each beside a small sample drawn as the table draws it.
const MARKS = {
  classic: [
    ["chosen", N_("a token you chose for your take (✓: once, ✓✓: twice)")],
    ["moved", N_("in a seat's colour: what that seat took, bought or reserved since your last action")],
    ["hinted", N_("dashed blue: the hint's move")],
    ["affordable", N_("a double green border and ✓: a card you can afford now")],
  ],
  pokemon: [
    ["chosen", N_("a ball you chose for your take (✓: once, ✓✓: twice)")],
    ["moved", N_("in a seat's colour: what that seat took, caught or reserved since your last action")],
    ["hinted", N_("dashed blue: the hint's move")],
    ["affordable", N_("a double green border and ✓: a Pokémon you can catch now")],
    ["evolve", N_("dashed purple, with a label: a Pokémon one of yours can evolve into now")],
  ],
  kids: [
    ["chosen", N_("a resource you chose for your take (✓: once, ✓✓: twice)")],
    ["moved", N_("in a seat's colour: what that seat took, or the road it took, since your last action")],
    ["hinted", N_("dashed blue: the hint's move")],
    ["payable", N_("a dashed green banner: a road you can pay for now")],
  ],
};

// Kids: the board's places, each beside its mark (a parent read the villages' mark as the cabbage's, and the rules
// named places the board did not show). The marks are the board's own (splendor/games/kids/svg.py draws them),
// copied from the board on the table when the panel opens, so that the key never draws them otherwise.
const PLACES = [
  ["city", N_("a city: take a City tile")],
  ["village", N_("a village: another turn")],
  ["palace", N_("the Palace of Splendor: the journey's end")],
  ["port", N_("the Port: where every traveler sets out")],
];
const SVG = "http://www.w3.org/2000/svg";

// Each place's sample not drawn yet, from the board's first place of its kind: its shapes (not its name, nor a
// Village tile's), framed by the first of them. Left empty while the board is not drawn.
function drawPlaces(panel) {
  for (const sample of panel.querySelectorAll(".place-sample:empty")) {
    const drawn = document.querySelector(`#board svg .space.${sample.parentElement.dataset.place}`);
    if (!drawn || !drawn.firstElementChild) continue;
    const frame = drawn.firstElementChild.getBBox();
    const picture = document.createElementNS(SVG, "svg");
    picture.setAttribute("viewBox", `${frame.x - 2} ${frame.y - 2} ${frame.width + 4} ${frame.height + 4}`);
    picture.setAttribute("height", "28");
    picture.setAttribute("width", String(Math.round((28 * (frame.width + 4)) / (frame.height + 4))));
    for (const part of drawn.children) if (part.localName !== "text") picture.append(part.cloneNode(true));
    sample.append(picture);
  }
}

export function howToPlay(game) {
  return el("details", { class: "panel", id: "how-to-play",
    ontoggle: game === "kids" ? (event) => { if (event.target.open) drawPlaces(event.target); } : null },
  el("summary", {}, t("How to play")),
    el("ul", {}, ...RULES[game].map((line) => el("li", {}, t(line)))),
    game === "kids" ? el("h3", {}, t("Places on the board")) : null,
    game === "kids" ? el("dl", { class: "marks-key places-key" }, ...PLACES.flatMap(([kind, what]) => [
      el("dt", { "data-place": kind }, el("span", { class: "place-sample", "aria-hidden": "true" })),
      el("dd", {}, t(what))])) : null,
    el("h3", {}, t("Marks on the table")),
    el("dl", { class: "marks-key" }, ...MARKS[game].flatMap(([mark, what]) => [
      el("dt", {}, el("span", { class: `mark-sample mark-${mark}`, "aria-hidden": "true" })), el("dd", {}, t(what))])),
    el("h3", {}, t("Keys")),
    el("label", { class: "letter-keys" }, el("input", { type: "checkbox", id: "letter-keys", checked: letterKeysOn(),
      onchange: (event) => {
        try { localStorage.setItem(LETTER_KEYS, event.target.checked ? "on" : "off"); } catch (e) { /* kept for now */ }
      } }), " ", t("Letter and number keys act on the table (Enter, Escape and Tab always do)")),
    el("dl", { class: "keys" }, ...KEYS[game].flatMap(([keys, what]) => [
      el("dt", {}, ...keys.flatMap((k, i) => [i ? " " : null, el("kbd", {}, k)])), el("dd", {}, t(what))])));
}
