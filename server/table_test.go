package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/store/storetest"
)

// waitMsg reads messages until one of the type satisfies cond, and
// returns it.
func (c *client) waitMsg(what, typ string, cond func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case data, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the connection closed while waiting for %s", what)
			}
			m := c.take(data)
			if (typ == "" || m["type"] == typ) && (cond == nil || cond(m)) {
				return m
			}
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// reply waits for the ack or refusal of the client's last message.
func (c *client) reply() map[string]any {
	c.t.Helper()
	id := float64(c.id)
	for {
		m := c.waitMsg("a reply", "", nil)
		if (m["type"] == "ack" || m["type"] == "rejected") && m["id"] == id {
			return m
		}
	}
}

// chatTexts are the texts of a chat message's messages, "name: text".
func chatTexts(m map[string]any) []string {
	var out []string
	list, _ := m["messages"].([]any)
	for _, x := range list {
		e := x.(map[string]any)
		out = append(out, fmt.Sprint(e["name"], ": ", e["text"]))
	}
	return out
}

func sayOK(t *testing.T, c *client, msg map[string]any) {
	t.Helper()
	c.id++
	msg["type"], msg["id"] = "chat", c.id
	c.send(msg)
	if r := c.reply(); r["type"] != "ack" {
		t.Fatalf("%v was refused: %v", msg["text"], r["reason"])
	}
}

func sayRefused(t *testing.T, c *client, msg map[string]any, want string) {
	t.Helper()
	c.id++
	msg["type"], msg["id"] = "chat", c.id
	c.send(msg)
	r := c.reply()
	if r["type"] != "rejected" || !strings.Contains(fmt.Sprint(r["reason"]), want) {
		t.Fatalf("%q: %v %v, want a refusal saying %q", msg["text"], r["type"], r["reason"], want)
	}
}

// Players chat beside the match: everybody at the table reads the
// messages, under the names the table knows; a message survives a
// restart (a new connection is sent the last ones); HTML is kept as the
// text it is; invisible and direction-changing characters are dropped;
// and nothing of it touches the match: its hash and its commands stay.
func TestChatIsKeptAndChangesNoState(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, nil)
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	ann.waitFor("the state", func(s stateIn) bool { return s.View != nil })
	ann.command(ann.last.Legal[0].Data)
	bob.waitFor("Ann's move", func(s stateIn) bool { return len(s.Legal) > 0 })
	hash, commands := bob.last.Hash, ts.summary(tb.ID, q("token", tb.tokens[1])).Commands

	sayOK(t, ann, map[string]any{"text": "  good   luck\u202e!  "})
	got := bob.waitMsg("Ann's message", "chat", nil)
	if texts := chatTexts(got); len(texts) != 1 || texts[0] != "Ann: good luck!" {
		t.Fatalf("Bob reads %q", texts)
	}
	sayOK(t, bob, map[string]any{"text": `<img src=x onerror="alert(1)"> & <b>bold</b>`})
	ann.waitMsg("Bob's message", "chat", nil)
	bob.drain()
	if bob.last.Hash != hash || len(bob.last.Legal) == 0 {
		t.Errorf("chat changed the match: hash %s, was %s", bob.last.Hash, hash)
	}
	if s := ts.summary(tb.ID, q("token", tb.tokens[1])); s.Commands != commands {
		t.Errorf("chat added commands: %d, was %d", s.Commands, commands)
	}

	ts2 := ts.restart()
	again := ts2.dial(tb.ID, q("token", tb.tokens[1]))
	hist := again.waitMsg("the chat's history", "chat", func(m map[string]any) bool { return m["history"] == true })
	want := []string{"Ann: good luck!", `Bob: <img src=x onerror="alert(1)"> & <b>bold</b>`}
	if texts := chatTexts(hist); strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("after a restart: %q, want %q", texts, want)
	}
	again.waitFor("the state", func(s stateIn) bool { return s.View != nil })
	if again.last.Hash != hash {
		t.Errorf("after a restart the hash is %s, was %s", again.last.Hash, hash)
	}
	var rp Replay
	ts2.call("GET", "/api/matches/"+tb.ID+"/replay?token="+tb.tokens[0], nil, &rp)
	if len(rp.Chat) != 2 || rp.Chat[0].Text != "good luck!" || rp.Chat[1].Seat != 1 {
		t.Errorf("the replay's chat: %+v", rp.Chat)
	}
}

