// Package code compiles and evaluates the conditions of CODE triggers on
// party boards. They are CEL expressions (cel.dev/cel-go) over three
// variables, checked and cost-bounded when the board is loaded:
//
//	player  the current player: nickname, state, currentSpaceId, turnsTaken,
//	        seat, stats (a map), and player.getStat('name') (0 if unset)
//	space   the space the event belongs to: id, name, type
//	game    the game: remainingMoves, turnNumber, playerCount
//
// plus turnNumber and movesLeft as shorthands. The historical conditions of
// the original game, such as player.getStat('drinks') < 5, work as written;
// JavaScript's === and !== are accepted as == and != with a warning.
// Nothing else of JavaScript is: a condition cannot assign, call arbitrary
// functions, read the clock or draw random numbers.
package code

import (
	"fmt"
	"reflect"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"

	"github.com/tabulagames/tabula/games/internal/celcost"
)

// Player is what a condition sees of the current player.
type Player struct {
	Nickname       string             `cel:"nickname"`
	State          string             `cel:"state"`
	CurrentSpaceID string             `cel:"currentSpaceId"`
	TurnsTaken     int                `cel:"turnsTaken"`
	Seat           int                `cel:"seat"`
	Stats          map[string]float64 `cel:"stats"`
}

// Space is what a condition sees of the space its event belongs to.
type Space struct {
	ID   string `cel:"id"`
	Name string `cel:"name"`
	Type string `cel:"type"`
}

// Game is what a condition sees of the game.
type Game struct {
	RemainingMoves int `cel:"remainingMoves"`
	TurnNumber     int `cel:"turnNumber"`
	PlayerCount    int `cel:"playerCount"`
}

// MaxCost bounds the cost of a condition: its estimate when the board is
// loaded (anything costlier is rejected), and what it really costs when it
// runs (cel-go stops it there, with an error). Real conditions cost a few
// units.
const MaxCost = 10_000

// MaxName is the longest string a condition sees, in characters: a board
// bounds its space ids, names, types and stat names by it, and a match its
// players' nicknames. MaxStats is the most stats a player has: a board
// names at most that many.
const (
	MaxName  = 100
	MaxStats = 100
)

// sizes tells the cost estimator how large what a condition sees may be.
var sizes = celcost.Sizes{String: MaxName, Map: MaxStats}

var env = newEnv()

func newEnv() *cel.Env {
	playerType := cel.ObjectType("code.Player")
	e, err := cel.NewEnv(append(celcost.Options(),
		ext.NativeTypes(reflect.TypeFor[Player](), reflect.TypeFor[Space](), reflect.TypeFor[Game](), ext.ParseStructTags(true)),
		cel.Variable("player", playerType),
		cel.Variable("space", cel.ObjectType("code.Space")),
		cel.Variable("game", cel.ObjectType("code.Game")),
		cel.Variable("turnNumber", cel.IntType),
		cel.Variable("movesLeft", cel.IntType),
		cel.CrossTypeNumericComparisons(true),
		cel.Function("getStat",
			// getStat gives an int for whole numbers (drinks are counted)
			// and a double otherwise, so both == 3 and < 2.5 read naturally.
			cel.MemberOverload("player_getStat_string", []*cel.Type{playerType, cel.StringType}, cel.DynType,
				cel.BinaryBinding(func(p, name ref.Val) ref.Val {
					pl, ok := p.Value().(*Player)
					if !ok {
						return types.NewErr("getStat: not a player")
					}
					v := pl.Stats[string(name.(types.String))]
					if v == float64(int64(v)) {
						return types.Int(int64(v))
					}
					return types.Double(v)
				}))),
	)...)
	if err != nil {
		panic("code: building the CEL environment: " + err.Error())
	}
	return e
}

// Problem is an error or warning in a condition, at a rune offset in its
// source text.
type Problem struct {
	Offset  int
	Message string
	Warning bool
}

// Condition is a compiled CODE condition.
type Condition struct {
	Source string
	prg    cel.Program
}

