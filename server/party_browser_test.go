package server

import (
	"context"
	"net"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/party"
)

// forkBoard forks at the start into two ways whose first spaces have the
// same name, joins them, forks again and ends at a finish: every match on
// it chooses ways (by clicking the board) and acknowledges prompts, and is
// long enough for a reload and a restart on the way.
const forkBoard = `{
  "metadata": {"name": "Two rhymes", "description": "A test board: two forks and prompts.", "gameRules": {"players": {"min": 2, "max": 4}}},
  "spaces": [
    {"id": "start", "name": "Start", "type": "start", "visualDetails": {"x": 80, "y": 250, "size": 70, "color": "#ffd6a5"},
     "connections": [{"targetId": "a1"}, {"targetId": "b1"}], "events": []},
    {"id": "a1", "name": "Rhyme Time", "visualDetails": {"x": 200, "y": 130, "size": 70, "color": "#caffbf"},
     "connections": [{"targetId": "a2"}],
     "events": [{"trigger": {"type": "ON_ENTER"}, "action": {"type": "PROMPT_CURRENT_PLAYER", "payload": {"message": "{{CURRENT_PLAYER_NAME}}, say a rhyme"}}}]},
    {"id": "b1", "name": "Rhyme Time", "visualDetails": {"x": 200, "y": 370, "size": 70, "color": "#9bf6ff"},
     "connections": [{"targetId": "b2"}],
     "events": [{"trigger": {"type": "ON_ENTER"}, "action": {"type": "CHANGE_STAT", "payload": {"statId": "drinks", "delta": 1}}}]},
    {"id": "a2", "name": "High road", "visualDetails": {"x": 330, "y": 130, "size": 70}, "connections": [{"targetId": "m1"}], "events": []},
    {"id": "b2", "name": "Low road", "visualDetails": {"x": 330, "y": 370, "size": 70}, "connections": [{"targetId": "m1"}], "events": []},
    {"id": "m1", "name": "Meeting point", "visualDetails": {"x": 450, "y": 250, "size": 70}, "connections": [{"targetId": "m2"}, {"targetId": "m3"}], "events": []},
    {"id": "m2", "name": "Left bend", "visualDetails": {"x": 570, "y": 150, "size": 70}, "connections": [{"targetId": "m4"}],
     "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "Everybody drinks!"}}}]},
    {"id": "m3", "name": "Right bend", "visualDetails": {"x": 570, "y": 350, "size": 70}, "connections": [{"targetId": "m4"}], "events": []},
    {"id": "m4", "name": "Long walk", "visualDetails": {"x": 690, "y": 250, "size": 70}, "connections": [{"targetId": "m5"}], "events": []},
    {"id": "m5", "name": "Longer walk", "visualDetails": {"x": 810, "y": 250, "size": 70}, "connections": [{"targetId": "m6"}], "events": []},
    {"id": "m6", "name": "Nearly there", "visualDetails": {"x": 930, "y": 250, "size": 70}, "connections": [{"targetId": "finish"}], "events": []},
    {"id": "finish", "name": "Finish", "type": "end", "visualDetails": {"x": 1050, "y": 250, "size": 80, "color": "#ffadad"},
     "connections": [],
     "events": [
       {"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}},
       {"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "{{CURRENT_PLAYER_NAME}} is home!"}}}]}
  ]
}`

// act is run in a player's page: it makes the move the page offers, if
// any, as a person would: OK in a prompt, the roll button, or a
// highlighted space of the board (clicked). It says what it did.
const act = `(() => {
  const ack = document.querySelector("dialog[open] #ack:not([disabled])");
  if (ack) { ack.click(); return "ack"; }
  const roll = document.querySelector("#roll:not([disabled])");
  if (roll) { roll.click(); return "roll"; }
  const spaces = document.querySelectorAll("#board svg .space.choice");
  if (spaces.length) {
    const names = [...document.querySelectorAll("#controls .choice")].map(b => b.textContent).join("|");
    const space = spaces[spaces.length - 1];
    space.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    return "choose " + space.dataset.space + " " + names;
  }
  return "";
})()`

// logSeqs lists the log records a page shows.
const logSeqs = `[...document.querySelectorAll("#log li")].map(li => li.dataset.seq).join(",")`

