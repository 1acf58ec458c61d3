package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabulagames/tabula/games/rulebook"
)

// rulebookState is the state message of a rule book match.
type rulebookState struct {
	Match   Summary          `json:"match"`
	You     int              `json:"you"`
	View    *rulebook.View   `json:"view"`
	Entries []rulebook.Entry `json:"entries"`
}

// rulebookClient follows a rule book match over a WebSocket, keeping
// every log entry it was sent.
type rulebookClient struct {
	*client
	entries []rulebook.Entry
}

func (ts *testServer) dialRulebook(match, token string) *rulebookClient {
	ts.t.Helper()
	return &rulebookClient{client: ts.dial(match, token)}
}

// state returns the latest state, after reading every message queued.
func (c *rulebookClient) state() rulebookState {
	c.t.Helper()
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatal("connection closed")
			}
			c.take(m)
			continue
		default:
		}
		break
	}
	var s rulebookState
	json.Unmarshal([]byte(c.lastRaw), &s)
	return s
}

// take keeps a state message's entries.
func (c *rulebookClient) take(m map[string]any) {
	c.keep(m)
	if m["type"] == "state" {
		var s rulebookState
		json.Unmarshal([]byte(m["raw"].(string)), &s)
		c.entries = append(c.entries, s.Entries...)
	}
}

// waitState reads messages until a state arrives.
func (c *rulebookClient) waitState() rulebookState {
	c.t.Helper()
	for {
		m := c.nextAny()
		c.take(m)
		if m["type"] == "state" {
			return c.state()
		}
	}
}

// started waits for the first state of the started match.
func (c *rulebookClient) started() rulebookState {
	c.t.Helper()
	for {
		if s := c.state(); s.View != nil {
			return s
		}
		c.waitState()
	}
}

// answer sends a command and returns the reply, keeping the states that
// come before it.
func (c *rulebookClient) answer(kind string, value int) map[string]any {
	c.t.Helper()
	c.id++
	c.send(map[string]any{"type": "command", "id": c.id, "kind": kind, "value": value})
	for {
		m := c.nextAny()
		c.take(m)
		if (m["type"] == "ack" || m["type"] == "rejected") && int(m["id"].(float64)) == c.id {
			return m
		}
	}
}

// play answers what the seat is asked, if anything: the first option
// (roll, draw, buy, the first way, no bid).
func (c *rulebookClient) play() bool {
	c.t.Helper()
	v := c.state().View
	if v == nil || len(v.YourWaits) == 0 {
		return false
	}
	w := v.YourWaits[0]
	if r := c.answer(w.Kind, 0); r["type"] != "ack" {
		c.t.Fatalf("%s refused: %v", w.Kind, r["reason"])
	}
	return true
}

