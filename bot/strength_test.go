package bot_test

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/lanes"
	"github.com/tabulagames/tabula/games/pieces"
	"github.com/tabulagames/tabula/games/skirmish"
)

// advised is the MCTS of the packs' duels: what each game's search advice
// makes of the default options, the bot that players get (docs/bots.md).
var advised = bot.Options{}

// packDuel is a duel on one of the packs' bundled games.
type packDuel struct {
	name     string
	pack     game.Pack
	file     string // under examples/
	a        bot.Options
	opponent string
	// low is what the lower end of a's 95% interval must exceed in the
	// short duels of the test suite.
	low float64
	// level is a's level: mcts unless said.
	level string
}

var packDuels = []packDuel{
	{"lanes: mcts against random", lanes.NewPack(), "lanes/drone-lanes.json", advised, "random", 0.6, ""},
	{"lanes: mcts against greedy", lanes.NewPack(), "lanes/drone-lanes.json", advised, "greedy", 0, ""},
	{"skirmish ambush: mcts against random", skirmish.NewPack(), "skirmish/ambush.encounter.json", advised, "random", 0.5, ""},
	{"skirmish ambush: mcts against greedy", skirmish.NewPack(), "skirmish/ambush.encounter.json", advised, "greedy", 0, ""},
	{"skirmish archery: mcts against random", skirmish.NewPack(), "skirmish/archery.encounter.json", advised, "random", 0.5, ""},
	{"skirmish archery: mcts against greedy", skirmish.NewPack(), "skirmish/archery.encounter.json", advised, "greedy", 0, ""},
	// What the archery encounter's seats give, whoever plays them.
	{name: "skirmish archery: greedy against greedy", pack: skirmish.NewPack(), file: "skirmish/archery.encounter.json", opponent: "greedy", level: "greedy"},
	{"trouble: mcts against random", pieces.NewPack(), "pieces/trouble.json", advised, "random", 0, ""},
	{"trouble: mcts against greedy", pieces.NewPack(), "pieces/trouble.json", advised, "greedy", 0, ""},
}

// MCTS beats random and greedy bots on the packs' own games: the drone
// lane game and two skirmishes (a party of three against five in a ruined
// gate, a goblin archer against a fighter 65 squares away), seats swapped
// from game to game.
//
// In the test suite only the duels against random bots are played, a
// dozen games each, and must be won. TABULA_DUELS=1000 plays a thousand
// games a duel and prints the table of docs/bots.md (it takes hours on
// two cores; run it in the background); TABULA_DUEL_TIME=30m stops the
// duels after that time, each counting the games it finished before the
// first it did not, which TABULA_DUELS set to their number plays again:
//
//	TABULA_DUELS=1000 go test ./bot -run TestPackStrength -v -timeout 0
func TestPackStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("the duels take a while")
	}
	games, full := 12, false
	if s := os.Getenv("TABULA_DUELS"); s != "" {
		full = true
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("TABULA_DUELS=%q: want a number of games", s)
		}
		games = n
	}
	ctx := context.Background()
	if s := os.Getenv("TABULA_DUEL_TIME"); s != "" {
		limit, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("TABULA_DUEL_TIME=%q: want a duration such as 30m", s)
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	for _, d := range packDuels {
		if !full && d.opponent != "random" {
			continue
		}
		t.Run(d.name, func(t *testing.T) {
			def := gametest.Load(t, d.pack, filepath.Join("..", "examples", d.file))
			level := cmp.Or(d.level, "mcts")
			a, b := newBot(t, level, d.a), newBot(t, d.opponent, bot.Options{})
			start := time.Now()
			res := bot.Duel(ctx, def, a, b, games, 1, true)
			t.Logf("%v, in %v", res, time.Since(start).Round(time.Second))
			t.Logf("| %s | %s | %.1f%% (%.1f–%.1f%%) of %d | %.1f%% | %.0f | %v |", d.file, d.name,
				100*res.A.Rate, 100*res.A.Low, 100*res.A.High, res.Games, 100*float64(res.Draws)/float64(max(1, res.Games)),
				float64(res.Commands)/float64(max(1, res.Games)), time.Since(start).Round(time.Second))
			if res.Failed > 0 || res.Games != games && !res.Interrupted {
				t.Fatalf("%d of %d games played, %d failed: %v", res.Games, games, res.Failed, res.Err)
			}
			if res.A.Low <= d.low {
				t.Errorf("mcts won %s; the interval should start above %.0f%%", res.A, 100*d.low)
			}
		})
	}
}
