// A party board drawn from its file: spaces at their coordinates with their
// sizes, colours and names, the connection arrows (bent around the spaces
// they would cross), and the players' tokens on the spaces' rims, where
// they leave the names readable.
import { svg, wrap, token } from "./util.js";
import { unitsPerPixel, FINGER } from "./zoom.js";

const PAD = 60;
const TOKEN_R = 11;

export class BoardView {
  // designer shows, on hover, each space's id and events (the editor);
  // players see its name only.
  constructor(drawing, players, { designer = false } = {}) {
    this.drawing = drawing;
    this.designer = designer;
    this.render = drawing.render || {};
    this.byID = new Map();
    this.tokens = new Map();
    this.pos = new Map(); // seat → space id shown
    this.layout();
    this.el = this.build(players);
    // A space to choose stays a finger wide however small the board is
    // drawn: its target grows as the board shrinks (a phone) or zooms.
    new ResizeObserver(() => this.growTargets()).observe(this.el);
  }

  // layout gives every space a centre and a radius; boards without
  // coordinates are laid out on a circle.
  layout() {
    const spaces = this.drawing.spaces;
    const placed = spaces.some((s) => s.visual && (s.visual.X || s.visual.Y));
    spaces.forEach((s, i) => {
      const v = s.visual || {};
      let x = v.X, y = v.Y;
      if (!placed) {
        const a = (2 * Math.PI * i) / spaces.length;
        x = 400 + 300 * Math.cos(a);
        y = 400 + 300 * Math.sin(a);
      }
      this.byID.set(s.id, { space: s, x, y, r: Math.max(20, (v.Size || 60) / 2) });
    });
  }

