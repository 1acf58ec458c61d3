package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// A player may take back their last command while it stands: the match
// says the command may be taken back (game.Undoable: it drew nothing
// random and showed nothing hidden), whoever plays the seat played it (no
// bot for them: their time ran out, they left), and nobody has played
// since. The
// undo is a record of the match's command log (store.Command.Undo), so a
// restart or a replay plays it again to the same hashes: the match is
// played again from its stored log, the undo included (game.Replay).

// undoState is what a room knows of the commands that may be taken back.
type undoState struct {
	// seat played the latest commands standing; left holds, for each of
	// them that whoever plays the seat played in a row (no bot for them),
	// oldest first, when the seat's time to decide ran out before it
	// (zero: no limit, or not known: a match loaded again). Empty, nothing
	// may be taken back.
	seat int
	left []time.Time
	// shown is set while the state showing an undo is sent, and by is
	// the seat that took its command back.
	shown bool
	by    int
}

// maxUndos is the most commands in a row a person may take back.
const maxUndos = 32

// undoPlayed notes a command the seat played: by whoever plays it (reason
// ""; deadline is when their time was to run out), who may take it back,
// or by a bot for a person (the reason why), which nobody may.
func (r *room) undoPlayed(seat int, reason string, deadline time.Time) {
	r.undo.played(seat, reason, deadline)
}

func (u *undoState) played(seat int, reason string, deadline time.Time) {
	switch {
	case reason != "":
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
	m, notes, _, err := r.replayLog(append(cmds, undo), len(cmds), nil)
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
	r.m, r.played = m, notes
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

// replayLog plays a match's stored command log again, undos included, and
// checks the state hash after each of its first check records; after, if
// not nil, is given the match after every record. Besides the match, it
// works out what the room keeps beside it from the commands still
// standing: the notes of who played for whom, and the commands that may be
// taken back (the last ones in a row of one seat, no bot playing them for
// a person; the time left before each is not stored).
func (r *room) replayLog(cmds []store.Command, check int, after func(game.Match)) (game.Match, played, undoState, error) {
	return replayLog(r.def.def, r.setup(), cmds, check, r.playerName, after)
}

// replayLog is room.replayLog for a match of def started with setup,
// whose seats name names in errors.
func replayLog(def game.Definition, setup game.Setup, cmds []store.Command, check int, name func(int) string,
	after func(game.Match)) (game.Match, played, undoState, error) {
	steps, err := stepsOf(cmds)
	if err != nil {
		return nil, played{}, undoState{}, err
	}
	// standing are the commands not taken back, each with where its log
	// starts.
	type standing struct {
		at   int
		step int
	}
	var st []standing
	logLen := 0
	m, err := game.Replay(def, setup, steps, func(i int, m game.Match) error {
		switch {
		case i < 0:
		case cmds[i].Undo:
			st = st[:len(st)-1]
		default:
			st = append(st, standing{logLen, i})
		}
		logLen = m.LogLen()
		if after != nil {
			after(m)
		}
		if h := m.Hash(); i >= 0 && i < check && h != cmds[i].Hash {
			return fmt.Errorf("replaying command %d gives state hash %s, but %s was stored", i, h, cmds[i].Hash)
		}
		return nil
	})
	var se *game.StepError
	switch {
	case errors.As(err, &se) && se.Step.Undo:
		return nil, played{}, undoState{}, fmt.Errorf("stored undo %d (by %s) is refused on replay: %v", se.Index, name(se.Step.Seat), se.Err)
	case errors.As(err, &se):
		return nil, played{}, undoState{}, fmt.Errorf("stored command %d (%s by %s) is refused on replay: %v", se.Index, se.Step.Data, name(se.Step.Seat), se.Err)
	case err != nil:
		return nil, played{}, undoState{}, err
	}
	var notes played
	var undo undoState
	for _, s := range st {
		c := cmds[s.step]
		notes.add(s.at, c.Player, c.Reason)
		undo.played(c.Player, c.Reason, time.Time{})
	}
	return m, notes, undo, nil
}

// undoSeat is the seat whose move an undo message takes back: the one the
// connection plays now, or another seat it holds, which it names (a device
// passed round the table has moved on to the next player's seat).
func (s *session) undoSeat(msg clientMsg) int {
	if msg.Seat != nil && slices.Contains(s.held, *msg.Seat) {
		return *msg.Seat
	}
	return s.seat
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

// writeUndo adds to a viewer's state message who may take back their
// last move now ("undoBy": the seat; everybody sees who played last), and
// whether the viewer may ("canUndo"); in the state that shows an undo,
// whose it was ("undone": the seat).
func (r *room) writeUndo(e *encoder, seat int) {
	if by := r.undo.seat; r.canUndo(by) {
		e.buf.WriteString(`,"undoBy":`)
		e.int(by)
		if by == seat {
			e.buf.WriteString(`,"canUndo":true`)
		}
	}
	if r.undo.shown {
		e.buf.WriteString(`,"undone":`)
		e.int(r.undo.by)
	}
}
