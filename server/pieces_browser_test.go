package server

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/pieces"
	"github.com/tabulagames/tabula/web"
)

// pieceAct is run in a player's page: it makes the move the page offers,
// as a person would. It rolls; of several moves it takes one that sends
// an opponent home, and otherwise, the first time it may choose between
// two pieces, it picks one on the board (the piece, then its target if
// it has several), the second time it types the piece's number (and
// Enter on its target); else it takes the first move button. It says
// what it did.
const pieceAct = `(() => {
  const roll = document.querySelector("#roll:not([disabled])");
  if (roll) { roll.click(); return "roll"; }
  const moves = [...document.querySelectorAll(".move-list .move:not([disabled])")];
  if (!moves.length) return "";
  const capture = moves.find((b) => b.textContent.includes("back)"));
  if (capture) { capture.click(); return "capture " + capture.textContent; }
  const pieces = new Set(moves.map((b) => b.dataset.piece));
  if (pieces.size > 1 && !window.choseOnBoard) {
    const b = moves[moves.length - 1];
    const piece = document.querySelector('svg .piece.movable[data-piece="' + b.dataset.piece + '"]');
    piece.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    const target = document.querySelector('svg .pspace.target[data-space="' + b.dataset.to + '"]');
    if (target && document.querySelector(".move-list .move:not([disabled])")) {
      target.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
    window.choseOnBoard = true;
    // The page sent the move: its buttons are off until the next state.
    return (document.querySelector(".move-list .move:not([disabled])") ? "failed board " : "board ") + b.textContent;
  }
  if (pieces.size > 1 && !window.choseByKeys) {
    const b = moves[moves.length - 1];
    document.body.dispatchEvent(new KeyboardEvent("keydown", {key: b.dataset.piece, bubbles: true}));
    const target = document.querySelector('svg .pspace.target[data-space="' + b.dataset.to + '"]');
    if (target && document.querySelector(".move-list .move:not([disabled])")) {
      target.focus();
      target.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
    }
    window.choseByKeys = true;
    return (document.querySelector(".move-list .move:not([disabled])") ? "failed keys " : "keys ") + b.textContent;
  }
  moves[0].click();
  return "move " + moves[0].textContent;
})()`

