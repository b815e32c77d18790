// A first game that teaches: a real game against the greedy bot in which a guide, in the dock, points at what to
// click next and says why, one kind of turn after another, and kindly refuses any other action until the guide's
// is done. Each step waits for the state it needs (a card you can afford, a road you can pay), so the bot's moves
// never strand it. Opened from the lobby's "Learn to play" (the table's address carries ?tutorial=1).
import { el } from "/static/common.js";
import { N_, t } from "/static/i18n.js";

const kind = (a) => a.split(" ")[0];
const isTake3 = (a) => kind(a) === "take" && a.split(" ").length === 4;
const isTake2 = (a) => kind(a) === "take" && a.split(" ").length === 3 && a.split(" ")[1] === a.split(" ")[2];
const isTake = (a) => kind(a) === "take";
const isReserve = (a) => kind(a) === "reserve";
const isBuy = (a) => kind(a) === "buy" || kind(a) === "catch";
const isMove = (a) => kind(a) === "move";
const any = (c, test) => c.view.legal_actions.some(test);

// A step: what the guide says, where it points, which actions it lets through (decisions such as returning a
// token always pass), and when it is done: "next" (the reader's button) or an action of the seat's own that the
// step wanted. ``fallback``: while the wanted action is impossible, what to say and to let through instead.
const STEPS = {
  classic: [
    { say: N_("Welcome to Splendor! You are a gem merchant: take gem tokens, buy cards with them, and earn points. "
      + "Each card you buy also gives a permanent bonus of its gem, a discount on later cards. First to 15★ wins."),
    next: true },
    { say: N_("Take three tokens of different colours: choose three colours of the supply (choosing takes nothing yet), "
      + "then press Take."), point: "#supply", wants: isTake3, waitTurn: true },
    { say: N_("The bot has played. Its move stays outlined in its colour on the table until your next action, and "
      + "the log says it in words."), point: "#last-move", next: true, waitTurn: true },
    { say: N_("Reserve a card: choose a card you would like, then Reserve. It goes into your hand, where only you "
      + "can buy it, and you get a gold token, which pays for any colour."), point: "#market button.card",
    wants: isReserve, waitTurn: true },
    { say: N_("Take two tokens of one colour: choose a colour twice, then Take. This is allowed only when 4 or more "
      + "of that colour are left."), point: "#supply", wants: isTake2, waitTurn: true,
    fallback: { when: (c) => !any(c, isTake2), say: N_("No colour has 4 tokens left: take three of different "
      + "colours instead."), allow: isTake, completes: true } },
    { say: N_("Buy a card: the cards you can afford have a double green border and a check mark. Choose one, then "
      + "Buy. Your bonuses count as tokens of their colour."), point: "#market button.card.affordable, "
      + "[data-where='reserved'].affordable", wants: isBuy, waitTurn: true,
    fallback: { when: (c) => !any(c, isBuy), say: N_("No card is affordable yet: take tokens of the colours the "
      + "cheapest cards ask for, and this step waits for you."), allow: isTake } },
    { say: N_("A noble visits you by itself at the end of a turn when your bonuses match what it asks for: 3★ more. "
      + "Now play on to 15★. The Hint button asks the expert bot, and How to play lists the keys."),
    point: "#nobles", next: true },
  ],
  pokemon: [
    { say: N_("Welcome to Splendor: Pokémon! Take balls, catch Pokémon with them and earn points. Each Pokémon "
      + "you catch gives a permanent bonus, a discount on later ones. First to 18★ wins."), next: true },
    { say: N_("Take three balls of different colours: choose three colours of the supply, then press Take."),
      point: "#supply", wants: isTake3, waitTurn: true },
    { say: N_("The bot has played. Its move stays outlined in its colour on the table until your next action, and "
      + "the log says it in words."), point: "#last-move", next: true, waitTurn: true },
    { say: N_("Reserve a Pokémon: choose one, then Reserve. It goes into your hand and you get a Master Ball, which "
      + "stands in for any ball."), point: "#market button.card", wants: isReserve, waitTurn: true },
    { say: N_("Take two balls of one colour: choose a colour twice, then Take (only when 4 or more are left)."),
      point: "#supply", wants: isTake2, waitTurn: true,
      fallback: { when: (c) => !any(c, isTake2), say: N_("No colour has 4 balls left: take three of different "
        + "colours instead."), allow: isTake, completes: true } },
    { say: N_("Catch a Pokémon: those you can afford have a double green border and a check mark. Choose one, then "
      + "Catch."), point: "#market button.card.affordable, [data-where='reserved'].affordable", wants: isBuy,
    waitTurn: true, fallback: { when: (c) => !any(c, isBuy), say: N_("No Pokémon is affordable yet: take balls "
      + "of the colours the cheapest ones ask for, and this step waits for you."), allow: isTake } },
    { say: N_("A card's arrow (→) names the Pokémon it evolves into and the bonuses that takes. When your bonuses "
      + "are enough, the table offers the evolution at the end of your turn, for free. Now play on to 18★."),
    point: "#market", next: true },
  ],
  kids: [
    { say: N_("Welcome to Splendor Kids! Travel from the Port to the Palace of Splendor. Collect resources, then "
      + "pay a road's banner to move along it. The first in the Palace closes its gates: the round is played to "
      + "its end, and everyone then in the Palace shares the victory."),
    next: true },
    { say: N_("Take three different resources: choose three of them in the supply, then press Take."),
      point: "#supply", wants: isTake3, waitTurn: true },
    { say: N_("The other travelers have played. Their moves stay outlined in their colours until your next "
      + "action."), point: "#last-move", next: true, waitTurn: true },
    { say: N_("Move along a road: the roads you can pay now have a dashed outline. Choose one on the board or in "
      + "the list, then choose how to pay."), point: "#board .road.can-pay, #roads", wants: isMove, waitTurn: true,
    fallback: { when: (c) => !any(c, isMove), say: N_("You cannot pay a road yet: take the resources its banner "
      + "shows (a gold coin pays for any one), and this step waits for you."), allow: isTake } },
    { say: N_("Well done! A village (a tree on the board) gives you another turn; a city (a house) gives you a "
      + "City tile, which pays one resource of its kind later. Now play on to the Palace."), point: "#board",
    next: true },
  ],
};

