// Taking back a move. The server says in every state whether the viewer
// may take back their last move now (canUndo: the game allows it, and
// nobody has played since); the Undo button shows only then. A move taken
// back leaves the match's log shorter: the page drops the entries it had
// past the log's new end, and everybody is told whose move it was.
import { h } from "./util.js";

export class UndoControl {
  constructor(page) {
    this.page = page;
    this.el = h("p", { class: "undo", id: "undo-bar", hidden: true },
      h("button", { type: "button", id: "undo", onclick: () => this.undo() }, "↶ Undo my last move"),
      " ", h("span", { class: "hint" }, "until someone else plays"));
    page.turnEl.after(this.el);
  }

  // received looks at a message as it arrives, before a state's entries
  // are sorted out: a log shorter than the one the page has lost the
  // entries of a move taken back. A refusal (said by the page) lets the
  // button be pressed again.
  received(msg) {
    if (msg.type === "rejected") this.el.querySelector("button").disabled = false;
    if (msg.type === "state" && msg.view && typeof msg.log === "number" && msg.log < this.page.logSeen) {
      msg.cut = true;
      this.page.logSeen = msg.log;
    }
  }

  // show updates the page for a state, in order with the others, before
  // the state is drawn: the entries past the log's end leave, the others
  // are told of the undo, and the button hides unless the viewer may
  // take their move back.
  show(msg) {
    const page = this.page;
    if (msg.cut) {
      for (const li of [...page.logEl.querySelectorAll("li[data-seq]")]) {
        if (Number(li.dataset.seq) >= msg.log) li.remove();
      }
    }
    if (typeof msg.undone === "number") {
      const who = msg.undone === msg.you ? "You" : page.name(msg.undone);
      const text = `${who} took back ${msg.undone === msg.you ? "your" : "their"} last move`;
      page.logEl.append(h("li", { class: "entry undone" }, h("span", { class: "text" }, text)));
      page.logEl.scrollTop = page.logEl.scrollHeight;
      if (msg.undone !== msg.you) page.say(text);
    }
    if (!this.may(msg)) this.el.hidden = true;
  }

  // shown shows the button once the state is drawn (the move it takes
  // back is on the board), if the viewer may take their move back.
  shown(msg) {
    this.el.hidden = !this.may(msg);
    this.el.querySelector("button").disabled = false;
  }

  may(msg) {
    return Boolean(msg.canUndo) && this.page.summary.status === "playing";
  }

  undo() {
    const page = this.page;
    if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
      page.say("Not connected; trying again…");
      return;
    }
    this.el.querySelector("button").disabled = true;
    page.ws.send(JSON.stringify({ type: "undo", id: page.nextID++ }));
  }
}
