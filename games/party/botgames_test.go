package party

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
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
		g := start(t, def, game.Setup{Players: []string{"Ann", "Bob", "Cy", "Di"}, Seed: seed, MaxRounds: 40})
		hashes, log := botGame(t, g, seed)
		h := sha256.New()
		for _, hash := range hashes[1:] {
			fmt.Fprintln(h, hash)
		}
		io.WriteString(h, log)
		commands := len(hashes) - 1
		fmt.Fprintf(&got, "seed %d: %d commands, %d log records, %x\n", seed, commands, g.LogLen(), h.Sum(nil))
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
