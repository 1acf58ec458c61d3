// The rules of a rule book in the editor: a card per rule, in order, to
// add, edit, move and delete. A hand-written rule is an event (with the
// filters it carries), a condition (built from the predicates the event
// offers, or typed as CEL) and actions whose fields are forms made from
// the catalog; a preset is its parameters.
import { h, api } from "./util.js";
import { field, wrapField, textInput, pointer, priorityDocs } from "./forms.js";

export function rulesPanel(ed) {
  const doc = ed.doc;
  doc.rules ||= [];
  const list = h("ol", { class: "rules", id: "rules" });
  doc.rules.forEach((r, i) => list.append(ruleCard(ed, r, i)));
  const presetSel = h("select", { id: "preset-choice", "aria-label": "a preset rule to add" }, ed.catalog.presets.map((p) => h("option", { value: p.name, title: p.doc }, p.name)));
  return h("div", { class: "panel" },
    h("p", { class: "hint", id: "priority-doc" }, "When their event happens, the rules run in this order, and each queues its actions. ", priorityDocs.rulebook),
    list,
    h("div", { class: "add-row" },
      h("button", { type: "button", id: "add-rule", class: "primary", onclick: () => {
        const r = { name: `Rule ${doc.rules.length + 1}`, when: { event: "TILE_LANDED" }, then: [{ action: "SAY", text: "Something happens", priority: ed.catalog.defaultPriority }] };
        doc.rules.push(r);
        ed.expanded.add(r);
        ed.changed(true);
        ed.scrollTo(pointer("rules", doc.rules.length - 1));
      } }, "+ Add a rule"),
      h("span", { class: "or" }, "or a preset"), presetSel,
      h("button", { type: "button", id: "add-preset", onclick: () => {
        const r = { preset: presetSel.value };
        doc.rules.push(r);
        ed.expanded.add(r);
        ed.changed(true);
        ed.scrollTo(pointer("rules", doc.rules.length - 1));
      } }, "+ Add preset")));
}

// moveButtons are ↑, ↓ and ✕ for an item of a list.
export function moveButtons(ed, arr, i, what) {
  const move = (d) => {
    const j = i + d;
    if (j < 0 || j >= arr.length) return;
    [arr[i], arr[j]] = [arr[j], arr[i]];
    ed.changed(true);
  };
  return h("span", { class: "moves" },
    h("button", { type: "button", class: "icon up", title: `move this ${what} up`, "aria-label": `move ${what} ${i + 1} up`, disabled: i === 0, onclick: () => move(-1) }, "↑"),
    h("button", { type: "button", class: "icon down", title: `move this ${what} down`, "aria-label": `move ${what} ${i + 1} down`, disabled: i === arr.length - 1, onclick: () => move(1) }, "↓"),
    h("button", { type: "button", class: "icon delete", title: `delete this ${what}`, "aria-label": `delete ${what} ${i + 1}`, onclick: () => {
      if (!confirm(`Delete this ${what}?`)) return;
      arr.splice(i, 1);
      ed.changed(true);
    } }, "✕"));
}

function ruleCard(ed, r, i) {
  const ptr = pointer("rules", i);
  const open = ed.expanded.has(r);
  const toggle = () => {
    if (open) ed.expanded.delete(r);
    else ed.expanded.add(r);
    ed.changed(true, false);
  };
  const head = h("div", { class: "rule-head" },
    h("button", { type: "button", class: "icon toggle", title: open ? "close" : "edit", "aria-expanded": open,
      "aria-label": `${open ? "close" : "edit"} the rule ${r.name || r.preset || i + 1}`, onclick: toggle }, open ? "▾" : "▸"),
    h("span", { class: "rule-title", onclick: toggle }, h("strong", {}, r.name || (r.preset ? r.preset : `rule ${i + 1}`)), " ", h("span", { class: "summary" }, summary(r))),
    moveButtons(ed, ed.doc.rules, i, "rule"));
  const card = h("li", { class: "rule card" + (open ? " open" : ""), dataset: { ptr, index: i } }, head, h("ul", { class: "msgs" }));
  if (open) card.append(r.preset !== undefined ? presetBody(ed, r, ptr) : handBody(ed, r, ptr));
  return card;
}

