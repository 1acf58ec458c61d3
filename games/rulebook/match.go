package rulebook

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// DefaultMaxRounds is the round limit of a match started without one:
// games that never end stop there.
const DefaultMaxRounds = 1000

// Opening changes the starting state of a match: where players stand,
// their scores and properties, who owns which tiles, who goes first. A
// scenario file's "setup" is one.
type Opening struct {
	// Players are changes by player name.
	Players map[string]PlayerOpening `yaml:"players" json:"players,omitempty"`
	// Owners gives tiles (by id) to players (by name).
	Owners map[string]string `yaml:"owners" json:"owners,omitempty"`
	// Current is the name of the player who goes first.
	Current string `yaml:"current" json:"current,omitempty"`
}

// PlayerOpening changes one player's starting state.
type PlayerOpening struct {
	Tile  string         `yaml:"tile" json:"tile,omitempty"`
	Score *int           `yaml:"score" json:"score,omitempty"`
	Props map[string]int `yaml:"props" json:"props,omitempty"`
}

// check reports names in an opening that do not exist.
func (o *Opening) check(d *Definition, players []string) error {
	if o == nil {
		return nil
	}
	seat := func(name string) error {
		if !slices.Contains(players, name) {
			return fmt.Errorf("setup: there is no player %q (the players are %s)", name, strings.Join(players, ", "))
		}
		return nil
	}
	for _, name := range sortedKeys(o.Players) {
		if err := seat(name); err != nil {
			return err
		}
		ps := o.Players[name]
		if _, ok := d.byID[ps.Tile]; ps.Tile != "" && !ok {
			return fmt.Errorf("setup: %s: there is no tile %q", name, ps.Tile)
		}
		for _, k := range sortedKeys(ps.Props) {
			if _, ok := d.propIndex[k]; !ok {
				return fmt.Errorf("setup: %s: players have no property %q (they have %s)", name, k, strings.Join(d.props, ", "))
			}
		}
	}
	for _, id := range sortedKeys(o.Owners) {
		if _, ok := d.byID[id]; !ok {
			return fmt.Errorf("setup: owners: there is no tile %q", id)
		}
		if err := seat(o.Owners[id]); err != nil {
			return err
		}
	}
	if o.Current != "" {
		return seat(o.Current)
	}
	return nil
}

