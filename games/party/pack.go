package party

import (
	"fmt"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/docs/schema"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Pack is the party board game pack. It holds the engine rules of every
// party match (event types, effects, the priority agenda), built once by
// NewPack and shared, read only, by every board it compiles: it is safe
// for use by many goroutines.
type Pack struct {
	rules *engine.Rules
	fx    effectSet
	// calls are the calls of the turn's own steps, made once.
	calls struct{ startGame, beginTurn, roll, step, endTurn, replay engine.EffectCall }
	// codeTypes are the event types a CODE event listens to.
	codeTypes []engine.EventType
}

// What the pack offers through the game interface.
var (
	_ game.Pack       = (*Pack)(nil)
	_ game.Cataloger  = (*Pack)(nil)
	_ game.Definition = (*Definition)(nil)
	_ game.Match      = (*Match)(nil)
	_ game.Botter     = (*Match)(nil)
	_ game.Texter     = (*Match)(nil)
	_ game.Parser     = (*Match)(nil)
	_ game.Previewer  = (*Definition)(nil)
	_ game.Compatible = (*Definition)(nil)
)

// NewPack returns the party pack, with its own registries.
func NewPack() *Pack {
	if len(eventNames) > 64 {
		panic("party: more event types than heardAt has bits for")
	}
	types := engine.NewTypes(eventNames...)
	for i, name := range eventNames {
		if t, _ := types.Lookup(name); t != engine.EventType(i) {
			panic("party: event type " + name + " is interned out of order")
		}
	}
	effects := engine.NewEffects()
	p := &Pack{fx: newEffectSet(effects)}
	none := struct{}{}
	p.calls.startGame, p.calls.beginTurn, p.calls.roll = p.fx.startGame.Call(none), p.fx.beginTurn.Call(none), p.fx.roll.Call(none)
	p.calls.step, p.calls.endTurn, p.calls.replay = p.fx.step.Call(none), p.fx.endTurn.Call(none), p.fx.replay.Call(none)
	// A board's triggers are placed when a match starts.
	p.rules = &engine.Rules{Types: types, Effects: effects, Policy: engine.PriorityAgenda, Guard: engine.PerTrigger, PlacedBetweenChains: true}
	// A CODE condition is checked after the roll, every step and every
	// action (as the original checks its events after the roll and after
	// each step), not when turns begin or end.
	for i := range eventNames {
		switch t := engine.EventType(i); t {
		case evGameStart, evTurnStart, evTurnSkip, evTurnEnd, evGameOver:
		default:
			p.codeTypes = append(p.codeTypes, t)
		}
	}
	return p
}

// Name is "party".
func (p *Pack) Name() string { return "party" }

// Detect claims v1, v2 and v3 board files, bundle manifests, bundle
// folders (a folder holding a board.json manifest) and zipped bundles
// (also those whose manifest is missing or in a folder, to say so). JSON too broken to decode
// counts when it mentions "spaces" or "topology", so that its syntax
// errors are reported; a file whose "game" names another pack does not.
func (p *Pack) Detect(src *game.Source) bool {
	if src.IsDir() {
		return src.Exists(manifestName) || looksLikeBundle(src)
	}
	data, err := src.Data()
	return err == nil && detect(data)
}

// Load reads, checks and compiles the board at src (see LoadDefinition).
func (p *Pack) Load(src *game.Source) (game.Definition, diag.List) {
	def, list := p.LoadDefinition(src)
	if def == nil {
		return nil, list
	}
	return def, list
}

// LoadDefinition is Load with the definition's own type: it reads the
// board at src (a v1 or v3 file, a bundle folder or its manifest), checks
// it and compiles it. It returns nil and every problem found when there
// are errors; warnings may come with a definition. Every file is read
// through src, so that src.Archive() holds the whole board.
func (p *Pack) LoadDefinition(src *game.Source) (*Definition, diag.List) {
	b, list := readSource(src)
	if b == nil || list.HasErrors() {
		return nil, list
	}
	def, err := p.Compile(b)
	if err != nil {
		return nil, append(list, diag.Diagnostic{File: b.File, Severity: diag.Error, Message: err.Error()})
	}
	return def, list
}

// LoadFile loads and compiles a board on disk (a file or a bundle folder),
// for tests and tools.
func (p *Pack) LoadFile(path string) (*Definition, diag.List) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, diag.List{readError(path, err)}
	}
	return p.LoadDefinition(src)
}

// SchemaName is the name `tabula schema` prints the board schema under.
const SchemaName = "board"

// Schemas is the board schema (docs/schema/board-1.schema.json).
func (p *Pack) Schemas() []game.Schema {
	return []game.Schema{{Name: SchemaName, Data: schema.Board}}
}

// The event types of the party game, in the order NewPack interns them.
// ON_ENTER, ON_LAND and ON_EXIT are what board events listen to; the
// others say what the turn and the actions did, for the log and the page,
// and CODE conditions are checked after each.
const (
	evEnter engine.EventType = iota
	evLand
	evExit
	evGameStart
	evTurnStart
	evTurnSkip
	evRolled
	evBlocked
	evPrompted
	evState
	evDisplaced
	evTeleported
	evEffect
	evStopped
	evSwapped
	evStat
	evTurnEnd
	evGameOver
)