// Two people play Trouble in their browsers: a piece comes out on a 6,
// players choose between two pieces on the board (by tapping, and by
// keyboard), and a piece is sent home and seen going back. Screenshots of
// both pages, of a choice and of a phone are saved.
func TestTroubleInTheBrowser(t *testing.T) {
	exe := chromium(t)
	page, _ := fs.ReadFile(web.Files, "match.js")
	if !strings.Contains(string(page), "PiecesPlay") {
		t.Skip("skipping: the match page does not draw games of pieces yet (add PiecesPlay to match.js's renderers)")
	}
	board, err := os.ReadFile("../examples/pieces/trouble.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Packs: game.Packs{pieces.NewPack(), party.NewPack()},
		Bundled: BundledGames{FS: fstest.MapFS{"pieces/trouble.json": {Data: board}}, Default: "trouble"}})

	b := newBrowser(t, exe)
	ann, bob := b.person(), b.person()
	run, eval := b.run, b.eval
	run(ann, chromedp.Navigate(ts.hs.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("create-match")),
		chromedp.SetValue(chromedp.ID("board"), "trouble"),
		chromedp.SetValue(chromedp.ID("seats"), "2"),
		chromedp.SetValue(chromedp.ID("creator-name"), "Ann"),
		chromedp.Click(chromedp.ID("create-match")),
		chromedp.WaitVisible(chromedp.ID("share-link")))
	matchURL := eval(ann, `document.querySelector("#share-link").value`)
	run(bob, chromedp.Navigate(matchURL),
		chromedp.WaitVisible(chromedp.ID("nickname")),
		chromedp.SendKeys(chromedp.ID("nickname"), "Bob"),
		chromedp.Click(chromedp.ID("join-button")))
	// The table is drawn again with every message: click through the page.
	run(ann, chromedp.Poll[chromedp.Void](`document.querySelectorAll("#seats li.taken").length === 2`))
	run(ann, chromedp.Poll[chromedp.Void](`(() => { const b = document.querySelector("#start"); b?.click(); return !!b; })()`))
	for _, p := range []context.Context{ann, bob} {
		run(p, chromedp.WaitVisible(`svg.pieces-board .piece`))
	}
	if n := eval(ann, `String(document.querySelectorAll("svg .piece").length)`); n != "8" {
		t.Fatalf("%s pieces drawn, want 8", n)
	}

	// Play until a piece came out, a piece was chosen on the board and a
	// piece was sent home, or the game ends.
	seen := map[string]bool{}
	did := map[string]int{}
	shotChoice := false
	deadline := time.Now().Add(150 * time.Second)
	for !(seen["out"] && seen["board"] && seen["keys"] && seen["home"]) {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: seen %v, did %v", 150*time.Second, seen, did)
		}
		if eval(ann, `document.querySelector("#game-over") ? "over" : ""`) == "over" {
			break
		}
		for _, p := range []context.Context{ann, bob} {
			if !shotChoice && eval(p, `String(document.querySelectorAll("svg .piece.movable").length > 1)`) == "true" {
				b.screenshot(p, "pieces-choice.png")
				shotChoice = true
			}
			what := eval(p, pieceAct)
			if what == "" {
				continue
			}
			did[strings.Fields(what)[0]]++
			if strings.HasPrefix(what, "failed") {
				t.Fatalf("the page did not play the choice: %s", what)
			}
			if w := strings.Fields(what)[0]; w == "board" || w == "keys" {
				seen[w] = true
			}
			// Let the page send it, the server answer and the page show it.
			time.Sleep(150 * time.Millisecond)
		}
		log := eval(ann, `document.querySelector("#log").textContent`)
		seen["out"] = strings.Contains(log, "comes out")
		if strings.Contains(log, "is sent home by") && !seen["home"] {
			seen["home"] = true
			// The piece sent home is drawn back on its own home space, on
			// both pages.
			for _, p := range []context.Context{ann, bob} {
				run(p, chromedp.Poll[chromedp.Void](`(() => {
				  const lines = [...document.querySelectorAll("#log .text")].map((e) => e.textContent);
				  const m = lines.reverse().map((l) => /^(Ann|Bob)'s piece (\d) is sent home by/.exec(l)).find(Boolean);
				  const seat = m[1] === "Ann" ? 0 : 1;
				  const el = document.querySelector('svg .piece[data-seat="' + seat + '"][data-piece="' + m[2] + '"]');
				  return el.dataset.space.startsWith("p" + seat + "-home-") || lines.some((l) => l === m[0] + "… comes out");
				})()`))
			}
			b.screenshot(ann, "pieces-capture-ann.png")
		}
	}
	t.Logf("seen %v, did %v", seen, did)
	if !seen["out"] || !seen["board"] || !seen["keys"] {
		t.Fatalf("the game ended before a piece came out and choices were made on the board: %v", seen)
	}
	// Both pages show the same pieces on the same spaces as the server's
	// state hash says.
	time.Sleep(time.Second)
	where := `[...document.querySelectorAll("svg .piece")].map((el) => el.dataset.seat + ":" + el.dataset.piece + "@" + el.dataset.space).join(" ")`
	if a, c := eval(ann, where), eval(bob, where); a != c {
		t.Errorf("Ann's page shows %s, Bob's %s", a, c)
	}
	b.screenshot(ann, "pieces-ann.png")
	b.screenshot(bob, "pieces-bob.png")
	run(bob, phone(), chromedp.WaitVisible(`svg.pieces-board`))
	b.screenshot(bob, "pieces-phone.png")
}
