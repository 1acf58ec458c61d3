// The drone lane board as HTML: both sides' three lanes with their drones,
// the ships' sections behind them, each side's energy, budget, CPU, deck,
// discard, threat and damage, and the hands (the viewer's face up, every
// other one as card backs). Everything a player may choose carries a
// data-key naming it the way the page's choices do (see lanes.js).
import { h, colour } from "./util.js";

// Lanes is how many lanes a side has.
export const LANES = 3;

// sides returns the seats shown at the top and at the bottom: the
// viewer's own side at the bottom (a spectator sees the first seat there).
function sides(v) {
  const bottom = v.you === 1 ? 1 : 0;
  return { top: 1 - bottom, bottom };
}

// renderBoard draws the whole board of a view; drawing is the pack's
// drawing of the game (drones' abilities, sections' descriptions), used
// only for tooltips.
export function renderBoard(v, drawing) {
  const { top, bottom } = sides(v);
  const kinds = new Map((drawing?.drones || []).map((d) => [d.name, d]));
  const sectionInfo = new Map((drawing?.sections || []).map((s) => [s.name, s]));
  const lanes = [];
  for (let lane = 1; lane <= LANES; lane++) {
    lanes.push(h("section", { class: "lane", dataset: { lane }, "aria-label": `Lane ${lane}` },
      h("h3", { class: "lane-title" }, `Lane ${lane}`),
      sectionEl(v, top, lane, sectionInfo, "top"),
      dronesRow(v, top, lane, kinds, "top"),
      h("div", { class: "lane-divider", "aria-hidden": "true" }),
      dronesRow(v, bottom, lane, kinds, "bottom"),
      sectionEl(v, bottom, lane, sectionInfo, "bottom")));
  }
  return [
    sideEl(v, top, "top"),
    h("div", { class: "lane-grid" }, lanes),
    sideEl(v, bottom, "bottom"),
  ];
}

// status says where the game stands: the round, the phase and whose turn
// it is, or how it ended.
export function statusText(v, name) {
  if (v.phase === "over") {
    const o = v.outcome || {};
    return `Game over after ${plural(o.rounds || v.round, "round")}: ${o.reason || "no winner"}.`;
  }
  const rounds = v.maxRounds ? `Round ${v.round} of ${v.maxRounds}` : `Round ${v.round}`;
  const phase = v.phase === "deployment" ? "Deployment" : "Action phase";
  const who = v.turn === v.you ? "your turn" : `${name(v.turn)}'s turn`;
  return `${rounds} · ${phase} · ${who}`;
}

