package party

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
	"github.com/tabulagames/tabula/scenario/scenariotest"
)

// playQuirks plays a board of testdata/compat with scripted rolls (and the
// first way at forks) until they run out, with the given quirks, and
// returns the match, or the error that stopped it.
func playQuirks(t *testing.T, board string, players []string, rolls []int, q Quirks) (*Match, error) {
	t.Helper()
	def := compileFile(t, filepath.Join("testdata/compat", board))
	m, err := def.newMatch(game.Setup{Players: players, Seed: 1, Dice: rolls}, Options{AutoAck: true}, q)
	if err != nil {
		return nil, err
	}
	for !m.s.Over {
		w := m.Waits()[0]
		if w.Kind == KindRoll && len(m.s.Dice) == 0 {
			break
		}
		if err := m.Play(w.Player, Command{Kind: w.Kind}); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// count counts the firings of a board event, "SPACE TRIGGER".
func count(m *Match, event string) int {
	n := 0
	for _, f := range m.Firings() {
		if strings.HasPrefix(m.FiringLine(f), event+" ") {
			n++
		}
	}
	return n
}

// where says where a player stands.
func where(m *Match, seat int) string { return m.s.SpaceOf(seat).ID }

// TestQuirks: each quirk, alone, changes what it says and nothing the
// fixed rules do otherwise: the same game is played with it off and on.
func TestQuirks(t *testing.T) {
	for _, c := range []struct {
		quirk   string
		board   string
		players []string
		rolls   []int
		// see observes the game; off and on are what it sees without and
		// with the quirk.
		see     func(m *Match, err error) string
		off, on string
	}{
		{"StaysWaiting", "walk.json", []string{"Ann"}, []int{1},
			func(m *Match, _ error) string { return m.s.Players[0].State }, Playing, Waiting},
		{"EffectsIdle", "nap.json", []string{"Solo"}, []int{1, 1},
			// Rolled twice: the second roll waited a turn, or not.
			func(m *Match, _ error) string { return fmt.Sprintf("round %d on %s", m.s.LastRound, where(m, 0)) }, "round 4 on 3", "round 3 on 3"},
		{"ExitReFires", "walk.json", []string{"Solo"}, []int{2, 1},
			func(m *Match, _ error) string { return fmt.Sprint(count(m, "2 ON_EXIT"), " exits from the gate") }, "1 exits from the gate", "2 exits from the gate"},
		{"ExitReFires", "jump.json", []string{"Solo"}, []int{1},
			func(m *Match, _ error) string { return fmt.Sprint(count(m, "2 ON_EXIT"), " exits from the pad") }, "0 exits from the pad", "1 exits from the pad"},
		{"EnterReFires", "walk.json", []string{"Solo"}, []int{2, 3},
			func(m *Match, _ error) string { return fmt.Sprint(count(m, "4 ON_ENTER"), " entries to the cliff") }, "1 entries to the cliff", "2 entries to the cliff"},
		{"BacktrackMismatch", "back.json", []string{"Solo"}, []int{2, 4, 1},
			func(m *Match, _ error) string { return where(m, 0) }, "4", "2"},
		{"MoveBackStalls", "stuck.json", []string{"Solo"}, []int{1, 1},
			func(m *Match, _ error) string { return fmt.Sprintf("over %v in round %d", m.s.Over, m.s.LastRound) }, "over false in round 3", "over true in round 1"},
		{"EliminatedPlays", "out.json", []string{"Ann", "Bob"}, []int{1, 2, 1},
			func(m *Match, _ error) string { return where(m, 0) + " " + where(m, 1) }, "2 4", "3 3"},
		{"OneD6", "rules.json", []string{"Ann", "Bob"}, []int{9},
			func(_ *Match, err error) string { return fmt.Sprint(err) }, "<nil>", "scripted roll 1 (9) is impossible with 1d6: a roll is 1 to 6"},
		{"AnyPlayerCount", "rules.json", []string{"Solo"}, []int{1},
			func(_ *Match, err error) string { return fmt.Sprint(err) }, "Board rules is for 2 to 4 players, not 1", "<nil>"},
		{"OnlyFinishEnds", "rules.json", []string{"Ann", "Bob"}, []int{3},
			func(m *Match, _ error) string { return fmt.Sprintf("over %v %s", m.s.Over, m.s.EndReason) }, "over true reached Goal (4)", "over false "},
		{"OnlyFinishEnds", "rules.json", []string{"Ann", "Bob"}, []int{1, 1, 1, 1, 1},
			func(m *Match, _ error) string { return fmt.Sprintf("over %v %s", m.s.Over, m.s.EndReason) }, "over true the turn limit (2) was reached", "over false "},
	} {
		t.Run(c.quirk+"/"+c.board, func(t *testing.T) {
			var q Quirks
			f := reflect.ValueOf(&q).Elem().FieldByName(c.quirk)
			if !f.IsValid() {
				t.Fatalf("no quirk %s", c.quirk)
			}
			for _, on := range []bool{false, true} {
				f.SetBool(on)
				want := map[bool]string{false: c.off, true: c.on}[on]
				if got := c.see(playQuirks(t, c.board, c.players, c.rolls, q)); got != want {
					t.Errorf("%s %v: got %q, want %q", c.quirk, on, got, want)
				}
			}
		})
	}
}

// TestOriginalTurnsEveryQuirkOn: "original" is every quirk, "" none, and
// any other mode is refused, naming the modes there are.
func TestOriginalTurnsEveryQuirkOn(t *testing.T) {
	q, err := QuirksOf(CompatOriginal)
	if err != nil {
		t.Fatal(err)
	}
	v := reflect.ValueOf(q)
	for i := range v.NumField() {
		if !v.Field(i).Bool() {
			t.Errorf("original leaves %s off", v.Type().Field(i).Name)
		}
	}
	if q, err := QuirksOf(""); err != nil || q != (Quirks{}) {
		t.Errorf("the default mode: %+v, %v", q, err)
	}
	def := compileFile(t, "../../examples/party/default.json")
	for _, mode := range []string{"Original", "newest"} {
		if _, err := def.Start(game.Setup{Players: []string{"Ann", "Bob"}, Compat: mode}); err == nil || !strings.Contains(err.Error(), `"original"`) {
			t.Errorf("compat %q: %v", mode, err)
		}
		if _, err := game.InfoFor(def, mode); err == nil {
			t.Errorf("InfoFor(%q) has no error", mode)
		}
	}
	info, err := game.InfoFor(def, CompatOriginal)
	if err != nil || info.MinPlayers != 1 || info.MaxPlayers != 8 || def.Info().MinPlayers != 2 {
		t.Errorf("the original's limits: %+v, %v; the board's %+v", info, err, def.Info())
	}
}

// TestHashCoversQuirks: every quirk is in the state hash, so a match
// replayed in another mode is told apart at its first hash.
func TestHashCoversQuirks(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 3})
	base := m.Hash()
	seen := map[string]bool{base: true}
	v := reflect.ValueOf(&m.s.quirks).Elem()
	for i := range v.NumField() {
		v.Field(i).SetBool(true)
		m.e.Touch()
		h := m.Hash()
		if seen[h] {
			t.Errorf("%s is not in the hash", v.Type().Field(i).Name)
		}
		seen[h] = true
		v.Field(i).SetBool(false)
	}
	m.e.Touch()
	if m.Hash() != base {
		t.Error("the hash of a match without quirks changed")
	}
}

