package skirmish

import (
	"cel.dev/cel-go/cel"
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/internal/celcost"
)

// TestSchemaBoundsStrings: the schema bounds every string as the loader
// does.
func TestSchemaBoundsStrings(t *testing.T) {
	gametest.CheckSchemaStrings(t, Schema, stringLimits)
}

// TestStringLimits: a string longer than its member's limit is one error
// at its place that says the limit.
func TestStringLimits(t *testing.T) {
	load := func(members string) diag.List {
		src, err := game.FromBytes("e.json", encounter(0, members, "", nil), game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		_, list := testPack.Load(src)
		return list
	}
	// The combatants' file does not exist: those errors, then the string's.
	base := load("")
	for _, c := range []struct{ members, want string }{
		{fmt.Sprintf(`"description": %q, "conditions": [{"name": %q}],`, strings.Repeat("é", maxText), strings.Repeat("a", maxName)), ""},
		{fmt.Sprintf(`"description": %q,`, strings.Repeat("x", maxText+1)), "/description: must be at most 2000 characters long, not 2001"},
		{fmt.Sprintf(`"conditions": [{"name": %q}],`, strings.Repeat("a", maxName+1)), "/conditions/0/name: must be at most 100 characters long, not 101"},
	} {
		list := load(c.members)
		if c.want == "" && len(list) != len(base) || c.want != "" && (len(list) != len(base)+1 || !strings.Contains(list.String(), c.want)) {
			t.Errorf("got\n%s\nwant %q besides\n%s", list.String(), c.want, base.String())
		}
	}
}

// costliestWhen are conditions the loader accepts whose estimated cost
// is near the limit: strings built and compared, loops over the
// conditions creatures bear, a regular expression as complex as allowed.
var costliestWhen = []string{
	`source.conditions.exists(c, c == 'x')`,
	`(source.name + source.side + source.key + target.name).contains(target.name + target.side + target.key + source.key)`,
	`[source.name, source.side, source.key, target.name, target.side, target.key, context.weapon].exists(s, s.matches('^((a|aa)*(a+)+[b-z0-9]{1,70}){1,3}$'))`,
	`target.name in source.conditions && source.side in target.conditions && context.weapon in source.conditions`,
}

// TestCostliestWhen: the costliest conditions the loader accepts, run on
// creatures with the longest names bearing every condition there can be,
// cost no more than the limit and allocate little; run on more conditions
// than there can be, the limit stops them.
func TestCostliestWhen(t *testing.T) {
	conds := make([]string, maxConditions+20)
	for i := range conds {
		conds[i] = fmt.Sprintf("%0*d", maxName, i)
	}
	name := strings.Repeat("a", maxName)
	view := &CreatureView{Key: name, Name: name, Side: name, Conditions: conds}
	vars := &whenVars{source: view, target: view, context: &ContextView{Weapon: name}}
	celcost.CheckCostliest(t, whenEnv, whenSizes, MaxWhenCost, MaxWhenCost/16, costliestWhen, func(src string) cel.Program {
		w, problems := CompileWhen(src)
		if problems != nil {
			t.Fatalf("%s: %v", src, problems)
		}
		return w.prg
	}, vars)
	view.Conditions = append(conds, conds...)
	view.Conditions = append(view.Conditions, view.Conditions...)
	w, _ := CompileWhen(costliestWhen[0])
	if _, _, err := w.prg.Eval(vars); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("a condition over 4 times as many conditions as there can be: %v, want the cost limit", err)
	}
}

// BenchmarkCostliestWhen measures the costliest conditions the loader
// accepts, on creatures with the longest names bearing every condition
// there can be.
func BenchmarkCostliestWhen(b *testing.B) {
	conds := make([]string, maxConditions+20)
	for i := range conds {
		conds[i] = fmt.Sprintf("%0*d", maxName, i)
	}
	name := strings.Repeat("a", maxName)
	view := &CreatureView{Key: name, Name: name, Side: name, Conditions: conds}
	vars := &whenVars{source: view, target: view, context: &ContextView{Weapon: name}}
	for i, src := range costliestWhen {
		b.Run(fmt.Sprint(i), func(b *testing.B) {
			w, _ := CompileWhen(src)
			b.ReportAllocs()
			for b.Loop() {
				w.prg.Eval(vars)
			}
		})
	}
}