// eventNames name the event types, in their order.
var eventNames = []string{
	OnEnter, OnLand, OnExit, "GAME_STARTED", "TURN_STARTED", "TURN_SKIPPED", "ROLLED", "MOVE_BLOCKED",
	"PROMPTED", "STATE_CHANGED", "DISPLACED", "TELEPORTED", "EFFECT_APPLIED", "STOPPED", "SWAPPED",
	"STAT_CHANGED", "TURN_ENDED", "GAME_ENDED",
}

// effectSet holds the typed handles of the pack's effects: the turn's own
// steps (start, roll, step, end), run by the match between commands, and
// the actions board events run.
type effectSet struct {
	startGame, beginTurn, roll, step, endTurn engine.Effect[struct{}]

	promptAll, promptCurrent engine.Effect[PromptArgs]
	setState                 engine.Effect[StateArgs]
	displace                 engine.Effect[DisplaceArgs]
	apply                    engine.Effect[EffectArgs]
	teleport                 engine.Effect[TeleportArgs]
	forceStop                engine.Effect[ForceStopArgs]
	swap                     engine.Effect[SwapArgs]
	setStat                  engine.Effect[SetStatArgs]
	changeStat               engine.Effect[ChangeStatArgs]

	// replay and fail are a simulation's (outside.go): the events of a
	// step run outside the engine, emitted in it; the error of one.
	replay engine.Effect[struct{}]
	fail   engine.Effect[error]
}

// newEffectSet registers every effect in a fixed order: effect ids are
// part of the state hash.
func newEffectSet(e *engine.Effects) effectSet {
	return effectSet{
		startGame: engine.Register(e, "START_GAME", startGame),
		beginTurn: engine.Register(e, "BEGIN_TURN", beginTurn),
		roll:      engine.Register(e, "ROLL", roll),
		step:      engine.Register(e, "STEP", step),
		endTurn:   engine.Register(e, "END_TURN", endTurn),

		promptAll:     engine.Register(e, PromptAllPlayers, promptAll),
		promptCurrent: engine.Register(e, PromptCurrentPlayer, promptCurrent),
		setState:      engine.Register(e, SetPlayerState, setPlayerState),
		displace:      engine.Register(e, DisplacePlayer, displacePlayer),
		apply:         engine.Register(e, ApplyEffect, applyEffect),
		teleport:      engine.Register(e, SetPlayerSpace, setPlayerSpace),
		forceStop:     engine.Register(e, ForceStop, forceStop),
		swap:          engine.Register(e, SwapPlaces, swapPlaces),
		setStat:       engine.Register(e, SetStat, setStat),
		changeStat:    engine.Register(e, ChangeStat, changeStat),

		replay: engine.Register(e, "REPLAY_STEP", replaySteps),
		fail:   engine.Register(e, "FAIL_STEP", failStep),
	}
}

// call returns the typed call of a board event's action.
func (fx *effectSet) call(a Action) (engine.EffectCall, error) {
	c, ok := fx.typed(a)
	if !ok || c.Name != a.Type {
		return engine.EffectCall{}, fmt.Errorf("action %s cannot take %T arguments", a.Type, a.Args)
	}
	return c, nil
}

func (fx *effectSet) typed(a Action) (engine.EffectCall, bool) {
	switch args := a.Args.(type) {
	case PromptArgs:
		if a.Type == PromptAllPlayers {
			return fx.promptAll.Call(args), true
		}
		return fx.promptCurrent.Call(args), true
	case StateArgs:
		return fx.setState.Call(args), true
	case DisplaceArgs:
		return fx.displace.Call(args), true
	case EffectArgs:
		return fx.apply.Call(args), true
	case TeleportArgs:
		return fx.teleport.Call(args), true
	case ForceStopArgs:
		return fx.forceStop.Call(args), true
	case SwapArgs:
		return fx.swap.Call(args), true
	case SetStatArgs:
		return fx.setStat.Call(args), true
	case ChangeStatArgs:
		return fx.changeStat.Call(args), true
	}
	return engine.EffectCall{}, false
}

// The player limits of a board that sets none: from one player, as in the
// original game, to eight, the original's own limit on players joining.
// No board plays with more than MaxSeats.
const (
	defaultMinPlayers = 1
	defaultMaxPlayers = 8
	// MaxSeats is the most players any party match has.
	MaxSeats = 64
)

// Preview is a bundle's preview.png, if it has one.
func (d *Definition) Preview() ([]byte, string) {
	if d.Board.Preview == nil {
		return nil, ""
	}
	return d.Board.Preview, "image/png"
}

// Info describes the board for the lobby and the command line: its name,
// description and size, and its player limits (those the board sets, else
// 1 to 8).
func (d *Definition) Info() game.Info { return d.info(Quirks{}) }

// info is Info for matches with these quirks: with AnyPlayerCount, the
// original's limits of 1 to 8 players.
func (d *Definition) info(q Quirks) game.Info {
	b := d.Board
	lo, hi := b.Rules.MinPlayers, b.Rules.MaxPlayers
	if q.AnyPlayerCount {
		lo, hi = defaultMinPlayers, defaultMaxPlayers
	}
	if lo <= 0 {
		lo = defaultMinPlayers
	}
	if hi <= 0 {
		hi = max(defaultMaxPlayers, lo)
	}
	lo, hi = min(lo, MaxSeats), min(hi, MaxSeats)
	return game.Info{Pack: "party", Name: b.Name, Description: b.Description, HowToPlay: b.HowToPlay, MinPlayers: lo, MaxPlayers: hi,
		DefaultMaxRounds: DefaultMaxRounds, Size: fmt.Sprintf("%d %s", len(b.Spaces), plural(len(b.Spaces), "space"))}
}
