// The board in the editor: a rule book's tiles or a party board's spaces,
// with their connections and (party) events. The board is drawn as it
// plays; click a tile or space to edit it, drag it to move it.
import { h } from "./util.js";
import { field, wrapField, textInput, commitInput, pointer, priorityDocs } from "./forms.js";
import { moveButtons } from "./editor-rules.js";

// --- party boards: v1 and v3 (and v2, flat) spell a space differently ---

// The members that make a board without "metadata" the flat v2 format, as
// the loader tells it (games/party/load_v2.go).
const v2Top = ["version", "name", "author", "description", "howToPlay", "notes", "created", "modified", "tags", "gameEngine", "renderConfig", "requiredPlugins"];
const v2Rules = ["minPlayers", "maxPlayers", "startingPositions", "recommendedPlayers"];

// isV2 reports whether a board is in the flat v2 format: no metadata, and
// v2 members at its top, a flat gameRules, or v3-style spaces only.
export function isV2(doc) {
  if ("metadata" in doc) return false;
  if (v2Top.some((k) => k in doc)) return true;
  const gr = doc.gameRules;
  if (gr && typeof gr === "object" && v2Rules.some((k) => k in gr)) return true;
  let v1 = false, v2 = false;
  for (const s of Array.isArray(doc.spaces) ? doc.spaces : []) {
    if (!s || typeof s !== "object") continue;
    if ("events" in s || "visualDetails" in s) v1 = true;
    if ("triggers" in s || "position" in s || "visual" in s) v2 = true;
  }
  return v2 && !v1;
}

// partyShape returns how a party board spells its spaces, and where its
// name and description are (metaPtr: their parent's pointer).
export function partyShape(doc) {
  const v3 = doc.type === "game" || (doc.board && doc.board.topology);
  if (!v3 && isV2(doc)) {
    doc.spaces ||= [];
    return {
      spaces: doc.spaces, base: pointer("spaces"), events: "triggers", trigger: "when", draw: "draw",
      x: (s) => s.position?.x ?? 0, y: (s) => s.position?.y ?? 0, visual: (s) => (s.visual ||= {}),
      setXY: (s, x, y) => { s.position = { ...(s.position || {}), x, y }; }, xyPtr: "position", visualKey: "visual",
      meta: () => doc, metaPtr: "",
    };
  }
  if (v3) {
    doc.board ||= {};
    doc.board.topology ||= {};
    doc.board.topology.spaces ||= [];
    return {
      spaces: doc.board.topology.spaces, base: pointer("board", "topology", "spaces"), events: "triggers", trigger: "when", draw: "draw",
      x: (s) => s.position?.x ?? 0, y: (s) => s.position?.y ?? 0, visual: (s) => (s.visual ||= {}),
      setXY: (s, x, y) => { s.position = { ...(s.position || {}), x, y }; }, xyPtr: "position", visualKey: "visual",
      meta: () => (doc.metadata ||= {}), metaPtr: "/metadata",
    };
  }
  doc.spaces ||= [];
  return {
    spaces: doc.spaces, base: pointer("spaces"), events: "events", trigger: "trigger", draw: "drawConnection",
    x: (s) => s.visualDetails?.x ?? 0, y: (s) => s.visualDetails?.y ?? 0, visual: (s) => (s.visualDetails ||= {}),
    setXY: (s, x, y) => { s.visualDetails = { ...(s.visualDetails || {}), x, y }; }, xyPtr: "visualDetails", visualKey: "visualDetails",
    meta: () => (doc.metadata ||= {}), metaPtr: "/metadata",
  };
}

// partyDrawing turns a party board file into what BoardView draws.
export function partyDrawing(doc) {
  const sh = partyShape(doc);
  return {
    render: doc.metadata?.renderConfig || doc.board?.rendering || doc.renderConfig || {},
    spaces: sh.spaces.map((s) => {
      const v = sh.visual(s);
      return {
        id: String(s.id), name: s.name || String(s.id), type: s.type || "",
        visual: { X: sh.x(s), Y: sh.y(s), Size: v.size || 60, Color: v.color, TextColor: v.textColor, BorderColor: v.borderColor, BorderWidth: v.borderWidth },
        connections: (s.connections || []).map((c) => ({ target: String(c.targetId), draw: c[sh.draw] !== false })),
        events: (s[sh.events] || []).map((e) => ({ trigger: e[sh.trigger]?.type || "?", action: e.action?.type || "?", priority: e.priority || "MID" })),
      };
    }),
  };
}

