package party

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// TestOutsideSameMatches: a simulation's match that runs the turn's steps
// outside the engine whenever no board event hears them (Options.Direct,
// outside.go) plays the very match the engine plays, step for step: after
// each of its bots' commands, the same match played in the engine, its
// bots drawing from the same streams, reaches the same state hash, the
// same number of commands and the same counts of where things happened.
// Every bundled board and the original's fixtures, by the fixed rules and
// the original's, with two to four players.
func TestOutsideSameMatches(t *testing.T) {
	files, _ := filepath.Glob("../../examples/party/*.json")
	shared := os.Getenv("TABULA_SHARED") // the original's fixtures, if there
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
	fixtures, _ := filepath.Glob(filepath.Join(shared, "fixtures", "customjack", "v1", "*.json"))
	files = append(files, fixtures...)
	if len(files) < 4 {
		t.Fatalf("found %d boards: %v", len(files), files)
	}
	replayed, forks := 0, 0
	for _, file := range files {
		def, _ := testPack.LoadFile(file)
		if def == nil {
			continue // not a board on its own
		}
		for _, compat := range []string{CompatFixed, CompatOriginal} {
			for players := 2; players <= 4; players++ {
				names := []string{"A", "B", "C", "D"}[:players]
				if def.info(mustQuirks(t, compat)).CheckPlayers(players) != nil {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%d", filepath.Base(file), compat, players), func(t *testing.T) {
					r, f := sameMatches(t, def, names, compat)
					replayed, forks = replayed+r, forks+f
				})
			}
		}
	}
	// The test means something only if both ways of leaving the engine
	// were taken: replays of heard steps, and choices of way.
	if replayed == 0 || forks == 0 {
		t.Errorf("%d steps replayed in the engine, %d choices of way made outside it: the boards do not exercise both", replayed, forks)
	}
}

func mustQuirks(t *testing.T, compat string) Quirks {
	q, err := QuirksOf(compat)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// sameMatches plays 20 games both ways and compares them after every
// command of the direct match; it returns how many of its steps were
// replayed in the engine and how many choices of way it made outside it.
func sameMatches(t *testing.T, def *Definition, names []string, compat string) (replayed, forks int) {
	fast := Options{SkipText: true, NoLog: true, AutoAck: true}
	direct := fast
	direct.Direct = true
	for i := range 20 {
		setup := game.Setup{Players: names, Seed: sim.GameSeed(11, i), Compat: compat, MaxRounds: 30}
		a, err := def.NewMatch(setup, direct)
		if err != nil {
			t.Fatal(err)
		}
		b, err := def.NewMatch(setup, fast)
		if err != nil {
			t.Fatal(err)
		}
		if !a.direct || b.direct {
			t.Fatal("Options.Direct is not what the matches play by")
		}
		ra, rb := rng.New(setup.Seed), rng.New(setup.Seed)
		compare := func(when string) {
			t.Helper()
			if a.Hash() != b.Hash() || a.Commands() != b.Commands() || !slices.Equal(a.Places().Counts, b.Places().Counts) {
				t.Fatalf("game %d, %s: outside the engine, hash %s after %d commands, counts %v;\nin the engine, %s after %d, %v",
					i, when, a.Hash(), a.Commands(), a.Places().Counts, b.Hash(), b.Commands(), b.Places().Counts)
			}
		}
		compare("at the start")
		for cmd := 0; ; cmd++ {
			seats := a.Waiting()
			if len(seats) == 0 {
				break
			}
			if cmd > 10_000 {
				t.Fatalf("game %d: no end", i)
			}
			played, err := a.PlayBot(seats[0], ra.Stream(botName(seats[0])))
			if !played || err != nil {
				t.Fatalf("game %d: the bot of seat %d played %v: %v", i, seats[0], played, err)
			}
			for b.Commands() < a.Commands() {
				seats := b.Waiting()
				if len(seats) == 0 {
					t.Fatalf("game %d: in the engine the game is over after %d commands, not %d", i, b.Commands(), a.Commands())
				}
				if _, err := b.PlayBot(seats[0], rb.Stream(botName(seats[0]))); err != nil {
					t.Fatal(err)
				}
			}
			compare(fmt.Sprintf("after command %d", cmd))
		}
		if a.Outcome().Rounds != b.Outcome().Rounds || !slices.Equal(a.Outcome().Winners, b.Outcome().Winners) {
			t.Fatalf("game %d: outcomes %+v and %+v", i, a.Outcome(), b.Outcome())
		}
		replayed, forks = replayed+a.outside.replays, forks+a.outside.choices
	}
	return replayed, forks
}

// TestHeardAsTheEngineHears: the table of what the board's events listen
// for (heardAt), which a step run outside the engine reads, says what the
// engine's index says (engine.Match.Hears) for every event type at every
// space and at none, on every bundled board.
func TestHeardAsTheEngineHears(t *testing.T) {
	files, _ := filepath.Glob("../../examples/party/*.json")
	checked := 0
	for _, file := range files {
		def, _ := testPack.LoadFile(file)
		if def == nil {
			continue
		}
		m, err := def.NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: 1}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for space := nowhere; space < len(def.Board.Spaces); space++ {
			for typ := range len(eventNames) {
				ev := engine.NewEvent(engine.EventType(typ))
				ev.Location, ev.Subject, ev.Player = engine.LocationID(space), playerID(0), 0
				heard := def.heard[space+1]&(1<<typ) != 0
				if heard != m.e.Hears(&ev) {
					t.Errorf("%s: %s at space %d: the table says heard %v, the engine %v", file, eventNames[typ], space, heard, !heard)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no board checked")
	}
}
