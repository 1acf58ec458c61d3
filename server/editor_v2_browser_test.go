package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestEditorKeepsAV2BoardFlat: a board in the flat v2 format opens in the
// editor with its spaces and events, and renaming it writes the new name
// where v2 keeps it (at the top), not under a "metadata" that would turn
// the file into v1 and drop its triggers.
func TestEditorKeepsAV2BoardFlat(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	v2 := `{"name": "Flat", "author": "Ann",
 "spaces": [{"id": 1, "name": "Start", "position": {"x": 100, "y": 100}, "connections": [{"targetId": 2}], "triggers": []},
            {"id": 2, "name": "End", "position": {"x": 300, "y": 100}, "connections": [],
             "triggers": [{"when": {"type": "ON_ENTER"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`
	var saved struct {
		Board GameInfo `json:"board"`
	}
	if st := ts.call("POST", "/api/boards?name=flat.json", v2, &saved); st != 201 {
		t.Fatalf("uploading: %d", st)
	}
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval
	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board="+saved.Board.ID), chromedp.WaitVisible(chromedp.CSS(`#board svg .space[data-space="2"]`)), checked)
	if got := eval(me, arrows); got != "1>2" {
		t.Errorf("the arrows: %q", got)
	}
	run(me, chromedp.Click(chromedp.CSS(`[role="tab"][data-tab="game"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.field[data-ptr="/name"] input`)),
		chromedp.Evaluate[chromedp.Void](`(() => { const el = document.querySelector('.field[data-ptr="/name"] input');
			el.value = "Flat, renamed"; el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		checked)
	if got := eval(me, `document.getElementById("status").textContent`); got != "Valid" {
		t.Errorf("after renaming, the status says %q", got)
	}
	run(me, chromedp.Click(chromedp.ID("save")), poll(`(document.getElementById("app").dataset.saved || "") !== ""`))
	id := eval(me, `document.getElementById("app").dataset.saved`)
	var src GameSource
	ts.call("GET", "/api/games/"+id, nil, &src)
	var doc map[string]any
	if err := json.Unmarshal([]byte(src.Source), &doc); err != nil {
		t.Fatalf("the saved file: %v\n%s", err, src.Source)
	}
	if doc["name"] != "Flat, renamed" || doc["metadata"] != nil || !strings.Contains(src.Source, `"triggers"`) {
		t.Errorf("the saved file is no longer a flat v2 board:\n%s", src.Source)
	}
}
