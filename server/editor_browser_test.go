package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tabulagames/tabula/store"
)

// editorJS are helpers run in the editor's page: they change a field as a
// person typing or choosing would, so that the page sees input and change
// events.
const editorJS = `
window.t = {
  last: () => [...document.querySelectorAll("#rules > .rule")].at(-1),
  set(el, value) {
    if (!el) throw new Error("no such field");
    el.value = value;
    el.dispatchEvent(new Event("input", {bubbles: true}));
    el.dispatchEvent(new Event("change", {bubbles: true}));
  },
  field(name, value) { this.set(this.last().querySelector('[data-field="' + name + '"]'), value); },
  action(name, value) { this.set([...this.last().querySelectorAll('.action')].at(-1).querySelector('[data-field="' + name + '"]'), value); },
};
"ok"`

var checked = poll(`document.getElementById("app").dataset.checked === "true"`)

// TestEditorBuildsAGameAndPlaysIt is the editor's end-to-end test: open
// a bundled rule book, add two rules with the forms (one with a condition
// built from a predicate), see a mistake at its field, save the game to
// the library, start a match of it with bots in one click, and see the
// new rules fire in the match's log.
func TestEditorBuildsAGameAndPlaysIt(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval

	run(me, chromedp.Navigate(ts.hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("editor-link")),
		chromedp.Click(chromedp.ID("editor-link")), chromedp.WaitVisible(chromedp.ID("open-game")),
		chromedp.SetValue(chromedp.ID("open-game"), "chutes-and-ladders"), chromedp.Click(chromedp.ID("open-button")),
		chromedp.WaitVisible(chromedp.CSS(`#rules > .rule`)), checked)
	if got := app(b, me, "valid"); got != "true" {
		t.Fatalf("the bundled game is not shown as valid: %q", got)
	}
	accessible(b, me, "the rule book editor")
	if got := eval(me, `document.getElementById("priority-doc").textContent`); !strings.Contains(got, "lowest number first") {
		t.Errorf("the rules panel does not say which way priorities run: %q", got)
	}
	eval(me, editorJS)

	// The first rule: whoever lands on a ladder scores a point. Its
	// condition is built from the TileKind predicate.
	run(me, chromedp.Click(chromedp.ID("add-rule")), chromedp.WaitVisible(chromedp.CSS(`#rules > .rule.open select.predicate`)))
	eval(me, `t.field("name", "Ladder bonus"); t.field("event", "TILE_LANDED"); "ok"`)
	eval(me, `t.set(t.last().querySelector("select.predicate"), "TileKind"); t.set(t.last().querySelector('[data-param="kind"]'), "ladder"); "ok"`)
	run(me, chromedp.Click(chromedp.CSS(`#rules > .rule:last-child .add-condition`)),
		poll(`t.last().querySelector('[data-field="if"]').value !== ""`))
	eval(me, `t.action("action", "CHANGE_SCORE"); "ok"`)
	eval(me, `t.action("amount", "1"); "ok"`)
	run(me, checked)
	if got := eval(me, `[...t.last().querySelectorAll('.field[data-ptr$="/priority"] .doc')].map(d => d.textContent).join("")`); !strings.Contains(got, "priority 1 runs before priority 5") {
		t.Errorf("an action's priority field says: %q", got)
	}

	// A mistake is shown next to its field, and fixed.
	eval(me, `t.action("amount", "ladders"); "ok"`)
	run(me, checked)
	if msg := eval(me, `t.last().querySelector('.field[data-ptr$="/amount"] .msgs').textContent`); !strings.Contains(msg, "ladders") {
		t.Errorf("an amount that is no number nor expression is not reported at the field: %q", msg)
	}
	eval(me, `t.action("amount", "1"); "ok"`)
	run(me, checked)

	// The second rule: a welcome, written in the log when the game starts.
	run(me, chromedp.Click(chromedp.ID("add-rule")))
	eval(me, `t.field("name", "Welcome"); "ok"`)
	eval(me, `t.field("event", "START_GAME"); "ok"`)
	eval(me, `t.action("text", "Welcome to the edited game!"); "ok"`)
	run(me, checked)
	if v, errs := app(b, me, "valid"), eval(me, `document.getElementById("status").textContent`); v != "true" {
		t.Fatalf("the edited game is not valid: %s", errs)
	}
	rules := eval(me, `[...document.querySelectorAll("#rules > .rule .rule-title")].map(e => e.textContent).join("\n")`)
	if !strings.Contains(rules, "Ladder bonus when TILE_LANDED if tile.kind == 'ladder' → CHANGE_SCORE") || !strings.Contains(rules, "Welcome when START_GAME → SAY") {
		t.Errorf("the rules as the editor lists them:\n%s", rules)
	}
	accessible(b, me, "the rule book editor with rules open")
	if got := eval(me, `document.getElementById("editing").textContent`); !strings.Contains(got, "changed, not saved") {
		t.Errorf("the edited game's title: %q", got)
	}

	// Saved to the library, the game is there as it was built, once
	// however often it is saved; the saver's browser keeps its secret.
	run(me, chromedp.Click(chromedp.ID("save")), poll(`(document.getElementById("app").dataset.saved || "").startsWith("g-")`))
	id := app(b, me, "saved")
	var src GameSource
	if code := ts.call("GET", "/api/games/"+id, nil, &src); code != http.StatusOK || !strings.Contains(src.Source, `"if": "tile.kind == 'ladder'"`) ||
		!strings.Contains(src.Source, "Welcome to the edited game!") {
		t.Fatalf("the saved game (%d): %s", code, src.Source)
	}
	if secret := eval(me, `JSON.parse(localStorage.getItem("tabula:games") || "{}")["`+id+`"] || ""`); secret == "" {
		t.Error("the saver's secret is not kept in the browser")
	}
	var lib []GameInfo
	ts.call("GET", "/api/boards", nil, &lib)
	run(me, chromedp.Click(chromedp.ID("save")), poll(`document.getElementById("status").textContent.includes("library")`))
	var lib2 []GameInfo
	ts.call("GET", "/api/boards", nil, &lib2)
	if len(lib2) != len(lib) {
		t.Errorf("saving the same game again added %d entries", len(lib2)-len(lib))
	}
	// The saved game opens again (at a phone's size too).
	shoot(b, me, "editor-rulebook", `document.getElementById("app").dataset.checked === "true"`)

	// One click starts a match with bots in both seats; it plays to its end
	// and the new rules are in its log.
	run(me, chromedp.SetValue(chromedp.ID("play-mode"), "bots"))
	follow(b, me, "#play", "/edit")
	run(me, chromedp.WaitVisible(chromedp.ID("result")), chromedp.WaitReady(chromedp.CSS(`#log [data-rule="Welcome"]`)))
	if got := eval(me, `document.getElementById("log").innerText`); !strings.Contains(got, "Welcome to the edited game!") {
		t.Errorf("the welcome is not in the log:\n%s", got)
	}
	t.Logf("the ladder bonus fired %s time(s)", eval(me, `String(document.querySelectorAll('#log [data-rule="Ladder bonus"]').length)`))
	b.screenshot(me, "edited-game.png")
}

