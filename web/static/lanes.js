// The drone lane card game on the match page: both sides' lanes, drones
// and ships with the viewer's own side at the bottom, the viewer's hand
// face up and every other hand as card backs, and the log's cascades played
// on the board in order.
//
// Every command is chosen on the board, from the match's legal commands
// only: each legal command is read as a path of things to click (a drone
// of the squad then a lane; a drone then a lane or a target; a card then
// its targets, drones in order, then a lane), and at each step the page
// highlights what continues some legal command. A path that ends is sent.
import { h, colour } from "./util.js";
import { renderBoard, statusText, plural, icon } from "./lanes-board.js";
import { LaneEffects } from "./lanes-fx.js";
import { twice } from "./confirm.js";

export class LanesPlay {
  constructor(page) {
    this.page = page;
    this.view = null;
    this.paths = []; // the legal commands, each with its path of keys
    this.picked = []; // the keys chosen so far
    this.waiting = false; // a command was sent and is not answered yet
    this.animating = false;
    page.root.classList.add("lanes-page");
    this.kinds = new Map((page.drawing?.drones || []).map((d) => [d.name, d]));
    this.root = h("div", { class: "lanes", id: "lanes", tabindex: "-1", onclick: (e) => this.clicked(e) });
    this.statusEl = h("p", { class: "lanes-status", id: "lanes-status" });
    this.sayEl = h("p", { id: "lanes-prompt", "aria-live": "polite" });
    // The legend of the stat pictures on drones and ship sections.
    this.legendEl = h("p", { class: "hint lanes-legend", id: "lanes-legend" }, "On drones and sections: ",
      icon("atk", "attack", ""), "attack · ", icon("hull", "hull", ""), "hull · ", icon("sh", "shields", ""), "shields · ",
      icon("spd", "speed", ""), "speed. A drone's hull at 0 destroys it; shields take damage first and come back each round.");
    this.fx = new LaneEffects(this.root, this.kinds);
    // Whether the keyboard is on the board or its controls: a redraw then
    // keeps it there.
    this.inside = false;
    document.addEventListener("focusin", (e) => {
      this.inside = this.root.contains(e.target) || page.controls.contains(e.target);
    });
    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      if (this.animating) this.fx.skipAll();
      else if (this.picked.length) this.cancel();
    });
  }

  // frame is the part of the page a phone keeps in view on the viewer's
  // turn: the lanes, where drones are deployed.
  frame() {
    return this.root;
  }

  async show(state, animate) {
    const page = this.page;
    const v = state.view;
    if (!page.boardEl.contains(this.root)) page.boardEl.replaceChildren(this.statusEl, this.root, this.legendEl);
    this.picked = [];
    this.waiting = false;
    this.legal = state.legal || [];
    const first = !this.view;
    if (first) this.draw(v);
    if (animate && !first && state.entries.length) {
      this.animating = true;
      this.fx.skip = false;
      this.root.dataset.animating = "true";
      this.paths = [];
      this.highlight();
      this.renderControls(v, true);
      for (const e of state.entries) {
        logEntry(page, e);
        // An animation that fails costs the animation, never the game.
        await this.fx.play(e, v).catch((err) => console.error("lanes animation:", err));
      }
      this.animating = false;
      delete this.root.dataset.animating;
    } else {
      for (const e of state.entries) logEntry(page, e);
    }
    this.view = v;
    this.paths = this.legal.map((c) => ({ cmd: c, path: this.pathOf(c.data, v) })).filter((p) => p.path);
    const focused = this.focusedKey();
    this.draw(v);
    this.renderPlayers(v);
    this.renderControls(v);
    this.highlight();
    this.refocus(focused);
  }

  draw(v) {
    const name = (seat) => v.players[seat]?.name || `seat ${seat + 1}`;
    this.statusEl.textContent = statusText(v, name);
    this.root.replaceChildren(...renderBoard(v, this.page.drawing));
    this.fx.attach();
    Object.assign(this.root.dataset, { you: v.you, turn: v.turn, phase: v.phase, round: v.round });
  }

  // pathOf reads a legal command as the keys a player clicks to choose it,
  // or null for a command the page does not know how to show.
  pathOf(c, v) {
    const me = v.you;
    const opp = 1 - me;
    switch (c.do) {
      case "pass":
        return ["pass"];
      case "deploy":
        return [`squad:${c.drone}`, `lane:${me}:${c.lane}`];
      case "move":
        return [`drone:${c.drone}`, `lane:${me}:${c.lane}`];
      case "attack": {
        const section = v.players[opp]?.sections.some((s) => s.name === c.target);
        return [`drone:${c.drone}`, section ? `section:${opp}:${c.target}` : `drone:${c.target}`];
      }
      case "play": {
        const card = v.players[me]?.hand?.find((x) => x.name === c.card);
        const path = [`card:${c.card}`];
        if (c.lane) {
          const side = card?.affinity === "ENEMY" ? opp : card?.affinity === "ANY" ? "*" : me;
          path.push(`lane:${side}:${c.lane}`);
        }
        if (c.target) path.push(`drone:${c.target}`);
        for (const d of c.drones || []) path.push(`drone:${d}`);
        if (c.to) {
          const owner = c.target ? droneSeat(v, c.target) : me;
          path.push(`lane:${owner ?? me}:${c.to}`);
        }
        return path;
      }
    }
    return null;
  }

  // matching are the legal commands whose paths start with what has been
  // picked.
  matching() {
    const n = this.picked.length;
    return this.paths.filter((p) => p.path.length >= n && this.picked.every((k, i) => p.path[i] === k));
  }

  // nextKeys are the keys that continue some legal command.
  nextKeys() {
    const n = this.picked.length;
    const keys = new Set();
    if (this.waiting || this.animating) return keys;
    for (const p of this.matching()) if (p.path.length > n) keys.add(p.path[n]);
    return keys;
  }

  // complete is the legal command picked in full, if any.
  complete() {
    return this.matching().find((p) => p.path.length === this.picked.length) || null;
  }

  // highlight marks what may be chosen now (and only that is in the Tab
  // order) and what has been chosen.
  highlight() {
    const next = this.nextKeys();
    const picked = new Set(this.picked);
    const els = [...this.root.querySelectorAll("[data-key]"), ...this.page.controls.querySelectorAll("[data-key]")];
    const seenPicked = new Set();
    for (const el of els) {
      const k = el.dataset.key;
      const anyLane = k.startsWith("lane:") ? "lane:*:" + k.split(":")[2] : "";
      const can = next.has(k) || (anyLane && next.has(anyLane));
      // Of the same card twice in the hand, the first one is the chosen.
      const chosen = picked.has(k) && !seenPicked.has(k);
      if (chosen) seenPicked.add(k);
      el.classList.toggle("candidate", can);
      el.classList.toggle("picked", chosen);
      el.tabIndex = can ? 0 : -1;
      if (el.classList.contains("lane-target")) el.hidden = !can;
      if (el.matches(".drone, .card, .squad-drone")) {
        el.setAttribute("aria-pressed", String(chosen));
        el.setAttribute("aria-disabled", String(!can && !chosen));
      } else {
        el.setAttribute("aria-disabled", String(!can));
      }
    }
    for (const row of this.root.querySelectorAll(".drones")) {
      row.classList.toggle("lane-candidate", !!row.querySelector(".lane-target.candidate"));
    }
    this.root.classList.toggle("choosing", this.picked.length > 0);
  }

  // clicked takes a click on the board: a highlighted drone, section, card
  // or lane (anywhere in a highlighted lane counts).
  clicked(e) {
    let el = e.target.closest(".candidate");
    if (!el) {
      const row = e.target.closest(".drones.lane-candidate");
      el = row?.querySelector(".lane-target.candidate");
    }
    if (!el || !this.root.contains(el)) return;
    this.choose(el.dataset.key.startsWith("lane:") ? this.laneKey(el.dataset.key) : el.dataset.key);
  }

  // laneKey is the key of a lane as the legal commands name it (a card
  // played into any side's lane names no side).
  laneKey(k) {
    if (this.nextKeys().has(k)) return k;
    return "lane:*:" + k.split(":")[2];
  }

  choose(key) {
    if (!this.nextKeys().has(key)) return;
    this.picked.push(key);
    const done = this.complete();
    const more = this.nextKeys().size > 0;
    // A path ends: send it, unless it is a single click (a card with no
    // target), which the player confirms.
    if (done && !more && this.picked.length > 1) {
      this.send(done.cmd);
      return;
    }
    this.renderControls(this.view);
    this.highlight();
    this.focusFirst();
  }

  cancel() {
    if (this.waiting) return;
    this.picked = [];
    this.renderControls(this.view);
    this.highlight();
    this.focusFirst();
  }

  send(cmd) {
    this.waiting = true;
    this.highlight();
    this.renderControls(this.view);
    this.page.send(cmd.data);
  }

  // rejected: the server refused the command; choose again.
  rejected() {
    this.waiting = false;
    this.picked = [];
    this.renderControls(this.view);
    this.highlight();
  }

  focusedKey() {
    if (!this.inside) return null;
    return document.activeElement?.dataset?.key || "";
  }

  // refocus keeps the keyboard where it was across a redraw: on the same
  // thing if it may still be chosen, else on the first thing to choose.
  refocus(key) {
    if (key === null) return;
    const same = key && this.root.querySelector(`.candidate[data-key="${CSS.escape(key)}"]`);
    if (same) same.focus({ preventScroll: true });
    else this.focusFirst();
  }

  focusFirst() {
    if (!this.inside) return;
    const el = this.root.querySelector(".candidate") || this.page.controls.querySelector("button:not([disabled])");
    (el || this.root).focus({ preventScroll: true });
  }

  renderPlayers(v) {
    const page = this.page;
    page.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = page.summary.seats[p.seat] || {};
      return h("li", { class: "player" + (p.seat === v.turn ? " current" : ""), dataset: { seat: p.seat } },
        h("span", { class: "dot", style: `background:${colour(p.seat)}`, "aria-hidden": "true" }),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", page.seatMark(p.seat)),
        p.passed && v.phase !== "over" ? h("span", { class: "state" }, "passed") : null,
        h("span", { class: "stats" }, `ship damage ${p.damage}/${v.damageToLose} · ${plural(p.handCount, "card")} in hand · threat ${p.threat}`));
    }));
    if (v.phase === "over") {
      const o = v.outcome || {};
      const names = (o.winners || []).map((i) => v.players[i]?.name).join(", ");
      page.playersEl.append(h("li", { class: "over", id: "game-over" }, names ? `${names} won: ${o.reason}.` : `No winner: ${o.reason}.`));
    }
  }

  // renderControls says what to do now, offers the squad while deploying,
  // and the buttons: pass, confirm, cancel; and every legal command as a
  // list for those who prefer one.
  renderControls(v, busy = false) {
    const c = this.page.controls;
    // The line saying what to do stays in place, so that screen readers
    // tell its changes.
    const say = this.sayEl;
    for (const el of [...c.children]) if (el !== say) el.remove();
    if (say.parentNode !== c) c.prepend(say);
    const tell = (text, cls = "hint") => {
      say.textContent = text;
      say.className = cls;
    };
    if (!v || v.phase === "over") return tell("");
    if (busy) {
      tell("Showing what happened… ");
      c.append(h("button", { type: "button", class: "link", id: "skip", onclick: () => this.fx.skipAll() }, "skip (Esc)"));
      return;
    }
    if (!this.legal.length) return tell(v.turn >= 0 ? `Waiting for ${v.players[v.turn]?.name}…` : "");
    if (this.waiting) return tell("Sent…");
    tell(this.prompt(v), "ask");
    const squad = [...new Set(this.paths.map((p) => p.path[0]).filter((k) => k.startsWith("squad:")))];
    if (squad.length) {
      c.append(h("div", { class: "squad", role: "group", "aria-label": "your squad: choose a drone to deploy" },
        squad.map((k) => this.squadButton(k))));
    }
    const row = h("div", { class: "choices" });
    const done = this.complete();
    if (done) {
      row.append(h("button", { type: "button", class: "primary", id: "confirm", onclick: () => this.send(done.cmd) }, done.cmd.text));
    }
    if (this.picked.length) {
      row.append(h("button", { type: "button", id: "cancel", onclick: () => this.cancel() }, "Cancel (Esc)"));
    } else {
      const pass = this.paths.find((p) => p.path[0] === "pass");
      // Passing cannot be taken back: it asks once.
      if (pass) row.append(h("button", { type: "button", id: "pass", onclick: twice("Pass? Press again: you play no more this round", () => this.send(pass.cmd)) },
        v.phase === "deployment" ? "Pass (deploy no more)" : "Pass"));
    }
    c.append(row);
    c.append(h("details", { class: "all-moves" }, h("summary", {}, `All your moves as a list (${this.legal.length})`),
      h("ul", {}, this.legal.map((cmd) => h("li", {}, h("button", { type: "button", class: "link",
        onclick: this.pathOf(cmd.data, v)?.[0] === "pass" ? twice("Pass? Press again: you play no more this round", () => this.send(cmd)) : () => this.send(cmd) }, cmd.text))))));
  }

  squadButton(key) {
    const name = key.slice("squad:".length);
    const k = this.kinds.get(name);
    const abilities = (k?.abilities || []).map((a) => `${a.name}: ${a.description}`).join("\n");
    return h("button", { type: "button", class: "squad-drone", dataset: { key }, title: abilities || name,
      onclick: () => this.choose(key) },
    h("span", { class: "d-name" }, name),
    k ? h("span", { class: "d-stats" }, `cost ${k.class} `, icon("atk", "attack", k.attack), icon("hull", "hull", k.hull),
      icon("sh", "shields", k.shields), icon("spd", "speed", k.speed)) : null);
  }

  // prompt says what the player chooses next.
  prompt(v) {
    const next = [...this.nextKeys()];
    const kinds = new Set(next.map((k) => k.split(":")[0]));
    const what = [];
    if (kinds.has("lane")) what.push("a lane");
    if (kinds.has("drone")) what.push("a drone");
    if (kinds.has("section")) what.push("a ship section");
    const choose = what.length ? `choose ${what.join(", ").replace(/, ([^,]*)$/, " or $1")}` : "";
    const first = this.picked[0];
    if (!first) {
      return v.phase === "deployment"
        ? "Your turn: choose a drone of your squad, then a lane for it — or pass."
        : "Your turn: click one of your drones to move or attack with it, or a card of your hand to play — or pass.";
    }
    const [kind, ...rest] = first.split(":");
    const name = rest.join(":");
    if (kind === "squad") return `Deploy ${name}: ${choose}. Esc cancels.`;
    if (kind === "drone") return `${name}: ${choose} (a lane to move to, or a target to attack). Esc cancels.`;
    const card = v.players[v.you]?.hand?.find((c) => c.name === name);
    const title = card?.title || name;
    if (this.complete() && !next.length) return `Play ${title}?`;
    if (card?.targeting === "DRONES") {
      const chosen = this.picked.slice(1).filter((k) => k.startsWith("drone:")).map((k) => k.slice(6));
      return `${title}: ${chosen.length ? `moving ${chosen.join(", ")}; ` : ""}${choose}${kinds.has("drone") ? " (in the order they move)" : ""}. Esc cancels.`;
    }
    return `${title}: ${choose}. Esc cancels.`;
  }
}

// logEntry writes an entry in the log, with its chain (the command it
// belongs to) for those who read the page.
function logEntry(page, e) {
  page.addLog(e, { data: { chain: e.chain, kind: e.kind } });
}

// droneSeat is the seat whose board a drone is on.
function droneSeat(v, name) {
  for (const p of v.players) {
    for (const lane of p.lanes) if (lane.some((d) => d.name === name)) return p.seat;
  }
  return null;
}
