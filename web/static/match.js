// A match: its table before it starts (seats, invitation, join, bots,
// start), then the game drawn by its pack's renderer, the players, what
// happened, whose turn it is and how long they have; at the end, "Play
// again" and the replay.
import { h, api, secrets, saveSecrets, secretQuery, seatDot } from "./util.js";
import { PartyPlay } from "./party.js";
import { RulebookPlay } from "./rulebook.js";
import { LanesPlay } from "./lanes.js";
import { SkirmishPlay } from "./skirmish.js";
import { GenericPlay } from "./generic.js";
import { PiecesPlay } from "./pieces.js";
import { MatchState } from "./delta.js";
import { endScreen } from "./end.js";
import { howToPlay } from "./howto.js";
import { Chat } from "./chat.js";
import { Handover } from "./handover.js";
import { UndoControl } from "./undo.js";

const renderers = { party: PartyPlay, rulebook: RulebookPlay, lanes: LanesPlay, skirmish: SkirmishPlay, pieces: PiecesPlay };

export async function matchPage(root, id) {
  const page = new MatchPage(root, id);
  await page.start();
  return page;
}

class MatchPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.queue = [];
    this.busy = false;
    this.nextID = 1;
    this.retry = 0;
    // logSeen counts the log records received: a reconnection asks for the
    // rest only, and entries already shown are never shown again.
    this.logSeen = 0;
    this.firstState = true;
    // state applies the server's whole states and deltas (delta.js).
    this.state = new MatchState();
    this.you = -1;
    this.legal = [];
    // held are the seats this device plays (pass-and-play: several);
    // viewSeat the one it asked to see, switching the one it waits for.
    this.held = [];
    this.viewSeat = undefined;
    this.switching = undefined;
    this.takeInvite();
    this.secrets = secrets(id);
  }

  // takeInvite keeps the invitation of a shared link (#invite=…).
  takeInvite() {
    const m = location.hash.match(/invite=([0-9a-f]+)/);
    if (m) saveSecrets(this.id, { invite: m[1] });
  }

  // showInvite keeps in the address bar a link that works for whoever it
  // is given to: the match's invitation, never a seat's secret.
  showInvite() {
    const inv = this.secrets.invite;
    const want = inv ? `#invite=${inv}` : "";
    if (location.hash !== want) history.replaceState(null, "", location.pathname + location.search + want);
  }

  async start() {
    try {
      this.summary = await api("GET", `/api/matches/${this.id}${secretQuery(this.secrets)}`);
    } catch (err) {
      const why = err.status === 403 ? "This match is private: ask whoever invited you for its link." : err.message;
      this.root.replaceChildren(h("header", { class: "top" }, h("p", { class: "brand" }, h("a", { href: "/" }, "Tabula"))),
        h("main", { class: "narrow" }, h("h1", {}, "No such match here"), h("p", { class: "error", role: "alert" }, why),
          h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
      return;
    }
    this.showInvite();
    this.baseTitle = `${this.summary.boardName} — Tabula`;
    document.title = this.baseTitle;
    const board = await api("GET", `/api/matches/${this.id}/board${secretQuery(this.secrets)}`).catch(() => null);
    this.info = board?.info || {};
    this.drawing = board?.drawing || null;
    this.layoutPage();
    this.undo = new UndoControl(this);
    const R = renderers[this.summary.game] || GenericPlay;
    this.renderer = new R(this);
    if (new URLSearchParams(location.search).has("replay")) {
      const { ReplayViewer } = await import("./replay.js");
      await new ReplayViewer(this).start();
      return;
    }
    this.renderTable();
    this.connect();
  }

  layoutPage() {
    this.conn = h("span", { class: "conn", id: "conn", role: "status" }, "connecting…");
    this.header = h("header", { class: "top" },
      h("p", { class: "brand" }, h("a", { href: "/" }, "Tabula")),
      h("h1", { class: "game-name" }, this.summary.boardName),
      this.summary.compat ? h("span", { class: "hint", id: "compat" }, `played as the ${this.summary.compat} game did`) : null,
      this.conn);
    this.tableEl = h("section", { class: "card table", id: "table", "aria-label": "the table" });
    this.turnEl = h("p", { class: "turn", id: "turn", role: "status", "aria-live": "polite" });
    this.boardEl = h("div", { class: "board-wrap", id: "board", hidden: true });
    this.controls = h("div", { class: "controls", id: "controls", role: "group", "aria-label": "your move" });
    this.playersEl = h("ul", { class: "players", id: "players" });
    this.logEl = h("ol", { class: "log", id: "log", role: "log", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-labelledby": "log-title" });
    const details = localStorage.getItem("tabula:details") === "on";
    this.root.classList.toggle("show-details", details);
    this.detailsToggle = h("input", { type: "checkbox", id: "details", checked: details, onchange: (e) => {
      this.root.classList.toggle("show-details", e.target.checked);
      localStorage.setItem("tabula:details", e.target.checked ? "on" : "off");
    } });
    this.toast = h("p", { class: "toast", id: "toast", role: "alert" });
    this.dialog = h("dialog", { id: "prompt", "aria-labelledby": "prompt-title" });
    const how = howToPlay(this.info, this.summary.boardName);
    this.header.insertBefore(how.button, this.conn);
    const bar = h("div", { class: "action-bar", id: "action-bar" }, this.turnEl, this.controls, this.toast);
    // What is scrolled into view (a control tabbed to, a lane to tap)
    // stops above the bar, not under it.
    const sizes = new ResizeObserver(() => {
      document.documentElement.style.scrollPaddingBottom = `${bar.offsetHeight}px`;
      this.fitHeight();
      // The bar or the board still settling just after the board was
      // placed (a line wrapping anew, a map turned): placed again, unless
      // the player has touched or scrolled the page since.
      if (performance.now() - this.placedAt < 1500) this.showBoard();
    });
    const stopPlacing = () => { this.placedAt = -Infinity; };
    for (const type of ["pointerdown", "keydown", "wheel", "touchstart"]) addEventListener(type, stopPlacing, { capture: true, passive: true });
    sizes.observe(bar);
    sizes.observe(this.boardEl);
    this.bar = bar;
    let width = innerWidth;
    addEventListener("resize", () => {
      this.fitHeight();
      // Turned, or a window made narrow: the board is placed again. (A
      // phone's height changes as its address bar hides: not that.)
      if (innerWidth !== width) {
        width = innerWidth;
        requestAnimationFrame(() => this.placeBoard());
      }
    });
    this.chat = new Chat(this);
    this.root.replaceChildren(this.header,
      h("main", { class: "match" },
        // What the player may do now stays on the screen under the board,
        // however long the board: the bar sticks to the screen's bottom.
        h("div", { class: "main" }, this.tableEl, this.boardEl, bar),
        h("aside", { class: "side" },
          h("section", { class: "card", "aria-labelledby": "players-title" }, h("h2", { id: "players-title" }, "Players"), this.playersEl),
          h("section", { class: "card", "aria-labelledby": "log-title" },
            h("h2", { id: "log-title" }, "What happened"),
            h("p", { class: "details-switch" }, this.detailsToggle, h("label", { for: "details" }, " details for game designers")),
            this.logEl),
          this.chat.el)),
      this.dialog, how.panel);
    this.handover = new Handover(this);
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // A device shared by several players starts hidden: it shows a seat
    // once the player whose turn it is says they hold it.
    const seat = this.viewSeat ?? (this.secrets.shared ? -1 : undefined);
    const q = secretQuery(this.secrets, { log: this.logSeen, seat });
    const ws = new WebSocket(`${proto}//${location.host}/api/matches/${this.id}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      // Tests count the connections made (a reconnection adds one).
      this.root.dataset.connections = String(Number(this.root.dataset.connections || 0) + 1);
      this.conn.textContent = "connected";
      this.conn.className = "conn on";
    };
    ws.onmessage = (e) => {
      const data = JSON.parse(e.data);
      for (const msg of Array.isArray(data) ? data : [data]) this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      // Back off a little more after every failure, up to ten seconds.
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      const why = e.reason === "server restarting" ? "The server is restarting" : "The connection was lost";
      this.conn.textContent = `${why}: reconnecting in ${Math.max(1, Math.round(wait / 1000))} s. Your moves so far are saved.`;
      this.conn.className = "conn off";
      this.firstState = true; // what was missed is shown without animation
      setTimeout(() => this.connect(), wait);
    };
  }

  // send plays a command: data is the command's JSON, as the match's legal
  // commands give it.
  send(data) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.say("Not connected; trying again…");
      this.renderer.rejected?.();
      return;
    }
    this.ws.send(JSON.stringify({ type: "command", id: this.nextID++, data }));
    if (this.passTo !== undefined) {
      this.passTo = undefined; // whoever played holds the device
      this.renderTurn();
    }
  }

  // sendRaw sends a message other than a command (chat, a seat switch)
  // and returns its id, or null when not connected.
  sendRaw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextID++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  // clearLog empties the log shown: a device passed to another player is
  // sent that player's log whole.
  clearLog() {
    this.logEl.replaceChildren();
    this.logSeen = 0;
    this.firstState = true;
    this.queue = this.queue.filter((q) => q.msg.type !== "state");
  }

  say(text) {
    this.toast.textContent = text;
    this.toast.classList.add("show");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => this.toast.classList.remove("show"), 5000);
  }

  onMessage(msg) {
    if ((msg.type === "rejected" || msg.type === "ack") && this.chat.owns(msg.id)) {
      this.chat.answered(msg);
      return;
    }
    if (msg.type === "rejected") {
      this.undo.received(msg);
      this.say(msg.reason);
      this.renderer.rejected?.();
      return;
    }
    if (msg.type === "chat") {
      this.chat.receive(msg);
      return;
    }
    if (msg.type === "seats") {
      this.queue.push({ msg });
      this.drain();
      return;
    }
    if (msg.type !== "state" && msg.type !== "delta") return;
    msg = this.state.take(msg);
    if (!msg) {
      // A message went missing: ask for the whole state, once.
      if (!this.syncing && this.ws?.readyState === WebSocket.OPEN) {
        this.syncing = true;
        this.ws.send(JSON.stringify({ type: "sync", log: this.logSeen }));
      }
      return;
    }
    this.syncing = false;
    // A delta made whole: the undo control sees a log cut short.
    this.undo.received(msg);
    if (this.switching !== undefined) {
      // States of the seat shown before a switch are stale.
      if (msg.you !== this.switching) return;
      this.switching = undefined;
      this.firstState = true;
    }
    // Entries already received (a reconnection that crossed a message in
    // flight) are dropped here, before anything is shown.
    const from = this.logSeen;
    msg.entries = (msg.entries || []).filter((e) => e.seq >= from);
    if (msg.view) this.logSeen = Math.max(this.logSeen, msg.log || 0);
    // A fresh connection is sent the log it lacks: show it without
    // animation.
    const animate = !this.firstState;
    this.firstState = false;
    this.queue.push({ msg, animate });
    this.drain();
  }

  async drain() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length) {
        const { msg, animate } = this.queue.shift();
        if (msg.type === "seats") {
          this.handover.seats(msg);
          continue;
        }
        // Behind by several messages: catch up without animating.
        await this.show(msg, animate && this.queue.length < 2);
      }
    } finally {
      this.busy = false;
    }
  }

  async show(msg, animate) {
    if (msg.match) this.summary = msg.match;
    if (msg.standings) this.standings = msg.standings;
    this.you = msg.you;
    this.legal = msg.legal || [];
    this.deadline = msg.deadline || 0;
    if (this.legal.length && this.turnSeat !== this.you) {
      // The turn goes to another of the device's players: until they
      // play (send), the turn asks to pass them the device, unless a
      // cover asked it already. Told here, before the board is drawn and
      // can be played, so that a move made meanwhile ends it.
      this.passTo = this.shared() && this.turnSeat !== undefined && this.handover.confirmed !== this.you ? this.you : undefined;
      this.turnSeat = this.you;
    }
    const v = msg.view && (typeof msg.view === "string" ? JSON.parse(msg.view) : msg.view);
    if (v) this.view = v;
    this.undo.show(msg);
    this.renderTable();
    this.chat.render();
    if (!v) {
      this.boardEl.hidden = true;
      return;
    }
    this.boardEl.hidden = false;
    await this.renderer.show({ view: v, legal: this.legal, entries: msg.entries, hash: msg.hash }, animate);
    // Tests and curious players can read the state hash off the page.
    this.root.dataset.hash = msg.hash || "";
    this.root.dataset.over = String(this.over());
    this.root.dataset.log = String(this.logEl.children.length);
    this.renderTurn();
    this.undo.shown(msg);
    this.fitHeight();
    if (this.turnCame || this.placedAt === undefined) {
      this.turnCame = false;
      this.placeBoard();
    }
  }

  // fitHeight keeps the whole board and the action bar in view together
  // on a laptop's screen, the page scrolled to its top: the board's frame
  // is given the height left between where it starts and the bar. On a
  // phone the page scrolls instead (there a finger's targets come first)
  // and placeBoard scrolls it to the board: a frame that would be taller
  // than the screen (a skirmish map) may take, as --room-height, all the
  // room above the bar.
  fitHeight() {
    const wrap = this.boardEl, view = wrap.querySelector(".zoom-view");
    if (!view) return;
    if (innerWidth < 900 || innerHeight < 500) {
      wrap.style.removeProperty("--board-height");
      const tools = wrap.querySelector(".zoom-tools")?.offsetHeight || 0;
      wrap.style.setProperty("--room-height", `${Math.max(240, Math.floor(innerHeight - this.bar.offsetHeight - tools - 16))}px`);
      return;
    }
    wrap.style.removeProperty("--room-height");
    const top = view.getBoundingClientRect().top + scrollY;
    const left = Math.floor(innerHeight - top - this.bar.offsetHeight - 16);
    wrap.style.setProperty("--board-height", `${Math.max(240, left)}px`);
  }

  // placeBoard brings the board and the action bar into view together
  // where the page scrolls (on a phone, whose targets keep a finger's
  // size; a board that fitHeight cannot shrink): when the match is first
  // shown and when the turn comes to the viewer, the page is scrolled just
  // enough that the board ends above the bar, or, for a board taller than
  // the room left, that it starts at the screen's top. Not while the
  // viewer is writing.
  placeBoard() {
    this.placedAt = performance.now();
    this.placedY = undefined;
    this.showBoard();
  }

  // showBoard scrolls the page as placeBoard says, now: the first time, or
  // again while the page is where it was placed.
  showBoard() {
    if (this.placedY !== undefined && Math.abs(scrollY - this.placedY) > 1) {
      this.placedAt = -Infinity; // scrolled since: it stays where it is
      return;
    }
    this.placedY = scrollY;
    if (this.boardEl.hidden) return;
    const active = document.activeElement;
    if (active && (active.tagName === "TEXTAREA" || (active.tagName === "INPUT" && active.type === "text"))) return;
    const frame = this.renderer.frame?.() || this.boardEl.querySelector(".zoomable") || this.boardEl;
    const r = frame.getBoundingClientRect();
    const room = innerHeight - this.bar.offsetHeight;
    let dy = 0;
    if (r.top < 0) dy = r.top;
    else if (r.bottom > room) dy = Math.min(r.bottom - room, r.top);
    if (Math.abs(dy) < 1) return;
    scrollBy({ top: dy, behavior: "instant" });
    this.placedY = scrollY;
    // What the screen's top edge cuts across, above the board (a heading,
    // a line of the header), is scrolled out whole rather than shown
    // halved: the board stays where it was placed or higher, never cut.
    const f = frame.getBoundingClientRect();
    const cut = document.elementFromPoint(f.left + 4, 1)?.getBoundingClientRect();
    if (cut && cut.top < 0 && cut.bottom > 0 && cut.bottom <= f.top) scrollBy({ top: cut.bottom, behavior: "instant" });
    this.placedY = scrollY;
  }

  over() {
    return this.summary.status !== "playing" && this.summary.status !== "lobby";
  }

  name(seat) {
    return this.summary.seats[seat]?.name || `seat ${seat + 1}`;
  }

  // shared says whether this device plays several seats (pass-and-play):
  // then the page names whose turn it is, never "you", since whoever holds
  // the device is one of several.
  shared() {
    return this.held.length > 1;
  }

  // seatMark is what a seat's line in a list of players adds for this
  // device: " — you" for its one seat, " — on this device" for each of
  // its seats when it plays several.
  seatMark(seat) {
    if (this.shared()) return this.held.includes(seat) ? " — on this device" : "";
    return seat === this.you ? " — you" : "";
  }

  // mine is the seat the page marks as the viewer's in a ranking: none on
  // a device several people play.
  mine() {
    return this.shared() ? -1 : this.you;
  }

  // renderTurn says whose turn it is, counts down the viewer's time, and
  // tells the viewer in the page title (and, if they want, with a sound).
  renderTurn() {
    clearInterval(this.tick);
    const mine = this.legal.length > 0 && !this.over();
    // On a device shared by several players, the turn says whose it is,
    // and asks to pass the device when it goes from one of them to
    // another.
    const shared = this.shared() && this.you >= 0;
    const who = this.name(this.you);
    const yours = shared ? `${who}'s turn` : "Your turn";
    const pass = shared && mine && this.passTo === this.you;
    document.title = mine ? `● ${yours} — ${this.baseTitle}` : this.baseTitle;
    if (mine && !this.wasMine && localStorage.getItem("tabula:sound") === "on") beep();
    if (mine && !this.wasMine) this.turnCame = true;
    this.wasMine = mine;
    if (this.summary.status !== "playing" || this.you < 0) {
      this.turnEl.replaceChildren();
      this.turnEl.hidden = true;
      return;
    }
    this.turnEl.hidden = false;
    const sound = localStorage.getItem("tabula:sound") === "on";
    const soundButton = h("button", { type: "button", class: "link", id: "sound", "aria-pressed": sound,
      onclick: () => {
        localStorage.setItem("tabula:sound", sound ? "off" : "on");
        this.renderTurn();
      } }, "sound when it is my turn");
    const clock = h("span", { id: "clock", class: "clock" });
    const draw = () => {
      if (!this.deadline || !mine) {
        clock.textContent = "";
        return;
      }
      const left = Math.max(0, Math.round((this.deadline - Date.now()) / 1000));
      clock.textContent = ` — ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left, then a bot plays for ${shared ? who : "you"}`;
      clock.classList.toggle("urgent", left <= 10);
    };
    const turn = mine ? [h("strong", {}, yours), pass ? h("span", { class: "pass-on", id: "pass-on" }, ` — pass the device to ${who}`) : null]
      : h("span", { class: "hint" }, this.shared() ? "Another player's turn" : "Not your turn");
    this.turnEl.replaceChildren(...[turn].flat().filter(Boolean), clock, " ", soundButton);
    draw();
    if (this.deadline && mine) this.tick = setInterval(draw, 1000);
  }

  renderTable() {
    const s = this.summary;
    const el = this.tableEl;
    el.replaceChildren();
    el.classList.remove("compact");
    if (s.status === "lobby") {
      this.renderLobby(el);
      // Until the match starts, the players are the seats taken.
      this.playersEl.replaceChildren(...s.seats.map((seat, i) => seat.name
        ? h("li", { class: "player", dataset: { seat: i } }, seatDot(i), h("span", { class: "name" }, seat.name, seat.bot ? " (bot)" : "", this.seatMark(i)))
        : null).filter(Boolean));
      if (!this.logEl.children.length) this.logEl.replaceChildren(h("li", { class: "hint not-yet" }, "Nothing yet: the match has not started."));
      return;
    }
    this.logEl.querySelector(".not-yet")?.remove();
    el.classList.add("compact");
    if (s.status === "finished") {
      // The end screen: the ranking, play again, the replay (end.js).
      el.append(endScreen(this, this.standings));
      return;
    }
    const parts = [];
    if (this.you < 0) parts.push(h("span", { class: "badge" }, "watching"), " ");
    if (s.status === "playing") {
      parts.push(h("span", { class: "badge live" }, "playing"), " ");
      if (s.turnLimit) parts.push(h("span", { class: "hint" }, `${fmtLimit(s.turnLimit)} a move`), " ");
    }
    if (s.status === "broken") parts.push(h("span", { class: "badge error" }, "broken"), " ", s.error);
    if (s.status === "abandoned") parts.push(h("span", { class: "badge" }, "abandoned"), " ", s.error || "nobody played it for a long time");
    if (s.status === "playing" && this.secrets.owner) parts.push(this.ownerSeatControls());
    if (s.status === "playing" && this.you >= 0) {
      parts.push(" ", h("button", { type: "button", class: "link", id: "leave", onclick: () => this.leave() },
        this.held.length > 1 ? `${this.name(this.you)} leaves (a bot takes the seat)` : "Leave (a bot takes your seat)"));
    }
    el.append(h("p", {}, ...parts));
  }

  renderLobby(el) {
    const s = this.summary;
    const link = location.origin + "/m/" + this.id + (this.secrets.invite ? "#invite=" + this.secrets.invite : "");
    el.append(h("h2", {}, "The table"));
    if (this.info.description) el.append(h("p", { class: "hint" }, this.info.description));
    el.append(h("p", { class: "share" },
      h("label", { for: "share-link" }, s.public ? "Listed in the lobby: anyone may join. Invitation link: " : "Private: only people with this link may watch or join. "),
      h("input", { class: "link", id: "share-link", readonly: true, value: link, onclick: (e) => e.target.select() }),
      " ", h("button", { type: "button", id: "copy-link", onclick: () => navigator.clipboard?.writeText(link).then(() => this.say("Link copied"), () => this.say("Select the link and copy it")) }, "Copy")));
    if (s.turnLimit) el.append(h("p", { class: "hint" }, `Each move has a time limit of ${fmtLimit(s.turnLimit)}; then a bot plays it.`));
    el.append(h("ol", { class: "seats", id: "seats", "aria-label": "seats" }, s.seats.map((seat, i) =>
      h("li", { class: seat.name ? "taken" : "free" },
        seat.name ? [seatDot(i), h("span", { class: "name" }, seat.name),
          seat.bot ? ` (bot${seat.level ? ", " + seat.level : ""})` : "", this.seatMark(i),
          seat.online ? h("span", { class: "online", title: "online" }, " ● online") : "",
          this.secrets.owner && i !== this.you ? [" ", h("button", { type: "button", class: "link remove", dataset: { seat: i },
            "aria-label": `remove ${seat.name}`, onclick: () => this.seat(i, { remove: true }) }, "remove")] : null]
          : h("span", { class: "hint" }, this.info.roles?.[i] ? `free seat (${this.info.roles[i]})` : "free seat")))));
    const free = s.seats.some((seat) => !seat.name);
    if (this.you < 0 && free) {
      const name = h("input", { id: "nickname", maxlength: 24, required: true, autocomplete: "nickname", value: localStorage.getItem("tabula:nickname") || "" });
      el.append(h("form", { id: "join", onsubmit: async (e) => {
        e.preventDefault();
        try {
          const res = await api("POST", `/api/matches/${this.id}/join`, { name: name.value, invite: this.secrets.invite || "" });
          localStorage.setItem("tabula:nickname", name.value.trim());
          saveSecrets(this.id, { token: res.token });
          this.reconnect();
        } catch (err) {
          this.say(err.message);
        }
      } }, h("label", { for: "nickname" }, "Your nickname"), name, h("button", { type: "submit", id: "join-button", class: "primary" }, "Join")));
    }
    if (this.you >= 0 && free) el.append(this.handover.addPlayerForm());
    if (this.you >= 0) {
      el.append(h("p", {}, h("button", { type: "button", class: "link", id: "leave", onclick: () => this.leave() }, "Leave the table")));
    }
    if (this.secrets.owner) {
      const level = h("select", { id: "bot-level" }, ["", "random", "greedy", "mcts"].map((l) =>
        h("option", { value: l }, { "": "the game's own bot", random: "random", greedy: "greedy", mcts: "strong (searches ahead)" }[l])));
      const taken = s.seats.filter((seat) => seat.name).length;
      el.append(h("div", { class: "owner" },
        free ? h("p", {}, h("label", { class: "inline", for: "bot-level" }, "Bots:"), level, " ",
          h("button", { type: "button", id: "add-bots", onclick: () => this.owner("bots", { level: level.value }) }, "Fill the empty seats with bots")) : null,
        h("p", {}, h("button", { type: "button", id: "start", class: "primary", disabled: taken === 0, onclick: () => this.owner("start") }, "Start the match"),
          free && taken ? h("span", { class: "hint" }, " (empty seats are left out)") : null)));
    } else {
      el.append(h("p", { class: "hint" }, "Waiting for the match's creator to start it."));
    }
  }

  ownerSeatControls() {
    // Other people's seats: not those of this device.
    const seats = this.summary.seats.map((seat, i) => ({ seat, i })).filter(({ seat, i }) => seat.human && i !== this.you && !this.held.includes(i));
    if (!seats.length) return "";
    return h("span", { class: "owner-seats" }, " ", seats.map(({ seat, i }) =>
      [h("button", { type: "button", class: "link", dataset: { seat: i }, onclick: () => this.seat(i, { bot: !seat.bot }) },
        seat.bot ? `give ${seat.name} their seat back` : `let a bot play for ${seat.name}`), " "]));
  }

  reconnect() {
    this.secrets = secrets(this.id);
    this.firstState = true;
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    this.connect();
  }

  async owner(action, extra = {}) {
    try {
      await api("POST", `/api/matches/${this.id}/${action}`, { owner: this.secrets.owner, ...extra });
    } catch (err) {
      this.say(err.message);
    }
  }

  async seat(i, what) {
    try {
      await api("POST", `/api/matches/${this.id}/seats/${i}`, { owner: this.secrets.owner, ...what });
    } catch (err) {
      this.say(err.message);
    }
  }

  async leave() {
    if (!confirm("Leave this match?")) return;
    try {
      await api("POST", `/api/matches/${this.id}/leave`, { token: this.secrets.token, seat: this.you });
      // A device that plays other seats still plays them.
      if (this.held.length < 2) saveSecrets(this.id, { token: "" });
      this.viewSeat = undefined;
      this.reconnect();
    } catch (err) {
      this.say(err.message);
    }
  }

  // carrySecrets gives a rematch the secrets of this match: its seats are
  // played with the same ones.
  carrySecrets(next) {
    const { token, owner, invite, shared } = secrets(this.id);
    saveSecrets(next, { token, owner, invite, shared });
  }

  async rematch(button) {
    button.disabled = true;
    try {
      const res = await api("POST", `/api/matches/${this.id}/rematch`, { token: this.secrets.token || "", owner: this.secrets.owner || "" });
      this.carrySecrets(res.id);
      location.href = res.url;
    } catch (err) {
      button.disabled = false;
      this.say(err.message);
    }
  }

  // addLog appends a log entry: its text in players' words, indented by
  // its depth in a cascade, with the engine's detail for designers (shown
  // only when they ask for details).
  addLog(e, extra = {}) {
    if (!e.text && !e.detail) return null;
    const li = h("li", { class: `entry kind-${e.kind} type-${e.type || ""}` + (e.text ? "" : " detail-only"),
      style: `--depth:${Math.min(extra.depth ?? e.depth, 8)}`, dataset: { seq: e.seq, depth: e.depth, ...(extra.data || {}) } },
      e.seat >= 0 && e.kind === "event" && e.text ? seatDot(e.seat) : null,
      e.text ? h("span", { class: "text" }, e.text) : null,
      e.detail && e.detail !== e.text ? h("span", { class: "detail" }, e.detail) : null);
    this.logEl.append(li);
    this.logEl.scrollTop = this.logEl.scrollHeight;
    return li;
  }

  // commands returns the legal commands whose JSON matches the filter's
  // members.
  commands(filter = {}) {
    return this.legal.filter((c) => Object.entries(filter).every(([k, v]) => c.data[k] === v));
  }
}

// fmtLimit says a time limit in seconds as people say it.
function fmtLimit(s) {
  if (s < 60) return `${s} s`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

// beep plays a short tone: it is your turn.
function beep() {
  try {
    const ctx = new AudioContext();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.value = 0.08;
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.15);
  } catch {
    // No sound where the browser allows none.
  }
}
