package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// A player may take back their last command while it stands: the match
// says the command may be taken back (game.Undoable: it drew nothing
// random and showed nothing hidden), the seat's person played it (not a
// bot, nor a bot whose time ran out), and nobody has played since. The
// undo is a record of the match's command log (store.Command.Undo), so a
// restart or a replay plays it again to the same hashes: the match is
// played again from its stored log, the undo included (game.Replay).

// undoState is what a room knows of the commands that may be taken back.
type undoState struct {
	// seat played the latest commands standing; left holds, for each of
	// them that its person played in a row since the room was loaded,
	// oldest first, when the seat's time to decide ran out before it
	// (zero: no limit). Empty, nothing may be taken back.
	seat int
	left []time.Time
	// shown is set while the state showing an undo is sent, and by is
	// the seat that took its command back.
	shown bool
	by    int
}

// maxUndos is the most commands in a row a person may take back.
const maxUndos = 32

// undoPlayed notes a command the seat played: by its person (deadline is
// when their time was to run out), who may take it back, or by a bot,
// which nobody may.
func (r *room) undoPlayed(seat int, person bool, deadline time.Time) {
	u := &r.undo
	switch {
	case !person:
		u.left = u.left[:0]
	case seat != u.seat:
		u.seat, u.left = seat, append(u.left[:0], deadline)
	case len(u.left) == maxUndos:
		u.left = append(u.left[:0], u.left[1:]...)
		fallthrough
	default:
		u.left = append(u.left, deadline)
	}
}

// whyNoUndo says why the seat may not take back a command now, in the
// player's words; "" if it may.
func (r *room) whyNoUndo(seat int) string {
	switch {
	case !r.playing():
		return "the match is not being played"
	case seat < 0:
		return "spectators have no move to take back"
	case r.rec.Seats[seat].Bot:
		return "a bot plays your seat now; ask the match's owner to give it back"
	case len(r.undo.left) == 0 || r.undo.seat != seat:
		return "there is no move of yours to take back: only your last move, before anyone else plays, can be"
	case !game.Undoable(r.m):
		return "your last move cannot be taken back: in this game, what rolls dice, draws or shows a card, or ends the game stays"
	}
	return ""
}

// canUndo reports whether the seat may take back a command now.
func (r *room) canUndo(seat int) bool {
	return seat >= 0 && len(r.undo.left) > 0 && r.undo.seat == seat && r.playing() &&
		!r.rec.Seats[seat].Bot && game.Undoable(r.m)
}

// takeBack takes back the seat's last command: the match is played again
// from its stored log with the undo at its end, the undo is stored with
// the hash it gives (the hash from before the command), and everybody is
// sent the whole state again, since the log lost the command's records.
func (r *room) takeBack(ctx context.Context, seat int) error {
	if why := r.whyNoUndo(seat); why != "" {
		r.srv.metrics.rejected.WithLabelValues("rules").Inc()
		return engine.Rejectf("%s", why)
	}
	failed := errors.New("the move could not be taken back; please try again")
	cmds, err := r.srv.store.Commands(ctx, r.id)
	if err != nil || len(cmds) != r.rec.Commands {
		r.srv.log.Error("reading a match's commands to take one back", "match", r.id, "stored", len(cmds), "err", err)
		return failed
	}
	undo := store.Command{Seq: len(cmds), Player: seat, Undo: true}
	m, err := r.replayStored(append(cmds, undo), len(cmds), nil)
	if err != nil {
		r.markBroken(err)
		return err
	}
	undo.Hash = m.Hash()
	if err := r.srv.store.Append(ctx, r.id, undo, r.rec.Fence); err != nil {
		r.srv.log.Error("storing an undo", "match", r.id, "seq", undo.Seq, "err", err)
		if errors.Is(err, store.ErrFenced) {
			r.stopping, r.moved = true, true
			return fmt.Errorf("%w; try again", errOwnerGone)
		}
		return failed // nothing changed: the match in memory is what is stored
	}
	r.m = m
	r.rec.Commands++
	u := &r.undo
	// The seat is asked again what it was asked, with the time it had.
	if d := u.left[len(u.left)-1]; !d.IsZero() {
		r.deadlines[seat] = d
	}
	u.left = u.left[:len(u.left)-1]
	r.lastSeat = -1
	// The log is shorter now: each connection is sent the state from
	// where the log ends, and the page drops what it had past it.
	for s := range r.sessions {
		s.logSent = min(s.logSent, m.LogLen())
	}
	u.shown, u.by = true, seat
	r.changed()
	u.shown = false
	return nil
}

// replayStored plays a match's stored command log again, undos included,
// and checks the state hash after each of its first check records. after,
// if not nil, is given the match after every record.
func (r *room) replayStored(cmds []store.Command, check int, after func(game.Match)) (game.Match, error) {
	steps, err := stepsOf(cmds)
	if err != nil {
		return nil, err
	}
	m, err := game.Replay(r.def.def, r.setup(), steps, func(i int, m game.Match) error {
		if after != nil {
			after(m)
		}
		if h := m.Hash(); i < check && h != cmds[i].Hash {
			return fmt.Errorf("replaying command %d gives state hash %s, but %s was stored", i, h, cmds[i].Hash)
		}
		return nil
	})
	var se *game.StepError
	switch {
	case errors.As(err, &se) && se.Step.Undo:
		return nil, fmt.Errorf("stored undo %d (by %s) is refused on replay: %v", se.Index, r.playerName(se.Step.Seat), se.Err)
	case errors.As(err, &se):
		return nil, fmt.Errorf("stored command %d (%s by %s) is refused on replay: %v", se.Index, se.Step.Data, r.playerName(se.Step.Seat), se.Err)
	}
	return m, err
}

// stepsOf reads a stored command log as game.Replay plays it.
func stepsOf(cmds []store.Command) ([]game.Step, error) {
	steps := make([]game.Step, len(cmds))
	for i, c := range cmds {
		if c.Seq != i {
			return nil, fmt.Errorf("stored commands jump from %d to %d", i-1, c.Seq)
		}
		steps[i] = game.Step{Seat: c.Player, Data: c.Data, Undo: c.Undo}
	}
	return steps, nil
}

// writeUndo adds to a viewer's state message whether the viewer may take
// back their last move now ("canUndo"), and, in the state that shows an
// undo, whose it was ("undone": the seat).
func (r *room) writeUndo(e *encoder, seat int) {
	if r.canUndo(seat) {
		e.buf.WriteString(`,"canUndo":true`)
	}
	if r.undo.shown {
		e.buf.WriteString(`,"undone":`)
		e.int(r.undo.by)
	}
}
