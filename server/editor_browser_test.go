package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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

// TestEditorBuildsAGameAndPlaysIt is the editor's end-to-end test: open
// a bundled rule book, add two rules with the forms (one with a condition
// built from a predicate), save the game to the library, start a match of
// it with bots in one click, and see the new rules fire in the match's log.
func TestEditorBuildsAGameAndPlaysIt(t *testing.T) {
	exe := chromium(t)
	ts := newTestServer(t, "")
	b := newBrowser(t, exe)
	me := b.person()
	run, eval := b.run, b.eval

	run(me, chromedp.Navigate(ts.hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("editor-link")),
		chromedp.Click(chromedp.ID("editor-link")), chromedp.WaitVisible(chromedp.ID("open-game")),
		chromedp.SetValue(chromedp.ID("open-game"), "chutes-and-ladders"), chromedp.Click(chromedp.ID("open-button")),
		chromedp.WaitVisible(chromedp.CSS(`#rules > .rule`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("app").dataset.checked === "true"`))
	if got := eval(me, `document.getElementById("app").dataset.valid`); got != "true" {
		t.Fatalf("the bundled game is not shown as valid: %q", got)
	}
	eval(me, editorJS)
	checked := chromedp.Poll[chromedp.Void](`document.getElementById("app").dataset.checked === "true"`)

	// The first rule: whoever lands on a ladder scores a point. Its
	// condition is built from the TileKind predicate.
	run(me, chromedp.Click(chromedp.ID("add-rule")), chromedp.WaitVisible(chromedp.CSS(`#rules > .rule.open select.predicate`)))
	eval(me, `t.field("name", "Ladder bonus"); t.field("event", "TILE_LANDED"); "ok"`)
	eval(me, `t.set(t.last().querySelector("select.predicate"), "TileKind"); t.set(t.last().querySelector('[data-param="kind"]'), "ladder"); "ok"`)
	run(me, chromedp.Click(chromedp.CSS(`#rules > .rule:last-child .add-condition`)),
		chromedp.Poll[chromedp.Void](`t.last().querySelector('[data-field="if"]').value !== ""`))
	eval(me, `t.action("action", "CHANGE_SCORE"); "ok"`)
	eval(me, `t.action("amount", "1"); "ok"`)
	run(me, checked)

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
	if v, errs := eval(me, `document.getElementById("app").dataset.valid`), eval(me, `document.getElementById("status").textContent`); v != "true" {
		t.Fatalf("the edited game is not valid: %s", errs)
	}
	rules := eval(me, `[...document.querySelectorAll("#rules > .rule .rule-title")].map(e => e.textContent).join("\n")`)
	if !strings.Contains(rules, "Ladder bonus when TILE_LANDED if tile.kind == 'ladder' → CHANGE_SCORE") || !strings.Contains(rules, "Welcome when START_GAME → SAY") {
		t.Errorf("the rules as the editor lists them:\n%s", rules)
	}
	editorShot := b.screenshot(me, "editor.png")

	// Saved to the library, the game is there as it was built.
	run(me, chromedp.Click(chromedp.ID("save")), chromedp.Poll[chromedp.Void](`document.getElementById("app").dataset.saved !== undefined`))
	id := eval(me, `document.getElementById("app").dataset.saved`)
	var src GameSource
	if code := ts.call("GET", "/api/games/"+id, nil, &src); code != http.StatusOK || !strings.Contains(src.Source, `"if": "tile.kind == 'ladder'"`) ||
		!strings.Contains(src.Source, "Welcome to the edited game!") {
		t.Fatalf("the saved game (%d): %s", code, src.Source)
	}

	// One click starts a match with bots in both seats; it plays to its end
	// and the new rules are in its log.
	run(me, chromedp.SetValue(chromedp.ID("play-mode"), "bots"), chromedp.Click(chromedp.ID("play")),
		chromedp.WaitVisible(chromedp.ID("game-over")), chromedp.WaitVisible(chromedp.CSS(`#log [data-rule="Welcome"]`)))
	if !strings.Contains(eval(me, `location.pathname`), "/m/") {
		t.Fatalf("playing did not open the match: %s", eval(me, `location.href`))
	}
	welcome := eval(me, `document.querySelector('#log [data-rule="Welcome"]').textContent + " / " + document.querySelector('#log [data-rule="Welcome"]').nextElementSibling.textContent`)
	if welcome != "↳ rule Welcome / Welcome to the edited game!" && welcome != "rule Welcome / Welcome to the edited game!" {
		t.Errorf("the welcome rule in the log: %q", welcome)
	}
	bonuses := eval(me, `String(document.querySelectorAll('#log [data-rule="Ladder bonus"]').length)`)
	t.Logf("the ladder bonus fired %s time(s)", bonuses)
	matchShot := b.screenshot(me, "edited-game.png")

	// The editor works on a phone-sized screen too.
	run(me, chromedp.EmulateViewport(390, 844), chromedp.Navigate(ts.hs.URL+"/edit?board="+id),
		chromedp.WaitVisible(chromedp.CSS(`#rules > .rule`)))
	run(me, chromedp.Click(chromedp.CSS(`#rules > .rule:last-child .toggle`)), chromedp.WaitVisible(chromedp.CSS(`#rules > .rule.open`)))
	if w := eval(me, `String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("on a phone-sized screen the editor is %s pixels wide, want 390 (no sideways scrolling)", w)
	}
	phoneShot := b.screenshot(me, "editor-phone.png")
	t.Logf("screenshots: %s, %s, %s", editorShot, matchShot, phoneShot)
}
