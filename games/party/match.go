package party

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Options are what a simulation changes in a match, beyond its setup; a
// match started through the game interface has none.
type Options struct {
	// SkipText leaves prompt messages as written, without drawing their
	// placeholders, for matches nobody reads (bots in a simulation). The
	// dice, paths, stats and outcome are those of the same match with
	// text: placeholders draw from their own random stream.
	SkipText bool
	// AutoAck has every prompt acknowledged as soon as it is shown,
	// without asking anyone, as bots would: a simulation then plays the
	// same games without pausing for their answers. A match's setup may
	// ask for it too (game.Setup.AutoAck).
	AutoAck bool
	// NoLog keeps no log beyond the chain under way (engine.Match.SetLog),
	// for matches whose log nobody reads; Sink, if set, receives every
	// record as it is made, the counters a simulation needs. Neither
	// changes the game or its hash.
	NoLog bool
	Sink  engine.Sink
	// Direct runs the turn's own steps outside the engine when no board
	// event hears what they do, and lets the bot a simulation plays a
	// command with (PlayBot) choose the ways of the steps that follow
	// (outside.go): the same match, hash included, for a fraction of the
	// cost, whose choices of way are played within its rolls. It holds
	// with NoLog, AutoAck and no Sink.
	Direct bool
}

// DefaultMaxRounds is the round limit of a match started without one:
// boards that never end stop there.
const DefaultMaxRounds = 100

// Match is one party match: the engine match and the party state, and the
// turn's automatic steps between players' commands. It is a deterministic
// state machine: the same definition, setup, options and commands give the
// same log and hash. It implements game.Match, game.Botter, game.Texter
// and game.Parser.
type Match struct {
	def *Definition
	e   *engine.Match
	s   *State
	opt Options
	// maxRounds is the round limit the match was started with.
	maxRounds int
	// compat is the compatibility mode it was started in, and quirks
	// the original's ways that mode plays by.
	compat string
	quirks Quirks
	// commands counts the commands accepted.
	commands int
	// undoable says whether the last command may be taken back.
	undoable bool
	// ack is the acknowledgement Legal last offered, with the prompt it
	// answers; acks are the log's words for each seat's acknowledgement.
	// Both are made once and shared, by clones too.
	ack struct {
		prompt string
		legal  []game.Command
	}
	acks []string
	// direct is Options.Direct where it holds (no log, no sink), and
	// outside what a step run outside the engine left (outside.go).
	direct  bool
	outside outside
	// reason is the last reason Outcome gave (outcomeReason).
	reason outcomeText
}

