// The table's keys: each game names its own (the supply's colours by their letters, cards by tier and slot, roads
// by number); Enter confirms what is being built and Escape lets it go. Keys typed into a box, or with a modifier,
// are the box's and the browser's; Enter on a focused button is that button's.

// The letters, digits and "?" act unless this browser turned them off (How to play): a speech-input user's words
// typed as keys would take tokens (WCAG 2.1.4).
export const LETTER_KEYS = "splendor-letter-keys";
export function letterKeysOn() {
  try { return localStorage.getItem(LETTER_KEYS) !== "off"; } catch (e) { return true; }
}

// A key that is the browser's or a box's, not the page's: with a modifier, typed into a text box or a menu, or
// taken already by a control of its own (the chat's tabs, their arrows).
export function keyForOthers(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  return event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]") !== null;
}

export function handleKey(event, c, table) {
  if (keyForOthers(event)) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (event.key === "Escape") return table.cancel(c);
  if (event.key === "Enter") {
    // On a token of the supply, Enter sends the choice when it is a whole take, else picks that token.
    if (target && target.closest("#supply .chip")) return table.confirm(c);
    if (target && target.closest("button, a, summary, [role=button]")) return false;
    return table.confirm(c);
  }
  if (event.key.length === 1 && !letterKeysOn()) return false;
  if (event.key === "?") {
    const help = document.getElementById("how-to-play");
    if (help) { help.open = !help.open; if (help.open) help.scrollIntoView({ block: "nearest" }); }
    return true;
  }
  if (event.key.length !== 1 || !c.mine || c.state.menu) return false;        // an open menu has the keys
  return table.key(c, event.key.toLowerCase());
}
