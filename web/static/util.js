// Small helpers shared by the page's modules.

// h builds an element: h("button", {class: "x", onclick: f}, "text", child…).
// A boolean attribute is written when true and left out when false, except
// ARIA states, which say "true" or "false" as ARIA wants.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k.startsWith("aria-")) {
      el.setAttribute(k, String(v));
      continue;
    }
    if (v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// svg builds an SVG element the same way.
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// api calls the server's JSON API and throws an Error carrying the
// server's message (and diagnostics, for boards) when it fails. body is
// sent as JSON; raw, if given, is sent as it is (a game file's text, or a
// Blob: a zip archive).
export async function api(method, path, body, raw) {
  const opts = { method, headers: {} };
  if (raw !== undefined) {
    opts.headers["Content-Type"] = raw instanceof Blob ? raw.type || "application/octet-stream" : "application/json";
    opts.body = raw;
  } else if (body instanceof FormData) {
    opts.body = body;
  } else if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error || `${res.status} ${res.statusText}`);
    err.diagnostics = data.diagnostics || [];
    err.status = res.status;
    throw err;
  }
  return data;
}

// The secrets a browser holds for a match: the seat it plays and, for the
// match's creator, the owner secret. They survive reloads.
export function secrets(matchID) {
  try {
    return JSON.parse(localStorage.getItem("tabula:" + matchID)) || {};
  } catch {
    return {};
  }
}

export function saveSecrets(matchID, s) {
  const prev = secrets(matchID);
  localStorage.setItem("tabula:" + matchID, JSON.stringify({ ...prev, ...s, since: prev.since || Date.now() }));
}

// heldMatches lists the matches this browser holds secrets for (a seat's
// token, the owner's secret or an invitation), newest first: "My matches".
export function heldMatches() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^tabula:([0-9a-f]{12})$/);
    if (!m) continue;
    const s = secrets(m[1]);
    if (s.token || s.owner || s.invite) out.push({ id: m[1], ...s });
  }
  return out.sort((a, b) => (b.since || 0) - (a.since || 0));
}

// forgetMatch drops what this browser holds for a match.
export function forgetMatch(matchID) {
  localStorage.removeItem("tabula:" + matchID);
}

// The secrets of the games this browser saved to the library, by game id:
// whoever saved a game may rename and delete it.
export function gameSecrets() {
  try {
    return JSON.parse(localStorage.getItem("tabula:games")) || {};
  } catch {
    return {};
  }
}

export function saveGameSecret(id, secret) {
  const all = gameSecrets();
  if (secret) all[id] = secret;
  else delete all[id];
  localStorage.setItem("tabula:games", JSON.stringify(all));
}

// secretQuery is the query string that gives the server a match's
// secrets (and any extra parameters).
export function secretQuery(s, extra = {}) {
  const q = new URLSearchParams();
  for (const k of ["token", "owner", "invite"]) if (s[k]) q.set(k, s[k]);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  const text = q.toString();
  return text ? "?" + text : "";
}

// Player colours, by seat: dark enough for white text on them.
export const colours = ["#d62839", "#1d6fd6", "#23803a", "#b86e00", "#8e44ad", "#0f8585", "#c2255c", "#6b4f2a", "#555", "#d9480f", "#4b0082", "#2f4f4f"];

export function colour(seat) {
  return colours[seat % colours.length];
}

export function diceFace(n) {
  return n >= 1 && n <= 6 ? "⚀⚁⚂⚃⚄⚅"[n - 1] : String(n);
}

// wrap breaks a label into at most three lines of about width characters.
export function wrap(text, width) {
  const words = String(text).split(/\s+/);
  const lines = [];
  let cur = "";
  for (const w of words) {
    if (cur && (cur + " " + w).length > width) {
      lines.push(cur);
      cur = w;
    } else {
      cur = cur ? cur + " " + w : w;
    }
  }
  if (cur) lines.push(cur);
  return lines.slice(0, 3);
}

// token is a player's token on a board: a disc of the seat's colour with
// the seat's number, the same as beside the name in the players' list, so
// that Bob, Bot 1 and Bot 2 are told apart by more than their colour.
export function token(p, r = 11) {
  return svg("g", { class: "token", "data-seat": p.seat },
    svg("circle", { r, fill: colour(p.seat), stroke: "#fff", "stroke-width": r / 4.4 }),
    svg("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": r * 1.05, "font-weight": 700, fill: "#fff" }, String(p.seat + 1)),
    svg("title", {}, `${p.name} (seat ${p.seat + 1})`));
}

// seatDot is the disc beside a player's name: the seat's colour and number,
// as their token on the board shows them.
export function seatDot(seat) {
  return h("span", { class: "dot seat-dot", style: `background:${colour(seat)}`, "aria-hidden": "true" }, String(seat + 1));
}

// ago says how long ago a time was, in words ("3 min ago").
export function ago(when, now = Date.now()) {
  const s = Math.max(0, Math.round((now - new Date(when).getTime()) / 1000));
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const hrs = Math.round(m / 60);
  if (hrs < 24) return `${hrs} h ago`;
  const d = Math.round(hrs / 24);
  return d === 1 ? "yesterday" : `${d} days ago`;
}

// plural writes a count with its noun: plural(1, "seat") is "1 seat".
export function plural(n, word, words = word + "s") {
  return `${n} ${n === 1 ? word : words}`;
}

// showDice shows dice faces at the start of a page's controls, rolling
// them if asked.
export function showDice(controls, values, rolling) {
  let d = controls.querySelector(".dice");
  if (!d) {
    d = h("div", { class: "dice", id: "dice", "aria-live": "polite" });
    controls.prepend(d);
  }
  d.replaceChildren(...values.map((n) => h("span", { class: "die" + (rolling ? " rolling" : "") }, diceFace(n))));
  d.title = `rolled ${values.reduce((a, b) => a + b, 0)}`;
}

// Packs in the order the lobby and the editor show them, with their names
// for people and a line about each.
export const packs = [
  ["party", "Party boards", "Race round a board where every space makes something happen: drinks, dares, shortcuts."],
  ["rulebook", "Classic board games", "Roll, draw and race: Chutes and Ladders, Candy Land, a Monopoly-like game, and games like them."],
  ["lanes", "Drone lanes", "A two-player card game of drones fighting in three lanes."],
  ["skirmish", "Skirmishes", "Small fights on a map, turn by turn: your creatures against theirs, with dice."],
  ["pieces", "Games of pieces", "Race your pieces round the board and home: Trouble, and boards where each player moves several pieces."],
];
