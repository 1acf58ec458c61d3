// A rule book's board: its tiles at their coordinates (grid units), the
// arrows a walk follows, chutes and ladders as curved arrows, who owns
// which tile and the players' tokens. The editor uses it too, with tiles
// that can be dragged.
import { svg, colour, wrap, token } from "./util.js";
import { fitWidth } from "./board.js";

const UNIT = 64; // pixels per unit of the file's coordinates
const PAD = 0.7; // units of margin around the board

export class TileBoardView {
  // tiles: [{id, name, kind, x, y, next, jump, price, colour}];
  // opts.onPick(id) is called when a tile is clicked, opts.onMove(id, x, y)
  // when one is dragged (the editor).
  constructor(tiles, opts = {}) {
    this.opts = opts;
    this.tokens = new Map();
    this.pos = new Map();
    this.owners = {};
    this.el = svg("svg", { class: "board tiles", role: opts.onPick ? "group" : "img", "aria-label": "the board", preserveAspectRatio: "xMidYMid meet" });
    this.setTiles(tiles);
    if (opts.onMove) this.enableDragging();
  }

  // setTiles (re)draws the board; tokens and owners stay.
  setTiles(tiles, keepView = false) {
    this.tiles = tiles;
    this.byID = new Map(tiles.map((t, i) => [t.id, { t, i, x: Number(t.x) || 0, y: Number(t.y) || 0 }]));
    this.size = tileSize([...this.byID.values()]);
    if (!keepView) this.fit();
    this.draw();
  }

  fit() {
    const pts = [...this.byID.values()];
    if (!pts.length) {
      this.view = [0, 0, 4 * UNIT, 3 * UNIT];
    } else {
      const h = this.size / 2;
      const minX = Math.min(...pts.map((p) => p.x)) - h - PAD, maxX = Math.max(...pts.map((p) => p.x)) + h + PAD;
      const minY = Math.min(...pts.map((p) => p.y)) - h - PAD, maxY = Math.max(...pts.map((p) => p.y)) + h + PAD;
      this.view = [minX * UNIT, minY * UNIT, (maxX - minX) * UNIT, (maxY - minY) * UNIT];
    }
    this.el.setAttribute("viewBox", this.view.join(" "));
    fitWidth(this.el, this.view[2], this.view[3]);
  }

