package game_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// tally is the smallest game with undo: two seats take turns; {"add": N}
// adds N to a total and may be taken back, {"roll": true} adds a die and
// may not. Its hash covers the total, the turn and the dice stream.
type tallyDef struct{ clones bool }

func (d tallyDef) Info() game.Info { return game.Info{Pack: "tally", MinPlayers: 2, MaxPlayers: 2} }
func (d tallyDef) Drawing() any    { return nil }
func (d tallyDef) Start(s game.Setup) (game.Match, error) {
	m := &tally{streams: rng.New(s.Seed)}
	if d.clones {
		return &cloningTally{m}, nil
	}
	return m, nil
}

type tally struct {
	total, turn int
	streams     *rng.Streams
	undoable    bool
}

type cloningTally struct{ *tally }

func (c *cloningTally) Clone() game.Match {
	t := *c.tally
	t.streams = c.streams.Clone()
	return &cloningTally{&t}
}

func (m *tally) Apply(seat int, data json.RawMessage) error {
	var c struct {
		Add  int  `json:"add"`
		Roll bool `json:"roll"`
	}
	if err := game.DecodeCommand(data, &c); err != nil {
		return err
	}
	if seat != m.turn {
		return fmt.Errorf("not seat %d's turn", seat)
	}
	before := m.streams.Draws()
	if c.Roll {
		c.Add = m.streams.Stream("dice").Between(1, 6)
	}
	m.total += c.Add
	m.turn = 1 - m.turn
	m.undoable = m.streams.Draws() == before
	return nil
}

func (m *tally) Undoable() bool            { return m.undoable }
func (m *tally) Waiting() []int            { return []int{m.turn} }
func (m *tally) Legal(int) []game.Command  { return nil }
func (m *tally) View(int) any              { return m.total }
func (m *tally) Log(int, int) []game.Entry { return nil }
func (m *tally) LogLen() int               { return 0 }
func (m *tally) Outcome() game.Outcome     { return game.Outcome{} }
func (m *tally) Hash() string {
	return fmt.Sprintf("%d/%d/%x", m.total, m.turn, m.streams.AppendState(nil))
}

func add(seat, n int) game.Step {
	return game.Step{Seat: seat, Data: json.RawMessage(fmt.Sprintf(`{"add":%d}`, n))}
}
func roll(seat int) game.Step { return game.Step{Seat: seat, Data: json.RawMessage(`{"roll":true}`)} }
func undo(seat int) game.Step { return game.Step{Seat: seat, Undo: true} }

// An undo gives back the match of before the command it takes back, hash
// and all, whether the match copies itself or is played again; several
// undos in a row take back several commands; a roll is never taken back,
// nor another seat's command.
func TestReplayTakesBack(t *testing.T) {
	for _, clones := range []bool{true, false} {
		def := tallyDef{clones}
		setup := game.Setup{Players: []string{"Ann", "Bob"}, Seed: 3}
		hashes := func(log []game.Step) []string {
			var out []string
			_, err := game.Replay(def, setup, log, func(i int, m game.Match) error {
				if i != len(out)-1 {
					t.Fatalf("step %d after %d", i, len(out)-1)
				}
				out = append(out, m.Hash())
				return nil
			})
			if err != nil {
				t.Fatalf("clones %v: %v", clones, err)
			}
			return out
		}
		// h[0] is the start's hash, h[i+1] the hash after step i.
		h := hashes([]game.Step{roll(0), add(1, 2), undo(1), add(1, 5), add(0, 1), undo(0), undo(1)})
		want := []int{0, 1, 0, 3, 4, 3, 0}
		for i, w := range want {
			if h[i+1] != h[w+1] {
				t.Errorf("clones %v: after step %d the hash is %s, want %s (the hash after step %d)", clones, i, h[i+1], h[w+1], w)
			}
		}
		for _, bad := range []struct {
			log  []game.Step
			want string
		}{
			{[]game.Step{add(0, 1), roll(1), undo(1)}, "cannot be taken back"},
			{[]game.Step{add(0, 1), undo(1)}, "seat 0's"},
			{[]game.Step{undo(0)}, game.ErrNothingToUndo.Error()},
			{[]game.Step{add(0, 1), undo(0), undo(0)}, game.ErrNothingToUndo.Error()},
		} {
			_, err := game.Replay(def, setup, bad.log, nil)
			var se *game.StepError
			if !errors.As(err, &se) || se.Index != len(bad.log)-1 || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("clones %v: %v gives %v, want an error at its last step saying %q", clones, bad.log, err, bad.want)
			}
		}
	}
}

// A match whose pack does not say takes nothing back.
func TestUndoableNeedsThePackToSay(t *testing.T) {
	m, _ := tallyDef{}.Start(game.Setup{Players: []string{"Ann", "Bob"}})
	m.Apply(0, json.RawMessage(`{"add":1}`))
	if !game.Undoable(m) {
		t.Error("an add cannot be taken back")
	}
	if game.Undoable(struct{ game.Match }{m}) {
		t.Error("a match that is not an Undoer takes back")
	}
}
