package party

import (
	"strconv"

	"github.com/tabulagames/tabula/engine"
)

// State is the state of a party match. Only the pack's effects change it.
type State struct {
	def   *Definition
	board *Board
	// Players are in seat order.
	Players []Player
	// Current is the seat of the player whose turn it is.
	Current int
	// RemainingMoves belongs to the current player: the steps still to walk.
	RemainingMoves int
	// Phase is where the turn stands: see the Phase constants.
	Phase string
	// Turn counts the turns begun in the whole match (skipped ones too).
	Turn int
	// MaxRounds stops a match that would never end (0: no cap); it is set
	// by whoever starts the match, not by the board.
	MaxRounds int
	// Over is set when the game has ended; Winners are the seats that won,
	// in order (empty: no winner), and EndReason says why it ended.
	Over      bool
	Winners   []int
	EndReason string
	// Finished are the seats in the order they reached COMPLETED_GAME.
	Finished []int
	// LastRoll is the last dice result.
	LastRoll []int
	// Dice are the scripted rolls not rolled yet (game.Setup.Dice), each a
	// roll's total; once they run out the dice are rolled from the seed.
	Dice []int
	// Prompt is the message waiting to be acknowledged, if any.
	Prompt *Prompt
	// SkipRun counts the turns skipped in a row.
	SkipRun int
	// LastRound is the round of the last turn begun: the number of rounds
	// played, the last perhaps in part.
	LastRound int

	skipText bool // Options.SkipText
	autoAck  bool // Options.AutoAck, or the setup's AutoAck
	// ackAll has every player a prompt addresses acknowledge it, a prompt
	// to everybody too: the rule of the matches earlier servers stored,
	// which play on by it (see Match.Apply). Other matches have the current
	// player alone acknowledge a prompt to everybody, unless its board says
	// everyoneAcknowledges.
	ackAll bool
	// quirks are the original game's ways the match plays by (Setup.Compat).
	quirks Quirks
	// statChanges holds the payloads of the match's STAT_CHANGED events;
	// nil until the first.
	statChanges *statChanges
	// tally counts where things happen (tally.go); not part of the
	// state or its hash.
	tally matchTally
	// outside is set while one of the turn's steps runs outside the
	// engine, ran while the engine replays its events (outside.go).
	outside, ran *outside
}

// The phases of a turn.
const (
	PhaseStart = "START"  // the next turn is about to begin
	PhaseRoll  = "ROLL"   // waiting for the current player to roll
	PhaseMove  = "MOVE"   // walking: one step per chain
	PhaseEnd   = "END"    // the turn is over
	PhaseOver  = "OVER"   // the game has ended
	phaseNone  = "SETUP"  // before the first turn
	phaseFirst = "FIRST"  // the first turn is about to begin
	phaseAgain = "REPEAT" // the same player goes again
)

// Player is one player of a match.
type Player struct {
	Name  string
	Seat  int
	Space int // index into the board's spaces
	// Start is the space the player started on.
	Start int
	// State is the player's state (PLAYING, SKIPPING_TURN, COMPLETED_GAME…).
	State      string
	TurnsTaken int
	Stats      map[string]Stat
	Effects    []ActiveEffect
	// History is the player's movement history, for moving back.
	History []Move
	// Reversed is set while a ChangeDirection effect makes the player walk
	// against the arrows.
	Reversed bool
	// Prompts counts the prompts addressed to the player.
	Prompts int
}

// Stat is a player's stat with its true and displayed values (SET_STAT and
// CHANGE_STAT may change either or both).
type Stat struct {
	Value   float64
	Display float64
}

// ActiveEffect is a player effect in force.
type ActiveEffect struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	// Left is how many turns remain to skip, repeat or walk reversed.
	Left int `json:"left"`
}

// Move is one entry of a movement history.
type Move struct {
	Space          int
	RemainingMoves int
	Round          int
	Backtracked    bool
}

// Board returns the board the match is played on.
func (s *State) Board() *Board { return s.board }

// Round is the round number: the fewest turns any player has taken, plus
// one.
func (s *State) Round() int {
	if len(s.Players) == 0 {
		return 1
	}
	low := s.Players[0].TurnsTaken
	for i := 1; i < len(s.Players); i++ { // not a range: it would copy each player
		low = min(low, s.Players[i].TurnsTaken)
	}
	return low + 1
}

// Player returns the current player.
func (s *State) player() *Player { return &s.Players[s.Current] }

