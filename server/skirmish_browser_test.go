package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// skirmishTable creates a public match of a skirmish at which Ann (the
// heroes) and Bob (the goblins) take their seats from the page, in their
// own browsers, and starts it; it returns their pages, and the match.
func skirmishTable(t *testing.T, b *browser, ts *testServer, board string, bobOnPhone bool) (ann, bob context.Context, c created) {
	t.Helper()
	if st := ts.call("POST", "/api/matches", map[string]any{"board": board, "seats": 2, "public": true}, &c); st != http.StatusCreated {
		t.Fatalf("creating a match of %s: %d", board, st)
	}
	ann, bob = b.person(), b.person()
	if bobOnPhone {
		b.run(bob, phone())
	}
	for _, p := range []struct {
		ctx  context.Context
		name string
	}{{ann, "Ann"}, {bob, "Bob"}} {
		b.run(p.ctx, chromedp.Navigate(ts.hs.URL+c.URL), chromedp.WaitVisible(chromedp.ID("nickname")),
			chromedp.SendKeys(chromedp.ID("nickname"), p.name), chromedp.Click(chromedp.ID("join-button")),
			chromedp.Poll[chromedp.Void](`document.querySelector("#seats")?.textContent.includes(`+jsString(p.name+" — you")+`)`))
	}
	if st := ts.call("POST", "/api/matches/"+c.ID+"/start", map[string]any{"owner": c.Owner}, nil); st != http.StatusOK {
		t.Fatalf("starting: %d", st)
	}
	return ann, bob, c
}

// jsString quotes a Go string for JavaScript.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// waitTrue waits until a JavaScript expression holds in a person's page.
func (b *browser) waitTrue(ctx context.Context, what, js string) {
	b.t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %s: %v", what, err)
	}
}

// skirmishStep plays the simplest thing a person's page offers: take an
// opportunity attack when asked, otherwise attack (with the first weapon
// offered), otherwise end the turn. It says what it did.
const skirmishStep = `(() => {
  if (document.getElementById("app").dataset.over === "true") return "over";
  const take = document.querySelector("dialog.sk-reaction[open] #sk-take:not([disabled])");
  if (take) { take.click(); return "take"; }
  for (const sel of [".sk-weapon:not([disabled])", ".sk-attack:not([disabled])", "#sk-end:not([disabled])"]) {
    const el = document.querySelector(sel);
    if (el) { el.click(); return sel; }
  }
  return "wait";
})()`

