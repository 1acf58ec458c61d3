package party

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
)

var updateBotGames = flag.Bool("update-bot-games", false, "rewrite testdata/bot-games.golden")

// TestBotGamesGolden plays whole bot games on the bundled default board,
// prompts and all, and holds a digest of the state hash after every
// command and of the whole log to a golden file: a change that alters how
// a game plays, or what it logs, shows here.
func TestBotGamesGolden(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	var got strings.Builder
	for seed := range uint64(8) {
		g, err := NewGame(def, []string{"Ann", "Bob", "Cy", "Di"}, Options{Seed: seed, MaxRounds: 40})
		if err != nil {
			t.Fatal(err)
		}
		bots := rng.New(seed).Stream("bots")
		h := sha256.New()
		commands := 0
		for !g.Over() {
			moved := false
			for seat := range g.Players {
				if cmd, ok := g.BotCommand(seat, bots); ok {
					if err := g.Apply(cmd); err != nil {
						t.Fatal(err)
					}
					fmt.Fprintln(h, g.Hash())
					commands++
					moved = true
					break
				}
			}
			if !moved {
				t.Fatal("the match waits for nobody")
			}
		}
		if err := g.WriteLog(h, 0); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "seed %d: %d commands, %d log records, %x\n", seed, commands, len(g.Match.Records()), h.Sum(nil))
	}
	golden := filepath.Join("testdata", "bot-games.golden")
	if *updateBotGames {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("bot games play differently from %s:\n%s", golden, got.String())
	}
}
