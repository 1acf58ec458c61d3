package party

import "github.com/tabulagames/tabula/engine/rng"

// Segment is a piece of an expanded message.
type Segment struct{ Text, Color string }

// ExpandMessage is a stand-in until placeholders land.
func ExpandMessage(msg, current string, r *rng.Stream) []Segment { return []Segment{{Text: msg}} }

// PlainText joins segments.
func PlainText(s []Segment) string {
	out := ""
	for _, x := range s {
		out += x.Text
	}
	return out
}
