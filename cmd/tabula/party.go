package main

import (
	"github.com/tabulagames/tabula/docs/schema"
	"github.com/tabulagames/tabula/games/party"
)

// partyPack is the party board game: v1 and v3 boards and bundle folders.
// Play and Scenario are set where the game is played.
var partyPack = &pack{
	Name:     "party",
	Detect:   party.Detect,
	Validate: party.Validate,
	Schemas:  map[string][]byte{"board": schema.Board},
}

func init() { register(partyPack) }