// SpaceOf returns the space a player stands on.
func (s *State) SpaceOf(seat int) *Space { return &s.board.Spaces[s.Players[seat].Space] }

// StatValue returns a player's stat (0 if unset).
func (p *Player) StatValue(name string) float64 { return p.Stats[name].Value }

// EntityName names the entities of the match for the log: a space's
// events are carried by the space, and a player acts as themself.
func (s *State) EntityName(id engine.EntityID) string {
	if i := int(id) - spaceEntity; i >= 0 && i < len(s.board.Spaces) {
		sp := &s.board.Spaces[i]
		if sp.Name != "" {
			return sp.Name
		}
		return "space " + sp.ID
	}
	if i := int(id) - playerEntity; i >= 0 && i < len(s.Players) {
		return s.Players[i].Name
	}
	return ""
}

// Entity ids: players are 1…, spaces are 1000… (boards are far smaller
// than that; the loader limits them).
const (
	playerEntity = 1
	spaceEntity  = 1000
)

func spaceID(i int) engine.EntityID  { return engine.EntityID(spaceEntity + i) }
func playerID(i int) engine.EntityID { return engine.EntityID(playerEntity + i) }

// AppendCanonical encodes the state for the match's hash: every field that
// matters, in a fixed order, maps by sorted key. Stored matches are checked
// against the hashes they were stored with, so the encoding only grows by
// what earlier matches never had: scripted dice, a simulation's options and
// the rule of acknowledgements of later matches are written at the end,
// and only when there are some. A prompt's space
// and segments are not written: the engine's hash holds them already (the
// event the match waits in, and the position of the placeholder stream the
// colours were drawn from).
func (s *State) AppendCanonical(b []byte) []byte {
	b = engine.AppendDecimals(b, s.Current, s.RemainingMoves, s.Turn, s.MaxRounds, int(engine.Bit(s.Over)), s.SkipRun, s.LastRound)
	b = append(b, s.Phase...)
	b = append(b, 0)
	b = append(b, s.EndReason...)
	b = append(b, 0)
	b = engine.AppendDecimals(b, s.Winners...)
	b = engine.AppendDecimals(b, -1)
	b = engine.AppendDecimals(b, s.Finished...)
	b = engine.AppendDecimals(b, -1)
	b = engine.AppendDecimals(b, s.LastRoll...)
	if s.Prompt != nil {
		b = append(b, s.Prompt.Text...)
		b = append(b, 0)
		b = engine.AppendDecimals(b, s.Prompt.To...)
	}
	for i := range s.Players {
		p := &s.Players[i]
		b = append(b, p.Name...)
		b = append(b, 0)
		b = append(b, p.State...)
		b = append(b, 0)
		b = engine.AppendDecimals(b, p.Seat, p.Space, p.Start, p.TurnsTaken, int(engine.Bit(p.Reversed)), p.Prompts)
		var small [16]string // a few stats sort on the stack
		for _, k := range appendSortedKeys(small[:0], p.Stats) {
			st := p.Stats[k]
			b = append(b, k...)
			b = append(b, 0)
			b = strconv.AppendFloat(b, st.Value, 'g', -1, 64)
			b = append(b, ',')
			b = strconv.AppendFloat(b, st.Display, 'g', -1, 64)
			b = append(b, 0)
		}
		for _, e := range p.Effects {
			b = append(b, e.Kind...)
			b = append(b, 0)
			b = append(b, e.ID...)
			b = append(b, 0)
			b = engine.AppendDecimals(b, e.Left)
		}
		for _, mv := range p.History {
			b = engine.AppendDecimals(b, mv.Space, mv.RemainingMoves, mv.Round, int(engine.Bit(mv.Backtracked)))
		}
		b = engine.AppendDecimals(b, -2)
	}
	if len(s.Dice) > 0 {
		b = append(b, "dice:"...)
		b = engine.AppendDecimals(b, s.Dice...)
	}
	if s.skipText || s.autoAck {
		b = append(b, "options:"...)
		b = engine.AppendDecimals(b, int(engine.Bit(s.skipText)), int(engine.Bit(s.autoAck)))
	}
	if !s.ackAll {
		// The matches of earlier servers, which had no other rule, keep
		// the hashes they were stored with.
		b = append(b, "acks:current"...)
	}
	if s.quirks != (Quirks{}) {
		b = append(b, "quirks:"...)
		b = s.quirks.appendBits(b)
	}
	return b
}
