package skirmish

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/internal/celcost"
)

// encounter is an encounter file with the given members (raw JSON, each
// followed by a comma) and parts made by part(i), for the array member
// add, until it takes about size bytes or part gives "" (then a string
// member fills the file up).
func encounter(size int, members, add string, part func(i int) string) []byte {
	head := `{"game":"skirmish","kind":"encounter","name":"e","map":["........","........"],"sides":["a","b"],` + members
	two := `"combatants":[{"id":"x","file":"x.json","side":"a","at":[0,0]},{"id":"y","file":"x.json","side":"b","at":[1,0]}]`
	if add == "" {
		return []byte(head + two + "}")
	}
	var b strings.Builder
	for i := 0; b.Len()+len(head) < size; i++ {
		p := part(i)
		if p == "" {
			head += `"pad":"` + strings.Repeat("p", max(0, size-b.Len()-len(head)-100)) + `",`
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p)
	}
	if add != "combatants" {
		head += two + ","
	}
	return []byte(head + `"` + add + `":[` + b.String() + "]}")
}

// long is a name of the longest length allowed, ending with tail.
func long(i int, tail string) string { return fmt.Sprintf("n%0*d%s", maxName-1-len(tail), i, tail) }

// shapes are the adversarial skirmish files (docs/performance.md,
// "Adversarial game files"): each as costly as its kind can be within the
// limits a file must respect (diag.MaxValues, the counts), or the checks
// it would otherwise never reach.
var shapes = []gametest.Shape{
	{Name: "long-keys", Make: func(size int) []byte {
		key := strings.Repeat("k", size/4)
		zeros := min(size/8, diag.MaxValues-100)
		return encounter(size, `"`+key+`":[`+strings.Repeat("0,", zeros)+`0],`, "", nil)
	}},
	{Name: "dangling-refs", Make: func(size int) []byte {
		// As many combatants as allowed, on sides, in files and with
		// conditions that do not exist, all of the longest names.
		n := maxCombatants
		return encounter(size, "", "combatants", func(i int) string {
			if i >= n {
				return ""
			}
			return fmt.Sprintf(`{"id":%q,"file":%q,"side":%q,"at":[%d,%d],"conditions":[%q,%q]}`,
				long(i, ""), long(i, ".json"), long(i, "s"), i%8, i%2, long(i, "c"), long(i, "d"))
		})
	}},
	{Name: "one-line", Make: func(size int) []byte {
		// As many condition definitions and modifiers as allowed, on one
		// line, each modifier of a value that almost exists with a
		// condition that does not compile.
		per := maxModifiers / maxConditions
		return encounter(size, "", "conditions", func(i int) string {
			if i >= maxConditions {
				return ""
			}
			mods := strings.TrimSuffix(strings.Repeat(`{"value":"atack","channel":"self_contextual","bonus":1,"when":"context.distanse <= 5"},`, per), ",")
			return fmt.Sprintf(`{"name":"c%d","modifiers":[%s]}`, i, mods)
		})
	}},
	{Name: "deep", Make: func(size int) []byte {
		return encounter(size, `"x":`+strings.Repeat("[", size/2)+strings.Repeat("]", size/2)+",", "", nil)
	}},
	{Name: "deep-512", Make: func(size int) []byte {
		nest := strings.Repeat("[", 500) + strings.Repeat("]", 500)
		n := min(size/1000, diag.MaxValues/500-10)
		return encounter(size, `"x":[`+strings.Repeat(nest+",", n)+nest+"],", "", nil)
	}},
	{Name: "long-strings", Make: func(size int) []byte {
		long := strings.Repeat("é", size/8)
		return encounter(size, fmt.Sprintf(`"description":%q,"conditions":[{"name":%q,"modifiers":[{"value":"ac","channel":"self_contextual","bonus":1,"when":%q}]}],`,
			long, long, "source.name == '"+long+"'"), "", nil)
	}},
	{Name: "many-conditions", Make: func(size int) []byte {
		// Modifiers with conditions that compile, more different ones
		// than allowed.
		return encounter(size, "", "conditions", func(i int) string {
			if i >= maxConditions {
				return ""
			}
			var mods []string
			for j := range maxModifiers / maxConditions {
				mods = append(mods, fmt.Sprintf(`{"value":"ac","channel":"self_contextual","bonus":1,"when":"context.distance <= %d && source.hp > %d"}`, i, j))
			}
			return fmt.Sprintf(`{"name":"c%d","modifiers":[%s]}`, i, strings.Join(mods, ","))
		})
	}},
	{Name: "tiny-objects", Make: func(size int) []byte {
		return encounter(size, "", "conditions", func(int) string { return "{}" })
	}},
}

// TestAdversarialFiles: every adversarial shape is refused with its
// diagnostics capped, at a cost in proportion to its size.
func TestAdversarialFiles(t *testing.T) {
	if celcost.MaxConditions > maxModifiers {
		t.Fatal("many-conditions cannot have more conditions than allowed")
	}
	gametest.CheckShapes(t, testPack, shapes)
	gametest.CheckStopped(t, testPack, shapes[1])
}

// BenchmarkAdversarialFiles measures loading each shape at 2 MiB
// (docs/performance.md).
func BenchmarkAdversarialFiles(b *testing.B) {
	gametest.BenchmarkShapes(b, testPack, shapes)
}