// playUntil lets two players answer whatever they are asked until done
// says so or moves run out. Each connection is sent its state on its own,
// so when neither is asked anything yet it waits for the next state.
func playUntil(t *testing.T, a, b *rulebookClient, moves int, done func(v *rulebook.View) bool) {
	t.Helper()
	idle := time.Now()
	for i := 0; i < moves; {
		if v := a.state().View; v != nil && done(v) {
			return
		}
		if a.play() || b.play() {
			i++
			idle = time.Now()
			continue
		}
		if time.Since(idle) > 10*time.Second {
			t.Fatalf("nobody is asked anything: %+v", a.state().View)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestRulebookMatchOverWebSocket(t *testing.T) {
	ts := newTestServer(t, "")
	m, js := ts.newMatchOn("chutes-and-ladders", 2, "Ann", "Bob")
	ann, bob := ts.dialRulebook(m.ID, js[0].Token), ts.dialRulebook(m.ID, js[1].Token)
	watcher := ts.dialRulebook(m.ID, "")
	ann.waitState()
	bob.waitState()
	watcher.waitState()
	if code := ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil); code != http.StatusOK {
		t.Fatalf("start: %d", code)
	}
	s := ann.started()
	if s.Match.Game != "rulebook" || s.View == nil || len(s.View.YourWaits) != 1 || s.View.YourWaits[0].Kind != "roll" {
		t.Fatalf("Ann's first view: %+v", s.View)
	}
	if r := watcher.answer("roll", 0); r["type"] != "rejected" || !strings.Contains(fmt.Sprint(r["reason"]), "spectators cannot play") {
		t.Errorf("a spectator's roll: %v", r)
	}
	playUntil(t, ann, bob, 2000, func(v *rulebook.View) bool { return v.Over })
	final := ann.state().View
	if !final.Over || len(final.Winners) != 1 {
		t.Fatalf("the game did not end with a winner: %+v", final)
	}
	var sum Summary
	ts.call("GET", "/api/matches/"+m.ID, nil, &sum)
	if sum.Status != "finished" || !strings.HasSuffix(sum.Result, " won") || sum.Commands != final.Commands {
		t.Errorf("the finished match: %+v", sum)
	}
	// Everybody was told every rule that fired, cascades one level deeper
	// than the event that set them off.
	fired := map[string]int{}
	depth := map[int]int{}
	for _, e := range ann.entries {
		if e.Kind == "event" {
			depth[e.Seq] = e.Depth
		}
		if e.Kind == "fired" {
			fired[e.Rule]++
		}
	}
	if fired["StartTurnRule"] < 2 || fired["EndTurnRule"] < 1 || fired["DieMove: roll and move"] < 2 {
		t.Errorf("rules that fired: %v", fired)
	}
	for start := time.Now(); !watcher.state().View.Over && time.Since(start) < 10*time.Second; {
		time.Sleep(2 * time.Millisecond)
	}
	if watcher.state().View.Hash != final.Hash || len(watcher.entries) != len(ann.entries) {
		t.Errorf("the spectator saw %d entries and hash %s; Ann %d and %s", len(watcher.entries), watcher.state().View.Hash, len(ann.entries), final.Hash)
	}
	var rp struct {
		Commands []ReplayCommand `json:"commands"`
		Entries  []rulebook.Entry
		Final    rulebook.View
		Board    TileBoard
	}
	ts.call("GET", "/api/matches/"+m.ID+"/replay", nil, &rp)
	if len(rp.Commands) != final.Commands || rp.Commands[len(rp.Commands)-1].Hash != final.Hash || rp.Final.Hash != final.Hash ||
		len(rp.Entries) != len(ann.entries) || len(rp.Board.Tiles) != 101 {
		t.Errorf("replay: %d commands, %d entries, %d tiles", len(rp.Commands), len(rp.Entries), len(rp.Board.Tiles))
	}
	// The same seed and commands give the same game, entry for entry.
	var g struct{ Source string }
	ts.call("GET", "/api/games/chutes-and-ladders", nil, &g)
	def, _ := rulebook.Parse("cl.json", []byte(g.Source))
	var seed uint64
	var full Replay
	ts.call("GET", "/api/matches/"+m.ID+"/replay", nil, &full)
	fmt.Sscan(full.Seed, &seed)
	var cmds []rulebook.Command
	for _, c := range rp.Commands {
		var cmd rulebook.Command
		json.Unmarshal(c.Command, &cmd)
		cmds = append(cmds, cmd)
	}
	again, err := rulebook.Replay(def, full.Players, rulebook.Options{Seed: seed, MaxRounds: sum.MaxRounds}, cmds)
	if err != nil || again.Hash() != final.Hash || len(again.Entries(0)) != len(ann.entries) {
		t.Errorf("replaying the stored commands: %v", err)
	}
}

func TestRulebookCommandsAreCheckedByTheMatch(t *testing.T) {
	ts := newTestServer(t, "")
	m, js := ts.newMatchOn("monopoly", 2, "Ann", "Bob")
	ann, bob := ts.dialRulebook(m.ID, js[0].Token), ts.dialRulebook(m.ID, js[1].Token)
	ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	before := ann.started().View.Hash
	for _, c := range []struct {
		who   *rulebookClient
		kind  string
		value int
		want  string
	}{
		{bob, "roll", 0, "Bob is not asked anything; waiting for Ann"},
		{ann, "buy", 0, `Ann is asked for "roll", not "buy"`},
		{ann, "roll", 4, "the dice are rolled by the server"},
		{ann, "fly", 0, `not "fly"`},
	} {
		r := c.who.answer(c.kind, c.value)
		if r["type"] != "rejected" || !strings.Contains(fmt.Sprint(r["reason"]), c.want) {
			t.Errorf("%s: %v, want %q", c.kind, r, c.want)
		}
	}
	if h := ann.state().View.Hash; h != before {
		t.Error("rejected commands changed the match")
	}
	// Ann plays until she is offered a tile: yes and no are options.
	offered := func(v *rulebook.View) bool { return len(v.YourWaits) > 0 && v.YourWaits[0].Kind == "buy" }
	playUntil(t, ann, bob, 300, func(v *rulebook.View) bool { return offered(v) || v.Over })
	v := ann.state().View
	if !offered(v) {
		t.Fatal("Ann was never offered a tile")
	}
	if opts := v.YourWaits[0].Options; len(opts) != 2 || !strings.HasPrefix(opts[0], "Buy ") || opts[1] != "Pass" {
		t.Errorf("the offer: %+v", v.YourWaits[0])
	}
	if r := ann.answer("buy", 2); r["type"] != "rejected" || !strings.Contains(fmt.Sprint(r["reason"]), "out of range") {
		t.Errorf("an answer out of range: %v", r)
	}
	if r := ann.answer("buy", 0); r["type"] != "ack" || !slices.Contains(slices.Collect(maps.Values(ann.state().View.Owners)), 0) {
		t.Errorf("Ann bought nothing: %v %+v", r, ann.state().View.Owners)
	}
}

func TestRulebookRestartRebuildsAndChecksHashes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tabula.db")
	ts := newTestServer(t, db)
	m, js := ts.newMatchOn("monopoly", 2, "Ann", "Bob")
	ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	ann, bob := ts.dialRulebook(m.ID, js[0].Token), ts.dialRulebook(m.ID, js[1].Token)
	ann.started()
	bob.started()
	playUntil(t, ann, bob, 100, func(v *rulebook.View) bool { return v.Commands >= 8 })
	s := ann.state()
	if s.View.Commands < 8 || s.View.Over {
		t.Fatalf("%d commands played, over: %v", s.View.Commands, s.View.Over)
	}
	ts.close()

	ts2 := newTestServer(t, db)
	ann2, bob2 := ts2.dialRulebook(m.ID, js[0].Token), ts2.dialRulebook(m.ID, js[1].Token)
	again := ann2.started()
	bob2.started()
	if again.View.Hash != s.View.Hash || again.View.Commands != s.View.Commands {
		t.Fatalf("after restart: hash %s after %d commands, want %s after %d", again.View.Hash, again.View.Commands, s.View.Hash, s.View.Commands)
	}
	// The whole log is sent again, and the match goes on.
	if len(ann2.entries) != len(ann.entries) {
		t.Errorf("after restart %d log entries, before %d", len(ann2.entries), len(ann.entries))
	}
	playUntil(t, ann2, bob2, 20, func(*rulebook.View) bool { return false })
	var now Summary
	if ts2.call("GET", "/api/matches/"+m.ID, nil, &now); now.Commands != s.View.Commands+20 {
		t.Errorf("after restart and 20 more moves %d commands, want %d", now.Commands, s.View.Commands+20)
	}
	ts2.close()

	// A stored hash that the replay does not reproduce breaks the match.
	_, sum := tamper(t, db, m.ID, 2)
	if sum.Status != "broken" || !strings.Contains(sum.Error, "replaying command 2 gives state hash") {
		t.Errorf("tampered match: %+v", sum)
	}
}

func TestRulebookBotsPlayAWholeMatch(t *testing.T) {
	ts := newTestServer(t, "")
	m, _ := ts.newMatchOn("candy-land", 3)
	ts.call("POST", "/api/matches/"+m.ID+"/bots", map[string]any{"owner": m.Owner}, nil)
	var sum Summary
	if code := ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, &sum); code != http.StatusOK {
		t.Fatalf("start: %d", code)
	}
	if sum.Status != "finished" || !strings.Contains(sum.Result, "Bot") {
		t.Errorf("a match of bots: %+v", sum)
	}
	c := ts.dialRulebook(m.ID, "")
	s := c.started()
	if !s.View.Over || len(c.entries) == 0 {
		t.Errorf("a spectator of the finished match: %+v", s.View)
	}
}
