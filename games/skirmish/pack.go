// Package skirmish is the pack of d20 skirmishes: creatures on a square
// grid take turns in initiative order, move square by square, attack with
// weapons and come under conditions, each side played by one player (or
// bot). An encounter file names its combatant files; together they are one
// game (see docs/skirmish.md).
package skirmish

import (
	"encoding/json"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// PackName is the pack's name, as files write it in "game".
const PackName = "skirmish"

// Pack is the skirmish pack (game.Pack). It holds its registries: event
// types, effects, actions, the standard conditions and the opportunity
// attack, built once by NewPack and shared by every game it loads.
type Pack struct {
	types   *engine.Types
	effects *engine.Effects
	rules   *engine.Rules
	ev      eventTypes
	fx      effectSet
	actions actionSet
	cond    conditionSet
	// opportunity is the opportunity-attack reaction every combatant that
	// makes them carries.
	opportunity *engine.Trigger
}

// NewPack returns the pack, with registries of its own.
func NewPack() *Pack {
	p := &Pack{}
	p.buildRules()
	return p
}

// Name is "skirmish".
func (p *Pack) Name() string { return PackName }

// Detect claims JSON files whose "game" is "skirmish": encounters and
// combatants alike (Load tells a combatant file it is not a game).
func (p *Pack) Detect(src *game.Source) bool {
	if src.IsDir() {
		return false
	}
	data, err := src.Data()
	if err != nil {
		return false
	}
	var head fileHead
	return json.Unmarshal(data, &head) == nil && head.Game == PackName
}

// Schemas is the JSON Schema of skirmish files, printed by `tabula schema
// skirmish`.
func (p *Pack) Schemas() []game.Schema {
	return []game.Schema{{Name: PackName, Data: Schema}}
}

// Load reads an encounter file and the combatant files it names, through
// src, so that src.Archive() holds them all. It returns the definition, or
// nil and every problem found; a combatant file alone is not a game.
func (p *Pack) Load(src *game.Source) (game.Definition, diag.List) {
	def, list := p.LoadEncounter(src)
	if def == nil {
		return nil, list
	}
	return def, list
}

// LoadEncounter is Load with the definition's own type.
func (p *Pack) LoadEncounter(src *game.Source) (*Definition, diag.List) {
	l := p.newLoader(src)
	x := l.file(src.Main())
	l.list.Sort()
	if l.list.HasErrors() {
		return nil, l.list
	}
	def, ok := x.(*Definition)
	if !ok {
		return nil, append(l.list, diag.Diagnostic{File: src.Name(), Severity: diag.Error, Pointer: "/kind",
			Message: "this is a combatant file, not a game: give an encounter file (\"kind\": \"encounter\") that uses it"})
	}
	return def, l.list
}

// Validate checks any skirmish file, a combatant on its own or an
// encounter with the combatant files it uses, and returns every problem
// found.
func (p *Pack) Validate(src *game.Source) diag.List {
	l := p.newLoader(src)
	l.file(src.Main())
	l.list.Sort()
	return l.list
}
