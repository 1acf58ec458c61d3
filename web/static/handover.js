// Pass-and-play: one device holds several seats of a match. The page
// sees and plays as one seat at a time, and switches to whichever of its
// seats the match waits for. Where a seat's view holds a secret (a hand of
// cards), the page first shows what someone watching sees, covered by a
// "pass the device" screen, and asks for the next player's view only once
// that player says they hold the device.
import { h, api, saveSecrets } from "./util.js";

export class Handover {
  constructor(page) {
    this.page = page;
    this.last = null; // the latest seats message
    this.confirmed = undefined; // the seat whose player said they hold the device
    this.cover = h("div", { class: "handover", id: "handover", hidden: true, role: "dialog", "aria-modal": "true", "aria-labelledby": "handover-title" });
    page.root.append(this.cover);
  }

  // seats takes where the device's seats stand (a "seats" message, after
  // the state it goes with is shown) and passes the device on if the
  // match waits for another of them.
  seats(msg) {
    this.last = msg;
    const page = this.page;
    const changed = page.held.join(",") !== msg.held.join(",");
    page.held = msg.held;
    page.root.dataset.held = msg.held.join(",");
    if (changed) {
      page.renderTable();
      page.renderTurn?.();
    }
    if (page.switching !== undefined) return; // a switch is under way
    // The seat to show: the one shown if the match waits for it, else the
    // first of the device's seats it waits for.
    const want = msg.ready.includes(msg.seat) ? msg.seat : msg.ready[0];
    if (!msg.secret) {
      // Nothing to hide: the page follows the turn.
      if (want !== undefined && want !== msg.seat) this.switchTo(want, true);
      else if (msg.seat < 0) this.switchTo(want ?? msg.held[0], true);
      return;
    }
    if (want === undefined) return; // none of the device's players is asked
    if (msg.seat === want && this.confirmed === want) return; // they hold it
    // Hide the table (what someone watching sees, under the cover) until
    // the player whose turn it is says they hold the device.
    if (msg.seat >= 0) this.switchTo(-1, false);
    if (this.cover.hidden || this.cover.dataset.seat !== String(want)) this.show(want);
  }

  // show covers the page and asks the next player to take the device.
  show(seat) {
    const name = this.page.name(seat);
    this.cover.dataset.seat = seat;
    this.cover.replaceChildren(h("div", { class: "handover-card" },
      h("h2", { id: "handover-title" }, `Pass the device to ${name}`),
      h("p", {}, `${name}'s turn. What ${name} sees is for ${name} alone: the others look away.`),
      h("button", { type: "button", class: "primary", id: "handover-ready", onclick: () => this.ready(seat) }, `I am ${name}: show my turn`)));
    this.cover.hidden = false;
    this.page.root.classList.add("covered");
    this.page.root.dataset.handover = name;
    this.cover.querySelector("button").focus();
  }

  ready(seat) {
    this.confirmed = seat;
    this.cover.hidden = true;
    this.page.root.classList.remove("covered");
    delete this.page.root.dataset.handover;
    this.switchTo(seat, false);
  }

  // switchTo asks for a seat's view: keepLog keeps the log shown (the
  // seats see the same log), else it is cleared and sent again.
  switchTo(seat, keepLog) {
    const page = this.page;
    if (!keepLog) page.clearLog();
    page.switching = seat;
    page.viewSeat = seat;
    if (page.sendRaw({ type: "seat", seat, log: keepLog ? page.logSeen : 0 }) === null) page.switching = undefined;
  }

  // addPlayerForm is the table's form to seat one more player on this
  // device.
  addPlayerForm() {
    const page = this.page;
    const name = h("input", { id: "add-name", maxlength: 24, required: true, autocomplete: "off" });
    return h("form", { id: "add-player", class: "add-player", onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api("POST", `/api/matches/${page.id}/join`, { name: name.value, token: page.secrets.token });
        saveSecrets(page.id, { shared: true });
        page.secrets.shared = true;
        name.value = "";
      } catch (err) {
        page.say(err.message);
      }
    } }, h("label", { for: "add-name" }, "Playing on one device? Add a player here: "), name, " ",
    h("button", { type: "submit", id: "add-player-button" }, "Add a player on this device"));
  }
}
