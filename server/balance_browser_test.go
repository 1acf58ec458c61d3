package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// simulated waits until the editor has shown n simulations and the last
// is the draft's.
func simulatedN(n string) chromedp.Action[chromedp.Void] {
	return poll(`document.getElementById("app").dataset.simulations === "` + n + `" && document.getElementById("app").dataset.balance === "done"`)
}

// TestEditorShowsTheBalanceOfTheDraft: the editor simulates the bundled
// default board as soon as it is checked (the seats' win rates with their
// intervals, the length, the budget, the board coloured by landings); the
// designer pins it, removes the shortcut (the Shortcut space's teleport to
// the last stretch), and the simulation refreshes by itself and flags
// against the pinned version what the change moved beyond the noise: the
// landings on the spaces the shortcut skipped, and the games' length.
func TestEditorShowsTheBalanceOfTheDraft(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval

	run(me, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(ts.hs.URL+"/edit?board=default"),
		chromedp.WaitVisible(chromedp.CSS(`#board svg .space[data-space="5"]`)), checked, simulatedN("1"))
	if got := eval(me, `[...document.querySelectorAll("#seat-rates li")].map(li => li.innerText.replace(/\s+/g, " ")).join(" | ")`); !strings.Contains(got, "Seat 1") || !strings.Contains(got, "Seat 2") || strings.Count(got, "%") != 6 {
		t.Errorf("the seats' win rates: %q", got)
	}
	budget := eval(me, `document.getElementById("balance-budget").textContent`)
	if !strings.Contains(budget, "1,000 games") || !strings.Contains(budget, "1.00 s of CPU") {
		t.Errorf("the budget is not said on the page: %q", budget)
	}
	if got := eval(me, `document.getElementById("balance-length").textContent`); !strings.Contains(got, "rounds on average") {
		t.Errorf("the length: %q", got)
	}
	if got := eval(me, `String(document.querySelectorAll("#board .space.heated .heat-value").length)`); got != "11" {
		t.Errorf("%s of the 11 spaces show their landings", got)
	}
	if got := eval(me, `document.getElementById("heat-figure").value`); got != "landings" {
		t.Errorf("the board is coloured by %q", got)
	}
	accessible(b, me, "the editor with its balance")

	// Pinned, nothing moved yet.
	run(me, chromedp.Click(chromedp.ID("pin")), poll(`document.getElementById("changes") !== null`))
	if got := eval(me, `document.getElementById("changes").textContent`); !strings.Contains(got, "Nothing moved") {
		t.Errorf("just pinned: %q", got)
	}

	// The shortcut goes: Shortcut's SET_PLAYER_SPACE event is deleted with
	// its ✕.
	run(me, chromedp.Focus(chromedp.CSS(`#board svg .space[data-space="5"]`)), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`.selected-item .action`)),
		chromedp.Evaluate[chromedp.Void](`window.confirm = () => true;
			[...document.querySelectorAll(".selected-item .action")].find(a => a.querySelector(".action-head strong").textContent.includes("SET_PLAYER_SPACE"))
				.querySelector("button.delete").click()`))
	run(me, poll(`document.getElementById("app").dataset.balance !== "done"`), checked, simulatedN("2"))
	if got := eval(me, `String([...document.querySelectorAll(".selected-item .action-head strong")].some(s => s.textContent.includes("SET_PLAYER_SPACE")))`); got != "false" {
		t.Fatal("the shortcut was not removed")
	}
	flagged := eval(me, `[...document.querySelectorAll("#changes tr.beyond")].map(tr => tr.dataset.name + "/" + tr.dataset.figure + ": " + tr.querySelector(".flag").textContent).join("\n")`)
	for _, want := range []string{"games/rounds (mean): beyond the noise", "Colour round/landings: beyond the noise", "Sing along/landings: beyond the noise"} {
		if !strings.Contains(flagged, want) {
			t.Errorf("the changes flagged beyond the noise lack %q:\n%s", want, flagged)
		}
	}
	if got := eval(me, `document.querySelector("#changes tr.beyond").innerText`); !strings.Contains(got, "+") && !strings.Contains(got, "−") {
		t.Errorf("a flagged change does not say how much it moved: %q", got)
	}
	accessible(b, me, "the editor with the changes against the pinned version")

	// The page at a desktop's and a phone's size, as it is (no reload: the
	// pin lives in the page): the whole page, and the screen with the
	// balance card in view.
	top := chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)
	card := chromedp.Evaluate[chromedp.Void](`document.getElementById("balance").scrollIntoView({block: "start"})`)
	b.screenshot(me, "editor-balance.png")
	run(me, top)
	shotAsScrolled(b, me, "editor-balance-desktop.png")
	run(me, card)
	shotAsScrolled(b, me, "editor-balance-desktop-card.png")
	run(me, phone())
	time.Sleep(300 * time.Millisecond)
	if w := eval(me, `String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("on a phone-sized screen the editor is %s pixels wide, want 390", w)
	}
	b.screenshot(me, "editor-balance-phone.png")
	run(me, top)
	shotAsScrolled(b, me, "editor-balance-phone-top.png")
	run(me, card)
	shotAsScrolled(b, me, "editor-balance-phone-card.png")
}

// shotAsScrolled saves what the screen shows where the page is scrolled
// now (not the whole page) in the artifacts folder.
func shotAsScrolled(b *browser, ctx context.Context, name string) {
	b.t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts(b.t), name), shot, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TestEditorDrawsTheHeatOfEveryBoard: a rule book's tiles are coloured on
// the editor's own board; a game edited as its source (Trouble) gets the
// simulation's map of its board, coloured the same way.
func TestEditorDrawsTheHeatOfEveryBoard(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	run, eval := b.run, b.eval

	run(me, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(ts.hs.URL+"/edit?board=chutes-and-ladders"),
		chromedp.WaitVisible(chromedp.CSS(`#board svg .tile`)), checked, simulatedN("1"))
	tiles, heated := eval(me, `String(document.querySelectorAll("#board .tile").length)`), eval(me, `String(document.querySelectorAll("#board .tile.heated .heat-value").length)`)
	if tiles == "0" || heated != tiles {
		t.Errorf("%s of the %s tiles show the figure %q", heated, tiles, eval(me, `document.getElementById("heat-figure").value`))
	}
	// Back to the board's own colours.
	run(me, chromedp.SetValue(chromedp.ID("heat-figure"), ""), chromedp.Evaluate[chromedp.Void](`document.getElementById("heat-figure").dispatchEvent(new Event("change"))`))
	if got := eval(me, `String(document.querySelectorAll("#board .heated, #board .heat-value").length)`); got != "0" {
		t.Errorf("with the board's own colours, %s tiles are still coloured by the simulation", got)
	}

	run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=trouble"), chromedp.WaitVisible(chromedp.ID("source")), checked, simulatedN("1"))
	shapes := eval(me, `String(document.querySelectorAll("#heat-map [data-place]").length)`)
	coloured := eval(me, `String(new Set([...document.querySelectorAll("#heat-map [data-place] > :is(rect, ellipse)")].map(s => s.getAttribute("fill"))).size)`)
	if shapes == "0" || coloured == "1" {
		t.Errorf("Trouble's heat map: %s places in %s colours", shapes, coloured)
	}
	run(me, chromedp.Evaluate[chromedp.Void](`document.getElementById("balance").scrollIntoView({block: "start"})`))
	shotAsScrolled(b, me, "editor-balance-source.png")
}
