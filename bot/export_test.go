package bot

import (
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// LookInto returns a copy of m that a bot deciding for the seat looks into.
func LookInto(m game.Match, seat int, r *rng.Stream) (game.Match, error) {
	return newCopier(m, seat).copy(r)
}

// Advised returns the options an MCTS bot searches the match with: its
// own, with the match's advice filling in what they leave unset.
func Advised(b Bot, m game.Match) Options { return b.(mctsBot).advised(m) }