// summary says what a rule does in one line.
function summary(r) {
  if (r.preset !== undefined) {
    const params = Object.entries(r).filter(([k]) => !["preset", "name", "description"].includes(k)).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    return `preset ${r.preset}${params.length ? " (" + params.join(", ") + ")" : ""}`;
  }
  const w = r.when || {};
  const filters = Object.entries(w).filter(([k]) => k !== "event").map(([k, v]) => `${k} ${v}`);
  const then = (r.then || []).map((a) => a.action).join(", ");
  return `when ${w.event || "?"}${filters.length ? " (" + filters.join(", ") + ")" : ""}${r.if ? " if " + r.if : ""} → ${then || "nothing"}`;
}

function textMember(obj, key, ptr, label, ed, opts = {}) {
  const inp = textInput(obj[key], (s) => {
    if (s === "") delete obj[key];
    else obj[key] = s;
    // The card's title follows the name as it is typed.
    const title = key === "name" && inp.closest(".rule")?.querySelector(".rule-title strong");
    if (title) title.textContent = s || obj.preset || "rule";
    ed.changed(false);
  }, opts.placeholder || "", [], opts.kind);
  (inp.querySelector?.("input") || inp).dataset.field = key;
  return wrapField(ptr, h("label", { class: "field-label" }, label), inp, opts.doc);
}

function presetBody(ed, r, ptr) {
  const info = ed.catalog.presets.find((p) => p.name === r.preset);
  const sel = h("select", { dataset: { field: "preset" }, onchange: () => {
    for (const k of Object.keys(r)) if (!["name", "description"].includes(k)) delete r[k];
    r.preset = sel.value;
    ed.changed(true);
  } }, !info ? h("option", { value: r.preset, selected: true }, r.preset) : null,
  ed.catalog.presets.map((p) => h("option", { value: p.name, selected: p.name === r.preset }, p.name)));
  const body = h("div", { class: "rule-body" },
    wrapField(ptr + "/preset", h("label", { class: "field-label" }, "preset"), sel, info ? info.doc : "unknown preset"),
    textMember(r, "name", ptr + "/name", "name", ed, { placeholder: r.preset }),
    textMember(r, "description", ptr + "/description", "description", ed));
  for (const f of info?.params || []) {
    body.append(field(f, r[f.name], (v) => {
      if (v === undefined) delete r[f.name];
      else r[f.name] = v;
      ed.changed(false);
    }, ptr + "/" + f.name, ed.ctx()));
  }
  return body;
}

function handBody(ed, r, ptr) {
  r.when ||= { event: "" };
  r.then ||= [];
  const events = ed.events();
  const ev = events.find((e) => e.name === r.when.event);
  const evSel = h("select", { dataset: { field: "event" }, onchange: () => {
    r.when = { event: evSel.value };
    ed.changed(true);
  } }, !ev ? h("option", { value: r.when.event, selected: true }, r.when.event || "— choose —") : null,
  events.map((e) => h("option", { value: e.name, selected: e.name === r.when.event, title: e.doc }, e.name + (e.custom ? " (declared)" : ""))));
  const when = h("div", { class: "group" },
    h("h4", {}, "When"),
    wrapField(ptr + "/when/event", h("label", { class: "field-label" }, "event"), evSel, ev ? ev.doc : ""));
  const ctx = ed.ctx();
  for (const f of ev?.filters || []) {
    const type = { tile: "tile", kind: "kind", colour: "colour", card: "card", deck: "deck", prop: "prop" }[f];
    when.append(field({ name: f, type, doc: `only for this ${f}` }, r.when[f], (v) => {
      if (v === undefined) delete r.when[f];
      else r.when[f] = v;
      ed.changed(false);
    }, ptr + "/when/" + f, ctx));
  }

  const cond = textInput(r.if, (s) => {
    if (s.trim() === "") delete r.if;
    else r.if = s;
    ed.changed(false);
  }, "always (or a CEL condition, e.g. tile.owner < 0)", [], "cel");
  cond.dataset.field = "if";
  const cond2 = h("div", { class: "group" }, h("h4", {}, "If"),
    wrapField(ptr + "/if", h("label", { class: "field-label" }, "condition"), cond, null),
    conditionBuilder(ed, r, ev, cond));

  const then = h("div", { class: "group" }, h("h4", {}, "Then"));
  const actions = h("ol", { class: "actions" });
  r.then.forEach((a, j) => actions.append(actionCard(ed, r, a, j, ptr + "/then/" + j)));
  const actSel = h("select", { class: "new-action", "aria-label": "an action to add" }, ed.catalog.actions.map((a) => h("option", { value: a.name, title: a.doc }, a.name)));
  then.append(h("div", { class: "field", dataset: { ptr: ptr + "/then" } }, actions, h("ul", { class: "msgs" })),
    h("div", { class: "add-row" }, actSel, h("button", { type: "button", class: "add-action", onclick: () => {
      r.then.push({ action: actSel.value, priority: ed.catalog.defaultPriority });
      ed.changed(true);
    } }, "+ Add action")));

  return h("div", { class: "rule-body" },
    textMember(r, "name", ptr + "/name", "name", ed),
    textMember(r, "description", ptr + "/description", "description", ed),
    when, cond2, then);
}

