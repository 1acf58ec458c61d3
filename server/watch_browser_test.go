package server

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A spectator opens a party match that bots play by themselves: the
// players' list is there from the start and all along, tokens are told
// apart by their seat numbers, the result is said once, and the replay
// viewer steps through the finished match to the same final state.
func TestSpectatorOfAllBotMatchAndReplay(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	tb := ts.newTable("default", 3, nil, true, false, map[string]any{"public": true})
	b := newBrowser(t, exe)
	watcher := b.person()
	watch(t, watcher, otherStyles...)

	b.run(watcher, chromedp.Navigate(ts.hs.URL+"/m/"+tb.ID), chromedp.WaitVisible(chromedp.ID("seats")))
	// The match starts while the spectator watches.
	ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil)
	b.run(watcher, poll(`document.querySelectorAll("#players .player").length === 3`))
	// While the bots play and the board animates, the players stay listed.
	for i := 0; i < 20 && app(b, watcher, "over") != "true"; i++ {
		if n := b.eval(watcher, `String(document.querySelectorAll("#players .player").length)`); n != "3" {
			t.Fatalf("while the board animates, the players' list has %s players", n)
		}
		time.Sleep(150 * time.Millisecond)
	}
	b.run(watcher, poll(`document.getElementById("app").dataset.over === "true"`), chromedp.WaitVisible(chromedp.ID("result")))

	labels := b.eval(watcher, `[...document.querySelectorAll("#board .token text")].map(t => t.textContent).join(",")`)
	if labels != "1,2,3" {
		t.Errorf("the tokens are labelled %q, want the seats' numbers 1,2,3", labels)
	}
	result := b.eval(watcher, `document.getElementById("result").textContent`)
	if !strings.HasPrefix(result, "Game over: ") || !strings.Contains(result, " won") {
		t.Errorf("the result line: %q", result)
	}
	if n := b.eval(watcher, `String([...document.querySelectorAll("main *:not(#log *)")].filter(e => e.children.length === 0 && e.textContent.includes("Game over")).length)`); n != "1" {
		t.Errorf("\"Game over\" is said %s times outside the log, want once", n)
	}
	if dup := b.eval(watcher, `(() => { const seqs = [...document.querySelectorAll("#log li")].map(li => li.dataset.seq); return String(seqs.length - new Set(seqs).size); })()`); dup != "0" {
		t.Errorf("%s log entries are shown twice", dup)
	}
	final := app(b, watcher, "hash")

	// The end screen ranks the players with what the board counts, the
	// winner first, beside the replay (a spectator is not offered to play
	// again).
	rows := b.eval(watcher, `[...document.querySelectorAll("#standings tbody tr")].map(r => r.dataset.place + ":" + r.querySelector(".player").textContent.trim()).join(",")`)
	if n := strings.Count(rows, ":"); n != 3 || !strings.HasPrefix(rows, "1:") || !strings.Contains(result, strings.TrimLeft(strings.SplitN(rows, ",", 2)[0][2:], "0123456789 ")) {
		t.Errorf("the standings' rows %q for the result %q", rows, result)
	}
	if head := b.eval(watcher, `[...document.querySelectorAll("#standings thead th")].map(t => t.textContent).join("|")`); head != "Place|Player|Space|Drinks" && head != "Place|Player|Space|Drinks|" {
		t.Errorf("the standings' columns: %q", head)
	}
	if got := b.eval(watcher, `String(!!document.querySelector("#end #replay-link") && !document.getElementById("rematch"))`); got != "true" {
		t.Error("the end screen lacks the replay, or offers a spectator to play again")
	}
	// How to play, on demand, in the board's own words.
	b.run(watcher, chromedp.Click(chromedp.ID("how-button")), chromedp.WaitVisible(chromedp.ID("how-to-play")))
	if got := b.eval(watcher, `document.getElementById("how-to-play").textContent`); !strings.Contains(got, "Roll the die and walk") || !strings.Contains(got, "For 2 to 8 players") {
		t.Errorf("how to play: %q", got)
	}
	b.screenshot(watcher, "party-how-to-play.png")
	b.run(watcher, chromedp.Click(chromedp.ID("how-close")))

	// The engine's details are for game designers: shown only when asked.
	details := `String([...document.querySelectorAll("#log .detail, #log .detail-only")].filter(e => e.offsetParent !== null).length)`
	if n := b.eval(watcher, details); n != "0" {
		t.Errorf("%s details are shown before they are asked for", n)
	}
	b.run(watcher, chromedp.Click(chromedp.ID("details")))
	if n := b.eval(watcher, details); n == "0" {
		t.Error("ticking the details shows none")
	}
	b.run(watcher, chromedp.Click(chromedp.ID("details")))

	// Shortcut's arrow to Crossroads goes round Start, not through it.
	if d := b.eval(watcher, `(() => {
		const p = document.querySelector('#board path[data-from="5"][data-to="6"]');
		const c = document.querySelector('#board .space[data-space="1"] circle');
		const cx = Number(c.getAttribute("cx")), cy = Number(c.getAttribute("cy")), r = Number(c.getAttribute("r"));
		let least = Infinity;
		for (let i = 0; i <= 100; i++) {
			const q = p.getPointAtLength(p.getTotalLength() * i / 100);
			least = Math.min(least, Math.hypot(q.x - cx, q.y - cy) - r);
		}
		return String(Math.round(least));
	})()`); d[0] == '-' || d == "0" {
		t.Errorf("Shortcut's arrow to Crossroads passes %s units from Start's circle (inside it)", d)
	}
	// Tokens leave the spaces' names readable.
	time.Sleep(500 * time.Millisecond) // the tokens' last steps
	if over := b.eval(watcher, `(() => {
		const boxes = [...document.querySelectorAll("#board .space text")].map(t => t.getBoundingClientRect());
		const out = [];
		for (const t of document.querySelectorAll("#board .token circle")) {
			const a = t.getBoundingClientRect();
			for (const b of boxes) if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(t.parentNode.dataset.seat);
		}
		return out.join(",");
	})()`); over != "" {
		t.Errorf("tokens of seats %s cover a space's name", over)
	}
	accessible(b, watcher, "a finished match")
	shoot(b, watcher, "party-spectator-finished", `document.getElementById("app").dataset.over === "true"`)

	// The replay: from the start, move by move, to the end.
	b.run(watcher, chromedp.Click(chromedp.ID("replay-link")), chromedp.WaitVisible(chromedp.ID("replay-step")),
		poll(`document.getElementById("app").dataset.step === "0"`))
	total, _ := strconv.Atoi(b.eval(watcher, `document.getElementById("replay-step").max`))
	if total < 3 {
		t.Fatalf("the replay has %d moves", total)
	}
	start := app(b, watcher, "hash")
	logAt0 := b.eval(watcher, `String(document.querySelectorAll("#log li").length)`)
	b.run(watcher, chromedp.Click(chromedp.ID("replay-next")), poll(`document.getElementById("app").dataset.step === "1"`),
		chromedp.Click(chromedp.ID("replay-next")), poll(`document.getElementById("app").dataset.step === "2"`))
	if h := app(b, watcher, "hash"); h == start {
		t.Error("two moves into the replay, the state has not changed")
	}
	if n := b.eval(watcher, `String(document.querySelectorAll("#log li").length)`); n <= logAt0 && len(n) <= len(logAt0) {
		t.Errorf("two moves into the replay the log has %s entries, at the start %s", n, logAt0)
	}
	// The keyboard steps too.
	b.run(watcher, chromedp.Focus(chromedp.ID("replay-next")))
	b.run(watcher, chromedp.KeyEvent(kb.ArrowLeft), poll(`document.getElementById("app").dataset.step === "1"`))
	b.run(watcher, chromedp.Click(chromedp.ID("replay-last")), poll(`document.getElementById("app").dataset.step === "`+strconv.Itoa(total)+`"`))
	if h := app(b, watcher, "hash"); h != final {
		t.Errorf("the replay's last step has hash %s, the match ended with %s", h, final)
	}
	if got := b.eval(watcher, `document.getElementById("replay-label").textContent`); got != "after move "+strconv.Itoa(total)+" of "+strconv.Itoa(total) {
		t.Errorf("the replay's label: %q", got)
	}
	if got := b.eval(watcher, `String(document.querySelectorAll("#replay-standings tbody tr").length)`); got != "3" {
		t.Errorf("the replay's end shows %s rows of standings", got)
	}
	accessible(b, watcher, "the replay viewer")
	b.screenshot(watcher, "party-replay.png")
}
