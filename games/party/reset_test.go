package party

import (
	"bytes"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// botGame plays a match to its end with bots, returning the state hash
// after every command and the whole log.
func botGame(t *testing.T, g *Match, botSeed uint64) ([]string, string) {
	t.Helper()
	bots := rng.New(botSeed).Stream("bots")
	hashes := []string{g.Hash()}
	for !g.s.Over {
		moved := false
		for seat := range g.s.Players {
			if cmd, ok := g.Bot(seat, bots); ok {
				if err := g.Play(seat, cmd); err != nil {
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
	reused := start(t, def, game.Setup{Players: players, Seed: 99, MaxRounds: 30})
	botGame(t, reused, 1)
	for seed := range uint64(5) {
		fresh := start(t, def, game.Setup{Players: players, Seed: seed, MaxRounds: 30})
		wantHashes, wantLog := botGame(t, fresh, seed)
		if err := reused.Reset(seed); err != nil {
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
		if reused.commands != len(wantHashes)-1 {
			t.Errorf("seed %d: %d commands counted, want %d", seed, reused.commands, len(wantHashes)-1)
		}
	}
}
