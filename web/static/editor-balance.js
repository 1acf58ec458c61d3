// Balance as you edit: after each pause in typing, once the game is valid,
// the server plays the draft many times with bots in every seat
// (POST /api/simulate) and this card shows what that says — the seats'
// win rates with their intervals, how long games last, what each place
// did, as a heat map on the editor's own board (or on the report's map) —
// and, against a version the designer pinned, which figures moved and
// whether each move is beyond the noise (intervals that do not overlap).
import { h, svg } from "./util.js";

const SIMULATE_MS = 600;
// The figures a heat map shows first when the game has them.
const PREFERRED = ["landings", "entries", "firings", "captures", "downed", "damage"];
// How many of the board's places that moved beyond the noise are listed
// before "show more".
const BOARD_ROWS = 6;

export class BalanceCard {
  // ed is the editor: its body() is the draft, its seats input the number
  // of players, its root's dataset what tests wait for.
  constructor(ed) {
    this.ed = ed;
    this.answer = null; // the last simulation's answer
    this.pinned = null; // {report, at, name}
    this.figure = null; // the heat map's figure ("" : the board's own colours)
    this.seq = 0;
    this.done = 0;
    this.statusEl = h("span", { class: "status", id: "balance-status", role: "status" });
    this.pinBtn = h("button", { type: "button", id: "pin", onclick: () => this.togglePin() }, "Pin this version");
    this.body = h("div", { class: "balance-body" });
    // brief sits beside the validation's status in the toolbar.
    this.brief = h("button", { type: "button", class: "link balance-brief", id: "balance-brief", hidden: true,
      onclick: () => this.el.scrollIntoView({ behavior: "smooth", block: "start" }) }, "Balance");
    this.el = h("section", { class: "balance card", id: "balance", "aria-labelledby": "balance-title" },
      h("div", { class: "balance-head" }, h("h2", { id: "balance-title" }, "Balance"), this.statusEl, this.pinBtn),
      this.body);
    this.render();
  }

  // reset forgets everything: another game was opened.
  reset() {
    this.abort();
    this.answer = null;
    this.pinned = null;
    this.figure = null;
    this.render();
  }

  abort() {
    clearTimeout(this.timer);
    this.controller?.abort();
    this.controller = null;
  }

  // changed: the draft changed; its simulation waits for the validation.
  changed() {
    clearTimeout(this.timer);
    this.set("waiting", this.answer ? "The draft changed: simulating it once it is checked…" : "Waiting for the game to be checked…");
  }

  // validated: the draft was checked; a valid one is simulated shortly.
  validated(valid) {
    clearTimeout(this.timer);
    if (!valid) {
      this.abort();
      this.set("invalid", "Fix the problems to see the balance of this draft.", "error");
      this.render();
      return;
    }
    this.timer = setTimeout(() => this.simulate(), SIMULATE_MS);
  }

  set(state, text, kind = "") {
    this.ed.root.dataset.balance = state;
    this.brief.hidden = state === "invalid" || (!this.answer && state !== "running");
    this.brief.textContent = state === "running" || state === "waiting" || state === "limited" ? "Balance: simulating…" : this.briefText() || "Balance";
    this.statusEl.textContent = text;
    this.statusEl.className = "status " + kind;
    this.el.classList.toggle("stale", state !== "done");
  }

