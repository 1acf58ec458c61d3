package gametest

import (
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// UndoOptions tune CheckUndo.
type UndoOptions struct {
	// Setup starts the match played.
	Setup game.Setup
	// MaxCommands stops the match if it has not ended (default 400).
	MaxCommands int
	// Replays is how many commands that may be taken back are taken back
	// by game.Replay, each from the start (default 12); the others are
	// only checked against Draws and Never.
	Replays int
	// Draws tells how many random numbers and scripted dice the match has
	// drawn so far: a command that may be taken back draws none.
	Draws func(game.Match) uint64
	// Never reports whether a command is one the pack never lets anyone
	// take back (a roll, a card played), whatever it drew.
	Never func(m game.Match, seat int, cmd json.RawMessage) bool
}

// UndoCounts are how many of the commands CheckUndo played could be
// taken back, and how many could not: a test checks that it saw both.
type UndoCounts struct{ Undoable, Not int }

// CheckUndo plays a match with random legal commands and checks what a
// game.Undoer promises after each: a command that may be taken back drew
// nothing random (o.Draws), is none of those the pack never lets be taken
// back (o.Never), and did not end the match; and taking it back
// (game.Replay of the log with an undo after it) gives the hash the match
// had before it, from which the match plays on as it would have; and a log
// that takes back the first command that may not be is refused. A pack
// that is not an Undoer fails it.
func CheckUndo(t *testing.T, def game.Definition, o UndoOptions) UndoCounts {
	t.Helper()
	m, err := def.Start(o.Setup)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(game.Undoer); !ok {
		t.Fatalf("%s matches do not say what may be taken back (game.Undoer)", def.Info().Name)
	}
	limit, replays := o.MaxCommands, o.Replays
	if limit == 0 {
		limit = 400
	}
	if replays == 0 {
		replays = 12
	}
	if game.Undoable(m) {
		t.Error("a match that has played nothing may take something back")
	}
	r := rng.New(o.Setup.Seed).Stream("undo")
	var log []game.Step
	var counts UndoCounts
	for range limit {
		waiting := m.Waiting()
		if len(waiting) == 0 {
			break
		}
		seat := waiting[r.IntN(len(waiting))]
		legal := m.Legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seat %d is waited for and has no legal command", seat)
		}
		cmd := legal[r.IntN(len(legal))].Data
		hash, draws := m.Hash(), o.Draws(m)
		never := o.Never != nil && o.Never(m, seat, cmd)
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatalf("command %d, %s by seat %d: %v", len(log), cmd, seat, err)
		}
		log = append(log, game.Step{Seat: seat, Data: cmd})
		if !game.Undoable(m) {
			if counts.Not == 0 {
				// The log refuses to take it back.
				if _, err := game.Replay(def, o.Setup, append(log, game.Step{Seat: seat, Undo: true}), nil); err == nil {
					t.Errorf("command %d, %s by seat %d, may not be taken back, and a log taking it back replays", len(log)-1, cmd, seat)
				}
			}
			counts.Not++
			continue
		}
		counts.Undoable++
		switch {
		case never:
			t.Errorf("command %d, %s by seat %d, may be taken back; it never may", len(log)-1, cmd, seat)
		case o.Draws(m) != draws:
			t.Errorf("command %d, %s by seat %d, may be taken back, but it drew %d random numbers", len(log)-1, cmd, seat, o.Draws(m)-draws)
		case m.Outcome().Over:
			t.Errorf("command %d, %s by seat %d, may be taken back, but it ended the match", len(log)-1, cmd, seat)
		}
		if replays == 0 {
			continue
		}
		replays--
		back, err := game.Replay(def, o.Setup, append(log, game.Step{Seat: seat, Undo: true}), nil)
		if err != nil {
			t.Fatalf("taking back command %d, %s by seat %d: %v", len(log)-1, cmd, seat, err)
		}
		if back.Hash() != hash {
			t.Errorf("taking back command %d, %s by seat %d, gives hash %s; before it, it was %s", len(log)-1, cmd, seat, back.Hash(), hash)
		}
		// Played again, the command gives what it gave.
		if err := back.Apply(seat, cmd); err != nil || back.Hash() != m.Hash() || !game.Undoable(back) {
			t.Errorf("command %d, %s by seat %d, played again after it was taken back: %v, hash %s, want %s", len(log)-1, cmd, seat, err, back.Hash(), m.Hash())
		}
	}
	return counts
}
