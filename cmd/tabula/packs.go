package main

import (
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/rulebook"
)

// packs are the game packs the command line knows, in the order they are
// tried on a file.
func packs() game.Packs {
	return game.Packs{rulebook.NewPack(), gametest.NewNim()}
}
