package rulebook

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/games/internal/celcost"

	"github.com/tabulagames/tabula/engine"
)

// What conditions and expressions see (see the variables of Catalog).

type celEvent struct {
	Type   string `cel:"type"`
	Player int    `cel:"player"`
	Other  int    `cel:"other"`
	Tile   string `cel:"tile"`
	Amount int    `cel:"amount"`
	Card   string `cel:"card"`
	Deck   string `cel:"deck"`
	Prop   string `cel:"prop"`
}

type celPlayer struct {
	Seat   int            `cel:"seat"`
	Name   string         `cel:"name"`
	Score  int            `cel:"score"`
	Tile   string         `cel:"tile"`
	Active bool           `cel:"active"`
	Turns  int            `cel:"turns"`
	Owned  int            `cel:"owned"`
	Props  map[string]int `cel:"props"`
}

type celTile struct {
	ID       string         `cel:"id"`
	Name     string         `cel:"name"`
	Kind     string         `cel:"kind"`
	Colour   string         `cel:"colour"`
	Index    int            `cel:"index"`
	Price    int            `cel:"price"`
	Rent     int            `cel:"rent"`
	Jump     string         `cel:"jump"`
	Owner    int            `cel:"owner"`
	Last     bool           `cel:"last"`
	SetOwned bool           `cel:"setOwned"`
	Props    map[string]int `cel:"props"`
}

type celCard struct {
	Name   string         `cel:"name"`
	Deck   string         `cel:"deck"`
	Colour string         `cel:"colour"`
	Tile   string         `cel:"tile"`
	Move   int            `cel:"move"`
	Props  map[string]int `cel:"props"`
}

type celGame struct {
	Turn    int `cel:"turn"`
	Round   int `cel:"round"`
	Players int `cel:"players"`
	Seats   int `cel:"seats"`
	Roll    int `cel:"roll"`
}

// celTypeNames maps the CEL names of the types above to those the
// documentation uses, for error messages.
var celTypeNames = strings.NewReplacer(
	"rulebook.celEvent", "Event", "rulebook.celPlayer", "Player", "rulebook.celTile", "Tile",
	"rulebook.celCard", "Card", "rulebook.celGame", "Game")

var celEnv = func() *cel.Env {
	player := cel.ObjectType("rulebook.celPlayer")
	e, err := cel.NewEnv(append(celcost.Options(),
		ext.NativeTypes(reflect.TypeFor[celEvent](), reflect.TypeFor[celPlayer](), reflect.TypeFor[celTile](),
			reflect.TypeFor[celCard](), reflect.TypeFor[celGame](), ext.ParseStructTags(true)),
		cel.Variable("event", cel.ObjectType("rulebook.celEvent")),
		cel.Variable("player", player),
		cel.Variable("current", player),
		cel.Variable("players", cel.ListType(player)),
		cel.Variable("tile", cel.ObjectType("rulebook.celTile")),
		cel.Variable("card", cel.ObjectType("rulebook.celCard")),
		cel.Variable("game", cel.ObjectType("rulebook.celGame")),
		cel.Variable("roll", cel.IntType),
		ext.Strings(),
	)...)
	if err != nil {
		panic("rulebook: building the CEL environment: " + err.Error())
	}
	return e
}()

// maxCost bounds the cost of an expression: its estimate, when the file
// is loaded (anything costlier is rejected), and what it really costs when
// it runs (cel-go stops it there, with an error that ends the match). Real
// conditions cost a few units; the estimate holds because every string,
// list and map an expression can see is bounded (sizes).
const maxCost = 10_000

// problem is an error in an expression, at a character offset of its text.
type problem struct {
	offset int
	msg    string
}

// expr is a compiled CEL expression.
type expr struct {
	src string
	prg cel.Program
}

// compileExpr parses, type-checks and cost-bounds an expression whose
// value must be of the given type (bool, int or string).
func compileExpr(src string, want *cel.Type) (*expr, []problem) {
	return compileWith(src, want, diag.DidYouMean)
}

// compileWith is compileExpr with the "did you mean" of a file's
// reporter, whose budget bounds the suggestions of the whole file.
func compileWith(src string, want *cel.Type, didYouMean func(string, []string) string) (*expr, []problem) {
	if strings.TrimSpace(src) == "" {
		return nil, []problem{{msg: "empty expression"}}
	}
	ast, iss := celEnv.Compile(src)
	if iss != nil && iss.Err() != nil {
		var out []problem
		for _, e := range iss.Errors() {
			off := int(e.Location.Column())
			if line := e.Location.Line(); line > 1 {
				off += lineStart(src, line)
			}
			out = append(out, problem{offset: off, msg: celMessage(e.Message, didYouMean)})
		}
		return nil, out
	}
	if got := ast.OutputType(); !got.IsExactType(want) && !got.IsExactType(cel.DynType) {
		return nil, []problem{{msg: fmt.Sprintf("this gives %s; it must give %s", typeText(got), typeText(want))}}
	}
	est, err := celEnv.EstimateCost(ast, sizes)
	if err != nil {
		return nil, []problem{{msg: "cannot bound the cost of this expression: " + err.Error()}}
	}
	if est.Max > maxCost {
		return nil, []problem{{msg: fmt.Sprintf("this expression may cost up to %d steps; the limit is %d", est.Max, maxCost)}}
	}
	prg, err := celEnv.Program(ast, celcost.Program(maxCost)...)
	if err != nil {
		return nil, []problem{{msg: err.Error()}}
	}
	return &expr{src: src, prg: prg}, nil
}

var (
	undefinedField = regexp.MustCompile(`^undefined field '([^']*)'$`)
	undeclaredRef  = regexp.MustCompile(`^undeclared reference to '([^']*)'`)
)

