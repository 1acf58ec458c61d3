// A party board on the match page: the board with the players' tokens
// walking step by step, the dice, forks to choose by clicking the board,
// prompts to acknowledge, the players and their stats. Everything the
// viewer may do comes from the match's legal commands.
import { h, showDice, seatDot } from "./util.js";
import { BoardView } from "./board.js";
import { GenericPlay, resultLine } from "./generic.js";
import { Zoom } from "./zoom.js";

const STEP_MS = 260;

export class PartyPlay extends GenericPlay {
  async show(state, animate) {
    const page = this.page;
    const v = state.view;
    if (!this.board && page.drawing) {
      // A first view that is animated starts every token where it began.
      this.board = new BoardView(page.drawing, v.players.map((p) => (animate ? { ...p, space: p.start || p.space } : p)));
      page.boardEl.replaceChildren(new Zoom(this.board.el).el);
    }
    // The players' list is there from the first moment, even while the
    // log plays on the board.
    this.renderPlayers(v);
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
      case "TELEPORTED":
        if (e.seat >= 0 && e.at) this.board.place(e.seat, e.at);
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

  // resultText is the finished match's line: who won, and why.
  resultText(v) {
    if (!v?.over) return "";
    return resultLine(v.winners.map((i) => v.players[i]?.name).filter(Boolean), v.endReason);
  }

  renderPlayers(v) {
    const page = this.page;
    page.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = page.summary.seats[p.seat] || {};
      const stats = (p.statList || []).map((s) => `${s.label}: ${s.value}`).join(", ");
      const effects = (p.effectTexts || []).join(", ");
      const won = v.winners.includes(p.seat);
      return h("li", { class: "player" + (p.seat === v.current && !v.over ? " current" : "") + (won ? " winner" : ""), dataset: { seat: p.seat },
        "aria-current": p.seat === v.current && !v.over ? "true" : null },
        seatDot(p.seat),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", page.seatMark(p.seat)),
        won ? h("span", { class: "state state-won" }, "won") : h("span", { class: "state state-" + p.state }, p.stateText),
        h("span", { class: "where" }, "on ", p.spaceName),
        stats ? h("span", { class: "stats" }, stats) : null,
        effects ? h("span", { class: "effects" }, effects) : null,
        p.reversed ? h("span", { class: "effects" }, "walking backwards") : null);
    }));
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
      } }, roll.text));
    } else if (ways.length) {
      // The ways are the legal commands, in the order of the spaces the
      // view offers to click; their texts name each space (and its id
      // where two have the same name).
      const pick = (i) => {
        for (const b of controls.querySelectorAll("button")) b.disabled = true;
        this.board?.setChoices([], null);
        page.send(ways[i].data);
      };
      controls.append(h("p", { class: "ask", id: "ask" }, "Which way? Click a highlighted space, or:"),
        h("div", { class: "choices", role: "group", "aria-labelledby": "ask" }, ways.map((c, i) =>
          h("button", { type: "button", class: "choice", dataset: { space: v.choices[i] || "" }, onclick: () => pick(i) }, c.text))));
      this.board?.setChoices(v.choices.slice(0, ways.length), (id) => pick(v.choices.indexOf(id)), ways.map((c) => c.text));
    } else if (!legal.length) {
      const w = v.waits[0];
      const what = !w ? "" : w.kind === "roll" ? "to roll" : w.kind === "choose-path" ? "to choose a way" : "to read a message";
      const who = w ? [...new Set(v.waits.filter((x) => x.kind === w.kind).map((x) => v.players[x.player]?.name))].join(", ") : v.players[v.current]?.name;
      controls.append(h("p", { class: "hint", id: "waiting" }, `Waiting for ${who} ${what}`));
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
    page.dialog.replaceChildren(h("h2", { id: "prompt-title" }, p.spaceName), text, h("p", {}, ok));
    // Escape acknowledges too: the dialog cannot be left unanswered.
    page.dialog.oncancel = (e) => {
      e.preventDefault();
      ok.click();
    };
    if (!page.dialog.open) page.dialog.showModal();
    ok.focus();
  }

  rejected() {
    super.rejected();
    const v = this.page.view;
    if (v) this.renderControls(v, this.page.legal);
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// safeColour lets through only the #rrggbb colours placeholders make.
function safeColour(c) {
  return /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : "inherit";
}