  draw() {
    const s = this.size * UNIT;
    const defs = svg("defs", {},
      svg("marker", { id: "tile-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#777" })),
      svg("marker", { id: "ladder-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#2b8a3e" })),
      svg("marker", { id: "chute-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c92a2a" })));
    const arrows = svg("g", { class: "arrows" });
    const jumps = svg("g", { class: "jumps" });
    for (const p of this.byID.values()) {
      for (const n of p.t.next || []) {
        const q = this.byID.get(n);
        if (q) arrows.append(this.arrow(p, q));
      }
      const j = p.t.jump && this.byID.get(p.t.jump);
      if (j) jumps.append(this.jump(p, j));
    }
    const tilesG = svg("g", { class: "tile-layer" });
    for (const p of this.byID.values()) {
      const t = p.t;
      const fill = tileFill(t.colour);
      const g = svg("g", { class: "tile" + (this.opts.selected === t.id ? " selected" : ""), "data-tile": t.id, transform: `translate(${p.x * UNIT},${p.y * UNIT})` },
        svg("title", {}, this.opts.designer ? tileDetails(t) : tileTitle(t, this.byID)),
        // The faces let the chutes and ladders beneath them show through.
        svg("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: s * 0.12, fill: "#fff", "fill-opacity": 0.78, stroke: "#444", "stroke-width": 1.5, class: "face" }),
        fill ? svg("rect", { x: -s / 2, y: -s / 2, width: s, height: s * 0.28, rx: s * 0.12, fill, class: "band" }) : null);
      const label = t.name || t.id;
      // The longest line fits the tile's width, at 6 units at least:
      // browsers draw no smaller text than that.
      const lines = wrap(label, Math.max(4, Math.min(Math.round(this.size * 9), Math.floor((s * 0.92) / (6 * 0.6)))));
      const longest = Math.max(...lines.map((l) => l.length));
      // … and the lines fit its height, above the price if there is one.
      const fs = Math.max(6, Math.min(13, s / 5, (s * 0.92) / (longest * 0.6), (s * (t.price ? 0.6 : 0.7)) / (lines.length * 1.1)));
      lines.forEach((line, i) => g.append(svg("text", { y: (i - (lines.length - 1) / 2) * fs * 1.1 + s * (t.price ? 0.04 : 0.1), "font-size": fs, "text-anchor": "middle", "dominant-baseline": "middle" }, line)));
      if (t.price) g.append(svg("text", { y: s / 2 - s * 0.1, "font-size": Math.min(fs, s / 6) * 0.9, "text-anchor": "middle", class: "price" }, `${t.price}`));
      const owner = this.owners[t.id];
      if (owner !== undefined) {
        g.classList.add("owned");
        g.append(svg("rect", { x: -s / 2 + 2, y: -s / 2 + 2, width: s - 4, height: s - 4, rx: s * 0.1, fill: "none", stroke: colour(owner), "stroke-width": 4, class: "owner" }));
      }
      if (this.opts.onPick) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", `tile ${t.name || t.id}`);
        g.addEventListener("click", () => { if (!this.dragged) this.opts.onPick(t.id); });
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            this.opts.onPick(t.id);
          }
        });
      }
      tilesG.append(g);
    }
    this.tileLayer = tilesG;
    this.tokenLayer = svg("g", { class: "tokens" });
    this.el.replaceChildren(defs, svg("rect", { x: this.view[0], y: this.view[1], width: this.view[2], height: this.view[3], fill: "#fffdf7", class: "bg" }),
      arrows, jumps, tilesG, this.tokenLayer);
    for (const t of this.tokens.values()) this.tokenLayer.append(t);
    this.arrange();
  }

  arrow(p, q) {
    const [sx, sy, ex, ey] = this.ends(p, q, 0.5);
    return svg("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke: "#999", "stroke-width": 1.5, "marker-end": "url(#tile-arrow)" });
  }

  // ends gives the ends of a segment from tile p to tile q, shortened to
  // the tiles' edges.
  ends(p, q, shrink) {
    const x1 = p.x * UNIT, y1 = p.y * UNIT, x2 = q.x * UNIT, y2 = q.y * UNIT;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const r = (this.size * UNIT * shrink) / Math.max(Math.abs(ux), Math.abs(uy), 0.7);
    return [x1 + ux * r, y1 + uy * r, x2 - ux * (r + 2), y2 - uy * (r + 2)];
  }

  // jump draws a chute (back down the board) or a ladder (up it).
  jump(p, q) {
    const up = q.i > p.i;
    const x1 = p.x * UNIT, y1 = p.y * UNIT, x2 = q.x * UNIT, y2 = q.y * UNIT;
    const mx = (x1 + x2) / 2 + (y2 - y1) * 0.18, my = (y1 + y2) / 2 - (x2 - x1) * 0.18;
    // It starts and ends at the tiles' edges, where its head shows.
    const edge = (x, y, tx, ty) => {
      const l = Math.hypot(tx - x, ty - y) || 1;
      const ux = (tx - x) / l, uy = (ty - y) / l;
      const r = (this.size * UNIT * 0.5) / Math.max(Math.abs(ux), Math.abs(uy), 0.7);
      return [x + ux * r, y + uy * r];
    };
    const [sx, sy] = edge(x1, y1, mx, my);
    const [ex, ey] = edge(x2, y2, mx, my);
    const stroke = up ? "#2b8a3e" : "#c92a2a";
    return svg("path", { d: `M${sx},${sy} Q${mx},${my} ${ex},${ey}`, fill: "none", stroke, "stroke-width": 4, "stroke-opacity": 0.75,
      "stroke-dasharray": up ? "none" : "10 5", "marker-end": `url(#${up ? "ladder" : "chute"}-arrow)`, class: up ? "ladder" : "chute" });
  }

  // setPlayers puts (or walks) every token on its tile.
  setPlayers(players) {
    let moved = false;
    for (const p of players) {
      if (!this.tokens.has(p.seat)) {
        const t = token(p, this.tokenR());
        this.tokens.set(p.seat, t);
        this.tokenLayer.append(t);
        moved = true;
      }
      this.tokens.get(p.seat).classList.toggle("out", p.active === false);
      if (this.pos.get(p.seat) !== p.tile) {
        this.pos.set(p.seat, p.tile);
        moved = true;
      }
    }
    if (moved) this.arrange();
  }

  tokenR() {
    return Math.min(11, this.size * UNIT * 0.17);
  }

  place(seat, tileID) {
    if (!this.byID.has(tileID) || !this.tokens.has(seat)) return;
    this.pos.set(seat, tileID);
    this.arrange();
  }

  // arrange puts the tokens on their tiles' top edges, side by side (a
  // second row on the bottom edge when many share a tile), where they
  // leave the tile's name readable.
  arrange() {
    const at = new Map();
    for (const [seat, id] of this.pos) {
      if (!at.has(id)) at.set(id, []);
      at.get(id).push(seat);
    }
    const s = this.size * UNIT;
    const r = this.tokenR();
    const perRow = Math.max(1, Math.floor(s / (2 * r)));
    for (const [id, seats] of at) {
      const p = this.byID.get(id);
      if (!p) continue;
      seats.sort((a, b) => a - b);
      seats.forEach((seat, k) => {
        const row = Math.floor(k / perRow) % 2;
        const inRow = Math.min(perRow, seats.length - Math.floor(k / perRow) * perRow);
        const col = k % perRow;
        const x = p.x * UNIT + (col - (inRow - 1) / 2) * 2 * r;
        const y = p.y * UNIT + (row === 0 ? -s / 2 : s / 2);
        const t = this.tokens.get(seat);
        t.style.transform = `translate(${x}px, ${y}px)`;
        t.dataset.tile = id;
      });
    }
  }

  setOwners(owners) {
    const same = JSON.stringify(owners) === JSON.stringify(this.owners);
    this.owners = { ...owners };
    if (!same) this.draw();
  }

  setCurrent(seat) {
    for (const [s, t] of this.tokens) t.classList.toggle("current", s === seat);
  }

  flash(tileID) {
    const g = tileID && this.el.querySelector(`.tile[data-tile="${CSS.escape(tileID)}"]`);
    if (!g) return;
    g.classList.remove("fired");
    void g.getBBox();
    g.classList.add("fired");
  }

  select(id) {
    this.opts.selected = id;
    for (const g of this.el.querySelectorAll(".tile")) g.classList.toggle("selected", g.dataset.tile === id);
  }

  // enableDragging lets tiles be moved with a mouse or a finger; the new
  // coordinates snap to half units.
  enableDragging() {
    let drag = null;
    const point = (e) => {
      const m = this.el.getScreenCTM().inverse();
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m);
      return { x: p.x / UNIT, y: p.y / UNIT };
    };
    this.el.addEventListener("pointerdown", (e) => {
      const g = e.target.closest(".tile");
      if (!g) return;
      const p = this.byID.get(g.dataset.tile);
      const at = point(e);
      drag = { id: g.dataset.tile, dx: p.x - at.x, dy: p.y - at.y, moved: false };
      this.dragged = false;
      this.el.setPointerCapture(e.pointerId);
    });
    this.el.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const at = point(e);
      const x = Math.round((at.x + drag.dx) * 2) / 2, y = Math.round((at.y + drag.dy) * 2) / 2;
      const p = this.byID.get(drag.id);
      if (x === p.x && y === p.y) return;
      drag.moved = this.dragged = true;
      p.t.x = x;
      p.t.y = y;
      this.setTiles(this.tiles, true); // the view stays put while dragging
    });
    const end = () => {
      if (drag && drag.moved) {
        const p = this.byID.get(drag.id);
        this.opts.onMove(drag.id, p.x, p.y);
        this.fit();
        this.draw();
      }
      drag = null;
    };
    this.el.addEventListener("pointerup", end);
    this.el.addEventListener("pointercancel", end);
  }
}