// matchCount counts every match the server stores, private ones too.
func matchCount(t *testing.T, ts *testServer) int {
	t.Helper()
	ms, err := ts.srv.store.Matches(context.Background(), store.Query{Limit: 1000})
	must(t, err)
	return len(ms)
}

// TestEditorPlaysWithoutCopies: "▶ Play" on a bundled game that was not
// changed plays the library's own entry, and saves no copy; cancelling
// the nickname asked in "me and bots" creates nothing at all; giving one
// seats the editor's user with bots.
func TestEditorPlaysWithoutCopies(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval
	var lib []GameInfo
	ts.call("GET", "/api/boards", nil, &lib)

	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=default"), chromedp.WaitVisible(chromedp.CSS(`#board svg .space`)), checked)
	// Saving the unchanged bundled game copies nothing.
	run(me, chromedp.Click(chromedp.ID("save")), poll(`document.getElementById("app").dataset.saved === "default"`))
	// Cancelling the nickname: nothing is made.
	run(me, chromedp.SetValue(chromedp.ID("play-mode"), "me"), chromedp.Evaluate[chromedp.Void](`window.prompt = () => null`),
		chromedp.Click(chromedp.ID("play")), poll(`document.getElementById("status").textContent.startsWith("Not started")`))
	if n := matchCount(t, ts); n != 0 {
		t.Errorf("cancelling the nickname left %d matches", n)
	}
	// Bots in every seat: the bundled game itself is played.
	run(me, chromedp.SetValue(chromedp.ID("play-mode"), "bots"))
	path := follow(b, me, "#play", "/edit")
	var sum Summary
	ts.call("GET", "/api/matches/"+strings.TrimPrefix(path, "/m/")+"?owner="+eval(me, `JSON.parse(localStorage.getItem("tabula:`+strings.TrimPrefix(path, "/m/")+`")).owner`), nil, &sum)
	if sum.Board != "default" {
		t.Errorf("playing the unchanged bundled game plays %q", sum.Board)
	}
	// Me and bots, with a nickname.
	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=default"), chromedp.WaitVisible(chromedp.CSS(`#board svg .space`)), checked,
		chromedp.SetValue(chromedp.ID("play-mode"), "me"), chromedp.Evaluate[chromedp.Void](`window.prompt = () => "Zoe"`))
	follow(b, me, "#play", "/edit")
	run(me, poll(`[...document.querySelectorAll("#players .name")].some(n => n.textContent === "Zoe — you")`))
	var lib2 []GameInfo
	ts.call("GET", "/api/boards", nil, &lib2)
	if len(lib2) != len(lib) {
		t.Errorf("playing unchanged games added %d entries to the library", len(lib2)-len(lib))
	}
	if n := matchCount(t, ts); n != 2 {
		t.Errorf("%d matches were made, want 2", n)
	}
}

