package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Ann steps her fighter beside the goblin from the page: the Undo button
// shows on her page (on a phone too), never on Bob's; she takes the step
// back, and the fighter stands where it stood, the log as it was, and
// Bob's page tells him Ann took her move back.
func TestUndoInTheBrowser(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{Logger: testLogger()})
	b := newBrowser(t, exe)
	ann, bob, _ := skirmishTable(t, b, ts, "walk-away", false)
	b.waitTrue(ann, "the squares the fighter reaches", `!!document.querySelector('.sk-reach[data-x="2"][data-y="1"]')`)
	b.waitTrue(bob, "the match", `!!document.getElementById("app").dataset.hash`)
	undoShown := `!document.getElementById("undo-bar").hidden`
	entries := `String(document.querySelectorAll("#log li[data-seq]").length)`
	if b.eval(ann, `String(`+undoShown+`)`) != "false" {
		t.Fatal("Ann is offered to undo before she played")
	}
	before, logBefore := b.eval(ann, `document.getElementById("app").dataset.hash`), b.eval(ann, entries)

	b.run(ann, chromedp.Click(chromedp.CSS(`rect.sk-square[data-x="2"][data-y="1"]`)))
	b.waitTrue(ann, "the Undo button", undoShown)
	moved := b.eval(ann, `document.getElementById("app").dataset.hash`)
	b.waitTrue(bob, "Ann's step", `document.getElementById("app").dataset.hash === `+jsString(moved))
	if b.eval(bob, `String(`+undoShown+`)`) != "false" {
		t.Error("Bob is offered to undo Ann's step")
	}
	b.screenshot(ann, "undo-desktop.png")
	b.run(ann, phone())
	b.waitTrue(ann, "the Undo button on a phone", undoShown)
	if got := b.eval(ann, `(() => { const r = document.getElementById("undo").getBoundingClientRect(); return r.height >= 40 && r.bottom <= innerHeight && r.right <= innerWidth ? "ok" : JSON.stringify(r) })()`); got != "ok" {
		t.Errorf("the Undo button on a phone is not a target in view: %s", got)
	}
	b.screenshot(ann, "undo-phone.png")

	b.run(ann, chromedp.Click(chromedp.ID("undo")))
	b.waitTrue(ann, "the step taken back", `document.getElementById("app").dataset.hash === `+jsString(before))
	b.waitTrue(ann, "the Undo button gone", `!(`+undoShown+`)`)
	if got := b.eval(ann, entries); got != logBefore {
		t.Errorf("after the undo Ann's log has %s entries of the match, before the step %s", got, logBefore)
	}
	b.waitTrue(ann, "the fighter back where it stood", `!!document.querySelector('.sk-reach[data-x="2"][data-y="1"]')`)
	b.waitTrue(bob, "the undo", `document.getElementById("app").dataset.hash === `+jsString(before))
	if got := b.eval(bob, `document.querySelector("#log li.undone")?.textContent || ""`); !strings.Contains(got, "Ann took back their last move") {
		t.Errorf("Bob's log says %q", got)
	}
	b.screenshot(bob, "undo-told.png")
}
