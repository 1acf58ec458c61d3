package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// desktop is a laptop-sized screen.
func desktop() chromedp.Action[chromedp.Void] { return chromedp.EmulateViewport(1280, 800) }

// addOnDevice seats one more player on the page's device, from the
// match's table.
func addOnDevice(b *browser, ctx context.Context, name string, seats int) {
	b.t.Helper()
	b.run(ctx, chromedp.WaitVisible(chromedp.ID("add-name")), chromedp.SetValue(chromedp.ID("add-name"), name),
		chromedp.Click(chromedp.ID("add-player-button")),
		poll(fmt.Sprintf(`document.querySelectorAll("#seats li.taken").length === %d`, seats)))
}

// createFromLobby creates a match in the lobby under the creator's name
// and waits for its table.
func createFromLobby(b *browser, ctx context.Context, ts *testServer, board, seats, name string) string {
	b.t.Helper()
	b.run(ctx, chromedp.Navigate(ts.hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("create-match")),
		chromedp.SetValue(chromedp.ID("board"), board), chromedp.SetValue(chromedp.ID("seats"), seats),
		chromedp.SetValue(chromedp.ID("creator-name"), name), chromedp.Click(chromedp.ID("create-match")),
		chromedp.WaitVisible(chromedp.CSS("#seats li.taken")))
	return strings.TrimPrefix(b.eval(ctx, `location.pathname`), "/m/")
}