// spacesPanel edits a party board's spaces: the selected one in full (its
// place, look, connections and events), the others as a list.
export function spacesPanel(ed) {
  const sh = partyShape(ed.doc);
  const i = sh.spaces.findIndex((s) => String(s.id) === ed.selected);
  const list = h("ul", { class: "item-list" }, sh.spaces.map((s, j) =>
    h("li", { class: j === i ? "selected" : "", dataset: { ptr: `${sh.base}/${j}` } },
      h("button", { type: "button", class: "link", onclick: () => ed.select(String(s.id)) }, `${s.name || s.id}`, h("small", {}, ` ${s.id}`)),
      h("ul", { class: "msgs" }))));
  const add = h("button", { type: "button", id: "add-space", onclick: () => {
    const ids = new Set(sh.spaces.map((s) => String(s.id)));
    let n = sh.spaces.length + 1;
    while (ids.has(String(n))) n++;
    const from = sh.spaces[i];
    const s = { id: String(n), name: `Space ${n}`, connections: [], [sh.events]: [] };
    sh.setXY(s, from ? sh.x(from) + 120 : 100, from ? sh.y(from) : 100);
    sh.visual(s).size = 60;
    if (from) (from.connections ||= []).push({ targetId: s.id });
    sh.spaces.push(s);
    ed.selected = String(s.id);
    ed.changed(true);
  } }, i >= 0 ? "+ Add a space after this one" : "+ Add a space");
  return h("div", { class: "panel" },
    i >= 0 ? spaceForm(ed, sh, sh.spaces[i], i) : h("p", { class: "hint" }, "Click a space on the board to edit it; drag it to move it."),
    h("div", { class: "add-row" }, add),
    h("h3", {}, `Spaces (${sh.spaces.length})`), list);
}

