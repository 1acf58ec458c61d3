// The lobby: the games to play, pack by pack (bundled, from the server's
// folder, saved by players), a form to start a match, the matches this
// browser plays or created ("My matches"), the public matches (open ones
// first), and uploading a game.
import { h, api, saveSecrets, secrets, secretQuery, heldMatches, forgetMatch, gameSecrets, saveGameSecret, ago, plural, packs } from "./util.js";


const statusWords = { lobby: "open", playing: "being played", finished: "finished", abandoned: "abandoned", broken: "broken" };

export async function lobby(root) {
  document.title = "Tabula";
  const l = new Lobby(root);
  await l.start();
  return l;
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.games = [];
    this.finishedNext = "";
  }

  async start() {
    this.layout();
    await this.loadGames();
    this.renderMine();
    await this.loadMatches();
    const timer = setInterval(() => this.loadMatches(true).catch(() => {}), 10000);
    window.addEventListener("pagehide", () => clearInterval(timer), { once: true });
  }

  layout() {
    this.gameSel = h("select", { id: "board", name: "board", onchange: () => this.showChoice() });
    this.seats = h("input", { id: "seats", name: "seats", type: "number", min: 1, max: 12, value: 2, inputmode: "numeric" });
    this.seatsHint = h("span", { class: "hint", id: "seats-hint" });
    this.choice = h("p", { class: "hint game-choice", id: "game-choice" });
    this.priv = h("input", { type: "radio", name: "visibility", id: "vis-private", value: "private", checked: true });
    this.pub = h("input", { type: "radio", name: "visibility", id: "vis-public", value: "public" });
    this.turnLimit = h("select", { id: "turn-limit", name: "turnLimit" },
      [[0, "none"], [30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"], [86400, "1 day (play by post)"]].map(([v, t]) =>
        h("option", { value: v }, t)));
    this.autoAck = h("input", { type: "checkbox", id: "auto-ack", name: "autoAck" });
    this.autoAckRow = h("p", { class: "check", hidden: true }, this.autoAck,
      h("label", { for: "auto-ack" }, " Acknowledge messages for everybody: the board's messages are shown, but nobody has to press OK"));
    this.compat = h("input", { type: "checkbox", id: "compat", name: "compat", onchange: () => this.showChoice() });
    this.compatRow = h("p", { class: "check", hidden: true }, this.compat,
      h("label", { for: "compat" }, " Play as the original game did, quirks included (exit events fire again, skip-turn effects never skip, 1 to 8 players): see how a board behaved there"));
    this.createMsg = h("p", { class: "message error", role: "alert" });
    // Whoever creates a match sits at it: their name first.
    this.creatorName = h("input", { id: "creator-name", name: "name", maxlength: 24, required: true, autocomplete: "nickname",
      value: localStorage.getItem("tabula:nickname") || "" });
    const create = h("form", { id: "create", class: "card", "aria-labelledby": "create-title", onsubmit: (e) => this.create(e) },
      h("h2", { id: "create-title" }, "Start a match"),
      h("p", {}, h("label", { for: "creator-name" }, "Your nickname"), this.creatorName,
        h("span", { class: "hint" }, " you take the first seat; friends, or more players on this device, join next")),
      h("p", {}, h("label", { for: "board" }, "Game"), this.gameSel),
      this.choice,
      h("p", {}, h("label", { for: "seats" }, "Seats"), this.seats, " ", this.seatsHint),
      h("fieldset", { class: "visibility" }, h("legend", {}, "Who may join"),
        h("p", { class: "check" }, this.priv, h("label", { for: "vis-private" }, " Private (the usual): only people you send the match's link to can see it, join it or watch it")),
        h("p", { class: "check" }, this.pub, h("label", { for: "vis-public" }, " Public: listed in this lobby, where anyone may join a free seat or watch"))),
      h("p", {}, h("label", { for: "turn-limit" }, "Time for each move"), this.turnLimit,
        h("span", { class: "hint" }, " when it runs out, a bot plays that move")),
      this.autoAckRow,
      this.compatRow,
      h("p", {}, h("button", { type: "submit", id: "create-match", class: "primary" }, "Create the match"), " ",
        h("a", { href: "/edit", id: "edit-board", onclick: (e) => {
          e.preventDefault();
          location.href = "/edit?board=" + encodeURIComponent(this.gameSel.value);
        } }, "Open this game in the editor")),
      this.createMsg);

    this.gamesEl = h("div", { id: "games" });
    this.mineEl = h("ul", { id: "my-matches", class: "matches" });
    this.openEl = h("ul", { id: "open-matches", class: "matches" });
    this.playingEl = h("ul", { id: "playing-matches", class: "matches" });
    this.finishedEl = h("ul", { id: "finished-matches", class: "matches" });
    this.moreBtn = h("button", { type: "button", id: "more-finished", hidden: true, onclick: () => this.loadFinished(false) }, "more");

    const fileInput = h("input", { type: "file", id: "board-file", name: "file", accept: ".json,.zip,application/json,application/zip" });
    this.uploadOut = h("div", { id: "upload-result", "aria-live": "polite" });
    const upload = h("form", { id: "upload", class: "card", "aria-labelledby": "upload-title", onsubmit: (e) => this.upload(e, fileInput) },
      h("h2", { id: "upload-title" }, "Your own game"),
      h("p", { class: "hint" }, "Upload a game file: a party board, a rule book, a lane game (JSON), or a game of several files as a zip archive (a skirmish with its combatants). Or make one in the ",
        h("a", { href: "/edit" }, "editor"), ". It is checked first: every problem is listed with its line and place in the file."),
      h("p", {}, h("label", { for: "board-file" }, "Game file"), fileInput),
      h("p", {}, h("button", { type: "submit", id: "upload-board" }, "Upload")),
      this.uploadOut);

    this.root.replaceChildren(
      h("header", { class: "top" }, h("h1", { class: "brand" }, "Tabula"), h("p", { class: "tagline" }, "Board games with friends, in the browser."),
        h("nav", { class: "nav", "aria-label": "pages" }, h("a", { href: "/edit", id: "editor-link" }, "Game editor"))),
      h("main", { class: "lobby" },
        create,
        h("section", { class: "card", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, "My matches"),
          h("p", { class: "hint" }, "The matches you created or joined in this browser."), this.mineEl),
        h("section", { class: "card wide", "aria-labelledby": "public-title" }, h("h2", { id: "public-title" }, "Public matches"),
          h("h3", {}, "Open: join a free seat"), this.openEl,
          h("h3", {}, "Being played: watch"), this.playingEl,
          h("h3", {}, "Finished"), this.finishedEl, this.moreBtn),
        h("section", { class: "card wide", "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, "Games"), this.gamesEl),
        upload));
  }

  // --- games ---

  async loadGames(selected) {
    const all = await api("GET", "/api/boards");
    // One entry per distinct game: the first of the same contents.
    const seen = new Set();
    this.games = all.filter((g) => !seen.has(g.hash) && seen.add(g.hash));
    const keep = selected || this.gameSel.value;
    const groups = this.groups();
    this.gameSel.replaceChildren(...groups.map(([, name, , list]) => h("optgroup", { label: name }, list.map((g) =>
      h("option", { value: g.id, selected: g.id === keep }, g.name + (g.source === "saved" ? " (saved)" : ""))))));
    this.showChoice();
    this.renderGames(groups);
  }

  // groups are the games by pack, known packs first.
  groups() {
    const known = packs.map(([id, name, doc]) => [id, name, doc, this.games.filter((g) => g.game === id)]);
    const others = [...new Set(this.games.map((g) => g.game))].filter((p) => !packs.some(([id]) => id === p))
      .map((p) => [p, p, "", this.games.filter((g) => g.game === p)]);
    return [...known, ...others].filter(([, , , list]) => list.length);
  }

  game(id) {
    return this.games.find((g) => g.id === id);
  }

  // showChoice describes the chosen game and bounds its seats.
  showChoice() {
    const g = this.game(this.gameSel.value);
    if (!g) return;
    this.choice.textContent = `${g.description || ""} ${playersText(g)}${g.size ? ", " + g.size : ""}.`.trim();
    this.autoAckRow.hidden = g.game !== "party";
    this.compatRow.hidden = g.game !== "party";
    if (g.game !== "party") this.autoAck.checked = this.compat.checked = false;
    // The original game lets 1 to 8 players play any board.
    const [lo, hi] = this.compat.checked ? [1, 8] : [g.minPlayers, g.maxPlayers];
    this.seats.min = lo;
    this.seats.max = hi;
    const n = Number(this.seats.value);
    if (!(n >= lo && n <= hi)) this.seats.value = Math.min(hi, Math.max(2, lo));
    this.seatsHint.textContent = lo === hi ? `(${lo} for this game)` : `(${lo} to ${hi})`;
  }

  renderGames(groups) {
    const mine = gameSecrets();
    this.gamesEl.replaceChildren(...groups.map(([id, name, doc, list]) =>
      h("section", { class: "pack", dataset: { pack: id }, "aria-labelledby": `pack-${id}` },
        h("h3", { id: `pack-${id}` }, name), doc ? h("p", { class: "hint" }, doc) : null,
        h("ul", { class: "game-list" }, list.map((g) => this.gameItem(g, mine[g.id]))))));
  }

  gameItem(g, secret) {
    const li = h("li", { class: "game", dataset: { id: g.id, source: g.source } });
    const title = h("h4", {}, g.name);
    const actions = h("p", { class: "actions" },
      h("button", { type: "button", class: "play", onclick: () => {
        this.gameSel.value = g.id;
        this.showChoice();
        this.gameSel.focus();
        this.gameSel.scrollIntoView({ block: "center" });
      } }, "Play", h("span", { class: "visually-hidden" }, ` ${g.name}`)), " ",
      h("a", { href: `/edit?board=${encodeURIComponent(g.id)}`, class: "edit" }, "Edit", h("span", { class: "visually-hidden" }, ` ${g.name}`)));
    if (secret) {
      actions.append(" ",
        h("button", { type: "button", class: "link rename", onclick: () => this.rename(li, g, secret) }, "Rename"), " ",
        h("button", { type: "button", class: "link delete", onclick: () => this.remove(g, secret) }, "Delete"));
    }
    li.append(...[title,
      g.preview ? h("img", { class: "preview", src: g.preview, alt: "", loading: "lazy" }) : null,
      h("p", { class: "meta" }, playersText(g), g.size ? ` · ${g.size}` : "", g.source === "saved" ? " · saved by a player" : g.source === "folder" ? " · from the server's folder" : ""),
      g.description ? h("p", { class: "description" }, g.description) : null,
      g.howToPlay ? h("details", { class: "how-to-play" }, h("summary", {}, "How to play"), h("p", {}, g.howToPlay)) : null,
      actions].filter(Boolean));
    return li;
  }

  // rename turns the game's title into a form.
  rename(li, g, secret) {
    const input = h("input", { id: `rename-${g.id}`, value: g.name, maxlength: 80, required: true });
    const msg = h("span", { class: "error", role: "alert" });
    const form = h("form", { class: "rename-form", onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api("PATCH", `/api/boards/${encodeURIComponent(g.id)}`, { secret, name: input.value });
        await this.loadGames();
      } catch (err) {
        msg.textContent = err.message;
      }
    } }, h("label", { for: input.id, class: "visually-hidden" }, `New name for ${g.name}`), input, " ",
    h("button", { type: "submit" }, "Save"), " ",
    h("button", { type: "button", class: "link", onclick: () => this.loadGames() }, "Cancel"), " ", msg);
    li.querySelector("h4").replaceWith(form);
    input.focus();
    input.select();
  }

  async remove(g, secret) {
    if (!confirm(`Delete “${g.name}” from the library? Matches played on it keep their copy.`)) return;
    try {
      await api("DELETE", `/api/boards/${encodeURIComponent(g.id)}`, { secret });
      saveGameSecret(g.id, "");
      await this.loadGames();
    } catch (err) {
      alert(err.message);
    }
  }

  async upload(e, fileInput) {
    e.preventDefault();
    const out = this.uploadOut;
    out.replaceChildren();
    if (!fileInput.files.length) {
      out.append(h("p", { class: "error" }, "Choose a file first."));
      return;
    }
    const fd = new FormData();
    fd.append("file", fileInput.files[0]);
    try {
      const res = await api("POST", "/api/boards", fd);
      if (res.secret) saveGameSecret(res.board.id, res.secret);
      out.append(h("p", { class: "ok", id: "upload-ok" }, res.secret
        ? `“${res.board.name}” is valid and in the library: choose it above to play. You may rename or delete it from this browser.`
        : `“${res.board.name}” is valid; the library had it already.`));
      showDiagnostics(out, res.diagnostics);
      await this.loadGames(res.board.id);
    } catch (err) {
      out.append(h("p", { class: "error", id: "upload-error" }, err.message));
      showDiagnostics(out, err.diagnostics);
    }
  }

  // --- creating a match ---

  async create(e) {
    e.preventDefault();
    this.createMsg.textContent = "";
    const g = this.game(this.gameSel.value);
    try {
      const m = await api("POST", "/api/matches", {
        board: this.gameSel.value, seats: Number(this.seats.value), public: this.pub.checked,
        turnLimit: Number(this.turnLimit.value), autoAck: g?.game === "party" && this.autoAck.checked,
        compat: g?.game === "party" && this.compat.checked ? "original" : "",
        name: this.creatorName.value,
      });
      localStorage.setItem("tabula:nickname", this.creatorName.value.trim());
      saveSecrets(m.id, { owner: m.owner, invite: m.invite, token: m.token });
      location.href = m.url;
    } catch (err) {
      this.createMsg.textContent = err.message;
    }
  }

  // --- matches ---

  // renderMine fetches, with its secrets, every match this browser holds
  // secrets for.
  async renderMine() {
    const held = heldMatches();
    if (!held.length) {
      this.mineEl.replaceChildren(h("li", { class: "hint" }, "None yet: start one, or open a link a friend sent you."));
      return;
    }
    const items = await Promise.all(held.map(async (s) => {
      try {
        const m = await api("GET", `/api/matches/${s.id}${secretQuery(secrets(s.id))}`);
        return this.matchItem(m, s);
      } catch (err) {
        if (err.status !== 404 && err.status !== 403) return h("li", { class: "match" }, `${s.id}: ${err.message}`);
        return h("li", { class: "match gone", dataset: { id: s.id } }, h("span", { class: "hint" }, "A match that is no longer here"), " ",
          h("button", { type: "button", class: "link", onclick: () => {
            forgetMatch(s.id);
            this.renderMine();
          } }, "forget it"));
      }
    }));
    this.mineEl.replaceChildren(...items);
  }

  matchItem(m, held) {
    const names = m.seats.filter((s) => s.name).map((s) => s.name);
    const free = m.seats.length - names.length;
    const people = [...names, free ? plural(free, "free seat") : ""].filter(Boolean).join(", ");
    const mine = held && (held.owner ? (held.token ? "you created it and play" : "you created it") : held.token ? "you play" : "invited");
    const what = { lobby: "join", playing: held?.token ? "play" : "watch", finished: "see the end" }[m.status] || "open";
    const when = m.status === "lobby" ? `created ${ago(m.created)}` : `${statusWords[m.status] || m.status} · ${ago(m.updated || m.created)}`;
    return h("li", { class: "match status-" + m.status, dataset: { id: m.id, status: m.status } },
      h("a", { href: "/m/" + m.id }, m.boardName, h("span", { class: "visually-hidden" }, ` (${what})`)),
      h("span", { class: "badge" + (m.status === "lobby" ? " open" : "") }, statusWords[m.status] || m.status),
      h("span", { class: "people" }, people),
      h("span", { class: "age" }, when),
      mine ? h("span", { class: "hint" }, mine) : null,
      m.result ? h("span", { class: "result" }, m.result) : null);
  }

  async loadMatches(refresh) {
    const [open, playing] = await Promise.all([api("GET", "/api/matches?status=lobby&limit=50"), api("GET", "/api/matches?status=playing&limit=50")]);
    const fill = (el, list, none) => el.replaceChildren(...(list.length ? list.map((m) => this.matchItem(m)) : [h("li", { class: "hint" }, none)]));
    fill(this.openEl, open.matches, "No open public match: create one.");
    fill(this.playingEl, playing.matches, "None right now.");
    if (!refresh) await this.loadFinished(true);
  }

  // loadFinished lists finished public matches, newest first, a page at a
  // time: "more" adds the next page.
  async loadFinished(first) {
    const q = first ? "" : `&before=${encodeURIComponent(this.finishedNext)}`;
    const page = await api("GET", `/api/matches?status=finished&limit=10${q}`);
    const items = page.matches.map((m) => this.matchItem(m));
    if (first) this.finishedEl.replaceChildren(...(items.length ? items : [h("li", { class: "hint" }, "None yet.")]));
    else this.finishedEl.append(...items);
    this.finishedNext = page.next || "";
    this.moreBtn.hidden = !this.finishedNext;
  }
}

function playersText(g) {
  return g.minPlayers === g.maxPlayers ? plural(g.minPlayers, "player") : `${g.minPlayers}–${g.maxPlayers} players`;
}

export function showDiagnostics(el, diags) {
  if (!diags || !diags.length) return;
  el.append(h("ul", { class: "diagnostics" }, diags.map((d) =>
    h("li", { class: d.severity },
      h("code", {}, `${d.file}${d.line ? `:${d.line}:${d.col}` : ""}`), " ",
      d.pointer ? h("code", { class: "pointer" }, d.pointer) : null, " ",
      d.severity === "warning" ? "warning: " : "", d.message))));
}
