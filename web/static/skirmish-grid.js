// The map of a d20 skirmish: squares and walls, a token per creature (its
// side's colour, a short label, hit points, conditions), the squares the
// creature whose turn it is can reach, the creatures it can attack, and a
// cursor that the arrow keys move. It draws; the renderer decides. On a
// phone held upright, a map too wide for its squares to be tapped is drawn
// turned a quarter clockwise; the renderer still speaks of the map's own
// squares, and the arrow keys move the cursor as the screen shows it.
import { svg, colour } from "./util.js";
import { Zoom } from "./zoom.js";

// S is a square's size in the drawing's units.
const S = 72;

// TAP is the narrowest a square may be drawn on a touch screen, in pixels.
const TAP = 40;

// cellKey names a square for maps: "3,4".
export const cellKey = (c) => `${c[0]},${c[1]}`;

// shortLabels gives every creature a distinct label of a few characters,
// from its name: "Fighter" F, "Goblin 2" G2; a letter more where two
// would look alike.
export function shortLabels(keys, names = keys) {
  const cand = (key, n) => {
    const num = key.match(/(\d+)$/)?.[1] || "";
    const letters = key.slice(0, key.length - num.length).replace(/[^\p{L}]/gu, "");
    const word = letters.slice(0, n);
    return (word.charAt(0).toUpperCase() + word.slice(1).toLowerCase() || "?") + num;
  };
  const out = new Map();
  for (let n = 1; n <= 4 && out.size < keys.length; n++) {
    const count = new Map();
    keys.forEach((k, i) => {
      if (!out.has(k)) count.set(cand(names[i], n), (count.get(cand(names[i], n)) || 0) + 1);
    });
    const taken = new Set(out.values());
    keys.forEach((k, i) => {
      if (out.has(k)) return;
      const c = cand(names[i], n);
      if (count.get(c) === 1 && !taken.has(c)) out.set(k, c);
    });
  }
  keys.forEach((k, i) => {
    if (!out.has(k)) out.set(k, cand(names[i], 2) + (i + 1));
  });
  return out;
}

// conditionLevel is a condition's level, or that of the part of it that
// counts levels (a battle trance's trance-level).
export function conditionLevel(c, k) {
  return k.level || (c.conditions || []).find((s) => s.parent === k.id && s.level)?.level || 0;
}

// conditionHelp says what a condition does, for a hover or a tap: its
// title, what it does, how long it lasts, what may end it, and its parts.
export function conditionHelp(c, k) {
  const subs = (c.conditions || []).filter((s) => s.parent === k.id);
  const level = conditionLevel(c, k);
  const lines = [`${k.title}${level ? " " + level : ""}: ${k.description || "a condition"}`];
  const how = [k.durationText, k.saveText].filter(Boolean).join("; ");
  if (how) lines.push(how.charAt(0).toUpperCase() + how.slice(1) + ".");
  if (subs.length) lines.push(`With ${subs.map((s) => s.title + (s.level ? " " + s.level : "")).join(", ")}.`);
  return lines.join("\n");
}

// badgeText is a condition's badge on a token: its whole title where it
// fits (a title is never cut short), else a star.
function badgeText(c, k) {
  const level = conditionLevel(c, k) || k.roundsLeft;
  const text = k.title + (level ? " " + level : "");
  return text.length <= 9 ? text : "✦" + (level ? " " + level : "");
}

