package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds the browser for end-to-end tests. Without one the tests
// skip on a developer's machine and fail under CI, where .ci/run installs
// Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium: CI must install it (apt-get install -y chromium)")
	}
	t.Skip("skipping browser tests: no chromium on this machine (apt-get install -y chromium)")
	return ""
}

// artifacts is where browser tests leave screenshots: $TABULA_ARTIFACTS,
// or .artifacts at the repository's root.
func artifacts(t *testing.T) string {
	dir := os.Getenv("TABULA_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", ".artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// e2eBoard is small but has a fork at the start and prompts on the way:
// every game on it chooses a path and acknowledges prompts.
const e2eBoard = `{
  "metadata": {"name": "Fork and finish", "gameRules": {"players": {"min": 2, "max": 4}}},
  "spaces": [
    {"id": "start", "name": "Start", "type": "start", "visualDetails": {"x": 100, "y": 200, "size": 70, "color": "#ffd6a5"},
     "connections": [{"targetId": "left"}, {"targetId": "right"}], "events": []},
    {"id": "left", "name": "Left", "visualDetails": {"x": 250, "y": 100, "size": 70, "color": "#caffbf"},
     "connections": [{"targetId": "finish"}],
     "events": [{"trigger": {"type": "ON_ENTER"}, "action": {"type": "PROMPT_CURRENT_PLAYER", "payload": {"message": "{{CURRENT_PLAYER_NAME}} went left"}}}]},
    {"id": "right", "name": "Right", "visualDetails": {"x": 250, "y": 300, "size": 70, "color": "#9bf6ff"},
     "connections": [{"targetId": "finish"}],
     "events": [{"trigger": {"type": "ON_ENTER"}, "action": {"type": "CHANGE_STAT", "payload": {"statId": "drinks", "delta": 1}}}]},
    {"id": "finish", "name": "Finish", "type": "end", "visualDetails": {"x": 400, "y": 200, "size": 80, "color": "#ffadad"},
     "connections": [],
     "events": [
       {"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}},
       {"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "{{CURRENT_PLAYER_NAME}} is home!"}}}]}
  ]
}`

// act is run in a player's page: it makes the move the page offers, if
// any, by clicking what a person would click, and says what it did.
const act = `(() => {
  const ack = document.querySelector("dialog[open] #ack:not([disabled])");
  if (ack) { ack.click(); return "ack"; }
  const roll = document.querySelector("#roll:not([disabled])");
  if (roll) { roll.click(); return "roll"; }
  const space = document.querySelector("svg .space.choice");
  if (space) { space.dispatchEvent(new MouseEvent("click", {bubbles: true})); return "choose " + space.dataset.space; }
  return "";
})()`

// browser is a Chromium for a test, with a deadline for the whole test.
type browser struct {
	t        *testing.T
	ctx      context.Context
	deadline context.Context
}

// newBrowser starts Chromium; it stops when the test ends.
func newBrowser(t *testing.T, exe string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1200, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	deadline, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return &browser{t: t, ctx: ctx, deadline: deadline}
}

// person opens a browser context of its own: its own storage, as on
// someone's own phone.
func (b *browser) person() context.Context {
	ctx, _ := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatal(err)
	}
	return ctx
}

// run does the steps in a person's page, within a minute and the test's
// deadline.
func (b *browser) run(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, c := context.WithTimeout(ctx, time.Minute)
	defer c()
	go func() {
		select {
		case <-b.deadline.Done():
			c()
		case <-ctx.Done():
		}
	}()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// eval runs JavaScript in a person's page and returns its string result.
func (b *browser) eval(ctx context.Context, js string) string {
	b.t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}

// screenshot saves a person's whole page as a PNG in the artifacts folder.
func (b *browser) screenshot(ctx context.Context, name string) string {
	b.t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(artifacts(b.t), name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return path
}

func TestTwoPlayersInTheBrowser(t *testing.T) {
	exe := chromium(t)
	ts := newTestServer(t, "")
	req, _ := http.NewRequest("POST", ts.hs.URL+"/api/boards?name=fork.json", strings.NewReader(e2eBoard))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var up struct{ Board BoardInfo }
	json.NewDecoder(res.Body).Decode(&up)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d", res.StatusCode)
	}

	b := newBrowser(t, exe)
	ann, bob, watcher := b.person(), b.person(), b.person()
	run, eval := b.run, b.eval

	// Ann creates the match on the uploaded board and joins it.
	run(ann, chromedp.Navigate(ts.hs.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("create-match")),
		chromedp.SetValue(chromedp.ID("board"), up.Board.ID),
		chromedp.SetValue(chromedp.ID("seats"), "2"),
		chromedp.Click(chromedp.ID("create-match")),
		chromedp.WaitVisible(chromedp.ID("nickname")),
		chromedp.SendKeys(chromedp.ID("nickname"), "Ann"),
		chromedp.Click(chromedp.ID("join-button")))
	matchURL := eval(ann, `location.href`)
	if !strings.Contains(matchURL, "/m/") {
		t.Fatalf("after creating: %s", matchURL)
	}
	// Bob opens the shared link and joins; someone else just watches.
	run(bob, chromedp.Navigate(matchURL),
		chromedp.WaitVisible(chromedp.ID("nickname")),
		chromedp.SendKeys(chromedp.ID("nickname"), "Bob"),
		chromedp.Click(chromedp.ID("join-button")))
	run(watcher, chromedp.Navigate(matchURL), chromedp.WaitVisible(chromedp.ID("seats")))
	run(ann, chromedp.Poll[chromedp.Void](`document.querySelectorAll("#seats li.taken").length === 2`),
		chromedp.Click(chromedp.ID("start")))

	did := map[string]int{}
	reloaded := false
	for round := 0; ; round++ {
		// Halfway, Bob reloads the page: he is back in his seat, with the
		// match where it was.
		if !reloaded && did["roll"] >= 2 {
			reloaded = true
			before := eval(bob, `document.getElementById("app").dataset.hash`)
			run(bob, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("players")),
				chromedp.Poll[chromedp.Void](`document.getElementById("app").dataset.hash !== undefined`))
			if you := eval(bob, `document.querySelector("#players .player .name") ? [...document.querySelectorAll("#players .name")].map(n => n.textContent).join(",") : ""`); !strings.Contains(you, "Bob — you") {
				t.Errorf("after reloading, Bob is not in his seat: %q", you)
			}
			if after := eval(bob, `document.getElementById("app").dataset.hash`); after != before && before != "" {
				t.Logf("the match moved on while Bob reloaded (%s → %s)", before, after)
			}
		}
		if round > 600 {
			t.Logf("Ann's toast: %s", eval(ann, `document.getElementById("toast").textContent`))
			t.Logf("Ann sees: %s", eval(ann, `document.body.innerText`))
			t.Logf("Bob sees: %s", eval(bob, `document.body.innerText`))
			t.Fatalf("the game did not end; moves so far: %v", did)
		}
		moved := false
		for _, p := range []context.Context{ann, bob} {
			if a := eval(p, act); a != "" {
				did[strings.Fields(a)[0]]++
				moved = true
			}
		}
		over := eval(ann, `document.getElementById("app").dataset.over || ""`) == "true" &&
			eval(bob, `document.getElementById("app").dataset.over || ""`) == "true"
		if over {
			break
		}
		if !moved {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if did["choose"] == 0 || did["ack"] == 0 || did["roll"] == 0 {
		t.Errorf("the players did not roll, choose a fork and acknowledge a prompt: %v", did)
	}
	run(watcher, chromedp.WaitVisible(chromedp.ID("game-over")))
	hashes := []string{}
	for _, p := range []context.Context{ann, bob, watcher} {
		hashes = append(hashes, eval(p, `document.getElementById("app").dataset.hash`))
	}
	if hashes[0] == "" || hashes[0] != hashes[1] || hashes[0] != hashes[2] {
		t.Errorf("final state hashes differ (Ann, Bob, spectator): %v", hashes)
	}
	text := eval(watcher, `document.getElementById("game-over").textContent`)
	if !strings.Contains(text, "Winner") {
		t.Errorf("the spectator's result: %q", text)
	}
	if !reloaded {
		t.Error("the game ended before Bob could reload")
	}
	path := b.screenshot(ann, "finished-game.png")
	// The spectator's phone-sized screen shows the same finished game.
	run(watcher, chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("game-over")))
	if w := eval(watcher, `String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("on a phone-sized screen the page is %s pixels wide, want 390 (no sideways scrolling)", w)
	}
	phonePath := b.screenshot(watcher, "finished-game-phone.png")
	t.Logf("moves %v; screenshots of the finished game: %s, %s", did, path, phonePath)
}