// A flood is cut: a connection writes a few messages in a row, then is
// told, clearly, to slow down; repeats, empty and overlong messages are
// refused with a reason; so are spectators unless the owner opens the chat
// to them, names that read like a player's, and a player the owner muted.
func TestChatLimits(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, nil)
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	refused := 0
	var reason string
	for i := range 12 {
		ann.id++
		ann.send(map[string]any{"type": "chat", "id": ann.id, "text": fmt.Sprint("message ", i)})
		if r := ann.reply(); r["type"] == "rejected" {
			refused++
			reason = fmt.Sprint(r["reason"])
		}
	}
	if refused != 12-chatBurst || !strings.Contains(reason, "writing too fast") {
		t.Fatalf("%d of 12 refused (%q), want %d refused for writing too fast", refused, reason, 12-chatBurst)
	}

	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	sayOK(t, bob, map[string]any{"text": "hello"})
	sayRefused(t, bob, map[string]any{"text": "hello"}, "you just wrote that")
	sayRefused(t, bob, map[string]any{"text": "   "}, "empty")
	sayRefused(t, bob, map[string]any{"text": strings.Repeat("a", MaxChat+1)}, fmt.Sprintf("at most %d characters", MaxChat))

	watcher := ts.dial(tb.ID, q("invite", tb.Invite))
	sayRefused(t, watcher, map[string]any{"text": "hi", "name": "Zoe"}, "only the players write here")
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/settings", map[string]any{"owner": tb.Owner, "spectatorChat": true}, nil); st != http.StatusOK {
		t.Fatalf("opening the chat: %d", st)
	}
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/settings", map[string]any{"token": tb.tokens[0], "spectatorChat": false}, nil); st != http.StatusForbidden {
		t.Fatalf("a player changed the settings: %d", st)
	}
	sayRefused(t, watcher, map[string]any{"text": "hi", "name": "ΑNN"}, "reads like")
	sayOK(t, watcher, map[string]any{"text": "hi from the rail", "name": "Zoe"})
	m := bob.waitMsg("Zoe's message", "chat", func(m map[string]any) bool {
		return len(chatTexts(m)) == 1 && strings.HasPrefix(chatTexts(m)[0], "Zoe")
	})
	if seat := m["messages"].([]any)[0].(map[string]any)["seat"]; seat != float64(-1) {
		t.Errorf("a spectator writes from seat %v", seat)
	}

	if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/1", map[string]any{"owner": tb.Owner, "mute": true}, nil); st != http.StatusOK {
		t.Fatalf("muting: %d", st)
	}
	sayRefused(t, bob, map[string]any{"text": "let me speak"}, "muted you")
	if s := ts.summary(tb.ID, q("token", tb.tokens[0])); !s.Seats[1].Muted || !s.SpectatorChat {
		t.Errorf("the summary does not say so: %+v", s)
	}
}

// A client on a node that does not own the match chats through the
// owner: everybody, on every node, reads it.
func TestChatAcrossTheCluster(t *testing.T) {
	bus := natsForTest(t, "a", "b")
	db := storetest.Postgres(t)
	a, b := newNode(t, "a", bus, db), newNode(t, "b", bus, db)
	tb := a.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	owner, _ := a.opt.Cluster.Owner(context.Background(), tb.ID)
	far, near := b, a
	if owner == "b" {
		far, near = a, b
	}
	ann := far.dial(tb.ID, q("token", tb.tokens[0]))
	bob := near.dial(tb.ID, q("token", tb.tokens[1]))
	ann.waitFor("the state", func(s stateIn) bool { return s.View != nil })
	sayOK(t, ann, map[string]any{"text": "from the other node"})
	bob.waitMsg("Ann's message", "chat", func(m map[string]any) bool { return len(chatTexts(m)) == 1 })
	sayOK(t, bob, map[string]any{"text": "from the owner's"})
	ann.waitMsg("Bob's message", "chat", func(m map[string]any) bool {
		return len(chatTexts(m)) == 1 && chatTexts(m)[0] == "Bob: from the owner's"
	})
}

