package sim

import (
	"math"

	"github.com/tabulagames/tabula/game"
)

// PlaceFigures is what one place, piece or seat did (game.Placer), over
// the games played to their end.
type PlaceFigures struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
	Seat int    `json:"seat"`
	// Games is the number of games played to their end that had it.
	Games   int      `json:"games"`
	Figures []Figure `json:"figures"`
}

// Figure is one figure of a place: its total over the games played to
// their end, its mean per game with the 95% interval of that mean, and
// the most it reached in one game.
type Figure struct {
	Name    string  `json:"name"`
	Total   float64 `json:"total"`
	PerGame float64 `json:"perGame"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Max     float64 `json:"max"`
}

// Beyond reports whether two figures differ beyond the noise: their 95%
// intervals do not overlap.
func (f Figure) Beyond(g Figure) bool { return f.High < g.Low || g.High < f.Low }

// Figure returns the place's figure of that name, and whether it has one.
func (p *PlaceFigures) Figure(name string) (Figure, bool) {
	for _, f := range p.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// placeSum is a place being summed: per figure its total, the sum of its
// squares (for the interval) and its largest value in one game.
type placeSum struct {
	place           game.Place
	games           int
	total, sq, most []float64
}

// places adds up the places of the games folded, in game order. Games of
// one definition share one layout, so that a game's counts are added by
// index; a new layout (another number of players) is matched by kind and
// id once.
type places struct {
	sums   []placeSum
	index  map[[2]string]int
	layout []game.Place
	// at maps the layout's places to sums.
	at []int
}

// add folds one game's counts, laid out by layout.
func (ps *places) add(layout []game.Place, counts []float64) {
	if len(layout) == 0 {
		return
	}
	if len(ps.layout) != len(layout) || &ps.layout[0] != &layout[0] {
		if ps.index == nil {
			ps.index = map[[2]string]int{}
		}
		ps.layout, ps.at = layout, ps.at[:0]
		for _, pl := range layout {
			k := [2]string{pl.Kind, pl.ID}
			j, ok := ps.index[k]
			if !ok {
				j = len(ps.sums)
				ps.index[k] = j
				n := len(pl.Figures)
				ps.sums = append(ps.sums, placeSum{place: pl,
					total: make([]float64, n), sq: make([]float64, n), most: make([]float64, n)})
			}
			ps.at = append(ps.at, j)
		}
	}
	for i := range layout {
		pl := &layout[i]
		s := &ps.sums[ps.at[i]]
		s.games++
		n := min(len(pl.Figures), len(s.total))
		total, sq, most := s.total[:n], s.sq[:n], s.most[:n]
		for k, v := range counts[pl.First : pl.First+n] {
			// Most figures of a game are 0, which changes no sum (the
			// most starts at 0): they are skipped.
			if v != 0 {
				total[k] += v
				sq[k] += v * v
				most[k] = max(most[k], v)
			}
		}
	}
}

// report returns the figures, per game over played games.
func (ps *places) report(played int) []PlaceFigures {
	out := make([]PlaceFigures, 0, len(ps.sums))
	for i := range ps.sums {
		s := &ps.sums[i]
		p := PlaceFigures{Kind: s.place.Kind, ID: s.place.ID, Name: s.place.Name, Seat: s.place.Seat, Games: s.games,
			Figures: make([]Figure, len(s.total))}
		for k := range s.total {
			mean, lo, hi := meanInterval(s.total[k], s.sq[k], played)
			p.Figures[k] = Figure{Name: s.place.Figures[k], Total: round(s.total[k], 3), PerGame: round(mean, 3),
				Low: round(lo, 3), High: round(hi, 3), Max: round(s.most[k], 3)}
		}
		out = append(out, p)
	}
	return out
}

// meanInterval returns the mean of n values of the given sum and sum of
// squares (values missing from a game count 0) and its 95% interval, by
// the normal approximation with the sample's standard deviation.
func meanInterval(sum, sq float64, n int) (mean, low, high float64) {
	if n <= 0 {
		return 0, 0, 0
	}
	nf := float64(n)
	mean = sum / nf
	if n < 2 {
		return mean, mean, mean
	}
	v := max(0, (sq-sum*sum/nf)/(nf-1))
	half := 1.96 * math.Sqrt(v/nf)
	return mean, mean - half, mean + half
}

// tallyFigures are the figures of a place made from a game.Tally.
var tallyFigures = []string{"firings", "damage", "kills"}

// tallyPlaces lays out the tallies of a game that counts no places
// (game.Placer) as places, a piece per tally, named by its kind and name
// as the report's pieces are, so that every game that counts anything has
// where things happen.
func tallyPlaces(tallies []game.Tally, counts []float64) ([]game.Place, []float64) {
	layout := make([]game.Place, 0, len(tallies))
	seen := make(map[[2]string]int, len(tallies))
	for _, t := range tallies {
		k := [2]string{t.Kind, t.Name}
		if i, ok := seen[k]; ok {
			// Two pieces of one name (two goblins) are one place, whoever
			// owns them.
			if layout[i].Seat != t.Seat {
				layout[i].Seat = -1
			}
			first := layout[i].First
			counts[first] += float64(t.Firings)
			counts[first+1] += float64(t.Damage)
			counts[first+2] += float64(t.Kills)
			continue
		}
		seen[k] = len(layout)
		layout = append(layout, game.Place{ID: t.Name, Name: t.Name, Kind: t.Kind, Seat: t.Seat, Figures: tallyFigures, First: len(counts)})
		counts = append(counts, float64(t.Firings), float64(t.Damage), float64(t.Kills))
	}
	return layout, counts
}
