// Tabula's page: the lobby at /, a match at /m/ID, the rule editor at
// /edit. No build step: plain ES modules talking to the server's JSON API
// and WebSocket.
import { lobby } from "./lobby.js";
import { matchPage } from "./match.js";
import { editorPage } from "./editor.js";

const app = document.getElementById("app");

function route() {
  const m = location.pathname.match(/^\/m\/([0-9a-z]+)/i);
  app.replaceChildren();
  if (m) {
    matchPage(app, m[1]);
  } else if (location.pathname === "/edit") {
    editorPage(app);
  } else {
    lobby(app);
  }
}

route();