// Pass-and-play: the creator is seated as they create the match, adds a
// player on their device (the same secret plays both seats), and their
// one connection switches between the seats: it is told which of its
// seats the match waits for, plays as the seat it sees, and is refused a
// seat that is not the device's.
func TestOneDeviceHoldsSeveralSeats(t *testing.T) {
	ts := newTestServer(t, Options{})
	var c created
	if st := ts.call("POST", "/api/matches", map[string]any{"board": "twenty-one", "seats": 3, "name": "Ann"}, &c); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	if c.Seat == nil || *c.Seat != 0 || c.Token == "" {
		t.Fatalf("the creator is not seated: %+v", c)
	}
	var bob joined
	if st := ts.call("POST", "/api/matches/"+c.ID+"/join", map[string]any{"name": "Bob", "token": c.Token}, &bob); st != http.StatusOK {
		t.Fatalf("adding Bob on the device: %d", st)
	}
	if bob.Seat != 1 || bob.Token != c.Token {
		t.Fatalf("Bob: %+v, want seat 1 with the device's secret", bob)
	}
	if st := ts.call("POST", "/api/matches/"+c.ID+"/join", map[string]any{"name": "ann", "token": c.Token}, nil); st != http.StatusConflict {
		t.Errorf("a name like Ann's was taken: %d", st)
	}
	// The owner fills the last seat with a bot: it never takes a person's.
	ts.call("POST", "/api/matches/"+c.ID+"/bots", map[string]any{"owner": c.Owner}, nil)
	s := ts.summary(c.ID, q("owner", c.Owner))
	if s.Seats[0].Name != "Ann" || s.Seats[0].Bot || s.Seats[1].Name != "Bob" || !s.Seats[2].Bot {
		t.Fatalf("seats: %+v", s.Seats)
	}
	ts.call("POST", "/api/matches/"+c.ID+"/start", map[string]any{"owner": c.Owner}, nil)

	dev := ts.dial(c.ID, q("token", c.Token))
	seats := dev.waitMsg("where the device's seats stand", "seats", func(m map[string]any) bool { return len(m["ready"].([]any)) > 0 })
	if fmt.Sprint(seats["held"]) != "[0 1]" || fmt.Sprint(seats["ready"]) != "[0]" || seats["secret"] != false {
		t.Fatalf("seats: %v", seats)
	}
	dev.waitFor("Ann's turn", func(s stateIn) bool { return s.You == 0 && len(s.Legal) > 0 })
	dev.command(dev.last.Legal[0].Data)
	dev.waitMsg("Bob's turn", "seats", func(m map[string]any) bool { return fmt.Sprint(m["ready"]) == "[1]" })
	if len(dev.last.Legal) != 0 {
		t.Fatalf("Ann is offered %d commands on Bob's turn", len(dev.last.Legal))
	}
	dev.id++
	dev.send(map[string]any{"type": "seat", "id": dev.id, "seat": 1, "log": dev.last.Log})
	if r := dev.reply(); r["type"] != "ack" {
		t.Fatalf("switching to Bob: %v", r)
	}
	if dev.last.You != 1 || len(dev.last.Legal) == 0 {
		t.Fatalf("after the switch the device sees seat %d with %d commands", dev.last.You, len(dev.last.Legal))
	}
	if r := dev.command(dev.last.Legal[0].Data); r["type"] != "ack" {
		t.Fatalf("Bob's move: %v", r)
	}
	dev.id++
	dev.send(map[string]any{"type": "seat", "id": dev.id, "seat": 2})
	if r := dev.reply(); r["type"] != "rejected" || !strings.Contains(fmt.Sprint(r["reason"]), "does not play seat 3") {
		t.Fatalf("switching to the bot's seat: %v", r)
	}
	// Reconnecting as Bob, and as nobody (a hidden table), works too.
	asBob := ts.dial(c.ID, q("token", c.Token)+"&seat=1")
	asBob.waitFor("Bob's view", func(s stateIn) bool { return s.View != nil })
	if asBob.last.You != 1 {
		t.Errorf("?seat=1 sees seat %d", asBob.last.You)
	}
	hidden := ts.dial(c.ID, q("token", c.Token)+"&seat=-1")
	hidden.waitFor("a view", func(s stateIn) bool { return s.View != nil })
	if hidden.last.You != -1 || len(hidden.last.Legal) != 0 {
		t.Errorf("?seat=-1 sees seat %d with %d commands", hidden.last.You, len(hidden.last.Legal))
	}
	// One of the device's players leaves: the other plays on.
	if st := ts.call("POST", "/api/matches/"+c.ID+"/leave", map[string]any{"token": c.Token, "seat": 1}, nil); st != http.StatusOK {
		t.Fatalf("Bob leaving: %d", st)
	}
	if s := ts.summary(c.ID, q("owner", c.Owner)); !s.Seats[1].Bot || s.Seats[0].Bot || s.Seats[1].Handed != store.HandedLeft {
		t.Errorf("after Bob left: %+v", s.Seats)
	}
}

