package party

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario/scenariotest"
)

// TestSpecScenarios runs the seven scenarios the original game's
// behavioural specification suggests, with the fixed semantics,
// on the original's own boards.
func TestSpecScenarios(t *testing.T) {
	fixtures := sharedDir(t)
	shared, err := filepath.Abs(filepath.Dir(filepath.Dir(fixtures)))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TABULA_SHARED", shared)
	scenariotest.Run(t, "testdata/spec", 7, testPack.RunScenario)
}

// TestExampleScenarios runs the scenarios of our own example boards.
func TestExampleScenarios(t *testing.T) {
	scenariotest.Run(t, "../../examples/party", 9, testPack.RunScenario)
}

// TestScenarioFailures: a scenario whose expectations do not hold fails,
// saying what differs.
func TestScenarioFailures(t *testing.T) {
	path := filepath.Join("../../examples/party", "default-shortcut.scenario.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`positions: {Solo: "11"`, `positions: {Solo: "10"`, "Solo's space: got 11, want 10"},
		{`positions: {Solo: "11"`, `positions: {Sol: "11"`, `positions: no player "Sol" (did you mean Solo?)`},
		{"  rounds: 1\n", "  rounds: 1\n  log: [Solo rolls 6, Solo rolls 5]\n", `log: no line "Solo rolls 5" after "Solo rolls 6"`},
		{"    - \"Solo: 5 ON_ENTER SET_PLAYER_SPACE @1\"\n", "", "+ Solo: 5 ON_ENTER SET_PLAYER_SPACE @1"},
		{"players: [Solo, Duo]", "players: [Solo]", "Tabula Party is for 2 to 8 players, not 1"},
		{"rolls: [6, 6]", "rolls: [6, 7]", "scripted roll 2 (7) is impossible with 1d6"},
		{`paths: ["5", "5"]`, `paths: ["5", "9"]`, `space "9" is not one of the ways Duo can go: 5, 6`},
		{"board: default.json", "board: ${TABULA_NO_SUCH_DIR}/default.json", "cannot read the board: no such file or folder"},
		{"rounds: 1", "round: 1", "cannot read the scenario"},
	} {
		changed := strings.Replace(string(data), c.from, c.to, 1)
		if changed == string(data) {
			t.Fatalf("%q is not in the scenario", c.from)
		}
		if r := testPack.RunScenario(path, []byte(changed)); r.Passed() || !strings.Contains(r.String(), c.want) {
			t.Errorf("with %q: got\n%s\nwant a failure saying %q", c.to, r, c.want)
		}
	}
}

// playBots plays a board with bots to its end (or the round cap) and
// returns the match.
func playBots(t testing.TB, def *Definition, players []string, seed uint64) *Match {
	return playBotsSetup(t, def, game.Setup{Players: players, Seed: seed})
}

// playBotsSetup is playBots with a whole setup.
func playBotsSetup(t testing.TB, def *Definition, setup game.Setup) *Match {
	g := start(t, def, setup)
	bots := rng.New(setup.Seed).Stream("bots")
	for !g.s.Over {
		seat := g.Waits()[0].Player
		c, _ := g.Bot(seat, bots)
		if err := g.Play(seat, c); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestBotsPlayEveryFixture: every fixture that loads is played by bots to
// its end, or to the round cap with no winner for the boards that never
// end; the same seed gives the same log twice.
func TestBotsPlayEveryFixture(t *testing.T) {
	root := sharedDir(t)
	neverEnd := map[string]bool{"test-circular-board.json": true, "test-mini-board.json": true, "test-many-plugins.json": true,
		"example-multi-piece-game.json": true}
	played := 0
	for _, rel := range fixtureFiles(t, root) {
		def, _ := testPack.LoadFile(filepath.Join(root, rel))
		if def == nil {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			players := []string{"Ann", "Bob", "Cid", "Dee"}
			g := playBots(t, def, players, 42)
			again := playBots(t, def, players, 42)
			var log1, log2 strings.Builder
			g.WriteLog(&log1, 0)
			again.WriteLog(&log2, 0)
			if log1.String() != log2.String() || g.Hash() != again.Hash() {
				t.Error("the same seed gave two different games")
			}
			base := filepath.Base(rel)
			if neverEnd[base] {
				if !strings.Contains(g.s.EndReason, "round cap") || len(g.s.Winners) != 0 {
					t.Errorf("a board that never ends: %q, winners %v", g.s.EndReason, g.s.Winners)
				}
			} else if len(g.s.Winners) != 1 {
				t.Errorf("ended %q with winners %v, want one winner", g.s.EndReason, g.s.Winners)
			}
			t.Logf("%s after %d rounds, %d commands", g.s.EndReason, g.s.LastRound, g.commands)
		})
		played++
	}
	if played < 8 {
		t.Errorf("only %d fixtures were playable", played)
	}
}

// BenchmarkBotGame measures whole bot games on each playable fixture.
func BenchmarkBotGame(b *testing.B) {
	root := sharedDir(b)
	for _, rel := range []string{"v1/defaultBoard.json", "v1/defaultBoard-actual.json", "v1/test-mini-board.json", "v3/placeholder-showcase.json"} {
		def := compileFile(b, filepath.Join(root, rel))
		b.Run(filepath.Base(rel), func(b *testing.B) {
			b.ReportAllocs()
			seed := uint64(0)
			for b.Loop() {
				seed++
				playBots(b, def, []string{"Ann", "Bob", "Cid", "Dee"}, seed)
			}
		})
	}
}

// Scenario files written before players read spaces, states and effects
// in words, on the boards of then, still pass: their logs name spaces
// with their ids ("Solo is sent to Last stretch (10)") and states and
// effects as board files do, and whole logs of games the bots played
// then are found line by line.
func TestScenariosWrittenBeforeNames(t *testing.T) {
	scenariotest.Run(t, "testdata/before-names", 11, testPack.RunScenario)
}