// Two people play a skirmish to its end in their browsers while a third
// watches: the fighter's player sees the squares a move reaches and which
// of them provoke the goblin, the weapons that reach it (the javelin at
// disadvantage), and walks away with the keyboard; the goblin's player, on
// a phone, is asked in a dialog whether to make the opportunity attack,
// with the time left, and takes it; everyone sees the roll with its
// modifiers, against the fighter's armour class; then they fight on from
// the buttons until one side is down.
func TestSkirmishInTheBrowser(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{Logger: testLogger()})
	b := newBrowser(t, exe)
	ann, bob, c := skirmishTable(t, b, ts, "walk-away", true)
	spectator := b.person()
	b.run(spectator, chromedp.Navigate(ts.hs.URL+"/m/"+c.ID))

	// The fighter's turn: the map, the tokens, what it has left.
	b.waitTrue(ann, "the squares the fighter reaches", `document.querySelectorAll(".sk-reach").length > 0`)
	if got := b.eval(ann, `[...document.querySelectorAll(".sk-token")].map(t => t.dataset.key + ":" + t.querySelector(".sk-label").textContent + ":" + t.querySelector(".sk-hp-text").textContent).join(" ")`); got != "fighter:F:13 goblin:G:7" {
		t.Errorf("tokens: %q", got)
	}
	if got := b.eval(ann, `document.getElementById("sk-economy").textContent`); !strings.Contains(got, "1 action") || !strings.Contains(got, "30 ft to move") {
		t.Errorf("what the fighter has left: %q", got)
	}
	if got := b.eval(ann, `document.querySelector(".sk-token.current")?.dataset.key || ""`); got != "fighter" {
		t.Errorf("the token whose turn it is: %q", got)
	}
	// (1,2) leaves the goblin's reach; (2,1) does not.
	if got := b.eval(ann, `(() => { const r = document.querySelector('.sk-reach[data-x="1"][data-y="2"]'); return r.className.baseVal + "|" + r.dataset.provokes + "|" + r.querySelector(".sk-provokers").textContent })()`); got != "sk-reach provokes|goblin|G" {
		t.Errorf("the square west of the fighter: %q", got)
	}
	if got := b.eval(ann, `document.querySelector('.sk-reach[data-x="2"][data-y="1"]').className.baseVal`); got != "sk-reach" {
		t.Errorf("the square north of the fighter: %q", got)
	}
	if got := b.eval(ann, `document.querySelector(".sk-token.target")?.dataset.key || ""`); got != "goblin" {
		t.Errorf("the creature the fighter can attack: %q", got)
	}
	// Two weapons reach the goblin: the page asks which; the javelin's
	// disadvantage is noted.
	b.run(ann, chromedp.Click(chromedp.CSS(`.sk-attack[data-target="goblin"]`)), chromedp.WaitVisible(chromedp.CSS(".sk-weapons")))
	if got := b.eval(ann, `[...document.querySelectorAll(".sk-weapon")].map(w => w.dataset.weapon + (w.classList.contains("disadvantage") ? " (disadvantage)" : "")).join(", ")`); got != "longsword, javelin (disadvantage)" {
		t.Errorf("the weapons offered: %q", got)
	}
	b.screenshot(ann, "skirmish-desktop-weapons.png")
	b.run(ann, chromedp.Click(chromedp.ID("sk-cancel-attack")), chromedp.WaitVisible(chromedp.ID("sk-end")))

	// The fighter walks away with the keyboard: two squares west, Enter.
	b.run(ann, chromedp.Focus(chromedp.CSS("svg.sk-grid")), chromedp.KeyEvent(kb.ArrowLeft+kb.ArrowLeft))
	if got := b.eval(ann, `document.getElementById("sk-here").textContent`); !strings.Contains(got, "Move 10 ft west") || !strings.Contains(got, "provoking an opportunity attack from Goblin") || strings.Contains(got, "(0,2)") {
		t.Errorf("what the cursor is on: %q", got)
	}
	b.screenshot(ann, "skirmish-desktop-turn.png")
	b.run(ann, chromedp.KeyEvent(kb.Enter))

	// The goblin's player is asked, with the time left; the others wait.
	b.run(bob, chromedp.WaitVisible(chromedp.CSS("dialog.sk-reaction[open]")))
	if got := b.eval(bob, `document.getElementById("prompt-text").textContent`); !strings.Contains(got, "Fighter leaves the reach of Goblin") {
		t.Errorf("the question: %q", got)
	}
	if got := b.eval(bob, `document.getElementById("sk-deadline").textContent`); !strings.Contains(got, "s left to answer") {
		t.Errorf("the time left: %q", got)
	}
	if got := b.eval(bob, `[...document.querySelectorAll("dialog.sk-reaction button")].map(b => b.textContent).join(" | ")`); got != "Attack Fighter as it leaves (opportunity attack) | Let it go" {
		t.Errorf("the answers: %q", got)
	}
	b.waitTrue(ann, "the fighter's player to wait for the goblin's", `document.getElementById("waiting")?.textContent.includes("opportunity attack")`)
	if got := b.eval(spectator, `String(!!document.querySelector("dialog[open]"))`); got != "false" {
		t.Error("the spectator is asked the question")
	}
	b.screenshot(bob, "skirmish-phone-reaction.png")
	b.run(bob, chromedp.Click(chromedp.ID("sk-take")))

	// The roll, as everyone sees it: the d20, each modifier with its
	// source, the total against the fighter's armour class, the result.
	for name, p := range map[string]context.Context{"Ann": ann, "Bob": bob, "the spectator": spectator} {
		b.waitTrue(p, name+" to see the opportunity attack", `!!document.querySelector('#sk-rolls .sk-roll[data-kind="attack"]')`)
		card := b.eval(p, `document.querySelector('#sk-rolls .sk-roll[data-kind="attack"]').textContent`)
		for _, want := range []string{"Goblin → Fighter", "opportunity attack", "with the scimitar", "+2 dex", "+2 proficiency", "against AC 16"} {
			if !strings.Contains(card, want) {
				t.Errorf("%s's roll lacks %q: %q", name, want, card)
			}
		}
		if got := b.eval(p, `document.querySelectorAll('#sk-rolls .sk-d20.kept').length + " " + document.querySelector("#sk-rolls .sk-result").textContent`); !strings.HasPrefix(got, "1 ") {
			t.Errorf("%s's d20: %q", name, got)
		}
		if got := b.eval(p, `String(!!document.querySelector('.log .entry[data-depth="1"] .sk-roll .sk-mod[data-source="proficiency"]'))`); got != "true" {
			t.Errorf("%s's log does not show the opportunity attack's roll under the move", name)
		}
	}
	b.waitTrue(ann, "the fighter to stand on (0,2)", `document.querySelector('.sk-token[data-key="fighter"]').style.transform === "translate(0px, 144px)"`)
	b.waitTrue(ann, "the rest of the fighter's turn", `!!document.getElementById("sk-end") && document.getElementById("sk-movement").textContent === "20 ft to move"`)
	if got := b.eval(bob, `String(!!document.querySelector("dialog[open]"))`); got != "false" {
		t.Error("the question stays open once answered")
	}
	b.screenshot(ann, "skirmish-desktop-after-reaction.png")

	// They fight on to the end.
	deadline := time.Now().Add(90 * time.Second)
	for over := false; !over; {
		if time.Now().After(deadline) {
			b.screenshot(ann, "skirmish-stuck-ann.png")
			b.screenshot(bob, "skirmish-stuck-bob.png")
			t.Fatal("the fight did not end")
		}
		over = true
		for _, p := range []context.Context{ann, bob} {
			if b.eval(p, skirmishStep) != "over" {
				over = false
			}
		}
		time.Sleep(150 * time.Millisecond)
	}
	for name, p := range map[string]context.Context{"Ann": ann, "Bob": bob, "the spectator": spectator} {
		b.waitTrue(p, name+" to see the end", `document.getElementById("sk-over")?.textContent.includes("are the last standing")`)
		if got := b.eval(p, `String(document.querySelectorAll(".log .sk-roll").length > 1 && !!document.querySelector(".sk-token.dead"))`); got != "true" {
			t.Errorf("%s does not see the rolls of the fight and a creature down", name)
		}
		if got := b.eval(p, `document.querySelectorAll("#controls button").length + ""`); got != "0" {
			t.Errorf("%s is offered %s commands after the end", name, got)
		}
	}
	b.screenshot(ann, "skirmish-desktop-end.png")
	b.screenshot(bob, "skirmish-phone-end.png")
	b.screenshot(spectator, "skirmish-desktop-spectator-end.png")
}