// tileSize is the side of a tile, in units: most of the distance between
// nearest neighbours.
function tileSize(pts) {
  let best = Infinity;
  const n = Math.min(pts.length, 400);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = Math.max(Math.abs(pts[i].x - pts[j].x), Math.abs(pts[i].y - pts[j].y));
      if (d > 0 && d < best) best = d;
    }
  }
  return best === Infinity ? 0.9 : Math.min(best, 3) * 0.88;
}

// tileFill is a tile's colour if the page can draw it ("brown",
// "#ffcc00"), else one made from its name ("station", "rainbow").
export function tileFill(c) {
  if (!c) return null;
  if (CSS.supports("color", c)) return c;
  let h = 0;
  for (const ch of c) h = (h * 31 + ch.codePointAt(0)) % 360;
  return `hsl(${h} 55% 70%)`;
}

// tileTitle is what hovering a tile tells players: its name, its price and
// rent, where a chute or ladder leads.
function tileTitle(t, byID) {
  const parts = [t.name || t.id];
  if (t.price) parts.push(`price ${t.price}, rent ${t.rent || 0}`);
  if (t.jump) {
    const to = byID.get(t.jump)?.t;
    parts.push(`leads to ${to ? to.name || to.id : t.jump}`);
  }
  return parts.join("\n");
}

// tileDetails is what hovering a tile tells a designer (the editor): its
// id, kind and colour too.
function tileDetails(t) {
  const parts = [`${t.name || t.id} (${t.id})`];
  if (t.kind) parts.push(`kind: ${t.kind}`);
  if (t.colour) parts.push(`colour: ${t.colour}`);
  if (t.price) parts.push(`price ${t.price}, rent ${t.rent || 0}`);
  if (t.jump) parts.push(`jumps to ${t.jump}`);
  return parts.join("\n");
}
