package party

import (
	"bytes"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
)

// botGame plays a match to its end with bots, returning the state hash
// after every command and the whole log.
func botGame(t *testing.T, g *Game, botSeed uint64) ([]string, string) {
	t.Helper()
	bots := rng.New(botSeed).Stream("bots")
	hashes := []string{g.Hash()}
	for !g.Over() {
		moved := false
		for seat := range g.Players {
			if cmd, ok := g.BotCommand(seat, bots); ok {
				if err := g.Apply(cmd); err != nil {
					t.Fatal(err)
				}
				hashes = append(hashes, g.Hash())
				moved = true
				break
			}
		}
		if !moved {
			t.Fatal("the match waits for nobody")
		}
	}
	var log bytes.Buffer
	if err := g.WriteLog(&log, 0); err != nil {
		t.Fatal(err)
	}
	return hashes, log.String()
}

// TestResetIsANewGame: a game reset after another plays exactly as a new
// one: the same hash after every command, the same log.
func TestResetIsANewGame(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	players := []string{"Ann", "Bob", "Cy"}
	reused, err := NewGame(def, players, Options{Seed: 99, MaxRounds: 30})
	if err != nil {
		t.Fatal(err)
	}
	botGame(t, reused, 1)
	for seed := range uint64(5) {
		opt := Options{Seed: seed, MaxRounds: 30}
		fresh, err := NewGame(def, players, opt)
		if err != nil {
			t.Fatal(err)
		}
		wantHashes, wantLog := botGame(t, fresh, seed)
		if err := reused.Reset(opt); err != nil {
			t.Fatal(err)
		}
		gotHashes, gotLog := botGame(t, reused, seed)
		if len(gotHashes) != len(wantHashes) || gotLog != wantLog {
			t.Fatalf("seed %d: a reset game plays differently from a new one", seed)
		}
		for i := range wantHashes {
			if gotHashes[i] != wantHashes[i] {
				t.Fatalf("seed %d: the hashes differ after command %d", seed, i)
			}
		}
		if len(reused.Commands) != len(wantHashes)-1 {
			t.Errorf("seed %d: %d commands kept, want %d", seed, len(reused.Commands), len(wantHashes)-1)
		}
	}
}
