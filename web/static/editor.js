// The rule editor at /edit (and /edit?board=ID): open a bundled game, an
// uploaded one or a file; see its board and its rules; change them with
// forms made from the server's catalogs; every change is validated by the
// server and each problem is shown next to the rule or field it concerns.
// Save to a file or to the server's library, and start a match of the
// game in one click.
import { h, api, saveSecrets } from "./util.js";
import { BoardView } from "./board.js";
import { TileBoardView } from "./tiles.js";
import { placeDiagnostics } from "./forms.js";
import { rulesPanel } from "./editor-rules.js";
import { partyDrawing, partyShape, spacesPanel, tilesPanel, gamePanel } from "./editor-board.js";

const VALIDATE_MS = 350;

// A new rule book to start from: a short track, turns, a die, a finish.
const NEW_RULEBOOK = {
  game: "rulebook",
  name: "My game",
  description: "",
  players: { min: 2, max: 4 },
  board: { tiles: [
    { id: "start", name: "Start", kind: "start", x: 0, y: 0, next: ["1"] },
    { id: "1", x: 1, y: 0, next: ["2"] },
    { id: "2", kind: "ladder", x: 2, y: 0, next: ["3"], jump: "4" },
    { id: "3", x: 3, y: 0, next: ["4"] },
    { id: "4", x: 4, y: 0, next: ["finish"] },
    { id: "finish", name: "Finish", kind: "finish", x: 5, y: 0 },
  ] },
  rules: [{ preset: "Turn" }, { preset: "DieMove" }, { preset: "Jump" }, { preset: "FiniteBoardWin" }],
};

const NEW_PARTY = {
  metadata: { name: "My board", description: "" },
  spaces: [
    { id: "1", name: "Start", type: "start", visualDetails: { x: 100, y: 200, size: 64, color: "#ffd6a5" }, connections: [{ targetId: "2" }], events: [] },
    { id: "2", name: "Middle", visualDetails: { x: 250, y: 200, size: 64, color: "#caffbf" }, connections: [{ targetId: "3" }],
      events: [{ trigger: { type: "ON_LAND" }, action: { type: "PROMPT_CURRENT_PLAYER", payload: { message: "{{CURRENT_PLAYER_NAME}}, drink!" } } }] },
    { id: "3", name: "Finish", type: "end", visualDetails: { x: 400, y: 200, size: 64, color: "#ffadad" }, connections: [],
      events: [{ trigger: { type: "ON_LAND" }, action: { type: "SET_PLAYER_STATE", payload: { state: "COMPLETED_GAME" } } }] },
  ],
};

export async function editorPage(root) {
  const ed = new Editor(root);
  await ed.start();
}

class Editor {
  constructor(root) {
    this.root = root;
    this.expanded = new WeakSet(); // the rules shown in full
    this.selected = null; // the tile or space being edited
    this.tab = null;
    this.validation = null;
    this.seq = 0;
  }

  async start() {
    document.title = "Editor — Tabula";
    this.layout();
    try {
      [this.catalog, this.partyCatalog, this.boards] = await Promise.all([
        api("GET", "/api/catalog/rulebook"), api("GET", "/api/catalog/party"), api("GET", "/api/boards")]);
    } catch (err) {
      this.status(err.message, "error");
      return;
    }
    this.fillOpenList();
    const id = new URLSearchParams(location.search).get("board");
    if (id) await this.openLibrary(id);
    else this.open(JSON.stringify(NEW_RULEBOOK), "my-game.json", null);
  }

