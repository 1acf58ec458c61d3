package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Move is one command played in a match, by a seat.
type Move struct {
	Seat int             `json:"seat"`
	Data json.RawMessage `json:"data"`
}

// History is how a match got where it is: its definition, its setup and
// every command it accepted, in order. A bot copies a match that is not a
// game.Cloner by starting the definition again with the setup and
// replaying the moves: the game interface promises that this gives the
// same match.
type History struct {
	Def   game.Definition
	Setup game.Setup
	Moves []Move
}

// ErrCannotCopy is the error of a bot that must look ahead in a match it
// cannot copy: one that is neither a game.Cloner nor a game.Determinizer
// and was not given with its History (see Replayable).
var ErrCannotCopy = errors.New("bot: cannot copy the match to look ahead: it is not a game.Cloner; " +
	"give it to the bot with its history (bot.Replayable)")

// Replayable returns m, which h led to, as a bot may copy it: a copy is
// the match's own Clone if it is a game.Cloner, else a replay of h. The
// result is still m for everything else: it shows m's optional interfaces
// to the bots (which look through it to m), and commands applied through
// it are added to its history, so a caller may keep playing through it (a
// simulator does). A server holding its matches and their records wraps
// its match for each decision instead: wrapping copies nothing.
func Replayable(m game.Match, h History) game.Match {
	h.Moves = slices.Clip(h.Moves) // appends never write into the caller's array
	return &replayable{Match: m, h: h}
}

// replayable is a match with its history.
type replayable struct {
	game.Match
	h History
}

// Unwrap returns the match itself.
func (r *replayable) Unwrap() game.Match { return r.Match }

// Apply plays the command and, if the match accepts it, adds it to the
// history.
func (r *replayable) Apply(seat int, data json.RawMessage) error {
	if err := r.Match.Apply(seat, data); err != nil {
		return err
	}
	r.h.Moves = append(r.h.Moves, Move{seat, data})
	return nil
}

// copy returns a copy with its own history, which the original's further
// moves do not change.
func (r *replayable) copy() (game.Match, error) {
	h := r.h
	h.Moves = slices.Clip(h.Moves)
	if c, ok := r.Match.(game.Cloner); ok {
		return &replayable{Match: c.Clone(), h: h}, nil
	}
	m, err := h.Def.Start(h.Setup)
	if err != nil {
		return nil, fmt.Errorf("bot: replaying the match's history: %w", err)
	}
	for i, mv := range h.Moves {
		if err := m.Apply(mv.Seat, mv.Data); err != nil {
			return nil, fmt.Errorf("bot: replaying the match's history: move %d (seat %d, %s): %w", i, mv.Seat, mv.Data, err)
		}
	}
	return &replayable{Match: m, h: h}, nil
}

// unwrap returns the match under a Replayable one.
func unwrap(m game.Match) game.Match {
	if r, ok := m.(*replayable); ok {
		return r.Match
	}
	return m
}

// clone returns an exact copy of m: its Clone, or a replay of its history.
func clone(m game.Match) (game.Match, error) {
	switch c := m.(type) {
	case *replayable:
		return c.copy()
	case game.Cloner:
		return c.Clone(), nil
	}
	return nil, ErrCannotCopy
}

// copier makes the copies a bot looks into for a seat's decision: a
// determinization for the seat when the match is a game.Determinizer, else
// an exact copy.
type copier struct {
	m    game.Match
	seat int
	det  game.Determinizer
}

func newCopier(m game.Match, seat int) copier {
	det, _ := unwrap(m).(game.Determinizer)
	return copier{m: m, seat: seat, det: det}
}

// varies reports whether copies differ from one another: only
// determinizations do.
func (c copier) varies() bool { return c.det != nil }

// copy returns a copy to look into, drawing from r.
func (c copier) copy(r *rng.Stream) (game.Match, error) {
	if c.det != nil {
		return c.det.Determinize(c.seat, r), nil
	}
	return clone(c.m)
}