  async simulate() {
    this.abort();
    const seq = ++this.seq;
    const controller = new AbortController();
    this.controller = controller;
    const { raw, name } = this.ed.body();
    const form = new FormData();
    form.append("file", raw instanceof Blob ? raw : new Blob([raw], { type: "application/json" }), name);
    if (this.pinned) form.append("against", JSON.stringify(this.pinned.report));
    const players = Number(this.ed.seatsIn.value) || "";
    this.set("running", "Simulating the draft…");
    let res, data;
    try {
      res = await fetch(`/api/simulate?players=${players}`, { method: "POST", body: form, signal: controller.signal });
      data = await res.json().catch(() => ({}));
    } catch (err) {
      if (seq !== this.seq || err.name === "AbortError") return;
      this.set("failed", `The simulation failed: ${err.message}`, "error");
      return;
    }
    if (seq !== this.seq) return; // a newer draft is being simulated
    this.controller = null;
    if (res.ok) {
      this.answer = data;
      this.done++;
      this.ed.root.dataset.simulations = String(this.done);
      this.set("done", this.summary(data), "ok");
      this.render();
      this.ed.paintBalance();
      return;
    }
    const wait = Number(res.headers.get("Retry-After")) || data.retryAfter || 0;
    if ((res.status === 429 || res.status === 503) && wait) {
      // Limited: the latest draft is simulated when the server allows.
      this.set("limited", `${data.error || "The simulator is busy"}. The draft is simulated in ${wait} s.`);
      this.timer = setTimeout(() => this.simulate(), wait * 1000);
      return;
    }
    if (data.superseded) {
      this.set("superseded", "Stopped: another page of this browser asked for a simulation. ", "error");
      this.statusEl.append(h("button", { type: "button", class: "link", onclick: () => this.simulate() }, "Simulate again"));
      return;
    }
    this.set("failed", data.error || `${res.status} ${res.statusText}`, "error");
  }

  // briefText sums the last simulation up in a line.
  briefText() {
    const a = this.answer;
    if (!a) return "";
    const r = a.report;
    const seats = r.seats.map((s) => `${s.name} ${pct(s.winRate)}`).join(" · ");
    const moved = this.pinned ? (a.changes || []).filter((c) => c.beyond).length : -1;
    return `Balance: ${seats} · ${fmtNum(r.length.rounds.mean, 1)} rounds${moved >= 0 ? ` · ${moved} moved beyond the noise` : ""}`;
  }

  summary(a) {
    const r = a.report;
    const failed = r.failed.games ? `, ${r.failed.games} broke` : "";
    return `${fmtInt(r.games)} games simulated${failed}${this.pinned ? `, against the version pinned at ${this.pinned.at}` : ""}`;
  }

