package lanes

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game/gametest"
)

// withParts returns the bundled game (on one line) with the members set
// changes, raw JSON, and parts made by part(i) added to the array member
// add until the file takes about size bytes.
func withParts(size int, changes map[string]string, add string, part func(i int) string) []byte {
	var g map[string]json.RawMessage
	if err := json.Unmarshal(bundledData(&testing.T{}), &g); err != nil {
		panic(err)
	}
	for k, v := range changes {
		g[k] = json.RawMessage(v)
	}
	base, _ := json.Marshal(g)
	if add == "" {
		return base
	}
	var b strings.Builder
	old := strings.TrimSuffix(strings.TrimPrefix(string(g[add]), "["), "]")
	b.WriteString("[" + old)
	for i := 0; b.Len()+len(base) < size; i++ {
		b.WriteString("," + part(i))
	}
	b.WriteString("]")
	g[add] = json.RawMessage(b.String())
	out, _ := json.Marshal(g)
	return out
}

// name is a name of the longest length allowed, ending with tail.
func name(i int, tail string) string { return fmt.Sprintf("D%0*d%s", maxName-1-len(tail), i, tail) }

// shapes are the adversarial lanes files (docs/performance.md,
// "Adversarial game files"): each as costly as its kind can be within the
// limits a file must respect (diag.MaxValues, the counts), or the checks
// it would otherwise never reach.
var shapes = []gametest.Shape{
	{Name: "long-keys", Make: func(size int) []byte {
		key := strings.Repeat("k", size/4)
		zeros := min(size/8, diag.MaxValues-10_000)
		return withParts(size, map[string]string{key: "[" + strings.Repeat("0,", zeros) + "0]"}, "", nil)
	}},
	{Name: "dangling-refs", Make: func(size int) []byte {
		// A squad of drones and a deck of cards that do not exist, with
		// names of the longest length, then tokens that do not exist.
		n := size / (3 * (maxName + 30))
		var squad, deck []string
		for i := range n {
			squad = append(squad, fmt.Sprintf("%q", name(i, "x")))
			deck = append(deck, fmt.Sprintf(`{"card":%q,"count":1}`, name(i, "y")))
		}
		rules := fmt.Sprintf(`{"sections":%s,"victory":{"damagePercent":50},"squad":[%s],"deck":[%s]}`,
			sections(), strings.Join(squad, ","), strings.Join(deck, ","))
		return withParts(size, map[string]string{"rules": rules}, "drones", func(i int) string {
			return fmt.Sprintf(`{"name":%q,"class":1,"attack":1,"hull":1,"shields":0,"speed":1,"abilities":[{"name":"a","type":"TRIGGERED","trigger":"ON_DEPLOY","effects":[{"type":"CREATE_TOKENS","tokenName":%q,"count":1}]}]}`, name(i, ""), name(i, "z"))
		})
	}},
	{Name: "one-line", Make: func(size int) []byte {
		// As many drones as allowed, on one line, each with abilities whose
		// trigger and effect almost exist (costly to suggest names for).
		return withParts(size, nil, "drones", func(i int) string {
			if i >= maxDrones-100 {
				return `{"name":"x","class":1,"attack":1,"hull":1,"shields":0,"speed":1}`
			}
			return fmt.Sprintf(`{"name":"d%d","class":1,"attack":1,"hull":1,"shields":0,"speed":1,"abilities":[{"name":"a","type":"TRIGGERED","trigger":"ON_DEPLOYX","effects":[{"type":"DAMAGX","value":1}]},{"name":"b","type":"TRIGGERED","trigger":"ON_ATTAKC","triggerOwner":"LANE_OWNR","effects":[{"type":"HEAL_HULX"}]}]}`, i)
		})
	}},
	{Name: "deep", Make: func(size int) []byte {
		// Deeper than encoding/json encodes: written out.
		base := withParts(size, nil, "", nil)
		return []byte(string(base[:len(base)-1]) + `,"x":` + strings.Repeat("[", size/2) + strings.Repeat("]", size/2) + "}")
	}},
	{Name: "deep-512", Make: func(size int) []byte {
		nest := strings.Repeat("[", 500) + strings.Repeat("]", 500)
		n := min(size/1000, diag.MaxValues/500-20)
		return withParts(size, map[string]string{"x": "[" + strings.Repeat(nest+",", n) + nest + "]"}, "", nil)
	}},
	{Name: "long-strings", Make: func(size int) []byte {
		long := fmt.Sprintf("%q", strings.Repeat("é", size/8))
		return withParts(size, map[string]string{"name": long, "description": long}, "drones", func(i int) string {
			if i > 0 {
				return `{"name":"short","class":1,"attack":1,"hull":1,"shields":0,"speed":1}`
			}
			return fmt.Sprintf(`{"name":%s,"class":1,"attack":1,"hull":1,"shields":0,"speed":1}`, long)
		})
	}},
	{Name: "many-bad-drones", Make: func(size int) []byte {
		// As many drones as allowed, each named like another, with a
		// lane trigger without an owner, a self trigger with one, a card
		// filter on the wrong trigger and an effect of no use there.
		return withParts(size, nil, "drones", func(i int) string {
			if i >= maxDrones-100 {
				return `{"name":"x","class":1,"attack":1,"hull":1,"shields":0,"speed":1}`
			}
			return fmt.Sprintf(`{"name":"d%d","class":1,"attack":1,"hull":1,"shields":0,"speed":1,"token":true,"abilities":[
				{"name":"a","type":"TRIGGERED","trigger":"ON_LANE_MOVEMENT_IN","effects":[{"type":"SINGLE_MOVE"}]},
				{"name":"b","type":"TRIGGERED","trigger":"ON_DEPLOY","triggerOwner":"ANY","triggerFilter":{"cardType":"Action"},"effects":[]}]}`, i/2)
		})
	}},
	{Name: "many-trigger-types", Make: func(size int) []byte {
		// As many trigger types as allowed, and abilities naming others:
		// each message names the trigger types.
		var types []string
		for i := range min(maxTriggerTypes, size/400) {
			types = append(types, fmt.Sprintf(`{"name":"T%0*d","category":"SELF","firedBy":{"statRaised":"attack"}}`, maxName-1, i))
		}
		return withParts(size, map[string]string{"triggerTypes": "[" + strings.Join(types, ",") + "]"}, "drones", func(i int) string {
			return fmt.Sprintf(`{"name":"d%d","class":1,"attack":1,"hull":1,"shields":0,"speed":1,"abilities":[{"name":"a","type":"TRIGGERED","trigger":"T%0*dX","effects":[{"type":"DAMAGE","value":1}]}]}`, i, maxName-2, i)
		})
	}},
	{Name: "tiny-objects", Make: func(size int) []byte {
		empty := func(size int) string { return "[" + strings.Repeat("{},", size/3) + "{}]" }
		return withParts(size, map[string]string{"cards": empty(size / 2), "triggerTypes": empty(size / 2)}, "", nil)
	}},
}

// sections are the bundled game's ship sections.
func sections() string {
	var g struct {
		Rules struct {
			Sections json.RawMessage `json:"sections"`
		} `json:"rules"`
	}
	json.Unmarshal(bundledData(&testing.T{}), &g)
	return string(g.Rules.Sections)
}

// TestAdversarialFiles: every adversarial shape is refused with its
// diagnostics capped, at a cost in proportion to its size.
func TestAdversarialFiles(t *testing.T) {
	gametest.CheckShapes(t, testPack, shapes)
	gametest.CheckStopped(t, testPack, shapes[len(shapes)-2])
}

// BenchmarkAdversarialFiles measures loading each shape at 2 MiB
// (docs/performance.md).
func BenchmarkAdversarialFiles(b *testing.B) {
	gametest.BenchmarkShapes(b, testPack, shapes)
}