// arrows lists the board's connections as the editor draws them.
const arrows = `[...document.querySelectorAll("#board svg path[data-from]")].map(p => p.dataset.from + ">" + p.dataset.to).sort().join(" ")`

// TestEditorRenamesASpaceWhenCommitted: a space's new id is taken when it
// is committed (Tab out of the box, or Enter), not at every keystroke, and
// only what pointed to the old id follows it: typing "12" over Warm-up's
// id "2" passes through "1", Start's id, and must not rewire Crossroads'
// way back to Start. An id another space has is refused at the field. The
// party events' priority says which way it runs, and the tabs say which
// is selected.
func TestEditorRenamesASpaceWhenCommitted(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval
	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=default"), chromedp.WaitVisible(chromedp.CSS(`#board svg .space[data-space="2"]`)), checked)
	start := eval(me, arrows)
	if !strings.Contains(start, "6>1") || !strings.Contains(start, "1>2") {
		t.Fatalf("the default board's arrows: %s", start)
	}
	tabs := `[...document.querySelectorAll('[role="tab"]')].map(t => t.dataset.tab + "=" + t.getAttribute("aria-selected")).join(" ")`
	if got := eval(me, tabs); got != "spaces=true game=false source=false problems=false" {
		t.Errorf("the tabs: %s", got)
	}
	run(me, chromedp.Focus(chromedp.CSS(`[role="tab"][data-tab="spaces"]`)), chromedp.KeyEvent(kb.ArrowRight))
	if got := eval(me, tabs); got != "spaces=false game=true source=false problems=false" {
		t.Errorf("the tabs after the right arrow key: %s", got)
	}
	run(me, chromedp.KeyEvent(kb.ArrowLeft))

	// Warm-up is chosen with the keyboard: Tab to it, Enter.
	run(me, chromedp.Focus(chromedp.CSS(`#board svg .space[data-space="2"]`)), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`.selected-item .field[data-ptr="/spaces/1/id"] input`)))
	accessible(b, me, "the party board editor")
	if got := eval(me, `document.querySelector('.selected-item .field[data-ptr$="/priority"] .doc')?.textContent || ""`); !strings.Contains(got, "highest priority first") {
		t.Errorf("a party event's priority says: %q", got)
	}
	id := chromedp.CSS(`.selected-item .field[data-ptr="/spaces/1/id"] input`)
	run(me, chromedp.Focus(id), chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`), chromedp.KeyEvent(kb.Delete))
	for _, key := range []string{"1", "2"} {
		run(me, chromedp.KeyEvent(key), checked)
		if got := eval(me, arrows); got != start {
			t.Errorf("after typing %q the arrows changed before the id was committed:\n%s\n%s", key, start, got)
		}
	}
	run(me, chromedp.KeyEvent(kb.Tab), checked)
	renamed := strings.NewReplacer("1>2", "1>12", "2>3", "12>3").Replace(start)
	if got := eval(me, arrows); sortedFields(got) != sortedFields(renamed) {
		t.Errorf("after renaming Warm-up to 12:\n got %s\nwant %s", got, renamed)
	}
	if got := eval(me, `document.getElementById("status").textContent`); got != "Valid" {
		t.Errorf("after the rename the status says %q", got)
	}

	// An id that another space has is refused, at the field.
	run(me, chromedp.Focus(id), chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`), chromedp.KeyEvent("6"), chromedp.KeyEvent(kb.Enter))
	msg := eval(me, `document.querySelector('.selected-item .field[data-ptr="/spaces/1/id"] .msgs').textContent`)
	if !strings.Contains(msg, "Another space has the id 6") {
		t.Errorf("a duplicate id at its field: %q", msg)
	}
	if got := eval(me, arrows); sortedFields(got) != sortedFields(renamed) {
		t.Errorf("a refused id changed the arrows: %s", got)
	}
	shoot(b, me, "editor-party", "")
}

