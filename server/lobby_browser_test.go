package server

import (
	"archive/zip"
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tabulagames/tabula/examples"
)

// TestLobby: the games of every pack, grouped by pack with what they are;
// a private match (the default) and a public one created from the form;
// the public matches listed open ones first with their age, finished ones
// a page at a time; "My matches" from this browser's secrets; uploading a
// game (JSON, and a zip of several files) and renaming and deleting it,
// which only its uploader's browser may do.
func TestLobby(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	// Finished public matches, more than a page of them.
	for i := 0; i < 12; i++ {
		tb := ts.newTable("default", 2, nil, true, true, map[string]any{"public": true})
		ts.waitStatus(tb.ID, "", "finished")
	}
	b := newBrowser(t, exe)
	me, other := b.person(), b.person()
	watch(t, me, otherStyles...)
	b.run(me, chromedp.Navigate(ts.hs.URL+"/"), poll(`document.querySelectorAll("#games .game").length > 0`))

	// The games, pack by pack, each with its description, players and size.
	packs := b.eval(me, `[...document.querySelectorAll("#games .pack")].map(p => p.dataset.pack + ":" + p.querySelectorAll(".game").length).join(" ")`)
	if packs != "party:4 rulebook:3 lanes:2 skirmish:7 pieces:2" {
		t.Errorf("the games by pack: %s", packs)
	}
	if got := b.eval(me, `document.querySelector('#games .pack[data-pack="pieces"] h3')?.textContent || ""`); got != "Games of pieces" {
		t.Errorf("the games of pieces are headed %q", got)
	}
	def := b.eval(me, `document.querySelector('#games .game[data-id="default"]').innerText`)
	for _, want := range []string{"Tabula Party", "2–8 players", "11 spaces", "Eleven spaces of sips and dares", "How to play"} {
		if !strings.Contains(def, want) {
			t.Errorf("the default game's entry lacks %q:\n%s", want, def)
		}
	}
	// Every bundled game says how to play it, and the lobby speaks to
	// players, not to designers.
	if got := b.eval(me, `[...document.querySelectorAll("#games .game")].filter(g => !g.querySelector("details.how-to-play")).map(g => g.dataset.id).join(" ")`); got != "" {
		t.Errorf("bundled games without how to play: %s", got)
	}
	games := b.eval(me, `document.getElementById("games").textContent`)
	for _, designer := range []string{"CODE conditions", "CEL", "StartTurnRule", "effects[]", "rules.squads", "trigger"} {
		if strings.Contains(games, designer) {
			t.Errorf("the lobby speaks to designers: %q", designer)
		}
	}
	if got := b.eval(me, `document.querySelector('#games .game[data-id="duel"] .meta').textContent`); !strings.HasPrefix(got, "2 players · 2 combatants on a 8×4 map") {
		t.Errorf("the duel's entry: %q", got)
	}

	// A private match, as the form offers by default; then it is among
	// "My matches" and not in the public lists.
	b.run(me, chromedp.SetValue(chromedp.ID("board"), "default"), chromedp.SetValue(chromedp.ID("seats"), "3"))
	if got := b.eval(me, `document.getElementById("auto-ack").closest("p").hidden ? "hidden" : "shown"`); got != "shown" {
		t.Errorf("the party game's auto-acknowledge option is %s", got)
	}
	b.run(me, chromedp.SetValue(chromedp.ID("creator-name"), "Mo"), chromedp.Click(chromedp.ID("create-match")), chromedp.WaitVisible(chromedp.ID("share-link")))
	private := strings.TrimPrefix(b.eval(me, `location.pathname`), "/m/")
	var sum Summary
	ts.call("GET", "/api/matches/"+private+"?invite="+b.eval(me, `JSON.parse(localStorage.getItem("tabula:`+private+`")).invite`), nil, &sum)
	if sum.Public || len(sum.Seats) != 3 || sum.TurnLimit != 0 {
		t.Errorf("the match created by default: public %v, %d seats, turn limit %v", sum.Public, len(sum.Seats), sum.TurnLimit)
	}
	if got := b.eval(me, `document.querySelector(".share label").textContent`); !strings.Contains(got, "Private: only people with this link") {
		t.Errorf("the private match's table says: %q", got)
	}

	// A public rule book match, with a time limit.
	b.run(me, chromedp.Navigate(ts.hs.URL+"/"), poll(`document.querySelectorAll("#games .game").length > 0`),
		chromedp.SetValue(chromedp.ID("board"), "monopoly"), chromedp.SetValue(chromedp.ID("seats"), "4"),
		chromedp.Click(chromedp.ID("vis-public")), chromedp.SetValue(chromedp.ID("turn-limit"), "120"))
	if got := b.eval(me, `document.getElementById("auto-ack").closest("p").hidden ? "hidden" : "shown"`); got != "hidden" {
		t.Errorf("a rule book's form offers auto-acknowledge (%s)", got)
	}
	b.run(me, chromedp.SetValue(chromedp.ID("creator-name"), "Mo"), chromedp.Click(chromedp.ID("create-match")), chromedp.WaitVisible(chromedp.ID("share-link")))
	public := strings.TrimPrefix(b.eval(me, `location.pathname`), "/m/")
	ts.call("GET", "/api/matches/"+public, nil, &sum)
	if !sum.Public || len(sum.Seats) != 4 || sum.TurnLimit != 120 {
		t.Errorf("the public match: public %v, %d seats, turn limit %v", sum.Public, len(sum.Seats), sum.TurnLimit)
	}

	b.run(me, chromedp.Navigate(ts.hs.URL+"/"), poll(`document.querySelectorAll("#my-matches .match").length === 2`),
		poll(`document.querySelectorAll("#finished-matches .match").length > 0`))
	mine := b.eval(me, `[...document.querySelectorAll("#my-matches .match")].map(m => m.dataset.id + " " + m.innerText.replaceAll("\n", " ")).join("\n")`)
	if !strings.Contains(mine, private) || !strings.Contains(mine, public) || !strings.Contains(mine, "you created it") {
		t.Errorf("my matches:\n%s", mine)
	}
	open := b.eval(me, `[...document.querySelectorAll("#open-matches .match")].map(m => m.dataset.id + " " + m.innerText.replaceAll("\n", " ")).join("\n")`)
	if !strings.Contains(open, public) || strings.Contains(open, private) || !strings.Contains(open, "just now") {
		t.Errorf("the open public matches:\n%s", open)
	}
	if got := b.eval(me, `[...document.querySelectorAll("#public-title ~ h3, #public-title ~ ul")].map(e => e.id || e.textContent).join(",")`); !strings.HasPrefix(got, "Open") {
		t.Errorf("the public matches' sections, in order: %s", got)
	}
	if got := b.eval(me, `String(document.querySelectorAll("#finished-matches .match").length)`); got != "10" {
		t.Errorf("the first page of finished matches has %s", got)
	}
	b.run(me, chromedp.Click(chromedp.ID("more-finished")), poll(`document.querySelectorAll("#finished-matches .match").length === 12`),
		poll(`document.getElementById("more-finished").hidden`))
	ago, err := chromedp.Run(me, chromedp.Evaluate[string](`import("/util.js").then(u => [u.ago(Date.now() - 20e3), u.ago(Date.now() - 180e3), u.ago(Date.now() - 3 * 3600e3), u.ago(Date.now() - 50 * 3600e3)].join(", "))`,
		chromedp.EvalAwaitPromise))
	if err != nil || ago != "just now, 3 min ago, 3 h ago, 2 days ago" {
		t.Errorf("ages: %q %v", ago, err)
	}
	accessible(b, me, "the lobby")
	shoot(b, me, "lobby", `document.querySelectorAll("#games .game").length > 0`)

	// Uploading a game of one file, then the same again: one entry.
	dir := t.TempDir()
	board := filepath.Join(dir, "two-rhymes.json")
	must(t, os.WriteFile(board, []byte(forkBoard), 0o644))
	upload := func(path string) string {
		b.run(me, chromedp.SetUploadFiles(chromedp.ID("board-file"), []string{path}), chromedp.Click(chromedp.ID("upload-board")),
			poll(`!!document.querySelector("#upload-result p")`))
		return b.eval(me, `document.querySelector("#upload-result p").textContent`)
	}
	if got := upload(board); !strings.Contains(got, "“Two rhymes” is valid and in the library") {
		t.Fatalf("uploading: %q", got)
	}
	b.run(me, poll(`!!document.querySelector('#games .game[data-source="saved"]')`))
	id := b.eval(me, `document.querySelector('#games .game[data-source="saved"]').dataset.id`)
	if got := upload(board); !strings.Contains(got, "had it already") {
		t.Errorf("uploading the same game again: %q", got)
	}
	if n := b.eval(me, `String(document.querySelectorAll('#games .game[data-source="saved"]').length)`); n != "1" {
		t.Errorf("after uploading it twice, the game is listed %s times", n)
	}
	// A skirmish of several files, as a zip archive.
	if got := upload(skirmishZip(t, dir)); !strings.Contains(got, "“A duel in the dark” is valid") {
		t.Errorf("uploading a zip: %q", got)
	}
	b.run(me, poll(`[...document.querySelectorAll('#games .pack[data-pack="skirmish"] .game h4')].some(h => h.textContent === "A duel in the dark")`))
	// A broken file is refused with its problems.
	bad := filepath.Join(dir, "bad.json")
	must(t, os.WriteFile(bad, []byte(`{"game": "rulebook", "name": "Broken", "board": {"tiles": []}, "rules": [{"preset": "Nope"}]}`), 0o644))
	if got := upload(bad); !strings.Contains(got, "not valid") {
		t.Errorf("uploading a broken game: %q", got)
	}
	if n := b.eval(me, `String(document.querySelectorAll("#upload-result .diagnostics li").length)`); n == "0" {
		t.Error("the broken game's problems are not listed")
	}

	// Its uploader renames it, then deletes it; another browser may not.
	sel := `#games .game[data-id="` + id + `"]`
	b.run(me, chromedp.Click(chromedp.CSS(sel+" .rename")), chromedp.WaitVisible(chromedp.CSS(sel+" .rename-form input")))
	b.run(me, chromedp.SetValue(chromedp.CSS(sel+" .rename-form input"), "Rhymes, renamed"), chromedp.Click(chromedp.CSS(sel+` .rename-form button[type="submit"]`)),
		poll(`document.querySelector('`+sel+` h4')?.textContent === "Rhymes, renamed"`))
	var lib []GameInfo
	ts.call("GET", "/api/boards", nil, &lib)
	if !hasGame(lib, id, "Rhymes, renamed") {
		t.Errorf("the library after renaming: %v", lib)
	}
	b.run(other, chromedp.Navigate(ts.hs.URL+"/"), chromedp.WaitVisible(chromedp.CSS(sel)))
	if got := b.eval(other, `String(document.querySelectorAll(`+strconv.Quote(sel+" .rename, "+sel+" .delete")+`).length)`); got != "0" {
		t.Errorf("another browser is offered to rename or delete the game (%s buttons)", got)
	}
	b.screenshot(me, "lobby-uploaded.png")
	b.run(me, chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	b.run(me, chromedp.Click(chromedp.CSS(sel+" .delete")), poll(`!document.querySelector('`+sel+`')`))
	if code := ts.call("GET", "/api/boards/"+id, nil, nil); code != http.StatusNotFound {
		t.Errorf("the deleted game answers %d", code)
	}
}

func hasGame(lib []GameInfo, id, name string) bool {
	for _, g := range lib {
		if g.ID == id && g.Name == name {
			return true
		}
	}
	return false
}

// skirmishZip writes a zip archive of a skirmish of three files (the
// bundled duel, renamed) and returns its path.
func skirmishZip(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"duel.encounter.json", "fighter.json", "goblin.json"} {
		data, err := examples.Games.ReadFile("skirmish/" + name)
		must(t, err)
		if name == "duel.encounter.json" {
			data = bytes.Replace(data, []byte(`"name": "A duel under curses"`), []byte(`"name": "A duel in the dark"`), 1)
			if !bytes.Contains(data, []byte("A duel in the dark")) {
				t.Fatal("the duel's name is not where the test expects it")
			}
		}
		w, err := zw.Create(name)
		must(t, err)
		_, err = w.Write(data)
		must(t, err)
	}
	must(t, zw.SetComment("tabula main: duel.encounter.json"))
	must(t, zw.Close())
	path := filepath.Join(dir, "duel-in-the-dark.zip")
	must(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}
