package engine_test

import (
	"bytes"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// A small dice game for Reset: rolling emits ON_LAND where the die says,
// and spaces near and far (beyond the index's dense locations) react.
type resetGame struct{ Drinks, Rolls int }

var (
	resetTypes   = engine.NewTypes("ON_LAND")
	resetLand, _ = resetTypes.Lookup("ON_LAND")
	resetEffects = func() *engine.Effects {
		e := engine.NewEffects()
		engine.Register(e, "ROLL", func(c *engine.Ctx, g *resetGame, far bool) error {
			g.Rolls++
			ev := engine.NewEvent(resetLand)
			ev.Location = engine.LocationID(c.Rand("dice").Between(1, 3))
			if far {
				ev.Location += 100_000
			}
			c.Emit(ev)
			return nil
		})
		engine.Register(e, "DRINK", func(c *engine.Ctx, g *resetGame, n int) error {
			g.Drinks += n
			return nil
		})
		return e
	}()
	resetRules = &engine.Rules{Types: resetTypes, Effects: resetEffects, Policy: engine.PriorityAgenda, Guard: engine.PerTrigger}
)

func placeResetTriggers(m *engine.Match) {
	for _, loc := range []engine.LocationID{1, 2, 100_002, 100_003} {
		// Once a round: the uses of a round are part of the state.
		m.Index.Add(&engine.Trigger{Name: "drink", On: []engine.EventType{resetLand}, Scope: engine.Here, UsesPerRound: 1,
			Effects: []engine.EffectCall{resetEffects.MustCall("DRINK", int(loc%10))}}, engine.EntityID(loc), engine.NoPlayer, loc, int64(loc))
	}
}

func playReset(t *testing.T, m *engine.Match) (string, string) {
	t.Helper()
	for i := range 40 {
		if err := m.Run(0, resetEffects.MustCall("ROLL", i%2 == 1)); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	if err := m.WriteJSONL(&log, 0); err != nil {
		t.Fatal(err)
	}
	return m.Hash(), log.String()
}

// TestResetIsANewMatch: a match reset after a game plays the next one
// exactly as a new match does: the same log, the same hash.
func TestResetIsANewMatch(t *testing.T) {
	fresh := engine.NewMatch(resetRules, &resetGame{}, 42, []string{"Ann"})
	placeResetTriggers(fresh)
	wantHash, wantLog := playReset(t, fresh)

	reused := engine.NewMatch(resetRules, &resetGame{}, 7, []string{"Ann"})
	placeResetTriggers(reused)
	reused.Index.Remove(1)
	playReset(t, reused)
	reused.Reset(&resetGame{}, 42)
	if reused.Index.Len() != 0 || len(reused.Records()) != 0 || reused.Chain() != 0 {
		t.Fatalf("after Reset: %d triggers, %d records, chain %d", reused.Index.Len(), len(reused.Records()), reused.Chain())
	}
	placeResetTriggers(reused)
	gotHash, gotLog := playReset(t, reused)
	if gotHash != wantHash || gotLog != wantLog {
		t.Errorf("a reset match plays differently from a new one:\n%s\nwant\n%s", gotLog, wantLog)
	}
	if g := reused.State.(*resetGame); g.Drinks == 0 {
		t.Error("no trigger fired: the test proves nothing")
	}
}

// TestResetKeepingTriggers: a match reset keeping its triggers plays as a
// new match with them placed anew; once a trigger was removed, it resets
// as Reset does and says so, and the game places them again.
func TestResetKeepingTriggers(t *testing.T) {
	fresh := engine.NewMatch(resetRules, &resetGame{}, 42, []string{"Ann"})
	placeResetTriggers(fresh)
	wantHash, wantLog := playReset(t, fresh)

	reused := engine.NewMatch(resetRules, &resetGame{}, 7, []string{"Ann"})
	placeResetTriggers(reused)
	playReset(t, reused)
	if !reused.ResetKeepingTriggers(&resetGame{}, 42) {
		t.Fatal("the triggers were not kept, though none changed")
	}
	gotHash, gotLog := playReset(t, reused)
	if gotHash != wantHash || gotLog != wantLog {
		t.Errorf("a match reset keeping its triggers plays differently from a new one:\n%s\nwant\n%s", gotLog, wantLog)
	}

	reused.Index.Remove(1)
	if reused.ResetKeepingTriggers(&resetGame{}, 42) {
		t.Fatal("the triggers were kept, though one was removed")
	}
	if reused.Index.Len() != 0 {
		t.Fatalf("after a reset that kept nothing: %d triggers", reused.Index.Len())
	}
	placeResetTriggers(reused)
	if gotHash, gotLog = playReset(t, reused); gotHash != wantHash || gotLog != wantLog {
		t.Errorf("a match reset without its triggers plays differently from a new one:\n%s\nwant\n%s", gotLog, wantLog)
	}
}
