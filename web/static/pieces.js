// A game of pieces (Trouble, multi-piece boards) on the match page: the
// board drawn from the file, every player's pieces in their colour with
// their number, the die, and the viewer's choice of a piece and where it
// goes, by clicking (or tapping) the piece and its target, by keyboard, or
// with the move buttons. Moves and captures are animated from the log.
import { h, svg, colour, showDice } from "./util.js";
import { GenericPlay } from "./generic.js";
import { fitWidth } from "./board.js";
import { Zoom, unitsPerPixel, FINGER } from "./zoom.js";

const MOVE_MS = 320;
const PAD = 24;

export class PiecesPlay extends GenericPlay {
  constructor(page) {
    super(page);
    if (!document.querySelector('link[href="/pieces.css"]')) {
      document.head.append(h("link", { rel: "stylesheet", href: "/pieces.css" }));
    }
    this.pos = new Map(); // "seat:piece" → the space it is drawn on
    this.selected = null; // the viewer's piece picked, "seat:piece"
    // A piece's number on the keyboard picks it; Escape drops the pick.
    document.addEventListener("keydown", (e) => {
      if (!this.moves?.length || e.target.closest?.("input, textarea, select")) return;
      if (/^[1-9]$/.test(e.key)) this.clickPiece(`${this.page.you}:${e.key}`);
      if (e.key === "Escape" && this.selected) {
        this.selected = null;
        this.showChoices();
      }
    });
  }

  async show(state, animate) {
    const page = this.page;
    const v = state.view;
    this.view = v;
    if (!this.board && page.drawing?.spaces) this.build(page.drawing, v);
    this.clearChoices();
    page.controls.querySelector(".choices")?.remove();
    for (const e of state.entries) {
      // The log's dots take the players' colours on the board.
      const dot = page.addLog(e)?.querySelector(".dot");
      if (dot && v.players[e.seat]?.colour) dot.style.background = v.players[e.seat].colour;
      if (animate && this.board) await this.animate(e);
    }
    if (this.board) this.place(v);
    this.renderPlayers(v);
    this.renderControls(v, state.legal);
  }

