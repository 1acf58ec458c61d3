package party

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/scenario/scenariotest"
)

// TestSpecScenarios runs the seven scenarios the original game's
// behavioural specification suggests (its §22), with the fixed semantics,
// on the original's own boards.
func TestSpecScenarios(t *testing.T) {
	fixtures := sharedDir(t)
	shared, err := filepath.Abs(filepath.Dir(filepath.Dir(fixtures)))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TABULA_SHARED", shared)
	scenariotest.Run(t, "testdata/spec", 7, RunScenario)
}

// TestExampleScenarios runs the scenarios of our own example boards.
func TestExampleScenarios(t *testing.T) {
	scenariotest.Run(t, "../../examples/party", 9, RunScenario)
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
		{`positions: {Solo: "11"}`, `positions: {Solo: "10"}`, "Solo's space: got 11, want 10"},
		{`positions: {Solo: "11"}`, `positions: {Sol: "11"}`, `positions: no player "Sol" (did you mean Solo?)`},
		{"  rounds: 1\n", "  rounds: 1\n  log: [Solo rolls 6, Solo rolls 5]\n", `log: no line "Solo rolls 5" after "Solo rolls 6"`},
		{"    - 5 ON_ENTER SET_PLAYER_SPACE @1\n", "", "+ 5 ON_ENTER SET_PLAYER_SPACE @1"},
		{"board: default.json", "board: ${TABULA_NO_SUCH_DIR}/default.json", "cannot read the board: no such file or folder"},
		{"rounds: 1", "round: 1", "cannot read the scenario"},
	} {
		changed := strings.Replace(string(data), c.from, c.to, 1)
		if changed == string(data) {
			t.Fatalf("%q is not in the scenario", c.from)
		}
		if r := RunScenario(path, []byte(changed)); r.Passed() || !strings.Contains(r.String(), c.want) {
			t.Errorf("with %q: got\n%s\nwant a failure saying %q", c.to, r, c.want)
		}
	}
}

// playBots plays a board with bots to its end (or the round cap) and
// returns the match.
func playBots(t testing.TB, def *Definition, players []string, seed uint64) *Game {
	g, err := NewGame(def, players, Options{Seed: seed, MaxRounds: DefaultMaxRounds})
	if err != nil {
		t.Fatal(err)
	}
	bots := rng.New(seed).Stream("bots")
	for !g.Over() {
		c, _ := g.BotCommand(g.Waits()[0].Player, bots)
		if err := g.Apply(c); err != nil {
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
	neverEnd := map[string]bool{"test-circular-board.json": true, "test-mini-board.json": true, "test-many-plugins.json": true}
	played := 0
	for _, rel := range fixtureFiles(t, root) {
		b, list := Load(filepath.Join(root, rel))
		if b == nil || list.HasErrors() {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			def, err := Compile(b)
			if err != nil {
				t.Fatal(err)
			}
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
				if !strings.Contains(g.State.EndReason, "round cap") || len(g.State.Winners) != 0 {
					t.Errorf("a board that never ends: %q, winners %v", g.State.EndReason, g.State.Winners)
				}
			} else if len(g.State.Winners) != 1 {
				t.Errorf("ended %q with winners %v, want one winner", g.State.EndReason, g.State.Winners)
			}
			t.Logf("%s after %d rounds, %d commands", g.State.EndReason, g.State.LastRound, len(g.Commands))
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
		bd, list := Load(filepath.Join(root, rel))
		if bd == nil || list.HasErrors() {
			b.Fatalf("%s: %v", rel, list)
		}
		def, _ := Compile(bd)
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
