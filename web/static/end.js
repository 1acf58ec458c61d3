// The end of a match: how it ended, the seats ranked with the figures
// their game counts (money, drinks, ship damage, hit points, pieces
// home…), and what to do next: play again, or watch the replay. The
// ranking comes from the server ("standings"); a game that counts nothing
// still ranks its winners first.
import { h, seatDot } from "./util.js";

// endScreen is the finished match's panel, for the table's card. page is
// the match page: its summary, its view, its secrets and its rematch.
export function endScreen(page, standings) {
  const s = page.summary;
  const result = page.renderer.resultText?.(page.view) || `Game over: ${s.result || "no winner"}`;
  const actions = h("p", { class: "end-actions" });
  if (s.next) {
    const mine = page.you >= 0 || page.secrets.owner;
    actions.append(h("a", { href: `/m/${s.next}`, id: "rematch-link", class: "button primary", onclick: () => page.carrySecrets(s.next) },
      mine ? "Join the rematch" : "Watch the rematch"), " ");
  } else if (page.you >= 0 || page.secrets.owner) {
    actions.append(h("button", { type: "button", id: "rematch", class: "primary", onclick: (e) => page.rematch(e.target) }, "Play again"), " ");
  }
  actions.append(h("a", { href: `/m/${page.id}?replay`, id: "replay-link", class: "button" }, "Watch the replay"));
  return h("section", { class: "end", id: "end", "aria-labelledby": "result" },
    h("p", { class: "end-result" }, page.you < 0 ? [h("span", { class: "badge" }, "watching"), " "] : null, h("strong", { id: "result" }, result)),
    standings ? rankingTable(standings, (seat) => page.name(seat), page.mine()) : null,
    actions);
}

// rankingTable draws the standings: place, player, each figure, a note.
// name names a seat; you is the viewer's seat, marked in the table.
export function rankingTable(standings, name, you = -1) {
  const notes = standings.seats.some((row) => row.note && row.note !== name(row.seat));
  return h("table", { class: "standings", id: "standings" },
    h("caption", {}, "Final standings"),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"),
      // A figure's label heads its column as the others do ("Drinks").
      standings.figures.map((f) => h("th", { scope: "col", class: "figure" }, f.charAt(0).toUpperCase() + f.slice(1))),
      notes ? h("th", { scope: "col" }, "") : null)),
    h("tbody", {}, standings.seats.map((row) =>
      h("tr", { class: (row.place === 1 ? "first" : "") + (row.seat === you ? " you" : ""), dataset: { seat: row.seat, place: row.place } },
        h("td", { class: "place" }, ordinal(row.place)),
        h("th", { scope: "row", class: "player" }, seatDot(row.seat), " ", name(row.seat), row.seat === you ? " (you)" : ""),
        row.values.map((v) => h("td", { class: /^[-−+]?\d/.test(v) ? "figure num" : "figure" }, v)),
        notes ? h("td", { class: "note" }, row.note && row.note !== name(row.seat) ? row.note : "") : null))));
}

// ordinal writes a place as people say it: 1st, 2nd, 3rd, 11th.
export function ordinal(n) {
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}
