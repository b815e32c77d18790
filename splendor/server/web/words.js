// Actions in plain words, for the log and the buttons.
import { KIDS_WORD } from "/static/common.js";

const MARKET_COLOURS = {
  classic: { w: "white", b: "blue", g: "green", r: "red", k: "black", y: "gold" },
  pokemon: { r: "Poké Ball", b: "Great Ball", k: "Ultra Ball", p: "Heal Ball", y: "Quick Ball", m: "Master Ball" },
};
const KIDS_LETTER = { k: "black", r: "red", g: "green", h: "brown", b: "blue", y: "gold", t: "treasure" };

function list(items) {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function colourName(game, letter) {
  if (game === "kids") return KIDS_WORD[KIDS_LETTER[letter]] || letter;
  return MARKET_COLOURS[game][letter] || letter;
}

function where(slot, game) {
  if (slot === "rare" || slot === "legendary") return `the ${slot} Pokémon`;
  const [tier, n] = slot.split(".");
  return `the card at ${game === "pokemon" ? "level" : "tier"} ${tier}, slot ${n}`;
}

// A card in words: "Pikachu (level 1, 1★, Poké Ball bonus)"; "a tier 2 card: 2★, red bonus, costs 5 black".
export function cardWords(game, card) {
  const ball = (colour) => game === "pokemon" ? (BALL_NAMES[colour] || colour) : colour;
  const costs = Object.entries(card.cost || {}).filter(([, n]) => n).map(([c, n]) => `${n} ${ball(c)}`);
  const worth = [card.points ? `${card.points}★` : "no points",
    `${card.bonus_count > 1 ? "double " : ""}${ball(card.bonus)} bonus`, costs.length ? `costs ${list(costs)}` : "free"];
  if (game === "pokemon") return `${card.name} (level ${card.level}, ${worth.join(", ")})`;
  return `a tier ${card.tier} card (${worth.join(", ")})`;
}

const BALL_NAMES = { red: "Poké Ball", blue: "Great Ball", black: "Ultra Ball", pink: "Heal Ball", yellow: "Quick Ball",
  master: "Master Ball" };

function nobleWords(game, noble) {
  const needs = Object.entries(noble.requires).map(([c, n]) => `${n} ${c}`);
  return `${noble.name || `noble ${noble.id}`} visits (${noble.points}★, for ${list(needs)} bonuses)`;
}

// What happened, in full words, when the server's log gives what everyone saw of it (details).
export function describe(game, text, details = null, nameOf = (seat) => `seat ${seat}`) {
  const base = describeText(game, text, details || {}, nameOf);
  const then = [];
  const d = details || {};
  for (const noble of d.nobles || []) then.push(nobleWords(game, noble));
  if (d.village_tile) then.push(`turns up ${d.village_tile === "Treasure" ? "a Treasure" : `the ${d.village_tile}`}`);
  if (d.city_tiles) then.push(`takes ${list(d.city_tiles.map((c) => `a ${KIDS_WORD[c] || c} City tile`))}`);
  if (d.medal) then.push(`receives Queen's Medal ${d.medal}`);
  if (d.extra_turn) then.push("plays again (a village)");
  return [base, ...then].join("; ");
}

function describeText(game, text, d, nameOf) {
  const w = text.split(" ");
  const name = (l) => colourName(game, l);
  const verb = game === "pokemon" ? "catches" : "buys";
  if (d.card && (w[0] === "buy" || w[0] === "catch")) return `${verb} ${cardWords(game, d.card)}`;
  if (d.card && w[0] === "reserve" && w[1] !== "deck") return `reserves ${cardWords(game, d.card)}`;
  if (d.card && d.into && w[0] === "evolve") return `evolves ${d.card.name} into ${cardWords(game, d.into)}`;
  if (d.to && w[0] === "move") return `${describeText(game, text, {}, nameOf)} to ${d.to.name}`;
  switch (w[0]) {
    case "take":
      if (w[1] === "y" && game === "kids" && w.length === 2) return "takes a gold coin";
      if (w.length === 3 && w[1] === w[2]) return `takes two ${name(w[1])}`;
      return `takes ${list(w.slice(1).map(name))}`;
    case "reserve": return w[1] === "deck" ? `reserves the top card of the ${w[2]} deck` : `reserves ${where(w[1], game)}`;
    case "buy": case "catch":
      return w[1] === "reserved" ? `${w[0] === "buy" ? "buys" : "catches"} reserved card ${w[2]}`
        : `${w[0] === "buy" ? "buys" : "catches"} ${where(w[1], game)}`;
    case "return": return `returns a ${name(w[1])}`;
    case "discard": return `discards a ${name(w[1])} (Drought)`;
    case "noble": return `is visited by noble ${w[1]}`;
    case "evolve":
      return w[1] === "none" ? "does not evolve"
        : `evolves #${w[1]} into ${w[2] === "reserved" ? "reserved card " + w[3] : where(w[2], game)}`;
    case "move": {
      const pay = w.slice(3).map((p) => p.startsWith("tile:") ? `a ${name(p.slice(5))} City tile` : name(p));
      return `moves along road ${w[1]}, paying ${list(pay)}`;
    }
    case "give": return `gives a ${name(w[1])} to ${nameOf(Number(w[3]))} (the Kind-Hearted Thief)`;
    case "city": return w[1] === "stack" ? "takes the top City tile" : `takes Marketplace tile ${w[2]}`;
    case "medal": return `receives Queen's Medal ${w[1]}`;
    case "pass": return "passes";
    default: return text;
  }
}

// "1 card", "3 cards".
export function count(n, one, many = `${one}s`) { return `${n} ${n === 1 ? one : many}`; }