  togglePin() {
    if (this.pinned) {
      this.pinned = null;
    } else if (this.answer) {
      const now = new Date();
      this.pinned = { report: this.answer.report, at: now.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" }), name: this.answer.report.game.name };
      this.answer = { ...this.answer, changes: [] };
    }
    this.render();
    this.brief.textContent = this.briefText() || "Balance";
    this.ed.paintBalance();
  }

  // --- drawing ---

  render() {
    this.pinBtn.textContent = this.pinned ? "Unpin" : "Pin this version";
    this.pinBtn.disabled = !this.pinned && !this.answer;
    this.pinBtn.setAttribute("aria-pressed", this.pinned ? "true" : "false");
    const a = this.answer;
    if (!a) {
      this.body.replaceChildren(h("p", { class: "hint" },
        "Once the game is valid, the server plays it many times with bots in every seat and shows here who wins, how long games last and where things happen. Pin a version to see what your next changes move."));
      return;
    }
    const r = a.report;
    this.body.replaceChildren(...[
      this.budget(a),
      this.pinned ? this.changes(a) : null,
      this.seats(r),
      this.length(r),
      this.failures(r),
      this.heatControls(r),
      this.ed.kind === "source" ? this.mapDrawing(r) : null,
      this.tables(r)].filter(Boolean));
  }

  budget(a) {
    const r = a.report, b = a.budget;
    const limit = `the budget is ${fmtInt(b.games)} games or ${fmtNum(b.cpuSeconds, 2)} s of CPU, whichever comes first`;
    const why = a.stopped === "cpu" ? ` It stopped at its CPU budget after ${fmtInt(r.games)} games: the intervals are wider than they would be with all ${fmtInt(b.games)}.`
      : a.stopped === "time" ? ` The server was busy with matches and stopped it after ${fmtNum(r.timing?.seconds || 0, 1)} s: the intervals are wider.` : "";
    return h("p", { class: "hint", id: "balance-budget" },
      `${fmtInt(r.games)} games with ${r.players.length} bots (${limit}; every version plays the same dice).${why}`);
  }

  seats(r) {
    const decided = r.decided;
    return h("div", { class: "seat-rates" },
      h("h3", {}, "Who wins", h("span", { class: "hint" }, ` — of ${fmtInt(decided)} games with a winner; fair share ${pct(r.fairShare)}`)),
      h("ul", { class: "rates", id: "seat-rates" }, r.seats.map((s) => h("li", {},
        h("span", { class: "who" }, s.name),
        rateBar(s, r.fairShare),
        h("span", { class: "rate" }, pct(s.winRate), h("small", {}, ` ${pct(s.low)}–${pct(s.high)}`))))));
  }

  length(r) {
    const rounds = r.length.rounds;
    const parts = [];
    if (r.finished) {
      parts.push(`Games last ${fmtNum(rounds.mean, 1)} rounds on average (median ${rounds.median}, 90% within ${rounds.p90}, longest ${rounds.max})`);
      parts.push(`${fmtNum(r.length.commands.mean, 0)} moves`);
    } else {
      parts.push("No game finished");
    }
    if (r.roundLimit.games) parts.push(`${fmtInt(r.roundLimit.games)} stopped at the round limit (${r.roundLimit.limit})`);
    if (r.draws) parts.push(`${fmtInt(r.draws)} without a winner`);
    return h("p", { id: "balance-length" }, parts.join("; ") + ".");
  }

  failures(r) {
    if (!r.failed.games) return null;
    const f = r.failed.first[0];
    return h("p", { class: "error", id: "balance-failures" }, `${fmtInt(r.failed.games)} games broke. The first (game ${f.game}, seed ${f.seed}): ${f.error}`);
  }

  // heatControls picks the figure the board is coloured by.
  heatControls(r) {
    const figs = this.figures(r);
    if (!figs.length) return null;
    if (this.figure === null || (this.figure && !figs.includes(this.figure))) this.figure = PREFERRED.find((f) => figs.includes(f)) || figs[0];
    const onBoard = this.ed.kind !== "source";
    const sel = h("select", { id: "heat-figure", onchange: () => {
      this.figure = sel.value;
      this.render();
      this.ed.paintBalance();
    } },
    onBoard ? h("option", { value: "" }, "the board's own colours") : null,
    figs.map((f) => h("option", { value: f, selected: f === this.figure }, `${f} per game`)));
    sel.value = this.figure;
    const most = this.most(r);
    return h("div", { class: "heat-controls" },
      h("label", { for: "heat-figure" }, onBoard ? "Colour the board by" : "Heat map of"), sel,
      this.figure ? h("span", { class: "heat-legend", "aria-hidden": "true" },
        "0", h("span", { class: "heat-scale" }), fmtNum(most, 2)) : null,
      this.figure && this.pinned && onBoard ? h("span", { class: "hint heat-moved" }, "▲▼ outlined: moved beyond the noise") : null);
  }

  // figures are the figures of the places the board draws.
  figures(r) {
    const kind = this.mapKind(r);
    const out = [];
    for (const p of r.places || []) {
      if (p.kind !== kind) continue;
      for (const f of p.figures) if (!out.includes(f.name)) out.push(f.name);
    }
    return out;
  }

  mapKind(r) {
    if (r.map) return r.map.kind;
    return this.ed.kind === "rulebook" ? "tile" : this.ed.kind === "party" ? "space" : null;
  }

  most(r) {
    const kind = this.mapKind(r);
    let most = 0;
    for (const p of r.places || []) {
      if (p.kind !== kind) continue;
      const f = p.figures.find((x) => x.name === this.figure);
      if (f) most = Math.max(most, f.perGame);
    }
    return most;
  }

  // values maps the board's ids to the chosen figure per game.
  values(r) {
    const kind = this.mapKind(r);
    const out = new Map();
    for (const p of r.places || []) {
      if (p.kind !== kind) continue;
      const f = p.figures.find((x) => x.name === this.figure);
      if (f) out.set(p.id, { name: p.name, value: f.perGame });
    }
    return out;
  }

  // paint colours the editor's board (a party board's spaces, a rule
  // book's tiles) by the chosen figure.
  paint(boardEl) {
    const a = this.answer;
    const shapes = boardEl.querySelectorAll(".space[data-space], .tile[data-tile]");
    for (const g of shapes) {
      g.querySelector(".heat-value")?.remove();
      const shape = g.querySelector("circle, .face");
      if (!shape) continue;
      if (shape.dataset.fill === undefined) {
        shape.dataset.fill = shape.getAttribute("fill") || "";
        shape.dataset.opacity = shape.getAttribute("fill-opacity") || "1";
      }
      shape.setAttribute("fill", shape.dataset.fill);
      shape.setAttribute("fill-opacity", shape.dataset.opacity);
      const title = g.querySelector("title");
      if (title?.dataset.text !== undefined) title.textContent = title.dataset.text;
      for (const t of g.querySelectorAll("text")) {
        if (t.dataset.ink === undefined) t.dataset.ink = t.getAttribute("fill") || "";
        t.setAttribute("fill", t.dataset.ink);
      }
      g.classList.remove("heated", "moved");
    }
    if (!a || !this.figure || this.ed.kind === "source") return;
    const values = this.values(a.report), most = this.most(a.report);
    const kind = this.mapKind(a.report);
    const moved = new Map((this.pinned ? a.changes || [] : [])
      .filter((c) => c.what === "places" && c.kind === kind && c.figure === this.figure && c.beyond).map((c) => [c.id, c.difference]));
    for (const g of shapes) {
      const id = g.dataset.space ?? g.dataset.tile;
      const d = moved.get(id);
      g.classList.toggle("moved", d !== undefined);
      const v = values.get(id)?.value || 0;
      const { fill, ink } = heat(most > 0 ? Math.sqrt(v / most) : 0);
      const shape = g.querySelector("circle, .face");
      if (!shape) continue;
      shape.setAttribute("fill", fill);
      if (shape.classList.contains("face")) shape.setAttribute("fill-opacity", "0.92");
      for (const t of g.querySelectorAll("text")) t.setAttribute("fill", ink);
      g.classList.add("heated");
      // The value, under the name.
      const box = shape.getBBox();
      const size = Math.max(9, Math.min(box.width, box.height) * 0.24);
      g.append(svg("text", { class: "heat-value", x: box.x + box.width / 2, y: box.y + box.height * 0.84, "font-size": size, "font-weight": 700,
        fill: ink, "text-anchor": "middle", "dominant-baseline": "middle", "aria-hidden": "true" }, fmtNum(v, 2) + (d === undefined ? "" : d > 0 ? "▲" : "▼")));
      const title = g.querySelector("title");
      if (title) {
        if (title.dataset.text === undefined) title.dataset.text = title.textContent;
        title.textContent = `${title.dataset.text}\n${fmtNum(v, 2)} ${this.figure} per game` +
          (d === undefined ? "" : `, ${d > 0 ? "up" : "down"} ${fmtNum(Math.abs(d), 2)} from the pinned version, beyond the noise`);
      }
    }
  }

  // mapDrawing draws the report's map of the board, for a game the editor
  // shows as its source.
  mapDrawing(r) {
    const m = r.map;
    if (!m || !m.shapes?.length || !this.figure) return null;
    const values = this.values(r), most = this.most(r);
    const pad = 30;
    const xs = m.shapes.flatMap((s) => [s.x - s.w / 2, s.x + s.w / 2]);
    const ys = m.shapes.flatMap((s) => [s.y - s.h / 2, s.y + s.h / 2]);
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const w = Math.max(...xs) + pad - minX, hgt = Math.max(...ys) + pad - minY;
    const root = svg("svg", { class: "heat-map", id: "heat-map", viewBox: `${minX} ${minY} ${w} ${hgt}`, role: "img", "aria-label": `${this.figure} per game on the board` },
      svg("defs", {}, svg("marker", { id: "heat-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#555" }))));
    const byID = new Map(m.shapes.map((s) => [s.id, s]));
    for (const l of m.links || []) {
      const a = byID.get(l.from), b = byID.get(l.to);
      if (!a || !b || a === b) continue;
      const [x1, y1] = edge(a, b), [x2, y2] = edge(b, a);
      root.append(svg("line", { x1, y1, x2, y2, stroke: "#555", "stroke-width": 2, "marker-end": "url(#heat-arrow)", "marker-start": l.both ? "url(#heat-arrow)" : null }));
    }
    for (const s of m.shapes) {
      const v = values.get(s.id)?.value || 0;
      const { fill, ink } = heat(most > 0 ? Math.sqrt(v / most) : 0);
      const name = s.name || s.id;
      const size = Math.min(s.w, s.h);
      root.append(svg("g", { "data-place": s.id },
        svg("title", {}, `${name}: ${fmtNum(v, 2)} ${this.figure} per game`),
        s.round ? svg("ellipse", { cx: s.x, cy: s.y, rx: s.w / 2, ry: s.h / 2, fill, stroke: "#3a3a3a", "stroke-width": 1.5 })
          : svg("rect", { x: s.x - s.w / 2, y: s.y - s.h / 2, width: s.w, height: s.h, fill, stroke: "#3a3a3a", "stroke-width": 1 }),
        size >= 14 && v ? svg("text", { x: s.x, y: s.y, fill: ink, "font-size": Math.min(13, size / 3), "text-anchor": "middle", "dominant-baseline": "middle" }, fmtNum(v, size >= 40 ? 2 : 1)) : null));
    }
    return h("figure", { class: "heat-figure" }, root);
  }

