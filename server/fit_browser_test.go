package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/tabulagames/tabula/examples"
)

// A screen a page is looked at on: a phone held upright (with touch), and
// a laptop.
type screen struct {
	name string
	w, h int64
}

var (
	onPhone   = screen{"phone", 390, 844}
	onDesktop = screen{"desktop", 1280, 800}
)

// emulate sizes a person's page as the screen: the phone as a phone
// (touch, a mobile viewport that zooms out when a page is too wide).
func (s screen) emulate() chromedp.Action[chromedp.Void] {
	if s == onPhone {
		return chromedp.EmulateViewport(s.w, s.h, chromedp.EmulateMobile, chromedp.EmulateTouch,
			chromedp.EmulateOrientation(emulation.ScreenOrientationTypePortraitPrimary, 0))
	}
	return chromedp.EmulateViewport(s.w, s.h)
}

// packFit is what the test knows of a pack's page: where its board is
// drawn, what a player taps on it, how to play until they have something
// to tap, and which of the pack's ids must never reach a player's eyes.
type packFit struct {
	// board selects the drawn board.
	board string
	// taps selects what the player taps on the board ("" if nothing).
	taps string
	// step plays one move as a person would and returns "tap" when the
	// page offers something to tap on the board, "" when it waits, or
	// what it did.
	step string
	// cancel, if any, undoes what step did to show the taps (a pick made
	// to see where it may go).
	cancel string
	// tapped, for a board whose targets are bigger than they look, says
	// that a tap on a target's edge was taken: the test taps there.
	tapped string
}

var packsFit = map[string]packFit{
	"party": {
		board: "#board svg.board",
		taps:  "#board svg .space.choice",
		step: `(() => {
  if (document.querySelector("#board svg .space.choice")) return "tap";
  const ack = document.querySelector("dialog[open] #ack:not([disabled])");
  if (ack) { ack.click(); return "ack"; }
  const roll = document.querySelector("#roll:not([disabled])");
  if (roll) { roll.click(); return "roll"; }
  return "";
})()`,
		tapped: `!document.querySelector("#board svg .space.choice")`,
	},
	"rulebook": {
		board: "#board svg.board",
		step: `(() => {
  const b = document.querySelector("#controls button:not([disabled])");
  if (b) { b.click(); return "play"; }
  return "";
})()`,
	},
	"pieces": {
		board: "#board svg.pieces-board",
		taps:  "#board svg .piece.movable",
		step: `(() => {
  if (document.querySelector("#board svg .piece.movable")) return "tap";
  const roll = document.querySelector("#roll:not([disabled])");
  if (roll) { roll.click(); return "roll"; }
  return "";
})()`,
		// A piece with one move plays it; one with several is picked.
		tapped: `!document.querySelector("#board svg .piece.movable") || !!document.querySelector("#board svg .piece.selected")`,
	},
	"skirmish": {
		board: "#board svg.sk-grid",
		taps:  "#board svg.sk-grid .sk-square",
		step: `(() => {
  if (document.getElementById("app").dataset.over === "true") return "";
  const take = document.querySelector("dialog.sk-reaction[open] #sk-take:not([disabled])");
  if (take) { take.click(); return "take"; }
  if (document.querySelector("#board .sk-reach")) return "tap";
  for (const sel of [".sk-weapon:not([disabled])", ".sk-attack:not([disabled])", "#sk-end:not([disabled])"]) {
    const el = document.querySelector(sel);
    if (el) { el.click(); return sel; }
  }
  return "";
})()`,
	},
	"lanes": {
		board: "#board .lanes",
		taps:  "#board .lanes .candidate",
		step: `(() => {
  const L = document.getElementById("lanes");
  if (!L || L.dataset.animating || L.dataset.turn !== L.dataset.you) return "";
  if (L.querySelector(".candidate")) return "tap";
  const squad = document.querySelector("#controls .squad-drone.candidate");
  if (squad) { squad.click(); return "pick"; }
  const pass = document.getElementById("pass");
  if (pass) { pass.click(); return "pass"; }
  return "";
})()`,
		cancel: `document.getElementById("cancel")?.click()`,
	},
}

