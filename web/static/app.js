// Tabula's page: the lobby at /, a match at /m/ID. No build step: plain ES
// modules talking to the server's JSON API and WebSocket.
import { lobby } from "./lobby.js";
import { matchPage } from "./match.js";

const app = document.getElementById("app");

function route() {
  const m = location.pathname.match(/^\/m\/([0-9a-z]+)/i);
  app.replaceChildren();
  if (m) {
    matchPage(app, m[1]);
  } else {
    lobby(app);
  }
}

route();
