// A match: its table before it starts (seats, join, bots, start), then the
// board with the players' tokens walking step by step, the dice, forks to
// choose by clicking, prompts to acknowledge, the players and the log.
import { h, api, secrets, saveSecrets, colour, showDice } from "./util.js";
import { BoardView } from "./board.js";
import { RulebookPlay } from "./rulebook.js";

const STEP_MS = 260;

export async function matchPage(root, id) {
  const page = new MatchPage(root, id);
  await page.start();
}

class MatchPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.secrets = secrets(id);
    this.queue = [];
    this.busy = false;
    this.nextID = 1;
    this.retry = 0;
    this.firstState = true;
  }

  async start() {
    try {
      this.summary = await api("GET", `/api/matches/${this.id}`);
    } catch (err) {
      this.root.replaceChildren(h("header", { class: "top" }, h("h1", {}, h("a", { href: "/" }, "Tabula"))),
        h("p", { class: "error" }, err.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
      return;
    }
    document.title = `${this.summary.boardName} — Tabula`;
    this.drawing = await api("GET", `/api/matches/${this.id}/board`).catch(() => null);
    if (this.summary.game === "rulebook") this.rulebook = new RulebookPlay(this);
    this.layoutPage();
    this.connect();
  }

  layoutPage() {
    this.conn = h("span", { class: "conn", id: "conn" }, "connecting…");
    this.header = h("header", { class: "top" },
      h("h1", {}, h("a", { href: "/" }, "Tabula")),
      h("p", { class: "tagline" }, h("strong", {}, this.summary.boardName), " ", this.conn));
    this.tableEl = h("section", { class: "card table", id: "table" });
    this.boardEl = h("div", { class: "board-wrap", id: "board" });
    this.controls = h("div", { class: "controls", id: "controls" });
    this.playersEl = h("ul", { class: "players", id: "players" });
    this.logEl = h("ol", { class: "log", id: "log" });
    this.toast = h("p", { class: "toast", id: "toast", role: "alert" });
    this.dialog = h("dialog", { id: "prompt" });
    this.root.replaceChildren(this.header,
      h("div", { class: "match" },
        h("div", { class: "main" }, this.tableEl, this.boardEl, this.controls, this.toast),
        h("aside", { class: "side" },
          h("section", { class: "card" }, h("h2", {}, "Players"), this.playersEl),
          h("section", { class: "card" }, h("h2", {}, "What happened"), this.logEl))),
      this.dialog);
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const token = this.secrets.token ? `?token=${encodeURIComponent(this.secrets.token)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/api/matches/${this.id}/ws${token}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.conn.textContent = "connected";
      this.conn.className = "conn on";
    };
    ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
    ws.onclose = () => {
      this.conn.textContent = "reconnecting…";
      this.conn.className = "conn off";
      // Back off a little more after every failure, up to ten seconds.
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  send(kind, extra = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.say("Not connected; trying again…");
      return;
    }
    this.ws.send(JSON.stringify({ type: "command", id: this.nextID++, kind, ...extra }));
  }

  say(text) {
    this.toast.textContent = text;
    this.toast.classList.add("show");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => this.toast.classList.remove("show"), 5000);
  }

  onMessage(msg) {
    if (msg.type === "rejected") {
      this.say(msg.reason);
      return;
    }
    if (msg.type !== "state") return;
    // A fresh connection is sent the whole log: show it without animation.
    const animate = !this.firstState;
    this.firstState = false;
    this.queue.push({ msg, animate });
    this.drain();
  }

  async drain() {
    if (this.busy) return;
    this.busy = true;
    while (this.queue.length) {
      const { msg, animate } = this.queue.shift();
      await this.show(msg, animate && this.queue.length < 3);
    }
    this.busy = false;
  }

  async show(msg, animate) {
    this.summary = msg.match;
    this.you = msg.you;
    this.renderTable();
    const v = msg.view;
    if (!v) {
      this.boardEl.hidden = true;
      return;
    }
    this.boardEl.hidden = false;
    if (this.rulebook) {
      await this.rulebook.show(v, msg.entries, animate);
      this.view = v;
      this.root.dataset.hash = v.hash;
      this.root.dataset.over = v.over;
      return;
    }
    if (!this.board && this.drawing) {
      this.board = new BoardView(this.drawing, v.players.map((p) => ({ ...p, space: p.start || p.space })));
      this.boardEl.replaceChildren(this.board.el);
      if (!animate) this.board.setTokens(v.players);
    }
    this.renderControls(null); // nothing to click while the log plays
    for (const e of msg.entries) {
      this.addLog(e);
      if (animate && this.board) await this.animate(e);
    }
    if (this.board) {
      this.board.setTokens(v.players);
      this.board.setCurrent(v.over ? -1 : v.current);
    }
    this.view = v;
    // Tests and curious players can read the state hash off the page.
    this.root.dataset.hash = v.hash;
    this.root.dataset.over = v.over;
    this.renderPlayers(v);
    this.renderControls(v);
    this.renderPrompt(v);
  }

  async animate(e) {
    switch (e.type) {
      case "ON_ENTER":
        this.board.place(e.player, e.space);
        await sleep(STEP_MS);
        break;
      case "ROLLED":
        this.showDice([e.amount], true);
        await sleep(STEP_MS * 1.5);
        break;
      default:
        if (e.kind === "fired") {
          this.board.flash(e.space);
          await sleep(STEP_MS / 2);
        }
    }
  }

  renderTable() {
    const s = this.summary;
    const el = this.tableEl;
    el.replaceChildren();
    const link = location.origin + "/m/" + this.id;
    if (s.status === "lobby") {
      el.append(h("h2", {}, "The table"),
        h("p", {}, "Share this link with your friends: ",
          h("input", { class: "link", id: "share-link", readonly: true, value: link, onclick: (e) => e.target.select() }),
          " ", h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link).then(() => this.say("Link copied")) }, "Copy")));
      el.append(h("ol", { class: "seats", id: "seats" }, s.seats.map((seat, i) =>
        h("li", { class: seat.name ? "taken" : "free" },
          seat.name ? h("span", {}, h("span", { class: "dot", style: `background:${colour(i)}` }), seat.name,
            seat.bot ? " (bot)" : "", i === this.you ? " — you" : "", seat.online ? h("span", { class: "online", title: "online" }, " ●") : "")
            : h("span", { class: "hint" }, "free seat")))));
      const free = s.seats.some((seat) => !seat.name);
      if (this.you < 0 && free) {
        const name = h("input", { id: "nickname", placeholder: "your nickname", maxlength: 32, required: true, autocomplete: "nickname" });
        el.append(h("form", { id: "join", onsubmit: async (e) => {
          e.preventDefault();
          try {
            const res = await api("POST", `/api/matches/${this.id}/join`, { name: name.value });
            saveSecrets(this.id, { token: res.token });
            this.secrets = secrets(this.id);
            this.firstState = true;
            this.ws.onclose = null;
            this.ws.close();
            this.connect();
          } catch (err) {
            this.say(err.message);
          }
        } }, name, h("button", { type: "submit", id: "join-button" }, "Join")));
      }
      if (this.secrets.owner) {
        el.append(h("p", { class: "owner" },
          free ? h("button", { type: "button", id: "add-bots", onclick: () => this.owner("bots") }, "Fill empty seats with bots") : null, " ",
          h("button", { type: "button", id: "start", class: "primary", onclick: () => this.owner("start") }, "Start the match")));
      } else {
        el.append(h("p", { class: "hint" }, "Waiting for the match's creator to start it."));
      }
      return;
    }
    el.classList.toggle("compact", true);
    const parts = [];
    if (this.you < 0) parts.push(h("span", { class: "badge" }, "watching"));
    if (s.status === "finished") parts.push(h("span", { class: "badge done" }, "finished"), " ", s.result || "",
      " ", h("a", { href: `/api/matches/${this.id}/replay`, id: "replay-link" }, "replay data"));
    if (s.status === "broken") parts.push(h("span", { class: "badge error" }, "broken"), " ", s.error);
    el.append(h("p", {}, ...parts));
  }

  async owner(action) {
    try {
      await api("POST", `/api/matches/${this.id}/${action}`, { owner: this.secrets.owner });
    } catch (err) {
      this.say(err.message);
    }
  }

  renderPlayers(v) {
    const names = (seats) => seats.map((i) => v.players[i]?.name).join(", ");
    this.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = this.summary.seats[p.seat] || {};
      const stats = Object.entries(p.stats || {}).map(([k, n]) => `${k}: ${n}`).join(", ");
      const effects = (p.effects || []).map((e) => `${e.kind} (${e.left})`).join(", ");
      return h("li", { class: "player" + (p.seat === v.current && !v.over ? " current" : ""), dataset: { seat: p.seat } },
        h("span", { class: "dot", style: `background:${colour(p.seat)}` }),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", p.seat === this.you ? " — you" : ""),
        h("span", { class: "state state-" + p.state }, p.state.replaceAll("_", " ").toLowerCase()),
        h("span", { class: "where" }, "on ", this.spaceName(p.space)),
        stats ? h("span", { class: "stats" }, stats) : null,
        effects ? h("span", { class: "effects" }, effects) : null,
        p.reversed ? h("span", { class: "effects" }, "walking backwards") : null);
    }));
    if (v.over) {
      this.playersEl.append(h("li", { class: "over", id: "game-over" },
        "Game over: ", v.endReason, v.winners.length ? `. Winner: ${names(v.winners)}` : ". No winner."));
    }
  }

  spaceName(id) {
    const s = this.drawing?.spaces.find((x) => x.id === id);
    return s ? s.name || id : id;
  }

  showDice(values, rolling) {
    showDice(this.controls, values, rolling);
  }

  renderControls(v) {
    const dice = this.controls.querySelector(".dice");
    this.controls.replaceChildren();
    if (dice) this.controls.append(dice);
    if (this.board) this.board.setChoices([], null);
    if (!v) return;
    if (v.lastRoll.length) this.showDice(v.lastRoll, false);
    if (v.over) return;
    const mine = v.yourWaits || [];
    const roll = mine.find((w) => w.kind === "roll");
    const choose = mine.find((w) => w.kind === "choose-path");
    const cur = v.players[v.current];
    if (roll) {
      this.controls.append(h("button", { type: "button", id: "roll", class: "primary big", onclick: (e) => {
        e.target.disabled = true;
        this.send("roll");
      } }, "Roll the dice"));
    } else if (choose) {
      this.controls.append(h("p", { class: "ask" }, "Which way? Click a highlighted space."),
        h("div", { class: "choices" }, v.choices.map((id) =>
          h("button", { type: "button", class: "choice", dataset: { space: id }, onclick: () => this.send("choose-path", { space: id }) }, this.spaceName(id)))));
      this.board?.setChoices(v.choices, (id) => this.send("choose-path", { space: id }));
    } else if (cur) {
      const w = v.waits[0];
      const what = !w ? "" : w.kind === "roll" ? "to roll" : w.kind === "choose-path" ? "to choose a way" : "to read a message";
      this.controls.append(h("p", { class: "hint", id: "waiting" }, `Waiting for ${v.players[w ? w.player : v.current].name} ${what}`));
    }
  }

  renderPrompt(v) {
    const p = v.prompt;
    const mine = p && p.pending.includes(this.you);
    if (!mine) {
      if (this.dialog.open) this.dialog.close();
      return;
    }
    const text = h("p", { class: "prompt-text", id: "prompt-text" }, p.segments.map((s) =>
      s.color ? h("span", { style: `color:${safeColour(s.color)}` }, s.text) : s.text));
    const ok = h("button", { type: "button", id: "ack", class: "primary", onclick: () => {
      ok.disabled = true;
      this.send("ack");
      this.dialog.close();
    } }, "OK");
    this.dialog.replaceChildren(h("h2", {}, this.spaceName(p.space)), text, h("p", {}, ok));
    if (!this.dialog.open) this.dialog.showModal();
  }

  addLog(e) {
    if (!e.text) return;
    const li = h("li", { class: `entry kind-${e.kind} type-${e.type || ""}`, style: `--depth:${e.depth}`, dataset: { seq: e.seq, depth: e.depth } },
      e.player >= 0 && e.kind === "event" ? h("span", { class: "dot", style: `background:${colour(e.player)}` }) : null, e.text);
    this.logEl.append(li);
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// safeColour lets through only the #rrggbb colours placeholders make.
function safeColour(c) {
  return /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : "inherit";
}