  layout() {
    this.openSel = h("select", { id: "open-game", "aria-label": "open a game" });
    this.fileIn = h("input", { type: "file", id: "open-file", accept: ".json,application/json", hidden: true, onchange: () => this.openFile() });
    this.statusEl = h("span", { class: "status", id: "status", role: "status" });
    this.seatsIn = h("input", { id: "play-seats", type: "number", min: 1, max: 16, value: 2, "aria-label": "seats" });
    this.modeSel = h("select", { id: "play-mode", "aria-label": "who plays" },
      h("option", { value: "bots" }, "bots in every seat"),
      h("option", { value: "me" }, "me and bots"),
      h("option", { value: "friends" }, "seats for friends"));
    this.toolbar = h("div", { class: "toolbar card" },
      h("span", { class: "group" }, this.openSel,
        h("button", { type: "button", id: "open-button", onclick: () => this.openSel.value && this.openLibrary(this.openSel.value) }, "Open"),
        h("button", { type: "button", onclick: () => this.fileIn.click() }, "Open a file…"), this.fileIn,
        h("button", { type: "button", id: "new-rulebook", onclick: () => this.open(JSON.stringify(NEW_RULEBOOK), "my-game.json", null) }, "New rule book"),
        h("button", { type: "button", id: "new-party", onclick: () => this.open(JSON.stringify(NEW_PARTY), "my-board.json", null) }, "New party board")),
      h("span", { class: "group" },
        h("button", { type: "button", id: "download", onclick: () => this.download() }, "Download"),
        h("button", { type: "button", id: "save", class: "primary", onclick: () => this.save() }, "Save to the library")),
      h("span", { class: "group" }, "Play with", this.seatsIn, "seats,", this.modeSel,
        h("button", { type: "button", id: "play", class: "primary", onclick: () => this.play() }, "▶ Play")),
      this.statusEl);
    this.titleEl = h("span", { class: "tagline", id: "editing" });
    this.boardEl = h("div", { class: "board-wrap editor-board", id: "board" });
    this.tabsEl = h("nav", { class: "tabs", role: "tablist" });
    this.panelEl = h("div", { class: "tab-panel", id: "panel" });
    this.root.replaceChildren(
      h("header", { class: "top" }, h("h1", {}, h("a", { href: "/" }, "Tabula")), h("span", { class: "crumb" }, "Editor"), this.titleEl),
      this.toolbar,
      h("div", { class: "editor" },
        h("div", { class: "main" }, this.boardEl, h("p", { class: "hint" }, "Click a tile or space to edit it; drag it to move it.")),
        h("div", { class: "side" }, this.tabsEl, this.panelEl)));
  }

  fillOpenList() {
    const group = (label, list) => h("optgroup", { label }, list.map((b) =>
      h("option", { value: b.id }, `${b.name}${b.source === "upload" ? " (saved)" : ""}`)));
    this.openSel.replaceChildren(h("option", { value: "" }, "— a game from the library —"),
      group("Rule books", this.boards.filter((b) => b.game === "rulebook")),
      group("Party boards", this.boards.filter((b) => b.game === "party")));
  }

  async openLibrary(id) {
    try {
      const g = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      this.open(g.source, g.file, id);
    } catch (err) {
      this.status(err.message, "error");
    }
  }

  openFile() {
    const f = this.fileIn.files[0];
    if (!f) return;
    f.text().then((text) => this.open(text, f.name, null));
    this.fileIn.value = "";
  }

