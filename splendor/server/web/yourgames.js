// "Your games" in the lobby: the games where it is your turn first (the least time left first), each saying "Your
// turn" with the time left on its clock, counting down. The time left is the server's (GET /api/me: seconds_left,
// by the store's clock); the page only counts down from it, and the next answer corrects it.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

// Seconds as a clock says them: "4:05", "1:02:03", or in days and hours for a game played by the day.
export function clockWords(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) {
    return t("{days} d {hours} h", { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600) });
  }
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

// The state cell's words for a game where it is your turn: "Your turn", and its clock when it has one.
export function yourTurnCell(secondsLeft) {
  const parts = [el("strong", { class: "your-turn" }, t("Your turn"))];
  if (secondsLeft !== null && secondsLeft !== undefined) {
    parts.push(" · ", el("span", { class: "time-left", "data-seconds-left": secondsLeft, "data-since": Date.now(),
      title: t("time left") }, clockWords(secondsLeft)));
  }
  return parts;
}

// Rows of the list, each { row, yourTurn, secondsLeft }: those where it is your turn first, the least time left
// first, then the others as they came (the account's newest first).
export function yourTurnFirst(rows) {
  const rank = (r) => (r.yourTurn ? 0 : 1);
  const left = (r) => (r.yourTurn && r.secondsLeft !== null && r.secondsLeft !== undefined ? r.secondsLeft : Infinity);
  return rows.map((r, i) => ({ ...r, i }))
    .sort((a, b) => rank(a) - rank(b) || left(a) - left(b) || a.i - b.i).map((r) => r.row);
}

// Every clock of the list counts down once a second.
let ticking = null;
export function countDown() {
  if (ticking) return;
  ticking = setInterval(() => {
    for (const node of document.querySelectorAll("[data-seconds-left]")) {
      const gone = (Date.now() - Number(node.dataset.since)) / 1000;
      node.textContent = clockWords(Number(node.dataset.secondsLeft) - gone);
    }
  }, 1000);
}
