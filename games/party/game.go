package party

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
)

// Options configure a match.
type Options struct {
	// Seed seeds the match's random numbers (dice, placeholders, random
	// starts, random swaps).
	Seed uint64
	// MaxRounds ends a match that has not ended by then, with no winner
	// (0: no cap). Boards whose game never ends need one.
	MaxRounds int
	// SkipText leaves prompt messages as written, without drawing their
	// placeholders, for matches nobody reads (bots in a simulation). The
	// dice, paths, stats and outcome are those of the same match with
	// text: placeholders draw from their own random stream.
	SkipText bool
	// AutoAck has every prompt acknowledged as soon as it is shown,
	// without asking anyone, as bots would: a simulation then plays the
	// same games without pausing for their answers.
	AutoAck bool
}

// DefaultMaxRounds is the round cap of matches played by the command line
// and the server when none is given: boards that never end stop there.
const DefaultMaxRounds = 100

// Game is one party match: the engine match and the party state, and the
// turn's automatic steps between players' commands. It is a deterministic
// state machine: the same definition, players, options and commands give
// the same log and hash.
type Game struct {
	Def     *Definition
	Players []string
	Options Options
	Match   *engine.Match
	State   *State
	// Commands are every command accepted so far, for replays.
	Commands []Command

	hash string // the state hash, "" when it must be computed again
}

// Command is a player's input: a roll, a choice at a fork, the
// acknowledgement of a prompt.
type Command struct {
	Player int    `json:"player"`
	Kind   string `json:"kind"` // "roll", "choose-path" or "ack"
	// Value is the choice (an index into the decision's options), or a
	// scripted roll (0: roll the dice).
	Value int `json:"value,omitempty"`
}

// KindRoll is the kind of a roll command.
const KindRoll = "roll"

// NewGame starts a match on a board with the given players, in seat order.
// It runs until the first player is asked to roll.
func NewGame(def *Definition, players []string, opt Options) (*Game, error) {
	if len(players) == 0 {
		return nil, fmt.Errorf("a match needs at least one player")
	}
	if err := engine.CheckPlayers(players); err != nil {
		return nil, err
	}
	s := &State{}
	s.Players = make([]Player, len(players))
	for i, name := range players {
		s.Players[i].Name = name
	}
	g := &Game{Def: def, Players: slices.Clone(players), State: s,
		Match: engine.NewMatch(Rules, s, opt.Seed, slices.Clone(players))}
	if err := g.start(opt); err != nil {
		return nil, err
	}
	return g, nil
}

// Reset starts the game over on the same board with the same players and
// new options, exactly as NewGame would, but reusing the memory of the
// match it had: a simulation that plays many games one after another
// allocates little.
func (g *Game) Reset(opt Options) error {
	g.Match.Reset(g.State, opt.Seed)
	return g.start(opt)
}

// start sets up a new match: the players on no space yet, the board's
// events placed, and the turn run until the first player is asked to roll.
func (g *Game) start(opt Options) error {
	s, m, def := g.State, g.Match, g.Def
	players := s.Players
	for i := range players {
		p := &players[i]
		clear(p.Stats)
		*p = Player{Name: p.Name, Seat: i, State: Waiting, Stats: p.Stats, Effects: p.Effects[:0], History: p.History[:0]}
	}
	*s = State{def: def, board: def.Board, Phase: phaseNone, MaxRounds: opt.MaxRounds, skipText: opt.SkipText, autoAck: opt.AutoAck,
		Players: players, Finished: s.Finished[:0], LastRoll: s.LastRoll[:0]}
	for _, t := range def.triggers {
		// Ties between events of equal priority go in board order: space
		// order, then the space's event order.
		ref := t.def.Data.(eventRef)
		m.Index.Add(t.def, spaceID(t.space), engine.NoPlayer, engine.LocationID(t.space), int64(ref.Space)<<16|int64(ref.Event))
	}
	g.Options = opt
	g.Commands = g.Commands[:0]
	g.hash = ""
	return g.advance()
}

// Apply plays one command. A command out of turn, of the wrong kind or out
// of range is rejected (engine.IsRejected) and changes nothing; the match
// then runs until it needs someone's input again.
func (g *Game) Apply(cmd Command) error {
	s, m := g.State, g.Match
	g.hash = ""
	if s.Over {
		return engine.Rejectf("the game is over")
	}
	if cmd.Player < 0 || cmd.Player >= len(s.Players) {
		return engine.Rejectf("there is no player %d", cmd.Player)
	}
	switch cmd.Kind {
	case KindRoll:
		if m.IsWaiting() {
			return engine.Rejectf("%s cannot roll now: waiting for %s", g.Players[cmd.Player], g.waitingText())
		}
		if cmd.Player != s.Current {
			return engine.Rejectf("it is %s's turn, not %s's", g.Players[s.Current], g.Players[cmd.Player])
		}
		if err := m.Run(engine.PlayerID(cmd.Player), engine.EffectCall{ID: callRoll, Name: "ROLL", Args: rollArgs{Value: cmd.Value}}); err != nil {
			return err
		}
	case KindChoosePath, KindAck:
		if err := m.Answer(engine.Input{Player: engine.PlayerID(cmd.Player), Kind: cmd.Kind, Choice: cmd.Value}); err != nil {
			return err
		}
	default:
		return engine.Rejectf("unknown command %q: use roll, choose-path or ack", cmd.Kind)
	}
	g.Commands = append(g.Commands, cmd)
	return g.advance()
}

