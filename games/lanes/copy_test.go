package lanes

import (
	"fmt"
	"testing"

	"github.com/tabulagames/tabula/bot/bottest"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// copyGames are the bundled games the copies are checked on.
func copyGames(t *testing.T) map[string]*Definition {
	return map[string]*Definition{"bundled": bundled(t), "split": splitGame(t)}
}

// A copy plays on exactly as the match would, from positions all through
// several games of both bundled games, and apart from it.
func TestClonePlaysOnAlike(t *testing.T) {
	for name, def := range copyGames(t) {
		t.Run(name, func(t *testing.T) { bottest.CheckClone(t, def, bottest.Options{}) })
	}
}

// hiddenFrom is what a seat does not see: the other hand, and both decks
// in order.
func hiddenFrom(m game.Match, seat int) string {
	s := m.(*Match).s
	return fmt.Sprint(s.Players[1-seat].Hand, s.Players[0].Deck, s.Players[1].Deck)
}

// A determinization keeps what the seat sees (its view, its commands, its
// log) and draws the other hand and both decks again.
func TestDeterminizeKeepsWhatTheSeatSees(t *testing.T) {
	for name, def := range copyGames(t) {
		t.Run(name, func(t *testing.T) { bottest.CheckDeterminize(t, def, bottest.Options{}, hiddenFrom) })
	}
}

// A determinization keeps every card where the seat may know it is: the
// seat's own hand and both discard piles as they are, the other hand's
// size, and each player's unplayed cards (hand and deck together) the
// same cards; and the other hand it deals is drawn from those cards only.
func TestDeterminizeDealsFromTheUnplayedCards(t *testing.T) {
	def := splitGame(t)
	bottest.Positions(t, def, bottest.Options{}, func(p bottest.Position) {
		m := p.Match.(*Match)
		for _, seat := range m.Waiting() {
			c := m.Determinize(seat, rng.New(p.Seed).Stream("determinize")).(*Match)
			for q := range 2 {
				a, b := &m.s.Players[q], &c.s.Players[q]
				if fmt.Sprint(a.Discard) != fmt.Sprint(b.Discard) || len(a.Hand) != len(b.Hand) || len(a.Deck) != len(b.Deck) {
					t.Fatalf("%s: seat %d's determinization changed player %d's discard pile or counts", p, seat, q)
				}
				if q == seat && fmt.Sprint(a.Hand) != fmt.Sprint(b.Hand) {
					t.Fatalf("%s: seat %d's own hand changed", p, seat)
				}
				if multiset(a.Hand, a.Deck) != multiset(b.Hand, b.Deck) {
					t.Fatalf("%s: seat %d's determinization changed player %d's unplayed cards", p, seat, q)
				}
			}
		}
	})
}

// multiset counts cards, in card order.
func multiset(piles ...[]int) string {
	n := map[int]int{}
	for _, p := range piles {
		for _, c := range p {
			n[c]++
		}
	}
	out := ""
	for c := range 1000 {
		if n[c] > 0 {
			out += fmt.Sprintf("%d×%d ", c, n[c])
		}
	}
	return out
}
