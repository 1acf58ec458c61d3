// A d20 skirmish on the match page: the map with a token per creature, the
// round and whose turn it is with what it has left, the rolls as they
// happen, and the side's commands: a reachable square or a creature in
// reach to click (or to pick with the arrow keys and Enter), the other
// actions as buttons, and a dialog when the side may make an opportunity
// attack. Everything offered comes from the match's legal commands.
import { h, colour } from "./util.js";
import { GridView, cellKey, shortLabels, conditionLevel, conditionHelp } from "./skirmish-grid.js";
import { rollsOf, rollCard } from "./skirmish-rolls.js";

const STEP_MS = 160;
const ROLL_MS = 650;

export class SkirmishPlay {
  constructor(page) {
    this.page = page;
    this.board = null; // the replay viewer drops it to start afresh
    this.pending = false;
    page.root.classList.add("sk-page");
    // Escape must not dismiss a question the match waits for.
    page.dialog.addEventListener("cancel", (e) => {
      if (page.dialog.classList.contains("sk-reaction")) e.preventDefault();
    });
  }

  async show(state, animate) {
    const page = this.page;
    const v = state.view;
    this.view = v;
    this.legal = state.legal || [];
    if (!this.board || this.mapKey !== JSON.stringify(v.map)) this.build(v);
    const keys = v.combatants.map((c) => c.key).join(" ");
    if (keys !== this.keys) {
      this.keys = keys;
      this.labels = shortLabels(v.combatants.map((c) => c.key), v.combatants.map((c) => c.name));
    }
    if (!this.placed) {
      // The first state: the creatures where they are now, whatever the
      // log before says.
      this.board.setCombatants(v.combatants, this.labels);
      this.placed = true;
    }
    const lively = animate && state.entries.some((e) => e.type === "STEP_MOVEMENT" || e.type === "FORCED_MOVEMENT" || rollsOf(e).length);
    if (lively) {
      page.controls.replaceChildren(h("p", { class: "hint sk-busy" }, "…"));
      this.board.setMarks();
    }
    let chain = -1;
    for (const e of state.entries) {
      const li = page.addLog(e);
      const rolls = rollsOf(e, (key) => v.combatants.find((c) => c.key === key)?.name || key);
      if (li && e.text && rolls.length) li.append(...rolls.map((r) => rollCard(r, { compact: true })));
      if (rolls.length && e.text) {
        if (e.chain !== chain) this.rollsEl.replaceChildren();
        chain = e.chain;
        this.rollsEl.append(...rolls.map((r) => rollCard(r, { animate: lively })));
        this.rollsWrap.hidden = false;
      }
      if (lively) await this.animate(e);
    }
    this.board.setCombatants(v.combatants, this.labels);
    this.board.home = v.turn ? v.combatants.find((c) => c.key === v.turn.key)?.at : null;
    const turnKey = v.turn ? `${v.round}:${v.turn.key}` : "";
    if (turnKey !== this.turnKey) {
      this.turnKey = turnKey;
      this.board.reveal(this.board.home);
    }
    this.renderStatus(v);
    this.renderPlayers(v);
    // A state that changes nothing the viewer may do (someone's connection
    // came or went) leaves the commands alone: a weapon being chosen stays
    // on screen, a button being pressed stays in the page.
    const offer = `${state.hash}|${JSON.stringify(this.legal)}`;
    if (lively || offer !== this.offer || state.entries.length) {
      this.offer = offer;
      this.pending = false;
      this.renderControls();
      this.describe(this.board.cursor);
    }
    this.renderReaction(v);
  }

  // build lays out the board: the status line, the map, what the cursor
  // is on, the latest rolls.
  build(v) {
    const page = this.page;
    this.mapKey = JSON.stringify(v.map);
    this.placed = false;
    this.offer = "";
    this.board = new GridView(v.map, {
      label: `The map, ${v.map.width} by ${v.map.height} squares. Arrow keys move the cursor; Enter moves there or attacks the creature there.`,
      onActivate: (c) => this.activate(c),
      onCursor: (c) => this.describe(c),
    });
    this.statusEl = h("div", { class: "sk-status", id: "sk-status" });
    this.hereEl = h("p", { class: "sk-here", id: "sk-here", "aria-live": "polite" });
    this.rollsEl = h("div", { class: "sk-rolls-list" });
    this.rollsWrap = h("section", { class: "sk-rolls", id: "sk-rolls", "aria-label": "the latest rolls", hidden: true },
      h("h2", {}, "Latest rolls"), this.rollsEl);
    page.boardEl.classList.add("sk-board");
    page.boardEl.replaceChildren(this.statusEl, h("div", { class: "sk-grid-wrap" }, this.board.zoom.el), this.hereEl, this.rollsWrap);
  }

