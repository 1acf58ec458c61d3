package rulebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Pack is the rule book pack: it reads rule book files into Definitions
// and holds what every rule book shares, the registry of effects (one per
// action, the start of a match and the rest of a walk after a fork). Build
// it with NewPack; many definitions and matches share one.
type Pack struct {
	effects *engine.Effects
	start   engine.Effect[startArgs]
	moveOn  engine.Effect[moveOnArgs]
	// actions are the actions' effects by name.
	actions map[string]engine.Effect[*act]
}

// NewPack returns the pack with its own registry of effects.
func NewPack() *Pack {
	p := &Pack{effects: engine.NewEffects(), actions: map[string]engine.Effect[*act]{}}
	p.start = engine.Register(p.effects, "START", startGame)
	p.moveOn = engine.Register(p.effects, "MOVE_ON", moveOn)
	for _, a := range actions {
		p.actions[a.Name] = engine.Register(p.effects, a.Name, perform)
	}
	return p
}

// Name is "rulebook".
func (p *Pack) Name() string { return "rulebook" }

// Detect reports whether src is a rule book: a JSON object whose "game" is
// "rulebook". A file too broken to decode counts if it says "rulebook", so
// that its syntax errors are reported.
func (p *Pack) Detect(src *game.Source) bool {
	if src.IsDir() {
		return false
	}
	data, err := src.Data()
	if err != nil {
		return false
	}
	var head struct {
		Game any `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var se *json.SyntaxError
		return errors.As(err, &se) && bytes.Contains(data, []byte(`"rulebook"`))
	}
	return head.Game == "rulebook"
}

// Load reads, checks and compiles the rule book at src (see Parse).
func (p *Pack) Load(src *game.Source) (game.Definition, diag.List) {
	data, err := src.Data()
	if err != nil {
		return nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: "cannot read the game: " + readError(err)}}
	}
	def, list := p.parse(src.Context(), src.Name(), data)
	if def == nil {
		return nil, list
	}
	return def, list
}

// LoadFile loads a game file from disk, for tests and scenarios.
func (p *Pack) LoadFile(path string) (*Definition, diag.List) {
	src, err := game.Open(path, game.Limits{})
	var data []byte
	if err == nil {
		data, err = src.Data()
	}
	if err != nil {
		return nil, diag.List{{File: path, Severity: diag.Error, Message: "cannot read the game: " + readError(err)}}
	}
	return p.Parse(src.Name(), data)
}

// readError says why a file cannot be read, without repeating its name.
func readError(err error) string {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}

// Schemas is the rule book schema, as `tabula schema rulebook` prints it.
func (p *Pack) Schemas() []game.Schema {
	return []game.Schema{{Name: "rulebook", Data: Schema()}}
}

// EditorCatalog is what the rule editor is told rules are made of: the
// catalog, with, for each built-in event, the names of the predicates that
// make sense for it.
type EditorCatalog struct {
	CatalogInfo
	PredicatesFor map[string][]string `json:"predicatesFor"`
}

// Catalog returns the EditorCatalog.
func (p *Pack) Catalog() any {
	c := EditorCatalog{CatalogInfo: Catalog(), PredicatesFor: map[string][]string{}}
	for _, ev := range c.Events {
		c.PredicatesFor[ev.Name] = predicateNames(ev)
	}
	return c
}

// predicateNames names the predicates that make sense for an event.
func predicateNames(ev EventInfo) []string {
	out := []string{}
	for _, p := range PredicatesFor(ev) {
		out = append(out, p.Name)
	}
	return out
}

// Outline is what the editor is told about a rule book being edited: its
// events, built-in and declared, each with the predicates it offers.
type Outline struct {
	Events []EventPredicates `json:"events"`
}

// EventPredicates is an event with the names of its predicates.
type EventPredicates struct {
	EventInfo
	Predicates []string `json:"predicates"`
}

// Outline returns the file's Outline, valid or not; nil if it is not even
// JSON.
func (p *Pack) Outline(src *game.Source) any {
	data, err := src.Data()
	if err != nil {
		return nil
	}
	f, err := Decode(data)
	if err != nil {
		return nil
	}
	var o Outline
	for _, ev := range EventsOf(f) {
		o.Events = append(o.Events, EventPredicates{EventInfo: ev, Predicates: predicateNames(ev)})
	}
	return o
}

// NoPredicateError is a predicate asked for by a name the catalog does not
// have.
type NoPredicateError struct {
	Name string
}

func (e *NoPredicateError) Error() string {
	var names []string
	for _, p := range predicates {
		names = append(names, p.Name)
	}
	return fmt.Sprintf("no predicate %q%s", e.Name, diag.DidYouMean(e.Name, names))
}

// Render returns the CEL condition of the predicate of that name with the
// given arguments: a NoPredicateError for an unknown name, an error saying
// which argument is missing or wrong otherwise.
func (p *Pack) Render(name string, args map[string]string) (string, error) {
	i := slices.IndexFunc(predicates, func(p PredicateInfo) bool { return p.Name == name })
	if i < 0 {
		return "", &NoPredicateError{Name: name}
	}
	return predicates[i].Render(args)
}

// What the rule book pack offers through the game interface.
var (
	_ game.Pack       = (*Pack)(nil)
	_ game.Cataloger  = (*Pack)(nil)
	_ game.Outliner   = (*Pack)(nil)
	_ game.Definition = (*Definition)(nil)
	_ game.Match      = (*Match)(nil)
	_ game.Botter     = (*Match)(nil)
	_ game.Texter     = (*Match)(nil)
	_ game.Parser     = (*Match)(nil)
)
