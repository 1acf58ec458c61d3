// The lobby: boards to play (bundled and uploaded), a form to start a
// match, and every match — open, being played, finished.
import { h, api, saveSecrets } from "./util.js";

export async function lobby(root) {
  document.title = "Tabula";
  const boardsSel = h("select", { id: "board", name: "board" });
  const seats = h("input", { id: "seats", type: "number", min: 1, max: 12, value: 4 });
  const createMsg = h("p", { class: "message", role: "status" });
  const uploadOut = h("div", { id: "upload-result" });
  const matchesList = h("ul", { id: "matches", class: "matches" });

  const createForm = h("form", { id: "create", class: "card",
    onsubmit: async (e) => {
      e.preventDefault();
      createMsg.textContent = "";
      try {
        const m = await api("POST", "/api/matches", { board: boardsSel.value, seats: Number(seats.value) });
        saveSecrets(m.id, { owner: m.owner });
        location.href = m.url;
      } catch (err) {
        createMsg.textContent = err.message;
      }
    } },
    h("h2", {}, "New match"),
    h("label", {}, "Board ", boardsSel),
    h("label", {}, "Seats ", seats),
    h("button", { type: "submit", id: "create-match" }, "Create match"), " ",
    h("a", { href: "/edit", id: "edit-board", onclick: (e) => {
      e.preventDefault();
      location.href = "/edit?board=" + encodeURIComponent(boardsSel.value);
    } }, "Edit this game"),
    createMsg);

  const fileInput = h("input", { type: "file", id: "board-file", name: "file", accept: ".json,application/json" });
  const uploadForm = h("form", { id: "upload", class: "card",
    onsubmit: async (e) => {
      e.preventDefault();
      uploadOut.replaceChildren();
      if (!fileInput.files.length) return;
      const fd = new FormData();
      fd.append("file", fileInput.files[0]);
      try {
        const res = await api("POST", "/api/boards", fd);
        uploadOut.append(h("p", { class: "ok" }, `“${res.board.name}” is valid and ready to play.`));
        showDiagnostics(uploadOut, res.diagnostics);
        await loadBoards(boardsSel, res.board.id);
      } catch (err) {
        uploadOut.append(h("p", { class: "error" }, err.message));
        showDiagnostics(uploadOut, err.diagnostics);
      }
    } },
    h("h2", {}, "Your own game"),
    h("p", { class: "hint" }, "Upload a party board or a rule book (JSON), or make one in the ", h("a", { href: "/edit" }, "rule editor"),
      ". It is checked first: every problem is listed with its line and place in the file."),
    fileInput,
    h("button", { type: "submit", id: "upload-board" }, "Upload"),
    uploadOut);

  root.replaceChildren(
    h("header", { class: "top" }, h("h1", {}, "Tabula"), h("p", { class: "tagline" }, "Board games with friends, in the browser."),
      h("a", { href: "/edit", id: "editor-link", class: "nav" }, "Rule editor")),
    h("section", { class: "lobby" }, createForm, uploadForm,
      h("div", { class: "card wide" }, h("h2", {}, "Matches"), matchesList)));

  await loadBoards(boardsSel);
  await loadMatches(matchesList);
  const timer = setInterval(() => loadMatches(matchesList).catch(() => {}), 5000);
  window.addEventListener("pagehide", () => clearInterval(timer), { once: true });
}

async function loadBoards(sel, selected) {
  const boards = await api("GET", "/api/boards");
  sel.replaceChildren(...boards.map((b) =>
    h("option", { value: b.id, selected: b.id === selected },
      `${b.name} (${b.game === "rulebook" ? `rule book, ${b.spaces} tiles` : `${b.spaces} spaces`}${b.source === "upload" ? ", uploaded" : ""})`)));
}

async function loadMatches(list) {
  const matches = await api("GET", "/api/matches");
  if (!matches.length) {
    list.replaceChildren(h("li", { class: "hint" }, "No matches yet: create one."));
    return;
  }
  list.replaceChildren(...matches.map((m) => {
    const people = m.seats.map((s) => s.name || "(free)").join(", ");
    const what = { lobby: "open — join", playing: "playing — watch", finished: "finished — replay", broken: "broken" }[m.status] || m.status;
    return h("li", { class: "match " + m.status },
      h("a", { href: "/m/" + m.id }, `${m.boardName}`),
      h("span", { class: "status" }, what),
      h("span", { class: "people" }, people),
      m.result ? h("span", { class: "result" }, m.result) : null);
  }));
}

export function showDiagnostics(el, diags) {
  if (!diags || !diags.length) return;
  el.append(h("ul", { class: "diagnostics" }, diags.map((d) =>
    h("li", { class: d.severity },
      h("code", {}, `${d.file}:${d.line}:${d.col}`), " ",
      h("code", { class: "pointer" }, d.pointer || "/"), " ",
      d.severity === "warning" ? "warning: " : "", d.message))));
}
