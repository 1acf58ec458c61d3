package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/store"
)

var slowGames = fstest.MapFS{
	"nim/slow.json": {Data: []byte(`{"game": "nim", "name": "Slow bots", "pile": 60, "take": 2, "botDelayMs": 30, "maxPlayers": 12}`)},
	"nim/fast.json": {Data: []byte(`{"game": "nim", "name": "Fast", "pile": 400, "take": 1, "maxPlayers": 12}`)},
}

// A server stopped while bots play resumes them when it starts again, and
// the match ends exactly as an uninterrupted run of the same seed would.
func TestRestartResumesBotsExactly(t *testing.T) {
	ts := newTestServer(t, Options{Bundled: BundledGames{FS: slowGames}})
	tb := ts.newTable("slow", 12, nil, true, true, map[string]any{"public": true})
	time.Sleep(300 * time.Millisecond)
	mid := ts.summary(tb.ID, "")
	if mid.Status != "playing" || mid.Commands == 0 {
		t.Fatalf("the bots should be playing: %+v", mid)
	}
	ts2 := ts.restart()
	s := ts2.waitStatus(tb.ID, "", "finished")
	if s.Commands <= mid.Commands {
		t.Fatalf("no command after the restart: %d then %d", mid.Commands, s.Commands)
	}
	var rp Replay
	ts2.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &rp)
	seed, _ := strconv.ParseUint(rp.Seed, 10, 64)
	// The same game played from start to end in one go, with the bots'
	// streams the server uses.
	src, err := game.FromBytes("slow.json", slowGames["nim/slow.json"].Data, game.Limits{})
	must(t, err)
	def, list := gametest.NewNim().Load(src)
	if def == nil {
		t.Fatal(list)
	}
	m, err := def.Start(game.Setup{Players: rp.Players, Seed: seed, MaxRounds: rp.Match.MaxRounds})
	must(t, err)
	for i, c := range rp.Commands {
		seat := m.Waiting()[0]
		cmd, _ := game.BotCommand(m, seat, botStream(seed, i))
		must(t, m.Apply(seat, cmd))
		if string(cmd) != string(c.Command) || m.Hash() != c.Hash {
			t.Fatalf("command %d: the server played %s (hash %s), an uninterrupted run %s (hash %s)", i, c.Command, c.Hash, cmd, m.Hash())
		}
	}
	if !m.Outcome().Over {
		t.Fatal("the uninterrupted run is not over")
	}
}

// A server stopped between storing a match's last command and storing
// its end (killed, or its store failing then) finds the match over when
// it loads it again, and stores the end: the match does not stay "playing"
// with nobody able to move.
func TestAMatchOverWhenLoadedEnds(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, nil, true, true, map[string]any{"public": true})
	done := ts.waitStatus(tb.ID, "", "finished")
	ts.close()
	// What the store holds when the server stopped just before the end.
	st, err := store.Open(ts.db)
	must(t, err)
	rec, err := st.Match(context.Background(), tb.ID)
	must(t, err)
	rec.Status, rec.Result = store.Playing, ""
	must(t, st.UpdateMatch(context.Background(), rec))
	must(t, st.Close())

	ts2 := newTestServer(t, ts.opt)
	s := ts2.waitStatus(tb.ID, "", "finished")
	if s.Result != done.Result || s.Commands != done.Commands {
		t.Errorf("loaded again, the match ended %q after %d commands; it had ended %q after %d", s.Result, s.Commands, done.Result, done.Commands)
	}
}

// A person who lets their turn time run out is played by a bot for that
// decision; the page is told when the time runs out.
func TestTurnLimitHandsTheDecisionToABot(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"turnLimit": 1})
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	b := ts.dial(tb.ID, q("token", tb.tokens[1]))
	a.waitFor("a state", func(s stateIn) bool { return s.View != nil })
	b.waitFor("a state", func(s stateIn) bool { return s.View != nil })
	waiting := a
	if len(b.last.Legal) > 0 {
		waiting = b
	}
	if waiting.last.Deadline == 0 || time.UnixMilli(waiting.last.Deadline).Before(time.Now()) {
		t.Fatalf("no deadline shown: %d", waiting.last.Deadline)
	}
	start := time.Now()
	waiting.waitFor("the bot to play", func(s stateIn) bool { return s.Hash != "" && len(s.Legal) == 0 })
	if d := time.Since(start); d < 500*time.Millisecond || d > 5*time.Second {
		t.Errorf("the decision was played after %v, with a limit of 1 s", d)
	}
}