function spaceForm(ed, sh, s, i) {
  const ptr = `${sh.base}/${i}`;
  const cat = ed.partyCatalog;
  const set = (obj, key) => (v) => {
    if (v === undefined) delete obj[key];
    else obj[key] = v;
    ed.changed(false);
  };
  const ids = sh.spaces.map((x) => String(x.id));
  const vis = sh.visual(s);
  // A new id is taken when it is committed (the box is left, or Enter is
  // pressed), and only the references to the old id follow it: the
  // connections to this space and the teleports to it.
  const idIn = commitInput(s.id, (v) => {
    const id = v.trim();
    const old = String(s.id);
    if (id === "") return "A space needs an id.";
    if (id !== old && ids.includes(id)) return `Another space has the id ${id}: choose one no other space has.`;
    if (id === old) return "";
    s.id = id;
    for (const o of sh.spaces) {
      for (const c of o.connections || []) if (String(c.targetId) === old) c.targetId = id;
      for (const e of o[sh.events] || []) {
        if (e.action?.type === "SET_PLAYER_SPACE" && String(e.action.payload?.spaceId) === old) e.action.payload.spaceId = id;
      }
    }
    ed.selected = id;
    ed.changed(true);
    return "";
  });
  const form = h("div", { class: "card selected-item", dataset: { ptr } },
    h("div", { class: "item-head" }, h("h3", {}, `Space ${s.name || s.id}`),
      h("button", { type: "button", class: "icon delete", title: "delete this space", "aria-label": `delete the space ${s.name || s.id}`, onclick: () => {
        if (!confirm(`Delete the space ${s.name || s.id}?`)) return;
        sh.spaces.splice(i, 1);
        for (const o of sh.spaces) o.connections = (o.connections || []).filter((c) => String(c.targetId) !== String(s.id));
        ed.selected = null;
        ed.changed(true);
      } }, "✕")),
    h("ul", { class: "msgs" }),
    h("div", { class: "fields" },
      wrapField(ptr + "/id", h("label", { class: "field-label" }, "id"), idIn, "changed when you leave the box or press Enter"),
      field({ name: "name", type: "text" }, s.name, set(s, "name"), ptr + "/name"),
      field({ name: "type", type: "text", doc: "start, end, action…" }, s.type, set(s, "type"), ptr + "/type"),
      field({ name: "x", type: "number" }, sh.x(s), (v) => { sh.setXY(s, v ?? 0, sh.y(s)); ed.changed(false); }, `${ptr}/${sh.xyPtr}/x`),
      field({ name: "y", type: "number" }, sh.y(s), (v) => { sh.setXY(s, sh.x(s), v ?? 0); ed.changed(false); }, `${ptr}/${sh.xyPtr}/y`),
      field({ name: "size", type: "number" }, vis.size, set(vis, "size"), `${ptr}/${sh.visualKey}/size`),
      field({ name: "color", type: "text", doc: "#rrggbb" }, vis.color, set(vis, "color"), `${ptr}/${sh.visualKey}/color`)));

  // Connections: one-way arrows to other spaces.
  s.connections ||= [];
  const conns = h("ol", { class: "connections" }, s.connections.map((c, j) => {
    const cptr = `${ptr}/connections/${j}`;
    const target = h("select", { dataset: { field: "targetId" }, "aria-label": `connection ${j + 1}: to the space`, onchange: () => { c.targetId = target.value; ed.changed(false); } },
      !ids.includes(String(c.targetId)) ? h("option", { selected: true }, String(c.targetId)) : null,
      ids.map((id) => h("option", { value: id, selected: id === String(c.targetId) }, id)));
    const draw = h("input", { type: "checkbox", checked: c[sh.draw] !== false, onchange: () => {
      if (draw.checked) delete c[sh.draw];
      else c[sh.draw] = false;
      ed.changed(false);
    } });
    return h("li", { dataset: { ptr: cptr } }, "→ ", target, h("label", { class: "inline" }, draw, " drawn"), moveButtons(ed, s.connections, j, "connection"), h("ul", { class: "msgs" }));
  }));
  const newTarget = h("select", { "aria-label": "a new connection to the space" }, ids.filter((id) => id !== String(s.id)).map((id) => h("option", { value: id }, id)));
  form.append(h("div", { class: "group", dataset: { ptr: ptr + "/connections" } }, h("h4", {}, "Connections"), h("ul", { class: "msgs" }), conns,
    h("div", { class: "add-row" }, newTarget, h("button", { type: "button", class: "add-connection", onclick: () => {
      if (!newTarget.value) return;
      s.connections.push({ targetId: newTarget.value });
      ed.changed(true);
    } }, "+ Add connection"))));

  // Events: when a trigger fires here, the action runs.
  s[sh.events] ||= [];
  const evs = h("ol", { class: "actions" }, s[sh.events].map((e, j) => eventCard(ed, sh, s, e, j, `${ptr}/${sh.events}/${j}`, ids, cat)));
  form.append(h("div", { class: "group", dataset: { ptr: `${ptr}/${sh.events}` } }, h("h4", {}, "Events"), h("ul", { class: "msgs" }), evs,
    h("div", { class: "add-row" }, h("button", { type: "button", class: "add-event", onclick: () => {
      s[sh.events].push({ [sh.trigger]: { type: "ON_LAND" }, action: { type: "PROMPT_CURRENT_PLAYER", payload: { message: "Drink!" } } });
      ed.changed(true);
    } }, "+ Add event"))));
  return form;
}

