package rulebook

import (
	"cmp"
	"math"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Where things happen on the board (game.Placer), for the simulator: per
// tile the moves that ended there (walks, jumps, teleports), the tiles
// walked over and the purchases, counted from the match's log.

var (
	_ game.Placer = (*Match)(nil)
	_ game.Mapper = (*Definition)(nil)

	tileFigures = []string{"landings", "passes", "purchases"}
)

// tilePlaces is what a definition's matches count per tile.
type tilePlaces struct {
	layout                   []game.Place
	landed, passed, bought   engine.EventType
	hasLanded, hasPassed, ok bool
}

// buildPlaces lays out the tiles' figures, once the event types are known.
func (d *Definition) buildPlaces() {
	t := &tilePlaces{}
	for i, tile := range d.File.Board.Tiles {
		t.layout = append(t.layout, game.Place{ID: tile.ID, Name: cmp.Or(tile.Name, tile.ID), Kind: "tile", Seat: -1,
			Figures: tileFigures, First: i * len(tileFigures)})
	}
	types := d.rules.Types
	t.landed, t.hasLanded = types.Lookup(TileLanded)
	t.passed, t.hasPassed = types.Lookup(TilePassed)
	t.bought, t.ok = types.Lookup(TileBought)
	d.places = t
}

// Places returns where things happened in the match so far
// (game.Placer), counting the log's records not yet counted.
func (m *Match) Places() game.Places {
	t := m.def.places
	if t == nil {
		return game.Places{}
	}
	n := len(t.layout) * len(tileFigures)
	if len(m.placeCounts) != n {
		m.placeCounts, m.placeSeen = make([]float64, n), 0
	}
	recs := m.eng.Records()
	if m.placeSeen > len(recs) {
		m.placeSeen = 0 // the log was cleared: what it held is counted
	}
	for _, r := range recs[m.placeSeen:] {
		if r.Kind != engine.RecEvent {
			continue
		}
		ev := &m.eng.Events[r.Event]
		tile := int(ev.Location)
		if tile < 0 || tile >= len(t.layout) {
			continue
		}
		switch {
		case t.hasLanded && ev.Type == t.landed:
			m.placeCounts[tile*3]++
		case t.hasPassed && ev.Type == t.passed:
			m.placeCounts[tile*3+1]++
		case t.ok && ev.Type == t.bought:
			m.placeCounts[tile*3+2]++
		}
	}
	m.placeSeen = len(recs)
	return game.Places{Places: t.layout, Counts: m.placeCounts}
}

// PlaceMap draws the tiles where the file places them, as squares on its
// grid (or in rows of ten when it places none), with the chutes and
// ladders and the ways on that are not to a neighbouring tile (game.Mapper).
func (d *Definition) PlaceMap() *game.PlaceMap {
	const cell = 64.0
	tiles := d.File.Board.Tiles
	placed := false
	for _, t := range tiles {
		placed = placed || t.X != 0 || t.Y != 0
	}
	pm := &game.PlaceMap{Kind: "tile", Shapes: make([]game.Shape, 0, len(tiles)), Links: []game.Link{}}
	at := make([][2]float64, len(tiles))
	for i, t := range tiles {
		x, y := t.X, t.Y
		if !placed {
			x, y = float64(i%10), float64(i/10)
		}
		at[i] = [2]float64{x, y}
		pm.Shapes = append(pm.Shapes, game.Shape{ID: t.ID, Name: cmp.Or(t.Name, t.ID), X: x * cell, Y: y * cell, W: cell - 6, H: cell - 6})
	}
	for i, t := range tiles {
		for _, n := range t.Next {
			j, ok := d.byID[n]
			if !ok || j == i || math.Hypot(at[j][0]-at[i][0], at[j][1]-at[i][1]) <= 1.5 {
				continue
			}
			pm.Links = append(pm.Links, game.Link{From: t.ID, To: n})
		}
		if j, ok := d.byID[t.Jump]; ok && j != i {
			pm.Links = append(pm.Links, game.Link{From: t.ID, To: t.Jump})
		}
	}
	return pm
}