  async animate(e) {
    const b = this.board;
    const at = parseCell(e.at);
    if (e.type === "STEP_MOVEMENT" && e.subject && at && /^STEP_MOVEMENT\/COMPLETION/.test(e.detail || "")) {
      b.place(e.subject, at);
      await sleep(STEP_MS);
    } else if (e.type === "FORCED_MOVEMENT" && e.subject && at) {
      b.place(e.subject, at);
      await sleep(STEP_MS * 2);
    } else if (e.type === "DAMAGE" && e.subject && typeof e.data?.hp === "number") {
      const c = this.view.combatants.find((x) => x.key === e.subject);
      b.setHP(e.subject, e.data.hp, c?.maxHp || 1);
    } else if (e.text && rollsOf(e).length) {
      if (e.data.roll && e.target) b.flash(e.target, /hit/.test(e.data.roll.result) ? "hit" : "miss");
      await sleep(ROLL_MS);
    }
  }

  // --- what the viewer may do ---

  // options sorts the legal commands: moves by square, attacks by target,
  // shoves, the other actions, the reaction's answers.
  options() {
    const o = { moves: new Map(), attacks: new Map(), shoves: [], actions: [], end: null, reaction: [] };
    if (this.pending) return o;
    for (const c of this.legal) {
      const d = c.data;
      switch (d.do) {
        case "move":
          if (d.to) o.moves.set(cellKey(d.to), c);
          break;
        case "attack":
          if (!o.attacks.has(d.target)) o.attacks.set(d.target, []);
          o.attacks.get(d.target).push(c);
          break;
        case "shove":
          o.shoves.push(c);
          break;
        case "end":
          o.end = c;
          break;
        case "reaction":
          o.reaction.push(c);
          break;
        default:
          o.actions.push(c);
      }
    }
    return o;
  }

  act(data) {
    this.pending = true;
    for (const b of this.page.controls.querySelectorAll("button")) b.disabled = true;
    this.board.setMarks();
    this.page.send(data);
  }

  rejected() {
    this.pending = false;
    this.offer = "";
    this.renderControls();
    this.renderReaction(this.view);
  }

  // activate acts on a square: attack the creature there, or move there.
  activate(cell) {
    const o = this.options();
    const who = this.livingAt(cell);
    if (who && o.attacks.has(who.key)) {
      this.chooseWeapon(who.key);
      return;
    }
    const mv = o.moves.get(cellKey(cell));
    if (mv) {
      this.act(mv.data);
      return;
    }
    if (this.legal.length && !this.pending && !o.reaction.length) {
      this.page.say(who ? `${who.name} is out of reach.` : this.board.isWall(cell) ? "A wall." : "Out of reach this turn.");
    }
  }

  livingAt(cell) {
    return cell && this.view?.combatants.find((c) => c.alive && c.at[0] === cell[0] && c.at[1] === cell[1]);
  }

  // describe says what the cursor (or the last square clicked) is on, and
  // what Enter would do there.
  describe(cell) {
    if (!this.hereEl) return;
    if (!cell) {
      const mine = this.options();
      this.hereEl.textContent = mine.moves.size || mine.attacks.size
        ? "Click a highlighted square to move (⚠: an opportunity attack), or a creature ringed in red to attack it. Keyboard: Tab to the map, arrow keys, Enter."
        : "";
      return;
    }
    const o = this.options();
    const parts = [];
    const here = this.view.combatants.filter((c) => c.at[0] === cell[0] && c.at[1] === cell[1]);
    for (const c of here) {
      parts.push(`${c.name} (${c.side}) ${c.alive ? `${c.hp}/${c.maxHp} HP, AC ${c.ac}` : "down"}`);
    }
    if (this.board.isWall(cell)) parts.push("a wall");
    if (!parts.length) parts.push("an empty square");
    const who = this.livingAt(cell);
    if (who && o.attacks.has(who.key)) {
      parts.push("Enter: attack it" + (o.attacks.get(who.key).every((c) => /with disadvantage/.test(c.text)) ? " (with disadvantage)" : ""));
    } else if (o.moves.has(cellKey(cell))) {
      parts.push("Enter: " + o.moves.get(cellKey(cell)).text);
    }
    this.hereEl.textContent = parts.join(" — ");
  }