// conditionBuilder offers the predicates that make sense for the event:
// pick one, fill in its parameters, and it is added to the condition
// (joined with &&) as the server renders it in CEL.
function conditionBuilder(ed, r, ev, condInput) {
  const names = ev ? ed.predicatesFor(ev.name) : [];
  const preds = ed.catalog.predicates.filter((p) => names.includes(p.name));
  if (!preds.length) return h("p", { class: "hint" }, ev ? `No ready-made conditions for ${ev.name}; type one in CEL.` : "");
  const params = h("span", { class: "params" });
  const args = {};
  const sel = h("select", { class: "predicate", "aria-label": "a ready-made condition", onchange: () => showParams() },
    preds.map((p) => h("option", { value: p.name, title: p.doc }, `${p.name}: ${p.doc}`)));
  const showParams = () => {
    const p = preds.find((x) => x.name === sel.value);
    for (const k of Object.keys(args)) delete args[k];
    params.replaceChildren(...p.params.map((f) => {
      const inp = field(f, undefined, (v) => { args[f.name] = v === undefined ? "" : String(v); }, null, ed.ctx());
      inp.querySelector("input, select").dataset.param = f.name;
      return inp;
    }));
  };
  showParams();
  const msg = h("span", { class: "error" });
  const add = h("button", { type: "button", class: "add-condition", onclick: async () => {
    msg.textContent = "";
    try {
      const res = await api("POST", `/api/catalog/rulebook/render/${encodeURIComponent(sel.value)}`, args);
      r.if = r.if && r.if.trim() ? `(${r.if}) && ${res.text}` : res.text;
      const inp = condInput.querySelector?.("input") || condInput;
      inp.value = r.if;
      ed.changed(false);
    } catch (err) {
      msg.textContent = err.message;
    }
  } }, "+ and");
  return h("div", { class: "builder" }, h("span", { class: "hint" }, "Add a condition: "), sel, params, add, msg);
}

function actionCard(ed, r, a, j, ptr) {
  const info = ed.catalog.actions.find((x) => x.name === a.action);
  const sel = h("select", { dataset: { field: "action" }, "aria-label": `action ${j + 1}`, onchange: () => {
    const keep = { action: sel.value, priority: a.priority };
    for (const k of Object.keys(a)) delete a[k];
    Object.assign(a, keep);
    ed.changed(true);
  } }, !info ? h("option", { value: a.action, selected: true }, a.action || "— choose —") : null,
  ed.catalog.actions.map((x) => h("option", { value: x.name, selected: x.name === a.action, title: x.doc }, x.name)));
  const set = (name) => (v) => {
    if (v === undefined) delete a[name];
    else a[name] = v;
    ed.changed(false);
  };
  const ctx = ed.ctx();
  const fields = h("div", { class: "fields" });
  for (const f of info?.fields || []) fields.append(field(f, a[f.name], set(f.name), ptr + "/" + f.name, ctx));
  const selectors = ed.catalog.selectors.map((s) => s.value);
  fields.append(
    field({ name: "priority", type: "count", doc: priorityDocs.rulebook, default: ed.catalog.defaultPriority }, a.priority, set("priority"), ptr + "/priority", ctx),
    field({ name: "player", type: "choice", values: selectors, default: info?.player, doc: "whose queue" }, a.player, set("player"), ptr + "/player", ctx),
    field({ name: "where", type: "condition", doc: "for several players: only those for whom this holds" }, a.where, set("where"), ptr + "/where", ctx));
  return h("li", { class: "action", dataset: { ptr } },
    h("div", { class: "action-head" }, sel, moveButtons(ed, r.then, j, "action")),
    info ? h("small", { class: "doc" }, info.doc) : null,
    h("ul", { class: "msgs" }), fields);
}