  // changes lists the figures that moved against the pinned version: the
  // headline ones (win rates, length) first, then the board's places
  // whose move is beyond the noise; the others on demand.
  changes(a) {
    const all = a.changes || [];
    const head = h("h3", {}, "Against the pinned version", h("span", { class: "hint" }, ` (${this.pinned.at})`));
    if (a.against) return h("div", { class: "changes", id: "changes" }, head, h("p", { class: "error" }, a.against));
    if (!all.length) return h("div", { class: "changes", id: "changes" }, head, h("p", { class: "hint" }, "Nothing moved: edit the game to see what a change does."));
    const kind = this.mapKind(a.report);
    const headline = all.filter((c) => c.what !== "places");
    const board = all.filter((c) => c.what === "places" && c.kind === kind);
    const others = all.filter((c) => c.what === "places" && c.kind !== kind);
    // The figure the board is coloured by first, so that the rows and the
    // outlined spaces tell the same story.
    const first = [...board.filter((c) => c.figure === this.figure), ...board.filter((c) => c.figure !== this.figure)];
    const shown = [...headline, ...first.filter((c) => c.beyond).slice(0, BOARD_ROWS)];
    const rest = first.filter((c) => !shown.includes(c));
    const beyond = all.filter((c) => c.beyond).length;
    const row = (c) => h("tr", { class: c.beyond ? "beyond" : "within", dataset: { what: c.what, name: c.name, figure: c.figure } },
      h("th", { scope: "row" }, changeLabel(c)),
      h("td", { dataset: { label: "pinned" } }, estimate(c, c.before, c.beforeLow, c.beforeHigh)),
      h("td", { dataset: { label: "draft" } }, estimate(c, c.after, c.afterLow, c.afterHigh)),
      h("td", { class: "diff" }, signed(c), " ", h("span", { class: "flag" }, c.beyond ? "beyond the noise" : "within the noise")));
    const table = (rows) => h("table", { class: "changes-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Figure"), h("th", { scope: "col" }, "Pinned"), h("th", { scope: "col" }, "Draft"), h("th", { scope: "col" }, "Change"))),
      h("tbody", {}, rows.map(row)));
    const more = (rows, what) => {
      if (!rows.length) return null;
      const n = rows.filter((c) => c.beyond).length;
      return h("details", {}, h("summary", {}, `${what}: ${rows.length} more moved, ${n} beyond the noise`), table(rows));
    };
    const otherKinds = [...new Set(others.map((c) => c.kind))].join(", ");
    return h("div", { class: "changes", id: "changes" }, head,
      h("p", { class: beyond ? "" : "hint" }, beyond
        ? `${beyond} of the ${all.length} figures that moved did so beyond the noise: their 95% intervals do not overlap the pinned ones.`
        : `${all.length} figures moved, none beyond the noise: every interval overlaps its pinned one.`),
      table(shown),
      more(rest, kind ? `The board's ${kind}s` : "Places"),
      more(others, otherKinds.charAt(0).toUpperCase() + otherKinds.slice(1)));
  }

  // tables lists every place's figures, by kind.
  tables(r) {
    const kinds = [];
    for (const p of r.places || []) if (!kinds.includes(p.kind)) kinds.push(p.kind);
    if (!kinds.length) return null;
    return h("details", { class: "place-tables" }, h("summary", {}, "Every figure, per game"),
      kinds.map((k) => {
        const places = r.places.filter((p) => p.kind === k);
        const figs = places[0].figures.map((f) => f.name);
        return h("table", { class: "places-table" },
          h("caption", {}, k),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), figs.map((f) => h("th", { scope: "col" }, f)))),
          h("tbody", {}, places.map((p) => h("tr", {}, h("th", { scope: "row" }, p.name || p.id),
            figs.map((f) => h("td", {}, fmtNum(p.figures.find((x) => x.name === f)?.perGame || 0, 2)))))));
      }));
  }
}

