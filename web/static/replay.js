// The replay viewer: a finished match stepped through move by move on its
// board, or jumped to any point, with what happened up to there.
import { h, api, secretQuery } from "./util.js";
import { rankingTable } from "./end.js";

export class ReplayViewer {
  constructor(page) {
    this.page = page;
    this.n = 0;
  }

  async start() {
    const page = this.page;
    page.conn.textContent = "replay";
    const q = secretQuery(page.secrets);
    let rp;
    try {
      rp = await api("GET", `/api/matches/${page.id}/replay${q}`);
    } catch (err) {
      page.say(err.message);
      return;
    }
    if (rp.match.status !== "finished") {
      page.tableEl.replaceChildren(h("p", {}, "This match is not over yet: ", h("a", { href: `/m/${page.id}` }, "watch it live"), "."));
      return;
    }
    this.total = rp.commands.length;
    this.rp = rp;
    page.summary = rp.match;
    page.chat?.readOnly(rp.chat);
    this.slider = h("input", { type: "range", id: "replay-step", min: 0, max: this.total, value: 0, "aria-label": "after how many moves",
      oninput: (e) => this.go(Number(e.target.value)) });
    this.label = h("span", { id: "replay-label", role: "status" });
    // The final standings show at the last move, as the match ended.
    this.rankEl = h("div", { class: "replay-standings", id: "replay-standings" });
    const button = (id, text, f, label) => h("button", { type: "button", id, onclick: f, "aria-label": label }, text);
    page.tableEl.classList.add("compact");
    page.tableEl.replaceChildren(h("p", {}, h("span", { class: "badge done" }, "replay"), " ", h("span", { id: "result" }, `Game over: ${rp.match.result || "no winner"}`), " ",
      h("a", { href: `/m/${page.id}` }, "back to the match")),
    h("div", { class: "replay-bar" },
      button("replay-first", "◀◀", () => this.go(0), "the start"),
      button("replay-prev", "◀ move", () => this.go(this.n - 1), "the move before"),
      this.slider,
      button("replay-next", "move ▶", () => this.go(this.n + 1), "the next move"),
      button("replay-last", "▶▶", () => this.go(this.total), "the end"),
      this.label), this.rankEl);
    page.root.addEventListener("keydown", (e) => {
      // The slider moves itself with the arrow keys.
      if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      if (e.key === "ArrowRight") this.go(this.n + 1);
      if (e.key === "ArrowLeft") this.go(this.n - 1);
    });
    await this.go(0);
  }

  async go(n) {
    n = Math.max(0, Math.min(this.total, n));
    const page = this.page;
    const seq = (this.seq = (this.seq || 0) + 1);
    let step;
    try {
      step = await api("GET", `/api/matches/${page.id}/replay/${n}${secretQuery(page.secrets)}`);
    } catch (err) {
      page.say(err.message);
      return;
    }
    if (seq !== this.seq) return; // a later step was asked for
    this.n = n;
    this.slider.value = n;
    const undo = this.rp.commands[n - 1]?.undo ? ` — ${this.rp.players[this.rp.commands[n - 1].player] || "a player"} took back their last move` : "";
    this.label.textContent = `after move ${n} of ${this.total}${undo}`;
    page.logEl.replaceChildren();
    page.renderer.board = null;
    page.boardEl.hidden = false;
    page.you = -1;
    page.legal = [];
    await page.renderer.show({ view: step.view, legal: [], entries: step.entries, hash: step.hash }, false);
    page.root.dataset.hash = step.hash;
    page.root.dataset.step = String(n);
    this.rankEl.replaceChildren(step.standings ? rankingTable(step.standings, (seat) => page.name(seat)) : "");
  }
}
