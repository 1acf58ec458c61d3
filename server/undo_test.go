package server

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/store"
)

// undo asks to take back the client's last move, and returns the reply
// (ack or rejected).
func (c *client) undo() map[string]any {
	c.t.Helper()
	return c.request(map[string]any{"type": "undo"})
}

// copyTestdata copies a database of testdata into the test's folder, for
// a server to use (and change).
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), name)
	in, err := os.Open(filepath.Join("testdata", name))
	must(t, err)
	defer in.Close()
	out, err := os.Create(db)
	must(t, err)
	_, err = io.Copy(out, in)
	must(t, err)
	must(t, out.Close())
	return db
}

// move finds the legal command of the client that moves a combatant to
// the cell, or fails.
func (c *client) move(x, y int) json.RawMessage {
	c.t.Helper()
	for _, l := range c.last.Legal {
		var d struct {
			Do string `json:"do"`
			To []int  `json:"to"`
		}
		json.Unmarshal(l.Data, &d)
		if d.Do == "move" && len(d.To) == 2 && d.To[0] == x && d.To[1] == y {
			return l.Data
		}
	}
	c.t.Fatalf("no move to (%d,%d) among %d legal commands", x, y, len(c.last.Legal))
	return nil
}

func refused(t *testing.T, r map[string]any, want string) {
	t.Helper()
	if r["type"] != "rejected" || !strings.Contains(r["reason"].(string), want) {
		t.Errorf("got %v, want a refusal saying %q", r, want)
	}
}

// A player takes back a step: the match is as it was before it (hash,
// log, the question asked again), everybody is told, and the undo is
// stored, so that a restarted server replays it to the same hash. Only
// the seat that played may take it back, only while nobody else has
// played since, never a blow (it rolled), never twice the same.
func TestUndoOverTheSocket(t *testing.T) {
	ts := newPageServer(t, Options{})
	tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	watcher := ts.dial(tb.ID, "")
	ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	bob.waitFor("the first state", func(s stateIn) bool { return s.View != nil })
	start, startLog := ann.last.Hash, ann.last.Log
	if ann.last.CanUndo {
		t.Fatal("Ann may take back a move before she made one")
	}

	// A step beside the goblin rolls nothing.
	if r := ann.command(ann.move(2, 1)); r["type"] != "ack" {
		t.Fatalf("the step was refused: %v", r["reason"])
	}
	if !ann.last.CanUndo {
		t.Fatal("Ann may not take her step back")
	}
	bob.waitFor("the step", func(s stateIn) bool { return s.Hash == ann.last.Hash })
	if bob.last.CanUndo {
		t.Error("Bob is told he may take back Ann's step")
	}
	refused(t, bob.undo(), "no move of yours")
	watcher.drain()
	refused(t, watcher.undo(), "spectators")
	if r := ann.undo(); r["type"] != "ack" {
		t.Fatalf("the undo was refused: %v", r["reason"])
	}
	if ann.last.Hash != start || ann.last.Log != startLog || ann.last.CanUndo || len(ann.last.Legal) == 0 {
		t.Fatalf("after the undo: hash %s (want %s), log %d (want %d), canUndo %v, %d legal commands",
			ann.last.Hash, start, ann.last.Log, startLog, ann.last.CanUndo, len(ann.last.Legal))
	}
	bob.waitFor("the undo", func(s stateIn) bool { return s.Hash == start })
	if bob.last.Undone == nil || *bob.last.Undone != 0 {
		t.Errorf("Bob is not told Ann took her move back: %v", bob.last.Undone)
	}
	refused(t, ann.undo(), "no move of yours")

	// Walking away, Ann gives the goblin an opportunity attack: she may
	// take the move back until Bob answers; then Bob may take back his
	// answer (letting it go rolled nothing), and Ann no longer may.
	if r := ann.command(ann.move(0, 2)); r["type"] != "ack" {
		t.Fatalf("the move was refused: %v", r["reason"])
	}
	bob.waitFor("the reaction", func(s stateIn) bool { return len(s.Legal) == 2 })
	if !ann.last.CanUndo {
		t.Error("Ann may not take back her move while Bob thinks")
	}
	asked := bob.last.Hash
	if r := bob.command(bob.last.Legal[1].Data); r["type"] != "ack" {
		t.Fatalf("letting it go was refused: %v", r["reason"])
	}
	ann.waitFor("Bob's answer", func(s stateIn) bool { return s.Hash == bob.last.Hash })
	if ann.last.CanUndo || !bob.last.CanUndo {
		t.Errorf("after Bob's answer, Ann may undo %v, Bob %v", ann.last.CanUndo, bob.last.CanUndo)
	}
	refused(t, ann.undo(), "no move of yours")
	if r := bob.undo(); r["type"] != "ack" || bob.last.Hash != asked || len(bob.last.Legal) != 2 {
		t.Fatalf("Bob's undo: %v, hash %s (want %s), %d legal commands", r, bob.last.Hash, asked, len(bob.last.Legal))
	}
	if r := bob.command(bob.last.Legal[1].Data); r["type"] != "ack" {
		t.Fatalf("letting it go again was refused: %v", r["reason"])
	}

	// A blow rolls dice: it stays.
	ann.waitFor("the fighter's turn again", func(s stateIn) bool { return len(s.Legal) > 0 && s.Hash == bob.last.Hash })
	var blow json.RawMessage
	for _, l := range ann.last.Legal {
		if strings.Contains(string(l.Data), `"attack"`) {
			blow = l.Data
		}
	}
	if blow == nil {
		// Out of reach: end the turn, and the goblin's comes.
		t.Fatalf("no attack offered: %v", ann.last.Legal)
	}
	if r := ann.command(blow); r["type"] != "ack" {
		t.Fatalf("the attack was refused: %v", r["reason"])
	}
	if ann.last.CanUndo {
		t.Error("Ann may take back an attack")
	}
	status := "playing"
	if ann.last.over() {
		// The blow felled the goblin: the fight is over.
		status = "finished"
		refused(t, ann.undo(), "not being played")
	} else {
		refused(t, ann.undo(), "cannot be taken back")
	}
	last := ann.last.Hash

	cmds, err := ts.srv.store.Commands(t.Context(), tb.ID)
	must(t, err)
	undos := 0
	for _, c := range cmds {
		if c.Undo {
			undos++
		}
	}
	if undos != 2 || !cmds[1].Undo || cmds[1].Hash != start || cmds[1].Player != 0 {
		t.Fatalf("%d undos stored; the first: %+v", undos, cmds[1])
	}
	ts2 := ts.restart()
	again := ts2.dial(tb.ID, q("token", tb.tokens[0]))
	again.waitFor("the rebuilt match", func(s stateIn) bool { return s.View != nil })
	if again.last.Hash != last || again.match.Status != status {
		t.Fatalf("after a restart: hash %s (want %s), %s %s", again.last.Hash, last, again.match.Status, again.match.Error)
	}
}

