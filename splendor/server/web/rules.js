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

// Kids: the board's places, each beside its mark as the board draws it (splendor/games/kids/svg.py, in a box of
// 40 by 40): a parent read the villages' mark as the cabbage's, and the rules named places the board did not show.
const PLACES = [
  ["city", '<rect x="2" y="6" width="36" height="28" rx="5" fill="#f4e2c1" stroke="#6d4c2f" stroke-width="1.5"/>'
    + '<path d="M9,30 v-11 l11,-10 l11,10 v11 z" fill="#c98b58" stroke="#6d4c2f"/>',
  N_("a city: take a City tile")],
  ["village", '<circle cx="20" cy="20" r="17" fill="#dcedc8" stroke="#33691e" stroke-width="1.5"/>'
    + '<path d="M11,25 l9,-10 l9,10 z M13,19 l7,-10 l7,10 z" fill="#33691e"/>'
    + '<rect x="18" y="25" width="4" height="6" fill="#6d4c2f"/>', N_("a village: another turn")],
  ["palace", '<rect x="1" y="6" width="38" height="28" rx="6" fill="#fff3c4" stroke="#b8860b" stroke-width="2"/>'
    + '<path d="M8,27 v-12 l6,5 l6,-8 l6,8 l6,-5 v12 z" fill="#e2b93b" stroke="#b8860b"/>',
  N_("the Palace of Splendor: the journey's end")],
  ["port", '<rect x="1" y="8" width="38" height="24" rx="12" fill="#b3e5fc" stroke="#01579b" stroke-width="1.5"/>'
    + '<path d="M11,22 q9,7 18,0 M20,12 v15 M15,15 h10" fill="none" stroke="#01579b" stroke-width="2.5"/>',
  N_("the Port: where every traveler sets out")],
];

function placeSample(drawing) {
  const sample = el("span", { class: "place-sample", "aria-hidden": "true" });
  sample.innerHTML = `<svg viewBox="0 0 40 40" width="28" height="28">${drawing}</svg>`;  // a fixed drawing
  return sample;
}

export function howToPlay(game) {
  return el("details", { class: "panel", id: "how-to-play" }, el("summary", {}, t("How to play")),
    el("ul", {}, ...RULES[game].map((line) => el("li", {}, t(line)))),
    game === "kids" ? el("h3", {}, t("Places on the board")) : null,
    game === "kids" ? el("dl", { class: "marks-key places-key" }, ...PLACES.flatMap(([kind, drawing, what]) => [
      el("dt", { "data-place": kind }, placeSample(drawing)), el("dd", {}, t(what))])) : null,
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
