package rulebook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/internal/celcost"
)

// repeat joins parts made by part(i) with commas until they take about
// size bytes.
func repeat(size int, part func(i int) string) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(part(i))
	}
	return b.String()
}

// book is a rule book whose tiles and rules are given, and whatever else
// at its top level.
func book(tiles, rules, extra string) []byte {
	return []byte(`{"game":"rulebook",` + extra + `"board":{"tiles":[` + tiles + `]},"rules":[` + rules + `]}`)
}

const turn = `{"preset":"Turn"},{"preset":"DieMove"},{"preset":"FiniteBoardWin"}`

// pad fills a file up to about size bytes with a string member of the
// top level (too long to be allowed: one error).
func pad(size int, data []byte) []byte {
	if n := size - len(data) - 20; n > 0 {
		data = append([]byte(`{"pad":"`+strings.Repeat("p", n)+`",`), data[1:]...)
	}
	return data
}

// shapes are the adversarial rule books (docs/performance.md, "Adversarial
// game files"): each as costly as its kind can be within the limits a
// file must respect before it is even decoded (diag.MaxValues), or the
// checks it would otherwise never reach.
var shapes = []gametest.Shape{
	{Name: "long-keys", Make: func(size int) []byte {
		// One member of a quarter of the file holding as many zeros as
		// allowed, at the top and among a tile's properties.
		key := strings.Repeat("k", size/4)
		zeros := min(size/8, diag.MaxValues-100)
		return book(`{"id":"a","props":{"`+key+`":0}}`, turn, `"`+key+`":[`+strings.Repeat("0,", zeros)+`0],`)
	}},
	{Name: "dangling-refs", Make: func(size int) []byte {
		// Tiles with ids of the longest length, each naming three that do
		// not exist, and rules naming tiles that do not exist.
		id := func(i int, tail string) string { return fmt.Sprintf("%0*d%s", maxName-len(tail), i, tail) }
		tiles := repeat(size/2, func(i int) string {
			return fmt.Sprintf(`{"id":%q,"next":[%q,%q,%q]}`, id(i, ""), id(i, "x"), id(i, "y"), id(i, "z"))
		})
		rules := repeat(size/2, func(i int) string {
			return fmt.Sprintf(`{"when":{"event":"TILE_LANDED","tile":%q},"then":[{"action":"MOVE_TO","tile":%q}]}`, id(i, "w"), id(i, "v"))
		})
		return book(tiles, turn+","+rules, "")
	}},
	{Name: "one-line", Make: func(size int) []byte {
		// As many rules as allowed, on the first line, each with an event
		// and two actions that almost exist (costly to suggest names for)
		// and padding.
		n := min(maxRules-10, maxActions/2-10)
		part := func(i int) string {
			return fmt.Sprintf(`{"when":{"event":"TILE_LANDEX_%d"},"then":[{"action":"CHANGE_SCORX","amount":1},{"action":"MOVE_TX","tile":"a"}],"description":%q}`,
				i, strings.Repeat("d", max(0, size/n-150)))
		}
		var rules []string
		for i := range n {
			rules = append(rules, part(i))
		}
		return book(`{"id":"a"}`, turn+","+strings.Join(rules, ","), "")
	}},
	{Name: "deep", Make: func(size int) []byte {
		return book(`{"id":"a"}`, turn, `"x":`+strings.Repeat("[", size/2)+strings.Repeat("]", size/2)+",")
	}},
	{Name: "deep-512", Make: func(size int) []byte {
		// Nesting as deep as allowed, as many times as allowed.
		nest := strings.Repeat("[", 500) + strings.Repeat("]", 500)
		n := min(size/1000, diag.MaxValues/500-10)
		return pad(size, book(`{"id":"a"}`, turn, `"x":[`+strings.Repeat(nest+",", n)+nest+"],"))
	}},
	{Name: "long-strings", Make: func(size int) []byte {
		// A tile's id, a description and a condition of a quarter of the
		// file each, and a rule naming the long id.
		long := strings.Repeat("é", size/8)
		return book(fmt.Sprintf(`{"id":%q,"next":[%q]}`, long, long+"x"), turn+fmt.Sprintf(`,{"when":{"event":"START_GAME"},"if":%q,"then":[{"action":"MOVE_TO","tile":%q}]}`, "player.name == '"+long+"'", long), fmt.Sprintf(`"description":%q,`, long))
	}},
	{Name: "many-bad-tiles", Make: func(size int) []byte {
		// As many tiles as allowed, each with a jump to nowhere, a
		// property of another type, a member of none and a long name,
		// and every other one with another's id.
		tiles := repeat(size, func(i int) string {
			if i >= maxTiles {
				return `{"id":"x"}`
			}
			return fmt.Sprintf(`{"id":"t%d","jump":"t%dx","props":{"p":"x"},"nxt":1,"name":%q}`, i/2, i, strings.Repeat("n", maxName+1))
		})
		return book(tiles, turn, "")
	}},
	{Name: "jump-circle", Make: func(size int) []byte {
		// Tiles whose jumps go round one circle of as many tiles as the
		// size allows.
		n := min(maxTiles, size/(2*maxName+30))
		id := func(i int) string { return fmt.Sprintf("%0*d", maxName, i%n) }
		var tiles []string
		for i := range n {
			tiles = append(tiles, fmt.Sprintf(`{"id":%q,"jump":%q}`, id(i), id(i+1)))
		}
		return book(strings.Join(tiles, ","), turn, "")
	}},
	{Name: "many-conditions", Valid: true, Make: func(size int) []byte {
		// A valid game with a condition and an expression on every rule,
		// as many different ones as allowed.
		n := celcost.MaxConditions/2 - 10 // the presets have a few
		return book(`{"id":"a","next":["b"]},{"id":"b"}`, turn+","+repeat(size, func(i int) string {
			return fmt.Sprintf(`{"when":{"event":"TILE_LANDED"},"if":"player.score > %d && tile.id != 'b'","then":[{"action":"CHANGE_SCORE","amount":"player.score %% 7 + %d"}]}`, i%n, i%n)
		}), "")
	}},
	{Name: "too-many-conditions", Make: func(size int) []byte {
		// Different conditions on every rule, more than allowed.
		return book(`{"id":"a","next":["b"]},{"id":"b"}`, turn+","+repeat(size, func(i int) string {
			return fmt.Sprintf(`{"when":{"event":"TILE_LANDED"},"if":"player.score > %d && tile.id != 'b'","then":[{"action":"CHANGE_SCORE","amount":"player.score %% 7 + %d"}]}`, i, i)
		}), "")
	}},
	{Name: "tiny-objects", Make: func(size int) []byte {
		// Empty tiles, rules, events, decks and actions: the most values
		// for the size.
		empty := func(size int) string { return repeat(size, func(int) string { return "{}" }) }
		return book(empty(size/5), turn+","+empty(size/5)+`,{"when":{"event":"START_GAME"},"then":[`+empty(size/5)+"]}",
			`"events":[`+empty(size/5)+`],"decks":[{"name":"d","cards":[`+empty(size/5)+"]}],")
	}},
	{Name: "event-chain", Valid: true, Make: func(size int) []byte {
		// A valid game whose rules go from one declared event to the
		// next, a chain as long as allowed, for the analysis of loops.
		n := min(size/100, maxEvents-10)
		var events, rules []string
		for i := range n {
			events = append(events, fmt.Sprintf(`{"name":"E%d"}`, i))
			rules = append(rules, fmt.Sprintf(`{"when":{"event":"E%d"},"then":[{"action":"EMIT","event":"E%d"}]}`, i, (i+1)%n))
		}
		rules[n-1] = fmt.Sprintf(`{"when":{"event":"E%d"},"then":[{"action":"ROLL_DIE"}]}`, n-1)
		return book(`{"id":"a","next":["b"]},{"id":"b"}`, turn+",{\"when\":{\"event\":\"START_TURN\"},\"then\":[{\"action\":\"EMIT\",\"event\":\"E0\"}]},"+strings.Join(rules, ","),
			`"events":[`+strings.Join(events, ",")+"],")
	}},
}

// TestAdversarialFiles: every adversarial shape is refused (or, for the
// valid ones, accepted) with its diagnostics capped, at a cost in
// proportion to its size.
func TestAdversarialFiles(t *testing.T) {
	gametest.CheckShapes(t, pack, shapes)
	gametest.CheckStopped(t, pack, shapes[len(shapes)-2])
}

// BenchmarkAdversarialFiles measures loading each shape at 2 MiB
// (docs/performance.md).
func BenchmarkAdversarialFiles(b *testing.B) {
	gametest.BenchmarkShapes(b, pack, shapes)
}
