// The generic match view: for a pack without a renderer of its own, what
// the viewer may play as buttons, the log, and the view itself for the
// curious. Pack renderers extend it.
import { h, seatDot } from "./util.js";

export class GenericPlay {
  constructor(page) {
    this.page = page;
  }

  async show(state) {
    for (const e of state.entries) this.page.addLog(e);
    this.renderPlayers(state.view);
    this.renderControls(state);
    this.renderView(state.view);
  }

  renderView(v) {
    const page = this.page;
    page.boardEl.replaceChildren(h("details", { class: "raw-view" }, h("summary", {}, "What the game shows you (raw)"),
      h("pre", {}, JSON.stringify(v, null, 2))));
  }

  renderPlayers() {
    const page = this.page;
    page.playersEl.replaceChildren(...page.summary.seats.map((seat, i) =>
      h("li", { class: "player", dataset: { seat: i } }, seatDot(i), h("span", { class: "name" }, seat.name, seat.bot ? " (bot)" : "", page.seatMark(i)))));
  }

  // renderControls offers every legal command as a button.
  renderControls(state) {
    const page = this.page;
    page.controls.replaceChildren();
    if (!state.legal.length) return;
    page.controls.append(h("div", { class: "choices" }, state.legal.map((c, i) =>
      h("button", { type: "button", class: "option" + (i === 0 ? " primary" : ""), onclick: (e) => {
        for (const b of page.controls.querySelectorAll("button")) b.disabled = true;
        page.send(c.data);
      } }, c.text))));
  }

  rejected() {
    for (const b of this.page.controls.querySelectorAll("button")) b.disabled = false;
  }
}

// resultLine says how a match ended, once: who won, and why unless the
// reason says it already ("Game over: Ann won (reached Finish)").
export function resultLine(winners, reason = "") {
  if (!winners.length) return `Game over: ${reason ? reason + "; " : ""}no winner`;
  const why = reason && !winners.some((w) => reason.includes(w)) ? ` (${reason})` : "";
  return `Game over: ${winners.join(" and ")} won${why}`;
}
