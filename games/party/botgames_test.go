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

var updateBotGames = flag.Bool("update-bot-games", false, "rewrite testdata/bot-games*.golden")

// TestBotGamesGolden plays whole bot games on the bundled default board,
// prompts and all, and holds a digest of the state hash after every
// command and of the whole log to a golden file: a change that alters how
// a game plays, or what it logs, shows here.
func TestBotGamesGolden(t *testing.T) {
	botGamesGolden(t, "bot-games.golden", game.Setup{Players: []string{"Ann", "Bob", "Cy", "Di"}, MaxRounds: 40})
}

// TestOriginalBotGamesGolden is TestBotGamesGolden for matches played as
// the original game: their hashes are those a server stores, so a change
// that alters them would break the replays of stored matches.
func TestOriginalBotGamesGolden(t *testing.T) {
	botGamesGolden(t, "bot-games-original.golden", game.Setup{Players: []string{"Ann", "Bob", "Cy"}, MaxRounds: 40, Compat: CompatOriginal})
}

// botGamesGolden plays eight bot games of the setup, with seeds 0 to 7,
// and compares their digests with a golden file of testdata.
func botGamesGolden(t *testing.T, name string, setup game.Setup) {
	def := compileFile(t, "../../examples/party/default.json")
	var got strings.Builder
	for seed := range uint64(8) {
		setup.Seed = seed
		g := start(t, def, setup)
		hashes, log := botGame(t, g, seed)
		h := sha256.New()
		for _, hash := range hashes[1:] {
			fmt.Fprintln(h, hash)
		}
		io.WriteString(h, log)
		commands := len(hashes) - 1
		fmt.Fprintf(&got, "seed %d: %d commands, %d log records, %x\n", seed, commands, g.LogLen(), h.Sum(nil))
	}
	golden := filepath.Join("testdata", name)
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