// Four people play a party board from one phone, from the lobby to the
// end: the creator is seated as she creates the match, adds the three
// others on her device, and the page plays as whoever's turn it is,
// saying whose it is. A party board hides nothing: the page never covers
// itself between two players. The address bar holds the invitation.
func TestFourPlayersOnOnePhone(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	board := ts.upload("two-rhymes.json", forkBoard)
	b := newBrowser(t, exe)
	p := b.person()
	watch(t, p, otherStyles...)
	b.run(p, phone())
	id := createFromLobby(b, p, ts, board, "4", "Ann")
	if got := b.eval(p, `location.hash`); !strings.HasPrefix(got, "#invite=") {
		t.Errorf("after creating, the address bar holds %q, not the invitation", got)
	}
	for i, name := range []string{"Bob", "Cy", "Di"} {
		addOnDevice(b, p, name, i+2)
	}
	// Four people share the phone: none of them is "you".
	if got := b.eval(p, `[...document.querySelectorAll("#seats li.taken .name")].map(n => n.parentNode.textContent).join("|")`); strings.Count(got, "— on this device") != 4 || strings.Contains(got, "you") {
		t.Errorf("the table: %q", got)
	}
	b.screenshot(p, "pass-and-play-table-phone.png")
	accessible(b, p, "the table with players on one device")
	b.run(p, chromedp.Click(chromedp.ID("start")), poll(`(document.getElementById("app").dataset.held || "") === "0,1,2,3"`))
	b.run(p, chromedp.SetValue(chromedp.ID("chat-text"), "Good luck, all four of us"), chromedp.Click(chromedp.ID("chat-send")),
		poll(`document.querySelectorAll("#chat-log .chat-msg").length === 1`))

	turns := map[string]int{}
	passed := map[string]int{} // the page asked to pass the device to them
	did := map[string]int{}
	shot := false
	for round := 0; ; round++ {
		if round > 2000 {
			t.Fatalf("the game did not end; moves %v, turns %v; the page says %s", did, turns, b.eval(p, `document.body.innerText`))
		}
		if b.eval(p, `document.getElementById("app").dataset.over || ""`) == "true" {
			break
		}
		if b.eval(p, `document.getElementById("app").dataset.handover || ""`) != "" {
			t.Fatal("a party board covered the page between two players: it hides nothing")
		}
		if !shot && did["roll"] >= 4 && b.eval(p, `document.getElementById("pass-on")?.textContent || ""`) != "" {
			// A few turns in, the turn passes: the page asks for the
			// device to go to the next player.
			shot = true
			b.screenshot(p, "pass-and-play-party-phone.png")
			b.run(p, desktop())
			b.screenshot(p, "pass-and-play-party.png")
			b.run(p, phone())
		}
		// Whose turn the page says and the move made on it are read in
		// one step: a message arriving between the two would otherwise
		// credit one player's move to the one before.
		step := strings.SplitN(b.eval(p, `(() => {
  const whose = document.querySelector("#turn strong")?.textContent || "";
  const to = document.getElementById("pass-on")?.textContent || "";
  return whose + "\n" + to + "\n" + `+act+`;
})()`), "\n", 3)
		whose, to, a := step[0], step[1], step[2]
		if to != "" {
			if want := " — pass the device to " + strings.TrimSuffix(whose, "'s turn"); to != want {
				t.Errorf("on %q the page says %q, want %q", whose, to, want)
			}
			passed[strings.TrimPrefix(to, " — pass the device to ")]++
		}
		if list := b.eval(p, `document.getElementById("players").textContent`); strings.Contains(list, "you") {
			t.Fatalf("the players' list on a phone four people share says %q", list)
		}
		if a == "" {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		did[strings.Fields(a)[0]]++
		if strings.HasSuffix(whose, "'s turn") {
			turns[strings.TrimSuffix(whose, "'s turn")]++
		}
	}
	for _, name := range []string{"Ann", "Bob", "Cy", "Di"} {
		if turns[name] == 0 || passed[name] == 0 {
			t.Errorf("the page never said it was %s's turn, or never asked to pass them the device: turns %v, passed %v", name, turns, passed)
		}
	}
	if did["roll"] < 4 || did["ack"] == 0 {
		t.Errorf("moves: %v", did)
	}
	s := ts.summary(id, strings.TrimPrefix(b.eval(p, `location.hash`), "#"))
	if s.Status != "finished" {
		t.Errorf("the match is %s", s.Status)
	}
	for _, seat := range s.Seats {
		if seat.Bot {
			t.Errorf("%s was played by a bot", seat.Name)
		}
	}
	b.run(p, poll(`!!document.getElementById("result")`))
	b.screenshot(p, "pass-and-play-party-end-phone.png")
	b.run(p, desktop())
	b.screenshot(p, "pass-and-play-party-end.png")
	t.Logf("moves %v, turns %v", did, turns)
	// The replay shows the table's chat, and nobody writes there.
	b.run(p, chromedp.Click(chromedp.ID("replay-link")), chromedp.WaitVisible(chromedp.ID("replay-step")),
		poll(`[...document.querySelectorAll("#chat-log .text")].some(t => t.textContent === "Good luck, all four of us")`))
	if b.eval(p, `document.getElementById("chat-form").hidden ? "hidden" : "shown"`) != "hidden" {
		t.Error("the replay offers to write in the chat")
	}
}

// ownHand lists the cards of a hand face up in the page (the viewer's
// own), by title.
const ownHand = `[...document.querySelectorAll(".hand:not(.backs) .card")].map(c => c.textContent).join("|")`

// Two people play the lane game on one phone: each hand shows only to its
// player. Between two turns a cover asks to pass the device on; under it
// the page holds what someone watching sees (no hand face up), until the
// next player says they hold the device. Passing asks once.
func TestLanesPassAndPlayHidesHands(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	p := b.person()
	watch(t, p, otherStyles...)
	b.run(p, phone())
	createFromLobby(b, p, ts, "drone-lanes", "2", "Ann")
	addOnDevice(b, p, "Bob", 2)
	b.run(p, chromedp.Click(chromedp.ID("start")))

	handovers := 0
	askedOnce := false
	hands := map[string]string{}
	var acts []string
	for step := 0; handovers < 8 || (!askedOnce && handovers < 40); step++ {
		if step > 1500 {
			t.Fatalf("stuck after %d hand-overs (%v); the page: %s", handovers, acts, b.eval(p, `document.body.innerText`))
		}
		if b.eval(p, `document.getElementById("app").dataset.over || ""`) == "true" {
			break
		}
		if name := b.eval(p, `document.getElementById("app").dataset.handover || ""`); name != "" {
			// The cover: the next player's name, nothing of any hand. The
			// page beneath sees as someone watching once the view came.
			b.run(p, poll(`document.getElementById("lanes")?.dataset.you === "-1"`))
			if got := b.eval(p, ownHand); got != "" {
				t.Fatalf("under the cover for %s, a hand shows face up: %s", name, got)
			}
			if got := b.eval(p, `document.getElementById("handover-title").textContent`); got != "Pass the device to "+name {
				t.Errorf("the cover says %q", got)
			}
			visible := b.eval(p, `document.body.innerText`)
			for who, hand := range hands {
				for _, card := range strings.Split(hand, "|") {
					if card != "" && strings.Contains(visible, card) {
						t.Errorf("the cover for %s shows %q of %s's hand", name, card, who)
					}
				}
			}
			if handovers == 1 {
				b.screenshot(p, "pass-and-play-lanes-cover-phone.png")
				b.run(p, desktop())
				b.screenshot(p, "pass-and-play-lanes-cover.png")
				b.run(p, phone())
			}
			handovers++
			b.run(p, chromedp.Click(chromedp.ID("handover-ready")),
				poll(`(() => { const L = document.getElementById("lanes"); return L && L.dataset.you !== "-1" && !document.getElementById("app").dataset.handover; })()`))
			you := b.eval(p, `document.getElementById("lanes").dataset.you`)
			hands[you] = b.eval(p, ownHand)
			if hands[you] == "" {
				t.Errorf("after %s took the device, their hand does not show", name)
			}
			if handovers == 2 {
				b.screenshot(p, "pass-and-play-lanes-hand-phone.png")
			}
			continue
		}
		// Passing cannot be taken back: the first press only asks.
		if !askedOnce && b.eval(p, `document.getElementById("pass") && !document.querySelector("#controls .squad-drone.candidate") ? "pass" : ""`) == "pass" {
			before := app(b, p, "hash")
			b.run(p, chromedp.Click(chromedp.ID("pass")))
			time.Sleep(300 * time.Millisecond)
			if got := app(b, p, "hash"); got != before {
				t.Fatal("one press of Pass passed")
			}
			if q := b.eval(p, `document.getElementById("pass").textContent`); !strings.HasPrefix(q, "Pass? Press again") {
				t.Errorf("after one press, Pass says %q", q)
			}
			askedOnce = true
		}
		if a := b.eval(p, lanesAct); a != "" {
			acts = append(acts, a)
			continue
		}
		time.Sleep(50 * time.Millisecond)
	}
	if handovers < 4 {
		t.Errorf("only %d hand-overs: %v", handovers, acts)
	}
	if !askedOnce {
		t.Error("nobody passed: the question Pass asks was not seen")
	}
	t.Logf("%d hand-overs; moves %v", handovers, acts)
}

// The table's chat: a message with HTML in it shows as the text it is;
// it survives a server restart; a flood is cut with a clear message; and
// chatting changes no state hash. Those watching read it; they may write
// once the creator lets them.
func TestChatInTheBrowser(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	board := ts.upload("two-rhymes.json", forkBoard)
	b := newBrowser(t, exe)
	ann, bob, zoe := b.person(), b.person(), b.person()
	for _, p := range []context.Context{ann, bob, zoe} {
		watch(t, p, append(otherStyles, "WebSocket")...)
	}
	b.run(ann, desktop())
	b.run(bob, phone())
	createFromLobby(b, ann, ts, board, "2", "Ann")
	link := b.eval(ann, `location.href`)
	b.run(bob, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("nickname")),
		chromedp.SetValue(chromedp.ID("nickname"), "Bob"), chromedp.Click(chromedp.ID("join-button")))
	b.run(zoe, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("seats")))
	b.run(ann, poll(`document.querySelectorAll("#seats li.taken").length === 2`), chromedp.Click(chromedp.ID("start")),
		poll(`!!document.getElementById("app").dataset.hash`))
	b.run(bob, poll(`!!document.getElementById("app").dataset.hash`))
	hash := app(b, bob, "hash")

	say := func(ctx context.Context, text string) {
		b.run(ctx, chromedp.SetValue(chromedp.ID("chat-text"), text), chromedp.Click(chromedp.ID("chat-send")))
	}
	html := `<b>bold</b> <img src=x onerror="document.title='pwned'"> & co`
	say(ann, html)
	b.run(bob, poll(`document.querySelectorAll("#chat-log .chat-msg").length === 1`))
	if got := b.eval(bob, `document.querySelector("#chat-log .chat-msg .text").textContent`); got != html {
		t.Errorf("Bob reads %q", got)
	}
	if n := b.eval(bob, `String(document.querySelectorAll("#chat-log b, #chat-log img").length)`); n != "0" {
		t.Errorf("the message made %s elements", n)
	}
	if who := b.eval(bob, `document.querySelector("#chat-log .chat-msg .who").textContent`); who != "Ann" {
		t.Errorf("the message is signed %q", who)
	}
	say(bob, "gg, Ann")
	b.run(ann, poll(`document.querySelectorAll("#chat-log .chat-msg").length === 2`))
	if got := app(b, bob, "hash"); got != hash {
		t.Errorf("chatting changed the state hash: %s, was %s", got, hash)
	}
	// Zoe watches: she reads, and may not write until Ann lets her.
	b.run(zoe, poll(`document.querySelectorAll("#chat-log .chat-msg").length === 2`))
	if b.eval(zoe, `document.getElementById("chat-form").hidden ? "hidden" : "shown"`) != "hidden" {
		t.Error("a spectator may write before the creator lets them")
	}
	b.run(ann, chromedp.Click(chromedp.ID("spectator-chat")))
	b.run(zoe, poll(`!document.getElementById("chat-form").hidden`), chromedp.SetValue(chromedp.ID("chat-name"), "Zoe"))
	say(zoe, "go Bob!")
	b.run(bob, poll(`[...document.querySelectorAll("#chat-log .who")].some(w => w.textContent === "Zoe (watching)")`))

	// A flood is cut, and the page says why.
	for i := range 8 {
		say(ann, fmt.Sprint("spam ", i))
	}
	b.run(ann, poll(`document.getElementById("chat-status").textContent.includes("writing too fast")`))
	b.screenshot(ann, "chat.png")
	b.screenshot(bob, "chat-phone.png")

	// A restart keeps the messages.
	ts = restartHere(ts)
	b.run(bob, chromedp.Reload(), poll(`[...document.querySelectorAll("#chat-log .text")].some(t => t.textContent === "gg, Ann")`))
	if got := b.eval(bob, `document.querySelector("#chat-log .chat-msg .text").textContent`); got != html {
		t.Errorf("after a restart Bob reads %q", got)
	}
	if b.eval(bob, `document.title`) == "pwned" || b.eval(ann, `document.title`) == "pwned" {
		t.Error("a message ran a script")
	}
}

