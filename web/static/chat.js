// The table's chat: short messages beside the log. They ride beside the
// match ({"type": "chat"} messages), never in its state. Every text a
// stranger wrote is put in the page with textContent (h() makes text
// nodes), never parsed as HTML.
import { h, api, seatDot } from "./util.js";

// MAX is the server's longest message, in characters.
const MAX = 200;

export class Chat {
  constructor(page) {
    this.page = page;
    this.seen = new Set(); // message numbers shown, so that none shows twice
    this.pending = new Set(); // ids of messages sent and not yet answered
    this.list = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-relevant": "additions", "aria-labelledby": "chat-title", tabindex: "0" });
    this.input = h("input", { id: "chat-text", maxlength: MAX, autocomplete: "off", enterkeyhint: "send", placeholder: "Say something to the table" });
    this.nameIn = h("input", { id: "chat-name", maxlength: 24, autocomplete: "nickname", value: localStorage.getItem("tabula:nickname") || "" });
    this.nameRow = h("p", { class: "chat-name", hidden: true }, h("label", { for: "chat-name" }, "Your name (you are watching)"), this.nameIn);
    this.status = h("p", { class: "chat-status", id: "chat-status", role: "status" });
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => this.submit(e) },
      h("label", { for: "chat-text", class: "visually-hidden" }, "Message"), this.input,
      h("button", { type: "submit", id: "chat-send" }, "Send"));
    this.ownerEl = h("div", { class: "chat-owner", id: "chat-owner" });
    this.el = h("section", { class: "card chat", id: "chat", "aria-labelledby": "chat-title" },
      h("h2", { id: "chat-title" }, "Table chat"), this.list, this.nameRow, this.form, this.status, this.ownerEl);
    this.render();
  }

  // receive shows a chat message from the server: new messages, or the
  // last ones when the connection (re)joins.
  receive(msg) {
    for (const m of msg.messages || []) {
      if (this.seen.has(m.seq)) continue;
      this.seen.add(m.seq);
      this.list.querySelector(".none")?.remove();
      const seat = m.seat >= 0 ? seatDot(m.seat) : null;
      const when = new Date(m.at);
      this.list.append(h("li", { class: "chat-msg", dataset: { seq: m.seq, seat: m.seat } }, seat,
        h("strong", { class: "who" }, m.name, m.seat < 0 ? " (watching)" : ""), " ",
        h("span", { class: "text" }, m.text),
        isNaN(when) ? null : h("time", { datetime: m.at, class: "hint" }, " " + when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }))));
    }
    this.list.scrollTop = this.list.scrollHeight;
  }

  // readOnly shows the messages of a finished match's chat, for its
  // replay: nobody writes there.
  readOnly(messages) {
    this.render = () => {};
    this.form.hidden = this.nameRow.hidden = true;
    this.ownerEl.replaceChildren();
    this.say("");
    this.receive({ messages });
    if (!messages?.length) this.list.replaceChildren(h("li", { class: "hint none" }, "Nobody wrote in this match's chat."));
  }

  // owns reports whether a reply is for a chat message of this page.
  owns(id) {
    return this.pending.has(id);
  }

  // answered takes the server's reply to a message sent: an
  // acknowledgement, or a refusal whose reason the chat shows.
  answered(msg) {
    this.pending.delete(msg.id);
    if (msg.type === "rejected") {
      this.say(msg.reason, true);
    } else {
      this.say("");
    }
  }

  say(text, error = false) {
    this.status.textContent = text;
    this.status.classList.toggle("error", error);
  }

  submit(e) {
    e.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    const msg = { type: "chat", text };
    if (this.page.you < 0 && !this.page.held?.length) {
      const name = this.nameIn.value.trim();
      if (!name) {
        this.say("Write your name first: it shows beside your messages.", true);
        this.nameIn.focus();
        return;
      }
      localStorage.setItem("tabula:nickname", name);
      msg.name = name;
    }
    const id = this.page.sendRaw(msg);
    if (id === null) {
      this.say("Not connected: the message was not sent.", true);
      return;
    }
    this.pending.add(id);
    this.input.value = "";
  }

  // render shows who may write: the players (unless muted), and those
  // watching if the match's creator lets them; the creator's switches.
  render() {
    const s = this.page.summary;
    if (!s) return;
    const player = this.page.you >= 0 || this.page.held?.length > 0;
    const seat = this.page.you >= 0 ? this.page.you : this.page.held?.[0];
    const muted = player && s.seats[seat]?.muted;
    const may = player ? !muted : !!s.spectatorChat;
    this.form.hidden = !may;
    this.nameRow.hidden = !may || player;
    if (!may) this.say(muted ? "The match's creator muted you in this chat." : "Only the players write here.");
    else if (this.status.textContent.startsWith("Only the players") || this.status.textContent.startsWith("The match's creator muted")) this.say("");
    if (!this.list.children.length) this.list.append(h("li", { class: "hint none" }, "No message yet."));
    this.renderOwner(s);
  }

  // renderOwner gives the match's creator their switches: whether those
  // watching may write, and muting a player.
  renderOwner(s) {
    const owner = this.page.secrets?.owner;
    this.ownerEl.replaceChildren();
    if (!owner) return;
    const box = h("input", { type: "checkbox", id: "spectator-chat", checked: !!s.spectatorChat, onchange: async (e) => {
      try {
        await api("POST", `/api/matches/${this.page.id}/settings`, { owner, spectatorChat: e.target.checked });
      } catch (err) {
        this.say(err.message, true);
      }
    } });
    // Other people: not the seats of the owner's own device.
    const mine = new Set([this.page.you, ...(this.page.held || [])]);
    const people = s.seats.map((seat, i) => ({ seat, i })).filter(({ seat, i }) => seat.name && (seat.human || seat.muted) && !mine.has(i));
    this.ownerEl.append(h("p", { class: "check" }, box, h("label", { for: "spectator-chat" }, " Those watching may write here")));
    if (people.length) {
      this.ownerEl.append(h("p", { class: "mutes" }, people.map(({ seat, i }) =>
        h("button", { type: "button", class: "link mute", dataset: { seat: i }, "aria-pressed": !!seat.muted, onclick: () => this.mute(i, !seat.muted) },
          seat.muted ? `let ${seat.name} write` : `mute ${seat.name}`))));
    }
  }

  async mute(seat, on) {
    try {
      await api("POST", `/api/matches/${this.page.id}/seats/${seat}`, { owner: this.page.secrets.owner, mute: on });
    } catch (err) {
      this.say(err.message, true);
    }
  }
}
