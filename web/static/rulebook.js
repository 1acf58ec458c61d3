// A rule book match on the match page: the board of tiles with the
// players' tokens and who owns what, the players with the game's own
// counters (money where tiles have prices, the properties the file
// declares), what the viewer is asked (roll, draw, which way, buy, bid:
// the match's legal commands) and the log, where the rules that fire are
// shown to those who ask for details. An auction's bids are sealed: the
// page shows who still has to bid, never a bid, until all are in.
import { h, showDice, seatDot } from "./util.js";
import { TileBoardView, tileFill } from "./tiles.js";
import { GenericPlay, resultLine } from "./generic.js";
import { Zoom } from "./zoom.js";

const STEP_MS = 180;

// What the match waits for, in words, by the kind of decision.
const waitWords = { roll: "to roll", draw: "to draw a card", "choose-path": "to choose a way", buy: "to decide whether to buy", bid: "to bid" };

export class RulebookPlay extends GenericPlay {
  constructor(page) {
    super(page);
    const tiles = page.drawing?.tiles || [];
    this.tiles = new Map(tiles.map((t) => [t.id, t]));
    // Scores are money in a game whose tiles have prices.
    this.money = tiles.some((t) => t.price > 0);
    this.sealed = false; // the viewer's bid is in, and others' are not
  }

  async show(state, animate) {
    const page = this.page;
    const v = state.view;
    if (!this.board && page.drawing?.tiles) {
      this.board = new TileBoardView(page.drawing.tiles);
      page.boardEl.replaceChildren(new Zoom(this.board.el).el);
      this.board.setPlayers(animate ? v.players.map((p) => ({ ...p, tile: this.board.tiles[0]?.id ?? p.tile })) : v.players);
    }
    this.renderPlayers(v);
    this.renderControls(null); // nothing to click while the log plays
    for (const e of state.entries) {
      this.addLog(e);
      if (animate && this.board) await this.animate(e);
    }
    if (this.board) {
      this.board.setPlayers(v.players);
      this.board.setOwners(v.owners || {});
      this.board.setCurrent(v.over ? -1 : v.current);
    }
    if (!v.waits.some((w) => w.kind === "bid")) this.sealed = false;
    this.renderPlayers(v);
    this.renderControls(v, state.legal);
    if (v.error) page.say("The match stopped: " + v.error);
  }

  async animate(e) {
    if (e.kind === "fired") {
      this.board.flash(e.at);
      await sleep(STEP_MS / 2);
      return;
    }
    if (e.kind !== "event") return;
    switch (e.type) {
      case "TILE_PASSED":
      case "TILE_LANDED":
        if (e.seat >= 0 && e.at) this.board.place(e.seat, e.at);
        await sleep(STEP_MS);
        break;
      case "DICE_ROLLED":
        showDice(this.page.controls, e.data?.dice || [e.amount], true);
        await sleep(STEP_MS * 2);
        break;
    }
  }

  // addLog writes an entry: walking past a tile is shown on the board and
  // written only for those who ask for details; a rule that fires names
  // its rule.
  addLog(e) {
    const li = this.page.addLog(e, { data: e.kind === "fired" ? { rule: e.subject } : {} });
    if (li && e.kind === "event" && e.type === "TILE_PASSED") li.classList.add("minor");
  }

  resultText(v) {
    if (!v?.over) return "";
    return resultLine(v.winners.map((i) => v.players[i]?.name).filter(Boolean), v.endReason);
  }

  tileName(id) {
    const t = this.tiles.get(id);
    return t ? t.name || t.id : id;
  }

  // counters are what the players' list shows of a player: the score by
  // the game's name for it (money where tiles have prices), and the
  // properties the game keeps for each player, by their labels, while
  // they are not at zero (Candy Land's "stuck" only when it holds).
  counters(v, p) {
    const out = [];
    const scoreName = v.scoreName || (this.money ? "money" : "score");
    if (v.scoreName || this.money || v.players.some((x) => x.score !== 0)) out.push(`${scoreName} ${p.score}`);
    for (const prop of p.propList || []) if (prop.value !== 0) out.push(`${prop.label} ${prop.value}`);
    return out;
  }

