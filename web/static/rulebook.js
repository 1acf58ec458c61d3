// A rule book match on the match page: the board of tiles with the
// players' tokens and who owns what, the players' scores and properties,
// what the viewer is asked (roll, draw, which way, buy, bid) and the log,
// where every rule that fires is a line, indented under the event that set
// it off.
import { h, colour, showDice } from "./util.js";
import { TileBoardView, tileFill } from "./tiles.js";

const STEP_MS = 180;

export class RulebookPlay {
  constructor(page) {
    this.page = page;
    this.base = 0; // the depth of the turn's START_TURN, for indenting the log
  }

  async show(v, entries, animate) {
    const page = this.page;
    if (!this.board && page.drawing?.tiles) {
      this.tiles = new Map(page.drawing.tiles.map((t) => [t.id, t]));
      this.board = new TileBoardView(page.drawing.tiles);
      page.boardEl.replaceChildren(this.board.el);
      this.board.setPlayers(v.players);
    }
    this.renderControls(null); // nothing to click while the log plays
    for (const e of entries) {
      this.addLog(e);
      if (animate && this.board) await this.animate(e);
    }
    if (this.board) {
      this.board.setPlayers(v.players);
      this.board.setOwners(v.owners || {});
      this.board.setCurrent(v.over ? -1 : v.current);
    }
    this.renderPlayers(v);
    this.renderControls(v);
    if (v.error) page.say("The match stopped: " + v.error);
  }

  async animate(e) {
    switch (e.kind === "event" && e.type) {
      case "TILE_PASSED":
      case "TILE_LANDED":
        if (e.player >= 0 && e.tile) this.board.place(e.player, e.tile);
        await sleep(STEP_MS);
        break;
      case "DICE_ROLLED":
        this.showDice([e.amount], true);
        await sleep(STEP_MS * 2);
        break;
      default:
        if (e.kind === "fired") {
          this.board.flash(e.tile);
          await sleep(STEP_MS / 2);
        }
    }
  }

  addLog(e) {
    if (e.kind === "event" && e.type === "START_TURN") this.base = e.depth;
    // Walking past tiles is shown on the board, not written down.
    if (!e.text || e.type === "TILE_PASSED" && e.kind === "event") return;
    const depth = Math.max(0, e.depth - this.base);
    const text = e.kind === "fired" ? ["rule ", h("strong", {}, e.rule)] : [e.text];
    const li = h("li", { class: `entry kind-${e.kind} type-${e.type || ""}`, style: `--depth:${Math.min(depth, 8)}`,
      dataset: { seq: e.seq, depth, rule: e.rule || undefined } },
    e.player >= 0 && e.kind === "event" ? h("span", { class: "dot", style: `background:${colour(e.player)}` }) : null, ...text);
    const log = this.page.logEl;
    log.append(li);
    log.scrollTop = log.scrollHeight;
  }

  tileName(id) {
    const t = this.tiles?.get(id);
    return t ? t.name || t.id : id;
  }

  renderPlayers(v) {
    const page = this.page;
    const owned = {};
    for (const seat of Object.values(v.owners || {})) owned[seat] = (owned[seat] || 0) + 1;
    page.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = page.summary.seats[p.seat] || {};
      const props = Object.entries(p.props || {}).map(([k, n]) => `${k}: ${n}`).join(", ");
      return h("li", { class: "player" + (p.seat === v.current && !v.over ? " current" : "") + (p.active ? "" : " out"), dataset: { seat: p.seat } },
        h("span", { class: "dot", style: `background:${colour(p.seat)}` }),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", p.seat === page.you ? " — you" : ""),
        h("span", { class: "state" + (p.active ? "" : " state-out") }, p.active ? `score ${p.score}` : "out"),
        h("span", { class: "where" }, "on ", this.tileName(p.tile), owned[p.seat] ? ` · owns ${owned[p.seat]}` : ""),
        props ? h("span", { class: "stats" }, props) : null);
    }));
    if (v.over) {
      const names = v.winners.map((i) => v.players[i]?.name).join(", ");
      page.playersEl.append(h("li", { class: "over", id: "game-over" },
        "Game over: ", v.endReason, v.winners.length ? `. Winner: ${names}` : ". No winner."));
    }
  }

  showDice(values, rolling) {
    showDice(this.page.controls, values, rolling);
  }

  renderControls(v) {
    const controls = this.page.controls;
    const dice = controls.querySelector(".dice");
    controls.replaceChildren();
    if (dice) controls.append(dice);
    if (!v) return;
    if (v.dice.length) this.showDice(v.dice, false);
    if (v.card) {
      const fill = tileFill(v.card.colour);
      controls.append(h("div", { class: "card-drawn", id: "card", title: `from ${v.card.deck}` },
        fill ? h("span", { class: "swatch", style: `background:${fill}` }) : null, v.card.name));
    }
    if (v.over || v.error) return;
    const w = (v.yourWaits || [])[0];
    if (w) {
      if (!w.options.length) {
        controls.append(h("button", { type: "button", id: w.kind === "roll" ? "roll" : "decide", class: "primary big", dataset: { kind: w.kind },
          onclick: (e) => {
            e.target.disabled = true;
            this.page.send(w.kind);
          } }, w.prompt));
        return;
      }
      controls.append(h("p", { class: "ask", id: "ask" }, w.prompt),
        h("div", { class: "choices" }, w.options.map((label, i) =>
          h("button", { type: "button", class: "option" + (i === 0 ? " primary" : ""), dataset: { kind: w.kind, value: i },
            onclick: () => {
              for (const b of controls.querySelectorAll(".option")) b.disabled = true;
              this.page.send(w.kind, { value: i });
            } }, label))));
      return;
    }
    const first = v.waits[0];
    if (first) {
      const what = { roll: "to roll", draw: "to draw a card", "choose-path": "to choose a way", buy: "to decide whether to buy", bid: "to bid" }[first.kind] || "to answer";
      const who = v.waits.map((x) => v.players[x.player]?.name);
      controls.append(h("p", { class: "hint", id: "waiting" }, `Waiting for ${[...new Set(who)].join(", ")} ${what}`));
    }
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