// Compile parses, type-checks and cost-bounds a condition. It returns the
// condition (nil if there are errors) and every problem found.
func Compile(src string) (*Condition, []Problem) {
	var problems []Problem
	text, warns := replaceStrictEquality(src)
	problems = append(problems, warns...)
	if strings.TrimSpace(text) == "" {
		return nil, append(problems, Problem{Message: "empty CODE condition: write an expression such as player.getStat('drinks') < 5"})
	}
	ast, iss := env.Compile(text)
	if iss != nil && iss.Err() != nil {
		for _, e := range iss.Errors() {
			off := int(e.Location.Column())
			if line := e.Location.Line(); line > 1 {
				off = runeOffsetOfLine(text, line) + int(e.Location.Column())
			}
			problems = append(problems, Problem{Offset: off, Message: cleanMessage(e.Message)})
		}
		return nil, problems
	}
	if ast.OutputType() != cel.BoolType && ast.OutputType() != cel.DynType {
		return nil, append(problems, Problem{Message: fmt.Sprintf("a condition must be true or false, but this is %s", ast.OutputType())})
	}
	est, err := env.EstimateCost(ast, sizes)
	if err != nil {
		return nil, append(problems, Problem{Message: "cannot bound the cost of this condition: " + err.Error()})
	}
	if est.Max > MaxCost {
		return nil, append(problems, Problem{Message: fmt.Sprintf("this condition may cost up to %d steps; the limit is %d", est.Max, MaxCost)})
	}
	prg, err := env.Program(ast, celcost.Program(MaxCost)...)
	if err != nil {
		return nil, append(problems, Problem{Message: err.Error()})
	}
	return &Condition{Source: src, prg: prg}, problems
}

// Vars are the values a condition is evaluated with.
type Vars struct {
	Player *Player
	Space  *Space
	Game   *Game
}

// ResolveName implements interpreter.Activation.
func (v *Vars) ResolveName(name string) (any, bool) {
	switch name {
	case "player":
		return v.Player, true
	case "space":
		return v.Space, true
	case "game":
		return v.Game, true
	case "turnNumber":
		return int64(v.Game.TurnNumber), true
	case "movesLeft":
		return int64(v.Game.RemainingMoves), true
	}
	return nil, false
}

// Parent implements interpreter.Activation.
func (v *Vars) Parent() interpreter.Activation { return nil }

// Eval evaluates the condition. A condition whose value is not a boolean,
// or that fails (a missing map key), is an error.
func (c *Condition) Eval(v *Vars) (bool, error) {
	out, _, err := c.prg.Eval(v)
	if err != nil {
		return false, fmt.Errorf("CODE condition %q: %w", c.Source, err)
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, fmt.Errorf("CODE condition %q gave %v, not true or false", c.Source, out.Value())
	}
	return b, nil
}

// replaceStrictEquality turns JavaScript's === and !== (outside string
// literals) into == and !=, with a warning for each, keeping every other
// character where it was.
func replaceStrictEquality(src string) (string, []Problem) {
	var b strings.Builder
	var problems []Problem
	runes := []rune(src)
	var quote rune
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if quote != 0 {
			b.WriteRune(r)
			if r == '\\' && i+1 < len(runes) {
				i++
				b.WriteRune(runes[i])
			} else if r == quote {
				quote = 0
			}
			continue
		}
		if r == '\'' || r == '"' {
			quote = r
			b.WriteRune(r)
			continue
		}
		if (r == '=' || r == '!') && i+2 < len(runes) && runes[i+1] == '=' && runes[i+2] == '=' {
			op := string(r) + "=="
			problems = append(problems, Problem{Offset: i, Warning: true,
				Message: fmt.Sprintf("%s is JavaScript; conditions are CEL, where it is %s (accepted)", op, op[:2])})
			// "== " rather than "==": the text keeps its length, so the
			// offsets of later problems are those of the source.
			b.WriteRune(r)
			b.WriteString("= ")
			i += 2
			continue
		}
		b.WriteRune(r)
	}
	return b.String(), problems
}

func runeOffsetOfLine(text string, line int) int {
	n := 0
	for i, r := range []rune(text) {
		if r == '\n' {
			n++
			if n == line-1 {
				return i + 1
			}
		}
	}
	return 0
}

func cleanMessage(msg string) string {
	msg = strings.ReplaceAll(msg, "code.Player", "player")
	msg = strings.ReplaceAll(msg, "code.Space", "space")
	msg = strings.ReplaceAll(msg, "code.Game", "game")
	return msg
}