  // build draws the board: arrows, spaces, then a layer for the pieces.
  build(drawing, v) {
    this.spaces = new Map(drawing.spaces.map((s) => [s.id, s]));
    const placed = drawing.spaces.some((s) => s.x || s.y);
    drawing.spaces.forEach((s, i) => {
      if (!placed) {
        const a = (2 * Math.PI * i) / drawing.spaces.length - Math.PI / 2;
        s.x = 400 + 320 * Math.cos(a);
        s.y = 400 + 320 * Math.sin(a);
      }
      s.r = (s.size || 44) / 2;
    });
    const pts = drawing.spaces;
    const minX = Math.min(...pts.map((s) => s.x - s.r)) - PAD, minY = Math.min(...pts.map((s) => s.y - s.r)) - PAD;
    const maxX = Math.max(...pts.map((s) => s.x + s.r)) + PAD, maxY = Math.max(...pts.map((s) => s.y + s.r)) + PAD;
    const render = drawing.render || {};
    // Pieces are nearly as big as a space, so that a finger can tap them.
    const radii = pts.map((s) => s.r).sort((a, b) => a - b);
    this.pieceR = Math.max(10, radii[Math.floor(radii.length / 2)] * 0.85);
    const root = svg("svg", { class: "board pieces-board", viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`,
      role: "group", "aria-label": "the board", preserveAspectRatio: "xMidYMid meet" });
    fitWidth(root, maxX - minX, maxY - minY);
    root.append(svg("defs", {}, svg("marker", { id: "pieces-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 8, markerHeight: 8,
      markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" }, svg("path", { d: "M0,0 L10,5 L0,10 z", fill: render.connectionColor || "#8d99ae" }))));
    root.append(svg("rect", { x: minX, y: minY, width: maxX - minX, height: maxY - minY, fill: render.backgroundColor || "#fbf7ee" }));
    const edges = svg("g", { class: "edges" });
    for (const s of pts) {
      for (const c of s.connections) {
        const t = this.spaces.get(c.target);
        if (!t || !c.draw) continue;
        const dx = t.x - s.x, dy = t.y - s.y, len = Math.hypot(dx, dy) || 1;
        edges.append(svg("line", { x1: s.x + (dx / len) * s.r, y1: s.y + (dy / len) * s.r, x2: t.x - (dx / len) * (t.r + 2), y2: t.y - (dy / len) * (t.r + 2),
          stroke: render.connectionColor || "#8d99ae", "stroke-width": Number(render.connectionThickness) || 2, "marker-end": "url(#pieces-arrow)" }));
      }
    }
    root.append(edges);
    const spacesG = svg("g", { class: "spaces" });
    this.spaceEls = new Map();
    for (const s of pts) {
      // A space's name shows on hover: drawn beside every space, names
      // were type too small to read.
      const g = svg("g", { class: `pspace role-${s.role || "way"}` + (s.safe ? " safe" : ""), "data-space": s.id },
        svg("circle", { class: "hit", cx: s.x, cy: s.y, r: s.r }), svg("title", {}, spaceTitle(s)), shape(s));
      if (s.triggers.length) g.append(svg("circle", { cx: s.x + s.r * 0.72, cy: s.y - s.r * 0.72, r: 5, class: "has-triggers" }));
      g.addEventListener("click", () => this.clickSpace(s.id));
      g.addEventListener("keydown", (e) => activate(e, () => this.clickSpace(s.id)));
      spacesG.append(g);
      this.spaceEls.set(s.id, g);
    }
    root.append(spacesG);
    this.layer = svg("g", { class: "pieces-layer" });
    root.append(this.layer);
    this.pieceEls = new Map();
    for (const p of v.players) {
      for (const pc of p.pieces) {
        const key = `${p.seat}:${pc.piece}`;
        const fill = p.colour || colour(p.seat);
        const el = svg("g", { class: "piece", "data-seat": p.seat, "data-piece": pc.piece, "aria-label": `${p.name}'s piece ${pc.piece}` },
          svg("title", {}, `${p.name}'s piece ${pc.piece}`),
          svg("circle", { r: this.pieceR + 4, class: "hit" }),
          svg("circle", { r: this.pieceR, fill, class: "body" }),
          svg("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": this.pieceR * 1.15, fill: textOn(fill) }, String(pc.piece)));
        el.addEventListener("click", (e) => { e.stopPropagation(); this.clickPiece(key); });
        el.addEventListener("keydown", (e) => activate(e, () => this.clickPiece(key)));
        this.layer.append(el);
        this.pieceEls.set(key, el);
      }
    }
    this.board = root;
    this.page.boardEl.replaceChildren(new Zoom(root).el);
    // What may be tapped stays a finger wide however small the board is
    // drawn (a phone) or zoomed.
    new ResizeObserver(() => this.growTargets()).observe(root);
    this.place(v);
  }

  // growTargets makes the targets of the pieces that may move, and of
  // the spaces they may go to, at least a finger wide on the screen; the
  // others are as big as they look.
  growTargets() {
    if (!this.board) return;
    const min = (FINGER / 2) * unitsPerPixel(this.board);
    for (const el of this.pieceEls.values()) {
      const r = el.classList.contains("movable") ? Math.max(this.pieceR + 4, min) : this.pieceR + 4;
      el.querySelector(".hit").setAttribute("r", r.toFixed(1));
    }
    for (const g of this.spaceEls.values()) {
      const s = this.spaces.get(g.dataset.space);
      g.querySelector(".hit").setAttribute("r", (g.classList.contains("target") ? Math.max(s.r, min) : s.r).toFixed(1));
    }
  }

  // place draws every piece where the view has it.
  place(v) {
    for (const p of v.players) for (const pc of p.pieces) this.pos.set(`${p.seat}:${pc.piece}`, pc.space);
    this.layout();
    for (const el of this.pieceEls.values()) el.classList.toggle("current", !v.over && Number(el.dataset.seat) === v.turn);
  }

  // layout puts each piece on its space; pieces sharing a space stand
  // side by side.
  layout() {
    const by = new Map();
    for (const [key, id] of this.pos) {
      if (!by.has(id)) by.set(id, []);
      by.get(id).push(key);
    }
    for (const [id, keys] of by) {
      const s = this.spaces.get(id);
      if (!s) continue;
      keys.sort();
      keys.forEach((key, i) => {
        let x = s.x, y = s.y;
        if (keys.length > 1) {
          const a = (2 * Math.PI * i) / keys.length - Math.PI / 2;
          const off = Math.min(s.r, this.pieceR) * 0.75;
          x += off * Math.cos(a);
          y += off * Math.sin(a);
        }
        const el = this.pieceEls.get(key);
        el.style.transform = `translate(${x}px, ${y}px)`;
        el.dataset.space = id;
      });
    }
  }

  async animate(e) {
    const d = e.data || {};
    switch (e.type) {
      case "ROLLED":
        showDice(this.page.controls, this.view.roller === e.seat && this.view.dice.length > 1 ? this.view.dice : [e.amount], true);
        await sleep(MOVE_MS * 1.4);
        break;
      case "ENTERED":
      case "MOVED":
      case "DISPLACE_PLAYER":
      case "SET_PLAYER_SPACE":
        this.pos.set(`${d.seat}:${d.piece}`, d.to);
        this.layout();
        this.flash(d.to, "landed");
        await sleep(MOVE_MS);
        break;
      case "CAPTURED": {
        const key = `${d.seat}:${d.piece}`;
        const el = this.pieceEls.get(key);
        el?.classList.add("captured");
        await sleep(MOVE_MS * 1.3);
        el?.classList.remove("captured");
        this.pos.set(key, d.to);
        this.layout();
        await sleep(MOVE_MS);
        break;
      }
      default:
        if (e.kind === "fired") {
          this.flash(e.at, "fired");
          await sleep(MOVE_MS / 2);
        }
    }
  }

  flash(id, cls) {
    const g = this.spaceEls?.get(id);
    if (!g) return;
    g.classList.remove(cls);
    void g.getBBox();
    g.classList.add(cls);
  }

  renderPlayers(v) {
    const page = this.page;
    page.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = page.summary.seats[p.seat] || {};
      return h("li", { class: "player" + (p.seat === v.turn && !v.over ? " current" : ""), dataset: { seat: p.seat } },
        h("span", { class: "dot", style: `background:${p.colour || colour(p.seat)}` }),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", page.seatMark(p.seat)),
        p.place ? h("span", { class: "state place" }, ordinal(p.place)) : null,
        h("span", { class: "where" }, `${p.atStart} at the start, ${p.out} on the way, ${p.home} home`));
    }));
    if (v.over) {
      const names = v.winners.map((i) => v.players[i].name).join(", ");
      page.playersEl.append(h("li", { class: "over", id: "game-over" }, names ? `Game over: ${names} won.` : `Game over: ${v.reason}.`));
    }
  }

  // renderControls offers the roll, or the moves: the movable pieces and
  // their targets light up on the board, and each move is also a button.
  renderControls(v, legal = []) {
    const page = this.page;
    const controls = page.controls;
    const dice = controls.querySelector(".dice");
    controls.replaceChildren();
    if (dice) controls.append(dice);
    else if (v.dice.length) showDice(controls, v.dice, false);
    if (v.over) return;
    const roll = legal.find((c) => c.data.roll);
    if (roll) {
      const b = h("button", { type: "button", id: "roll", class: "primary big", onclick: () => {
        b.disabled = true;
        page.send(roll.data);
      } }, roll.text);
      controls.append(b);
      // Space or Enter rolls, unless the viewer is busy elsewhere.
      if (!document.activeElement || document.activeElement === document.body) b.focus({ preventScroll: true });
      return;
    }
    this.moves = v.moves || [];
    if (this.moves.length) {
      controls.append(h("p", { class: "ask" }, `You rolled ${v.roll}: choose a piece (tap it, then where it goes)`),
        h("div", { class: "choices move-list", role: "group", "aria-label": "your moves" }, this.moves.map((m) =>
          h("button", { type: "button", class: "option move", dataset: { piece: m.piece, to: m.to },
            onclick: () => this.play(m) }, m.text))));
      this.showChoices();
      return;
    }
    const who = v.players[v.turn]?.name || "";
    controls.append(h("p", { class: "hint", id: "waiting" }, v.phase === "move" ? `Waiting for ${who} to choose a piece` : `Waiting for ${who} to roll`));
  }

  // showChoices lights up the pieces the viewer may move and, once one is
  // picked, where it may go.
  showChoices() {
    this.clearChoices();
    const you = this.page.you;
    for (const m of this.moves) {
      const key = `${you}:${m.piece}`;
      const el = this.pieceEls?.get(key);
      if (!el) continue;
      el.classList.add("movable");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      if (this.selected === key || this.selected === null) {
        for (const id of [m.to]) {
          const g = this.spaceEls.get(id);
          g.classList.add("target");
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", m.text);
        }
      }
      el.classList.toggle("selected", this.selected === key);
    }
    this.growTargets();
  }

  clearChoices() {
    for (const el of this.pieceEls?.values() || []) {
      el.classList.remove("movable", "selected");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
    }
    for (const g of this.spaceEls?.values() || []) {
      g.classList.remove("target");
      g.removeAttribute("tabindex");
      g.removeAttribute("role");
      g.removeAttribute("aria-label");
    }
    this.growTargets();
  }

  clickPiece(key) {
    const [seat, piece] = key.split(":").map(Number);
    const moves = (this.moves || []).filter((m) => seat === this.page.you && m.piece === piece);
    if (!moves.length) return;
    if (moves.length === 1) {
      this.play(moves[0]);
      return;
    }
    this.selected = key;
    this.showChoices();
  }

  clickSpace(id) {
    let moves = (this.moves || []).filter((m) => m.to === id);
    if (this.selected) moves = moves.filter((m) => `${this.page.you}:${m.piece}` === this.selected);
    if (moves.length === 1) this.play(moves[0]);
  }

  play(m) {
    for (const b of this.page.controls.querySelectorAll("button")) b.disabled = true;
    this.selected = null;
    this.moves = [];
    this.clearChoices();
    this.page.send(m.data);
  }

  rejected() {
    for (const b of this.page.controls.querySelectorAll("button")) b.disabled = false;
  }
}

