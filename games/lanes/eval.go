package lanes

import (
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// SearchAdvice is how bots search a lane game: a random playout to the end
// is some 600 commands (random players seldom finish each other off) whose
// random passes and targets say little, so each new node is scored by
// Evaluate at once and the tree alone looks ahead (docs/bots.md measures
// it against greedy play).
func (m *Match) SearchAdvice() game.SearchAdvice {
	return game.SearchAdvice{Iterations: 300, Leaves: true, Exploration: 0.2}
}

// Evaluate says how the seat stands, from -1 (lost) to 1 (won), for bots
// that look ahead: mostly the race to the damage that loses (the other
// ship's damage against the seat's, each as a share of that damage), then
// the drones on the board (their attack, hull and shields, the seat's
// against the other's). Tokens (mines) are left out: they help the side
// whose board they are not on.
func (m *Match) Evaluate(seat int) float64 {
	s := m.s
	if seat != 0 && seat != 1 {
		return 0
	}
	p := engine.PlayerID(seat)
	lose := float64(max(1, s.damageToLose()))
	ship := (float64(s.ShipDamage(1-p)) - float64(s.ShipDamage(p))) / lose
	mine, theirs := s.dronePower(p), s.dronePower(1-p)
	board := (mine - theirs) / (mine + theirs + 10)
	return max(-1, min(1, shipWeight*ship+(1-shipWeight)*board))
}

// shipWeight is the share of the ships' damage in Evaluate; the drones on
// the board make the rest.
const shipWeight = 0.7

// dronePower adds up what a player's drones on the board can do and take:
// attack, hull and shields. Tokens are left out.
func (s *State) dronePower(p engine.PlayerID) float64 {
	n := 0
	for _, lane := range s.Players[p].Lanes {
		for _, id := range lane {
			if d := s.Drone(id); !d.Kind.Token {
				n += max(0, d.Attack()) + d.Hull + d.Shields
			}
		}
	}
	return float64(n)
}