function eventCard(ed, sh, s, e, j, ptr, ids, cat) {
  e[sh.trigger] ||= { type: "ON_LAND" };
  e.action ||= { type: "" };
  const trig = e[sh.trigger];
  const info = cat.actions.find((a) => a.name === e.action.type);
  const trigSel = h("select", { dataset: { field: "trigger" }, onchange: () => {
    trig.type = trigSel.value;
    if (trig.type !== "CODE") delete trig.payload;
    else trig.payload ||= "player.getStat('drinks') < 5";
    ed.changed(true);
  } }, cat.triggers.map((t) => h("option", { value: t.value, selected: t.value === trig.type, title: t.doc }, t.value)));
  const actSel = h("select", { dataset: { field: "action" }, onchange: () => {
    e.action = { type: actSel.value, payload: {} };
    if (!cat.actions.find((a) => a.name === actSel.value)?.fields.length) delete e.action.payload;
    ed.changed(true);
  } }, !info ? h("option", { selected: true }, e.action.type || "— choose —") : null,
  cat.actions.map((a) => h("option", { value: a.name, selected: a.name === e.action.type, title: a.doc }, a.name)));
  const set = (obj, key) => (v) => {
    if (v === undefined) delete obj[key];
    else obj[key] = v;
    ed.changed(false);
  };
  const fields = h("div", { class: "fields" },
    wrapField(`${ptr}/${sh.trigger}/type`, h("label", { class: "field-label" }, "when"), trigSel, cat.triggers.find((t) => t.value === trig.type)?.doc),
    trig.type === "CODE" ? field({ name: "condition", type: "condition", required: true, doc: "CEL over player, space and game" }, trig.payload, set(trig, "payload"), `${ptr}/${sh.trigger}/payload`) : null,
    wrapField(`${ptr}/action/type`, h("label", { class: "field-label" }, "action"), actSel, info?.doc));
  if (info?.fields.length) e.action.payload ||= {};
  for (const f of info?.fields || []) {
    fields.append(field(f, e.action.payload[f.name], set(e.action.payload, f.name), `${ptr}/action/payload/${f.name}`, { spaces: ids }));
  }
  const prio = typeof e.priority === "object" && e.priority ? e.priority.name : e.priority;
  fields.append(
    field({ name: "priority", type: "choice", values: cat.priorities, default: cat.defaultPriority, doc: priorityDocs.party }, prio, set(e, "priority"), ptr + "/priority"),
    field({ name: "state", type: "choice", values: cat.states, default: "READY", doc: "INACTIVE events never fire" }, e.state, set(e, "state"), ptr + "/state"));
  return h("li", { class: "action", dataset: { ptr } },
    h("div", { class: "action-head" }, h("strong", {}, `${trig.type} → ${e.action.type}`), moveButtons(ed, s[sh.events], j, "event")),
    h("ul", { class: "msgs" }), fields);
}

// --- rule books: tiles ---

// tilesPanel edits a rule book's tiles: the selected one in full, the
// others as a list.
export function tilesPanel(ed) {
  const doc = ed.doc;
  doc.board ||= {};
  doc.board.tiles ||= [];
  const tiles = doc.board.tiles;
  const i = tiles.findIndex((t) => t.id === ed.selected);
  const add = h("button", { type: "button", id: "add-tile", onclick: () => {
    const ids = new Set(tiles.map((t) => t.id));
    let n = tiles.length;
    while (ids.has(`t${n}`)) n++;
    const from = tiles[i] || tiles[tiles.length - 1];
    const t = { id: `t${n}`, x: from ? (from.x || 0) + 1 : 0, y: from ? from.y || 0 : 0 };
    if (from) (from.next ||= []).push(t.id);
    tiles.push(t);
    ed.selected = t.id;
    ed.changed(true);
  } }, i >= 0 ? "+ Add a tile after this one" : "+ Add a tile");
  const list = h("ul", { class: "item-list tiles-list" }, tiles.map((t, j) =>
    h("li", { class: j === i ? "selected" : "", dataset: { ptr: pointer("board", "tiles", j) } },
      h("button", { type: "button", class: "link", onclick: () => ed.select(t.id) }, t.name || t.id, h("small", {}, ` ${t.id}${t.kind ? " · " + t.kind : ""}`)),
      h("ul", { class: "msgs" }))));
  return h("div", { class: "panel" },
    i >= 0 ? tileForm(ed, tiles, tiles[i], i) : h("p", { class: "hint" }, "Click a tile on the board to edit it; drag it to move it."),
    h("div", { class: "add-row" }, add),
    h("h3", {}, `Tiles (${tiles.length})`), list);
}