// noteTexts are the log's notes saying that a bot played for someone.
func noteTexts(entries []map[string]any) []string {
	var out []string
	for _, e := range entries {
		if e["type"] == "PLAYED_FOR" {
			out = append(out, fmt.Sprint(e["text"]))
		}
	}
	return out
}

func stateNotes(c *client) []string {
	var out []string
	for _, e := range c.entries {
		if e.Type == "PLAYED_FOR" {
			out = append(out, e.Text)
		}
	}
	return out
}

// When a bot plays for a person, the log says so and why — their time ran
// out, they left, the owner handed their seat over —, once for a seat it
// goes on playing; a restart and the replay say it too, and the reason is
// stored with the command, never in the match's state.
func TestLogSaysWhoPlayed(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("sixty", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"turnLimit": 1})
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	// Ann does not move: her time runs out.
	bob.waitFor("a note", func(stateIn) bool { return len(stateNotes(bob)) > 0 })
	if n := stateNotes(bob); n[0] != "Time ran out: a bot played for Ann" {
		t.Fatalf("the note: %q", n)
	}
	bob.waitFor("Bob's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	bob.command(bob.last.Legal[0].Data)
	// The owner hands Ann's seat to a bot: one note, however many moves.
	ts.call("POST", "/api/matches/"+tb.ID+"/seats/0", map[string]any{"owner": tb.Owner, "bot": true}, nil)
	for range 3 {
		bob.waitFor("Bob's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
		bob.command(bob.last.Legal[0].Data)
	}
	bob.waitFor("Bob's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	want := []string{"Time ran out: a bot played for Ann", "The match's creator handed Ann's seat to a bot: a bot plays for them"}
	if got := stateNotes(bob); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("notes: %q, want %q", got, want)
	}
	// Bob leaves; Ann gets her seat back and plays Bob's bot to the end.
	ts.call("POST", "/api/matches/"+tb.ID+"/seats/0", map[string]any{"owner": tb.Owner, "bot": false}, nil)
	ts.call("POST", "/api/matches/"+tb.ID+"/leave", map[string]any{"token": tb.tokens[1]}, nil)
	playToEnd(t, ann)
	want = append(want, "Bob left: a bot plays for them")

	ts2 := ts.restart()
	again := ts2.dial(tb.ID, q("token", tb.tokens[0]))
	again.waitFor("the end", func(s stateIn) bool { return s.View != nil })
	if got := stateNotes(again); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("after a restart: %q, want %q", got, want)
	}
	var rp struct {
		Commands []ReplayCommand `json:"commands"`
		Entries  []map[string]any
	}
	ts2.call("GET", "/api/matches/"+tb.ID+"/replay?token="+tb.tokens[0], nil, &rp)
	if got := noteTexts(rp.Entries); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the replay: %q", got)
	}
	reasons := map[string]int{}
	for _, c := range rp.Commands {
		reasons[c.Reason]++
	}
	if reasons["timeout"] < 1 || reasons["owner"] < 3 || reasons["left"] < 1 {
		t.Errorf("stored reasons: %v", reasons)
	}
	var step struct{ Entries []map[string]any }
	ts2.call("GET", fmt.Sprintf("/api/matches/%s/replay/%d?token=%s", tb.ID, len(rp.Commands), tb.tokens[0]), nil, &step)
	if got := noteTexts(step.Entries); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the replay's last step: %q", got)
	}
}