// fitPage measures a page as its player sees it, where the page placed
// itself: the document's width, the board's box, how much of the board
// shows above the action bar, the boxes of the actions offered (enabled
// buttons in the controls and in an open dialog), the boxes of what the
// player may tap on the board, and the visible text.
const fitPage = `((boardSel, tapSel) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height}; };
  const seen = (el) => el.checkVisibility({visibilityProperty: true, opacityProperty: true});
  const name = (el) => (el.getAttribute("aria-label") || el.textContent || el.dataset.space || el.tagName).trim().replace(/\s+/g, " ").slice(0, 40);
  // An action in a row or a bar that scrolls inside itself is in reach
  // when that row is: the nearest such box is given with the action.
  const scroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
      const st = getComputedStyle(p);
      if (/auto|scroll/.test(st.overflowX + st.overflowY) && (p.scrollWidth > p.clientWidth + 1 || p.scrollHeight > p.clientHeight + 1)) return p;
    }
    return null;
  };
  const board = boardSel && document.querySelector(boardSel);
  const acts = [...document.querySelectorAll("#controls button:not([disabled]), dialog[open] button:not([disabled])")].filter(seen);
  const taps = tapSel ? [...document.querySelectorAll(tapSel)].filter(seen) : [];
  // The part of the board its frame shows (a board zoomed, or taller
  // than its frame, scrolls inside it), and how much of that is on the
  // screen above the action bar.
  let inView = null;
  if (board) {
    const b = board.getBoundingClientRect(), f = (board.closest(".zoom-view") || board).getBoundingClientRect();
    const top = Math.max(b.top, f.top), bottom = Math.min(b.bottom, f.bottom);
    const bar = document.getElementById("action-bar");
    const room = bar && bar.checkVisibility() ? bar.getBoundingClientRect().top : innerHeight;
    inView = {shown: bottom - top, seen: Math.max(0, Math.min(bottom, room) - Math.max(top, 0)), room};
  }
  return JSON.stringify({
    vw: innerWidth, vh: innerHeight, doc: document.documentElement.scrollWidth,
    board: board ? box(board) : null, inView,
    actions: acts.map((el) => { const sc = scroller(el); return {name: name(el), ...box(el), in: sc ? box(sc) : null}; }),
    taps: taps.map((el) => ({name: name(el), ...box(el)})),
    text: document.body.innerText,
  });
})`

type fitBox struct {
	Name       string
	L, R, T, B float64
	W, H       float64
	// In is the box that scrolls inside itself, if any, that the action
	// is in.
	In *fitBox
}

// outside says whether a box is not all on a w×h screen.
func (b fitBox) outside(w, h int64) bool {
	const slack = 0.5 // rounding of fractional boxes
	return b.T < -slack || b.B > float64(h)+slack || b.L < -slack || b.R > float64(w)+slack
}

type fitMeasure struct {
	VW, VH float64
	Doc    float64
	Board  *fitBox
	// InView is how much of the board shows: its part its frame shows,
	// that part's height on the screen above the action bar, and the
	// room there is above the bar.
	InView  *struct{ Shown, Seen, Room float64 }
	Actions []fitBox
	Taps    []fitBox
	Text    string
}

func measureFit(b *browser, ctx context.Context, p packFit) fitMeasure {
	b.t.Helper()
	var m fitMeasure
	js := fmt.Sprintf("%s(%s, %s)", fitPage, jsString(p.board), jsString(p.taps))
	if err := json.Unmarshal([]byte(b.eval(ctx, js)), &m); err != nil {
		b.t.Fatal(err)
	}
	return m
}

// viewShot saves what a person's screen shows, where the page is
// scrolled, as a PNG in the artifacts folder.
func viewShot(b *browser, ctx context.Context, name string) {
	b.t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts(b.t), name), shot, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// checkFit says what is wrong with a page on a screen: sideways
