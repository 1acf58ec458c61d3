package pieces

import (
	"github.com/tabulagames/tabula/engine"
)

// Phase is what the match waits for.
type Phase uint8

// The phases of a turn.
const (
	// PhaseRoll: the player whose turn it is rolls.
	PhaseRoll Phase = iota
	// PhaseMove: the player chooses which piece moves with the roll.
	PhaseMove
	// PhaseOver: the game has ended.
	PhaseOver
)

var phaseNames = [...]string{"roll", "move", "over"}

// String is the phase's name in views and scenario files: "roll", "move"
// or "over".
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "?"
}

// State is the state of a game of pieces. It has no secrets: the dice to
// come are in the match's random stream, never in a view.
type State struct {
	// Players are the seats' names.
	Players []string
	// Pieces holds the space of every piece, seat by seat: piece k (from
	// 0) of seat s is Pieces[s*per+k], where per is the game's pieces per
	// player. A piece on one of its player's start spaces has not come out
	// yet (or was sent back).
	Pieces []int
	// Turn is the seat whose turn it is; Phase what it waits for.
	Turn  int
	Phase Phase
	// Dice are the faces of the last roll, Roll their total and Roller
	// the seat who rolled them (-1 before the first roll).
	Dice   []int
	Roll   int
	Roller int
	// Placings are the seats that got every piece home, in order.
	Placings []int
	// Round counts the rounds begun; MaxRounds ends the game when it
	// passes it.
	Round     int
	MaxRounds int
	// Reason says how the game ended.
	Reason string
	// Script holds the scripted dice not rolled yet.
	Script []int
	// The move under way, within one command: the piece that moves
	// (-1: none), the spaces it still passes, and how many it has passed.
	// A trigger that moves the piece cuts Path short.
	Moving int
	Path   []int
	Step   int
}

// AppendCanonical encodes every field for the state hash.
func (s *State) AppendCanonical(b []byte) []byte {
	b = engine.AppendVarints(b, int64(len(s.Players)))
	for _, n := range s.Players {
		b = engine.AppendVarints(b, int64(len(n)))
		b = append(b, n...)
	}
	b = appendInts(b, s.Pieces)
	b = engine.AppendVarints(b, int64(s.Turn), int64(s.Phase), int64(s.Roll), int64(s.Roller), int64(s.Round), int64(s.MaxRounds),
		int64(s.Moving), int64(s.Step))
	b = appendInts(b, s.Dice)
	b = appendInts(b, s.Placings)
	b = appendInts(b, s.Script)
	b = appendInts(b, s.Path)
	b = engine.AppendVarints(b, int64(len(s.Reason)))
	return append(b, s.Reason...)
}

func appendInts(b []byte, xs []int) []byte {
	b = engine.AppendVarints(b, int64(len(xs)))
	for _, x := range xs {
		b = engine.AppendVarints(b, int64(x))
	}
	return b
}

// clone returns a deep copy.
func (s *State) clone() *State {
	c := *s
	c.Pieces = append([]int(nil), s.Pieces...)
	c.Dice = append([]int(nil), s.Dice...)
	c.Placings = append([]int(nil), s.Placings...)
	c.Script = append([]int(nil), s.Script...)
	c.Path = append([]int(nil), s.Path...)
	return &c
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// placed returns a seat's place (1 for the first home), or 0.
func (s *State) placed(seat int) int {
	for i, p := range s.Placings {
		if p == seat {
			return i + 1
		}
	}
	return 0
}
