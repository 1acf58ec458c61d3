package main

import (
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/lanes"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/rulebook"
	"github.com/tabulagames/tabula/games/skirmish"
)

// packs are the game packs Tabula knows, in the order they are tried on a
// file: the one list every command is given.
func packs() game.Packs {
	return game.Packs{party.NewPack(), rulebook.NewPack(), lanes.NewPack(), skirmish.NewPack()}
}
