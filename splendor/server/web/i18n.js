// The words of the pages in the reader's language. The catalogs are the project's gettext catalogs
// (splendor/i18n/locale), which the server gives as JSON; English is the language the pages are written in, and
// its catalog carries no messages, only each game's tokens in words (splendor/games/palettes.py).
// The language is the one chosen with the switch (kept in this browser), else the browser's own, else English.
export const LANGUAGES = { en: "English", sl: "Slovenščina", ko: "한국어", zh: "中文" };
const KEY = "splendor-language";

function chosen() {
  const kept = localStorage.getItem(KEY);
  if (kept && LANGUAGES[kept]) return kept;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

export const language = chosen();
let catalog = { messages: {}, plurals: {}, tokens: {} };
try {
  const response = await fetch(`/api/messages/${language}`);
  if (response.ok) catalog = await response.json();
} catch (e) { /* no catalog: the pages stay in English, tokens named by their colours */ }
document.documentElement.lang = language;

// Chinese sets no space beside its full-width marks: "玩家 1（你） 获胜！", where "{name}（你）" filled "{player} 获胜！",
// reads "玩家 1（你）获胜！".
// (No lookbehind: Safari before 16.4 refuses a regex with one, and with it every page that imports this file.)
const SPACE_BEFORE_MARK = / +([（）：；，。！？、])/g;
const SPACE_AFTER_MARK = /([（）：；，。！？、]) +/g;

function fill(template, params) {
  const filled = template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  return language === "zh" ? filled.replace(SPACE_BEFORE_MARK, "$1").replace(SPACE_AFTER_MARK, "$1") : filled;
}

// A message in the reader's language: t("{name} wins!", { name }).
export function t(message, params = {}) {
  const found = catalog.messages[message];
  return fill(typeof found === "string" ? found : message, params);
}

// A message whose words follow a number n ({n} in the text), by the language's plural rule.
export function tn(one, many, n, params = {}) {
  const found = catalog.messages[one];
  let template = n === 1 ? one : many;
  if (Array.isArray(found)) {
    const form = catalog.plurals[new Intl.PluralRules(language).select(n)];
    template = found[form ?? found.length - 1];
  }
  return fill(template, { ...params, n });
}

// Each game's tokens: game → { letters: letter → colour, words: colour → one token in the reader's language }.
export const tokens = catalog.tokens || {};

// Marks a constant for the catalogs without translating it (tables of names, read later with t(name)).
export function N_(message) { return message; }

// The marks that end a sentence and part its clauses, as the language writes them ("。" and "，" in Chinese).
export const STOP = language === "zh" ? "。" : ".";
export const COMMA = language === "zh" ? "，" : ", ";
export const SEMICOLON = language === "zh" ? "；" : "; ";      // between a move's phrases ("...; pays 1 red")
export function sentence(text) { return `${text}${STOP}`; }

// A message said on its own, first letter capital: the server's refusals begin in lower case, to be read inside
// a sentence ("Not allowed: …").
export function capital(text) { return text ? text.charAt(0).toLocaleUpperCase(language) + text.slice(1) : text; }

// Several items joined as the language joins a list: "red, blue and green", "빨강, 파랑 및 초록".
export function list(items) {
  const locale = language === "en" ? "en-GB" : language;        // the project writes British English
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items.map(String));
}

// The static text of a page: each element marked data-t shows its text in the reader's language, and each
// attribute named in its data-t-attr (placeholder, aria-label, title) too.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) {
    if (node.dataset.english === undefined) node.dataset.english = node.textContent.replace(/\s+/g, " ").trim();
    node.textContent = t(node.dataset.english);
  }
  for (const node of root.querySelectorAll("[data-t-attr]")) {
    for (const name of node.dataset.tAttr.split(" ")) {
      const key = `english${name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`;
      if (node.dataset[key] === undefined) node.dataset[key] = node.getAttribute(name) || "";
      node.setAttribute(name, t(node.dataset[key]));
    }
  }
}

// A switch between the languages (a labelled select); choosing one keeps it in this browser and reloads the page.
export function languageSwitch() {
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = language;
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    location.reload();
  });
  return select;
}

// Put the switch in the page's header and translate the page's static text.
export function speak() {
  translatePage();
  const header = document.querySelector("header.top");
  if (header && !document.getElementById("language")) header.append(languageSwitch());
}
