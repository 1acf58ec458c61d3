package party

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/internal/celcost"
)

// board is a v1 board with the given top-level members (raw JSON, each
// followed by a comma) and spaces made by space(i) until it takes about
// size bytes or space gives "" (then a string member fills it up).
func board(size int, members string, space func(i int) string) []byte {
	var b strings.Builder
	for i := 0; space != nil && b.Len()+len(members) < size; i++ {
		s := space(i)
		if s == "" {
			members += `"pad":"` + strings.Repeat("p", max(0, size-b.Len()-len(members)-100)) + `",`
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
	}
	if b.Len() == 0 {
		b.WriteString(`{"id":"end","events":[{"trigger":{"type":"ON_LAND"},"action":{"type":"SET_PLAYER_STATE","payload":{"state":"COMPLETED_GAME"}}}]}`)
	}
	return []byte(`{` + members + `"spaces":[` + b.String() + `]}`)
}

// id is an id of the longest length allowed, ending with tail.
func id(i int, tail string) string { return fmt.Sprintf("s%0*d%s", maxName-1-len(tail), i, tail) }

// plain is a space with nothing on it.
func plain(i int) string { return fmt.Sprintf(`{"id":%d}`, i) }

// shapes are the adversarial boards (docs/performance.md, "Adversarial
// game files"): each as costly as its kind can be within the limits a file
// must respect (diag.MaxValues, the counts), or the checks it would
// otherwise never reach.
var shapes = []gametest.Shape{
	{Name: "long-keys", Make: func(size int) []byte {
		key := strings.Repeat("k", size/4)
		zeros := min(size/8, diag.MaxValues-100)
		return board(size, `"`+key+`":[`+strings.Repeat("0,", zeros)+`0],`, func(i int) string {
			if i > 0 {
				return ""
			}
			return fmt.Sprintf(`{"id":1,%q:0}`, key)
		})
	}},
	{Name: "dangling-refs", Make: func(size int) []byte {
		// As many spaces as allowed, of the longest ids, each connected
		// to three that do not exist and teleporting to another.
		return board(size, "", func(i int) string {
			if i >= maxSpaces {
				return ""
			}
			return fmt.Sprintf(`{"id":%q,"connections":[{"targetId":%q},{"targetId":%q},{"targetId":%q}],"events":[{"trigger":{"type":"ON_LAND"},"action":{"type":"SET_PLAYER_SPACE","payload":{"spaceId":%q}}}]}`,
				id(i, ""), id(i, "x"), id(i, "y"), id(i, "z"), id(i, "w"))
		})
	}},
	{Name: "one-line", Make: func(size int) []byte {
		// As many events as allowed, on one line, with triggers, actions
		// and priorities that almost exist (costly to suggest names for).
		per := maxEvents / maxSpaces
		return board(size, "", func(i int) string {
			if i >= maxSpaces {
				return ""
			}
			ev := `{"trigger":{"type":"ON_LANDX"},"action":{"type":"PROMPT_CURRENT_PLAYERX","payload":{"mesage":"x"}},"priority":"VERY_HIHG","stat":1}`
			return fmt.Sprintf(`{"id":%d,"events":[%s]}`, i, strings.TrimSuffix(strings.Repeat(ev+",", per), ","))
		})
	}},
	{Name: "deep", Make: func(size int) []byte {
		return board(size, `"metadata":{"renderConfig":{"x":`+strings.Repeat("[", size/2)+strings.Repeat("]", size/2)+"}},", plain)
	}},
	{Name: "deep-512", Valid: true, Make: func(size int) []byte {
		// Nesting as deep as allowed, as many times as allowed, in a
		// member the board keeps as it is written: a valid board.
		nest := strings.Repeat("[", 500) + strings.Repeat("]", 500)
		n := min(size/1000, diag.MaxValues/500-10)
		return board(0, `"metadata":{"renderConfig":{"x":[`+strings.Repeat(nest+",", n)+nest+"]}},", nil)
	}},
	{Name: "long-strings", Make: func(size int) []byte {
		long := strings.Repeat("é", size/10)
		return board(size, fmt.Sprintf(`"metadata":{"description":%q},`, long), func(i int) string {
			if i > 0 {
				return ""
			}
			return fmt.Sprintf(`{"id":%q,"name":%q,"events":[{"trigger":{"type":"CODE","payload":%q},"action":{"type":"PROMPT_ALL_PLAYERS","payload":{"message":%q}}}]}`,
				long, long, "space.name == '"+long+"'", long)
		})
	}},
	{Name: "many-bad-spaces", Make: func(size int) []byte {
		// As many spaces as allowed, every other one with another's id,
		// each with a bad connection, an unknown member, an effect of no
		// known type and a state no event starts in.
		return board(size, "", func(i int) string {
			if i >= maxSpaces {
				return ""
			}
			return fmt.Sprintf(`{"id":%d,"nme":"x","connections":[{"target":1}],"events":[{"trigger":{"type":"ON_LAND"},"action":{"type":"APPLY_EFFECT","payload":{"effect":{"type":"SkipEffect","args":["x",1]}}},"state":"TRIGGERED"}]}`, i/2)
		})
	}},
	{Name: "many-conditions", Make: func(size int) []byte {
		// CODE conditions that compile, more different ones than allowed
		// (at any size), then as many spaces as allowed.
		return board(max(size, 200*celcost.MaxConditions), "", func(i int) string {
			if i >= maxSpaces {
				return ""
			}
			return fmt.Sprintf(`{"id":%d,"events":[{"trigger":{"type":"CODE","payload":"player.getStat('drinks') < %d && turnNumber > 1"},"action":{"type":"SET_PLAYER_STATE","payload":{"state":"COMPLETED_GAME"}}}]}`, i, i)
		})
	}},
	{Name: "tiny-objects", Make: func(size int) []byte {
		return board(size, "", func(int) string { return "{}" })
	}},
}

// TestAdversarialFiles: every adversarial shape is refused with its
// diagnostics capped, at a cost in proportion to its size.
func TestAdversarialFiles(t *testing.T) {
	if celcost.MaxConditions > maxSpaces {
		t.Fatal("many-conditions cannot have more conditions than allowed")
	}
	gametest.CheckShapes(t, NewPack(), shapes)
	gametest.CheckStopped(t, NewPack(), shapes[1])
}

// BenchmarkAdversarialFiles measures loading each shape at 2 MiB
// (docs/performance.md).
func BenchmarkAdversarialFiles(b *testing.B) {
	gametest.BenchmarkShapes(b, NewPack(), shapes)
}