// A move a bot played for a person (their time ran out) is not theirs to
// take back, even one the game lets be taken back, nor what they played
// before it.
func TestNoUndoOfWhatABotPlayed(t *testing.T) {
	ts := newPageServer(t, Options{})
	tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, nil)
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	if r := ann.command(ann.move(2, 1)); r["type"] != "ack" || !ann.last.CanUndo {
		t.Fatalf("the step: %v, canUndo %v", r, ann.last.CanUndo)
	}
	// Her time runs out: the room plays a step for her, as it does then.
	r, err := ts.srv.room(t.Context(), tb.ID)
	must(t, err)
	stepped := ann.last.Hash
	must(t, r.do(t.Context(), func() {
		r.playFor(0, "", json.RawMessage(`{"do":"move","who":"fighter","to":[2,3]}`), store.ReasonTimeout)
		r.changed()
	}))
	ann.waitFor("the bot's step", func(s stateIn) bool { return s.Hash != stepped })
	if ann.last.CanUndo {
		t.Error("Ann is told she may take back what a bot played for her")
	}
	refused(t, ann.undo(), "no move of yours")
	// A restarted server knows it from the log.
	again := ts.restart().dial(tb.ID, q("token", tb.tokens[0]))
	again.waitFor("the rebuilt match", func(s stateIn) bool { return s.View != nil })
	if again.last.CanUndo {
		t.Error("after a restart, Ann is told she may take back what a bot played for her")
	}
	refused(t, again.undo(), "no move of yours")
}