export class GridView {
  // map is the view's map ({width, height, walls}); onActivate(cell) is
  // called when a square is clicked or Enter is pressed on the cursor;
  // onCursor(cell) when the cursor moves.
  constructor(map, { onActivate, onCursor, label }) {
    this.w = map.width;
    this.h = map.height;
    this.walls = new Set((map.walls || []).map(cellKey));
    this.onActivate = onActivate;
    this.onCursor = onCursor;
    this.tokens = new Map();
    this.cursor = null;
    this.floor = svg("g", { class: "sk-floor" });
    this.marks = svg("g", { class: "sk-marks" });
    this.tokenLayer = svg("g", { class: "sk-tokens" });
    this.cursorEl = svg("rect", { class: "sk-cursor", width: S - 4, height: S - 4, rx: 6, visibility: "hidden" });
    this.el = svg("svg", { class: "sk-grid", role: "application", tabindex: 0, "aria-label": label },
      this.floor, this.marks, this.tokenLayer, this.cursorEl);
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        const wall = this.walls.has(cellKey([x, y]));
        const sq = svg("rect", { class: wall ? "sk-wall" : "sk-square", width: S, height: S, "data-x": x, "data-y": y });
        if (!wall) {
          sq.addEventListener("click", () => {
            this.setCursor([x, y]);
            this.onActivate([x, y]);
          });
        }
        this.floor.append(sq);
      }
    }
    // Coordinates along the edges help people say where they mean.
    this.el.addEventListener("keydown", (e) => this.key(e));
    this.el.addEventListener("focus", () => {
      if (!this.cursor) this.setCursor(this.home || [0, 0]);
      this.cursorEl.setAttribute("visibility", "visible");
    });
    this.el.addEventListener("blur", () => this.cursorEl.setAttribute("visibility", "hidden"));
    this.zoom = new Zoom(this.el, "the map");
    this.orient();
    const turn = () => {
      // A map the page has dropped (a replay starting afresh) stops
      // listening.
      if (this.shown && !this.el.isConnected) removeEventListener("resize", turn);
      else this.orient();
    };
    addEventListener("resize", turn);
  }

  // orient draws the map as the screen suits: turned a quarter when the
  // screen is upright, the map wider than tall, and its squares would be
  // narrower than a finger across the screen (the map's frame is about
  // the screen's width on a phone).
  orient() {
    this.shown ||= this.el.isConnected;
    const turned = innerHeight > innerWidth && this.w > this.h && (innerWidth - 16) / this.w < TAP;
    if (turned === this.turned) return;
    this.turned = turned;
    const [cols, rows] = turned ? [this.h, this.w] : [this.w, this.h];
    this.el.setAttribute("viewBox", `0 0 ${cols * S} ${rows * S}`);
    this.el.style.setProperty("--cols", String(cols));
    this.el.style.setProperty("--rows", String(rows));
    this.el.classList.toggle("turned", turned);
    for (const sq of this.floor.children) {
      const [x, y] = this.xy([Number(sq.dataset.x), Number(sq.dataset.y)]);
      sq.setAttribute("x", x);
      sq.setAttribute("y", y);
    }
    for (const [key, t] of this.tokens) {
      const at = t.at;
      t.at = null;
      if (at) this.place(key, at, false);
    }
    if (this.cursor) this.moveCursor(this.cursor);
    if (this.lastMarks) this.setMarks(this.lastMarks);
  }

  // xy is where a square of the map is drawn: its top left corner.
  xy([x, y]) {
    return this.turned ? [(this.h - 1 - y) * S, x * S] : [x * S, y * S];
  }

  isWall(c) {
    return this.walls.has(cellKey(c));
  }

  key(e) {
    let d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (d) {
      e.preventDefault();
      // Turned, the screen's right is the map's up, its down the map's right.
      if (this.turned) d = [d[1], -d[0]];
      const c = this.cursor || this.home || [0, 0];
      this.setCursor([Math.max(0, Math.min(this.w - 1, c[0] + d[0])), Math.max(0, Math.min(this.h - 1, c[1] + d[1]))]);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (this.cursor) this.onActivate(this.cursor);
    } else if (e.key === "Home" && this.home) {
      e.preventDefault();
      this.setCursor(this.home);
    }
  }

  setCursor(c) {
    this.cursor = c;
    this.moveCursor(c);
    if (document.activeElement === this.el) {
      this.cursorEl.setAttribute("visibility", "visible");
      this.cursorEl.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    }
    this.onCursor?.(c);
  }

  moveCursor(c) {
    const [x, y] = this.xy(c);
    this.cursorEl.setAttribute("x", x + 2);
    this.cursorEl.setAttribute("y", y + 2);
  }

  // setCombatants draws every creature where the view says it is; the
  // fallen first, under the living.
  setCombatants(list, labels) {
    const order = [...list].sort((a, b) => Number(a.alive) - Number(b.alive));
    const seen = new Set();
    for (const c of order) {
      seen.add(c.key);
      let t = this.tokens.get(c.key);
      if (!t) {
        t = this.makeToken(c, labels.get(c.key));
        this.tokens.set(c.key, t);
      }
      this.tokenLayer.append(t.g); // in order: the living on top
      this.updateToken(t, c);
      this.place(c.key, c.at, false);
    }
    for (const [k, t] of this.tokens) {
      if (!seen.has(k)) {
        t.g.remove();
        this.tokens.delete(k);
      }
    }
  }

  makeToken(c, label) {
    const g = svg("g", { class: "sk-token", "data-key": c.key, "data-seat": c.seat });
    const ring = svg("circle", { class: "sk-ring", cx: S / 2, cy: S / 2 - 2, r: 27 });
    const disc = svg("circle", { class: "sk-disc", cx: S / 2, cy: S / 2 - 2, r: 21, fill: colour(c.seat) });
    const text = svg("text", { class: "sk-label", x: S / 2, y: S / 2 - 2, "text-anchor": "middle", "dominant-baseline": "central" }, label);
    const barBack = svg("rect", { class: "sk-hp-back", x: 8, y: S - 13, width: S - 16, height: 9, rx: 3 });
    const bar = svg("rect", { class: "sk-hp", x: 8, y: S - 13, width: S - 16, height: 9, rx: 3 });
    const hp = svg("text", { class: "sk-hp-text", x: S / 2, y: S - 8.5, "text-anchor": "middle", "dominant-baseline": "central" });
    const badges = svg("g", { class: "sk-badges" });
    const title = svg("title");
    g.append(ring, disc, text, barBack, bar, hp, badges, title);
    return { g, ring, disc, text, bar, hp, badges, title, at: null };
  }

  updateToken(t, c) {
    t.g.classList.toggle("dead", !c.alive);
    t.g.classList.toggle("current", !!c.turn);
    this.showHP(t, c.hp, c.maxHp, c.alive ? `${c.hp}${c.tempHp ? "+" + c.tempHp : ""}` : "down");
    const top = (c.conditions || []).filter((k) => !k.parent);
    t.badges.replaceChildren();
    // Up to two badges above the disc, one in each corner; "+n" for more.
    const badge = (text, left, cls = "") => {
      const w = 8 + text.length * 6.2;
      t.badges.append(svg("g", { class: "sk-badge" + cls, transform: `translate(${left ? 2 : S - 2 - w},2)` },
        svg("rect", { width: w, height: 14, rx: 7 }),
        svg("text", { x: w / 2, y: 7.5, "text-anchor": "middle", "dominant-baseline": "central" }, text)));
    };
    const texts = top.map((k) => badgeText(c, k));
    const width = (s) => 8 + s.length * 6.2;
    if (texts.length === 1) {
      badge(texts[0], false);
    } else if (texts.length === 2 && width(texts[0]) + width(texts[1]) <= S - 6) {
      badge(texts[0], false);
      badge(texts[1], true);
    } else if (texts.length > 1) {
      badge(texts[0], false);
      badge(`+${texts.length - 1}`, true, " more");
    }
    const kind = c.creatureName && !c.name.toLowerCase().includes(c.creatureName.toLowerCase()) ? `${c.creatureName}, ` : "";
    t.title.textContent = `${c.name} (${kind}${c.side}): ${c.alive ? `${c.hp}/${c.maxHp} HP` : "down"}, AC ${c.ac}` +
      top.map((k) => "\n" + conditionHelp(c, k)).join("");
  }

  // place puts a token on a square (sliding there if animate).
  place(key, at, animate = true) {
    const t = this.tokens.get(key);
    if (!t) return;
    if (t.at && t.at[0] === at[0] && t.at[1] === at[1]) return;
    t.g.classList.toggle("still", !animate);
    const [x, y] = this.xy(at);
    t.g.style.transform = `translate(${x}px, ${y}px)`;
    t.at = at;
  }

  // reveal scrolls a map wider (or taller) than its frame to a square.
  reveal(at) {
    const wrap = this.zoom.view;
    if (!at) return;
    const scale = this.el.getBoundingClientRect().width / this.el.viewBox.baseVal.width;
    const [x, y] = this.xy(at);
    if (wrap.scrollWidth > wrap.clientWidth) wrap.scrollLeft = Math.max(0, (x + S / 2) * scale - wrap.clientWidth / 2);
    if (wrap.scrollHeight > wrap.clientHeight) wrap.scrollTop = Math.max(0, (y + S / 2) * scale - wrap.clientHeight / 2);
  }

  // setHP shows a token's hit points as a hit leaves them.
  setHP(key, hp, maxHp) {
    const t = this.tokens.get(key);
    if (t) this.showHP(t, hp, maxHp, String(hp));
  }

  // showHP fills a token's bar: green above half, orange above a quarter,
  // red below.
  showHP(t, hp, maxHp, text) {
    const frac = maxHp > 0 ? Math.max(0, Math.min(1, hp / maxHp)) : 0;
    t.bar.setAttribute("width", (S - 16) * frac);
    t.bar.setAttribute("class", "sk-hp " + (frac > 0.5 ? "good" : frac > 0.25 ? "hurt" : "bad"));
    t.hp.textContent = text;
  }

  // flash marks a token briefly: it was hit, or missed.
  flash(key, how) {
    const t = this.tokens.get(key);
    if (!t) return;
    t.g.classList.remove("flash-hit", "flash-miss");
    void t.g.getBBox?.(); // restart the animation
    t.g.classList.add(how === "miss" ? "flash-miss" : "flash-hit");
  }

  // setMarks highlights the squares a move reaches (with the creatures a
  // move there would provoke), the creatures that can be attacked, and
  // others to point out (who reacts to whom).
  setMarks(marks = {}) {
    const { reach = new Map(), targets = new Set(), pointed = new Set() } = marks;
    this.lastMarks = marks;
    this.marks.replaceChildren();
    for (const [k, r] of reach) {
      const cell = k.split(",").map(Number);
      const [x, y] = this.xy(cell).map((n) => n / S);
      const provokes = r.provokes?.length > 0;
      const g = svg("g", { class: "sk-reach" + (provokes ? " provokes" : ""), "data-x": cell[0], "data-y": cell[1], "data-provokes": (r.provokes || []).join(" ") },
        svg("rect", { x: x * S + 3, y: y * S + 3, width: S - 6, height: S - 6, rx: 8 }),
        svg("text", { class: "sk-feet", x: x * S + 7, y: y * S + S - 9 }, `${r.feet}`));
      if (provokes) {
        g.append(svg("text", { class: "sk-warn", x: x * S + S - 8, y: y * S + 18, "text-anchor": "end" }, "⚠"),
          svg("text", { class: "sk-provokers", x: x * S + S / 2, y: y * S + S / 2 + 5, "text-anchor": "middle" }, r.provokers));
      }
      this.marks.append(g);
    }
    for (const [key, t] of this.tokens) {
      t.g.classList.toggle("target", targets.has(key));
      t.g.classList.toggle("pointed", pointed.has(key));
    }
  }

  // setTitles gives squares the words of what clicking them does.
  setTitles(titleOf) {
    for (const sq of this.floor.children) {
      const c = [Number(sq.dataset.x), Number(sq.dataset.y)];
      const text = titleOf(c);
      let t = sq.querySelector("title");
      if (!text) {
        t?.remove();
        continue;
      }
      if (!t) sq.append((t = svg("title")));
      t.textContent = text;
    }
  }
}
