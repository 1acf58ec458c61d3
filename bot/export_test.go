package bot

import (
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// LookInto returns a copy of m that a bot deciding for the seat looks into.
func LookInto(m game.Match, seat int, r *rng.Stream) (game.Match, error) {
	return newCopier(m, seat).copy(r)
}

// GameSeed is the seed of game i of a duel of the given seed.
func GameSeed(seed uint64, i int) uint64 { return gameSeed(seed, i) }