// Readers never wait for a busy match: the lobby lists matches while bots
// think, and a stop during bot play ends in bounded time without losing
// a stored command.
func TestListingAndShutdownDuringBotPlay(t *testing.T) {
	ts := newTestServer(t, Options{Bundled: BundledGames{FS: slowGames}})
	tb := ts.newTable("slow", 12, nil, true, true, map[string]any{"public": true})
	time.Sleep(100 * time.Millisecond)
	for range 5 {
		start := time.Now()
		var list MatchList
		if st := ts.call("GET", "/api/matches", nil, &list); st != http.StatusOK || len(list.Matches) != 1 {
			t.Fatalf("listing: %d %+v", st, list)
		}
		if d := time.Since(start); d > 25*time.Millisecond {
			t.Errorf("listing took %v while bots play", d)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	before := ts.summary(tb.ID, "").Commands
	ts.hs.CloseClientConnections()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("shutting down took %v", d)
	}
	ts.hs.Close()
	ts.hs = nil
	ts2 := newTestServer(t, ts.opt)
	s := ts2.summary(tb.ID, "")
	if s.Commands < before {
		t.Fatalf("commands were lost: %d before the stop, %d after", before, s.Commands)
	}
	ts2.waitStatus(tb.ID, "", "finished")
}

// Finished matches nobody watches leave memory; they come back on demand.
func TestIdleMatchesLeaveMemory(t *testing.T) {
	ts := newTestServer(t, Options{Bundled: BundledGames{FS: slowGames}, IdleAfter: 200 * time.Millisecond})
	var ids []string
	for range 20 {
		tb := ts.newTable("fast", 2, nil, true, true, map[string]any{"public": true})
		ids = append(ids, tb.ID)
	}
	for _, id := range ids {
		ts.waitStatus(id, "", "finished")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ts.srv.mu.Lock()
		n := len(ts.srv.rooms)
		ts.srv.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rooms still in memory", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var rp Replay
	ts.call("GET", "/api/matches/"+ids[3]+"/replay", nil, &rp)
	if rp.Match.Status != "finished" || len(rp.Commands) != 200 {
		t.Fatalf("an evicted match came back as %s with %d commands", rp.Match.Status, len(rp.Commands))
	}
}

var _ = json.Marshal
var _ = game.Spectator

// A match nobody touches for AbandonAfter is closed as abandoned, out of
// memory and with its record kept; a finished match stays finished.
func TestAbandonedMatchIsClosed(t *testing.T) {
	ts := newTestServer(t, Options{IdleAfter: 50 * time.Millisecond, AbandonAfter: 400 * time.Millisecond})
	left := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	waiting := ts.newTable("twenty-one", 2, []string{"Cy"}, false, false, map[string]any{"public": true})
	done := ts.newTable("twenty-one", 2, nil, true, true, map[string]any{"public": true})
	ts.waitStatus(done.ID, "", "finished")
	ann := ts.dial(left.ID, q("token", left.tokens[0]))
	ann.waitFor("the first state", func(s stateIn) bool { return s.View != nil })
	ann.ws.Close(websocket.StatusNormalClosure, "")
	// Looking at a match now and then (which loads it for a moment) is not
	// playing it.
	for _, id := range []string{left.ID, waiting.ID} {
		deadline := time.Now().Add(15 * time.Second)
		s := ts.summary(id, "")
		for s.Status != "abandoned" && time.Now().Before(deadline) {
			time.Sleep(300 * time.Millisecond)
			s = ts.summary(id, "")
		}
		if s.Status != "abandoned" || !strings.Contains(s.Error, "nobody played for") {
			t.Errorf("the match nobody played is %s: %q", s.Status, s.Error)
		}
		if id == waiting.ID && s.Result != neverStarted {
			t.Errorf("the match abandoned in its lobby says %q", s.Result)
		}
	}
	if s := ts.summary(done.ID, ""); s.Status != "finished" {
		t.Errorf("a finished match became %s", s.Status)
	}
	rooms := -1
	for deadline := time.Now().Add(5 * time.Second); rooms != 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ts.srv.mu.Lock()
		rooms = len(ts.srv.rooms)
		ts.srv.mu.Unlock()
	}
	if rooms != 0 {
		t.Errorf("%d rooms still in memory", rooms)
	}
}