// The editor's "▶ Play" of a changed game plays a draft: the match is
// made, and nobody's library lists the game, so the lobby shows the
// bundled game once.
func TestEditorPlaysADraftWithoutPublishingIt(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	b := newBrowser(t, exe)
	me := b.person()
	watch(t, me, otherStyles...)
	var lib []GameInfo
	ts.call("GET", "/api/boards", nil, &lib)
	b.run(me, chromedp.Navigate(ts.hs.URL+"/edit?board=chutes-and-ladders"), chromedp.WaitVisible(chromedp.CSS(`#rules > .rule`)), checked)
	b.eval(me, editorJS)
	b.run(me, chromedp.Click(chromedp.ID("add-rule")))
	b.eval(me, `t.field("name", "Welcome"); t.field("event", "START_GAME"); t.action("text", "Welcome to the draft!"); "ok"`)
	b.run(me, checked, chromedp.SetValue(chromedp.ID("play-mode"), "bots"))
	follow(b, me, "#play", "/edit")
	b.run(me, chromedp.WaitReady(chromedp.CSS(`#log [data-rule="Welcome"]`)))
	var lib2 []GameInfo
	ts.call("GET", "/api/boards", nil, &lib2)
	if len(lib2) != len(lib) {
		t.Errorf("playing a changed game added %d games to the library", len(lib2)-len(lib))
	}
	b.run(me, chromedp.Navigate(ts.hs.URL+"/"), poll(`document.querySelectorAll("#board option").length > 0`))
	if n := b.eval(me, `String([...document.querySelectorAll("#board option")].filter(o => o.textContent.startsWith("Chutes and Ladders")).length)`); n != "1" {
		t.Errorf("the lobby offers Chutes and Ladders %s times", n)
	}
}