// A restarted server lets a player take back the moves they played before
// it stopped, as it would have: the log says who played them.
func TestUndoAfterARestart(t *testing.T) {
	ts := newPageServer(t, Options{})
	tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, nil)
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	start := ann.last.Hash
	ann.command(ann.move(2, 1))
	stepped := ann.last.Hash
	ann.command(ann.move(2, 0))
	again := ts.restart().dial(tb.ID, q("token", tb.tokens[0]))
	again.waitFor("the rebuilt match", func(s stateIn) bool { return s.View != nil })
	if !again.last.CanUndo {
		t.Fatal("after a restart, Ann may not take back her step")
	}
	for _, want := range []string{stepped, start} {
		if r := again.undo(); r["type"] != "ack" || again.last.Hash != want {
			t.Fatalf("the undo: %v, hash %s, want %s", r, again.last.Hash, want)
		}
	}
	refused(t, again.undo(), "no move of yours")
}

// Matches stored by the server of version 2 (schema 2, without undos)
// still load: each rebuilds to the hash stored last, and goes on, its
// player taking a move back where the game allows it.
func TestStoredMatchesOfVersion2StillServe(t *testing.T) {
	ts := newTestServer(t, Options{DB: copyTestdata(t, "v2.db"), Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}})
	undone := 0
	for _, c := range []struct{ id, token string }{
		{"928edb8f914f", "3e4041c2c0aa0a45d9dac30c2526a061"}, // party
		{"658ca999d7f0", "771d0c415601229fcd802ab56278d86a"}, // rulebook
		{"4997b235ce9a", "267e019f905f44ab3b19223efed7ef24"}, // lanes
		{"5d1175890421", "cc6eba5adb3149659cc7d16a443c0501"}, // skirmish
		{"2f194b1b324d", "95431d3208c27f7688ae63a9a8ecc75d"}, // pieces
	} {
		cmds, err := ts.srv.store.Commands(t.Context(), c.id)
		must(t, err)
		ann := ts.dial(c.id, q("token", c.token))
		ann.waitFor("the rebuilt match", func(s stateIn) bool { return s.View != nil })
		if ann.match.Status != "playing" || ann.last.Hash != cmds[len(cmds)-1].Hash || ann.last.You != 0 {
			t.Fatalf("match %s: %s (%s), hash %s, want %s", c.id, ann.match.Status, ann.match.Error, ann.last.Hash, cmds[len(cmds)-1].Hash)
		}
		// Ann plays on; where she may, she takes a move back (one after
		// which she still has the turn: a bot's turn is played at once).
		for range 6 {
			ann.waitFor("Ann's turn", func(s stateIn) bool { return len(s.Legal) > 0 || s.over() })
			if ann.last.over() {
				break
			}
			before := ann.last.Hash
			if r := ann.command(ann.last.Legal[len(ann.last.Legal)-1].Data); r["type"] != "ack" {
				t.Fatalf("match %s: %v", c.id, r["reason"])
			}
			if !ann.last.CanUndo || len(ann.last.Legal) == 0 {
				continue
			}
			after := ann.last.Hash
			r := ann.undo()
			if r["type"] == "rejected" {
				// A bot bidding at the same time may have been first.
				ann.waitFor("the bot's move", func(s stateIn) bool { return s.Hash != after })
				continue
			}
			if ann.last.Hash != before {
				t.Fatalf("match %s: the undo gives hash %s, want %s", c.id, ann.last.Hash, before)
			}
			t.Logf("match %s: a move taken back", c.id)
			undone++
			break
		}
	}
	if undone == 0 {
		t.Errorf("only %d of the old matches took a move back", undone)
	}
}

// A move taken back does not buy time: the player is asked again with the
// time they had left before it.
func TestUndoKeepsTheTimeLeft(t *testing.T) {
	ts := newPageServer(t, Options{})
	tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"turnLimit": 60})
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	deadline := ann.last.Deadline
	time.Sleep(20 * time.Millisecond)
	if r := ann.command(ann.move(2, 1)); r["type"] != "ack" || ann.last.Deadline <= deadline {
		t.Fatalf("the step: %v, deadline %d, before %d (asked again, the time starts anew)", r, ann.last.Deadline, deadline)
	}
	if r := ann.undo(); r["type"] != "ack" || ann.last.Deadline != deadline {
		t.Fatalf("the undo: %v, deadline %d, want %d", r, ann.last.Deadline, deadline)
	}
}