// scrolling, a board wider than the screen, an action below the fold, a
// target on the board too small for a finger.
func checkFit(s screen, m fitMeasure, wantTaps bool) []string {
	var bad []string
	const slack = 0.5 // rounding of fractional boxes
	if m.Doc > float64(s.w) || m.VW > float64(s.w) {
		bad = append(bad, fmt.Sprintf("the page is %.0f px wide on a %d px screen (viewport %.0f): it scrolls sideways", m.Doc, s.w, m.VW))
	}
	if m.Board == nil {
		bad = append(bad, "no board drawn")
	} else if m.Board.L < -slack || m.Board.R > float64(s.w)+slack || m.Board.W < 40 {
		bad = append(bad, fmt.Sprintf("the board spans %.0f to %.0f px on a %d px screen", m.Board.L, m.Board.R, s.w))
	}
	if v := m.InView; v != nil && v.Seen < min(v.Shown, v.Room)-1 {
		// The whole board with the action bar, or, when it is taller than
		// the room above the bar, the board filling it.
		bad = append(bad, fmt.Sprintf("%.0f px of the board's %.0f show above the action bar (%.0f px of room)", v.Seen, v.Shown, v.Room))
	}
	if len(m.Actions) == 0 {
		bad = append(bad, "no action offered")
	}
	for _, a := range m.Actions {
		where := a
		if a.In != nil {
			// In a row that scrolls inside itself: the row must be on
			// the screen, and the action within reach of its scrolling.
			where = *a.In
		}
		if where.outside(s.w, s.h) {
			bad = append(bad, fmt.Sprintf("the action %q is at (%.0f, %.0f)–(%.0f, %.0f), outside the %d×%d screen", a.Name, where.L, where.T, where.R, where.B, s.w, s.h))
		}
	}
	if s == onPhone && wantTaps {
		if len(m.Taps) == 0 {
			bad = append(bad, "nothing to tap on the board")
		}
		for _, tp := range m.Taps {
			if tp.W < 40-slack || tp.H < 40-slack {
				bad = append(bad, fmt.Sprintf("%q on the board is %.0f×%.0f px: too small for a finger (40 at least)", tp.Name, tp.W, tp.H))
			}
		}
	}
	return bad
}

