// Package examples holds the example game files that ship with Tabula. The
// server offers the party boards and the rule books to play; the scenario
// files beside them are run by `tabula test examples/`.
package examples

import "embed"

// Party holds the example party boards (party/*.json).
//
//go:embed party/*.json
var Party embed.FS

// Rulebook holds the example rule books (rulebook/*.json): Chutes and
// Ladders, Candy Land and a Monopoly-like game.
//
//go:embed rulebook/*.json
var Rulebook embed.FS

// Skirmish holds the example skirmishes: the encounters
// (skirmish/*.encounter.json) and the combatant files they use
// (skirmish/*.json). An encounter is loaded with the combatants it names,
// from the same folder.
//
//go:embed skirmish/*.json
var Skirmish embed.FS