  renderPlayers(v) {
    const page = this.page;
    const owned = {};
    for (const seat of Object.values(v.owners || {})) owned[seat] = (owned[seat] || 0) + 1;
    page.playersEl.replaceChildren(...v.players.map((p) => {
      const seat = page.summary.seats[p.seat] || {};
      const counters = this.counters(v, p);
      const won = v.winners.includes(p.seat);
      const current = p.seat === v.current && !v.over;
      return h("li", { class: "player" + (current ? " current" : "") + (p.active ? "" : " out") + (won ? " winner" : ""), dataset: { seat: p.seat },
        "aria-current": current ? "true" : null },
        seatDot(p.seat),
        h("span", { class: "name" }, p.name, seat.bot ? " (bot)" : "", page.seatMark(p.seat)),
        won ? h("span", { class: "state state-won" }, "won") : !p.active ? h("span", { class: "state state-out" }, "out") : null,
        counters.length ? h("span", { class: "counters" }, counters.join(" · ")) : null,
        h("span", { class: "where" }, "on ", p.tileName || this.tileName(p.tile), owned[p.seat] ? ` · owns ${owned[p.seat]}` : ""));
    }));
  }

  renderControls(v, legal = []) {
    const page = this.page;
    const controls = page.controls;
    const dice = controls.querySelector(".dice");
    controls.replaceChildren();
    if (dice) controls.append(dice);
    if (!v) return;
    if (v.dice.length) showDice(controls, v.dice, false);
    if (v.card) {
      const fill = tileFill(v.card.colour);
      controls.append(h("div", { class: "card-drawn", id: "card", title: v.card.deckName ? `a ${v.card.deckName} card` : "the card drawn" },
        fill ? h("span", { class: "swatch", style: `background:${fill}`, "aria-hidden": "true" }) : null, v.card.name));
    }
    if (v.over || v.error) return;
    const mine = v.yourWaits[0];
    if (legal.length && mine) {
      const send = (c) => {
        for (const b of controls.querySelectorAll("button")) b.disabled = true;
        if (c.data.kind === "bid") this.sealed = true;
        page.send(c.data);
      };
      if (legal.length === 1) {
        const c = legal[0];
        controls.append(h("button", { type: "button", id: c.data.kind === "roll" ? "roll" : "decide", class: "primary big", dataset: { kind: c.data.kind },
          onclick: () => send(c) }, c.text));
        return;
      }
      const others = v.waits.filter((w) => w.kind === mine.kind && w.player !== page.you).map((w) => v.players[w.player]?.name);
      controls.append(h("p", { class: "ask", id: "ask" }, mine.prompt,
        mine.kind === "bid" ? h("span", { class: "hint" }, others.length
          ? ` — sealed: ${others.join(", ")} ${others.length === 1 ? "bids" : "bid"} at the same time, and nobody sees a bid before all are in`
          : " — sealed until all bids are in") : null),
      h("div", { class: "choices", role: "group", "aria-labelledby": "ask" }, legal.map((c, i) =>
        h("button", { type: "button", class: "option" + (c.data.kind === "buy" && i === 0 ? " primary" : ""),
          dataset: { kind: c.data.kind, value: c.data.value ?? 0 }, onclick: () => send(c) }, c.text))));
      return;
    }
    const first = v.waits[0];
    if (!first) return;
    const who = [...new Set(v.waits.filter((w) => w.kind === first.kind).map((w) => v.players[w.player]?.name))];
    if (first.kind === "bid" && this.sealed) {
      controls.append(h("p", { class: "hint", id: "waiting" }, `Your bid is in, sealed until everyone has bid. Waiting for ${who.join(", ")}.`));
      return;
    }
    controls.append(h("p", { class: "hint", id: "waiting" }, `Waiting for ${who.join(", ")} ${waitWords[first.kind] || "to answer"}`,
      first.kind === "bid" ? " (bids are sealed until all are in)" : ""));
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