// Every bundled game, at a phone's size and a laptop's: the page never
// scrolls sideways, the board is inside the screen's width, the page
// places itself so that the board shows whole above the action bar (or,
// taller than the room there, fills it), what the player may do now is
// on the screen without scrolling, what they tap on
// the board is big enough for a finger on the phone, and no internal id
// reaches their eyes. A player with a seat plays against bots until the
// board asks them to tap it. Screenshots of each are left in the
// artifacts: <game>-<screen>.png as first seen, <game>-phone-tap.png when
// the board is tapped.
func TestEveryBoardFitsEveryScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every bundled game in a browser: a few minutes")
	}
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	var lib []GameInfo
	ts.call("GET", "/api/boards", nil, &lib)
	if len(lib) == 0 {
		t.Fatal("no bundled games")
	}
	for _, g := range lib {
		t.Run(g.ID, func(t *testing.T) {
			// The games are played side by side: most of the time goes
			// to waiting for the page's animations and the bots.
			t.Parallel()
			p, ok := packsFit[g.Pack]
			if !ok {
				t.Fatalf("the test does not know the %s pack's page: add it to packsFit", g.Pack)
			}
			ts := &testServer{t: t, srv: ts.srv, hs: ts.hs, db: ts.db, opt: ts.opt}
			b := newBrowser(t, exe)
			ids := idShapes(t, ts, g)
			seats := max(2, g.MinPlayers)
			tb := ts.newTable(g.ID, seats, []string{"Ann"}, true, true, nil)
			ann := b.person()
			secrets, _ := json.Marshal(map[string]string{"token": tb.tokens[0]})
			b.run(ann, onDesktop.emulate(), chromedp.Navigate(ts.hs.URL+"/"))
			b.eval(ann, `localStorage.setItem("tabula:`+tb.ID+`", `+strconv.Quote(string(secrets))+`), ""`)

			var texts, bad []string
			look := func(s screen, shot string, wantTaps bool) {
				t.Helper()
				m := measureFit(b, ann, p)
				viewShot(b, ann, shot)
				texts = append(texts, m.Text)
				for _, e := range checkFit(s, m, wantTaps) {
					bad = append(bad, fmt.Sprintf("%s on a %s (%s): %s", g.Name, s.name, shot, e))
				}
			}
			ready := `(() => {
  const L = document.getElementById("lanes");
  if (L && L.dataset.animating) return false;
  if (document.getElementById("app").dataset.over === "true") return true;
  return [...document.querySelectorAll("#controls button:not([disabled]), dialog[open] button:not([disabled])")].some((el) => el.checkVisibility());
})()`
			settle := func() {
				t.Helper()
				b.waitTrue(ann, "an action offered", ready)
				time.Sleep(400 * time.Millisecond)
				b.waitTrue(ann, "an action offered", ready)
			}
			b.run(ann, chromedp.Navigate(ts.hs.URL+"/m/"+tb.ID))
			settle()
			look(onDesktop, g.ID+"-desktop.png", false)
			// The same page, turned into a phone's: it follows the
			// screen as it changes, without a reload.
			b.run(ann, onPhone.emulate())
			time.Sleep(300 * time.Millisecond)
			settle()
			look(onPhone, g.ID+"-phone.png", false)

			if p.taps != "" && g.Pack == "party" && !forks(t, ts, tb) {
				t.Logf("%s: no fork, nothing to tap on the board", g.Name)
			} else if p.taps != "" {
				// Ann plays until the board asks her to tap it: eighty
				// moves of hers at most (Trouble asks only when a six
				// finds a piece already out, and the bot sends pieces
				// home: forty moves were once not enough), or three minutes (on a busy
				// machine a minute gave Trouble too few rolls).
				tapped, moves, until := false, 0, time.Now().Add(3*time.Minute)
				for moves < 80 && time.Now().Before(until) && !tapped {
					if b.eval(ann, `document.getElementById("app").dataset.over || ""`) == "true" {
						break
					}
					before := b.eval(ann, `document.getElementById("app").dataset.hash || ""`)
					switch did := b.eval(ann, p.step); did {
					case "tap":
						time.Sleep(300 * time.Millisecond)
						look(onPhone, g.ID+"-phone-tap.png", true)
						tapped = true
						if p.tapped != "" {
							// A finger lands near the edge of the first
							// target, where the board draws nothing.
							at := b.eval(ann, `(() => { const r = document.querySelector(`+jsString(p.taps)+`).getBoundingClientRect();
							  return (r.left + r.width / 2 + Math.min(r.width, r.height) / 2 - 3) + " " + (r.top + r.height / 2); })()`)
							var x, y float64
							fmt.Sscan(at, &x, &y)
							if hit := b.eval(ann, fmt.Sprintf(`String(document.elementFromPoint(%f, %f)?.closest(%s) === document.querySelector(%s))`, x, y, jsString(p.taps), jsString(p.taps))); hit != "true" {
								bad = append(bad, fmt.Sprintf("%s on a phone: a finger at the edge of the first target on the board (%.0f, %.0f) misses it", g.Name, x, y))
							}
							b.run(ann, fingers(input.DispatchTouchEventTypeTouchStart, [2]float64{x, y}), fingers(input.DispatchTouchEventTypeTouchEnd))
							b.waitTrue(ann, "the tap on the board taken", p.tapped)
						}
					case "":
						time.Sleep(100 * time.Millisecond)
					default:
						moves++
						time.Sleep(150 * time.Millisecond)
						// A move counts once it was played: the page's
						// state changes (a pick of the lane game's squad
						// does not, until its lane is tapped). On a busy
						// machine a roll clicked again before the answer
						// came would count twice.
						for wait := time.Now().Add(3 * time.Second); did != "pick" && time.Now().Before(wait) &&
							b.eval(ann, `document.getElementById("app").dataset.hash || ""`) == before; {
							time.Sleep(50 * time.Millisecond)
						}
					}
				}
				if !tapped {
					bad = append(bad, fmt.Sprintf("%s: the game never asked Ann to tap the board in %d moves", g.Name, moves))
				}
				if p.cancel != "" {
					b.eval(ann, p.cancel+`, ""`)
				}
			}

			// The layout and the words are checked apart: they are
			// different work, and fail for different reasons.
			t.Run("fits", func(t *testing.T) {
				for _, e := range bad {
					t.Error(e)
				}
			})
			t.Run("names", func(t *testing.T) {
				seen := map[string]bool{}
				for _, text := range texts {
					// A script's slip shows as a word of JavaScript.
					if m := scriptWords.FindString(text); m != "" && !seen[m] {
						seen[m] = true
						t.Errorf("%s shows %q to players, in %q", g.Name, m, around(text, m))
					}
					for _, re := range ids {
						for _, sub := range re.FindAllStringSubmatch(text, -1) {
							m := sub[len(sub)-1] // the id, without what bounds it
							if m == "" {
								m = sub[0]
							}
							if !seen[m] {
								seen[m] = true
								t.Errorf("%s shows an internal id to players: %q (%s) in %q", g.Name, m, re, around(text, m))
							}
						}
					}
				}
			})
		})
	}
}

