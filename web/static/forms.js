// Form fields made from the catalogs' field descriptions
// ({name, type, doc, default, required, values}), shared by the editor's
// rules, actions, presets, predicates and party events. Every field is
// wrapped in a .field element that carries its JSON pointer, so that the
// diagnostics of validation can be shown next to it.
import { h } from "./util.js";

let lists = 0;
let fields = 0;

// Which way priorities run, in each pack's own terms.
export const priorityDocs = {
  party: "Events that fire together run highest priority first: CRITICAL, then VERY_HIGH, HIGH, MID, LOW, VERY_LOW; equal priorities run in board order (space by space, then event by event).",
  rulebook: "Queued actions run lowest number first: priority 1 runs before priority 5 (the default), and 5 before 10; equal numbers run in the order they were queued.",
};

// field builds a labelled input for one field. value is the current value
// (undefined: not set, the default applies); set(v) is called on every
// change with the new value (undefined to remove the member). ctx holds the
// names the file offers: tiles, kinds, colours, decks, cards, props,
// events, spaces.
export function field(f, value, set, ptr, ctx = {}) {
  const input = control(f, value, set, ctx);
  input.dataset.field = f.name;
  const label = h("label", { class: "field-label", title: f.doc || "" }, f.name, f.required ? h("span", { class: "req", title: "required" }, " *") : null);
  return wrapField(ptr, label, input, f.doc);
}

// wrapField puts a label, an input and a hint in a .field element for
// the pointer (null: a field that is not in the file); diagnostics go in
// its .msgs.
export function wrapField(ptr, label, input, doc) {
  // The label names the field's control, for screen readers and clicks.
  const control = input.matches("input, select, textarea") ? input : input.querySelector("input, select, textarea");
  if (control && label.tagName === "LABEL") {
    if (!control.id) control.id = `field-${++fields}`;
    label.htmlFor = control.id;
  }
  const note = doc ? h("small", { class: "doc", id: `doc-${++fields}` }, doc) : null;
  if (note && control) control.setAttribute("aria-describedby", note.id);
  return h("div", { class: "field", dataset: ptr === null ? undefined : { ptr } }, label, input, note, h("ul", { class: "msgs", "aria-live": "polite" }));
}

function control(f, value, set, ctx) {
  const placeholder = f.default !== undefined && f.default !== null && f.default !== "" ? `default: ${f.default}` : f.required ? "required" : "";
  switch (f.type) {
    case "choice": {
      const values = f.values || [];
      const sel = h("select", { onchange: () => set(sel.value === "" ? undefined : sel.value) },
        h("option", { value: "" }, f.required ? "— choose —" : `(default${f.default ? ": " + f.default : ""})`),
        values.map((v) => h("option", { value: v, selected: v === value }, v)));
      return sel;
    }
    case "event":
      return select(ctx.emittable || ctx.events || [], value, set, f.required);
    case "deck":
      return select(ctx.decks || [], value, set, f.required);
    case "count":
    case "number": {
      const inp = h("input", { type: "number", step: f.type === "count" ? 1 : "any", value: value ?? "", placeholder,
        oninput: () => set(inp.value === "" ? undefined : Number(inp.value)) });
      return inp;
    }
    case "int":
      // A number, or an expression that gives one ("roll", "tile.rent * 2").
      return textInput(value, (s) => set(s === "" ? undefined : /^-?\d+$/.test(s.trim()) ? Number(s) : s), placeholder, [], "number or expression");
    case "condition":
      return textInput(value, (s) => set(s === "" ? undefined : s), placeholder || "CEL, e.g. player.score < 0", [], "cel");
    case "effect":
      return effectInput(f, value, set);
    default: {
      const options = { tile: ctx.tiles, space: ctx.spaces, kind: ctx.kinds, colour: ctx.colours, card: ctx.cards, prop: ctx.props }[f.type] || [];
      return textInput(value, (s) => set(s === "" ? undefined : s), placeholder, options);
    }
  }
}

function select(names, value, set, required) {
  const sel = h("select", { onchange: () => set(sel.value === "" ? undefined : sel.value) },
    required ? null : h("option", { value: "" }, "(default)"),
    value !== undefined && !names.includes(value) ? h("option", { value, selected: true }, value) : null,
    names.map((n) => h("option", { value: n, selected: n === value }, n)));
  return sel;
}