  // chooseWeapon attacks a creature, asking which weapon when several
  // reach it.
  chooseWeapon(target) {
    const page = this.page;
    const cmds = this.options().attacks.get(target) || [];
    if (cmds.length === 1) {
      this.act(cmds[0].data);
      return;
    }
    const cancel = h("button", { type: "button", id: "sk-cancel-attack", onclick: () => this.renderControls() }, "Cancel");
    const group = h("div", { class: "sk-weapons", role: "group", "aria-labelledby": "sk-weapons-title" },
      h("p", { class: "ask", id: "sk-weapons-title" }, `Attack ${this.view.combatants.find((x) => x.key === target)?.name || target} with:`),
      h("div", { class: "choices" }, cmds.map((c) => {
        const { weapon, detail, adv } = attackParts(c);
        return h("button", { type: "button", class: "sk-weapon" + (adv ? " " + adv : ""), dataset: { weapon: c.data.weapon, target },
          title: c.text, onclick: () => this.act(c.data) },
        h("strong", {}, weapon), " ", h("span", { class: "sk-weapon-detail" }, detail),
        adv ? h("span", { class: `sk-adv ${adv}` }, adv) : null);
      }), cancel));
    group.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.renderControls();
    });
    page.controls.replaceChildren(group);
    group.querySelector("button").focus();
  }

  renderControls() {
    const page = this.page;
    const controls = page.controls;
    controls.replaceChildren();
    const v = this.view;
    const o = this.options();
    const reach = new Map();
    const byKey = new Map(v.combatants.map((c) => [c.key, c]));
    for (const r of v.reachable || []) {
      if (!o.moves.has(cellKey(r.at))) continue;
      reach.set(cellKey(r.at), { ...r, provokers: (r.provokes || []).map((k) => this.labels.get(k) || k).join(" ") });
    }
    const pointed = new Set();
    if (v.reaction && o.reaction.length) {
      pointed.add(v.reaction.who);
      pointed.add(v.reaction.mover);
    }
    this.board.setMarks({ reach, targets: new Set(o.attacks.keys()), pointed });
    this.board.setTitles((c) => {
      const who = this.livingAt(c);
      if (who && o.attacks.has(who.key)) return o.attacks.get(who.key).map((x) => x.text).join("\n");
      return o.moves.get(cellKey(c))?.text || "";
    });
    if (o.reaction.length) {
      controls.append(h("div", { class: "choices", role: "group", "aria-label": "the reaction" }, o.reaction.map((c, i) =>
        h("button", { type: "button", class: i === 0 ? "primary" : "", dataset: { take: String(c.data.take) }, onclick: () => this.answer(c) }, c.text))));
      return;
    }
    if (!o.attacks.size && !o.actions.length && !o.shoves.length && !o.end && !o.moves.size) {
      if (!v.outcome?.over && page.you >= 0 && !this.pending) controls.append(h("p", { class: "hint", id: "waiting" }, this.waitingText(v)));
      return;
    }
    const groups = [];
    if (o.attacks.size) {
      groups.push(h("div", { class: "sk-group sk-targets", role: "group", "aria-label": "attack" }, h("span", { class: "sk-group-name" }, "Attack"),
        [...o.attacks].map(([target, cmds]) => {
          const c = byKey.get(target);
          const dis = cmds.every((x) => /with disadvantage/.test(x.text));
          const adv = cmds.some((x) => /with advantage/.test(x.text));
          return h("button", { type: "button", class: "sk-attack", dataset: { target }, title: cmds.map((x) => x.text).join("\n"),
            onclick: () => this.chooseWeapon(target) },
          h("span", { class: "sk-chip", style: `background:${colour(c?.seat ?? 0)}`, "aria-hidden": "true" }, this.labels.get(target)), " ", c?.name || target,
          c ? h("span", { class: "sk-sub" }, ` ${c.hp}/${c.maxHp} HP, AC ${c.ac}`) : null,
          cmds.length > 1 ? h("span", { class: "sk-sub" }, ` · ${cmds.length} weapons`) : null,
          dis ? h("span", { class: "sk-adv disadvantage" }, "disadvantage") : adv ? h("span", { class: "sk-adv advantage" }, "advantage") : null);
        })));
    }
    if (o.shoves.length) {
      groups.push(h("div", { class: "sk-group sk-targets", role: "group", "aria-label": "shove" }, h("span", { class: "sk-group-name" }, "Shove"),
        o.shoves.map((c) => h("button", { type: "button", class: "sk-shove", dataset: { target: c.data.target }, title: c.text, onclick: () => this.act(c.data) },
          h("span", { class: "sk-chip", style: `background:${colour(byKey.get(c.data.target)?.seat ?? 0)}`, "aria-hidden": "true" }, this.labels.get(c.data.target)),
          " ", byKey.get(c.data.target)?.name || c.data.target))));
    }
    const named = { dodge: "Dodge", disengage: "Disengage", dash: "Dash" };
    const actions = o.actions.map((c) => h("button", { type: "button", id: `sk-${c.data.do}`, class: "sk-action", title: c.text, onclick: () => this.act(c.data) },
      named[c.data.do] || c.text));
    if (o.end) actions.push(h("button", { type: "button", id: "sk-end", class: "sk-end" + (o.attacks.size || o.moves.size ? "" : " primary"), title: o.end.text, onclick: () => this.act(o.end.data) }, "End turn"));
    if (actions.length) groups.push(h("div", { class: "sk-group", role: "group", "aria-label": "other actions" }, actions));
    controls.append(h("div", { class: "sk-controls" }, groups));
  }

  waitingText(v) {
    const seat = v.waiting?.[0];
    if (seat === undefined) return "";
    const side = v.sides[seat];
    const who = side ? `${side.name} (${side.player})` : `seat ${seat + 1}`;
    const turn = v.turn && v.combatants.find((c) => c.key === v.turn.key);
    if (turn && turn.seat !== seat) return `Waiting for ${who} to decide on an opportunity attack against ${turn.name}…`;
    return `Waiting for ${who} to play ${v.turn ? v.turn.name : "the turn"}…`;
  }

  // --- the reaction dialog ---

  answer(c) {
    this.closeDialog();
    this.act(c.data);
  }

  renderReaction(v) {
    const page = this.page;
    const o = this.options();
    if (!v.reaction || !o.reaction.length) {
      this.closeDialog();
      return;
    }
    if (page.dialog.open && this.askedHash === v.hash) return;
    this.askedHash = v.hash;
    const timer = h("p", { class: "sk-deadline", id: "sk-deadline", role: "timer" });
    const buttons = o.reaction.map((c, i) => h("button", { type: "button", class: i === 0 ? "primary" : "",
      id: c.data.take ? "sk-take" : "sk-let-go", onclick: () => this.answer(c) }, c.text));
    const mover = v.combatants.find((c) => c.key === v.reaction.mover);
    const who = v.combatants.find((c) => c.key === v.reaction.who);
    page.dialog.classList.add("sk-reaction");
    page.dialog.replaceChildren(
      h("h2", { id: "prompt-title" }, "Opportunity attack?"),
      h("p", { class: "prompt-text", id: "prompt-text" }, v.reaction.prompt + "."),
      who && mover ? h("p", { class: "hint" }, `Your ${who.name} (${who.hp}/${who.maxHp} HP) may attack ${mover.name} (${mover.hp}/${mover.maxHp} HP, AC ${mover.ac}) with its reaction.`) : null,
      timer,
      h("p", { class: "choices" }, buttons));
    clearInterval(this.tick);
    const draw = () => {
      const deadline = page.deadline;
      if (!deadline) {
        timer.textContent = "";
        return;
      }
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      timer.textContent = left > 0 ? `${left} s left to answer; then your side's bot answers for you.` : "Time is up: your side's bot answers for you.";
    };
    draw();
    this.tick = setInterval(draw, 1000);
    if (!page.dialog.open) page.dialog.showModal();
    buttons[0].focus();
  }

  closeDialog() {
    const d = this.page.dialog;
    clearInterval(this.tick);
    if (d.classList.contains("sk-reaction")) {
      if (d.open) d.close();
      d.classList.remove("sk-reaction");
    }
  }

  // --- what everyone sees ---

  // renderStatus says the round, whose turn it is and what it has left,
  // or how the fight ended.
  renderStatus(v) {
    const el = this.statusEl;
    if (v.outcome?.over) {
      el.replaceChildren(h("p", { class: "sk-over", id: "sk-over" }, `The fight is over after ${v.outcome.rounds} round${v.outcome.rounds === 1 ? "" : "s"}: ${v.outcome.reason || "a draw"}.`));
      return;
    }
    if (!v.turn) {
      el.replaceChildren(h("p", {}, v.name));
      return;
    }
    const c = v.combatants.find((x) => x.key === v.turn.key);
    const side = c ? v.sides[c.seat] : null;
    const t = v.turn;
    const chip = (n, one, many, id) => h("span", { class: "sk-econ" + (n > 0 ? "" : " spent"), id }, n > 0 ? (n === 1 ? one : `${n} ${many}`) : `no ${one.replace(/^1 /, "")}`);
    el.replaceChildren(h("p", { class: "sk-turn" },
      h("span", { class: "sk-round", id: "sk-round" }, `Round ${v.round}`), " · ",
      c ? h("span", { class: "sk-chip", style: `background:${colour(c.seat)}`, "aria-hidden": "true" }, this.labels.get(c.key)) : null, " ",
      h("strong", { id: "sk-whose" }, `${t.name}'s turn`),
      side ? h("span", { class: "sk-sub" }, ` (${side.name}, ${side.player}${this.page.seatMark(c.seat)})`) : null),
    h("p", { class: "sk-economy", id: "sk-economy", "aria-label": "what it has left" },
      chip(t.actions, "1 action", "actions", "sk-actions"), chip(t.bonusActions, "1 bonus action", "bonus actions", "sk-bonus-actions"),
      chip(t.reactions, "1 reaction", "reactions", "sk-reactions"),
      h("span", { class: "sk-econ" + (t.movement > 0 ? "" : " spent"), id: "sk-movement" }, `${t.movement} ft to move`)));
  }

  // renderPlayers lists the sides, who plays them, and their creatures.
  renderPlayers(v) {
    const page = this.page;
    page.playersEl.replaceChildren(...v.sides.map((s, seat) => {
      const info = page.summary?.seats?.[seat] || {};
      const winner = v.outcome?.over && v.outcome.winners?.includes(seat);
      return h("li", { class: "player sk-side" + (v.waiting?.includes(seat) ? " current" : ""), dataset: { seat } },
        h("span", { class: "dot", style: `background:${colour(seat)}`, "aria-hidden": "true" }),
        h("span", { class: "name" }, s.name), h("span", {}, `${s.player}${info.bot ? " (bot)" : ""}${page.seatMark(seat)}`),
        winner ? h("span", { class: "state sk-won" }, "won") : null,
        h("ul", { class: "sk-creatures" }, v.combatants.filter((c) => c.seat === seat).map((c) => this.creatureItem(c))));
    }));
  }

  creatureItem(c) {
    // The kind of creature, where the name does not say it: "Grok
    // (Ogre)", but "Goblin 1".
    const kind = c.creatureName && !c.name.toLowerCase().includes(c.creatureName.toLowerCase()) ? ` (${c.creatureName})` : "";
    const name = c.name + kind;
    const conds = (c.conditions || []).filter((k) => !k.parent);
    return h("li", { class: "sk-creature" + (c.alive ? "" : " dead") + (c.turn ? " current" : ""), dataset: { key: c.key } },
      h("span", { class: "sk-chip", style: `background:${colour(c.seat)}`, "aria-hidden": "true" }, this.labels.get(c.key)),
      h("span", { class: "sk-name" }, name),
      h("span", { class: "sk-stats" }, c.alive ? `${c.hp}/${c.maxHp} HP${c.tempHp ? ` +${c.tempHp} temporary` : ""} · AC ${c.ac}` : "down"),
      c.alive && c.reactions === 0 ? h("span", { class: "sk-sub" }, " · reaction spent") : null,
      conds.length ? h("span", { class: "sk-conds" }, conds.map((k) => {
        const level = conditionLevel(c, k);
        // What it does shows on hover, and on a tap (phones have no hover).
        return h("span", { class: "sk-cond", title: conditionHelp(c, k), tabindex: 0, role: "button",
          onclick: () => this.page.say(conditionHelp(c, k)) },
          k.title, level ? ` ${level}` : "", k.roundsLeft ? h("span", { class: "sk-left" }, ` ${k.roundsLeft} round${k.roundsLeft === 1 ? "" : "s"} left`) : null);
      })) : null);
  }
}

// attackParts reads an attack's words: "Attack the goblin with the javelin
// (+5 to hit with disadvantage, 1d6+3 piercing)".
function attackParts(c) {
  const m = c.text.match(/with the (.+?) \((.*)\)$/);
  const adv = /with disadvantage/.test(c.text) ? "disadvantage" : /with advantage/.test(c.text) ? "advantage" : "";
  return { weapon: c.data.weapon || m?.[1] || c.text, detail: m ? m[2].replace(/ with (dis)?advantage/, "") : "", adv };
}

// parseCell reads a log entry's square, "(3,4)".
function parseCell(s) {
  const m = /^\((\d+),(\d+)\)$/.exec(s || "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
