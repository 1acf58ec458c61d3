// Small helpers shared by the page's modules.

// h builds an element: h("button", {class: "x", onclick: f}, "text", child…).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
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
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// api calls the server's JSON API and throws an Error carrying the
// server's message (and diagnostics, for boards) when it fails. body is
// sent as JSON; raw, if given, is sent as it is (a game file's text).
export async function api(method, path, body, raw) {
  const opts = { method, headers: {} };
  if (raw !== undefined) {
    opts.headers["Content-Type"] = "application/json";
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
  localStorage.setItem("tabula:" + matchID, JSON.stringify({ ...secrets(matchID), ...s }));
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

// Player colours, by seat.
export const colours = ["#e63946", "#1d70d6", "#2a9d3f", "#f4a30b", "#8e44ad", "#12a6a6", "#d6336c", "#6b4f2a", "#555", "#ff7f50", "#4b0082", "#2f4f4f"];

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
// the name's initial.
export function token(p) {
  return svg("g", { class: "token", "data-seat": p.seat },
    svg("circle", { r: 11, fill: colour(p.seat), stroke: "#fff", "stroke-width": 2.5 }),
    svg("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 11, fill: "#fff" }, (p.name || "?").slice(0, 1).toUpperCase()),
    svg("title", {}, p.name));
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