// Start begins a match through the game interface (see NewMatch).
func (d *Definition) Start(s game.Setup) (game.Match, error) {
	m, err := d.NewMatch(s, Options{})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// StartFast begins a match for a simulation whose every seat is played by
// the pack's bot (the simulator's sim.Fast): it keeps no log, leaves
// prompt messages unexpanded and acknowledges them as they are shown, as
// the bot would, runs the turn's steps outside the engine where it can
// (Options.Direct), and plays the games Start would play.
func (d *Definition) StartFast(s game.Setup) (game.Match, error) {
	m, err := d.NewMatch(s, Options{SkipText: true, NoLog: true, AutoAck: true, Direct: true})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Commands is the number of commands played so far, the acknowledgements
// the match made by itself in a simulation (Options.AutoAck) and the
// choices of way its bots made within their rolls (Options.Direct)
// included, as the bots would have played them (sim.CommandCounter).
func (m *Match) Commands() int { return m.commands + m.s.tally.acks }

// Restart starts the match over with another setup, as NewMatch would with
// the match's options, keeping its memory when the number of players is
// the same and there are no scripted dice (the simulator's sim.FastMatch).
func (m *Match) Restart(setup game.Setup) error {
	if len(setup.Players) != len(m.s.Players) || len(setup.Dice) > 0 || setup.MaxRounds < 0 || setup.Compat != m.compat {
		n, err := m.def.NewMatch(setup, m.opt)
		if err != nil {
			return err
		}
		*m = *n
		return nil
	}
	if !slices.Equal(setup.Players, m.e.Players) {
		if err := engine.CheckPlayers(setup.Players); err != nil {
			return err
		}
		for i, name := range setup.Players {
			m.s.Players[i].Name = name
			m.e.Players[i] = name
		}
	}
	m.maxRounds = setup.MaxRounds
	return m.Reset(setup.Seed)
}

// NewMatch starts a match with the setup's players, in seat order, whose
// number must be within the board's limits (Info). Its scripted dice are
// rolls' totals, rolled in order before random ones; its round limit is
// DefaultMaxRounds when the setup gives none. Its compatibility mode
// (Setup.Compat) says which of the original game's quirks it plays by
// (QuirksOf). It runs until the first player is asked to roll.
func (d *Definition) NewMatch(setup game.Setup, opt Options) (*Match, error) {
	q, err := QuirksOf(setup.Compat)
	if err != nil {
		return nil, err
	}
	return d.newMatch(setup, opt, q)
}

// newMatch is NewMatch with the quirks to play by, whatever the setup's
// mode: tests turn them on one at a time.
func (d *Definition) newMatch(setup game.Setup, opt Options, q Quirks) (*Match, error) {
	if err := d.info(q).CheckPlayers(len(setup.Players)); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(setup.Players); err != nil {
		return nil, err
	}
	for _, name := range setup.Players {
		// CODE conditions see nicknames: they are as bounded as the
		// board's names (code.MaxName).
		if n := utf8.RuneCountInString(name); n > maxName {
			return nil, fmt.Errorf("a player's nickname has at most %d characters, not %d", maxName, n)
		}
	}
	if setup.MaxRounds < 0 {
		return nil, fmt.Errorf("the round limit must not be negative, not %d", setup.MaxRounds)
	}
	dice := d.dice(q)
	for i, v := range setup.Dice {
		if v < dice.Count || v > dice.Count*dice.Sides {
			return nil, fmt.Errorf("scripted roll %d (%d) is impossible with %dd%d: a roll is %d to %d",
				i+1, v, dice.Count, dice.Sides, dice.Count, dice.Count*dice.Sides)
		}
	}
	players := slices.Clone(setup.Players)
	s := &State{Players: make([]Player, len(players))}
	for i, name := range players {
		s.Players[i].Name = name
	}
	opt.AutoAck = opt.AutoAck || setup.AutoAck
	m := &Match{def: d, s: s, opt: opt, maxRounds: setup.MaxRounds, compat: setup.Compat, quirks: q,
		e: engine.NewMatch(d.pack.rules, s, setup.Seed, players)}
	if opt.NoLog || opt.Sink != nil {
		m.e.SetLog(!opt.NoLog, opt.Sink)
	}
	m.direct = opt.Direct && opt.NoLog && opt.Sink == nil && opt.AutoAck
	if err := m.start(setup.Dice, false); err != nil {
		return nil, err
	}
	return m, nil
}

// Reset starts the match over on the same board with the same players,
// round limit and options and a new seed, without scripted dice, exactly
// as NewMatch would, but reusing the memory of the match it had: a
// simulation that plays many games one after another allocates little.
func (m *Match) Reset(seed uint64) error {
	// A board's triggers never move: those placed last game stay.
	kept := m.e.ResetKeepingTriggers(m.s, seed)
	return m.start(nil, kept)
}

// start sets up a new match: the players on no space yet, the board's
// events placed (unless placed is set: the engine kept them), and the
// turn run until the first player is asked to roll.
func (m *Match) start(dice []int, placed bool) (err error) {
	if m.direct {
		defer m.recoverOutside(&err)
	}
	s, def := m.s, m.def
	players := s.Players
	for i := range players {
		p := &players[i]
		clear(p.Stats)
		*p = Player{Name: p.Name, Seat: i, State: Waiting, Stats: p.Stats, Effects: p.Effects[:0], History: p.History[:0]}
	}
	maxRounds := m.maxRounds
	if maxRounds == 0 {
		maxRounds = DefaultMaxRounds
	}
	if s.statChanges != nil {
		s.statChanges.n = 0 // the events that pointed into it are gone
	}
	*s = State{def: def, board: def.Board, Phase: phaseNone, MaxRounds: maxRounds, skipText: m.opt.SkipText, autoAck: m.opt.AutoAck,
		Players: players, Finished: s.Finished[:0], LastRoll: s.LastRoll[:0], Dice: append(s.Dice[:0], dice...),
		Winners: s.Winners[:0], statChanges: s.statChanges, quirks: m.quirks, tally: s.tally}
	s.tally.reset(def, len(players))
	for _, t := range def.triggers {
		if placed {
			break
		}
		// Ties between events of equal priority go in board order: space
		// order, then the space's event order.
		ref := t.def.Data.(eventRef)
		m.e.Index.Add(t.def, spaceID(t.space), engine.NoPlayer, engine.LocationID(t.space), int64(ref.Space)<<16|int64(ref.Event))
	}
	m.commands, m.undoable = 0, false
	return m.advance()
}

// Apply plays a seat's command given as JSON (see Command).
//
// A match whose first command is in the form earlier servers stored (it
// names its seat in "player") is one of theirs, replayed: it plays by
// their rule, every player a prompt addresses acknowledges it, so that it
// goes on exactly as it was played, with the hashes it was stored with.
// Nothing is prompted before the first command (a roll), so the rule is
// settled before it matters.
func (m *Match) Apply(seat int, data json.RawMessage) error {
	if c, ok := botCommand(data); ok {
		// A command as Legal writes it, read without the JSON decoder.
		return m.Play(seat, c)
	}
	c, stored, err := readCommand(seat, data)
	if err != nil {
		return err
	}
	if !stored || m.commands > 0 || m.s.ackAll {
		return m.Play(seat, c)
	}
	m.s.ackAll = true
	m.e.Touch()
	if err := m.Play(seat, c); err != nil {
		m.s.ackAll = false
		m.e.Touch()
		return err
	}
	return nil
}

// Play plays one command of a seat. A command out of turn, of the wrong
// kind or out of range is rejected (engine.IsRejected) and changes
// nothing; the match then runs until it needs someone's input again.
func (m *Match) Play(seat int, c Command) (err error) {
	if m.direct {
		defer m.recoverOutside(&err)
	}
	s, e := m.s, m.e
	if s.Over {
		return engine.Rejectf("the game is over")
	}
	if seat < 0 || seat >= len(s.Players) {
		return engine.Rejectf("there is no seat %d: the seats are 0 to %d", seat, len(s.Players)-1)
	}
	draws, scripted := e.RNG.Draws(), len(s.Dice)
	switch c.Kind {
	case KindRoll:
		if c.Value != 0 || c.Space != "" {
			return engine.Rejectf(`the dice are rolled by the match: a roll is {"kind": "roll"}, without a value`)
		}
		if e.IsWaiting() {
			return engine.Rejectf("%s cannot roll now: waiting for %s", s.Players[seat].Name, m.waitingText())
		}
		if seat != s.Current {
			return engine.Rejectf("it is %s's turn, not %s's", s.Players[s.Current].Name, s.Players[seat].Name)
		}
		if err := m.run(seat, &m.def.pack.calls.roll, roll); err != nil {
			return err
		}
	case KindChoosePath, KindAck:
		choice, err := m.choice(seat, c)
		if err != nil {
			return err
		}
		if err := e.Answer(engine.Input{Player: engine.PlayerID(seat), Kind: c.Kind, Choice: choice}); err != nil {
			return err
		}
	default:
		return engine.Rejectf("unknown command %q%s: a command is roll, choose-path or ack", c.Kind, diag.DidYouMean(c.Kind, commandKinds))
	}
	m.commands++
	err = m.advance()
	// A choice of way or an acknowledgement may be taken back if nothing
	// random followed it before the next decision (a placeholder drawn, a
	// random swap, a roll of its own) and the game goes on; a roll never.
	m.undoable = err == nil && c.Kind != KindRoll && e.RNG.Draws() == draws && len(s.Dice) == scripted && !s.Over
	return err
}

// Undoable reports whether the last command may be taken back
// (game.Undoer): see Play.
func (m *Match) Undoable() bool { return m.undoable }

// choice returns the option a choose-path or ack command answers: its
// value, or the way leading to its space.
func (m *Match) choice(seat int, c Command) (int, error) {
	if c.Kind == KindAck {
		if c.Value != 0 || c.Space != "" {
			return 0, engine.Rejectf(`an acknowledgement is {"kind": "ack"}, without a value or a space`)
		}
		return 0, nil
	}
	if c.Space == "" {
		return c.Value, nil
	}
	if c.Value != 0 {
		return 0, engine.Rejectf("a choice of way gives its value or its space, not both")
	}
	if d, ok := m.e.WaitingFor(engine.PlayerID(seat)); !ok || d.Kind != KindChoosePath {
		return 0, nil // the engine says why it is not asked
	}
	ways := m.ways()
	for i, to := range ways {
		if m.def.Board.Spaces[to].ID == c.Space {
			return i, nil
		}
	}
	var ids []string
	for _, to := range ways {
		ids = append(ids, m.def.Board.Spaces[to].ID)
	}
	return 0, engine.Rejectf("space %q is not one of the ways %s can go: %s", c.Space, m.s.Players[seat].Name, strings.Join(ids, ", "))
}

// MaxWalk is the most steps a match walks without anyone's input: a walk
// that goes on longer (a loop whose spaces keep adding steps) stops where
// the player stands, as FORCE_STOP stops it, and the turn ends there even
// if landing adds steps again.
const MaxWalk = 10_000

// advance runs the turn's automatic steps (start of turn, each step of a
// move, end of turn), each as its own chain, until a player must act.
func (m *Match) advance() error {
	s, e, calls := m.s, m.e, &m.def.pack.calls
	walked := 0
	for !e.IsWaiting() && !s.Over {
		var err error
		switch s.Phase {
		case phaseNone:
			err = m.run(s.Current, &calls.startGame, startGame)
		case phaseFirst, PhaseStart, phaseAgain:
			err = m.run(s.Current, &calls.beginTurn, beginTurn)
		case PhaseRoll:
			return nil
		case PhaseMove:
			// Past the stop, the turn ends even if landing added steps.
			switch {
			case s.RemainingMoves == 0 || walked > MaxWalk:
				err = m.run(s.Current, &calls.endTurn, endTurn)
			case walked == MaxWalk:
				err = e.Run(engine.PlayerID(s.Current), m.def.pack.fx.forceStop.Call(ForceStopArgs{}))
			default:
				err = m.run(s.Current, &calls.step, step)
			}
			walked++
		case PhaseEnd:
			err = m.run(s.Current, &calls.endTurn, endTurn)
		default:
			return fmt.Errorf("party: unknown phase %q", s.Phase)
		}
		if err != nil {
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
func (m *Match) Waits() []Wait {
	var out []Wait
	m.eachWait(func(w Wait) { out = append(out, w) })
	return out
}

// Waiting returns the seats the match waits for, in order, each once.
func (m *Match) Waiting() []int { return m.AppendWaiting(nil) }

// AppendWaiting appends to dst the seats Waiting returns, the seats of
// Waits without building them.
func (m *Match) AppendWaiting(dst []int) []int {
	s, e := m.s, m.e
	switch {
	case s.Over:
	case e.IsWaiting():
		from := len(dst)
		asked, answered := e.Asked()
		for i := range asked {
			if p := int(asked[i].Player); !answered[i] && !slices.Contains(dst[from:], p) {
				dst = append(dst, p)
			}
		}
	case s.Phase == PhaseRoll:
		dst = append(dst, s.Current)
	}
	return dst
}

// waitingText says whom the match waits for and for what, in the players'
// words: "Ann to roll", "Bob to read the message".
func (m *Match) waitingText() string {
	var parts []string
	for _, w := range m.Waits() {
		what := map[string]string{KindRoll: "to roll", KindChoosePath: "to choose a way", KindAck: "to read the message"}[w.Kind]
		parts = append(parts, m.s.Players[w.Player].Name+" "+what)
	}
	return strings.Join(parts, ", ")
}

// Legal returns the commands the seat may play now: the roll, one
// choose-path per way at a fork, or the acknowledgement of a prompt.
func (m *Match) Legal(seat int) []game.Command {
	s, e := m.s, m.e
	switch {
	case s.Over || seat < 0 || seat >= len(s.Players):
	case e.IsWaiting():
		d, ok := e.WaitingFor(engine.PlayerID(seat))
		if !ok {
			break
		}
		if d.Kind == KindAck {
			// Made once for each prompt: every seat asked, and every
			// broadcast until it is answered, is offered the same.
			if a := &m.ack; a.legal == nil || a.prompt != d.Prompt {
				a.prompt, a.legal = d.Prompt, []game.Command{{Data: ackJSON, Text: "OK: " + d.Prompt}}
			}
			return m.ack.legal
		}
		if m.s.player().Reversed {
			return m.def.prevLegal[m.s.player().Space]
		}
		return m.def.nextLegal[m.s.player().Space]
	case s.Phase == PhaseRoll && s.Current == seat:
		return rollLegal[:1:1]
	}
	return nil
}

// rollLegal is what a player may do at the start of their turn: the same
// for every match, made once (callers do not change what Legal returns).
var rollLegal = []game.Command{{Data: rollJSON, Text: "Roll the dice"}}

// ways are the spaces the current player may step to.
func (m *Match) ways() []int {
	p := m.s.player()
	if p.Reversed {
		return m.def.prev[p.Space]
	}
	return m.def.next[p.Space]
}

// wayNames names the ways the current player may take, in order, as
// players call them (wayTitles).
func (m *Match) wayNames() []string {
	p := m.s.player()
	if p.Reversed {
		return m.def.prevLabels[p.Space]
	}
	return m.def.nextLabels[p.Space]
}

// Bot returns what a bot playing the seat does now, if the match waits
// for that seat: it rolls the dice, takes a random path at a fork, and
// acknowledges prompts at once. r is the bot's own random stream (not the
// match's, so that bots do not change the match's dice).
//
// It answers the seat's first wait without building the list of waits:
// simulations ask it for every command.
func (m *Match) Bot(seat int, r *rng.Stream) (Command, bool) {
	s, e := m.s, m.e
	switch {
	case s.Over:
	case e.IsWaiting():
		d, ok := e.WaitingFor(engine.PlayerID(seat))
		if !ok {
			break
		}
		if d.Kind == KindChoosePath {
			return Command{Kind: d.Kind, Value: r.IntN(len(d.Options))}, true
		}
		return Command{Kind: d.Kind}, true
	case s.Phase == PhaseRoll && s.Current == seat:
		return Command{Kind: KindRoll}, true
	}
	return Command{}, false
}

// PlayBot plays for the seat what Bot returns, as Apply plays BotCommand's
// JSON, and reports whether there was a command (the simulator's
// sim.FastMatch).
func (m *Match) PlayBot(seat int, r *rng.Stream) (bool, error) {
	c, ok := m.Bot(seat, r)
	if !ok {
		return false, nil
	}
	if !m.direct {
		return true, m.Play(seat, c)
	}
	// The seat's choices of way in the steps that follow are the bot's
	// too (outside.go).
	o := &m.outside
	o.bot, o.botSeat = r, seat
	err := m.Play(seat, c)
	o.bot = nil
	return true, err
}

// BotCommand is Bot as JSON, for the game interface.
func (m *Match) BotCommand(seat int, r *rng.Stream) (json.RawMessage, bool) {
	c, ok := m.Bot(seat, r)
	if !ok {
		return nil, false
	}
	return c.json(), true
}

// Hash returns the match's state hash (the engine's, cached by it).
func (m *Match) Hash() string { return m.e.Hash() }

// LogLen is the number of log records so far.
func (m *Match) LogLen() int { return len(m.e.Records()) }

// Outcome says whether and how the match ended: its winners, why it
// ended, and the rounds played (the last perhaps in part).
func (m *Match) Outcome() game.Outcome {
	s := m.s
	o := game.Outcome{Over: s.Over, Rounds: s.LastRound, Reason: m.outcomeReason()}
	if len(s.Winners) == 1 && s.Winners[0] < len(allSeats) {
		// The usual one winner, as a slice of allSeats (shared, never
		// changed) rather than a copy: simulations ask after every game.
		w := s.Winners[0]
		o.Winners = allSeats[w : w+1 : w+1]
	} else {
		o.Winners = append([]int{}, s.Winners...)
	}
	return o
}

// outcomeReason says why the match ended, in the players' words
// (reasonWords), naming the one winner who reached a winning space. The
// last one is kept: the games of a simulation mostly end alike.
func (m *Match) outcomeReason() string {
	s, r := m.s, &m.reason
	name := "" // of the one winner, in seat order: seats change hands
	if s.Over && len(s.Winners) == 1 {
		name = s.Players[s.Winners[0]].Name
	}
	if r.text != "" && r.end == s.EndReason && r.name == name {
		return r.text
	}
	text := m.reasonWords(s.EndReason)
	if name != "" && strings.HasPrefix(s.EndReason, "reached ") {
		text = name + " " + text
	}
	*r = outcomeText{end: s.EndReason, name: name, text: text}
	return text
}

// outcomeText is the last reason Outcome gave, with what it says it of.
type outcomeText struct{ end, name, text string }

// reasonWords says why a match ended in the players' words. The state
// keeps the reason as matches have always written it, space ids included
// ("reached Finish (11)"), since it is part of the state hash of stored
// matches: this names the space as players call it ("reached Finish").
func (m *Match) reasonWords(reason string) string {
	if reason == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(reason, "reached "); ok {
		for i := range m.def.Board.Spaces {
			if sp := &m.def.Board.Spaces[i]; rest == spaceLabel(sp) {
				return "reached " + spaceTitle(sp)
			}
		}
	}
	if n, ok := strings.CutPrefix(reason, "stopped at the round cap ("); ok && strings.HasSuffix(n, ")") {
		return "the round limit of " + strings.TrimSuffix(n, ")") + " was reached"
	}
	if n, ok := strings.CutPrefix(reason, "the turn limit ("); ok && strings.HasSuffix(n, ") was reached") {
		return "the turn limit of " + strings.TrimSuffix(n, ") was reached") + " was reached"
	}
	return reason
}

// Compat returns the compatibility mode the match plays in (Setup.Compat):
// "" for the fixed rules, "original" for the original game's.
func (m *Match) Compat() string { return m.compat }

// Engine returns the engine match, for tools that read its log and index
// (a simulator).
func (m *Match) Engine() *engine.Match { return m.e }

// State returns the match's state. It is the match's own: only its
// commands change it.
func (m *Match) State() *State { return m.s }

// Definition returns the board the match is played on.
func (m *Match) Definition() *Definition { return m.def }

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
func (m *Match) Firings() []Firing {
	var out []Firing
	for i, r := range m.e.Records() {
		if r.Kind == engine.RecFired {
			out = append(out, m.firing(i, r))
		}
	}
	return out
}

func (m *Match) firing(seq int, r engine.Record) Firing {
	t := m.e.Index.Get(r.Trigger)
	ref := t.Def.Data.(eventRef)
	ev := &m.def.Board.Spaces[ref.Space].Events[ref.Event]
	return Firing{
		Seq: seq, Chain: int(r.Chain), Depth: int(r.Depth), Player: int(m.e.Events[r.Event].Player),
		Space: ref.Space, Event: ref.Event, Trigger: ev.Trigger, Action: ev.Action.Type,
	}
}

// FiringLine renders a firing as "SPACE_ID TRIGGER ACTION".
func (m *Match) FiringLine(f Firing) string {
	return m.def.Board.Spaces[f.Space].ID + " " + f.Trigger + " " + f.Action
}

// WriteLog writes the match's log from record from on as JSON lines: the
// engine's records, where each firing also says which space and event of
// the board fired, its trigger and action, and for whom.
func (m *Match) WriteLog(w io.Writer, from int) error {
	return m.e.WriteJSONLWith(w, from, func(b []byte, i int, r *engine.Record) []byte {
		if r.Kind != engine.RecFired {
			return b
		}
		f := m.firing(i, *r)
		sp := &m.def.Board.Spaces[f.Space]
		return fmt.Appendf(b, `,"space":%q,"spaceName":%q,"spaceEvent":%d,"triggerType":%q,"action":%q,"player":%q`,
			sp.ID, sp.Name, f.Event, f.Trigger, f.Action, m.s.Players[f.Player].Name)
	})
}

// Standings rank the players (game.Ranker): the winners, then those who
// finished in the order they did, then everybody else, level; with where
// each stands and the board's stats (drinks…).
func (m *Match) Standings() game.Standings {
	s := m.s
	rank := func(seat int) int {
		if slices.Contains(s.Winners, seat) {
			return 0
		}
		if i := slices.Index(s.Finished, seat); i >= 0 {
			return 1 + i
		}
		return 1 + len(s.Players)
	}
	var stats []string
	for i := range s.Players {
		for k := range s.Players[i].Stats {
			if !slices.Contains(stats, k) {
				stats = append(stats, k)
			}
		}
	}
	slices.Sort(stats)
	st := game.Rank(len(s.Players), func(a, b int) int { return rank(a) - rank(b) }, func(seat int) []string {
		p := &s.Players[seat]
		out := []string{spaceTitle(&m.def.Board.Spaces[p.Space])}
		for _, k := range stats {
			out = append(out, formatNumber(p.Stats[k].Display))
		}
		return out
	}, func(seat int) string {
		// The place says in what order they finished.
		if slices.Contains(s.Finished, seat) {
			return "finished"
		}
		return ""
	})
	st.Figures = []string{"space"}
	for _, k := range stats {
		st.Figures = append(st.Figures, statLabel(k))
	}
	return st
}