func sortedFields(s string) string {
	f := strings.Fields(s)
	sortStrings(f)
	return strings.Join(f, " ")
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// TestEditorEditsOtherPacksAsSource: a lane game, and a skirmish of three
// files, open as their JSON source, checked as they are typed, problems
// listed with their lines.
func TestEditorEditsOtherPacksAsSource(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval

	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=drone-lanes"), chromedp.WaitVisible(chromedp.ID("source")), checked)
	if got := app(b, me, "valid"); got != "true" {
		t.Fatalf("the bundled lane game is not valid in the editor: %s", eval(me, `document.getElementById("status").textContent`))
	}
	// A typo, as typed.
	run(me, chromedp.Focus(chromedp.ID("source")), chromedp.Evaluate[chromedp.Void](`document.activeElement.setSelectionRange(1, 1)`),
		chromedp.KeyEvent("x"), checked)
	if app(b, me, "valid") != "false" || !strings.Contains(eval(me, `document.getElementById("source-problems").textContent`), "line 1") {
		t.Errorf("a typo in the source: valid %s, problems %q", app(b, me, "valid"), eval(me, `document.getElementById("source-problems").textContent`))
	}
	run(me, chromedp.KeyEvent(kb.Backspace), checked)
	if app(b, me, "valid") != "true" {
		t.Errorf("the typo undone, the game is still invalid: %s", eval(me, `document.getElementById("source-problems").textContent`))
	}

	// A skirmish: the encounter and its combatants.
	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=duel"), chromedp.WaitVisible(chromedp.ID("source-file")), checked)
	if got := eval(me, `[...document.querySelectorAll("#source-file option")].map(o => o.textContent).join(", ")`); got != "duel.encounter.json (the game), fighter.json, goblin.json" {
		t.Errorf("the skirmish's files: %s", got)
	}
	if got := app(b, me, "valid"); got != "true" {
		t.Fatalf("the bundled skirmish is not valid in the editor: %s", eval(me, `document.body.innerText`))
	}
	// Breaking the goblin's hit points is reported in the goblin's file.
	run(me, choose("#source-file", "2"), poll(`document.getElementById("source").value.includes("\"Goblin\"")`))
	eval(me, `(() => { const a = document.getElementById("source"); a.value = a.value.replace(/"hp": \d+/, '"hp": "many"'); a.dispatchEvent(new Event("input")); return "ok"; })()`)
	run(me, checked)
	if app(b, me, "valid") != "false" {
		t.Errorf("a goblin with %q hit points is valid", "many")
	}
	problems := eval(me, `document.getElementById("source-problems").textContent`)
	if !strings.Contains(problems, "line ") {
		t.Errorf("the goblin's problem: %q", problems)
	}
	accessible(b, me, "the source editor")
	shoot(b, me, "editor-source", "")
}
