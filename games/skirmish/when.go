package skirmish

import (
	"fmt"
	"reflect"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/internal/celcost"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// The condition of a contextual modifier in a data file ("when") is a CEL
// expression over three variables:
//
//	source   the creature whose value holds the modifier
//	target   the creature it is dealing with
//	context  the interaction: weapon, ranged, distance (ft), longRange,
//	         threatened, opportunity, attackerSees, targetSees
//
// A creature has key, name, side, hp, maxHp, x, y and conditions (a list
// of names). For example: context.distance <= 5 && target.hp < target.maxHp.
// A modifier's condition is only looked at during an interaction (an
// attack, its damage); at any other time the modifier does not count.

// CreatureView is what a condition sees of a creature.
type CreatureView struct {
	Key        string   `cel:"key"`
	Name       string   `cel:"name"`
	Side       string   `cel:"side"`
	HP         int      `cel:"hp"`
	MaxHP      int      `cel:"maxHp"`
	X          int      `cel:"x"`
	Y          int      `cel:"y"`
	Conditions []string `cel:"conditions"`
}

// ContextView is what a condition sees of the interaction.
type ContextView struct {
	Weapon       string `cel:"weapon"`
	Ranged       bool   `cel:"ranged"`
	Distance     int    `cel:"distance"`
	LongRange    bool   `cel:"longRange"`
	Threatened   bool   `cel:"threatened"`
	Opportunity  bool   `cel:"opportunity"`
	AttackerSees bool   `cel:"attackerSees"`
	TargetSees   bool   `cel:"targetSees"`
}

// MaxWhenCost bounds the cost of a condition: its estimate when the file
// is loaded, and what it costs when it runs (cel-go stops it there; it
// then does not hold).
const MaxWhenCost = 10_000

// whenSizes are the largest values a condition sees: every string is a
// name of the files (a key, a creature's name, a side, a condition, a
// weapon), and a creature bears at most every condition there is.
var whenSizes = celcost.Sizes{String: maxName, List: maxConditions + 20}

var whenEnv = func() *cel.Env {
	e, err := cel.NewEnv(append(celcost.Options(),
		ext.NativeTypes(reflect.TypeFor[CreatureView](), reflect.TypeFor[ContextView](), ext.ParseStructTags(true)),
		cel.Variable("source", cel.ObjectType("skirmish.CreatureView")),
		cel.Variable("target", cel.ObjectType("skirmish.CreatureView")),
		cel.Variable("context", cel.ObjectType("skirmish.ContextView")),
		cel.CrossTypeNumericComparisons(true),
	)...)
	if err != nil {
		panic("skirmish: building the CEL environment: " + err.Error())
	}
	return e
}()

// WhenProblem is an error in a condition, at a character offset in it.
type WhenProblem struct {
	Offset  int
	Message string
}

// When is a compiled condition of a contextual modifier.
type When struct {
	Source string
	prg    cel.Program
}

// CompileWhen parses, type-checks and cost-bounds a condition.
func CompileWhen(src string) (*When, []WhenProblem) {
	ast, iss := whenEnv.Compile(src)
	if iss != nil && iss.Err() != nil {
		var out []WhenProblem
		for _, e := range iss.Errors() {
			out = append(out, WhenProblem{Offset: e.Location.Column(), Message: cleanCEL(e.Message)})
		}
		return nil, out
	}
	if ast.OutputType() != cel.BoolType {
		return nil, []WhenProblem{{Message: fmt.Sprintf("a condition must be true or false, but this is %s", ast.OutputType())}}
	}
	est, err := whenEnv.EstimateCost(ast, whenSizes)
	if err != nil {
		return nil, []WhenProblem{{Message: "cannot bound the cost of this condition: " + err.Error()}}
	}
	if est.Max > MaxWhenCost {
		return nil, []WhenProblem{{Message: fmt.Sprintf("this condition may cost up to %d steps; the limit is %d", est.Max, MaxWhenCost)}}
	}
	prg, err := whenEnv.Program(ast, celcost.Program(MaxWhenCost)...)
	if err != nil {
		return nil, []WhenProblem{{Message: err.Error()}}
	}
	return &When{Source: src, prg: prg}, nil
}

// Holds evaluates the condition in a value's context (value.Condition).
// Outside an interaction, or if evaluation fails, it does not hold.
func (w *When) Holds(c value.Context) bool {
	ac, ok := c.Data.(AttackContext)
	if !ok || ac.game == nil {
		return false
	}
	vars := whenVars{source: ac.game.view(c.Source), target: ac.game.view(c.Target), context: &ContextView{
		Weapon: ac.Weapon, Ranged: ac.Ranged, Distance: ac.Distance, LongRange: ac.LongRange, Threatened: ac.Threatened,
		Opportunity: ac.Opportunity, AttackerSees: ac.AttackerSees, TargetSees: ac.TargetSees}}
	out, _, err := w.prg.Eval(&vars)
	if err != nil {
		return false
	}
	b, _ := out.Value().(bool)
	return b
}

// view returns what a condition sees of a creature.
func (g *State) view(id engine.EntityID) *CreatureView {
	f := g.Fighter(id)
	if f == nil {
		return &CreatureView{}
	}
	return &CreatureView{Key: f.Key, Name: f.Creature.Name, Side: g.Def.Sides[f.Side], HP: f.HP,
		MaxHP: f.MaxHP.Score(), X: f.Pos[0], Y: f.Pos[1], Conditions: g.Conditions(f.ID)}
}

type whenVars struct {
	source, target *CreatureView
	context        *ContextView
}

// ResolveName implements interpreter.Activation.
func (v *whenVars) ResolveName(name string) (any, bool) {
	switch name {
	case "source":
		return v.source, true
	case "target":
		return v.target, true
	case "context":
		return v.context, true
	}
	return nil, false
}

// Parent implements interpreter.Activation.
func (v *whenVars) Parent() interpreter.Activation { return nil }

func cleanCEL(msg string) string {
	msg = strings.ReplaceAll(msg, "skirmish.CreatureView", "creature")
	return strings.ReplaceAll(msg, "skirmish.ContextView", "context")
}
