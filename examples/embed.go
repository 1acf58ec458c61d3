// Package examples holds the example game files that ship with Tabula. The
// server offers every game here to play; the scenario files beside them are
// run by `tabula test examples/`.
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

// Lanes holds the bundled drone lane games (lanes/*.json). Lane scenario
// files that name no game file are played with lanes/drone-lanes.json.
//
//go:embed lanes/*.json
var Lanes embed.FS

// Skirmish holds the example skirmishes: the encounters
// (skirmish/*.encounter.json) and the combatant files they use
// (skirmish/*.json). An encounter is loaded with the combatants it names,
// from the same folder.
//
//go:embed skirmish/*.json
var Skirmish embed.FS

// Pieces holds the example games of pieces (pieces/*.json): Trouble, and a
// small board of crossroads, slides and trap doors for several pieces each.
//
//go:embed pieces/*.json
var Pieces embed.FS

// Games holds every bundled game, in a folder per pack: what the server
// offers everybody. A skirmish's encounters come with the combatant files
// they name.
//
//go:embed party/*.json rulebook/*.json lanes/*.json skirmish/*.json pieces/*.json
var Games embed.FS
