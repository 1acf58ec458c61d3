package main

import (
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// packs are the game packs the command line knows, in the order they are
// tried on a file.
func packs() game.Packs {
	return game.Packs{gametest.NewNim()}
}
