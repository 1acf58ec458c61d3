// Taking back a move. The server says in every state who may take back
// their last move now (undoBy; canUndo when it is the viewer): the game
// allows it, and nobody has played since. The Undo button shows only
// then, for the viewer, or on a device holding several seats for the one
// who played (the page has moved on to the next player's seat). A move
// taken back leaves the match's log shorter: the page drops the entries
// it had past the log's new end, and everybody is told whose move it was.
import { h } from "./util.js";

export class UndoControl {
  constructor(page) {
    this.page = page;
    this.button = h("button", { type: "button", id: "undo", onclick: () => this.undo() }, "↶ Undo my last move");
    this.el = h("p", { class: "undo", id: "undo-bar", hidden: true }, this.button, " ", h("span", { class: "hint" }, "until someone else plays"));
    page.turnEl.after(this.el);
  }

  // received looks at a message as it arrives, before a state's entries
  // are sorted out: a log shorter than the one the page has lost the
  // entries of a move taken back. A refusal (said by the page) lets the
  // button be pressed again.
  received(msg) {
    if (msg.type === "rejected") this.button.disabled = false;
    if (msg.type === "state" && msg.view && typeof msg.log === "number" && msg.log < this.page.logSeen) {
      msg.cut = true;
      this.page.logSeen = msg.log;
    }
  }

  // show updates the page for a state, in order with the others, before
  // the state is drawn: the entries past the log's end leave, the others
  // are told of the undo, and the button hides unless it is still of use.
  show(msg) {
    const page = this.page;
    if (msg.cut) {
      for (const li of [...page.logEl.querySelectorAll("li[data-seq]")]) {
        if (Number(li.dataset.seq) >= msg.log) li.remove();
      }
    }
    if (typeof msg.undone === "number") {
      const mine = msg.undone === msg.you;
      const text = mine ? "You took back your last move" : `${page.name(msg.undone)} took back their last move`;
      page.logEl.append(h("li", { class: "entry undone" }, h("span", { class: "text" }, text)));
      page.logEl.scrollTop = page.logEl.scrollHeight;
      if (!mine) page.say(text);
    }
    if (this.seat(msg) === undefined) this.el.hidden = true;
  }

  // shown shows the button once the state is drawn (the move it takes
  // back is on the board), if it is of use.
  shown(msg) {
    const seat = this.seat(msg);
    this.el.hidden = seat === undefined;
    this.button.disabled = false;
    this.for = seat;
    this.button.textContent = seat === msg.you ? "↶ Undo my last move" : `↶ Undo ${this.page.name(seat)}'s last move`;
  }

  // seat is the seat whose move the button takes back, if any: the
  // viewer's, or another this device holds.
  seat(msg) {
    const page = this.page;
    if (page.summary.status !== "playing" || typeof msg.undoBy !== "number") return undefined;
    if (msg.canUndo || (page.held || []).includes(msg.undoBy)) return msg.undoBy;
    return undefined;
  }

  undo() {
    const page = this.page;
    const msg = this.for === page.you ? { type: "undo" } : { type: "undo", seat: this.for };
    if (page.sendRaw(msg) === null) {
      page.say("Not connected; trying again…");
      return;
    }
    this.button.disabled = true;
  }
}