// scriptWords are what a page's script shows when it writes a value that
// is not there or not text ("Your turnnull").
var scriptWords = regexp.MustCompile(`(null|undefined|NaN)\b|\[object \w+\]`)

// forks says whether a match's party board has a fork (where a player
// chooses a way on the board).
func forks(t *testing.T, ts *testServer, tb *table) bool {
	t.Helper()
	var b struct {
		Drawing struct {
			Spaces []struct {
				Connections []json.RawMessage `json:"connections"`
			} `json:"spaces"`
		} `json:"drawing"`
	}
	ts.call("GET", "/api/matches/"+tb.ID+"/board?invite="+tb.Invite, nil, &b)
	if len(b.Drawing.Spaces) == 0 {
		t.Fatal("the party board's drawing has no spaces")
	}
	for _, s := range b.Drawing.Spaces {
		if len(s.Connections) > 1 {
			return true
		}
	}
	return false
}

// around is the line of text where s is.
func around(text, s string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			if len(line) > 120 {
				i := strings.Index(line, s)
				line = line[max(0, i-50):min(len(line), i+len(s)+50)]
			}
			return line
		}
	}
	return ""
}

// rawEnum is an engine's enumeration as it is written in code
// (COMPLETED_GAME, ON_LAND): players read words instead.
var rawEnum = regexp.MustCompile(`\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b`)

