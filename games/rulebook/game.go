package rulebook

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
)

// Options configure a match.
type Options struct {
	// Seed seeds the match's random numbers (dice, shuffles).
	Seed uint64
	// Dice are scripted die faces, used in order before random ones.
	Dice []int
	// MaxRounds ends a match, without a winner, when a turn of a later
	// round would begin (0: no limit).
	MaxRounds int
	// Setup changes the starting state (for scenarios and tests).
	Setup *Setup
}

// DefaultMaxRounds is the round limit of matches played by the command
// line when none is given: games that never end stop there.
const DefaultMaxRounds = 1000

// Setup changes the starting state of a match: where players stand, their
// scores and properties, who owns which tiles, who goes first.
type Setup struct {
	// Players are changes by player name.
	Players map[string]PlayerSetup `yaml:"players" json:"players,omitempty"`
	// Owners gives tiles (by id) to players (by name).
	Owners map[string]string `yaml:"owners" json:"owners,omitempty"`
	// Current is the name of the player who goes first.
	Current string `yaml:"current" json:"current,omitempty"`
}

// PlayerSetup changes one player's starting state.
type PlayerSetup struct {
	Tile  string         `yaml:"tile" json:"tile,omitempty"`
	Score *int           `yaml:"score" json:"score,omitempty"`
	Props map[string]int `yaml:"props" json:"props,omitempty"`
}

// check reports names in a setup that do not exist.
func (st *Setup) check(d *Definition, players []string) error {
	if st == nil {
		return nil
	}
	seat := func(name string) error {
		if !slices.Contains(players, name) {
			return fmt.Errorf("setup: there is no player %q (the players are %s)", name, strings.Join(players, ", "))
		}
		return nil
	}
	for _, name := range sortedKeys(st.Players) {
		if err := seat(name); err != nil {
			return err
		}
		ps := st.Players[name]
		if _, ok := d.byID[ps.Tile]; ps.Tile != "" && !ok {
			return fmt.Errorf("setup: %s: there is no tile %q", name, ps.Tile)
		}
		for _, k := range sortedKeys(ps.Props) {
			if _, ok := d.propIndex[k]; !ok {
				return fmt.Errorf("setup: %s: players have no property %q (they have %s)", name, k, strings.Join(d.props, ", "))
			}
		}
	}
	for _, id := range sortedKeys(st.Owners) {
		if _, ok := d.byID[id]; !ok {
			return fmt.Errorf("setup: owners: there is no tile %q", id)
		}
		if err := seat(st.Owners[id]); err != nil {
			return err
		}
	}
	if st.Current != "" {
		return seat(st.Current)
	}
	return nil
}

// apply changes a state as the setup says; check has accepted it.
func (st *Setup) apply(s *State) {
	if st == nil {
		return
	}
	seat := func(name string) int {
		for i, p := range s.Players {
			if p.Name == name {
				return i
			}
		}
		return -1
	}
	for _, name := range sortedKeys(st.Players) {
		ps := st.Players[name]
		p := &s.Players[seat(name)]
		if ps.Tile != "" {
			p.Tile = s.def.byID[ps.Tile]
		}
		if ps.Score != nil {
			p.Score = *ps.Score
		}
		for _, k := range sortedKeys(ps.Props) {
			p.Props[s.def.propIndex[k]] = ps.Props[k]
		}
	}
	for _, id := range sortedKeys(st.Owners) {
		s.Owners[s.def.byID[id]] = seat(st.Owners[id])
	}
	if st.Current != "" {
		s.Current = seat(st.Current)
	}
}

// Game is one rule book match: the engine match, its state and the
// commands played. It is a deterministic state machine: the same game,
// players, options and commands give the same log and hash.
type Game struct {
	Def     *Definition
	Players []string
	Options Options
	Match   *engine.Match
	State   *State
	// Commands are every command accepted so far, for replays.
	Commands []Command
	err      error
	hash     string // the state hash, "" when it must be computed again
}

// Command is a player's answer to what the match asks them: a roll, a
// draw, a path at a fork, buying a tile, a bid.
type Command struct {
	Player int    `json:"player"`
	Kind   string `json:"kind"`
	// Value is the index of the chosen option (0 for a roll or a draw).
	Value int `json:"value,omitempty"`
}

// StallError ends a match in which no rule queued anything more, nobody
// is asked anything and nobody has won.
type StallError struct {
	After string // the last event
}

// Error says what stopped and what the rules must do.
func (e *StallError) Error() string {
	return fmt.Sprintf("the game stopped after %s: no rule queued anything more, nobody is asked anything and nobody won; "+
		"rules must keep the turns going (the Turn preset) and end the game (WIN, END_GAME)", e.After)
}

