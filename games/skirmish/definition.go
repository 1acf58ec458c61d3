package skirmish

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// Placement is a creature in an encounter: its key (the id commands use),
// its name for players, its side and its square.
type Placement struct {
	Key string
	// Name is what players read: the encounter's name for the combatant,
	// or one made from its key ("goblin-1" is "Goblin 1").
	Name       string
	Creature   *Creature
	Side       int
	At         Cell
	Conditions []ConditionUse
}

// Definition is an encounter file, loaded and checked: the map, the sides
// (one seat each, in order) and the combatants. It is the compiled game of
// the pack: immutable, and shared by every match started from it.
type Definition struct {
	// File is the encounter file, as diagnostics name it.
	File        string
	Name        string
	Description string
	// HowToPlay tells players how the fight is played, if the file says.
	HowToPlay  string
	Grid       *Grid
	Sides      []string
	Placements []Placement
	// RollInitiative rolls initiative; otherwise combatants act in the
	// order they are listed.
	RollInitiative bool
	// MaxRounds ends the encounter in a draw after that many rounds,
	// unless a match is started with a limit of its own.
	MaxRounds int
	// Conditions are the encounter's own condition definitions.
	Conditions []*status.Def

	p *Pack
}

// Info describes the encounter: its sides are the seats, all of them
// played.
func (d *Definition) Info() game.Info {
	return game.Info{Pack: PackName, Name: d.Name, Description: d.Description, HowToPlay: d.HowToPlay,
		MinPlayers: len(d.Sides), MaxPlayers: len(d.Sides), Roles: slices.Clone(d.Sides),
		DefaultMaxRounds: d.MaxRounds,
		Size:             fmt.Sprintf("%d combatants on a %d×%d map", len(d.Placements), d.Grid.Width, d.Grid.Height)}
}

// MapView is the map as a page draws it.
type MapView struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Walls are the squares that are walls, row by row.
	Walls []Cell `json:"walls"`
}

// mapView returns the map for the page.
func (d *Definition) mapView() MapView {
	v := MapView{Width: d.Grid.Width, Height: d.Grid.Height, Walls: []Cell{}}
	for y := range d.Grid.Height {
		for x := range d.Grid.Width {
			if c := (Cell{x, y}); d.Grid.Wall(c) {
				v.Walls = append(v.Walls, c)
			}
		}
	}
	return v
}

// Drawing is the map (a MapView); the combatants are in every match's
// view.
func (d *Definition) Drawing() any { return d.mapView() }

// location is a square as the engine's events carry it: its index in the
// map, row by row.
func (d *Definition) location(c Cell) engine.LocationID {
	if !d.Grid.In(c) {
		return engine.NoLocation
	}
	return engine.LocationID(c[1]*d.Grid.Width + c[0])
}

// cell is the square of an event's location.
func (d *Definition) cell(l engine.LocationID) (Cell, bool) {
	if l < 0 || int(l) >= d.Grid.Width*d.Grid.Height {
		return Cell{}, false
	}
	return Cell{int(l) % d.Grid.Width, int(l) / d.Grid.Width}, true
}

// Start begins a match (see NewMatch).
func (d *Definition) Start(s game.Setup) (game.Match, error) {
	m, err := d.NewMatch(s)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// NewMatch starts a fight: one player per side, in the order of the
// sides; the combatants take their places, and the encounter starts
// (starting conditions, initiative, the first turn). The setup's seed
// seeds the dice; its dice are scripted d20 and damage dice, rolled before
// any random one; its round limit replaces the encounter's.
func (d *Definition) NewMatch(s game.Setup) (*Match, error) {
	if err := d.Info().CheckPlayers(len(s.Players)); err != nil {
		return nil, fmt.Errorf("%w (one per side: %s)", err, joinAnd(d.Sides))
	}
	if err := engine.CheckPlayers(s.Players); err != nil {
		return nil, err
	}
	g := &State{Def: d, p: d.p, Turn: -1, Winner: engine.NoPlayer, Dice: slices.Clone(s.Dice), MaxRounds: s.MaxRounds}
	if g.MaxRounds <= 0 {
		g.MaxRounds = d.MaxRounds
	}
	g.defs = slices.Concat(d.Conditions, d.p.cond.standard)
	for i := range d.Placements {
		p := &d.Placements[i]
		g.Fighters = append(g.Fighters, newCombatant(g.Registry.Add(p.Key, KindCombatant), p))
	}
	e := engine.NewMatch(d.p.rules, g, s.Seed, slices.Clone(s.Players))
	g.book = status.NewBook(g, e.Index, d.p.ev.applied, d.p.ev.removed)
	for _, f := range g.Fighters {
		if f.Creature.OpportunityAttacks && f.meleeWeapon() != nil {
			e.Index.Add(d.p.opportunity, f.ID, f.Side, engine.NoLocation, int64(f.ID))
		}
	}
	if err := e.Run(engine.NoPlayer, d.p.fx.start.Call(struct{}{})); err != nil {
		return nil, err
	}
	return &Match{Engine: e, State: g, def: d}, nil
}
