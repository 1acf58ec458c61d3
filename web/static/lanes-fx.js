// The log of a drone lane match played on its board, entry by entry and in
// order: a reacting drone pulses and what it does (damage, repairs, attack,
// cards, energy) flies from it to what it affects; attacks lunge, moves
// slide, deployed drones appear and destroyed ones fade. A cascade is seen
// as it happened. Nothing moves for those who asked for reduced motion.
import { h } from "./util.js";
import { droneEl, plural } from "./lanes-board.js";

// How long each kind of animation lasts, in milliseconds.
const T = { fire: 560, fly: 520, pop: 420, move: 380, appear: 320, gone: 380, banner: 750, short: 200 };

export class LaneEffects {
  // root is the board's element (positioned), kinds the drone kinds of the
  // pack's drawing (for the tooltips of drones that appear).
  constructor(root, kinds) {
    this.root = root;
    this.kinds = kinds;
    this.skip = false;
    this.layer = h("div", { class: "lanes-fx", "aria-hidden": "true" });
    this.wake = null;
  }

  // attach puts the animation layer back after the board was redrawn.
  attach() {
    this.root.append(this.layer);
  }

  motion() {
    return !this.skip && !matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // skipAll ends the animations under way and lets the rest be shown at
  // once.
  skipAll() {
    this.skip = true;
    this.wake?.();
    for (const a of this.root.getAnimations({ subtree: true })) a.finish();
  }

  wait(ms) {
    if (!this.motion()) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  async run(el, keyframes, ms) {
    if (!el || !this.motion()) return;
    await el.animate(keyframes, { duration: ms, easing: "ease-in-out" }).finished.catch(() => {});
  }

  // play shows one log entry; next is the view after the entries being
  // played (drones that appear are drawn from it).
  async play(e, next) {
    const d = e.data || {};
    const subj = this.find(e.subject, d.subjectSeat);
    const targ = this.find(e.target, d.targetSeat);
    if (e.kind === "fired") {
      this.pulse(subj);
      if (targ && targ !== subj && e.amount) await this.fly(subj, targ, amountLabel(e), amountClass(e));
      else if (targ && e.amount) await this.pop(targ, amountLabel(e), amountClass(e));
      else await this.wait(T.fire);
      return;
    }
    if (e.kind === "blocked" || e.kind === "skipped") {
      this.run(subj, [{ opacity: 1 }, { opacity: 0.35 }, { opacity: 1 }], T.fire);
      await this.wait(T.short);
      return;
    }
    if (e.kind !== "event") return;
    switch (e.type) {
      case "ON_DEPLOY":
      case "TOKEN_CREATED":
        return this.appear(e.subject, d.subjectSeat, laneOf(e.at), next);
      case "ON_MOVE":
        return this.move(subj, d.subjectSeat, laneOf(e.at));
      case "ON_LANE_ATTACK":
        this.pulse(subj);
        return this.fly(subj, targ, "attack", "attack ico atk");
      case "DAMAGED":
        bump(targ, "sh", -(d.shields || 0));
        bump(targ, "hull", -(d.hull || 0));
        this.shake(targ);
        return this.pop(targ, `−${e.amount}`, "damage");
      case "HEALED":
        bump(targ, "hull", e.amount);
        return this.pop(targ, `+${e.amount} hull`, "heal");
      case "STAT_CHANGED": {
        const [label, stat] = statChange(e);
        bump(targ, { attack: "atk", shields: "sh", speed: "spd" }[stat], e.amount);
        return this.pop(targ, label, e.amount < 0 ? "damage" : "boost");
      }
      case "DESTROYED":
        return this.vanish(targ);
      case "EXHAUSTED":
        subj?.classList.add("exhausted");
        return this.pop(subj, "exhausted", "note");
      case "MARKED":
        subj?.classList.add("marked");
        return this.pop(subj, "◎ marked", "note");
      case "CARD_PLAYED":
        return this.cardPlayed(e, targ);
      case "ON_CARD_DRAWN":
        return this.pop(this.info(e.seat, "deck"), `+${plural(e.amount || 0, "card")}`, "note");
      case "ON_ENERGY_GAINED":
        return this.pop(this.info(e.seat, "energy"), `+${e.amount} energy`, "boost");
      case "THREAT_INCREASED":
        return this.pop(this.info(e.seat, "threat"), `+${e.amount} threat`, "note");
      case "GO_AGAIN":
        return this.pop(this.info(e.seat, "side-name"), "goes again", "note");
      case "ROUND_BEGAN":
      case "PHASE_BEGAN":
      case "GAME_OVER":
        return this.banner(e.text);
    }
  }

  // find returns the element of a drone (by its label) or, with the seat
  // whose ship it is, of a ship section.
  find(name, seat) {
    if (!name) return null;
    const n = CSS.escape(name);
    const onSeat = seat === undefined || seat === null ? "" : `[data-seat="${seat}"]`;
    return this.root.querySelector(`.drone[data-drone="${n}"]${onSeat}:not(.gone)`) ||
      (onSeat ? this.root.querySelector(`.ship-section[data-section="${n}"]${onSeat}`) : null);
  }

  info(seat, what) {
    return this.root.querySelector(`.side-info[data-seat="${seat}"] .${what}`) || this.root.querySelector(`.side-info[data-seat="${seat}"]`);
  }

  row(seat, lane) {
    return this.root.querySelector(`.drones[data-seat="${seat}"][data-lane="${lane}"]`);
  }

  pulse(el) {
    if (!el) return;
    // A drone that fires again while it still glows glows afresh.
    if (el.classList.contains("firing")) {
      el.classList.remove("firing");
      void el.offsetWidth;
    }
    el.classList.add("firing");
    clearTimeout(el.firingTimer);
    el.firingTimer = setTimeout(() => el.classList.remove("firing"), T.fire);
    this.run(el, [
      { transform: "scale(1)", boxShadow: "0 0 0 0 rgba(112, 72, 232, .9)" },
      { transform: "scale(1.1)", boxShadow: "0 0 0 10px rgba(112, 72, 232, .35)", offset: 0.4 },
      { transform: "scale(1)", boxShadow: "0 0 0 0 rgba(112, 72, 232, 0)" },
    ], T.fire);
  }

  shake(el) {
    this.run(el, [{ transform: "translateX(0)" }, { transform: "translateX(-4px)" }, { transform: "translateX(4px)" }, { transform: "translateX(0)" }], T.pop);
  }

  // point is the centre of an element in the board's coordinates.
  point(el) {
    const base = this.root.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return { x: r.left - base.left + r.width / 2, y: r.top - base.top + r.height / 2 };
  }

  chip(text, cls, at) {
    const c = h("span", { class: `fx-chip ${cls}` }, text);
    c.style.left = `${at.x}px`;
    c.style.top = `${at.y}px`;
    this.layer.append(c);
    return c;
  }

  // fly sends text from one element to another.
  async fly(from, to, text, cls) {
    if (!to || !this.motion()) return;
    const a = this.point(from || to);
    const b = this.point(to);
    const c = this.chip(text, cls, a);
    await this.run(c, [
      { transform: "translate(-50%, -50%) scale(.7)", opacity: 0 },
      { transform: "translate(-50%, -50%) scale(1.1)", opacity: 1, offset: 0.2 },
      { transform: `translate(calc(-50% + ${b.x - a.x}px), calc(-50% + ${b.y - a.y}px)) scale(1.2)`, opacity: 1, offset: 0.85 },
      { transform: `translate(calc(-50% + ${b.x - a.x}px), calc(-50% + ${b.y - a.y}px)) scale(1)`, opacity: 0 },
    ], T.fly);
    c.remove();
  }

  // pop shows text rising from an element.
  async pop(el, text, cls) {
    if (!el || !this.motion()) return;
    const c = this.chip(text, cls, this.point(el));
    await this.run(c, [
      { transform: "translate(-50%, -50%) scale(.7)", opacity: 0 },
      { transform: "translate(-50%, -90%) scale(1.1)", opacity: 1, offset: 0.3 },
      { transform: "translate(-50%, -160%) scale(1)", opacity: 0 },
    ], T.pop);
    c.remove();
  }

  banner(text) {
    if (!text) return;
    const b = h("div", { class: "fx-banner" }, text.replace(/^—\s*|\s*—$/g, ""));
    this.layer.append(b);
    return this.run(b, [{ opacity: 0, transform: "translate(-50%, -50%) scale(.9)" }, { opacity: 1, transform: "translate(-50%, -50%) scale(1)", offset: 0.25 },
      { opacity: 1, offset: 0.75 }, { opacity: 0 }], T.banner).then(() => b.remove());
  }

  // appear puts a drone deployed or placed during the entries on the
  // board.
  async appear(name, seat, lane, next) {
    if (!name || seat === undefined || !lane || this.find(name, seat)) return;
    const row = this.row(seat, lane);
    if (!row) return;
    const d = findDrone(next, name) || { name, kind: name, lane, attack: 0, hull: 0, maxHull: 0, shields: 0, maxShields: 0, speed: 0, modifiers: [] };
    const el = droneEl(d, seat, this.kinds);
    row.insertBefore(el, row.querySelector(".lane-target"));
    await this.run(el, [{ opacity: 0, transform: "scale(.4)" }, { opacity: 1, transform: "scale(1)" }], T.appear);
  }

  // move slides a drone into another lane.
  async move(el, seat, lane) {
    const row = lane && this.row(seat, lane);
    if (!el || !row || el.parentElement === row) return;
    const first = el.getBoundingClientRect();
    row.insertBefore(el, row.querySelector(".lane-target"));
    const last = el.getBoundingClientRect();
    await this.run(el, [{ transform: `translate(${first.left - last.left}px, ${first.top - last.top}px)` }, { transform: "none" }], T.move);
  }

  async vanish(el) {
    if (!el || !el.classList.contains("drone")) return;
    el.classList.add("gone");
    await this.run(el, [{ opacity: 1, transform: "scale(1)" }, { opacity: 0, transform: "scale(.5) rotate(-8deg)" }], T.gone);
    el.remove();
  }

  // cardPlayed shows the card played flying from its player's hand to its
  // target (a drone, or the lane it is played into).
  async cardPlayed(e, targ) {
    const hand = this.root.querySelector(`.side[data-seat="${e.seat}"] .hand`);
    const lane = laneOf(e.at);
    const to = targ || (lane ? this.root.querySelector(`.lane[data-lane="${lane}"]`) : null) || this.root.querySelector(".lane-grid");
    const title = (e.text.match(/ plays (.+?)(?: on | into lane |$)/) || [])[1] || e.subject;
    await this.fly(hand, to, `🂠 ${title}`, "card-fx");
  }
}

function laneOf(at) {
  const m = /lane (\d+)/.exec(at || "");
  return m ? Number(m[1]) : 0;
}

function findDrone(v, name) {
  for (const p of v?.players || []) {
    for (const lane of p.lanes || []) {
      const d = lane.find((x) => x.name === name);
      if (d) return d;
    }
  }
  return null;
}

// amountLabel says what a firing's amount is, from what its ability does.
function amountLabel(e) {
  const n = e.amount;
  const what = e.data?.description || "";
  if (/damage/.test(what)) return `−${Math.abs(n)}`;
  if (/repair/.test(what)) return `+${n} hull`;
  if (/draw/.test(what)) return `+${plural(n, "card")}`;
  if (/energy/.test(what) && !/per \d+ energy/.test(what)) return `+${n} energy`;
  const stat = /(attack|shields|speed)/.exec(what);
  return `${n > 0 ? "+" : ""}${n}${stat ? " " + stat[1] : ""}`;
}

function amountClass(e) {
  const what = e.data?.description || "";
  if (/damage/.test(what) || e.amount < 0) return "damage";
  if (/repair/.test(what)) return "heal";
  return "boost";
}

// statChange reads a stat change ("Thor +2 attack this round") as its
// label and its stat.
function statChange(e) {
  const m = / ([+-]\d+) (\w+) /.exec(e.text || "");
  return m ? [`${m[1]} ${m[2]}`, m[2]] : [`${e.amount > 0 ? "+" : ""}${e.amount}`, ""];
}

// bump changes a number shown on a drone or a section as the log tells
// it, until the board is drawn again from the view.
function bump(el, kind, delta) {
  const s = kind && delta && el?.querySelector(`.ico.${kind}`);
  if (!s) return;
  const [n, ...max] = s.textContent.split("/");
  s.textContent = [Math.max(0, Number(n) + delta), ...max].join("/");
}