// First-table traps: a creator who gives a name is seated, and "fill with
// bots" leaves their seat; a game played from the editor is not put in
// the library; a seat the owner handed to a bot stays the bot's in the
// rematch; a creator's bad name is refused before anything is made.
func TestFirstTableTraps(t *testing.T) {
	ts := newTestServer(t, Options{})
	if st := ts.call("POST", "/api/matches", map[string]any{"board": "twenty-one", "name": "\u202e"}, nil); st != http.StatusBadRequest {
		t.Errorf("a blank name: %d", st)
	}
	var before []GameInfo
	ts.call("GET", "/api/boards", nil, &before)
	draft := `{"game": "nim", "name": "Twenty-one", "description": "A draft.", "pile": 9, "take": 2}`
	var d struct {
		Draft string   `json:"draft"`
		Board GameInfo `json:"board"`
	}
	if st := ts.call("POST", "/api/drafts?name=mine.json", draft, &d); st != http.StatusCreated || d.Draft == "" || d.Board.Source != "draft" {
		t.Fatalf("the draft: %d %+v", st, d)
	}
	var after []GameInfo
	ts.call("GET", "/api/boards", nil, &after)
	if len(after) != len(before) {
		t.Errorf("the library went from %d to %d games", len(before), len(after))
	}
	var c created
	if st := ts.call("POST", "/api/matches", map[string]any{"draft": d.Draft, "name": "Ann", "seats": 2}, &c); st != http.StatusCreated {
		t.Fatalf("a match of the draft: %d", st)
	}
	ts.call("POST", "/api/matches/"+c.ID+"/bots", map[string]any{"owner": c.Owner}, nil)
	ts.call("POST", "/api/matches/"+c.ID+"/start", map[string]any{"owner": c.Owner}, nil)
	s := ts.summary(c.ID, q("owner", c.Owner))
	if s.Seats[0].Name != "Ann" || s.Seats[0].Bot || !s.Seats[1].Bot || s.Status != "playing" {
		t.Fatalf("seats: %+v", s.Seats)
	}
	if st := ts.call("POST", "/api/matches", map[string]any{"draft": strings.Repeat("0", 64)}, nil); st != http.StatusBadRequest {
		t.Errorf("an unknown draft: %d", st)
	}
	ann := ts.dial(c.ID, q("token", c.Token))
	ts.call("POST", "/api/matches/"+c.ID+"/seats/0", map[string]any{"owner": c.Owner, "bot": true}, nil)
	ann.waitFor("the end", func(s stateIn) bool { return s.over() })
	var next struct{ ID string }
	ts.call("POST", "/api/matches/"+c.ID+"/rematch", map[string]any{"owner": c.Owner}, &next)
	if s := ts.summary(next.ID, q("owner", c.Owner)); !s.Seats[0].Bot || s.Seats[0].Handed != store.HandedOwner {
		t.Errorf("the rematch gave Ann's seat back: %+v", s.Seats[0])
	}
}

// A database of schema version 1, written by the server before the chat,
// still serves: a match in play goes on with its players' old secrets and
// can chat; a finished one replays.
func TestVersion1DatabaseStillServes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "v1.db")
	in, err := os.Open("testdata/old-v1.db")
	must(t, err)
	out, err := os.Create(db)
	must(t, err)
	io.Copy(out, in)
	in.Close()
	out.Close()
	ts := newTestServer(t, Options{DB: db, Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}})
	ann := ts.dial("07057a371085", q("token", "a455497c21acabb428ba9d75f2eeead8"))
	ann.waitFor("the rebuilt match", func(s stateIn) bool { return s.View != nil })
	if ann.match.Status != "playing" || ann.match.Commands < 7 {
		t.Fatalf("the party match: %+v", ann.match)
	}
	sayOK(t, ann, map[string]any{"text": "still here"})
	var rp Replay
	if st := ts.call("GET", "/api/matches/5eea785cdbb3/replay", nil, &rp); st != http.StatusOK || len(rp.Commands) != 40 {
		t.Fatalf("the finished lane game's replay: %d, %d commands", st, len(rp.Commands))
	}
	var step ReplayStep
	ts.call("GET", "/api/matches/5eea785cdbb3/replay/40", nil, &step)
	if step.Hash != rp.Commands[39].Hash {
		t.Errorf("the replay ends on %s, stored %s", step.Hash, rp.Commands[39].Hash)
	}
}