function tileForm(ed, tiles, t, i) {
  const ptr = pointer("board", "tiles", i);
  const ctx = ed.ctx();
  const set = (key) => (v) => {
    if (v === undefined || v === "") delete t[key];
    else t[key] = v;
    ed.changed(false);
  };
  // A new id is taken when it is committed, and only the references to
  // the old id follow it: arrows, jumps and the start tile.
  const rename = (v) => {
    const id = v.trim();
    const old = t.id;
    if (id === "") return "A tile needs an id.";
    if (id !== old && tiles.some((o) => o.id === id)) return `Another tile has the id ${id}: choose one no other tile has.`;
    if (id === old) return "";
    t.id = id;
    for (const o of tiles) {
      if (o.next) o.next = o.next.map((n) => (n === old ? id : n));
      if (o.jump === old) o.jump = id;
    }
    if (ed.doc.players?.start?.tile === old) ed.doc.players.start.tile = id;
    ed.selected = id;
    ed.changed(true);
    return "";
  };
  const nexts = t.next || [];
  const next = h("ol", { class: "connections" }, nexts.map((n, j) => {
    const sel = h("select", { "aria-label": `arrow ${j + 1}: to the tile`, onchange: () => { t.next[j] = sel.value; ed.changed(false); } },
      !ctx.tiles.includes(n) ? h("option", { selected: true }, n) : null,
      ctx.tiles.map((id) => h("option", { value: id, selected: id === n }, id)));
    return h("li", { dataset: { ptr: `${ptr}/next/${j}` } }, "→ ", sel, moveButtons(ed, t.next, j, "arrow"), h("ul", { class: "msgs" }));
  }));
  const newNext = h("select", { "aria-label": "a new arrow to the tile" }, ctx.tiles.filter((id) => id !== t.id).map((id) => h("option", { value: id }, id)));
  return h("div", { class: "card selected-item", dataset: { ptr } },
    h("div", { class: "item-head" }, h("h3", {}, t.name || t.id),
      h("button", { type: "button", class: "icon delete", title: "delete this tile", onclick: () => {
        if (!confirm(`Delete the tile ${t.name || t.id}?`)) return;
        tiles.splice(i, 1);
        for (const o of tiles) {
          if (o.next) o.next = o.next.filter((n) => n !== t.id);
          if (o.jump === t.id) delete o.jump;
        }
        ed.selected = null;
        ed.changed(true);
      } }, "✕")),
    h("ul", { class: "msgs" }),
    h("div", { class: "fields" },
      wrapField(ptr + "/id", h("label", { class: "field-label" }, "id"), commitInput(t.id, rename), "changed when you leave the box or press Enter"),
      field({ name: "name", type: "text" }, t.name, set("name"), ptr + "/name"),
      field({ name: "kind", type: "kind", doc: "what rules filter on: property, chute, ladder…" }, t.kind, set("kind"), ptr + "/kind", ctx),
      field({ name: "x", type: "number" }, t.x, (v) => { t.x = v ?? 0; ed.changed(false); }, ptr + "/x"),
      field({ name: "y", type: "number" }, t.y, (v) => { t.y = v ?? 0; ed.changed(false); }, ptr + "/y"),
      field({ name: "colour", type: "colour" }, t.colour, set("colour"), ptr + "/colour", ctx),
      field({ name: "price", type: "count" }, t.price, set("price"), ptr + "/price"),
      field({ name: "rent", type: "count" }, t.rent, set("rent"), ptr + "/rent"),
      field({ name: "jump", type: "tile", doc: "where a chute or a ladder leads" }, t.jump, set("jump"), ptr + "/jump", ctx)),
    h("div", { class: "group", dataset: { ptr: ptr + "/next" } }, h("h4", {}, "Arrows (next tiles; the first is the main path)"), h("ul", { class: "msgs" }), next,
      h("div", { class: "add-row" }, newNext, h("button", { type: "button", class: "add-connection", onclick: () => {
        if (!newNext.value) return;
        (t.next ||= []).push(newNext.value);
        ed.changed(true);
      } }, "+ Add arrow"))));
}

// --- the game's own settings ---

