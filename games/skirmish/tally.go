package skirmish

import (
	"strconv"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Where things happen in a fight (game.Placer), for the simulator: per
// creature the attacks it made, the damage it dealt and took, the
// creatures it took out and whether it fell; per square of the map the
// damage taken there and the creatures that fell there. The creatures'
// own counts are theirs; the rest is read from the match's log.

var (
	_ game.Placer = (*Match)(nil)
	_ game.Mapper = (*Definition)(nil)

	creatureFigures = []string{"attacks", "dealt", "taken", "knockouts", "fell"}
	squareFigures   = []string{"damage", "falls"}
)

// Places returns where things happened in the match so far (game.Placer).
// It reads the whole log: a fight's is short.
func (m *Match) Places() game.Places {
	g, d := m.State, m.def
	fighters := g.Fighters
	squares := d.Grid.Width * d.Grid.Height
	var out game.Places
	at := 0
	index := make(map[engine.EntityID]int, len(fighters))
	for i, f := range fighters {
		index[f.ID] = i
		out.Places = append(out.Places, game.Place{ID: f.Key, Name: f.Key, Kind: "creature", Seat: int(f.Side), Figures: creatureFigures, First: at})
		at += len(creatureFigures)
		out.Counts = append(out.Counts, float64(f.Attacks), float64(f.Dealt), 0, float64(f.KnockOuts), 0)
	}
	squareAt := at
	for l := range squares {
		c, _ := d.cell(engine.LocationID(l))
		id := strconv.Itoa(c[0]) + "," + strconv.Itoa(c[1])
		out.Places = append(out.Places, game.Place{ID: id, Name: "square " + id, Kind: "square", Seat: -1, Figures: squareFigures, First: at})
		at += len(squareFigures)
	}
	out.Counts = append(out.Counts, make([]float64, squares*len(squareFigures))...)
	e := m.Engine
	for _, r := range e.Records() {
		if r.Kind != engine.RecEvent {
			continue
		}
		ev := &e.Events[r.Event]
		var fig int
		switch ev.Type {
		case g.p.ev.damage:
			fig = 0
			if i, ok := index[ev.Subject]; ok {
				out.Counts[i*len(creatureFigures)+2] += float64(ev.Amount)
			}
		case g.p.ev.death:
			fig = 1
			if i, ok := index[ev.Subject]; ok {
				out.Counts[i*len(creatureFigures)+4]++
			}
		default:
			continue
		}
		if l := int(ev.Location); l >= 0 && l < squares {
			amount := 1.0
			if fig == 0 {
				amount = float64(ev.Amount)
			}
			out.Counts[squareAt+l*len(squareFigures)+fig] += amount
		}
	}
	return out
}

// PlaceMap draws the map's squares, walls left out (game.Mapper).
func (d *Definition) PlaceMap() *game.PlaceMap {
	const cell = 36.0
	pm := &game.PlaceMap{Kind: "square", Shapes: []game.Shape{}, Links: []game.Link{}}
	for y := range d.Grid.Height {
		for x := range d.Grid.Width {
			c := Cell{x, y}
			if d.Grid.Wall(c) {
				continue
			}
			id := strconv.Itoa(x) + "," + strconv.Itoa(y)
			pm.Shapes = append(pm.Shapes, game.Shape{ID: id, Name: "square " + id, X: float64(x) * cell, Y: float64(y) * cell, W: cell - 2, H: cell - 2})
		}
	}
	return pm
}