// advance runs the turn's automatic steps (start of turn, each step of a
// move, end of turn), each as its own chain, until a player must act.
func (g *Game) advance() error {
	s, m := g.State, g.Match
	for !m.IsWaiting() && !s.Over {
		var call engine.EffectID
		switch s.Phase {
		case phaseNone:
			call = callStartGame
		case phaseFirst, PhaseStart, phaseAgain:
			call = callBeginTurn
		case PhaseRoll:
			return nil
		case PhaseMove:
			call = callStep
			if s.RemainingMoves == 0 {
				call = callEndTurn
			}
		case PhaseEnd:
			call = callEndTurn
		default:
			return fmt.Errorf("party: unknown phase %q", s.Phase)
		}
		if err := m.Run(engine.PlayerID(s.Current), engine.EffectCall{ID: call, Name: effects.Name(call)}); err != nil {
			return err
		}
	}
	return nil
}

// Wait is something the match waits for: a roll, a choice, an
// acknowledgement.
type Wait struct {
	Player  int      `json:"player"`
	Kind    string   `json:"kind"`
	Prompt  string   `json:"prompt"`
	Options []string `json:"options"`
}

// Waits returns what the match waits for, in order; nothing when it is over.
func (g *Game) Waits() []Wait {
	s, m := g.State, g.Match
	if s.Over {
		return nil
	}
	if m.IsWaiting() {
		var out []Wait
		for _, d := range m.Waiting() {
			out = append(out, Wait{Player: int(d.Player), Kind: d.Kind, Prompt: d.Prompt, Options: d.Options})
		}
		return out
	}
	if s.Phase == PhaseRoll {
		return []Wait{{Player: s.Current, Kind: KindRoll, Prompt: "Roll the dice"}}
	}
	return nil
}

func (g *Game) waitingText() string {
	var parts []string
	for _, w := range g.Waits() {
		parts = append(parts, g.Players[w.Player]+" ("+w.Kind+")")
	}
	return strings.Join(parts, ", ")
}

// Hash returns the match's state hash. It is computed once per state:
// a server asks for it for the store and for every viewer.
func (g *Game) Hash() string {
	if g.hash == "" {
		g.hash = g.Match.Hash()
	}
	return g.hash
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.State.Over }

// BotCommand returns what a bot playing the given seat does now, if the
// match waits for that seat: it rolls the dice, takes a random path at a
// fork, and acknowledges prompts at once. r is the bot's own random stream
// (not the match's, so that bots do not change the match's dice).
//
// It answers the seat's first wait, like Waits would list it, without
// building the list: simulations ask it for every command.
func (g *Game) BotCommand(seat int, r *rng.Stream) (Command, bool) {
	s, m := g.State, g.Match
	switch {
	case s.Over:
	case m.IsWaiting():
		d, ok := m.WaitingFor(engine.PlayerID(seat))
		if !ok {
			break
		}
		if d.Kind == KindChoosePath {
			return Command{Player: seat, Kind: d.Kind, Value: r.IntN(len(d.Options))}, true
		}
		return Command{Player: seat, Kind: d.Kind}, true
	case s.Phase == PhaseRoll && s.Current == seat:
		return Command{Player: seat, Kind: KindRoll}, true
	}
	return Command{}, false
}

// Firing is one board event that fired: whose, where, what.
type Firing struct {
	Seq     int
	Chain   int
	Depth   int
	Player  int
	Space   int
	Event   int
	Trigger string
	Action  string
}

// Firings returns every board event that fired, in order.
func (g *Game) Firings() []Firing {
	var out []Firing
	for i, r := range g.Match.Records() {
		if r.Kind != engine.RecFired {
			continue
		}
		f := g.firing(i, r)
		out = append(out, f)
	}
	return out
}

func (g *Game) firing(seq int, r engine.Record) Firing {
	t := g.Match.Index.Get(r.Trigger)
	ref := t.Def.Data.(eventRef)
	ev := &g.Def.Board.Spaces[ref.Space].Events[ref.Event]
	return Firing{
		Seq: seq, Chain: int(r.Chain), Depth: int(r.Depth), Player: int(g.Match.Events[r.Event].Player),
		Space: ref.Space, Event: ref.Event, Trigger: ev.Trigger, Action: ev.Action.Type,
	}
}

// FiringLine renders a firing as "SPACE_ID TRIGGER ACTION".
func (g *Game) FiringLine(f Firing) string {
	return g.Def.Board.Spaces[f.Space].ID + " " + f.Trigger + " " + f.Action
}

// WriteLog writes the match's log from record from on as JSON lines: the
// engine's records, where each firing also says which space and event of
// the board fired, its trigger and action, and for whom.
func (g *Game) WriteLog(w io.Writer, from int) error {
	return g.Match.WriteJSONLWith(w, from, func(b []byte, i int, r *engine.Record) []byte {
		if r.Kind != engine.RecFired {
			return b
		}
		f := g.firing(i, *r)
		sp := &g.Def.Board.Spaces[f.Space]
		return fmt.Appendf(b, `,"space":%q,"spaceName":%q,"spaceEvent":%d,"triggerType":%q,"action":%q,"player":%q`,
			sp.ID, sp.Name, f.Event, f.Trigger, f.Action, g.Players[f.Player])
	})
}

// Replay plays a match again from its commands, checking that each is
// accepted; it is how a stored match is rebuilt.
func Replay(def *Definition, players []string, opt Options, cmds []Command) (*Game, error) {
	g, err := NewGame(def, players, opt)
	if err != nil {
		return nil, err
	}
	return g, engine.Replay(cmds, g.Apply)
}