// NewGame starts a match with the given players, in seat order, and runs
// it until a player must decide something.
func NewGame(def *Definition, players []string, opt Options) (*Game, error) {
	if n := len(players); n < def.MinPlayers || n > def.MaxPlayers {
		if def.MinPlayers == def.MaxPlayers {
			return nil, fmt.Errorf("this game is for %d players, not %d", def.MinPlayers, n)
		}
		return nil, fmt.Errorf("this game is for %d to %d players, not %d", def.MinPlayers, def.MaxPlayers, n)
	}
	if err := engine.CheckPlayers(players); err != nil {
		return nil, err
	}
	if err := opt.Setup.check(def, players); err != nil {
		return nil, err
	}
	s := &State{def: def, Owners: make([]int, len(def.File.Board.Tiles)), Card: CardRef{Deck: -1},
		Decks: make([]DeckState, len(def.File.Decks)), MaxRounds: opt.MaxRounds, Script: slices.Clone(opt.Dice)}
	for i := range s.Owners {
		s.Owners[i] = -1
	}
	for i, name := range players {
		p := Player{Name: name, Seat: i, Score: def.File.Players.Start.Score, Active: true, Props: make([]int, len(def.props))}
		for j, k := range def.props {
			p.Props[j] = def.File.Players.Start.Props[k]
		}
		s.Players = append(s.Players, p)
	}
	m := engine.NewMatch(def.rules, s, opt.Seed, slices.Clone(players))
	// Every rule at the same position: equal priorities run in the order
	// their actions were queued, and one event's rules in the file's order.
	for _, p := range def.parts {
		m.Index.Add(p.trig, engine.System, engine.NoPlayer, engine.NoLocation, 0)
	}
	g := &Game{Def: def, Players: slices.Clone(players), Options: opt, Match: m, State: s}
	err := m.Run(engine.NoPlayer, engine.EffectCall{ID: callStart, Name: "START", Args: startArgs{Setup: opt.Setup}})
	if err := g.settle(err); err != nil {
		return g, err
	}
	return g, nil
}

// Apply plays one command. A command that does not answer what the match
// waits for is rejected (engine.IsRejected) and changes nothing; the match
// then runs until someone must decide again, or it ends.
func (g *Game) Apply(cmd Command) error {
	if g.err != nil {
		return g.err
	}
	if g.State.Over {
		return engine.Rejectf("the game is over")
	}
	if cmd.Player < 0 || cmd.Player >= len(g.Players) {
		return engine.Rejectf("there is no player %d", cmd.Player)
	}
	err := g.Match.Answer(engine.Input{Player: engine.PlayerID(cmd.Player), Kind: cmd.Kind, Choice: cmd.Value})
	if engine.IsRejected(err) {
		return err
	}
	g.hash = ""
	g.Commands = append(g.Commands, cmd)
	return g.settle(err)
}

// settle records what broke the match, if anything: an error of the
// chain, or rules that left nothing to do before the game ended.
func (g *Game) settle(err error) error {
	if err == nil && !g.Match.IsWaiting() && !g.State.Over {
		after := "the start"
		if n := len(g.Match.Events); n > 0 {
			after = g.Def.rules.Types.Name(g.Match.Events[n-1].Type)
		}
		err = &StallError{After: after}
	}
	g.err = err
	return err
}

// Err returns what broke the match (a runaway chain, a failing action, a
// stall), or nil.
func (g *Game) Err() error { return g.err }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.State.Over }

// Hash returns the match's state hash.
func (g *Game) Hash() string {
	// Computed once per state: a server asks for it for the store and for
	// every viewer.
	if g.hash == "" {
		g.hash = g.Match.Hash()
	}
	return g.hash
}

// Wait is something the match waits for.
type Wait struct {
	Player  int      `json:"player"`
	Kind    string   `json:"kind"`
	Prompt  string   `json:"prompt"`
	Options []string `json:"options"`
}

// Waits returns what the match waits for, in the order it was asked:
// several players may owe an answer at once (an auction).
func (g *Game) Waits() []Wait {
	if g.State.Over || g.err != nil {
		return nil
	}
	var out []Wait
	for _, d := range g.Match.Waiting() {
		opts := d.Options
		if opts == nil {
			opts = []string{}
		}
		out = append(out, Wait{Player: int(d.Player), Kind: d.Kind, Prompt: d.Prompt, Options: opts})
	}
	return out
}

// BotCommand returns what a bot playing the given seat does now, if the
// match waits for that seat: it rolls and draws at once, buys whatever it
// is offered, and takes a random way at a fork and a random bid. r is the
// bot's own random stream, so that bots do not change the match's dice.
func (g *Game) BotCommand(seat int, r *rng.Stream) (Command, bool) {
	for _, w := range g.Waits() {
		if w.Player != seat {
			continue
		}
		cmd := Command{Player: seat, Kind: w.Kind}
		switch w.Kind {
		case KindChoosePath, KindBid:
			cmd.Value = r.IntN(len(w.Options))
		}
		return cmd, true
	}
	return Command{}, false
}

// PlayBots lets bots answer everything until the game ends, breaks, or
// maxCommands commands have been played; bots draws on the bots' own
// random stream.
func (g *Game) PlayBots(bots *rng.Stream, maxCommands int) error {
	for n := 0; n < maxCommands && !g.Over(); n++ {
		ws := g.Waits()
		if g.err != nil || len(ws) == 0 {
			return g.err
		}
		cmd, _ := g.BotCommand(ws[0].Player, bots)
		if err := g.Apply(cmd); err != nil {
			return err
		}
	}
	return nil
}

// Replay plays a match again from its commands, checking that each is
// accepted; it is how a stored match is rebuilt.
func Replay(def *Definition, players []string, opt Options, cmds []Command) (*Game, error) {
	g, err := NewGame(def, players, opt)
	if err != nil {
		return g, err
	}
	return g, engine.Replay(cmds, g.Apply)
}
