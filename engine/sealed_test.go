package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// bidGame records the bids it resolves with.
type bidGame struct{ Bids []int }

// sealedRules: BID asks each player of its arguments for a bid (Pass, 1,
// 2), sealed when the argument says so, and records the answers.
type bidArgs struct {
	Players []engine.PlayerID
	Sealed  bool
}

func sealedRules() *engine.Rules {
	types := engine.NewTypes("PING")
	effects := engine.NewEffects()
	engine.Register(effects, "BID", func(c *engine.Ctx, g *bidGame, a bidArgs) error {
		answers := c.Answers()
		if answers == nil {
			var ds []engine.Decision
			for _, p := range a.Players {
				ds = append(ds, engine.Decision{Player: p, Kind: "bid", Prompt: "Bid", Options: []string{"Pass", "1", "2"}, Sealed: a.Sealed})
			}
			return c.Ask(ds...)
		}
		for _, in := range answers {
			g.Bids = append(g.Bids, in.Choice)
		}
		return nil
	})
	return &engine.Rules{Types: types, Effects: effects, Policy: engine.PriorityAgenda, Guard: engine.NoGuard}
}

// answersLogged returns the answer records of a match's log as
// "player:choice".
func answersLogged(m *engine.Match) []string {
	var out []string
	for _, r := range m.Records() {
		if r.Kind == engine.RecAnswer {
			out = append(out, fmt.Sprintf("%d:%d", r.Player, r.Choice))
		}
	}
	return out
}

// TestSealedAnswers: sealed answers stay out of the log and of the state
// hash until the last one is in; then they are logged together, in the
// order the decisions were asked, and the effect gets them all. Unsealed
// answers are logged as they come.
func TestSealedAnswers(t *testing.T) {
	start := func(sealed bool) (*engine.Match, *bidGame) {
		rules := sealedRules()
		g := &bidGame{}
		m := engine.NewMatch(rules, g, 1, []string{"Ann", "Bob", "Cid"})
		call := rules.Effects.MustCall("BID", bidArgs{Players: []engine.PlayerID{0, 1, 2}, Sealed: sealed})
		if err := m.Run(0, call); err != nil {
			t.Fatal(err)
		}
		return m, g
	}
	answer := func(m *engine.Match, p engine.PlayerID, choice int) {
		t.Helper()
		if err := m.Answer(engine.Input{Player: p, Kind: "bid", Choice: choice}); err != nil {
			t.Fatal(err)
		}
	}

	// Cid bids 2 in one match and 1 in the other: nothing tells them apart
	// but that Cid is no longer waited for.
	a, _ := start(true)
	b, _ := start(true)
	records := len(a.Records())
	answer(a, 2, 2)
	answer(b, 2, 1)
	if got := answersLogged(a); got != nil {
		t.Errorf("a sealed answer was logged before the others were in: %v", got)
	}
	if len(a.Records()) != records {
		t.Errorf("a sealed answer added %d log records", len(a.Records())-records)
	}
	if a.Hash() != b.Hash() {
		t.Error("the state hash tells a sealed bid of 2 from one of 1")
	}
	fresh, _ := start(true)
	if a.Hash() == fresh.Hash() {
		t.Error("the state hash does not change when a sealed answer comes in (Waiting does)")
	}
	if w := a.Waiting(); len(w) != 2 || w[0].Player != 0 || w[1].Player != 1 {
		t.Errorf("waiting %+v, want Ann and Bob", w)
	}
	answer(a, 0, 0)
	if got := answersLogged(a); got != nil {
		t.Errorf("sealed answers were logged before the last was in: %v", got)
	}
	answer(a, 1, 1)
	if got, want := answersLogged(a), []string{"0:0", "1:1", "2:2"}; !slices.Equal(got, want) {
		t.Errorf("answers logged %v, want %v (in the order asked)", got, want)
	}
	if g := a.State.(*bidGame); !slices.Equal(g.Bids, []int{0, 1, 2}) || a.IsWaiting() {
		t.Errorf("bids %v (waiting %v), want [0 1 2] and the chain resumed", g.Bids, a.IsWaiting())
	}

	// Unsealed, each answer is logged when it comes, and the hash tells
	// the choices apart.
	u, _ := start(false)
	v, _ := start(false)
	answer(u, 2, 2)
	answer(v, 2, 1)
	if got := answersLogged(u); !slices.Equal(got, []string{"2:2"}) {
		t.Errorf("unsealed answers logged %v, want [2:2]", got)
	}
	if u.Hash() == v.Hash() {
		t.Error("unsealed answers of 2 and 1 give the same hash")
	}
	answer(u, 0, 0)
	answer(u, 1, 1)
	if got, want := answersLogged(u), []string{"2:2", "0:0", "1:1"}; !slices.Equal(got, want) {
		t.Errorf("unsealed answers logged %v, want %v (as they came)", got, want)
	}
}