// TestOriginalIsDeterministic: a match played as the original, with the
// same board, seed and commands, gives the same log and hash; on the
// original's own boards it plays differently from the fixed rules.
func TestOriginalIsDeterministic(t *testing.T) {
	root := sharedDir(t)
	for _, rel := range []string{"v1/defaultBoard.json", "v1/defaultBoard-actual.json", "v3/placeholder-showcase.json"} {
		def := compileFile(t, filepath.Join(root, rel))
		t.Run(filepath.Base(rel), func(t *testing.T) {
			play := func(compat string) *Match {
				return playBotsSetup(t, def, game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 9, Compat: compat})
			}
			a, b, fixed := play(CompatOriginal), play(CompatOriginal), play("")
			var la, lb strings.Builder
			a.WriteLog(&la, 0)
			b.WriteLog(&lb, 0)
			if la.String() != lb.String() || a.Hash() != b.Hash() {
				t.Error("the same seed gave two different games as the original")
			}
			if a.Hash() == fixed.Hash() {
				t.Error("the original and the fixed rules played the same game")
			}
			for _, p := range a.s.Players {
				if p.State == Playing {
					t.Errorf("%s is PLAYING in the original", p.Name)
				}
			}
		})
	}
}

// TestCompatScenarios runs the scenario files that show each quirk, and
// checks that each pair tells the two modes apart: the fixed rules'
// scenario fails as the original, the original's fails with the fixed
// rules.
func TestCompatScenarios(t *testing.T) {
	files := scenariotest.Run(t, "testdata/compat", 26, testPack.RunScenario)
	pairs := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".original.scenario.yaml") {
			continue
		}
		other := strings.TrimSuffix(f, ".scenario.yaml") + ".original.scenario.yaml"
		fixed, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		original, err := os.ReadFile(other)
		if err != nil {
			t.Errorf("%s has no scenario for the original: %v", f, err)
			continue
		}
		pairs++
		if r := testPack.RunScenarioWith(f, fixed, scenario.Options{Compat: CompatOriginal}); r.Passed() {
			t.Errorf("%s passes as the original too", f)
		}
		asFixed := strings.Replace(string(original), "compat: original\n", "", 1)
		if asFixed == string(original) {
			t.Fatalf("%s does not say compat: original", other)
		}
		if r := testPack.RunScenario(other, []byte(asFixed)); r.Passed() {
			t.Errorf("%s passes with the fixed rules too", other)
		}
	}
	if pairs < 13 {
		t.Errorf("%d pairs of scenarios, want 13", pairs)
	}
}