// shape draws a space: a circle, square, diamond or star.
function shape(s) {
  const fill = s.color || "#eef1f4";
  const attrs = { fill, class: "face", stroke: "#33415c", "stroke-width": 2 };
  const r = s.r;
  switch (s.shape) {
    case "square":
      return svg("rect", { ...attrs, x: s.x - r, y: s.y - r, width: 2 * r, height: 2 * r, rx: 4 });
    case "diamond":
      return svg("polygon", { ...attrs, points: `${s.x},${s.y - r} ${s.x + r},${s.y} ${s.x},${s.y + r} ${s.x - r},${s.y}` });
    case "star": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = (Math.PI * i) / 5 - Math.PI / 2, rr = i % 2 ? r * 0.5 : r;
        pts.push(`${s.x + rr * Math.cos(a)},${s.y + rr * Math.sin(a)}`);
      }
      return svg("polygon", { ...attrs, points: pts.join(" ") });
    }
  }
  return svg("circle", { ...attrs, cx: s.x, cy: s.y, r });
}

// spaceTitle is what hovering a space tells: its name, and whether it is
// safe (its id and its triggers are the game file's business).
function spaceTitle(s) {
  return `${s.name}${s.safe ? " — safe: no piece is sent back from here" : ""}`;
}

// textOn is black or white, whichever reads better on a colour.
function textOn(fill) {
  const m = /^#?([0-9a-f]{6})$/i.exec(fill || "");
  if (!m) return "#fff";
  const n = parseInt(m[1], 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 160 ? "#111" : "#fff";
}

function activate(e, f) {
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    f();
  }
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return n + s;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