export function tutorialOn() { return new URLSearchParams(location.search).get("tutorial") === "1"; }

// The guide's state lives in the browser (sessionStorage), so a reload goes on where it was.
function load(gameId) {
  try { return JSON.parse(sessionStorage.getItem(`splendor-tutorial:${gameId}`)) || { step: 0, since: 0 }; }
  catch (e) { return { step: 0, since: 0 }; }
}

export function makeTutorial(gameId) {
  const progress = load(gameId);
  const save = () => sessionStorage.setItem(`splendor-tutorial:${gameId}`, JSON.stringify(progress));
  let refusal = null;

  function steps(c) { return STEPS[c.game]; }
  function current(c) { return steps(c)[progress.step] || null; }
  function waiting(c, step) { return step.waitTurn && !(c.mine && c.view.decision === "action"); }

  // Move on when the step's own action is in the log (after the step began), or its reader clicked Next.
  function advance(c) {
    const step = current(c);
    if (!step || step.next) return;
    const log = c.state.payload.log || [];
    const counts = (a) => step.wants(a) || Boolean(step.fallback && step.fallback.completes && step.fallback.allow(a));
    if (log.some((e) => e.seat === c.me && e.n > progress.since && counts(e.action))) {
      progress.step += 1;
      progress.since = c.state.payload.actions;
      refusal = null;
      save();
    }
  }

  return {
    // Whether the guide lets ``action`` be sent now; else it says why, in the guide.
    allows(c, action) {
      const step = current(c);
      if (!step || c.view.decision !== "action") return true;
      const fallback = step.fallback && step.fallback.when(c) ? step.fallback : null;
      if (!step.next && (step.wants(action) || (fallback && fallback.allow(action)))) return true;
      refusal = step.next ? t("First read the guide, then press Next.")
        : t("Not yet, please: {what}", { what: t(fallback ? fallback.say : step.say) });
      c.render();
      return false;
    },
    render(c) {
      advance(c);
      const box = document.getElementById("guide");
      const step = current(c);
      const total = steps(c).length;
      document.body.dataset.tutorial = step ? String(progress.step) : "done";
      for (const node of document.querySelectorAll(".guide-target")) node.classList.remove("guide-target");
      if (!step) {
        box.replaceChildren(el("p", {}, el("strong", {}, t("Tutorial done."))), el("p", {},
          t("The game goes on: play it to its end, or go back to the lobby for a new one.")),
        el("a", { href: "/" }, t("Back to the lobby")));
        box.hidden = false;
        return;
      }
      const fallback = step.fallback && step.fallback.when(c) && !waiting(c, step) ? step.fallback : null;
      const words = waiting(c, step) ? t("Wait for the others to play…") : t(fallback ? fallback.say : step.say);
      box.replaceChildren(...[el("p", { class: "guide-step" }, t("Tutorial: step {n} of {total}",
        { n: progress.step + 1, total })), el("p", { id: "guide-text" }, words),
      refusal ? el("p", { class: "guide-refusal", role: "alert" }, refusal) : null,
      step.next && !waiting(c, step) ? el("button", { type: "button", class: "primary", id: "guide-next",
        onclick: () => { progress.step += 1; progress.since = c.state.payload.actions; refusal = null; save();
          c.render(); } }, t("Next")) : null].filter((child) => child !== null));  // replaceChildren writes null
      box.hidden = false;
      if (step.point && !waiting(c, step)) {
        for (const node of document.querySelectorAll(step.point)) node.classList.add("guide-target");
      }
      document.body.dataset.tutorialWants = step.next ? "next" : (fallback ? "fallback" : String(step.wants.name));
    },
  };
}