// A match started but not played yet, or whose every move was taken back,
// is rebuilt by a restarted server as it stood: its first question asked.
func TestRebuiltBeforeAnyMove(t *testing.T) {
	ts := newPageServer(t, Options{})
	starts := map[string]string{}
	var tables []*table
	for i := range 2 {
		tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, nil)
		tables = append(tables, tb)
		ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
		ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
		starts[tb.ID] = ann.last.Hash
		if i == 1 {
			ann.command(ann.move(2, 1))
			if r := ann.undo(); r["type"] != "ack" {
				t.Fatalf("the undo: %v", r)
			}
		}
	}
	ts2 := ts.restart()
	for _, tb := range tables {
		c := ts2.dial(tb.ID, q("token", tb.tokens[0]))
		c.waitFor("the first question", func(s stateIn) bool { return len(s.Legal) > 0 })
		if c.last.Hash != starts[tb.ID] {
			t.Errorf("match %s rebuilt to hash %s, want %s", tb.ID, c.last.Hash, starts[tb.ID])
		}
	}
}

// The replay of a finished match lists its undos, and steps through them:
// after each record of the log, the replay's hash is the one stored.
func TestReplayShowsTheUndo(t *testing.T) {
	ts := newPageServer(t, Options{})
	tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	ann.command(ann.move(2, 1))
	if r := ann.undo(); r["type"] != "ack" {
		t.Fatalf("the undo: %v", r)
	}
	playToEnd(t, ann, bob)
	ts.waitStatus(tb.ID, "", "finished")
	var rp Replay
	ts.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &rp)
	if len(rp.Commands) < 3 || rp.Commands[0].Undo || !rp.Commands[1].Undo || rp.Commands[1].Player != 0 || rp.Commands[1].Command != nil {
		t.Fatalf("the replay's log: %+v", rp.Commands)
	}
	for n := range min(len(rp.Commands), 6) {
		var step ReplayStep
		ts.call("GET", "/api/matches/"+tb.ID+"/replay/"+itoa(n+1), nil, &step)
		if step.Hash != rp.Commands[n].Hash {
			t.Errorf("the replay after %d records has hash %s, the log %s", n+1, step.Hash, rp.Commands[n].Hash)
		}
	}
}

// On a device passed round the table, the page has moved on to the next
// player's seat when the last one wants their move back: it may take back
// the move of any seat it holds, naming it; everybody is told whose it
// is. A seat the device does not hold is not its to take back.
func TestUndoOnASharedDevice(t *testing.T) {
	ts := newPageServer(t, Options{})
	var c created
	if st := ts.call("POST", "/api/matches", map[string]any{"board": "walk-away", "seats": 2, "name": "Ann"}, &c); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	if st := ts.call("POST", "/api/matches/"+c.ID+"/join", map[string]any{"name": "Bob", "token": c.Token}, nil); st != http.StatusOK {
		t.Fatalf("adding Bob on the device: %d", st)
	}
	ts.call("POST", "/api/matches/"+c.ID+"/start", map[string]any{"owner": c.Owner}, nil)
	dev := ts.dial(c.ID, q("token", c.Token))
	dev.waitFor("Ann's turn", func(s stateIn) bool { return s.You == 0 && len(s.Legal) > 0 })
	before := dev.last.Hash
	var end json.RawMessage
	for _, l := range dev.last.Legal {
		if strings.Contains(string(l.Data), `"end"`) {
			end = l.Data
		}
	}
	if r := dev.command(end); r["type"] != "ack" || dev.last.UndoBy == nil || *dev.last.UndoBy != 0 {
		t.Fatalf("Ann ends her turn: %v, undoBy %v", r, dev.last.UndoBy)
	}
	dev.id++
	dev.send(map[string]any{"type": "seat", "id": dev.id, "seat": 1, "log": dev.last.Log})
	if r := dev.reply(); r["type"] != "ack" || dev.last.You != 1 {
		t.Fatalf("switching to Bob: %v", r)
	}
	if dev.last.CanUndo || dev.last.UndoBy == nil || *dev.last.UndoBy != 0 {
		t.Fatalf("Bob's view: canUndo %v, undoBy %v", dev.last.CanUndo, dev.last.UndoBy)
	}
	refused(t, dev.undo(), "no move of yours")
	if r := dev.request(map[string]any{"type": "undo", "seat": 0}); r["type"] != "ack" || dev.last.Hash != before {
		t.Fatalf("taking back Ann's end of turn from Bob's view: %v, hash %s, want %s", r, dev.last.Hash, before)
	}
	if dev.last.Undone == nil || *dev.last.Undone != 0 {
		t.Errorf("the device is not told whose move was taken back: %v", dev.last.Undone)
	}
}
