package main

import (
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/lanes"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/pieces"
	"github.com/tabulagames/tabula/games/rulebook"
	"github.com/tabulagames/tabula/games/skirmish"
)

// packs are the game packs Tabula knows, in the order they are tried on a
// file: the one list every command is given. Pieces comes before party:
// both read the original game's v3 files, and pieces claims those whose
// engine is trouble or multi-piece.
func packs() game.Packs {
	return game.Packs{pieces.NewPack(), party.NewPack(), rulebook.NewPack(), lanes.NewPack(), skirmish.NewPack()}
}