function sideEl(v, seat, where) {
  const p = v.players[seat];
  const you = seat === v.you;
  const stat = (cls, label, value, title) => h("span", { class: "stat " + cls, title }, h("span", { class: "stat-label" }, label), " ", h("strong", {}, value));
  const danger = v.damageToLose ? Math.min(1, p.damage / v.damageToLose) : 0;
  const info = h("div", { class: "side-info", dataset: { seat } },
    h("span", { class: "side-name" }, h("span", { class: "dot", style: `background:${colour(seat)}`, "aria-hidden": "true" }),
      p.name, you ? " (you)" : "", v.turn === seat && v.phase !== "over" ? h("span", { class: "badge turn-badge" }, "to play") : null,
      p.passed && v.phase !== "over" ? h("span", { class: "badge" }, "passed") : null),
    stat("energy", "energy", `${p.energy}/${p.maxEnergy}`, `energy now and its maximum (${p.energyPerRound} a round)`),
    stat("budget", "budget", String(p.budget), "what is left of the deployment budget this round"),
    stat("cpu", "CPU", `${p.cpu}/${p.cpuLimit}`, "drones on the board that count, and the limit"),
    stat("deck", "deck", String(p.deckCount), "cards in the deck"),
    stat("discard", "discard", String(p.discardCount), "cards in the discard pile"),
    stat("threat", "threat", String(p.threat), "threat"),
    h("span", { class: "stat damage" + (danger >= 0.75 ? " danger" : ""), title: `ship damage, and the damage that loses the game` },
      h("span", { class: "stat-label" }, "damage"), " ", h("strong", {}, `${p.damage}/${v.damageToLose}`),
      h("span", { class: "meter", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(danger * 100)}%` }))));
  const hand = p.hand ? handEl(p) : backsEl(p);
  return h("section", { class: `side side-${where}`, dataset: { seat }, "aria-label": `${p.name}'s side${you ? " (yours)" : ""}` },
    info, hand);
}

// handEl is the viewer's own hand, face up: each card a button.
function handEl(p) {
  if (!p.hand.length) return h("div", { class: "hand empty", "aria-label": "your hand" }, h("p", { class: "hint" }, "Your hand is empty."));
  return h("div", { class: "hand", role: "group", "aria-label": `your hand: ${plural(p.hand.length, "card")}` },
    p.hand.map((c) => h("button", { type: "button", class: `card type-${c.type}`, dataset: { key: "card:" + c.name, card: c.name },
      "aria-label": `${c.title}: costs ${c.cost} energy, ${c.type}${c.subType ? " " + c.subType : ""}. ${c.text} ${targetingText(c)}` },
      h("span", { class: "card-cost", title: "energy cost" }, String(c.cost)),
      h("span", { class: "card-title" }, c.title),
      h("span", { class: "card-type" }, c.type, c.subType ? ` · ${c.subType}` : ""),
      h("span", { class: "card-text" }, c.text),
      h("span", { class: "card-target" }, targetingText(c), c.goAgain ? h("span", { class: "go-again" }, " · go again") : null))));
}

// backsEl is a hand the viewer may not see: as many card backs as cards.
function backsEl(p) {
  const n = p.handCount;
  return h("div", { class: "hand backs", dataset: { count: n }, "aria-label": `${p.name}'s hand: ${plural(n, "card")}` },
    h("span", { class: "backs-row", "aria-hidden": "true" }, Array.from({ length: Math.min(n, 12) }, () => h("span", { class: "card-back" }))),
    h("span", { class: "backs-count" }, plural(n, "card")));
}

// targetingText says in words what a card is played on.
export function targetingText(c) {
  const a = { FRIENDLY: "a friendly", ENEMY: "an enemy" }[c.affinity] || "a";
  const kind = { FRIENDLY: "friendly ", ENEMY: "enemy " }[c.affinity] || "";
  switch (c.targeting) {
    case "LANE": return `→ ${a} lane`;
    case "DRONE": return `→ ${a} drone${c.movesTarget ? ", then a lane" : ""}`;
    case "DRONES": return `→ up to ${c.moves || 1} ${kind}drones of a lane, then a lane`;
    default: return "no target";
  }
}

function sectionEl(v, seat, lane, info, where) {
  const s = v.players[seat].sections[lane - 1];
  if (!s) return h("div", { class: `ship-section missing ${where}` });
  const pct = s.maxHull ? Math.max(0, Math.round((s.hull / s.maxHull) * 100)) : 0;
  const desc = info.get(s.name)?.description;
  return h("button", { type: "button", class: `ship-section ${where} status-${s.status}`, tabindex: "-1",
    dataset: { key: `section:${seat}:${s.name}`, seat, section: s.name, lane },
    title: desc ? `${s.name}: ${desc}` : s.name,
    "aria-label": `${v.players[seat].name}'s ${s.name}: hull ${s.hull} of ${s.maxHull}, shields ${s.shields} of ${s.maxShields}, ${s.status}` },
  h("span", { class: "s-name" }, s.name),
  h("span", { class: "s-status" }, s.status),
  h("span", { class: "s-hull" }, h("span", { class: "meter", "aria-hidden": "true" }, h("span", { style: `width:${pct}%` })),
    icon("hull", "hull", `${s.hull}/${s.maxHull}`)),
  icon("sh", "shields", `${s.shields}/${s.maxShields}`));
}

function dronesRow(v, seat, lane, kinds, where) {
  const drones = v.players[seat].lanes[lane - 1] || [];
  const who = v.players[seat].name;
  return h("div", { class: `drones ${where}`, dataset: { seat, lane }, style: `--seat:${colour(seat)}` },
    drones.map((d) => droneEl(d, seat, kinds)),
    h("button", { type: "button", class: "lane-target", hidden: true, tabindex: "-1", dataset: { key: `lane:${seat}:${lane}`, seat, lane } },
      `lane ${lane}`, h("span", { class: "lane-owner" }, ` (${who})`)));
}

// droneEl is a drone: its label, attack, hull, shields, speed, whether it
// is exhausted or marked, and its modifiers.
export function droneEl(d, seat, kinds) {
  const kind = kinds?.get(d.kind);
  const abilities = (kind?.abilities || []).map((a) => `${a.name}: ${a.description}`).join("\n");
  const mods = modifiers(d.modifiers || []);
  const flags = [d.exhausted ? "exhausted" : "", d.marked ? "marked" : "", d.token ? "token" : ""].filter(Boolean);
  const label = `${d.name}: attack ${d.attack}, hull ${d.hull} of ${d.maxHull}, shields ${d.shields} of ${d.maxShields}, speed ${d.speed}` +
    (flags.length ? ", " + flags.join(", ") : "") + (mods.length ? "; " + mods.join(", ") : "");
  const cls = ["drone", d.exhausted && "exhausted", d.marked && "marked", d.token && "token", d.hull < d.maxHull && "hurt"].filter(Boolean).join(" ");
  return h("button", { type: "button", class: cls, tabindex: "-1", dataset: { key: "drone:" + d.name, drone: d.name, seat, lane: d.lane },
    style: `--seat:${colour(seat)}`, title: abilities ? `${d.name}\n${abilities}` : d.name, "aria-label": label },
  h("span", { class: "d-name" }, d.name, d.marked ? h("span", { class: "d-mark", title: "marked" }, " ◎") : null),
  h("span", { class: "d-stats" },
    icon("atk", "attack", d.attack),
    icon("hull", "hull", `${d.hull}/${d.maxHull}`),
    icon("sh", "shields", `${d.shields}/${d.maxShields}`),
    icon("spd", "speed", d.speed)),
  d.exhausted ? h("span", { class: "d-flag" }, "exhausted") : null,
  mods.length ? h("span", { class: "d-mods" }, mods.join(", ")) : null);
}

// modifiers says a drone's modifiers, those of a stat for the same time
// summed: "+3 attack, +2 attack (this round)".
function modifiers(list) {
  const sums = new Map();
  for (const m of list) {
    const key = `${m.stat}${m.temporary ? " (this round)" : ""}`;
    sums.set(key, (sums.get(key) || 0) + m.value);
  }
  return [...sums].filter(([, n]) => n !== 0).map(([key, n]) => `${n > 0 ? "+" : ""}${n} ${key}`);
}

// icon is a stat with its picture (drawn by the style sheet, so that no
// font is needed) and its name for tooltips.
export function icon(kind, name, value) {
  return h("span", { class: `ico ${kind}`, title: name }, String(value));
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
