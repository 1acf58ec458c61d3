package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabulagames/tabula/examples"
)

// Every pack is hosted the same way: a match is created, a person joins,
// a bot fills the other seat, they play to the end over the WebSocket; a
// restarted server rebuilds the finished match from its commands (every
// hash checked) and replays it.
func TestEveryPackIsHosted(t *testing.T) {
	for _, c := range []struct{ pack, board string }{
		{"party", "default"}, {"rulebook", "chutes-and-ladders"}, {"lanes", "drone-lanes"}, {"skirmish", "duel"},
	} {
		t.Run(c.pack, func(t *testing.T) {
			ts := newTestServer(t, Options{Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}, Logger: testLogger()})
			tb := ts.newTable(c.board, 2, []string{"Ann"}, true, true, map[string]any{"public": true, "maxRounds": 40})
			ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
			spectator := ts.dial(tb.ID, "")
			ann.waitFor("the first state", func(s stateIn) bool { return s.View != nil })
			if ann.match.Game != c.pack {
				t.Fatalf("the match's game is %q", ann.match.Game)
			}
			playToEnd(t, ann)
			s := ts.waitStatus(tb.ID, "", "finished")
			spectator.waitFor("the end", func(st stateIn) bool {
				return st.Match != nil && st.Match.Status == "finished" || spectator.match.Status == "finished"
			})
			var rp Replay
			ts.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &rp)
			if rp.Seed == "" || len(rp.Commands) != s.Commands || len(rp.Entries) == 0 {
				t.Fatalf("replay: seed %q, %d commands of %d, %d entries", rp.Seed, len(rp.Commands), s.Commands, len(rp.Entries))
			}
			last := rp.Commands[len(rp.Commands)-1].Hash

			ts2 := ts.restart()
			var again Replay
			ts2.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &again)
			if again.Match.Status != "finished" || again.Commands[len(again.Commands)-1].Hash != last {
				t.Fatalf("after a restart: %s (%s)", again.Match.Status, again.Match.Error)
			}
			var step ReplayStep
			ts2.call("GET", "/api/matches/"+tb.ID+"/replay/"+itoa(len(rp.Commands)), nil, &step)
			if step.Hash != last {
				t.Fatalf("the replay viewer's last step has hash %s, the match %s", step.Hash, last)
			}
		})
	}
	_ = time.Second
}

func itoa(n int) string { return strconv.Itoa(n) }

// A party match created to play as the original game is stored with that
// mode: it plays by the original's rules (players stay WAITING), and a
// restarted server replays it the same way, every hash checked. A mode
// the game does not have is refused when the match is created.
func TestCompatMatchesReplayInTheirMode(t *testing.T) {
	ts := newTestServer(t, Options{Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}, Logger: testLogger()})
	var out map[string]any
	if st := ts.call("POST", "/api/matches", map[string]any{"board": "default", "compat": "newest"}, &out); st != http.StatusBadRequest ||
		!strings.Contains(fmt.Sprint(out), `"original"`) {
		t.Fatalf("an unknown mode: %d %v", st, out)
	}
	if st := ts.call("POST", "/api/matches", map[string]any{"board": "duel", "compat": "original"}, &out); st != http.StatusBadRequest {
		t.Fatalf("a mode for a game without modes: %d %v", st, out)
	}
	// The original plays with any number of players from 1 to 8.
	tb := ts.newTable("default", 1, nil, true, true, map[string]any{"public": true, "maxRounds": 30, "compat": "original"})
	s := ts.waitStatus(tb.ID, "", "finished")
	if s.Compat != "original" {
		t.Fatalf("the summary says compat %q", s.Compat)
	}
	var rp Replay
	ts.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &rp)
	if len(rp.Commands) == 0 {
		t.Fatal("no commands")
	}
	last := rp.Commands[len(rp.Commands)-1].Hash
	// After the first roll, the player is still WAITING; at the end, the
	// last step is the match's.
	view := func(ts *testServer) string {
		var first, step ReplayStep
		ts.call("GET", "/api/matches/"+tb.ID+"/replay/1", nil, &first)
		ts.call("GET", "/api/matches/"+tb.ID+"/replay/"+itoa(len(rp.Commands)), nil, &step)
		if step.Hash != last {
			t.Fatalf("the replay's last step has hash %s, the match %s", step.Hash, last)
		}
		b, _ := json.Marshal(first.View)
		return string(b)
	}
	if v := view(ts); !strings.Contains(v, `"state":"WAITING"`) || !strings.Contains(v, `"compat":"original"`) {
		t.Fatalf("the match did not play as the original: %s", v)
	}
	ts2 := ts.restart()
	var again Replay
	ts2.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &again)
	if again.Match.Status != "finished" || again.Match.Compat != "original" || again.Commands[len(again.Commands)-1].Hash != last {
		t.Fatalf("after a restart: %s (%s), compat %q", again.Match.Status, again.Match.Error, again.Match.Compat)
	}
	if v := view(ts2); !strings.Contains(v, `"state":"WAITING"`) {
		t.Fatalf("after a restart, the replay does not play as the original: %s", v)
	}
}
