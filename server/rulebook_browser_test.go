package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// actRulebook is run in a player's page of a rule book: it rolls (or
// answers what has one answer), passes on every tile it is offered, and
// says when it is asked to bid (the test bids itself).
const actRulebook = `(() => {
  const one = document.querySelector("#controls #roll:not([disabled]), #controls #decide:not([disabled])");
  if (one) { one.click(); return "roll"; }
  const opts = [...document.querySelectorAll("#controls .option:not([disabled])")];
  if (!opts.length) return "";
  const kind = opts[0].dataset.kind;
  if (kind === "bid") return "bid";
  if (kind === "buy") { opts.find(o => o.textContent.startsWith("Pass")).click(); return "pass"; }
  opts[0].click();
  return kind;
})()`

// TestRulebookAuctionBetweenTwoPeopleAndABot: Ann and Bob play the
// Monopoly-like rule book with a bot. Whoever lands on a tile passes on
// it, so it is auctioned among all three at once: the bids are sealed,
// so neither person's page (nor a spectator's) shows anything of the
// other's bid until all are in; then the log tells them. The players'
// list shows money, the game's own counter, where Chutes and Ladders
// shows none.
func TestRulebookAuctionBetweenTwoPeopleAndABot(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	tb := ts.newTable("monopoly", 3, nil, false, false, map[string]any{"public": true})
	b := newBrowser(t, exe)
	ann, bob, watcher := b.person(), b.person(), b.person()
	for _, p := range []context.Context{ann, bob, watcher} {
		watch(t, p, otherStyles...)
	}
	url := ts.hs.URL + tb.URL
	for name, p := range map[string]context.Context{"Ann": ann, "Bob": bob} {
		b.run(p, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID("nickname")),
			chromedp.SetValue(chromedp.ID("nickname"), name), chromedp.Click(chromedp.ID("join-button")),
			poll(`document.querySelectorAll("#seats li.taken").length >= 1 && !document.getElementById("nickname")`))
	}
	ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner}, nil)
	ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil)
	b.run(watcher, chromedp.Navigate(url), poll(`document.querySelectorAll("#players .player").length === 3`))
	for _, p := range []context.Context{ann, bob} {
		b.run(p, poll(`document.querySelectorAll("#players .player").length === 3`))
	}
	if got := b.eval(watcher, `document.querySelector("#players .counters")?.textContent || ""`); got != "money 1500" {
		t.Errorf("a player's counters in the Monopoly-like game: %q, want money 1500", got)
	}

	names := map[context.Context]string{ann: "Ann", bob: "Bob"}
	auctions := 0
	for round := 0; auctions == 0; round++ {
		if round > 600 {
			t.Fatalf("no auction came; Ann sees %s", b.eval(ann, `document.body.innerText`))
		}
		moved := false
		var bidders []context.Context
		for _, p := range []context.Context{ann, bob} {
			switch b.eval(p, actRulebook) {
			case "":
			case "bid":
				bidders = append(bidders, p)
			default:
				moved = true
			}
		}
		if len(bidders) < 2 {
			if !moved {
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		// Both are asked to bid at once. The options are the legal
		// commands' texts, numbered as the commands are.
		first, second := bidders[0], bidders[1]
		if got := b.eval(first, `[...document.querySelectorAll("#controls .option")].map((o, i) => o.dataset.value == i ? "" : o.dataset.value + "≠" + i).join("")`); got != "" {
			t.Errorf("the bid options' numbers are not the commands' values: %s", got)
		}
		log := func(p context.Context) string { return b.eval(p, `document.getElementById("log").innerText`) }
		before := log(watcher)
		high := b.eval(first, `(() => { const o = [...document.querySelectorAll("#controls .option")].at(-1); o.click(); return o.textContent; })()`)
		b.run(first, poll(`!!document.getElementById("waiting")`))
		if got := b.eval(first, `document.getElementById("waiting").textContent`); !strings.Contains(got, "Your bid is in") || !strings.Contains(got, names[second]) {
			t.Errorf("the first bidder's page after bidding: %q", got)
		}
		time.Sleep(500 * time.Millisecond)
		// Nothing of the first bid shows anywhere until the second is in.
		amount := strings.TrimPrefix(high, "Bid ")
		for _, p := range []context.Context{second, watcher} {
			page := b.eval(p, `document.getElementById("app").innerText`)
			if strings.Contains(page, names[first]+" bids") || strings.Contains(log(p), amount) && !strings.Contains(before, amount) {
				t.Errorf("%s's bid shows before all bids are in:\n%s", names[first], log(p))
			}
		}
		if got := log(watcher); got != before {
			t.Errorf("the log grew while a bid was sealed:\n%s", strings.TrimPrefix(got, before))
		}
		b.screenshot(second, "rulebook-auction.png")
		accessible(b, second, "a rule book's auction")
		b.eval(second, `(() => { const o = document.querySelectorAll("#controls .option")[1]; o.click(); return o.textContent; })()`)
		b.run(watcher, poll(fmt.Sprintf(`document.getElementById("log").innerText.slice(%d).includes(" buys ")`, len([]rune(before)))))
		after := strings.TrimPrefix(log(watcher), before)
		if !strings.Contains(after, names[first]) || !strings.Contains(after, names[second]) {
			t.Errorf("once all are in, the bids are not told:\n%s", after)
		}
		auctions++
		t.Logf("the auction, as told once the bids were in:\n%s", after)
	}
	shoot(b, watcher, "rulebook-watcher", `document.querySelectorAll("#players .player").length === 3`)
	shoot(b, ann, "rulebook-ann", `document.querySelectorAll("#players .player").length === 3`)

	// Chutes and Ladders has no counters to show.
	cl := ts.newTable("chutes-and-ladders", 2, nil, true, true, map[string]any{"public": true})
	b.run(watcher, chromedp.Navigate(ts.hs.URL+cl.URL), poll(`document.querySelectorAll("#players .player").length === 2`))
	if got := b.eval(watcher, `[...document.querySelectorAll("#players .counters, #players .stats")].map(e => e.textContent).join("|")`); got != "" {
		t.Errorf("Chutes and Ladders shows counters: %q", got)
	}
	b.run(watcher, poll(`document.getElementById("app").dataset.over === "true"`))
	shoot(b, watcher, "rulebook-chutes", `document.getElementById("app").dataset.over === "true"`)
}
