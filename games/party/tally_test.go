package party

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// TestPlacesCountWhatTheLogTells: what a match counts per space, event,
// action and seat (Places) is what its whole log tells: ON_LAND and
// ON_ENTER events by space, firings by board event, EFFECT_APPLIED events
// by seat; prompts and stats are the players'. Every bundled board, bot
// games through the game interface, with the log kept.
func TestPlacesCountWhatTheLogTells(t *testing.T) {
	boards, _ := filepath.Glob("../../examples/party/*.json")
	tested := 0
	for _, file := range boards {
		def, _ := testPack.LoadFile(file)
		if def == nil {
			continue
		}
		tested++
		for seed := range uint64(12) {
			m, err := def.NewMatch(game.Setup{Players: []string{"A", "B", "C"}, Seed: seed}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			bots := rng.New(seed).Stream("bots")
			for commands := 0; len(m.Waiting()) > 0 && commands < 5000; commands++ {
				seat := m.Waiting()[0]
				cmd, _ := m.BotCommand(seat, bots)
				if err := m.Apply(seat, cmd); err != nil {
					t.Fatalf("%s seed %d: %v", file, seed, err)
				}
			}
			got := m.Places()
			want := slices.Clone(got.Counts)
			clear(want)
			l := m.s.tally.layout
			for _, r := range m.e.Records() {
				switch r.Kind {
				case engine.RecEvent:
					ev := &m.e.Events[r.Event]
					switch ev.Type {
					case evLand:
						want[int(ev.Location)*spaceFigures+figLandings]++
					case evEnter:
						want[int(ev.Location)*spaceFigures+figEntries]++
					case evEffect:
						if k := slices.Index(def.tally.effects, ev.Data.(string)); k >= 0 {
							want[l.seats+int(ev.Player)*def.tally.seatFigures()+1+k]++
						}
					}
				case engine.RecFired:
					p := def.triggers[r.Trigger]
					ref := p.def.Data.(eventRef)
					want[ref.Space*spaceFigures+figFirings]++
					want[l.events+def.tally.eventAt[ref.Space]+ref.Event]++
					want[l.actions+slices.Index(def.tally.actions, def.Board.Spaces[ref.Space].Events[ref.Event].Action.Type)]++
				}
			}
			for s, p := range m.s.Players {
				at := l.seats + s*def.tally.seatFigures()
				want[at] = float64(p.Prompts)
				for k, name := range def.tally.stats {
					want[at+1+len(def.tally.effects)+k] = p.StatValue(name)
				}
			}
			for _, pl := range got.Places {
				for k, f := range pl.Figures {
					if g, w := got.Counts[pl.First+k], want[pl.First+k]; g != w {
						t.Errorf("%s seed %d: %s %s: %s %v, the log tells %v", filepath.Base(file), seed, pl.Kind, pl.ID, f, g, w)
					}
				}
			}
		}
	}
	if tested < 3 {
		t.Fatalf("tested %d boards", tested)
	}
}