// A person who does not answer the question in time is answered for by
// their side's bot: the dialog closes, and the log says what was chosen.
func TestSkirmishReactionTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a reaction's 20 seconds")
	}
	exe := chromium(t)
	ts := newPageServer(t, Options{Logger: testLogger()})
	b := newBrowser(t, exe)
	ann, bob, _ := skirmishTable(t, b, ts, "walk-away", false)
	b.waitTrue(ann, "the squares the fighter reaches", `!!document.querySelector('.sk-reach[data-x="0"][data-y="2"]')`)
	b.run(ann, chromedp.Click(chromedp.CSS(`rect.sk-square[data-x="0"][data-y="2"]`)))
	b.run(bob, chromedp.WaitVisible(chromedp.CSS("dialog.sk-reaction[open]")))
	b.waitTrue(bob, "the countdown", `/^1\d s left/.test(document.getElementById("sk-deadline").textContent)`)
	c, cancel := context.WithTimeout(bob, 40*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[bool](`!document.querySelector("dialog[open]") && document.getElementById("log").textContent.includes("goblins (Bob) take the opportunity attack")`,
		chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(35*time.Second))); err != nil {
		b.screenshot(bob, "skirmish-timeout-stuck.png")
		t.Fatalf("the bot did not answer for Bob: %v", err)
	}
	b.waitTrue(ann, "the fighter to have its turn again", `!!document.getElementById("sk-end")`)
	// Both players' logs say who played for Bob, and why, before the
	// answer the bot gave.
	for name, p := range map[string]context.Context{"Ann": ann, "Bob": bob} {
		b.waitTrue(p, name+"'s log to say that a bot played for Bob", `(() => {
  const items = [...document.querySelectorAll("#log li")].map(li => li.textContent);
  const note = items.findIndex(t => t.includes("Time ran out: a bot played for Bob"));
  const took = items.findIndex(t => t.includes("goblins (Bob) take the opportunity attack"));
  return note >= 0 && took > note;
})()`)
	}
	const showNote = `(() => { [...document.querySelectorAll("#log li")].find(li => li.textContent.includes("Time ran out"))?.scrollIntoView({block: "center"}); return ""; })()`
	b.eval(ann, showNote)
	b.screenshot(ann, "skirmish-desktop-timeout.png")
	b.run(bob, phone())
	b.eval(bob, showNote)
	b.screenshot(bob, "skirmish-phone-timeout.png")
}
