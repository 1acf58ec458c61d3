package game

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Undoer is a Match that says whether the last command it accepted may be
// taken back. A command may be taken back when undoing it changes nobody's
// luck and hides nothing anyone has learnt: it drew nothing from the
// match's random streams and no scripted die (no roll, no shuffle, no
// random pick), it showed no seat anything hidden from it before (a card
// drawn, a card played from a hand, sealed bids opened), and it did not end
// the match. Each pack says which of its commands qualify (docs/packs.md);
// a Match that is not an Undoer takes nothing back.
//
// Taking back is not the pack's work: the match is played again without
// the command (Replay, or a copy made before it), so a pack only says
// whether it may. Nor does a pack say who may: a server lets only the
// seat that played the command take it back, and only while nobody else
// has played since.
type Undoer interface {
	// Undoable reports whether the last command Apply accepted may be
	// taken back. It is false before the first command, and a rejected
	// command does not change it.
	Undoable() bool
}

// Undoable reports whether the last command a match accepted may be taken
// back: false for a match whose pack does not say (not an Undoer).
func Undoable(m Match) bool {
	u, ok := m.(Undoer)
	return ok && u.Undoable()
}

// Step is one record of a match's command log: a seat's command, or (Undo)
// a seat taking back the last command that still stands. Undos are records
// of their own, so that a log read again gives the same match and hashes.
type Step struct {
	Seat int
	// Data is the command in the pack's JSON (nil for an undo).
	Data json.RawMessage
	Undo bool
}

// StepError is a step of a log that Replay could not play.
type StepError struct {
	// Index is the step's place in the log, from 0.
	Index int
	Step  Step
	Err   error
}

func (e *StepError) Error() string {
	if e.Step.Undo {
		return fmt.Sprintf("step %d (an undo by seat %d): %v", e.Index, e.Step.Seat, e.Err)
	}
	return fmt.Sprintf("step %d (%s by seat %d): %v", e.Index, e.Step.Data, e.Step.Seat, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

// ErrNothingToUndo is an undo in a log where no command stands.
var ErrNothingToUndo = errors.New("there is no command to take back")

// Replay starts a match of def with setup and plays a command log on it:
// each command in turn, and each undo taking back the last command still
// standing, which must be the undoing seat's and must have been Undoable
// when it was played. after, if not nil, is called with i = -1 and the
// match as it starts, then after every step i with the match as it then
// stands (after an undo, as it stood before the command taken back: same
// state, same random streams, same hash); an error from it stops the
// replay. It returns the match at the end of the log.
//
// A command that a later undo takes back is played on a copy made before
// it when the match is a Cloner; otherwise the undo plays the commands
// still standing again from the start.
func Replay(def Definition, setup Setup, log []Step, after func(i int, m Match) error) (Match, error) {
	// Which commands are taken back later: only those need a copy.
	undone := make([]bool, len(log))
	var open []int
	for i, s := range log {
		if !s.Undo {
			open = append(open, i)
			continue
		}
		if len(open) == 0 {
			return nil, &StepError{i, s, ErrNothingToUndo}
		}
		undone[open[len(open)-1]] = true
		open = open[:len(open)-1]
	}
	m, err := def.Start(setup)
	if err != nil {
		return nil, err
	}
	if after != nil {
		if err := after(-1, m); err != nil {
			return nil, err
		}
	}
	// standing are the commands not taken back, in order.
	type standing struct {
		index    int
		before   Match // a copy from before it, if it is taken back later
		undoable bool
	}
	var st []standing
	for i, s := range log {
		if s.Undo {
			top := st[len(st)-1]
			switch cmd := log[top.index]; {
			case cmd.Seat != s.Seat:
				return nil, &StepError{i, s, fmt.Errorf("step %d, the command it takes back, is seat %d's", top.index, cmd.Seat)}
			case !top.undoable:
				return nil, &StepError{i, s, fmt.Errorf("step %d (%s) cannot be taken back", top.index, cmd.Data)}
			}
			st = st[:len(st)-1]
			if top.before != nil {
				m = top.before
			} else if m, err = def.Start(setup); err != nil {
				return nil, err
			} else {
				for _, p := range st {
					if err := m.Apply(log[p.index].Seat, log[p.index].Data); err != nil {
						return nil, &StepError{p.index, log[p.index], err}
					}
				}
			}
		} else {
			var before Match
			if c, ok := m.(Cloner); ok && undone[i] {
				before = c.Clone()
			}
			if err := m.Apply(s.Seat, s.Data); err != nil {
				return nil, &StepError{i, s, err}
			}
			st = append(st, standing{i, before, Undoable(m)})
		}
		if after != nil {
			if err := after(i, m); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}
