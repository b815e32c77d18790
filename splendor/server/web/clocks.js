// The clocks on a table: each seat's clock in its heading, counting down for the seat to decide, and the game's
// time control beside its title. The server alone counts time: every state it sends says how many seconds the
// running seat has left at that moment (payload.clock.left), and the page counts down from when that state came,
// by its own steady timer (performance.now), so the reader's clock, right or wrong, never matters.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

const LOW_SECONDS = 30;               // a real-time clock under this is marked low
const LOW_CORRESPONDENCE = 6 * 3600;  // a correspondence move with under this left is marked low
const came = new WeakMap();           // payload.clock → performance.now() when the page first drew it
let shown = null;                     // the clock last drawn, for the ticker

// "4:59", "1:02:03"; under ten seconds "0:09.4" so that the last seconds are seen to pass.
export function realTime(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

// "2 d 3 h", "5 h 12 min", "12 min", "40 s".
export function days(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return t("{days} d {hours} h", { days: d, hours: h });
  if (h) return m ? t("{hours} h {minutes} min", { hours: h, minutes: m }) : t("{hours} h", { hours: h });
  if (m) return t("{minutes} min", { minutes: m });
  return t("{seconds} s", { seconds: s });
}

// The time control in words: "5 + 10" real-time, "2 days a move" correspondence.
export function controlWords(clock) {
  if (clock.kind === "correspondence") {
    const n = Math.round(clock.per_turn / 86400);
    return n === 1 ? t("1 day a move") : n === 2 ? t("2 days a move") : t("3 days a move");
  }
  const bank = clock.per_turn >= 60 ? t("{minutes} min", { minutes: clock.per_turn / 60 })
    : t("{seconds} s", { seconds: clock.per_turn });
  return t("{bank} + {increment} s a move", { bank, increment: clock.increment });
}

// Seconds a seat has on its clock now: the running seat's counted down since its state came; another seat's
// bank (real-time) or nothing (correspondence: only the seat to move has a clock).
function secondsOf(clock, seat) {
  if (clock.running === seat && clock.left !== null) {
    return clock.left - (performance.now() - came.get(clock)) / 1000;
  }
  return clock.kind === "realtime" ? clock.banks[seat] : null;
}

function text(clock, seconds) {
  return clock.kind === "realtime" ? realTime(seconds) : days(seconds);
}

// Draw the clocks of the state shown (after the table is drawn, which redraws the seats' headings), and the clock of
// ``me`` (the seat played here, or null) in a phone's strip, which stays on screen where the seats' panels scroll.
export function renderClocks(payload, seatName, over, me = null) {
  const clock = payload.clock;
  const badge = document.getElementById("time-control");
  badge.hidden = !clock;
  shown = clock && !over ? clock : null;
  if (!clock) return;
  if (!came.has(clock)) came.set(clock, performance.now());
  const words = controlWords(clock);              // in words; on a phone the short form ("15+10", "2d")
  if (badge.dataset.words !== words) {
    badge.dataset.words = words;
    badge.replaceChildren(el("span", { class: "long" }, words), el("span", { class: "short" },
      clock.control));
  }
  badge.title = t("time control");
  for (const panel of document.querySelectorAll(".seat[data-seat]")) {
    const seat = Number(panel.dataset.seat);
    const heading = panel.querySelector(".seat-name");
    if (!heading) continue;
    const info = payload.seats[seat];
    let node = heading.querySelector(".seat-clock");
    if (info.forfeit && info.forfeit.by === "time") {          // ran out: a bot plays the seat on
      node?.remove();
      heading.append(" ", el("span", { class: "seat-clock out", "data-clock-seat": String(seat) }, t("out of time")));
      continue;
    }
    const seconds = secondsOf(clock, seat);
    if (seconds === null || seconds === undefined || info.kind === "bot") {
      node?.remove();
      continue;
    }
    if (!node) {
      node = el("span", { class: "seat-clock", role: "timer", "data-clock-seat": String(seat) });
      heading.append(" ", node);
    }
    node.setAttribute("aria-label", t("{player}'s clock", { player: seatName(seat) }));
    paint(node, clock, seat, !over && clock.running === seat);
  }
  const strip = document.getElementById("me-strip");
  let mine = strip && strip.querySelector(".strip-clock");
  const seconds = me === null ? null : secondsOf(clock, me);
  const info = me === null ? null : payload.seats[me];
  const shownStrip = strip && strip.offsetParent !== null;   // a phone's: elsewhere the seat's heading says it
  if (!shownStrip || seconds === null || seconds === undefined || !info || info.kind === "bot" || info.forfeit) {
    mine?.remove();
    return;
  }
  if (!mine) {
    mine = el("span", { class: "strip-clock", role: "timer", "data-clock-seat": String(me) });
    strip.append(mine);
  }
  mine.setAttribute("aria-label", t("{player}'s clock", { player: seatName(me) }));
  paint(mine, clock, me, !over && clock.running === me);
}

function paint(node, clock, seat, running) {
  const seconds = Math.max(0, secondsOf(clock, seat));
  node.textContent = text(clock, seconds);
  node.classList.toggle("running", running);
  const low = clock.kind === "realtime" ? seconds < LOW_SECONDS : seconds < LOW_CORRESPONDENCE;
  node.classList.toggle("low", low);
  node.classList.toggle("zero", seconds <= 0);
}

// Four times a second the running clock is counted down (nothing else is redrawn).
setInterval(() => {
  if (!shown || shown.running === null) return;
  for (const node of document.querySelectorAll(`[data-clock-seat="${shown.running}"]:not(.out)`)) {
    paint(node, shown, shown.running, true);    // in the seat's heading, and in a phone's strip
  }
}, 250);