// gamePanel edits a rule book's name, players and declared events, or a
// party board's name and description; both, what players read of how to
// play, and the designer's notes.
export function gamePanel(ed) {
  const doc = ed.doc;
  const set = (obj, key) => (v) => {
    if (v === undefined || v === "") delete obj[key];
    else obj[key] = v;
    ed.changed(false);
  };
  if (ed.kind === "party") {
    const sh = partyShape(doc);
    const meta = sh.meta();
    return h("div", { class: "panel" }, h("div", { class: "fields" },
      field({ name: "name", type: "text" }, meta.name, set(meta, "name"), sh.metaPtr + "/name"),
      field({ name: "description", type: "text", doc: "what the board is, for players choosing a game" }, meta.description, set(meta, "description"), sh.metaPtr + "/description"),
      field({ name: "how to play", type: "text", doc: "for players: the goal, a turn, what ends it" }, meta.howToPlay, set(meta, "howToPlay"), sh.metaPtr + "/howToPlay"),
      field({ name: "notes", type: "text", doc: "yours: players never see them" }, meta.notes, set(meta, "notes"), sh.metaPtr + "/notes"),
      field({ name: "author", type: "text" }, meta.author, set(meta, "author"), sh.metaPtr + "/author")),
    h("p", { class: "hint" }, "Rules of play (players, dice, winning) are edited in the Source tab."));
  }
  // Members are created when they are first set, so that opening the
  // panel changes nothing in the file.
  const setIn = (path, key) => (v) => {
    let obj = doc;
    for (const k of path) obj = obj[k] ||= {};
    if (v === undefined || v === "") delete obj[key];
    else obj[key] = v;
    ed.changed(false);
  };
  const p = doc.players || {};
  const start = p.start || {};
  const ctx = ed.ctx();
  const declared = doc.events || [];
  const events = h("ol", { class: "connections" }, declared.map((e, j) => h("li", { dataset: { ptr: pointer("events", j) } },
    labelled(textInput(e.name, (v) => { e.name = v; ed.changed(false); }, "NAME"), `event ${j + 1}: name`),
    labelled(textInput(e.description, (v) => { e.description = v; ed.changed(false); }, "what it means"), `event ${j + 1}: what it means`),
    moveButtons(ed, declared, j, "event"), h("ul", { class: "msgs" }))));
  return h("div", { class: "panel" },
    h("div", { class: "fields" },
      field({ name: "name", type: "text" }, doc.name, set(doc, "name"), "/name"),
      field({ name: "description", type: "text", doc: "what the game is, for players choosing one" }, doc.description, set(doc, "description"), "/description"),
      field({ name: "how to play", type: "text", doc: "for players: the goal, a turn, what ends it" }, doc.howToPlay, set(doc, "howToPlay"), "/howToPlay"),
      field({ name: "notes", type: "text", doc: "yours: players never see them" }, doc.notes, set(doc, "notes"), "/notes"),
      field({ name: "min players", type: "count", default: 2 }, p.min, setIn(["players"], "min"), "/players/min"),
      field({ name: "max players", type: "count", default: 6 }, p.max, setIn(["players"], "max"), "/players/max"),
      field({ name: "start tile", type: "tile", doc: "default: the first tile" }, start.tile, setIn(["players", "start"], "tile"), "/players/start/tile", ctx),
      field({ name: "start score", type: "count", default: 0 }, start.score, setIn(["players", "start"], "score"), "/players/start/score")),
    h("div", { class: "group", dataset: { ptr: "/events" } }, h("h4", {}, "The game's own events (for EMIT)"), h("ul", { class: "msgs" }), events,
      h("div", { class: "add-row" }, h("button", { type: "button", onclick: () => {
        (doc.events ||= []).push({ name: "MY_EVENT" });
        ed.changed(true);
      } }, "+ Declare an event"))),
    h("p", { class: "hint" }, `Decks: ${(doc.decks || []).map((d) => `${d.name} (${(d.cards || []).length} kinds of card)`).join(", ") || "none"}. Decks and player properties are edited in the Source tab.`));
}

// labelled names a control that has no visible label of its own.
function labelled(el, label) {
  (el.matches("input, select") ? el : el.querySelector("input, select")).setAttribute("aria-label", label);
  return el;
}