// heat is the colour of t in [0, 1] on the reports' white–yellow–red scale,
// and the colour of text written on it.
export function heat(t) {
  const stops = [[255, 255, 240], [255, 237, 160], [254, 178, 76], [240, 59, 32], [150, 0, 30]];
  t = Math.max(0, Math.min(1, t));
  const x = t * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  const c = stops[i].map((v, k) => Math.round(v + f * (stops[i + 1][k] - v)));
  return { fill: `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`, ink: t > 0.62 ? "#fff" : "#222" };
}

// edge is the point where the line from shape a's centre to b's leaves a.
function edge(a, b) {
  const dx = b.x - a.x, dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  let t;
  if (a.round) t = 1 / Math.hypot(ux / (a.w / 2), uy / (a.h / 2));
  else t = Math.min(ux ? a.w / 2 / Math.abs(ux) : Infinity, uy ? a.h / 2 / Math.abs(uy) : Infinity);
  return [a.x + ux * t, a.y + uy * t];
}

function rateBar(s, fair) {
  const bar = h("span", { class: "bar", "aria-hidden": "true" },
    h("span", { class: "fill", style: `width:${(s.winRate * 100).toFixed(1)}%` }),
    h("span", { class: "interval", style: `left:${(s.low * 100).toFixed(1)}%;width:${((s.high - s.low) * 100).toFixed(1)}%` }),
    h("span", { class: "fair", style: `left:${(fair * 100).toFixed(1)}%` }));
  return bar;
}

// changeLabel names a change of package sim's comparison.
function changeLabel(c) {
  switch (c.what) {
    case "wins": return `${c.name}: ${c.figure}`;
    case "games": return `Games ${c.figure}`;
    case "length": return `Game length: ${c.figure.replace(" (mean)", "")} per game`;
    default: return `${c.name || c.id}: ${c.figure} per game`;
  }
}

// isShare: the change is a rate, shown in per cent.
const isShare = (c) => c.what === "wins" || c.what === "games";

function estimate(c, v, low, high) {
  const f = isShare(c) ? pct : (x) => fmtNum(x, 2);
  return [f(v), h("small", {}, ` ${f(low)}–${f(high)}`)];
}

function signed(c) {
  const d = c.difference;
  const s = isShare(c) ? `${(Math.abs(d) * 100).toFixed(1)} pts` : fmtNum(Math.abs(d), 2);
  return `${d > 0 ? "+" : d < 0 ? "−" : "±"}${s}`;
}

const pct = (v) => `${(v * 100).toFixed(1)}%`;
const fmtInt = (n) => Number(n).toLocaleString("en");
const fmtNum = (v, d) => Number(v).toFixed(d);
