// How to play, on demand: a button beside the game's name that opens a
// panel with what the game is and how it is played, as its file tells
// players (info.description, info.howToPlay). A game whose file says
// nothing of how to play still says what it is.
import { h } from "./util.js";

// howToPlay returns the button and the panel (a dialog of its own, so that
// it never stands in the way of a question the match asks).
export function howToPlay(info, name) {
  const close = h("button", { type: "button", id: "how-close", class: "primary" }, "Close");
  const panel = h("dialog", { id: "how-to-play", class: "how-to-play", "aria-labelledby": "how-title" },
    h("h2", { id: "how-title" }, `How to play ${name}`),
    info.description ? h("p", { class: "how-what" }, info.description) : null,
    info.howToPlay
      ? info.howToPlay.split(/\n\s*\n/).map((para) => h("p", { class: "how-text" }, para))
      : h("p", { class: "hint" }, info.description ? "The game's file says no more about how to play it." : "The game's file says nothing about how to play it."),
    playersLine(info),
    h("p", {}, close));
  close.addEventListener("click", () => panel.close());
  const button = h("button", { type: "button", class: "link", id: "how-button", "aria-haspopup": "dialog",
    onclick: () => panel.open ? panel.close() : panel.showModal() }, "How to play");
  return { button, panel };
}

// playersLine says how many play, and the seats' roles if the game has
// any ("heroes against goblins").
function playersLine(info) {
  if (!info.minPlayers) return null;
  const n = info.minPlayers === info.maxPlayers ? `${info.minPlayers}` : `${info.minPlayers} to ${info.maxPlayers}`;
  const roles = info.roles?.length ? `: ${info.roles.join(", ")}` : "";
  return h("p", { class: "hint" }, `For ${n} players${roles}.`);
}