  build(players) {
    const pts = [...this.byID.values()];
    const minX = Math.min(...pts.map((p) => p.x - p.r)) - PAD;
    const minY = Math.min(...pts.map((p) => p.y - p.r)) - PAD;
    const maxX = Math.max(...pts.map((p) => p.x + p.r)) + PAD;
    const maxY = Math.max(...pts.map((p) => p.y + p.r)) + PAD;
    const arrowSize = Number(this.render.arrowSize) || 10;
    const root = svg("svg", {
      class: "board", viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`, role: "group",
      "aria-label": "the board", preserveAspectRatio: "xMidYMid meet",
    });
    fitWidth(root, maxX - minX, maxY - minY);
    root.append(svg("defs", {},
      svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: arrowSize, markerHeight: arrowSize,
        markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: this.render.arrowColor || "#333" }))));
    root.append(svg("rect", { x: minX, y: minY, width: maxX - minX, height: maxY - minY, fill: this.render.backgroundColor || "#fffdf7" }));

    const edges = svg("g", { class: "edges", "aria-hidden": "true" });
    for (const [id, p] of this.byID) {
      for (const c of p.space.connections) {
        const t = this.byID.get(c.target);
        if (!t || c.draw === false) continue;
        const twoWay = t.space.connections.some((d) => d.target === id && d.draw !== false);
        edges.append(this.arrow(p, t, twoWay, id, c.target));
      }
    }
    root.append(edges);

    const defaults = this.render.spaceDefaults || {};
    const spacesG = svg("g", { class: "spaces" });
    for (const { space, x, y, r } of this.byID.values()) {
      const v = space.visual || {};
      const g = svg("g", { class: "space", "data-space": space.id, "aria-label": space.name || space.id },
        svg("title", {}, spaceTitle(space, this.designer)),
        svg("circle", { cx: x, cy: y, r, fill: v.Color || "#f4f4f4",
          stroke: v.BorderColor || defaults.borderColor || "#333", "stroke-width": v.BorderWidth || defaults.borderWidth || 2 }));
      const { lines, size } = fitName(space.name || space.id, r);
      lines.forEach((line, i) => {
        g.append(svg("text", { x, y: y + (i - (lines.length - 1) / 2) * size * 1.15, "font-size": size,
          fill: v.TextColor || defaults.textColor || "#111", "text-anchor": "middle", "dominant-baseline": "middle" }, line));
      });
      spacesG.append(g);
    }
    root.append(spacesG);

    this.tokenLayer = svg("g", { class: "tokens" });
    root.append(this.tokenLayer);
    for (const p of players) this.addToken(p);
    this.arrange();
    return root;
  }

  // arrow is the connection from space a to space b: straight, or bent
  // when the two connect both ways or when a straight line would cross
  // another space (and so seem to link it).
  arrow(a, b, twoWay, from, to) {
    const stroke = this.render.connectionColor || "#666";
    const width = Number(this.render.connectionThickness) || 2;
    const d = arrowPath([...this.byID.values()], a, b, twoWay);
    return svg("path", { d, fill: "none", stroke, "stroke-width": width, "marker-end": "url(#arrow)", "data-from": from, "data-to": to });
  }

  addToken(p) {
    const t = token(p, TOKEN_R);
    this.tokens.set(p.seat, t);
    this.tokenLayer.append(t);
    this.pos.set(p.seat, p.space);
  }

  // place moves a token to a space (CSS transitions walk it there).
  place(seat, spaceID) {
    if (!this.byID.has(spaceID) || !this.tokens.has(seat)) return;
    this.pos.set(seat, spaceID);
    this.arrange();
  }

  // arrange puts every token on the rim of its space, below the name:
  // tokens that share a space sit side by side along the rim.
  arrange() {
    const at = new Map();
    for (const [seat, id] of this.pos) {
      if (!at.has(id)) at.set(id, []);
      at.get(id).push(seat);
    }
    for (const [id, seats] of at) {
      const s = this.byID.get(id);
      if (!s) continue;
      seats.sort((a, b) => a - b);
      // Along the rim, a token's width apart, starting at the bottom.
      const step = Math.min(Math.PI / 3, (2.3 * TOKEN_R) / s.r);
      seats.forEach((seat, k) => {
        const a = Math.PI / 2 - (k - (seats.length - 1) / 2) * step; // seat order from left to right
        const t = this.tokens.get(seat);
        t.style.transform = `translate(${s.x + s.r * Math.cos(a)}px, ${s.y + s.r * Math.sin(a)}px)`;
        t.dataset.space = id;
      });
    }
  }

  setTokens(players) {
    let moved = false;
    for (const p of players) {
      if (!this.tokens.has(p.seat)) {
        this.addToken(p);
        moved = true;
      } else if (this.pos.get(p.seat) !== p.space) {
        this.pos.set(p.seat, p.space);
        moved = true;
      }
    }
    if (moved) this.arrange();
  }

  // flash marks a space whose event fires.
  flash(spaceID) {
    const g = this.el.querySelector(`.space[data-space="${CSS.escape(spaceID)}"]`);
    if (!g) return;
    g.classList.remove("fired");
    void g.getBBox();
    g.classList.add("fired");
  }

  // setChoices highlights the spaces a player may step to, each a button
  // named by labels (the legal command's text); clicking one, or Enter on
  // it, calls pick with its id.
  setChoices(ids, pick, labels = []) {
    for (const g of this.el.querySelectorAll(".space")) {
      const i = ids.indexOf(g.dataset.space);
      const on = i >= 0;
      g.classList.toggle("choice", on);
      g.onclick = on ? () => pick(g.dataset.space) : null;
      g.onkeydown = on ? (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          pick(g.dataset.space);
        }
      } : null;
      g.querySelector(".hit")?.remove();
      if (on) {
        const p = this.byID.get(g.dataset.space);
        g.prepend(svg("circle", { class: "hit", cx: p.x, cy: p.y, r: p.r }));
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", labels[i] || g.querySelector("title")?.textContent || g.dataset.space);
      } else {
        g.removeAttribute("tabindex");
        g.removeAttribute("role");
      }
    }
    this.growTargets();
  }

  // growTargets makes the target of every space to choose at least a
  // finger wide on the screen.
  growTargets() {
    const hits = this.el.querySelectorAll(".space .hit");
    if (!hits.length) return;
    const min = (FINGER / 2) * unitsPerPixel(this.el);
    for (const c of hits) {
      const p = this.byID.get(c.parentNode.dataset.space);
      c.setAttribute("r", Math.max(p.r, min).toFixed(1));
    }
  }

  setCurrent(seat) {
    for (const [s, t] of this.tokens) t.classList.toggle("current", s === seat);
  }
}

// arrowPath is the path of an arrow from space a to space b (centres x, y
// and radii r): a straight line, or a curve bent away from the spaces a
// straight one would cross, or to one side when the spaces connect both
// ways (so that the two arrows do not lie on each other).
export function arrowPath(spaces, a, b, twoWay) {
  const dx = b.x - a.x, dy = b.y - a.y;
  const l = Math.hypot(dx, dy);
  if (l === 0) return "";
  const ux = dx / l, uy = dy / l;
  const nx = -uy, ny = ux; // the arrow's left
  let bend = twoWay ? 40 : 0;
  for (const c of spaces) {
    if (c === a || c === b) continue;
    const t = (c.x - a.x) * ux + (c.y - a.y) * uy;
    if (t <= 0 || t >= l) continue;
    const side = (c.x - a.x) * nx + (c.y - a.y) * ny;
    if (Math.abs(side) < c.r + 8) {
      // A quadratic curve's middle moves by half its control point's
      // offset: bend away from c by enough to clear it.
      let off = 2 * (c.r + 18 + Math.abs(side));
      if (side > 0) off = -off;
      if (Math.abs(off) > Math.abs(bend)) bend = off;
    }
  }
  if (bend === 0) {
    return `M${f1(a.x + ux * a.r)},${f1(a.y + uy * a.r)} L${f1(b.x - ux * (b.r + 3))},${f1(b.y - uy * (b.r + 3))}`;
  }
  const mx = (a.x + b.x) / 2 + nx * bend, my = (a.y + b.y) / 2 + ny * bend;
  const [sx, sy] = toward(a, mx, my, a.r);
  const [ex, ey] = toward(b, mx, my, b.r + 3);
  return `M${f1(sx)},${f1(sy)} Q${f1(mx)},${f1(my)} ${f1(ex)},${f1(ey)}`;
}

// fitWidth sizes a board's drawing to its shape: as wide as its box
// allows, but no taller than most of the screen (--board-height), without
// empty bands; then --zoom times that, when a player zooms in (zoom.js).
// At zoom 1 all of the board is on the screen, on a phone as on a desktop.
export function fitWidth(el, w, h) {
  el.style.width = `calc(min(100%, var(--board-height, 70vh) * ${(w / h).toFixed(4)}) * var(--zoom, 1))`;
  el.style.aspectRatio = `${w.toFixed(1)} / ${h.toFixed(1)}`;
}

// toward is the point at distance d from p's centre towards (x, y).
function toward(p, x, y, d) {
  const dx = x - p.x, dy = y - p.y;
  const l = Math.hypot(dx, dy) || 1;
  return [p.x + (dx / l) * d, p.y + (dy / l) * d];
}

function f1(v) {
  return v.toFixed(1);
}

// fitName breaks a space's name into lines and picks a font size at which
// the longest line stays inside the circle of radius r.
export function fitName(name, r) {
  const lines = wrap(name, Math.max(6, Math.floor(r / 4.2)));
  const longest = Math.max(1, ...lines.map((l) => l.length));
  let size = Math.min(14, (1.6 * r) / (0.6 * longest));
  if (lines.length === 3) size = Math.min(size, (1.3 * r) / (3 * 1.15));
  return { lines, size: Math.max(6, size) };
}

// spaceTitle is what hovering a space tells: its name; to a designer, its
// id and its events too.
function spaceTitle(space, designer) {
  if (!designer) return space.name || space.id;
  const lines = [`${space.name} (${space.id})`];
  for (const e of space.events) lines.push(`${e.trigger} → ${e.action} (${e.priority})`);
  return lines.join("\n");
}