// apply changes a state as the opening says; check has accepted it.
func (o *Opening) apply(s *State) {
	if o == nil {
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
	for _, name := range sortedKeys(o.Players) {
		ps := o.Players[name]
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
	for _, id := range sortedKeys(o.Owners) {
		s.Owners[s.def.byID[id]] = seat(o.Owners[id])
	}
	if o.Current != "" {
		s.Current = seat(o.Current)
	}
}

// Info describes the game: its name, its player limits, its size in
// tiles.
func (d *Definition) Info() game.Info {
	return game.Info{Pack: "rulebook", Name: d.File.Name, Description: d.File.Description, HowToPlay: d.File.HowToPlay,
		MinPlayers: d.minPlayers, MaxPlayers: d.maxPlayers, DefaultMaxRounds: DefaultMaxRounds,
		Size: strconv.Itoa(len(d.File.Board.Tiles)) + " tiles"}
}

// Start begins a match (see NewMatch); a match that breaks before anyone
// is asked anything is an error.
func (d *Definition) Start(s game.Setup) (game.Match, error) {
	m, err := d.NewMatch(s, nil)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// NewMatch starts a match with the players, seed, scripted dice and round
// limit of s (MaxRounds 0: DefaultMaxRounds), the starting state changed
// as o says (nil: as the file says), and runs it until a player must
// decide something. If the rules break the match on the way (they stall or
// loop), it returns the broken match with the error.
func (d *Definition) NewMatch(s game.Setup, o *Opening) (*Match, error) {
	if err := d.Info().CheckPlayers(len(s.Players)); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(s.Players); err != nil {
		return nil, err
	}
	for _, name := range s.Players {
		// Conditions see players' names: they are as bounded as the
		// file's names (see sizes).
		if n := utf8.RuneCountInString(name); n > maxName {
			return nil, fmt.Errorf("a player's name has at most %d characters, not %d", maxName, n)
		}
	}
	if err := o.check(d, s.Players); err != nil {
		return nil, err
	}
	maxRounds := s.MaxRounds
	if maxRounds == 0 {
		maxRounds = DefaultMaxRounds
	}
	st := &State{def: d, Owners: make([]int, len(d.File.Board.Tiles)), Card: CardRef{Deck: -1},
		Decks: make([]DeckState, len(d.File.Decks)), MaxRounds: maxRounds, Script: slices.Clone(s.Dice)}
	for i := range st.Owners {
		st.Owners[i] = -1
	}
	for i, name := range s.Players {
		p := Player{Name: name, Seat: i, Score: d.File.Players.Start.Score, Active: true, Props: make([]int, len(d.props))}
		for j, k := range d.props {
			p.Props[j] = d.File.Players.Start.Props[k]
		}
		st.Players = append(st.Players, p)
	}
	players := slices.Clone(s.Players)
	e := engine.NewMatch(d.rules, st, s.Seed, players)
	// Every rule at the same position: equal priorities run in the order
	// their actions were queued, and one event's rules in the file's order.
	for _, p := range d.parts {
		e.Index.Add(p.trig, engine.System, engine.NoPlayer, engine.NoLocation, 0)
	}
	m := &Match{def: d, players: players, eng: e, state: st, words: map[int]string{}, said: map[int]string{}}
	if err := m.settle(e.Run(engine.NoPlayer, d.pack.start.Call(startArgs{Opening: o}))); err != nil {
		return m, err
	}
	return m, nil
}

// Match is one rule book match: the engine match and its state. It is a
// deterministic state machine: the same game, setup and commands give the
// same log and hash.
type Match struct {
	def     *Definition
	players []string
	eng     *engine.Match
	state   *State
	// commands counts the commands accepted.
	commands int
	err      error
	// undoable says whether the last command may be taken back.
	undoable bool
	// words tells answers in the players' words, by log record; said holds
	// those of the current pause not yet logged (sealed bids), by seat.
	words map[int]string
	said  map[int]string
	// placeCounts are the figures per tile counted from the log's
	// records up to placeSeen (tally.go).
	placeCounts []float64
	placeSeen   int
}

// Command is a seat's answer to what the match asks it: {"kind": "roll"},
// {"kind": "bid", "value": 2}. Dice are never in a command: the match rolls
// them.
type Command struct {
	// Kind is the kind of decision answered: roll, draw, choose-path, buy,
	// bid.
	Kind string `json:"kind"`
	// Value is the index of the chosen option (0 for a roll or a draw).
	Value int `json:"value,omitempty"`
}

// storedCommand is a command as Apply reads it. Matches stored by earlier
// versions name the seat in "player"; it must be the seat's own.
type storedCommand struct {
	Player *int   `json:"player,omitempty"`
	Kind   string `json:"kind"`
	Value  int    `json:"value,omitempty"`
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

// State returns the match's state. Change it only through commands.
func (m *Match) State() *State { return m.state }

// Apply plays a seat's command given as JSON (see Command).
func (m *Match) Apply(seat int, data json.RawMessage) error {
	var c storedCommand
	if err := game.DecodeCommand(data, &c); err != nil {
		return engine.Rejectf(`a rule book command is {"kind": "roll"}, or {"kind": "bid", "value": 2} for an option: %v`, err)
	}
	if c.Player != nil && *c.Player != seat {
		return engine.Rejectf("the command is for seat %d, and was sent by seat %d", *c.Player, seat)
	}
	if c.Kind == "" {
		return engine.Rejectf(`a rule book command needs "kind": what it answers (roll, draw, choose-path, buy, bid)`)
	}
	return m.Play(seat, Command{Kind: c.Kind, Value: c.Value})
}

// Play plays one command of a seat. A command that does not answer what
// the match asks the seat is rejected (engine.IsRejected) and changes
// nothing; the match then runs until someone must decide again, or it
// ends.
func (m *Match) Play(seat int, cmd Command) error {
	if m.err != nil {
		return m.err
	}
	if m.state.Over {
		return engine.Rejectf("the game is over")
	}
	if seat < 0 || seat >= len(m.players) {
		return engine.Rejectf("there is no seat %d", seat)
	}
	d, asked := m.eng.WaitingFor(engine.PlayerID(seat))
	from := len(m.eng.Records())
	draws, scripted, drawn := m.eng.RNG.Draws(), m.state.Scripted, m.state.drawn
	err := m.eng.Answer(engine.Input{Player: engine.PlayerID(seat), Kind: cmd.Kind, Choice: cmd.Value})
	if engine.IsRejected(err) {
		return err
	}
	m.commands++
	if asked {
		m.said[seat] = m.answerWords(seat, d, cmd.Value)
	}
	// The answers logged now: this one, or every sealed one at once.
	for i, r := range m.eng.Records()[from:] {
		if r.Kind != engine.RecAnswer {
			continue
		}
		if w, ok := m.said[int(r.Player)]; ok {
			if w != "" {
				m.words[from+i] = w
			}
			delete(m.said, int(r.Player))
		}
	}
	err = m.settle(err)
	m.undoable = err == nil && m.eng.RNG.Draws() == draws && m.state.Scripted == scripted && m.state.drawn == drawn &&
		!m.opened(seat, from) && !m.state.Over
	return err
}

// Undoable reports whether the last command may be taken back
// (game.Undoer): a choice (a way, a purchase, a bid) may, unless what
// followed it before the next decision rolled a die, drew a card, opened
// the other players' sealed bids or ended the game. A roll or a draw never
// may.
func (m *Match) Undoable() bool { return m.undoable }

// opened reports whether the log from record from on shows another seat's
// answer: the sealed bids opened by the last one given.
func (m *Match) opened(seat, from int) bool {
	for _, r := range m.eng.Records()[from:] {
		if r.Kind == engine.RecAnswer && int(r.Player) != seat {
			return true
		}
	}
	return false
}

// answerWords tells an answer in the players' words: "Bob bids 40", "Bob
// passes on Mayfair Square", "Ann goes to Gumdrop Pass"; nothing for a roll,
// a draw or a purchase, which their events tell.
func (m *Match) answerWords(seat int, d engine.Decision, choice int) string {
	if d.Kind == KindBuy || choice < 0 || choice >= len(d.Options) {
		return ""
	}
	verb, rest, _ := strings.Cut(d.Options[choice], " ")
	switch verb {
	case "Pass":
		verb = "passes"
	case "Bid":
		verb = "bids"
	case "Go":
		verb = "goes"
	default:
		return m.players[seat] + " chooses " + d.Options[choice]
	}
	return m.players[seat] + " " + verb + " " + rest
}

// settle records what broke the match, if anything: an error of the
// chain, or rules that left nothing to do before the game ended.
func (m *Match) settle(err error) error {
	if err == nil && !m.eng.IsWaiting() && !m.state.Over {
		after := "the start"
		if n := len(m.eng.Events); n > 0 {
			after = m.def.rules.Types.Name(m.eng.Events[n-1].Type)
		}
		err = &StallError{After: after}
	}
	m.err = err
	return err
}

// Err returns what broke the match (a runaway chain, a failing action, a
// stall), or nil.
func (m *Match) Err() error { return m.err }

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.state.Over }

// Hash returns the match's state hash.
func (m *Match) Hash() string { return m.eng.Hash() }

// LogLen is the number of log records so far.
func (m *Match) LogLen() int { return len(m.eng.Records()) }

// Wait is something the match waits for.
type Wait struct {
	Player  int      `json:"player"`
	Kind    string   `json:"kind"`
	Prompt  string   `json:"prompt"`
	Options []string `json:"options"`
}

// Waits returns what the match waits for, in the order it was asked:
// several players may owe an answer at once (an auction).
func (m *Match) Waits() []Wait {
	if m.state.Over || m.err != nil {
		return nil
	}
	var out []Wait
	for _, d := range m.eng.Waiting() {
		opts := d.Options
		if opts == nil {
			opts = []string{}
		}
		out = append(out, Wait{Player: int(d.Player), Kind: d.Kind, Prompt: d.Prompt, Options: opts})
	}
	return out
}

// Waiting returns the seats the match waits for, in the order they were
// asked.
func (m *Match) Waiting() []int {
	var out []int
	for _, w := range m.Waits() {
		if !slices.Contains(out, w.Player) {
			out = append(out, w.Player)
		}
	}
	return out
}

// Legal returns a command for each option of the seat's first decision
// ("Buy Mayfair Square for 200", "Pass on Mayfair Square", "Bid 40", "Go to
// Gumdrop Pass"), or the one command that answers a decision without
// options ("Roll the die").
func (m *Match) Legal(seat int) []game.Command {
	w, ok := m.firstWait(seat)
	if !ok {
		return nil
	}
	if len(w.Options) == 0 {
		return []game.Command{{Data: commandJSON(Command{Kind: w.Kind}), Text: w.Prompt}}
	}
	out := make([]game.Command, len(w.Options))
	for i, label := range w.Options {
		out[i] = game.Command{Data: commandJSON(Command{Kind: w.Kind, Value: i}), Text: label}
	}
	return out
}

// firstWait returns the first decision the match waits for from a seat.
func (m *Match) firstWait(seat int) (Wait, bool) {
	for _, w := range m.Waits() {
		if w.Player == seat {
			return w, true
		}
	}
	return Wait{}, false
}

func commandJSON(c Command) json.RawMessage {
	js, _ := json.Marshal(c)
	return js
}

// Outcome says whether the game ended, who won, why, and how many rounds
// were played.
func (m *Match) Outcome() game.Outcome {
	s := m.state
	rounds := s.Round
	if s.MaxRounds > 0 && rounds > s.MaxRounds {
		rounds = s.MaxRounds // the round limit ended it before the round began
	}
	return game.Outcome{Over: s.Over, Winners: append([]int{}, s.Winners...), Reason: s.endWords, Rounds: rounds}
}

// BotCommand returns, as JSON, what a bot playing the seat does now (see
// Bot).
func (m *Match) BotCommand(seat int, r *rng.Stream) (json.RawMessage, bool) {
	c, ok := m.Bot(seat, r)
	if !ok {
		return nil, false
	}
	return commandJSON(c), true
}

// Bot returns what a bot playing the seat does now, if the match waits for
// it: it rolls and draws at once, buys whatever it is offered, and takes a
// random way at a fork and a random bid. r is the bot's own random stream,
// so that bots do not change the match's dice.
func (m *Match) Bot(seat int, r *rng.Stream) (Command, bool) {
	w, ok := m.firstWait(seat)
	if !ok {
		return Command{}, false
	}
	cmd := Command{Kind: w.Kind}
	switch w.Kind {
	case KindChoosePath, KindBid:
		cmd.Value = r.IntN(len(w.Options))
	}
	return cmd, true
}

// PlayBots lets bots answer everything until the game ends, breaks, or
// maxCommands commands have been played; bots draws on the bots' own
// random stream.
func (m *Match) PlayBots(bots *rng.Stream, maxCommands int) error {
	for n := 0; n < maxCommands && !m.Over(); n++ {
		ws := m.Waiting()
		if m.err != nil || len(ws) == 0 {
			return m.err
		}
		cmd, _ := m.Bot(ws[0], bots)
		if err := m.Play(ws[0], cmd); err != nil {
			return err
		}
	}
	return nil
}

// Standings rank the players (game.Ranker): the winners first, then those
// still playing, by their score in a game that keeps one (then by the
// tiles they own), else by how far along the board they are; the players
// who are out come last. The figures are the score (by the game's name
// for it), the tiles owned in a game with prices, and where each stands.
func (m *Match) Standings() game.Standings {
	s, d := m.state, m.def
	priced := slices.ContainsFunc(d.File.Board.Tiles, func(t Tile) bool { return t.Price > 0 })
	group := func(seat int) int {
		switch {
		case slices.Contains(s.Winners, seat):
			return 0
		case s.Players[seat].Active:
			return 1
		}
		return 2
	}
	st := game.Rank(len(s.Players), func(a, b int) int {
		if g := group(a) - group(b); g != 0 {
			return g
		}
		if d.scores {
			if c := s.Players[b].Score - s.Players[a].Score; c != 0 {
				return c
			}
			return s.owned(b) - s.owned(a)
		}
		return s.Players[b].Tile - s.Players[a].Tile
	}, func(seat int) []string {
		p := &s.Players[seat]
		var out []string
		if d.scores {
			out = append(out, strconv.Itoa(p.Score))
		}
		if priced {
			out = append(out, strconv.Itoa(s.owned(seat)))
		}
		return append(out, s.tileLabel(p.Tile))
	}, func(seat int) string {
		if !s.Players[seat].Active {
			return "out"
		}
		return ""
	})
	if d.scores {
		st.Figures = append(st.Figures, cmp.Or(d.scoreName, "score"))
	}
	if priced {
		st.Figures = append(st.Figures, "tiles owned")
	}
	st.Figures = append(st.Figures, "on")
	return st
}
