// Shared helpers of the browser client: API calls, colours (each with a letter and a symbol), plain words.
export const LETTER = { white: "w", blue: "b", green: "g", red: "r", black: "k", gold: "y", pink: "p",
  yellow: "y", master: "m", brown: "h", treasure: "t" };
export const SYMBOL = { white: "◇", blue: "●", green: "▲", red: "♦", black: "■", gold: "★", pink: "♥",
  yellow: "✦", master: "M", brown: "⬢", treasure: "✪" };
export const KIDS_WORD = { black: "mushroom", red: "apple", green: "cabbage", brown: "hazelnut", blue: "water",
  gold: "gold coin", treasure: "Treasure" };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c.nodeType ? c : String(c));
  return node;
}

export function chip(colour, count = null, opts = {}) {
  const label = `${SYMBOL[colour] || ""}${LETTER[colour] || colour}`;
  const tag = opts.onclick ? "button" : "span";
  const node = el(tag, { class: `chip c-${colour}`, title: opts.title || colour, "data-colour": colour,
    "aria-label": `${opts.title || colour}${count !== null ? " " + count : ""}`, onclick: opts.onclick }, label);
  if (count !== null) node.append(el("span", { class: "n" }, ` ${count}`));
  return node;
}

export async function api(path, options = {}) {
  const { headers = {}, ...rest } = options;
  const response = await fetch(path, { ...rest, headers: { "content-type": "application/json", ...headers } });
  const text = await response.text();
  let body = text;
  try { body = JSON.parse(text); } catch (e) { /* plain text */ }
  if (!response.ok) {
    const detail = body && body.detail ? (typeof body.detail === "string" ? body.detail
      : body.detail.map((d) => d.msg).join("; ")) : text;
    throw new Error(detail);
  }
  return body;
}

export function params() { return new URLSearchParams(location.search); }

// The Pokédex profile this browser claimed: its name and its secret, kept here only (the server keeps a hash).
const PROFILE_KEY = "splendor-profile";

export function myProfile() {
  try {
    const kept = JSON.parse(localStorage.getItem(PROFILE_KEY) || "null");
    return kept && typeof kept.name === "string" && typeof kept.secret === "string" ? kept : null;
  } catch (e) { return null; }
}

export function keepProfile(name, secret) { localStorage.setItem(PROFILE_KEY, JSON.stringify({ name, secret })); }

export function forgetProfile() { localStorage.removeItem(PROFILE_KEY); }
