// Package pieces plays games where each player races several pieces
// around a board: Trouble (the "trouble" engine of the original's plugin,
// with its bugs fixed) and games of the "multi-piece" engine, whose pieces
// move along the board's own connections. Both read the original's v3 game
// files and bundles. docs/trouble.md describes the rules, the files and
// the commands.
package pieces

import (
	_ "embed"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

// Pack is the pieces pack. It holds the engine rules every match shares
// (event types, effects), built once by NewPack and only read afterwards:
// it is safe for use by many goroutines.
type Pack struct {
	// rules order the reactions of board triggers on the priority agenda;
	// plain plays boards without triggers, which have no reactions to
	// order, on the cheaper depth-first stack. Both have the same effects
	// and event types.
	rules, plain *engine.Rules
	fx           effectSet
	// The moments a space's trigger listens to.
	evEnter, evLand, evExit engine.EventType
}

// What the pack offers through the game interface.
var (
	_ game.Pack          = (*Pack)(nil)
	_ game.Definition    = (*Definition)(nil)
	_ game.Match         = (*Match)(nil)
	_ game.Botter        = (*Match)(nil)
	_ game.Texter        = (*Match)(nil)
	_ game.Parser        = (*Match)(nil)
	_ game.Tallier       = (*Match)(nil)
	_ game.Cloner        = (*Match)(nil)
	_ game.Evaluator     = (*Match)(nil)
	_ game.SearchAdvisor = (*Match)(nil)
	_ game.Determinizer  = (*Match)(nil)
	_ scenario.Runner    = (*Pack)(nil)
)

// effectSet holds the typed handles of the pack's effects.
type effectSet struct {
	start, roll, step, after, stop engine.Effect[struct{}]
	move                           engine.Effect[int]
	prompt                         engine.Effect[promptArgs]
	displace, teleport             engine.Effect[int]
}

// promptArgs are a prompt's: to everybody or to the mover, and its message.
type promptArgs struct {
	All     bool
	Message string
}

// NewPack returns the pieces pack, with its own registries.
func NewPack() *Pack {
	p := &Pack{}
	types := engine.NewTypes(OnEnter, OnLand, OnExit)
	p.evEnter, _ = types.Lookup(OnEnter)
	p.evLand, _ = types.Lookup(OnLand)
	p.evExit, _ = types.Lookup(OnExit)
	e := engine.NewEffects()
	// Effects are registered in a fixed order: their ids are part of the
	// state hash.
	p.fx = effectSet{
		start:    engine.Register(e, "START", startGame),
		roll:     engine.Register(e, "ROLL", roll),
		move:     engine.Register(e, "MOVE", movePiece),
		step:     engine.Register(e, "STEP", step),
		after:    engine.Register(e, "AFTER_MOVE", afterMove),
		prompt:   engine.Register(e, "PROMPT", prompt),
		displace: engine.Register(e, DisplacePlayer, displace),
		teleport: engine.Register(e, SetPlayerSpace, teleport),
		stop:     engine.Register(e, ForceStop, forceStop),
	}
	// Board triggers fire once per chain each, in priority order, as a
	// party board's do.
	// A board's triggers are placed when a match starts.
	p.rules = &engine.Rules{Types: types, Effects: e, Policy: engine.PriorityAgenda, Guard: engine.PerTrigger, PlacedBetweenChains: true}
	p.plain = &engine.Rules{Types: types, Effects: e, Policy: engine.DepthFirst, Guard: engine.PerTrigger, PlacedBetweenChains: true}
	return p
}

// Name is "pieces".
func (p *Pack) Name() string { return "pieces" }

// Detect claims v3 game files, bundle folders and zipped bundles (and
// their board.json manifests) whose engine is "trouble" or "multi-piece".
func (p *Pack) Detect(src *game.Source) bool { return detectSource(src) }

// Load reads, checks and compiles the game at src (see LoadDefinition).
func (p *Pack) Load(src *game.Source) (game.Definition, diag.List) {
	def, list := p.LoadDefinition(src)
	if def == nil {
		return nil, list
	}
	return def, list
}

// LoadDefinition is Load with the definition's own type: it reads the game
// at src (a v3 file, a bundle folder or zip, or a bundle's manifest),
// checks it against its board and compiles it. It returns nil and every
// problem found when there are errors; warnings may come with a
// definition. Every file is read through src.
func (p *Pack) LoadDefinition(src *game.Source) (*Definition, diag.List) {
	f, parts := readSource(src)
	var def *Definition
	if f != nil && !hasErrors(parts) {
		def = p.compile(f)
	}
	var all diag.List
	for _, pt := range parts {
		all = append(all, pt.rep.List...)
	}
	all.Sort()
	if all.HasErrors() || def == nil {
		if !all.HasErrors() {
			all = append(all, diag.Diagnostic{File: src.Name(), Severity: diag.Error, Message: "the game cannot be read"})
		}
		return nil, all
	}
	return def, all
}

func hasErrors(parts []*part) bool {
	for _, pt := range parts {
		if pt.rep.ErrorCount() > 0 {
			return true
		}
	}
	return false
}

// LoadFile loads a game on disk (a file, a bundle folder or a zip), for
// tests and tools.
func (p *Pack) LoadFile(path string) (*Definition, diag.List) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, diag.List{readError(path, err)}
	}
	return p.LoadDefinition(src)
}

//go:embed pieces-1.schema.json
var schemaData []byte

// SchemaName is the name `tabula schema` prints the pack's schema under.
const SchemaName = "pieces"

// Schemas is the schema of the pack's v3 game files
// (games/pieces/pieces-1.schema.json).
func (p *Pack) Schemas() []game.Schema {
	return []game.Schema{{Name: SchemaName, Data: schemaData}}
}
