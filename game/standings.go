package game

import (
	"slices"
	"strconv"
)

// Ranker is a Match that ranks its seats with the figures its game counts
// (money, drinks, ship damage, hit points, pieces home): what the end
// screen and the end of `tabula play` show. Matches without one are ranked
// by their outcome alone (StandingsOf).
type Ranker interface {
	// Standings ranks the seats now; it is meant for a match that is over
	// but may be asked at any time.
	Standings() Standings
}

// Standings rank the seats of a match.
type Standings struct {
	// Figures name the columns, in the players' words ("money", "pieces
	// home"); every Standing has one value for each.
	Figures []string `json:"figures"`
	// Seats are every seat, best first.
	Seats []Standing `json:"seats"`
}

// Standing is one seat's place and figures.
type Standing struct {
	Seat int `json:"seat"`
	// Place is 1 for the first; seats that tie share a place, and the next
	// place counts them (1, 1, 3).
	Place int `json:"place"`
	// Values are the seat's figures, as players read them ("1500",
	// "7/13"), in the order of Standings.Figures.
	Values []string `json:"values"`
	// Note says more where the figures do not ("bankrupt", "finished
	// 2nd"); "" if nothing.
	Note string `json:"note,omitempty"`
}

// StandingsOf ranks the seats of a match: by its Ranker if it is one,
// else by its outcome (the winners first, then everybody else).
func StandingsOf(m Match, seats int) Standings {
	if r, ok := m.(Ranker); ok {
		return r.Standings()
	}
	winners := m.Outcome().Winners
	keys := make([]int, seats)
	for i := range keys {
		if slices.Contains(winners, i) {
			keys[i] = 1
		}
	}
	return Rank(seats, func(a, b int) int { return keys[b] - keys[a] }, nil, nil)
}

// Rank orders seats by cmp (negative: a ranks before b; zero: they tie),
// seat order breaking ties in the list but not in the places, and gives
// each the values and the note of its seat (either function may be nil).
// Packs build their Standings with it.
func Rank(seats int, cmp func(a, b int) int, values func(seat int) []string, note func(seat int) string) Standings {
	order := make([]int, seats)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, cmp)
	st := Standings{Figures: []string{}, Seats: make([]Standing, 0, seats)}
	for i, seat := range order {
		place := i + 1
		if i > 0 && cmp(order[i-1], seat) == 0 {
			place = st.Seats[i-1].Place
		}
		s := Standing{Seat: seat, Place: place, Values: []string{}}
		if values != nil {
			s.Values = values(seat)
		}
		if note != nil {
			s.Note = note(seat)
		}
		st.Seats = append(st.Seats, s)
	}
	return st
}

// Ordinal writes a place as people say it: 1st, 2nd, 3rd, 11th.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
