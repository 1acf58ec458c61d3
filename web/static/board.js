// The board drawn from the file: spaces at their coordinates with their
// sizes, colours and labels, the connection arrows, the players' tokens.
import { svg, wrap, token } from "./util.js";

const NS_PAD = 60;

export class BoardView {
  constructor(drawing, players) {
    this.drawing = drawing;
    this.render = drawing.render || {};
    this.byID = new Map();
    this.tokens = new Map();
    this.pos = new Map(); // seat → space id shown
    this.layout();
    this.el = this.build(players);
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
      this.byID.set(s.id, { space: s, x, y, r: (v.Size || 60) / 2 });
    });
  }

  build(players) {
    const pts = [...this.byID.values()];
    const minX = Math.min(...pts.map((p) => p.x - p.r)) - NS_PAD;
    const minY = Math.min(...pts.map((p) => p.y - p.r)) - NS_PAD;
    const maxX = Math.max(...pts.map((p) => p.x + p.r)) + NS_PAD;
    const maxY = Math.max(...pts.map((p) => p.y + p.r)) + NS_PAD;
    const arrowSize = Number(this.render.arrowSize) || 10;
    const root = svg("svg", {
      class: "board", viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`, role: "img",
      "aria-label": "the board", preserveAspectRatio: "xMidYMid meet",
    });
    root.append(svg("defs", {},
      svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: arrowSize, markerHeight: arrowSize,
        markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: this.render.arrowColor || "#333" }))));
    root.append(svg("rect", { x: minX, y: minY, width: maxX - minX, height: maxY - minY, fill: this.render.backgroundColor || "#fffdf7" }));

    const edges = svg("g", { class: "edges" });
    const seen = new Set();
    for (const { space, x, y, r } of this.byID.values()) {
      for (const c of space.connections) {
        const t = this.byID.get(c.target);
        if (!t || c.draw === false) continue;
        const back = seen.has(`${c.target}→${space.id}`) || t.space.connections.some((d) => d.target === space.id);
        seen.add(`${space.id}→${c.target}`);
        edges.append(this.arrow(x, y, r, t.x, t.y, t.r, back));
      }
    }
    root.append(edges);

    const defaults = this.render.spaceDefaults || {};
    const spacesG = svg("g", { class: "spaces" });
    for (const { space, x, y, r } of this.byID.values()) {
      const v = space.visual || {};
      const g = svg("g", { class: "space", "data-space": space.id, tabindex: "-1" },
        svg("title", {}, spaceTitle(space)),
        svg("circle", { cx: x, cy: y, r, fill: v.Color || "#f4f4f4",
          stroke: v.BorderColor || defaults.borderColor || "#333", "stroke-width": v.BorderWidth || defaults.borderWidth || 2 }));
      const lines = wrap(space.name || space.id, Math.max(6, Math.floor(r / 4.2)));
      const size = Math.max(9, Math.min(14, r / 3.2));
      lines.forEach((line, i) => {
        g.append(svg("text", { x, y: y + (i - (lines.length - 1) / 2) * size * 1.15, "font-size": size,
          fill: v.TextColor || defaults.textColor || "#111", "text-anchor": "middle", "dominant-baseline": "middle" }, line));
      });
      spacesG.append(g);
    }
    root.append(spacesG);

    this.tokenLayer = svg("g", { class: "tokens" });
    root.append(this.tokenLayer);
    players.forEach((p) => this.addToken(p));
    return root;
  }

  arrow(x1, y1, r1, x2, y2, r2, curved) {
    const dx = x2 - x1, dy = y2 - y1;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    const sx = x1 + ux * r1, sy = y1 + uy * r1;
    const ex = x2 - ux * (r2 + 2), ey = y2 - uy * (r2 + 2);
    const stroke = this.render.connectionColor || "#666";
    const width = Number(this.render.connectionThickness) || 2;
    if (!curved) {
      return svg("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke, "stroke-width": width, "marker-end": "url(#arrow)" });
    }
    // Two arrows between the same spaces bend apart.
    const mx = (sx + ex) / 2 - uy * 18, my = (sy + ey) / 2 + ux * 18;
    return svg("path", { d: `M${sx},${sy} Q${mx},${my} ${ex},${ey}`, fill: "none", stroke, "stroke-width": width, "marker-end": "url(#arrow)" });
  }

  addToken(p) {
    const t = token(p);
    this.tokens.set(p.seat, t);
    this.tokenLayer.append(t);
    this.place(p.seat, p.space);
  }

  // place puts a token on a space at once (or, with CSS transitions, walks
  // it there).
  place(seat, spaceID) {
    const s = this.byID.get(spaceID);
    const t = this.tokens.get(seat);
    if (!s || !t) return;
    this.pos.set(seat, spaceID);
    const a = (seat * 2 * Math.PI) / 6 - Math.PI / 2;
    const off = s.r * 0.55;
    t.style.transform = `translate(${s.x + off * Math.cos(a)}px, ${s.y + off * Math.sin(a)}px)`;
    t.dataset.space = spaceID;
  }

  setTokens(players) {
    for (const p of players) {
      if (!this.tokens.has(p.seat)) this.addToken(p);
      else if (this.pos.get(p.seat) !== p.space) this.place(p.seat, p.space);
    }
  }

  // flash marks a space whose event fires.
  flash(spaceID) {
    const g = this.el.querySelector(`[data-space="${CSS.escape(spaceID)}"]`);
    if (!g) return;
    g.classList.remove("fired");
    void g.getBBox();
    g.classList.add("fired");
  }

  // setChoices highlights the spaces a player may step to; clicking one
  // calls pick with its id.
  setChoices(ids, pick) {
    for (const g of this.el.querySelectorAll(".space")) {
      const on = ids.includes(g.dataset.space);
      g.classList.toggle("choice", on);
      g.onclick = on ? () => pick(g.dataset.space) : null;
      g.setAttribute("tabindex", on ? "0" : "-1");
      g.onkeydown = on ? (e) => { if (e.key === "Enter" || e.key === " ") pick(g.dataset.space); } : null;
    }
  }

  setCurrent(seat) {
    for (const [s, t] of this.tokens) t.classList.toggle("current", s === seat);
  }
}

function spaceTitle(space) {
  const lines = [`${space.name} (${space.id})`];
  for (const e of space.events) lines.push(`${e.trigger} → ${e.action} (${e.priority})`);
  return lines.join("\n");
}