// celMessage words a CEL error for a designer: the documentation's type
// names, the closest field or variable, no parser's wish list.
func celMessage(msg string, didYouMean func(string, []string) string) string {
	msg = celTypeNames.Replace(msg)
	if m := undefinedField.FindStringSubmatch(msg); m != nil {
		var fields []string
		for _, v := range variables {
			for _, f := range v.Fields {
				if !slices.Contains(fields, f.Name) {
					fields = append(fields, f.Name)
				}
			}
		}
		return "no such field: " + m[1] + didYouMean(m[1], fields)
	}
	if m := undeclaredRef.FindStringSubmatch(msg); m != nil {
		var names []string
		for _, v := range variables {
			names = append(names, v.Name)
		}
		return fmt.Sprintf("unknown name %q%s; the variables are %s (text is written in quotes: 'red')", m[1], didYouMean(m[1], names), strings.Join(names, ", "))
	}
	if strings.Contains(msg, "mismatched input '<EOF>'") {
		return "Syntax error: the expression ends too soon"
	}
	if i := strings.Index(msg, " expecting {"); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

func typeText(t *cel.Type) string {
	switch {
	case t.IsExactType(cel.BoolType):
		return "true or false"
	case t.IsExactType(cel.IntType):
		return "a whole number"
	case t.IsExactType(cel.StringType):
		return "text"
	case t.IsExactType(cel.DoubleType):
		return "a number with a fraction"
	}
	return celTypeNames.Replace(t.String())
}

// lineStart returns the character offset of a line (1-based) of text.
func lineStart(text string, line int) int {
	n := 1
	for i, r := range []rune(text) {
		if n == line {
			return i
		}
		if r == '\n' {
			n++
		}
	}
	return 0
}

// sizes tells the cost estimator the sizes of the values an expression
// sees, which the file and the game bound: every string is a name (an id,
// a name, a kind, a colour, a property, an event; a player's name), of at
// most maxName characters; the players are at most maxPlayers; a map of
// properties holds at most maxProps.
var sizes = celcost.Sizes{String: maxName, List: maxPlayers, Map: maxProps}

// eval evaluates the expression in a scope.
func (e *expr) eval(sc *scope) (any, error) {
	out, _, err := e.prg.Eval(sc)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", e.src, err)
	}
	return out.Value(), nil
}

func (e *expr) bool(sc *scope) (bool, error) {
	v, err := e.eval(sc)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%q gave %v, not true or false", e.src, v)
	}
	return b, nil
}

func (e *expr) int(sc *scope) (int, error) {
	v, err := e.eval(sc)
	if err != nil {
		return 0, err
	}
	n, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("%q gave %v, not a whole number", e.src, v)
	}
	return int(n), nil
}

func (e *expr) string(sc *scope) (string, error) {
	v, err := e.eval(sc)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%q gave %v, not text", e.src, v)
	}
	return s, nil
}

// scope is what an expression is evaluated with: the state, the event and
// the player bound to "player". Values are built when an expression reads
// them.
type scope struct {
	s      *State
	ev     *engine.Event // nil for none
	player int           // seat bound to "player"
	// seats are the players as expressions see them, built once per
	// evaluation: a loop over the players inside a loop over them reads
	// them again on every round.
	seats []*celPlayer
}

// seat returns a player as expressions see them.
func (sc *scope) seat(i int) *celPlayer {
	if sc.seats == nil {
		sc.seats = make([]*celPlayer, len(sc.s.Players))
	}
	if sc.seats[i] == nil {
		sc.seats[i] = sc.s.celPlayer(i)
	}
	return sc.seats[i]
}

// newScope returns the scope of a rule's condition: player is the
// event's player, or else the current player.
func newScope(s *State, ev *engine.Event) *scope {
	p := s.Current
	if ev != nil && ev.Player != engine.NoPlayer {
		p = int(ev.Player)
	}
	return &scope{s: s, ev: ev, player: p}
}

// ResolveName implements interpreter.Activation.
func (sc *scope) ResolveName(name string) (any, bool) {
	s := sc.s
	switch name {
	case "event":
		return sc.event(), true
	case "player":
		return sc.seat(sc.player), true
	case "current":
		return sc.seat(s.Current), true
	case "players":
		out := make([]*celPlayer, len(s.Players))
		for i := range s.Players {
			out[i] = sc.seat(i)
		}
		return out, true
	case "tile":
		t := s.Players[sc.player].Tile
		if sc.ev != nil && sc.ev.Location != engine.NoLocation {
			t = int(sc.ev.Location)
		}
		return s.celTile(t), true
	case "card":
		return s.celCard(), true
	case "game":
		return &celGame{Turn: s.Turn, Round: s.Round, Players: s.activeCount(), Seats: len(s.Players), Roll: s.Roll}, true
	case "roll":
		return int64(s.Roll), true
	}
	return nil, false
}

// Parent implements interpreter.Activation.
func (sc *scope) Parent() interpreter.Activation { return nil }

func (sc *scope) event() *celEvent {
	out := &celEvent{Player: -1, Other: -1}
	ev := sc.ev
	if ev == nil {
		return out
	}
	s := sc.s
	out.Type = s.def.rules.Types.Name(ev.Type)
	out.Player = int(ev.Player)
	if ev.Target != engine.System {
		out.Other = seatOf(ev.Target)
	}
	if ev.Location != engine.NoLocation {
		out.Tile = s.def.File.Board.Tiles[ev.Location].ID
	}
	out.Amount = ev.Amount
	if d, ok := ev.Data.(*eventData); ok {
		out.Card, out.Deck, out.Prop = d.Card, d.Deck, d.Prop
	}
	return out
}
