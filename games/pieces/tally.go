package pieces

import (
	"cmp"
	"slices"

	"github.com/tabulagames/tabula/game"
)

// Where things happen on the board (game.Placer), for the simulator: per
// space the moves that ended there, the captures made there and its
// triggers' firings; per seat its moves, the spaces its pieces walked and
// its captures. The counts are the match's tally.

var (
	_ game.Placer = (*Match)(nil)
	_ game.Mapper = (*Definition)(nil)

	spaceFigures = []string{"landings", "captures", "firings"}
	seatFigures  = []string{"moves", "steps", "captures"}
)

// buildLayouts lays out the places of a match of each number of players
// the board allows, shared by its matches.
func (d *Definition) buildLayouts() {
	d.layouts = make([][]game.Place, d.MaxPlayers+1)
	for n := d.MinPlayers; n <= d.MaxPlayers; n++ {
		var l []game.Place
		at := 0
		for _, sp := range d.Spaces {
			l = append(l, game.Place{ID: sp.ID, Name: cmp.Or(sp.Name, sp.ID), Kind: "space", Seat: -1, Figures: spaceFigures, First: at})
			at += len(spaceFigures)
		}
		for seat := range n {
			l = append(l, game.Place{ID: d.seatNames[seat], Name: d.seatNames[seat], Kind: "seat", Seat: seat, Figures: seatFigures, First: at})
			at += len(seatFigures)
		}
		d.layouts[n] = l
	}
}

// Places returns where things happened in the match so far
// (game.Placer).
func (m *Match) Places() game.Places {
	d := m.def
	if m.seats >= len(d.layouts) || d.layouts[m.seats] == nil {
		return game.Places{}
	}
	n := len(d.Spaces)*len(spaceFigures) + m.seats*len(seatFigures)
	if cap(m.places) < n {
		m.places = make([]float64, n)
	}
	c := m.places[:n]
	base := m.seats * tallySeat
	for sp := range d.Spaces {
		t := m.tally[base+sp*tallySpace:]
		c[sp*3], c[sp*3+1], c[sp*3+2] = float64(t[tallySpaceLandings]), float64(t[tallySpaceCaptures]), float64(t[tallySpaceFirings])
	}
	at := len(d.Spaces) * 3
	for seat := range m.seats {
		t := m.tally[seat*tallySeat:]
		c[at+seat*3], c[at+seat*3+1], c[at+seat*3+2] = float64(t[tallyMoves]), float64(t[tallySteps]), float64(t[tallyCaptures])
	}
	return game.Places{Places: d.layouts[m.seats], Counts: c}
}

// PlaceMap draws the board's spaces where the file puts them, linked as
// its drawn connections link them (game.Mapper).
func (d *Definition) PlaceMap() *game.PlaceMap {
	pm := &game.PlaceMap{Kind: "space", Shapes: make([]game.Shape, 0, len(d.Spaces)), Links: []game.Link{}}
	for _, sp := range d.Spaces {
		size := cmp.Or(sp.Size, 40)
		pm.Shapes = append(pm.Shapes, game.Shape{ID: sp.ID, Name: cmp.Or(sp.Name, sp.ID), X: sp.X, Y: sp.Y, W: size, H: size, Round: sp.Shape != "square"})
	}
	for i, sp := range d.Spaces {
		for j, to := range sp.Next {
			if !sp.Draw[j] || to == i {
				continue
			}
			both := slices.Contains(d.Spaces[to].Next, i)
			if both && to < i {
				continue // drawn once, from the other end
			}
			pm.Links = append(pm.Links, game.Link{From: sp.ID, To: d.Spaces[to].ID, Both: both})
		}
	}
	return pm
}