// TestTwoPeoplePlayAPartyBoard: Ann creates a private match with a time
// limit in the lobby, Bob joins by its link, a spectator watches. They
// play to the end: the forks are chosen by clicking the board (their
// buttons say which Rhyme Time is which), prompts are acknowledged, the
// countdown of the time limit runs. Midway Bob reloads his page, and
// later the server restarts: each keeps their seat, and no log entry is
// shown twice. At the end, the rematch is one click for both.
func TestTwoPeoplePlayAPartyBoard(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	board := ts.upload("two-rhymes.json", forkBoard)

	b := newBrowser(t, exe)
	ann, bob, watcher := b.person(), b.person(), b.person()
	for _, p := range []context.Context{ann, bob, watcher} {
		// A page may see its connection refused while the server restarts.
		watch(t, p, append(otherStyles, "WebSocket")...)
	}
	run, eval := b.run, b.eval

	// Ann creates the match in the lobby: private (the default), a minute
	// for each move.
	run(ann, chromedp.Navigate(ts.hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("create-match")),
		chromedp.SetValue(chromedp.ID("board"), board), chromedp.SetValue(chromedp.ID("seats"), "2"),
		chromedp.SetValue(chromedp.ID("turn-limit"), "60"))
	if got := eval(ann, `document.getElementById("vis-private").checked && !document.getElementById("vis-public").checked ? "private" : "public"`); got != "private" {
		t.Fatalf("a new match is %s by default", got)
	}
	// Creating the match seats Ann, under the name she gave first.
	run(ann, chromedp.SetValue(chromedp.ID("creator-name"), "Ann"), chromedp.Click(chromedp.ID("create-match")),
		chromedp.WaitVisible(chromedp.CSS("#seats li.taken")))
	link := eval(ann, `document.getElementById("share-link").value`)
	if !strings.Contains(link, "#invite=") {
		t.Fatalf("the invitation link: %s", link)
	}
	run(bob, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("nickname")),
		chromedp.SetValue(chromedp.ID("nickname"), "Bob"), chromedp.Click(chromedp.ID("join-button")))
	run(watcher, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("seats")))
	run(ann, poll(`document.querySelectorAll("#seats li.taken").length === 2`))
	b.screenshot(ann, "party-table.png")
	accessible(b, ann, "the table before the match")
	run(ann, chromedp.Click(chromedp.ID("start")))
	matchID := strings.TrimPrefix(eval(ann, `location.pathname`), "/m/")

	did := map[string]int{}
	var forks []string
	reloaded, restarted, countdown := false, false, false
	keyboard := 0
	for round := 0; ; round++ {
		// Halfway, Bob reloads the page: he is back in his seat, with the
		// log as it was.
		if !reloaded && did["roll"] >= 1 {
			reloaded = true
			run(bob, chromedp.Reload(), poll(`(document.getElementById("app").dataset.log || "0") !== "0"`))
			if you := eval(bob, `[...document.querySelectorAll("#players .name")].map(n => n.textContent).join(",")`); !strings.Contains(you, "Bob — you") {
				t.Errorf("after reloading, Bob is not in his seat: %q", you)
			}
		}
		// Later the server restarts under the players' feet.
		if !restarted && did["roll"] >= 3 {
			restarted = true
			before := eval(ann, logSeqs)
			conns := map[context.Context]string{}
			for _, p := range []context.Context{ann, bob} {
				conns[p] = app(b, p, "connections")
			}
			ts = restartHere(ts)
			for _, p := range []context.Context{ann, bob} {
				run(p, poll(`document.getElementById("app").dataset.connections !== "`+conns[p]+`"`))
			}
			time.Sleep(500 * time.Millisecond)
			if after := eval(ann, logSeqs); !strings.HasPrefix(after, before) || dupSeqs(after) != 0 {
				t.Errorf("after the restart Ann's log went from %d to %d entries (%d twice)", len(strings.Split(before, ",")), len(strings.Split(after, ",")), dupSeqs(after))
			}
		}
		if !countdown {
			for _, p := range []context.Context{ann, bob} {
				c1 := eval(p, `document.getElementById("clock")?.textContent || ""`)
				if !regexp.MustCompile(`\d:\d\d left`).MatchString(c1) {
					continue
				}
				time.Sleep(2100 * time.Millisecond)
				c2 := eval(p, `document.getElementById("clock")?.textContent || ""`)
				if c2 != "" && c2 != c1 {
					countdown = true
					t.Logf("the countdown: %q, then %q", c1, c2)
				}
				break
			}
		}
		if round == 3 {
			accessible(b, ann, "a party match being played")
		}
		if round > 800 {
			t.Logf("Ann sees: %s", eval(ann, `document.body.innerText`))
			t.Logf("Bob sees: %s", eval(bob, `document.body.innerText`))
			t.Fatalf("the game did not end; moves so far: %v", did)
		}
		moved := false
		for _, p := range []context.Context{ann, bob} {
			// The first fork is taken with the keyboard alone: Tab to a
			// highlighted space, Enter.
			if keyboard == 0 && eval(p, `String(document.querySelectorAll("#board svg .space.choice").length)`) != "0" {
				run(p, chromedp.Focus(chromedp.CSS(`#board svg .space.choice`)), chromedp.KeyEvent(kb.Enter),
					poll(`!document.querySelector("#board svg .space.choice")`))
				keyboard++
				did["choose"]++
				moved = true
				continue
			}
			if a := eval(p, act); a != "" {
				did[strings.Fields(a)[0]]++
				if strings.HasPrefix(a, "choose") {
					forks = append(forks, a)
				}
				moved = true
			}
		}
		if eval(ann, `document.getElementById("app").dataset.over || ""`) == "true" &&
			eval(bob, `document.getElementById("app").dataset.over || ""`) == "true" {
			break
		}
		if !moved {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if keyboard == 0 {
		t.Error("no fork was taken with the keyboard")
	}
	if did["choose"] == 0 || did["ack"] == 0 || did["roll"] == 0 {
		t.Errorf("the players did not roll, choose a fork and acknowledge a prompt: %v", did)
	}
	rhymes := false
	for _, f := range forks {
		rhymes = rhymes || strings.Contains(f, "Go to Rhyme Time (way 1)|Go to Rhyme Time (way 2)")
	}
	if !rhymes {
		t.Errorf("the fork's buttons do not tell the two Rhyme Times apart: %v", forks)
	}
	if !countdown {
		t.Error("the time limit's countdown was never seen running")
	}
	if !reloaded || !restarted {
		t.Errorf("the game ended before the reload (%v) and the restart (%v)", reloaded, restarted)
	}
	run(watcher, poll(`document.getElementById("app").dataset.over === "true"`), chromedp.WaitVisible(chromedp.ID("result")))
	var hashes, logs []string
	for _, p := range []context.Context{ann, bob, watcher} {
		hashes = append(hashes, app(b, p, "hash"))
		logs = append(logs, eval(p, logSeqs))
	}
	if hashes[0] == "" || hashes[0] != hashes[1] || hashes[0] != hashes[2] {
		t.Errorf("final state hashes differ (Ann, Bob, spectator): %v", hashes)
	}
	for i, l := range logs {
		if n := dupSeqs(l); n != 0 || l != logs[2] {
			t.Errorf("page %d shows %d log entries twice (%d entries; the spectator %d)", i, n, len(strings.Split(l, ",")), len(strings.Split(logs[2], ",")))
		}
	}
	if got := eval(watcher, `document.getElementById("result").textContent`); !strings.HasPrefix(got, "Game over: ") || !strings.Contains(got, " won") {
		t.Errorf("the spectator's result: %q", got)
	}
	shoot(b, ann, "party-finished", `document.getElementById("app").dataset.over === "true"`)
	shoot(b, watcher, "party-finished-spectator", `document.getElementById("app").dataset.over === "true"`)
	t.Logf("moves %v; forks %v", did, forks)

	// The rematch: Ann asks for it in one click and is taken there; Bob
	// sees the link to it and follows it, into his own seat.
	next := strings.TrimPrefix(follow(b, ann, "#rematch", "/m/"+matchID), "/m/")
	run(ann, poll(`document.querySelectorAll("#players .player").length === 2`))
	if got := follow(b, bob, "#rematch-link", "/m/"+matchID); got != "/m/"+next {
		t.Fatalf("Bob's link to the rematch leads to %s, Ann is at /m/%s", got, next)
	}
	run(bob, poll(`document.querySelectorAll("#players .player").length === 2`))
	for who, p := range map[string]context.Context{"Ann": ann, "Bob": bob} {
		if you := eval(p, `[...document.querySelectorAll("#players .name")].map(n => n.textContent).join(",")`); !strings.Contains(you, who+" — you") {
			t.Errorf("in the rematch %s is not in their seat: %q", who, you)
		}
	}
	if got := eval(watcher, `document.getElementById("rematch-link")?.textContent || ""`); got != "" {
		run(watcher, poll(`document.getElementById("rematch-link").textContent === "Watch the rematch"`))
	}
}

// dupSeqs counts the log records listed more than once.
func dupSeqs(list string) int {
	seen := map[string]bool{}
	n := 0
	for _, s := range strings.Split(list, ",") {
		if seen[s] {
			n++
		}
		seen[s] = true
	}
	return n
}

// restartHere stops a test server and starts another on the same
// database and the same address, as a server restarting in place: pages
// reconnect to it by themselves.
func restartHere(ts *testServer) *testServer {
	t := ts.t
	t.Helper()
	addr := ts.hs.Listener.Addr().String()
	ts.close()
	srv, err := New(ts.opt)
	if err != nil {
		t.Fatal(err)
	}
	var l net.Listener
	for i := 0; ; i++ {
		if l, err = net.Listen("tcp", addr); err == nil {
			break
		}
		if i == 50 {
			t.Fatalf("listening again on %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Listener.Close()
	hs.Listener = l
	hs.Start()
	next := &testServer{t: t, srv: srv, hs: hs, db: ts.db, opt: ts.opt}
	t.Cleanup(next.close)
	return next
}

// TestAutoAcknowledge: a party match created in the lobby with messages
// acknowledged for everybody is stored so, and (where the party pack
// honours the setting) shows its prompts in the log without asking anyone
// to press OK; the owner fills the table with bots from the page.
func TestAutoAcknowledge(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	board := ts.upload("two-rhymes.json", forkBoard)
	b := newBrowser(t, exe)
	ann := b.person()
	watch(t, ann, otherStyles...)
	b.run(ann, chromedp.Navigate(ts.hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("create-match")),
		choose("#board", board), chromedp.Click(chromedp.ID("auto-ack")), chromedp.SetValue(chromedp.ID("creator-name"), "Ann"),
		chromedp.Click(chromedp.ID("create-match")), chromedp.WaitVisible(chromedp.ID("add-bots")), chromedp.Click(chromedp.ID("add-bots")),
		poll(`document.querySelectorAll("#seats li.taken").length === 2`), chromedp.Click(chromedp.ID("start")))
	id := strings.TrimPrefix(b.eval(ann, `location.pathname`), "/m/")
	rec, err := ts.srv.store.Match(context.Background(), id)
	must(t, err)
	if !rec.Settings.AutoAck {
		t.Fatal("the match was not created with messages acknowledged for everybody")
	}
	strict := partyAutoAcks(t)
	acks := 0
	for i := 0; b.eval(ann, `document.getElementById("app").dataset.over || ""`) != "true"; i++ {
		if i > 600 {
			t.Fatalf("the match did not end: %s", b.eval(ann, `document.body.innerText`))
		}
		switch a := b.eval(ann, act); {
		case a == "ack":
			acks++
			if strict {
				t.Fatal("Ann was asked to acknowledge a message")
			}
		case a == "":
			time.Sleep(100 * time.Millisecond)
		}
	}
	if log := b.eval(ann, `document.getElementById("log").innerText`); !strings.Contains(log, "is home!") {
		t.Errorf("the finish's message is not in the log:\n%s", log)
	}
	if !strict {
		t.Logf("the party pack does not acknowledge for everybody yet (game.Setup.AutoAck): Ann acknowledged %d messages", acks)
	}
}

// partyAutoAcks reports whether the party pack honours game.Setup.AutoAck:
// a match of the test board started with it never asks to acknowledge.
func partyAutoAcks(t *testing.T) bool {
	src, err := game.FromBytes("two-rhymes.json", []byte(forkBoard), game.Limits{})
	must(t, err)
	def, list := party.NewPack().Load(src)
	if def == nil {
		t.Fatal(list)
	}
	m, err := def.Start(game.Setup{Players: []string{"A", "B"}, Seed: 7, AutoAck: true})
	must(t, err)
	r := rng.New(1).Stream("test")
	for i := 0; i < 500 && !m.Outcome().Over; i++ {
		for _, seat := range m.Waiting() {
			for _, c := range m.Legal(seat) {
				if strings.Contains(string(c.Data), `"ack"`) {
					return false
				}
			}
			cmd, _ := game.BotCommand(m, seat, r)
			must(t, m.Apply(seat, cmd))
			break
		}
	}
	return true
}