  // open starts editing a game file's text.
  open(text, file, id) {
    let doc;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      this.status(`${file} is not JSON: ${err.message}`, "error");
      return;
    }
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
      this.status(`${file} is not a game file`, "error");
      return;
    }
    this.doc = doc;
    this.file = file;
    this.savedID = id;
    this.kind = doc.game === "rulebook" ? "rulebook" : "party";
    this.selected = null;
    this.tab = this.kind === "rulebook" ? "rules" : "spaces";
    this.board = null;
    this.validation = null;
    if (this.kind === "rulebook") this.seatsIn.value = doc.players?.min || 2;
    history.replaceState(null, "", id ? `/edit?board=${encodeURIComponent(id)}` : "/edit");
    this.status(`Editing ${file}`);
    this.changed(true);
  }

  // changed is called after every change of the document: the board is
  // redrawn, the panel too when the change added, removed or moved
  // something (never while a field is being typed in), and the game is
  // validated again shortly.
  changed(structural, revalidate = true) {
    this.titleEl.textContent = this.title();
    this.drawBoard();
    if (structural) this.renderPanel();
    if (revalidate) {
      this.root.dataset.checked = "false"; // tests wait for the check of the last change
      this.dirty = true;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.validate(), VALIDATE_MS);
    }
  }

  title() {
    const name = this.kind === "rulebook" ? this.doc.name : partyShape(this.doc).meta().name;
    return `${name || this.file} — ${this.kind === "rulebook" ? "rule book" : "party board"}${this.savedID ? "" : " (not saved)"}`;
  }

  text() {
    return JSON.stringify(this.doc, null, 2) + "\n";
  }

  async validate() {
    const seq = ++this.seq;
    let v;
    try {
      v = await api("POST", `/api/validate?name=${encodeURIComponent(this.file)}`, undefined, this.text());
    } catch (err) {
      this.status(err.message, "error");
      return;
    }
    if (seq !== this.seq) return; // a later change is being checked
    this.validation = v;
    this.dirty = false;
    this.showDiagnostics();
    this.root.dataset.checked = "true";
  }

  showDiagnostics() {
    const v = this.validation;
    if (!v) return;
    const diags = v.diagnostics;
    const errors = diags.filter((d) => d.severity === "error").length;
    const warnings = diags.length - errors;
    this.root.dataset.valid = v.valid;
    this.root.dataset.errors = errors;
    this.status(v.valid ? (warnings ? `Valid, ${warnings} warning(s)` : "Valid") : `${errors} problem(s)`, v.valid ? "ok" : "error");
    const left = placeDiagnostics(this.panelEl, diags);
    const badge = this.tabsEl.querySelector('[data-tab="problems"] .count');
    if (badge) badge.textContent = diags.length ? ` (${diags.length})` : "";
    if (this.tab === "problems") this.renderPanel();
    this.unplaced = left;
  }

  status(text, kind = "") {
    this.statusEl.textContent = text;
    this.statusEl.className = "status " + kind;
  }

  // --- the board ---

  drawBoard() {
    if (this.kind === "rulebook") {
      const tiles = this.doc.board?.tiles || [];
      if (!this.board) {
        this.board = new TileBoardView(tiles, { selected: this.selected, onPick: (id) => this.select(id),
          onMove: () => this.changed(false) });
        this.boardEl.replaceChildren(this.board.el);
      } else if (!this.board.dragging) {
        this.board.setTiles(tiles);
      }
      this.board.select(this.selected);
      return;
    }
    // A party board is redrawn from the file; dragging moves a space.
    const drawing = partyDrawing(this.doc);
    if (!drawing.spaces.length) {
      this.boardEl.replaceChildren(h("p", { class: "hint" }, "No spaces yet."));
      return;
    }
    const view = new BoardView(drawing, []);
    this.boardEl.replaceChildren(view.el);
    this.partyDragging(view);
    for (const g of view.el.querySelectorAll(".space")) g.classList.toggle("selected", g.dataset.space === this.selected);
  }

  partyDragging(view) {
    const el = view.el;
    const sh = partyShape(this.doc);
    let drag = null;
    const point = (e) => new DOMPoint(e.clientX, e.clientY).matrixTransform(el.getScreenCTM().inverse());
    el.addEventListener("pointerdown", (e) => {
      const g = e.target.closest(".space");
      if (!g) return;
      const s = sh.spaces.find((x) => String(x.id) === g.dataset.space);
      const p = point(e);
      drag = { s, g, dx: sh.x(s) - p.x, dy: sh.y(s) - p.y, moved: false, x0: sh.x(s), y0: sh.y(s) };
      el.setPointerCapture(e.pointerId);
    });
    el.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const p = point(e);
      const x = Math.round(p.x + drag.dx), y = Math.round(p.y + drag.dy);
      if (!drag.moved && Math.hypot(x - drag.x0, y - drag.y0) < 4) return;
      drag.moved = true;
      drag.x = x;
      drag.y = y;
      drag.g.setAttribute("transform", `translate(${x - drag.x0},${y - drag.y0})`);
    });
    el.addEventListener("pointerup", () => {
      if (!drag) return;
      const d = drag;
      drag = null;
      if (!d.moved) {
        this.select(String(d.s.id));
        return;
      }
      sh.setXY(d.s, d.x, d.y);
      this.selected = String(d.s.id);
      this.changed(this.tab === "spaces");
    });
  }

  // select opens a tile's or a space's form.
  select(id) {
    this.selected = id;
    this.tab = this.kind === "rulebook" ? "tiles" : "spaces";
    this.changed(true, false);
    this.panelEl.querySelector(".selected-item")?.scrollIntoView({ block: "nearest" });
  }

  // --- the panels ---

  tabs() {
    return this.kind === "rulebook"
      ? [["rules", "Rules"], ["tiles", "Tiles"], ["game", "Game"], ["source", "Source"], ["problems", "Problems"]]
      : [["spaces", "Spaces"], ["game", "Board"], ["source", "Source"], ["problems", "Problems"]];
  }

  renderPanel() {
    this.tabsEl.replaceChildren(...this.tabs().map(([id, label]) =>
      h("button", { type: "button", role: "tab", class: id === this.tab ? "on" : "", dataset: { tab: id }, "aria-selected": id === this.tab,
        onclick: () => { this.tab = id; this.renderPanel(); } }, label, id === "problems" ? h("span", { class: "count" }) : null)));
    let panel;
    switch (this.tab) {
      case "rules": panel = rulesPanel(this); break;
      case "tiles": panel = tilesPanel(this); break;
      case "spaces": panel = spacesPanel(this); break;
      case "game": panel = gamePanel(this); break;
      case "source": panel = this.sourcePanel(); break;
      default: panel = this.problemsPanel();
    }
    this.panelEl.replaceChildren(panel);
    if (this.validation) {
      const n = this.validation.diagnostics.length;
      this.tabsEl.querySelector('[data-tab="problems"] .count').textContent = n ? ` (${n})` : "";
      this.unplaced = placeDiagnostics(this.panelEl, this.validation.diagnostics);
    }
  }

  sourcePanel() {
    const area = h("textarea", { id: "source", class: "source", spellcheck: "false", rows: 30 }, this.text());
    const msg = h("p", { class: "error" });
    return h("div", { class: "panel" },
      h("p", { class: "hint" }, "The file as it will be saved. Edit it here for anything the forms do not offer, then apply."),
      area, msg,
      h("button", { type: "button", id: "apply-source", onclick: () => {
        try {
          const doc = JSON.parse(area.value);
          this.doc = doc;
          this.kind = doc.game === "rulebook" ? "rulebook" : "party";
          this.board = null;
          this.changed(true);
        } catch (err) {
          msg.textContent = "Not JSON: " + err.message;
        }
      } }, "Apply"));
  }

  problemsPanel() {
    const v = this.validation;
    if (!v) return h("p", { class: "hint" }, "Checking…");
    if (!v.diagnostics.length) return h("p", { class: "ok", id: "no-problems" }, "No problems: the game is ready to play.");
    return h("div", { class: "panel" }, h("ul", { class: "diagnostics", id: "problems" }, v.diagnostics.map((d) =>
      h("li", { class: d.severity },
        h("button", { type: "button", class: "link", onclick: () => this.goTo(d.pointer) }, h("code", { class: "pointer" }, d.pointer || "/")),
        ` ${d.line ? `line ${d.line}:${d.col} ` : ""}`, d.severity === "warning" ? "warning: " : "", d.message))));
  }

  // goTo shows the rule, tile or space a pointer is in.
  goTo(ptr) {
    const m = ptr.match(/^\/rules\/(\d+)/);
    if (m && this.kind === "rulebook") {
      this.expanded.add(this.doc.rules[Number(m[1])]);
      this.tab = "rules";
      this.renderPanel();
      this.scrollTo(ptr);
      return;
    }
    const t = ptr.match(/^\/board\/tiles\/(\d+)/);
    if (t && this.kind === "rulebook") return this.select(this.doc.board.tiles[Number(t[1])]?.id);
    const sh = this.kind === "party" ? partyShape(this.doc) : null;
    if (sh && ptr.startsWith(sh.base + "/")) {
      const i = Number(ptr.slice(sh.base.length + 1).split("/")[0]);
      return this.select(String(sh.spaces[i]?.id));
    }
    this.tab = this.kind === "rulebook" && !ptr.startsWith("/rules") ? "game" : this.tab;
    this.renderPanel();
  }

  scrollTo(ptr) {
    const el = [...this.panelEl.querySelectorAll("[data-ptr]")].find((x) => x.dataset.ptr === ptr);
    el?.scrollIntoView({ block: "nearest" });
  }

  // events are the game's events with the predicates each offers: from
  // the last validation (which knows the events the file declares), else
  // the catalog's.
  events() {
    if (this.validation?.events) return this.validation.events;
    return this.catalog.events.map((e) => ({ ...e, predicates: this.catalog.predicatesFor[e.name] || [] }));
  }

  predicatesFor(event) {
    return this.events().find((e) => e.name === event)?.predicates || [];
  }

  // ctx is what the file offers for pickers: tiles, kinds, colours,
  // decks, cards, properties and events.
  ctx() {
    const d = this.doc;
    const tiles = d.board?.tiles || [];
    const uniq = (xs) => [...new Set(xs.filter((x) => x !== undefined && x !== null && x !== ""))];
    const cards = (d.decks || []).flatMap((k) => k.cards || []);
    const props = uniq([...Object.keys(d.players?.start?.props || {}),
      ...(d.rules || []).flatMap((r) => (r.then || []).map((a) => a.prop))]);
    return {
      tiles: tiles.map((t) => t.id), kinds: uniq(tiles.map((t) => t.kind)), colours: uniq([...tiles.map((t) => t.colour), ...cards.map((c) => c.colour)]),
      decks: (d.decks || []).map((k) => k.name), cards: uniq(cards.map((c) => c.name)), props,
      events: this.events().map((e) => e.name), emittable: this.events().filter((e) => e.emittable).map((e) => e.name),
    };
  }

  // --- saving and playing ---

  download() {
    const blob = new Blob([this.text()], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: this.file || "game.json" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // save puts the game in the server's library (if it is valid) and
  // returns its id there.
  async save() {
    try {
      const res = await api("POST", `/api/boards?name=${encodeURIComponent(this.file || "game.json")}`, undefined, this.text());
      this.savedID = res.board.id;
      history.replaceState(null, "", `/edit?board=${encodeURIComponent(this.savedID)}`);
      this.titleEl.textContent = this.title();
      this.status(`Saved as “${res.board.name}” in the library`, "ok");
      this.root.dataset.saved = this.savedID;
      this.boards = await api("GET", "/api/boards");
      this.fillOpenList();
      return this.savedID;
    } catch (err) {
      this.status(`Not saved: ${err.message}`, "error");
      if (err.diagnostics?.length) {
        this.validation = { ...(this.validation || {}), valid: false, diagnostics: err.diagnostics };
        this.showDiagnostics();
      }
      return null;
    }
  }

  // play saves the game and starts a match of it: every seat a bot (to
  // watch), the creator and bots, or seats left for friends.
  async play() {
    const id = await this.save();
    if (!id) return;
    try {
      const m = await api("POST", "/api/matches", { board: id, seats: Number(this.seatsIn.value) });
      saveSecrets(m.id, { owner: m.owner });
      const mode = this.modeSel.value;
      if (mode === "me") {
        const name = prompt("Your nickname", localStorage.getItem("tabula:nickname") || "Me");
        if (!name) return;
        localStorage.setItem("tabula:nickname", name);
        const j = await api("POST", `/api/matches/${m.id}/join`, { name });
        saveSecrets(m.id, { token: j.token });
      }
      if (mode !== "friends") {
        await api("POST", `/api/matches/${m.id}/bots`, { owner: m.owner });
        await api("POST", `/api/matches/${m.id}/start`, { owner: m.owner });
      }
      location.href = m.url;
    } catch (err) {
      this.status(`Cannot start a match: ${err.message}`, "error");
    }
  }
}