// textInput is a text box, with a list of suggestions if there are any.
export function textInput(value, set, placeholder, options = [], kind = "") {
  const id = options.length ? `list-${++lists}` : undefined;
  const inp = h("input", { type: "text", value: value === undefined || value === null ? "" : String(value), placeholder, list: id,
    class: kind === "cel" ? "cel" : "", spellcheck: "false", autocomplete: "off", oninput: () => set(inp.value) });
  if (!id) return inp;
  return h("span", { class: "with-list" }, inp, h("datalist", { id }, options.map((o) => h("option", { value: o }))));
}

// commitInput is a text box whose value is taken only when it is
// committed (the box is left, or Enter is pressed), not at every
// keystroke: for ids, which other parts of the file refer to. commit(v)
// returns an error message to refuse the value, or "".
export function commitInput(value, commit) {
  const inp = h("input", { type: "text", value: value ?? "", spellcheck: "false", autocomplete: "off" });
  let last = inp.value;
  const take = () => {
    if (inp.value === last) return;
    const err = commit(inp.value);
    const field = inp.closest(".field");
    const msgs = field && [...field.children].find((c) => c.classList.contains("msgs"));
    inp.setAttribute("aria-invalid", err ? "true" : "false");
    field?.classList.toggle("has-error", !!err);
    if (msgs) msgs.replaceChildren(...(err ? [h("li", { class: "error local" }, err)] : []));
    if (!err) last = inp.value;
  };
  inp.addEventListener("change", take);
  inp.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      take();
    }
  });
  return inp;
}

// effectInput edits a party effect {"type", "args": [id, turns]}.
function effectInput(f, value, set) {
  const v = value && typeof value === "object" ? value : {};
  const args = Array.isArray(v.args) ? v.args : [];
  let type = v.type || "", id = args[0] ?? "", turns = args[1] ?? 1;
  const emit = () => set(type ? { type, args: [id, Number(turns)] } : undefined);
  const sel = h("select", { onchange: () => { type = sel.value; emit(); } },
    h("option", { value: "" }, "— effect —"), (f.values || []).map((t) => h("option", { value: t, selected: t === type }, t)));
  const idIn = h("input", { type: "text", value: id, placeholder: "id", "aria-label": "the effect's id", oninput: () => { id = idIn.value; emit(); } });
  const turnsIn = h("input", { type: "number", min: 0, value: turns, "aria-label": "turns", oninput: () => { turns = turnsIn.value; emit(); } });
  return h("span", { class: "effect-input" }, sel, idIn, turnsIn, " turns");
}

// placeDiagnostics shows each diagnostic in the .msgs of the field (or
// card) with the longest pointer that contains it, and returns those that
// found no place.
export function placeDiagnostics(root, diags) {
  // The page's own messages (an id refused as it was typed) stay.
  for (const li of root.querySelectorAll(".msgs > li:not(.local)")) li.remove();
  for (const el of root.querySelectorAll(".has-error, .has-warning")) el.classList.remove("has-error", "has-warning");
  for (const li of root.querySelectorAll(".msgs > li.local")) li.closest(".field")?.classList.add("has-error");
  const slots = new Map();
  for (const el of root.querySelectorAll("[data-ptr]")) {
    const ul = [...el.children].find((c) => c.classList.contains("msgs"));
    if (ul && !slots.has(el.dataset.ptr)) slots.set(el.dataset.ptr, el);
  }
  const left = [];
  for (const d of diags) {
    let ptr = d.pointer || "";
    let el = slots.get(ptr);
    while (!el && ptr) {
      ptr = ptr.slice(0, ptr.lastIndexOf("/"));
      el = slots.get(ptr);
    }
    if (!el) {
      left.push(d);
      continue;
    }
    const ul = [...el.children].find((c) => c.classList.contains("msgs"));
    ul.append(h("li", { class: d.severity }, d.severity === "warning" ? "warning: " : "", d.message));
    // Every card around the place says it holds a problem.
    for (let p = el; p && p !== root; p = p.parentElement) {
      if (p.dataset && p.dataset.ptr !== undefined) p.classList.add(d.severity === "error" ? "has-error" : "has-warning");
    }
  }
  return left;
}

// pointer joins JSON pointer tokens, escaping ~ and / (RFC 6901).
export function pointer(...tokens) {
  return tokens.map((t) => "/" + String(t).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}
