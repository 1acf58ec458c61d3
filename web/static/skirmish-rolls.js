// The rolls of a d20 skirmish as the log's entries tell them: the d20 (both
// dice under advantage or disadvantage, the kept one marked), each
// modifier with its source and channel, the total against the armour
// class or DC and the result; a hit's damage with its dice, bonus and the
// target's resistance.
import { h } from "./util.js";

// channelNames say in players' words where a value's modifier sits.
const channelNames = {
  self_static: "own",
  self_contextual: "own, in this situation",
  to_target_static: "the other creature's",
  to_target_contextual: "the other creature's, in this situation",
};

const signed = (n) => (n >= 0 ? `+${n}` : `−${-n}`);

// rollsOf lists the rolls an entry carries, each with a heading: an
// attack's, a shove's two checks, a save's, an initiative's. nameOf names
// a creature by its key (the entry's subject and target), as players call
// it.
export function rollsOf(e, nameOf = (key) => key) {
  const d = e.data;
  if (!d || typeof d !== "object") return [];
  const who = e.subject && nameOf(e.subject), whom = e.target && nameOf(e.target);
  if (d.roll) return [{ roll: d.roll, who, whom, attack: d }];
  if (d.shover && d.defender) {
    return [{ roll: d.shover, who, whom, shove: d }, { roll: d.defender, who: whom, whom: who }];
  }
  if (Array.isArray(d.dice) && "kept" in d) return [{ roll: d, who }];
  return [];
}

// rollCard draws one roll: a heading (who, against whom, with what), the
// dice, the modifiers, the total against what it had to reach and the
// result, and for a hit its damage.
export function rollCard({ roll, who, whom, attack, shove }, { compact = false, animate = false } = {}) {
  const what = [];
  if (who) what.push(h("strong", {}, who));
  if (whom) what.push(" → ", h("strong", {}, whom));
  const kind = roll.kind === "attack" ? (attack?.opportunity ? "opportunity attack" : "attack") : roll.kind === "check" ? `${roll.for} check` : roll.kind;
  what.push(" · ", kind);
  if (roll.kind === "attack" && roll.for) what.push(" with the ", roll.for);
  if (roll.kind === "save" && roll.for) what.push(": ", roll.for);
  const result = roll.result ? h("span", { class: `sk-result r-${roll.result.replace(/ /g, "-")}` }, roll.result) : null;
  const line = h("div", { class: "sk-roll-line" },
    dice(roll, animate),
    roll.modifiers.map((m) => modifier(m)),
    h("span", { class: "sk-eq" }, "= ", h("strong", { class: "sk-total" }, String(roll.total))),
    roll.againstWhat ? h("span", { class: "sk-against" }, "against ", againstText(roll)) : null,
    result);
  const card = h("div", { class: "sk-roll" + (compact ? " compact" : ""), dataset: { kind: roll.kind, result: roll.result || "" } },
    compact ? null : h("div", { class: "sk-roll-head" }, what), line);
  if (attack?.damage?.length) card.append(damage(attack, whom));
  if (shove) {
    card.append(h("div", { class: "sk-damage" }, shove.pushed ? "pushed 5 ft back" : shove.won ? "it does not budge" : "the shove fails"));
  }
  return card;
}

function againstText(roll) {
  switch (roll.againstWhat) {
    case "ac": return `AC ${roll.against}`;
    case "dc": return `DC ${roll.against}`;
    case "contest": return `${roll.against}`;
  }
  return String(roll.against);
}

// dice draws the d20s: one, or both under advantage or disadvantage with
// the kept one marked and the other struck out.
function dice(roll, animate) {
  const ds = roll.dice || [roll.kept];
  let keptShown = false;
  const faces = ds.map((n) => {
    const kept = !keptShown && n === roll.kept;
    if (kept) keptShown = true;
    const cls = ["sk-d20", kept ? "kept" : "dropped", n === 20 ? "nat20" : "", n === 1 ? "nat1" : "", animate ? "rolling" : ""].filter(Boolean).join(" ");
    return h("span", { class: cls, title: kept ? (ds.length > 1 ? "the die that counts" : "d20") : "the die left aside" },
      h("span", { class: "sk-d20-n" }, String(n)), kept && ds.length > 1 ? h("span", { class: "sk-kept" }, "✓") : null);
  });
  return h("span", { class: "sk-dice" },
    roll.advantage ? h("span", { class: `sk-adv ${roll.advantage}` }, roll.advantage) : h("span", { class: "sk-adv" }, "d20"),
    faces);
}

// modifier draws one term of a roll: its bonus (or effect), its source,
// and for a value's modifier its channel.
function modifier(m) {
  const effect = m.effect ? h("span", { class: "sk-effect" }, m.effect) : null;
  const bonus = m.bonus ? h("span", { class: "sk-bonus" }, signed(m.bonus)) : null;
  const channel = m.channel
    ? h("span", { class: "sk-channel", title: `channel ${m.channel}` }, channelNames[m.channel] || m.channel.replace(/_/g, " "))
    : null;
  return h("span", { class: "sk-mod" + (m.channel ? " ch-" + m.channel : ""), dataset: { source: m.source, channel: m.channel || "" } },
    bonus, effect, " ", h("span", { class: "sk-source" }, m.source), channel);
}

// damage draws a hit's damage: each component's dice, their rolls, the
// bonus and its terms, the type and the target's resistance, then what
// reduction and temporary hit points took, and the hit points left.
function damage(a, whom) {
  const parts = a.damage.map((d) => h("span", { class: "sk-dmg", dataset: { type: d.type } },
    h("span", { class: "sk-dmg-dice" }, d.dice), " ",
    h("span", { class: "sk-dmg-rolls" }, "[", d.rolls.join(", "), "]"),
    d.bonus ? [" ", h("span", { class: "sk-bonus", title: d.modifiers.map((m) => `${signed(m.bonus || 0)} ${m.source}`).join(", ") },
      signed(d.bonus), d.modifiers.length ? ` (${d.modifiers.map((m) => m.source).join(", ")})` : "")] : null,
    " = ", h("strong", {}, String(d.rolled)), " ", d.type,
    d.resistance ? [" ", h("span", { class: `sk-res ${d.resistance}` }, d.resistance), " → ", h("strong", {}, String(d.taken))] : null));
  const after = [];
  if (a.reduced) after.push(`${a.reduced} stopped by damage reduction`);
  if (a.absorbed) after.push(`${a.absorbed} absorbed by temporary hit points`);
  const left = a.hpLeft !== undefined && a.hpLeft !== null ? (a.hpLeft > 0 ? `${whom || "the target"} has ${a.hpLeft} HP left` : `${whom || "the target"} goes down`) : "";
  return h("div", { class: "sk-damage" }, h("span", { class: "sk-adv" }, "damage"), parts,
    after.length ? h("span", { class: "sk-after" }, after.join(", ")) : null,
    h("span", { class: "sk-dealt" }, "→ ", h("strong", {}, `${a.dealt} dealt`), left ? ", " + left : ""));
}