// idShapes lists what a game's ids look like in a player's text, from its
// file and its pack: spaces and tiles named by id beside (or instead of)
// their names, pieces' spaces (t9, p0-home-2), creatures' keys
// (goblin-1), coordinates, conditions by their ids, decks in brackets,
// effects by their kinds.
func idShapes(t *testing.T, ts *testServer, g GameInfo) []*regexp.Regexp {
	t.Helper()
	res := []*regexp.Regexp{rawEnum}
	word := func(s string) *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\p{L}\p{N}_-])(` + regexp.QuoteMeta(s) + `)(?:$|[^\p{L}\p{N}_-])`)
	}
	data, err := fs.ReadFile(examples.Games, g.Pack+"/"+g.File)
	if err != nil {
		t.Fatalf("the bundled file of %s: %v", g.ID, err)
	}
	var file any
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	// named lists the objects of the file with an id (or key) and a name.
	type named struct{ id, name string }
	var things []named
	strs := map[string][]string{} // key → every string value under it
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			id, _ := v["id"].(string)
			name, _ := v["name"].(string)
			if id != "" {
				things = append(things, named{id, name})
			}
			for k, x := range v {
				if s, ok := x.(string); ok {
					strs[k] = append(strs[k], s)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(file)
	names := map[string]bool{}
	for _, n := range things {
		for _, w := range strings.Fields(strings.ToLower(n.name)) {
			names[w] = true
		}
	}
	numeric := regexp.MustCompile(`^\d+$`)
	switch g.Pack {
	case "party", "rulebook", "pieces":
		for _, n := range things {
			if n.name != "" && n.name != n.id {
				res = append(res, regexp.MustCompile(regexp.QuoteMeta(n.name)+` \(`+regexp.QuoteMeta(n.id)+`\)`))
			}
			// An id that is a number, or a word of the names, is no
			// sign of an id on its own.
			if !numeric.MatchString(n.id) && !names[strings.ToLower(n.id)] && n.id != n.name {
				res = append(res, word(n.id))
			}
		}
	}
	switch g.Pack {
	case "party":
		// Effects by their kinds: SkipTurnsEffect, "skipturns (1 left)".
		for _, s := range strs["type"] {
			if k, ok := strings.CutSuffix(s, "Effect"); ok && k != "" {
				res = append(res, regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(k)+`(?:effect)?\b`))
			}
		}
	case "rulebook":
		// Decks by their ids: "(chance)", "(cards)".
		for _, s := range append(strs["deck"], deckNames(file)...) {
			res = append(res, regexp.MustCompile(`\(`+regexp.QuoteMeta(s)+`\)`))
		}
	case "skirmish":
		// Creatures by their keys (goblin-1, and "goblin-1 (Goblin)"),
		// coordinates, conditions by their ids (steady-aim).
		res = append(res, regexp.MustCompile(`\b[a-z]+(?:-[a-z]+)*-\d+\b`), regexp.MustCompile(`\(\d+, ?\d+\)`))
		kebab := regexp.MustCompile(`^[a-z]+(?:-[a-z]+)+$`)
		seen := map[string]bool{}
		for _, f := range skirmishFiles(t) {
			for _, k := range f {
				if kebab.MatchString(k) && !seen[k] {
					seen[k] = true
					res = append(res, word(k))
				}
			}
		}
	case "lanes":
		// Cards by their ids: Deploy_Inhibitor_Mine.
		for _, n := range things {
			if strings.Contains(n.id, "_") {
				res = append(res, word(n.id))
			}
		}
	}
	sort.Slice(res, func(i, j int) bool { return res[i].String() < res[j].String() })
	return res
}

// deckNames are the names (ids) of a rule book's decks.
func deckNames(file any) []string {
	var out []string
	m, _ := file.(map[string]any)
	decks, _ := m["decks"].([]any)
	for _, d := range decks {
		if d, ok := d.(map[string]any); ok {
			if s, ok := d["name"].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// skirmishFiles lists, for each bundled skirmish file, the ids of the
// conditions it defines or gives.
func skirmishFiles(t *testing.T) [][]string {
	t.Helper()
	files, _ := fs.Glob(examples.Games, "skirmish/*.json")
	var out [][]string
	for _, f := range files {
		data, _ := fs.ReadFile(examples.Games, f)
		var v any
		json.Unmarshal(data, &v)
		var ids []string
		var walk func(any, string)
		walk = func(v any, key string) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if s, ok := x.(string); ok && (k == "name" && key == "conditions" || k == "condition") {
						ids = append(ids, s)
					}
					walk(x, k)
				}
			case []any:
				for _, x := range v {
					walk(x, key)
				}
			}
		}
		walk(v, "")
		out = append(out, ids)
	}
	return out
}

// fingers touches the screen: the fingers down at points (x, y), in CSS
// pixels of the viewport; none for a touch's end.
func fingers(typ input.DispatchTouchEventType, points ...[2]float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		for i, pt := range points {
			id := float64(i)
			p.TouchPoints = append(p.TouchPoints, &input.TouchPoint{X: pt[0], Y: pt[1], ID: &id})
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, p)
		return err
	})
}

// The lobby and the editor (of each kind of game) never scroll sideways,
// on a phone or a laptop. Screenshots: lobby-<screen>.png,
// editor-<game>-<screen>.png.
func TestLobbyAndEditorFitEveryScreen(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	ts.newTable("default", 2, nil, true, true, map[string]any{"public": true})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	pages := []struct{ name, path, ready string }{
		{"lobby", "/", `!!document.querySelector("#create-match") && !!document.querySelector(".game")`},
	}
	for _, g := range []string{"default", "monopoly", "trouble", "drone-lanes", "ambush"} {
		pages = append(pages, struct{ name, path, ready string }{"editor-" + g, "/edit?board=" + g, `document.getElementById("app").dataset.checked === "true"`})
	}
	for _, s := range []screen{onDesktop, onPhone} {
		for _, p := range pages {
			b.run(me, s.emulate(), chromedp.Navigate(ts.hs.URL+p.path), poll(p.ready))
			time.Sleep(300 * time.Millisecond)
			viewShot(b, me, p.name+"-"+s.name+".png")
			got := b.eval(me, `document.documentElement.scrollWidth + " " + innerWidth`)
			var doc, vw int64
			fmt.Sscan(got, &doc, &vw)
			if doc > s.w || vw > s.w {
				t.Errorf("%s on a %s: the page is %d px wide (viewport %d) on a %d px screen: it scrolls sideways", p.name, s.name, doc, vw, s.w)
			}
		}
	}
}

// A player zooms a board: with its buttons, by pinching it with two
// fingers, and back to the whole board. Zoomed in, the board scrolls
// inside its frame and the page does not scroll sideways; scrolled to its
// far edge, the board's edge is in view. On a phone held upright, a map
// too wide for its squares to be tapped is turned a quarter; held
// sideways, it is not.
func TestZoomTheBoard(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	open := func(board string) context.Context {
		tb := ts.newTable(board, 2, []string{"Ann"}, true, true, nil)
		ann := b.person()
		watch(t, ann, otherStyles...)
		secrets, _ := json.Marshal(map[string]string{"token": tb.tokens[0]})
		b.run(ann, onPhone.emulate(), chromedp.Navigate(ts.hs.URL+"/"))
		b.eval(ann, `localStorage.setItem("tabula:`+tb.ID+`", `+strconv.Quote(string(secrets))+`), ""`)
		b.run(ann, chromedp.Navigate(ts.hs.URL+"/m/"+tb.ID), poll(`!!document.querySelector("#board .zoomable svg")`))
		time.Sleep(300 * time.Millisecond)
		return ann
	}
	num := func(ctx context.Context, js string) float64 {
		f, err := strconv.ParseFloat(b.eval(ctx, `String(`+js+`)`), 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	const (
		width  = `document.querySelector("#board .zoomable svg").getBoundingClientRect().width`
		zoom   = `document.querySelector("#board .zoomable").dataset.zoom`
		page   = `document.documentElement.scrollWidth`
		toEdge = `(() => { const v = document.querySelector("#board .zoom-view"); v.scrollLeft = v.scrollWidth; v.scrollTop = v.scrollHeight;
		  const a = v.getBoundingClientRect(), s = v.querySelector("svg").getBoundingClientRect();
		  return Math.abs(s.right - a.right) < 2 && Math.abs(s.bottom - a.bottom) < 2; })()`
	)

	t.Run("party", func(t *testing.T) {
		ann := open("default")
		w0 := num(ann, width)
		// Not zoomed, the wheel over the board, or over the action bar,
		// scrolls the page. (A finger's swipe would too, but headless
		// Chromium scrolls nothing by synthesized touch.)
		for _, over := range []string{"#board .zoom-view", "#action-bar"} {
			b.eval(ann, `scrollTo(0, 0), ""`)
			r := b.eval(ann, `(() => { const r = document.querySelector(`+jsString(over)+`).getBoundingClientRect(); return (r.left + r.width / 2) + " " + (r.top + r.height / 2); })()`)
			var sx, sy float64
			fmt.Sscan(r, &sx, &sy)
			b.run(ann, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, input.SynthesizeScrollGesture, input.SynthesizeScrollGestureParams{X: sx, Y: sy, YDistance: -150, GestureSourceType: input.GestureSourceTypeMouse})
				return err
			}))
			time.Sleep(500 * time.Millisecond) // the page scrolls smoothly
			if y, most := num(ann, `scrollY`), num(ann, `document.documentElement.scrollHeight - innerHeight`); most < 1 || y < min(most, 100) {
				t.Errorf("the wheel over %s scrolled the page by %.0f px (it may scroll by %.0f)", over, y, most)
			}
		}
		b.eval(ann, `scrollTo(0, 0), ""`)
		b.run(ann, chromedp.Click(`#board .zoom-button[aria-label="Zoom in"]`), poll(zoom+` === "1.50"`))
		if w := num(ann, width); w < 1.45*w0 || w > 1.55*w0 {
			t.Errorf("zoomed in once, the board is %.0f px wide, from %.0f", w, w0)
		}
		if p := num(ann, page); p > 390 {
			t.Errorf("zoomed in, the page is %.0f px wide", p)
		}
		if b.eval(ann, `String(`+toEdge+`)`) != "true" {
			t.Error("zoomed in, the far corner of the board cannot be scrolled to")
		}
		viewShot(b, ann, "zoom-party-phone.png")

		// Two fingers 80 px apart move to 160 px apart: twice the zoom.
		r := b.eval(ann, `(() => { const r = document.querySelector("#board .zoom-view").getBoundingClientRect(); return (r.left + r.width / 2) + " " + (r.top + r.height / 2); })()`)
		var cx, cy float64
		fmt.Sscan(r, &cx, &cy)
		touch := func(typ input.DispatchTouchEventType, d float64) chromedp.Action[chromedp.Void] {
			if typ == input.DispatchTouchEventTypeTouchEnd {
				return fingers(typ)
			}
			return fingers(typ, [2]float64{cx - d/2, cy}, [2]float64{cx + d/2, cy})
		}
		b.run(ann, touch(input.DispatchTouchEventTypeTouchStart, 80), touch(input.DispatchTouchEventTypeTouchMove, 120), touch(input.DispatchTouchEventTypeTouchMove, 160), touch(input.DispatchTouchEventTypeTouchEnd, 0))
		if z := num(ann, zoom); z < 2.8 || z > 3.2 {
			t.Errorf("after a pinch to twice as wide from 1.5, the zoom is %.2f", z)
		}
		if p := num(ann, page); p > 390 {
			t.Errorf("pinched, the page is %.0f px wide", p)
		}
		b.run(ann, chromedp.Click(`#board .zoom-button.whole`), poll(zoom+` === "1.00"`))
		if w := num(ann, width); w < w0-1 || w > w0+1 {
			t.Errorf("back to the whole board, it is %.0f px wide, not %.0f", w, w0)
		}
	})

	t.Run("skirmish", func(t *testing.T) {
		ann := open("ambush")
		if got := b.eval(ann, `document.querySelector("svg.sk-grid").classList.contains("turned") + " " + document.querySelector("svg.sk-grid").viewBox.baseVal.width`); got != "true 648" {
			t.Errorf("on a phone held upright, the 14 by 9 map: turned, width: %s (want turned, 9 squares of 72)", got)
		}
		viewShot(b, ann, "zoom-skirmish-upright.png")
		b.run(ann, chromedp.EmulateViewport(844, 390, chromedp.EmulateMobile, chromedp.EmulateTouch,
			chromedp.EmulateOrientation(emulation.ScreenOrientationTypeLandscapePrimary, 90)),
			poll(`!document.querySelector("svg.sk-grid").classList.contains("turned")`))
		// The creatures are where the map says, turned or not.
		got := b.eval(ann, `[...document.querySelectorAll(".sk-token")].map((g) => {
		  const m = /translate\(([\d.]+)px, ([\d.]+)px\)/.exec(g.style.transform); return g.dataset.key + "@" + m[1] / 72 + "," + m[2] / 72; }).sort().join(" ")`)
		if !strings.Contains(got, "fighter@") || strings.Contains(got, "NaN") {
			t.Errorf("the creatures on the map held sideways: %s", got)
		}
		viewShot(b, ann, "zoom-skirmish-sideways.png")
	})
}
