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

export function describe(game, text) {
  const w = text.split(" ");
  const name = (l) => colourName(game, l);
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
    case "give": return `gives a ${name(w[1])} to seat ${w[3]}`;
    case "city": return w[1] === "stack" ? "takes the top City tile" : `takes Marketplace tile ${w[2]}`;
    case "medal": return `receives Queen's Medal ${w[1]}`;
    case "pass": return "passes";
    default: return text;
  }
}
