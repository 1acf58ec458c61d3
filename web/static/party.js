// A party board on the match page: the board with the players' tokens
// walking step by step, the dice, forks to choose by clicking, prompts to
// acknowledge, the players and their stats.
import { h, colour, showDice } from "./util.js";
import { BoardView } from "./board.js";
import { GenericPlay } from "./generic.js";

const STEP_MS = 260;

export class PartyPlay extends GenericPlay {
  async show(state, animate) {
    const page = this.page;
    const v = state.view;
    if (!this.board && page.drawing) {
      this.board = new BoardView(page.drawing, v.players.map((p) => ({ ...p, space: p.start || p.space })));
      page.boardEl.replaceChildren(this.board.el);
      if (!animate) this.board.setTokens(v.players);
    }
    this.renderControls(null); // nothing to click while the log plays
    for (const e of state.entries) {
      page.addLog(e);
      if (animate && this.board) await this.animate(e);
    }
    if (this.board) {
      this.board.setTokens(v.players);
      this.board.setCurrent(v.over ? -1 : v.current);
    }
    this.renderPlayers(v);
    this.renderControls(v, state.legal);
    this.renderPrompt(v, state.legal);
  }

  async animate(e) {
    switch (e.kind === "event" ? e.type : e.kind) {
      case "ON_ENTER":
        this.board.place(e.seat, e.at);
        await sleep(STEP_MS);
        break;
      case "ROLLED":
        showDice(this.page.controls, [e.amount], true);
        await sleep(STEP_MS * 1.5);
        break;
      case "fired":
        this.board.flash(e.at);
        await sleep(STEP_MS / 2);
        break;
    }
  }

  renderPlayers(v) {
    const page = this.page;
    const names = (seats) => seats.map((i) => v.players[i]?.name).join(", ");
    page.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = page.summary.seats[p.seat] || {};
      const stats = Object.entries(p.stats || {}).map(([k, n]) => `${k}: ${n}`).join(", ");
      const effects = (p.effects || []).map((e) => `${e.kind.replaceAll("_", " ").toLowerCase()} (${e.left} left)`).join(", ");
      return h("li", { class: "player" + (p.seat === v.current && !v.over ? " current" : ""), dataset: { seat: p.seat } },
        h("span", { class: "dot", style: `background:${colour(p.seat)}` }, String(p.seat + 1)),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", p.seat === page.you ? " — you" : ""),
        h("span", { class: "state state-" + p.state }, p.state.replaceAll("_", " ").toLowerCase()),
        h("span", { class: "where" }, "on ", this.spaceName(p.space)),
        stats ? h("span", { class: "stats" }, stats) : null,
        effects ? h("span", { class: "effects" }, effects) : null,
        p.reversed ? h("span", { class: "effects" }, "walking backwards") : null);
    }));
    if (v.over) {
      page.playersEl.append(h("li", { class: "over", id: "game-over" },
        v.winners.length ? `Game over: ${names(v.winners)} won.` : `Game over: ${v.endReason}. No winner.`));
    }
  }

  spaceName(id) {
    const s = this.page.drawing?.spaces.find((x) => x.id === id);
    return s ? s.name || id : id;
  }

  renderControls(v, legal = []) {
    const page = this.page;
    const controls = page.controls;
    const dice = controls.querySelector(".dice");
    controls.replaceChildren();
    if (dice) controls.append(dice);
    if (this.board) this.board.setChoices([], null);
    if (!v) return;
    if (v.lastRoll.length) showDice(controls, v.lastRoll, false);
    if (v.over) return;
    const roll = legal.find((c) => c.data.kind === "roll");
    const ways = legal.filter((c) => c.data.kind === "choose-path");
    if (roll) {
      controls.append(h("button", { type: "button", id: "roll", class: "primary big", onclick: (e) => {
        e.target.disabled = true;
        page.send(roll.data);
      } }, "Roll the dice"));
    } else if (ways.length) {
      const pick = (id) => page.send({ kind: "choose-path", space: id });
      controls.append(h("p", { class: "ask" }, "Which way? Click a highlighted space, or:"),
        h("div", { class: "choices", role: "group", "aria-label": "which way" }, v.choices.map((id, i) =>
          h("button", { type: "button", class: "choice", dataset: { space: id }, onclick: () => pick(id) }, ways[i]?.text || this.spaceName(id)))));
      this.board?.setChoices(v.choices, pick);
    } else if (!legal.length) {
      const w = v.waits[0];
      const what = !w ? "" : w.kind === "roll" ? "to roll" : w.kind === "choose-path" ? "to choose a way" : "to read a message";
      controls.append(h("p", { class: "hint", id: "waiting" }, `Waiting for ${v.players[w ? w.player : v.current]?.name} ${what}`));
    }
  }

  renderPrompt(v, legal = []) {
    const page = this.page;
    const p = v.prompt;
    const ack = legal.find((c) => c.data.kind === "ack");
    if (!p || !ack) {
      if (page.dialog.open) page.dialog.close();
      return;
    }
    const text = h("p", { class: "prompt-text", id: "prompt-text" }, p.segments.map((s) =>
      s.color ? h("span", { style: `color:${safeColour(s.color)}` }, s.text) : s.text));
    const ok = h("button", { type: "button", id: "ack", class: "primary", onclick: () => {
      ok.disabled = true;
      page.send(ack.data);
      page.dialog.close();
    } }, "OK");
    page.dialog.replaceChildren(h("h2", { id: "prompt-title" }, this.spaceName(p.space)), text, h("p", {}, ok));
    if (!page.dialog.open) page.dialog.showModal();
    ok.focus();
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// safeColour lets through only the #rrggbb colours placeholders make.
function safeColour(c) {
  return /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : "inherit";
}
