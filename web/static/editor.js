// The game editor at /edit (and /edit?board=ID): open a bundled game, a
// saved one or a file. Party boards and rule books are edited with forms
// made from the server's catalogs, beside their board; any other game (a
// lane game, a skirmish and its combatants) is edited as its JSON source.
// Every change is validated by the server and each problem is shown next
// to the field (or line) it concerns; a valid draft is simulated, and what
// the simulation says is shown under the board (editor-balance.js). Save
// to a file or to the library, and start a match of the game in one click.
import { h, api, saveSecrets, saveGameSecret, packs } from "./util.js";
import { BoardView } from "./board.js";
import { TileBoardView } from "./tiles.js";
import { placeDiagnostics } from "./forms.js";
import { rulesPanel } from "./editor-rules.js";
import { partyDrawing, partyShape, spacesPanel, tilesPanel, gamePanel } from "./editor-board.js";
import { readZip, writeZip, base64Bytes } from "./zip.js";
import { BalanceCard } from "./editor-balance.js";

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
  return ed;
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
    else this.open({ text: JSON.stringify(NEW_RULEBOOK), file: "my-game.json" });
  }

  layout() {
    this.balance = new BalanceCard(this);
    this.openSel = h("select", { id: "open-game" });
    this.fileIn = h("input", { type: "file", id: "open-file", accept: ".json,.zip,application/json,application/zip", class: "visually-hidden", tabindex: "-1",
      "aria-hidden": "true", onchange: () => this.openFile() });
    this.statusEl = h("span", { class: "status", id: "status", role: "status" });
    this.seatsIn = h("input", { id: "play-seats", type: "number", min: 1, max: 16, value: 2, inputmode: "numeric",
      onchange: () => this.validation?.valid && this.balance.validated(true) });
    this.modeSel = h("select", { id: "play-mode" },
      h("option", { value: "bots" }, "bots only (to watch)"),
      h("option", { value: "me" }, "me and bots"),
      h("option", { value: "friends" }, "me and seats for friends"));
    this.toolbar = h("div", { class: "toolbar card", role: "toolbar", "aria-label": "the game" },
      h("span", { class: "group" }, h("label", { for: "open-game", class: "visually-hidden" }, "A game from the library"), this.openSel,
        h("button", { type: "button", id: "open-button", onclick: () => this.openSel.value && this.openLibrary(this.openSel.value) }, "Open"),
        h("button", { type: "button", id: "open-file-button", onclick: () => this.fileIn.click() }, "Open a file…"), this.fileIn,
        h("button", { type: "button", id: "new-rulebook", onclick: () => this.open({ text: JSON.stringify(NEW_RULEBOOK), file: "my-game.json" }) }, "New rule book"),
        h("button", { type: "button", id: "new-party", onclick: () => this.open({ text: JSON.stringify(NEW_PARTY), file: "my-board.json" }) }, "New party board")),
      h("span", { class: "group" },
        h("button", { type: "button", id: "download", onclick: () => this.download() }, "Download"),
        h("button", { type: "button", id: "save", onclick: () => this.save() }, "Save to the library")),
      h("span", { class: "group" }, h("label", { for: "play-seats" }, "Play with"), this.seatsIn, h("label", { for: "play-mode" }, "seats:"), this.modeSel,
        h("button", { type: "button", id: "play", class: "primary", onclick: () => this.play() }, "▶ Play")),
      this.statusEl, this.balance.brief);
    this.titleEl = h("span", { class: "tagline", id: "editing" });
    this.boardEl = h("div", { class: "board-wrap editor-board", id: "board" });
    this.mainHint = h("p", { class: "hint" });
    this.tabsEl = h("div", { class: "tabs", role: "tablist", "aria-label": "what to edit", onkeydown: (e) => this.tabKeys(e) });
    this.panelEl = h("div", { class: "tab-panel", id: "panel", role: "tabpanel", tabindex: "0" });
    this.root.replaceChildren(
      h("header", { class: "top" }, h("p", { class: "brand" }, h("a", { href: "/" }, "Tabula")), h("h1", { class: "crumb" }, "Editor"), this.titleEl),
      h("main", {}, this.toolbar,
        h("div", { class: "editor" },
          h("div", { class: "main" }, this.boardEl, this.mainHint, this.balance.el),
          h("div", { class: "side" }, this.tabsEl, this.panelEl))));
  }

  fillOpenList() {
    const names = Object.fromEntries(packs.map(([id, name]) => [id, name]));
    const order = [...new Set([...packs.map(([id]) => id), ...this.boards.map((b) => b.game)])];
    this.openSel.replaceChildren(h("option", { value: "" }, "— a game from the library —"),
      ...order.map((p) => [p, this.boards.filter((b) => b.game === p)]).filter(([, list]) => list.length).map(([p, list]) =>
        h("optgroup", { label: names[p] || p }, list.map((b) => h("option", { value: b.id }, `${b.name}${b.source === "saved" ? " (saved)" : ""}`)))));
  }

  async openLibrary(id) {
    try {
      const g = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      if (g.archive) {
        const z = await readZip(base64Bytes(g.archive));
        this.open({ files: z.files, main: z.main || g.file, file: g.file, id, pack: g.board.game, name: g.board.name });
      } else {
        this.open({ text: g.source, file: g.file, id, pack: g.board.game, name: g.board.name });
      }
    } catch (err) {
      this.status(`Cannot open ${id}: ${err.message}`, "error");
    }
  }

  async openFile() {
    const f = this.fileIn.files[0];
    this.fileIn.value = "";
    if (!f) return;
    try {
      if (/\.zip$/i.test(f.name)) {
        const z = await readZip(new Uint8Array(await f.arrayBuffer()));
        this.open({ files: z.files, main: z.main || z.files[0]?.name, file: f.name });
      } else {
        this.open({ text: await f.text(), file: f.name });
      }
    } catch (err) {
      this.status(`${f.name}: ${err.message}`, "error");
    }
  }

  // open starts editing a game: a party board or a rule book in the
  // forms, anything else (or a file that is not JSON) as its source.
  // g is {text, file, id?, pack?} or {files, main, file, id?, pack?}.
  open(g) {
    this.libraryID = g.id || null;
    this.file = g.file;
    this.gameName = g.name || "";
    this.selected = null;
    this.board = null;
    this.validation = null;
    this.doc = null;
    this.files = null;
    this.sourceEl = null;
    let doc = null;
    if (g.text !== undefined) {
      try {
        doc = JSON.parse(g.text);
      } catch {
        doc = null;
      }
    }
    const pack = g.pack || (doc && typeof doc === "object" ? (doc.game === "rulebook" ? "rulebook" : doc.game ? doc.game : "party") : "");
    if (doc && typeof doc === "object" && !Array.isArray(doc) && (pack === "party" || pack === "rulebook")) {
      this.kind = pack;
      this.doc = doc;
      this.tab = pack === "rulebook" ? "rules" : "spaces";
      if (pack === "rulebook") this.seatsIn.value = doc.players?.min || 2;
    } else {
      // Edited as text: the file (or the archive's files) as it is.
      this.kind = "source";
      this.pack = pack;
      this.files = g.files ? g.files.map((f) => ({ ...f })) : [{ name: g.file, text: g.text ?? "" }];
      this.main = g.main || this.files[0].name;
      this.current = Math.max(0, this.files.findIndex((f) => f.name === this.main));
      this.tab = "problems";
    }
    this.openedText = this.snapshot();
    history.replaceState(null, "", this.libraryID ? `/edit?board=${encodeURIComponent(this.libraryID)}` : "/edit");
    this.status(`Editing ${this.file}`);
    this.balance.reset();
    this.changed(true);
  }

  // snapshot is the game as it stands, to tell whether it changed.
  snapshot() {
    return this.kind === "source" ? JSON.stringify(this.files) : this.text();
  }

  // unchanged reports whether the game is the library's entry it was
  // opened from, as it was.
  unchanged() {
    return this.libraryID && this.snapshot() === this.openedText;
  }

  // changed is called after every change of the game: the board is
  // redrawn, the panel too when the change added, removed or moved
  // something (never while a field is being typed in), and the game is
  // validated again shortly.
  changed(structural, revalidate = true) {
    this.titleEl.textContent = this.title();
    this.drawMain();
    this.paintBalance();
    if (structural) this.renderPanel();
    if (revalidate) {
      this.root.dataset.checked = "false"; // tests wait for the check of the last change
      this.balance.changed();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.validate(), VALIDATE_MS);
    }
  }

  title() {
    let name = this.file;
    if (this.kind === "rulebook") name = this.doc.name || name;
    if (this.kind === "party") name = partyShape(this.doc).meta().name || name;
    if (this.kind === "source") name = this.validation?.board?.name || this.gameName || name;
    const what = { rulebook: "rule book", party: "party board", source: "source" }[this.kind];
    const state = this.unchanged() ? "" : this.libraryID ? " (changed, not saved)" : " (not saved)";
    return `${name} — ${what}${state}`;
  }

  // text is the game file as it will be saved (a form-edited game, or a
  // game of one file edited as text).
  text() {
    if (this.kind === "source") return (this.files.find((f) => f.name === this.main) || this.files[0]).text;
    return JSON.stringify(this.doc, null, 2) + "\n";
  }

  // body is what validating or saving sends: the file's text, or an
  // archive of several files; name names it.
  body() {
    if (this.kind === "source" && this.files.length > 1) {
      return { raw: writeZip(this.files, this.main), name: this.file.replace(/\.json$/i, "") + (/\.zip$/i.test(this.file) ? "" : ".zip") };
    }
    return { raw: this.kind === "source" ? this.files[0].text : this.text(), name: this.file || "game.json" };
  }

  async validate() {
    const seq = ++this.seq;
    const { raw, name } = this.body();
    let v;
    try {
      v = await api("POST", `/api/validate?name=${encodeURIComponent(name)}`, undefined, raw);
    } catch (err) {
      if (seq !== this.seq) return;
      v = { valid: false, diagnostics: err.diagnostics?.length ? err.diagnostics : [{ severity: "error", message: err.message, file: name }] };
    }
    if (seq !== this.seq) return; // a later change is being checked
    this.validation = v;
    if (v.board) {
      this.seatsIn.min = v.board.minPlayers;
      this.seatsIn.max = v.board.maxPlayers;
      const n = Number(this.seatsIn.value);
      if (!(n >= v.board.minPlayers && n <= v.board.maxPlayers)) this.seatsIn.value = Math.min(v.board.maxPlayers, Math.max(2, v.board.minPlayers));
    }
    this.titleEl.textContent = this.title();
    this.showDiagnostics();
    this.root.dataset.checked = "true";
    this.balance.validated(v.valid);
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
    const badge = this.tabsEl.querySelector('[data-tab="problems"] .count');
    if (badge) badge.textContent = diags.length ? ` (${diags.length})` : "";
    if (this.tab === "problems") this.renderPanel();
    else this.unplaced = placeDiagnostics(this.panelEl, diags);
    this.markSource();
  }

  // paintBalance colours the board by what the last simulation says.
  paintBalance() {
    if (this.kind !== "source") this.balance.paint(this.boardEl);
  }

  status(text, kind = "") {
    this.statusEl.textContent = text;
    this.statusEl.className = "status " + kind;
  }

  // --- the main column: the board, or the source ---

  drawMain() {
    if (this.kind === "source") {
      if (!this.sourceEl) this.drawSource();
      this.mainHint.textContent = "Changes are checked as you type; the problems are listed beside the text.";
      return;
    }
    this.sourceEl = null;
    this.mainHint.textContent = this.kind === "rulebook"
      ? "Click a tile (or Tab to it and press Enter) to edit it; drag it to move it."
      : "Click a space (or Tab to it and press Enter) to edit it; drag it to move it.";
    if (this.kind === "rulebook") {
      const tiles = this.doc.board?.tiles || [];
      if (!this.board) {
        this.board = new TileBoardView(tiles, { designer: true, selected: this.selected, onPick: (id) => this.select(id), onMove: () => this.changed(false) });
        this.boardEl.replaceChildren(this.board.el);
      } else {
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
    const view = new BoardView(drawing, [], { designer: true });
    this.boardEl.replaceChildren(view.el);
    this.partyDragging(view);
    for (const g of view.el.querySelectorAll(".space")) {
      g.classList.toggle("selected", g.dataset.space === this.selected);
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `space ${g.getAttribute("aria-label")}`);
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          this.select(g.dataset.space);
        }
      });
    }
  }

  // drawSource shows the file being edited as text (a choice of file for
  // a game of several files).
  drawSource() {
    const f = this.files[this.current];
    const area = h("textarea", { id: "source", class: "source", spellcheck: "false", wrap: "off", rows: 30, "aria-label": `the text of ${f.name}`,
      oninput: () => {
        f.text = area.value;
        this.changed(false);
      } });
    area.value = f.text;
    const pick = this.files.length > 1 ? h("p", {}, h("label", { for: "source-file" }, "File "),
      h("select", { id: "source-file", onchange: (e) => {
        this.current = Number(e.target.value);
        this.drawSource();
        this.markSource();
      } }, this.files.map((x, i) => h("option", { value: i, selected: i === this.current }, x.name + (x.name === this.main ? " (the game)" : ""))))) : null;
    this.sourceEl = area;
    this.boardEl.replaceChildren(h("div", { class: "source-edit" }, pick, area, h("ul", { class: "diagnostics", id: "source-problems" })));
  }

  // markSource lists beside the source the problems of the file shown.
  markSource() {
    if (this.kind !== "source" || !this.validation) return;
    const ul = this.boardEl.querySelector("#source-problems");
    if (!ul) return;
    const f = this.files[this.current];
    const mine = this.validation.diagnostics.filter((d) => !d.file || this.files.length === 1 || d.file.endsWith(f.name));
    ul.replaceChildren(...mine.map((d) => h("li", { class: d.severity },
      d.line ? h("button", { type: "button", class: "link", onclick: () => this.goToLine(d.line, d.col) }, `line ${d.line}:${d.col}`) : null, " ",
      d.pointer ? h("code", { class: "pointer" }, d.pointer) : null, " ", d.severity === "warning" ? "warning: " : "", d.message)));
  }

  goToLine(line, col = 1) {
    const area = this.sourceEl;
    if (!area) return;
    const lines = area.value.split("\n");
    let pos = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
    pos += Math.max(0, col - 1);
    area.focus();
    area.setSelectionRange(pos, pos);
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
    this.panelEl.querySelector(".selected-item input")?.focus({ preventScroll: true });
  }

  // --- the panels ---

  tabs() {
    if (this.kind === "source") return [["problems", "Problems"]];
    return this.kind === "rulebook"
      ? [["rules", "Rules"], ["tiles", "Tiles"], ["game", "Game"], ["source", "Source"], ["problems", "Problems"]]
      : [["spaces", "Spaces"], ["game", "Board"], ["source", "Source"], ["problems", "Problems"]];
  }

  renderPanel() {
    this.tabsEl.replaceChildren(...this.tabs().map(([id, label]) => {
      const on = id === this.tab;
      return h("button", { type: "button", role: "tab", id: `tab-${id}`, class: on ? "on" : "", dataset: { tab: id },
        "aria-selected": on, "aria-controls": "panel", tabindex: on ? "0" : "-1",
        onclick: () => this.showTab(id) }, label, id === "problems" ? h("span", { class: "count" }) : null);
    }));
    this.panelEl.setAttribute("aria-labelledby", `tab-${this.tab}`);
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

  showTab(id, focus = false) {
    this.tab = id;
    this.renderPanel();
    if (focus) this.tabsEl.querySelector(`[data-tab="${id}"]`)?.focus();
  }

  // tabKeys moves between tabs with the arrow keys, Home and End.
  tabKeys(e) {
    const ids = this.tabs().map(([id]) => id);
    const i = ids.indexOf(this.tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: ids.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.showTab(ids[(to + ids.length) % ids.length], true);
  }

  sourcePanel() {
    const area = h("textarea", { id: "source", class: "source", spellcheck: "false", rows: 30, "aria-label": "the file's text" }, this.text());
    const msg = h("p", { class: "error", role: "alert" });
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
    const info = v.board ? h("p", { class: "hint" }, `${v.board.name}: ${v.board.minPlayers === v.board.maxPlayers ? v.board.minPlayers : `${v.board.minPlayers}–${v.board.maxPlayers}`} players${v.board.size ? ", " + v.board.size : ""}.`) : null;
    if (!v.diagnostics.length) return h("div", { class: "panel" }, h("p", { class: "ok", id: "no-problems" }, "No problems: the game is ready to play."), info);
    return h("div", { class: "panel" }, info, h("ul", { class: "diagnostics", id: "problems" }, v.diagnostics.map((d) =>
      h("li", { class: d.severity },
        h("button", { type: "button", class: "link", onclick: () => this.goTo(d) }, h("code", { class: "pointer" }, d.pointer || d.file || "/")),
        ` ${d.line ? `line ${d.line}:${d.col} ` : ""}`, d.severity === "warning" ? "warning: " : "", d.message))));
  }

  // goTo shows the rule, tile, space or line a diagnostic is about.
  goTo(d) {
    const ptr = d.pointer || "";
    if (this.kind === "source") {
      const i = this.files.findIndex((f) => d.file && d.file.endsWith(f.name));
      if (i >= 0 && i !== this.current) {
        this.current = i;
        this.drawSource();
        this.markSource();
      }
      if (d.line) this.goToLine(d.line, d.col);
      return;
    }
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
  // the last validation's outline (which knows the events the file
  // declares), else the catalog's.
  events() {
    if (this.validation?.outline?.events) return this.validation.outline.events;
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
    const { raw, name } = this.body();
    const blob = raw instanceof Blob ? raw : new Blob([raw], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // save puts the game in the server's library (if it is valid) and
  // returns its id there. A game opened from the library and not changed
  // is there already: nothing is saved again.
  async save() {
    if (this.unchanged()) {
      this.status("Unchanged: the game is in the library already", "ok");
      this.root.dataset.saved = this.libraryID;
      return this.libraryID;
    }
    const { raw, name } = this.body();
    try {
      const res = await api("POST", `/api/boards?name=${encodeURIComponent(name)}`, undefined, raw);
      if (res.secret) saveGameSecret(res.board.id, res.secret);
      this.libraryID = res.board.id;
      this.openedText = this.snapshot();
      history.replaceState(null, "", `/edit?board=${encodeURIComponent(this.libraryID)}`);
      this.titleEl.textContent = this.title();
      this.status(res.secret ? `Saved as “${res.board.name}” in the library` : `The library has this game already: “${res.board.name}”`, "ok");
      this.root.dataset.saved = this.libraryID;
      this.boards = await api("GET", "/api/boards");
      this.fillOpenList();
      return this.libraryID;
    } catch (err) {
      this.status(`Not saved: ${err.message}`, "error");
      if (err.diagnostics?.length) {
        this.validation = { ...(this.validation || {}), valid: false, diagnostics: err.diagnostics };
        this.showDiagnostics();
      }
      return null;
    }
  }

  // draft sends a changed game to the server to be played without being
  // published ({draft}), or names the library's game when it did not
  // change ({board}); null if the game is not valid.
  async draft() {
    if (this.unchanged()) return { board: this.libraryID };
    const { raw, name } = this.body();
    try {
      const res = await api("POST", `/api/drafts?name=${encodeURIComponent(name)}`, undefined, raw);
      return { draft: res.draft };
    } catch (err) {
      this.status(`Cannot play it: ${err.message}`, "error");
      if (err.diagnostics?.length) {
        this.validation = { ...(this.validation || {}), valid: false, diagnostics: err.diagnostics };
        this.showDiagnostics();
      }
      return null;
    }
  }

  // play starts a match of the game: every seat a bot (to watch), the
  // editor's user and bots, or the editor's user and seats left for
  // friends. A changed game is played as a draft: it is not put in the
  // library (Save does that); nothing is created if the user cancels.
  async play() {
    const mode = this.modeSel.value;
    let name = "";
    if (mode !== "bots") {
      name = (prompt("Your nickname", localStorage.getItem("tabula:nickname") || "Me") || "").trim();
      if (!name) {
        this.status("Not started: a nickname is needed to play", "");
        return;
      }
      localStorage.setItem("tabula:nickname", name);
    }
    // A game from the library is played from there; an edited one as a
    // draft, which no one else's library lists.
    const game = await this.draft();
    if (!game) return;
    try {
      const m = await api("POST", "/api/matches", { ...game, seats: Number(this.seatsIn.value), name });
      saveSecrets(m.id, { owner: m.owner, invite: m.invite, token: m.token });
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
