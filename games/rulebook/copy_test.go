package rulebook

import (
	"fmt"
	"testing"

	"github.com/tabulagames/tabula/bot/bottest"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// A copy plays on exactly as the match would, dice and cards included,
// from positions all through several games of every bundled rule book
// (the rules' chain paused for a roll, a purchase, a bid), and apart from
// it.
func TestClonePlaysOnAlike(t *testing.T) {
	for _, name := range presetFiles {
		def := load(t, name)
		t.Run(name, func(t *testing.T) {
			bottest.CheckClone(t, def, bottest.Options{Every: 15, Setup: func(s *game.Setup) { s.MaxRounds = 40 }})
		})
	}
}

// hiddenDraws are what no player can know: the order of the draw piles
// and the next dice.
func hiddenDraws(m game.Match, _ int) string {
	c := m.(*Match).clone(engine.CloneOptions{})
	var piles [][]int
	for _, d := range c.state.Decks {
		piles = append(piles, d.Draw)
	}
	return fmt.Sprint(piles, c.eng.RNG.Stream("dice").Uint64())
}

// A determinization keeps everything a player sees and draws the order of
// the decks and the dice to come again.
func TestDeterminizeDrawsTheDecksAndDiceAgain(t *testing.T) {
	for _, name := range presetFiles {
		def := load(t, name)
		t.Run(name, func(t *testing.T) {
			bottest.CheckDeterminize(t, def, bottest.Options{Every: 15, Setup: func(s *game.Setup) { s.MaxRounds = 40 }}, hiddenDraws)
		})
	}
}

// In an auction everybody bids at once, in secret: a bot deciding for Bob
// after Cid has bid must not know Cid's bid. Bob's determinizations draw
// it again, so that in some Cid wins the tile and in others nobody bids.
func TestDeterminizeHidesTheSealedBids(t *testing.T) {
	m := start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 1, Dice: []int{1, 5}})
	play := func(m *Match, seat int, kind string, value int) {
		t.Helper()
		if err := m.Play(seat, Command{Kind: kind, Value: value}); err != nil {
			t.Fatal(err)
		}
	}
	play(m, 0, KindRoll, 0)
	play(m, 0, KindBuy, 1) // Ann declines: the tile is auctioned
	play(m, 2, KindBid, 2) // Cid bids
	owners := map[string]int{}
	r := rng.New(1).Stream("determinize")
	for range 30 {
		c := m.Determinize(1, r).(*Match)
		play(c, 1, KindBid, 0)
		play(c, 0, KindBid, 0)
		owner := "nobody"
		for tile, o := range c.state.Owners {
			if o >= 0 {
				owner = fmt.Sprintf("%s owns %s", c.players[o], c.state.tileID(tile))
			}
		}
		owners[owner]++
	}
	if owners["nobody"] == 0 || owners["Cid owns b1"] == 0 {
		t.Errorf("Bob's determinizations end the auction so: %v; want Cid's bid drawn again (sometimes a pass)", owners)
	}
	// The match itself keeps Cid's bid.
	play(m, 1, KindBid, 0)
	play(m, 0, KindBid, 0)
	if m.state.Owners[m.def.byID["b1"]] != 2 {
		t.Errorf("the match lost Cid's bid: owners %v", m.state.Owners)
	}
}

// Evaluate weighs money and tiles in the Monopoly-like game and progress
// along the track in the race games.
func TestEvaluate(t *testing.T) {
	for _, tt := range []struct {
		file   string
		change func(s *State)
	}{
		{"monopoly.json", func(s *State) { s.Players[0].Score += 200 }},
		{"monopoly.json", func(s *State) { s.Owners[s.def.byID["b1"]] = 0 }},
		{"chutes-and-ladders.json", func(s *State) { s.Players[0].Tile += 10 }},
		{"candy-land.json", func(s *State) { s.Players[0].Tile += 10 }},
	} {
		m := start(t, load(t, tt.file), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
		if a, b := m.Evaluate(0), m.Evaluate(1); a != 0 || b != 0 {
			t.Errorf("%s at the start: %g and %g, want 0 and 0", tt.file, a, b)
		}
		tt.change(m.state)
		if a, b := m.Evaluate(0), m.Evaluate(1); !(a > 0 && b < 0) {
			t.Errorf("%s, Ann ahead: %g, Bob: %g", tt.file, a, b)
		}
	}
}
