package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// thinkers is a bot that thinks for a while and counts how many think at
// once.
type thinkers struct {
	now, most atomic.Int32
	decisions atomic.Int32
	think     time.Duration
}

func (c *thinkers) bot(m game.Match, seat int, level string, r *rng.Stream, budget time.Duration) (json.RawMessage, bool) {
	n := c.now.Add(1)
	for {
		most := c.most.Load()
		if n <= most || c.most.CompareAndSwap(most, n) {
			break
		}
	}
	// Busy, as a search is.
	for end := time.Now().Add(c.think); time.Now().Before(end); {
	}
	c.now.Add(-1)
	c.decisions.Add(1)
	legal := m.Legal(seat)
	return legal[len(legal)-1].Data, true
}

// Bots of every match together think on at most BotThreads threads, so
// that a person's command never waits behind them: bots that think on a
// copy of their match (a lane game) and those that think in it (Nim,
// which cannot be copied). (With 30 all-bot matches of the strongest
// bots, a person's command once waited 2.3 s.)
func TestBotsThinkWithinTheirThreads(t *testing.T) {
	for _, board := range []string{"drone-lanes", "twenty-one"} {
		t.Run(board, func(t *testing.T) {
			c := &thinkers{think: 5 * time.Millisecond}
			ts := newTestServer(t, Options{Packs: append(allPacks(), gametest.NewNim()), Bundled: BundledGames{FS: botGames},
				Bots: c.bot, BotLevels: []string{"deep"}, Limits: Limits{BotThreads: 1}})
			for range 8 {
				tb := ts.newTable(board, 2, nil, false, false, nil)
				ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner, "level": "deep"}, nil)
				ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil)
			}
			// Meanwhile a person plays.
			people := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, nil)
			ann := ts.dial(people.ID, q("token", people.tokens[0]))
			ann.waitFor("Ann's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
			if r := ann.command(ann.last.Legal[0].Data); r["type"] != "ack" {
				t.Fatalf("Ann's command: %v", r)
			}
			for deadline := time.Now().Add(20 * time.Second); c.decisions.Load() < 40; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("only %d bot decisions in 20 s", c.decisions.Load())
				}
			}
			if most := c.most.Load(); most != 1 {
				t.Errorf("%d bots thought at once, with one thread for bots", most)
			}
		})
	}
}

// botGames are the bundled games of the bots' tests: a lane game (whose
// matches are copied for bots to think on) and Nim (whose are not).
var botGames = func() fstest.MapFS {
	fs := fstest.MapFS{"nim/twenty-one.json": nimGames["nim/twenty-one.json"]}
	data, err := examples.Games.ReadFile("lanes/drone-lanes.json")
	if err != nil {
		panic(err)
	}
	fs["lanes/drone-lanes.json"] = &fstest.MapFile{Data: data}
	return fs
}()

// BenchmarkCommandBesideBots measures a person's command (sent, played,
// stored, acknowledged) while 30 all-bot matches of the strongest bots
// (MCTS, thinking up to 500 ms a decision) play on the same server: with
// the bots on one thread (the default on two CPUs: one less than the
// CPUs), and on as many threads as they like (30, as before the cap).
//
//	go test ./server -run NONE -bench CommandBesideBots -benchtime 40x
func BenchmarkCommandBesideBots(b *testing.B) {
	for _, threads := range []int{1, 30} {
		b.Run(fmt.Sprintf("bot-threads=%d", threads), func(b *testing.B) {
			bots, _ := bot.ByLevel(bot.Options{})
			ts := newTestServer(b, Options{Packs: append(allPacks(), gametest.NewNim()), Bundled: BundledGames{FS: examples.Games, Default: "default"},
				Bots: bots, BotLevels: bot.Levels, Limits: Limits{BotThreads: threads, BotTime: 500 * time.Millisecond, Creates: 1000}})
			defer ts.close()
			var saved struct{ Board GameInfo }
			if st := ts.call("POST", "/api/boards?name=long.json", `{"game": "nim", "name": "Long", "pile": 1000, "take": 1}`, &saved); st != http.StatusCreated {
				b.Fatalf("saving the game: %d", st)
			}
			people := ts.newTable(saved.Board.ID, 2, []string{"Ann", "Bob"}, false, true, nil)
			ann, bob := dial(b, ts.hs.URL, people.ID, q("token", people.tokens[0])), dial(b, ts.hs.URL, people.ID, q("token", people.tokens[1]))
			for range 30 {
				tb := ts.newTable("drone-lanes", 2, nil, false, false, nil)
				ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner, "level": "mcts"}, nil)
				ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil)
			}
			time.Sleep(2 * time.Second) // the bots are busy
			var worst time.Duration
			b.ResetTimer()
			for i := range b.N {
				c := ann
				if i%2 == 1 {
					c = bob
				}
				c.waitFor("a turn", func(s stateIn) bool { return len(s.Legal) > 0 })
				start := time.Now()
				if r := c.command(c.last.Legal[0].Data); r["type"] != "ack" {
					b.Fatalf("a command: %v", r)
				}
				worst = max(worst, time.Since(start))
			}
			b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
		})
	}
}
