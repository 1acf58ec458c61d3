package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLobbyOffersTheOriginal: a party board's form offers to play as the
// original game, which lets one player take a board for two or more; the
// match is created in that mode and its page says so.
func TestLobbyOffersTheOriginal(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	b.run(me, chromedp.Navigate(ts.hs.URL+"/"), poll(`document.querySelectorAll("#games .game").length > 0`),
		chromedp.SetValue(chromedp.ID("board"), "default"))
	b.eval(me, `document.getElementById("board").dispatchEvent(new Event("change")), ""`)
	if got := b.eval(me, `document.getElementById("compat").closest("p").hidden ? "hidden" : document.getElementById("seats").min`); got != "2" {
		t.Fatalf("the party board's form: %s", got)
	}
	b.run(me, chromedp.Click(chromedp.ID("compat")))
	if got := b.eval(me, `document.getElementById("seats").min + " " + document.getElementById("seats-hint").textContent`); got != "1 (1 to 8)" {
		t.Errorf("as the original, the seats are %q", got)
	}
	b.run(me, chromedp.SetValue(chromedp.ID("seats"), "1"), chromedp.SetValue(chromedp.ID("creator-name"), "Mo"),
		chromedp.Click(chromedp.ID("create-match")), chromedp.WaitVisible(chromedp.ID("share-link")))
	id := strings.TrimPrefix(b.eval(me, `location.pathname`), "/m/")
	var sum Summary
	ts.call("GET", "/api/matches/"+id+"?invite="+b.eval(me, `JSON.parse(localStorage.getItem("tabula:`+id+`")).invite`), nil, &sum)
	if sum.Compat != "original" || len(sum.Seats) != 1 {
		t.Errorf("the match created: compat %q, %d seats", sum.Compat, len(sum.Seats))
	}
	if got := b.eval(me, `document.getElementById("compat")?.textContent || ""`); got != "played as the original game did" {
		t.Errorf("the match page says %q", got)
	}
	// Another game's form does not offer it.
	b.run(me, chromedp.Navigate(ts.hs.URL+"/"), poll(`document.querySelectorAll("#games .game").length > 0`),
		chromedp.SetValue(chromedp.ID("board"), "duel"))
	b.eval(me, `document.getElementById("board").dispatchEvent(new Event("change")), ""`)
	if got := b.eval(me, `document.getElementById("compat").closest("p").hidden ? "hidden" : "shown"`); got != "hidden" {
		t.Errorf("a skirmish's form offers to play as the original (%s)", got)
	}
}
