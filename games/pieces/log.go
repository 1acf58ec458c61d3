package pieces

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// record is one line of a match's log, kept small (16 bytes, no
// pointer): its words are made only when someone reads the log.
type record struct {
	kind uint8
	// flag is set on a prompt to everybody, and on a roll no piece can
	// use.
	flag  bool
	depth int8
	seat  int8
	// piece is the piece concerned, other the piece it sent back (or the
	// trigger's index on its space, for a prompt): a game has at most
	// maxSeats × maxPieces pieces, a space maxTriggers triggers.
	piece, other uint8
	// amount is a roll, a place, or the round (up to maxRound).
	amount int16
	// from and to are spaces (a board has at most maxSpaces).
	from, to int16
	chain    int32
}

// maxRound is the highest round a record tells.
const maxRound = 1<<15 - 1

// The kinds of records, with the type a log entry gives them.
const (
	recStart uint8 = iota
	recRolled
	recAgain
	recEntered
	recMoved
	recCaptured
	recPlaced
	recTurn
	recOver
	recPrompt
	recDisplaced
	recTeleported
	recStopped
	recStays
)

var recTypes = [...]string{
	recStart: "GAME_STARTED", recRolled: "ROLLED", recAgain: "ROLL_AGAIN",
	recEntered: "ENTERED", recMoved: "MOVED", recCaptured: "CAPTURED", recPlaced: "PLACED",
	recTurn: "TURN_STARTED", recOver: "GAME_OVER", recPrompt: "PROMPTED", recDisplaced: DisplacePlayer,
	recTeleported: SetPlayerSpace, recStopped: ForceStop, recStays: "MOVE_REFUSED",
}

// record adds a record to the log, in the chain and at the depth of the
// effect writing it.
func (m *Match) record(c *engine.Ctx, r record) {
	r.depth = int8(min(c.Depth(), 127))
	r.chain = m.e.Chain()
	m.log.add(r)
}

// chunk is how many records a chunk of the log holds.
const chunk = 256

// journal is a log kept in chunks of equal size, so that it grows without
// copying, and adding a record writes no pointer. Full chunks are never
// written again: a clone shares them.
type journal struct {
	chunks []*[chunk]record
	n      int
}

func (j *journal) add(r record) {
	if j.n%chunk == 0 {
		j.chunks = append(j.chunks, new([chunk]record))
	}
	j.chunks[j.n/chunk][j.n%chunk] = r
	j.n++
}

func (j *journal) at(i int) record { return j.chunks[i/chunk][i%chunk] }

// copy returns a journal that shares the full chunks and copies the last.
func (j *journal) copy() journal {
	c := journal{chunks: slices.Clone(j.chunks), n: j.n}
	if last := len(c.chunks) - 1; last >= 0 && j.n%chunk != 0 {
		cp := *c.chunks[last]
		c.chunks[last] = &cp
	}
	return c
}

// LogLen is the number of log records so far.
func (m *Match) LogLen() int { return m.log.n }

// Log returns the readable log from record from on. A game of pieces has
// no secrets: every viewer reads the same log.
func (m *Match) Log(_, from int) []game.Entry {
	from = max(from, 0)
	if from >= m.log.n {
		return []game.Entry{}
	}
	out := make([]game.Entry, 0, m.log.n-from)
	for i := from; i < m.log.n; i++ {
		out = append(out, m.entry(i, m.log.at(i)))
	}
	return out
}

// entry tells a record in players' words, with the engine's detail.
func (m *Match) entry(i int, r record) game.Entry {
	d, s := m.def, m.s
	e := game.Entry{Seq: i, Chain: int(r.chain), Depth: int(r.depth), Kind: "event", Type: recTypes[r.kind], Seat: int(r.seat), Amount: int(r.amount)}
	who := ""
	if r.seat >= 0 && int(r.seat) < len(s.Players) {
		who = s.Players[r.seat]
	}
	space := func(i int16) string { return d.Spaces[i].ID }
	name := func(i int16) string { return d.spaceName(int(i)) }
	piece := ""
	if r.kind >= recEntered && r.kind != recPlaced && r.kind != recTurn && r.kind != recOver {
		piece = m.pieceName(int(r.piece))
		e.Subject = piece
	}
	switch r.kind {
	case recStart:
		e.Text = fmt.Sprintf("The game begins: %s plays first", who)
		e.Detail = fmt.Sprintf("%s, %s, %s", d.Engine, d.Dice, plural(d.Pieces, "piece")+" each")
	case recRolled:
		e.Text = fmt.Sprintf("%s rolls %d", who, r.amount)
		e.Detail = fmt.Sprintf("ROLLED %d", r.amount)
		if r.flag {
			e.Text += ": no piece can move"
			e.Detail += ", no move"
		}
	case recAgain:
		e.Text = fmt.Sprintf("%s rolls again", who)
		e.Detail = fmt.Sprintf("a %d rolls again", r.amount)
	case recEntered:
		e.Text = fmt.Sprintf("%s comes out onto %s", piece, name(r.to))
		e.At, e.Data = space(r.to), m.moveData(r)
		e.Detail = fmt.Sprintf("ENTERED %s→%s", space(r.from), space(r.to))
	case recMoved:
		e.Text = fmt.Sprintf("%s moves %s to %s", piece, steps(int(r.amount)), name(r.to))
		if d.geo[r.seat].goal[r.to] && !d.geo[r.seat].goal[r.from] {
			e.Text = fmt.Sprintf("%s moves %s to %s: it is home", piece, steps(int(r.amount)), name(r.to))
		}
		e.At, e.Data = space(r.to), m.moveData(r)
		e.Detail = fmt.Sprintf("MOVED %s→%s with a %d", space(r.from), space(r.to), r.amount)
	case recCaptured:
		e.Text = fmt.Sprintf("%s sends %s back to %s", who, m.pieceName(int(r.other)), name(r.to))
		e.At, e.Target = space(r.from), m.pieceName(int(r.other))
		e.Data = moveData{From: space(r.from), To: space(r.to), Seat: int(r.other) / d.Pieces, Piece: int(r.other)%d.Pieces + 1}
		e.Detail = fmt.Sprintf("CAPTURED on %s, back to %s", space(r.from), space(r.to))
	case recPlaced:
		if r.amount == 1 {
			e.Text = fmt.Sprintf("%s has every piece home and wins", who)
		} else {
			e.Text = fmt.Sprintf("%s finishes %s", who, game.Ordinal(int(r.amount)))
		}
	case recTurn:
		e.Text = fmt.Sprintf("%s's turn", who)
		e.Detail = fmt.Sprintf("round %d", r.amount)
	case recOver:
		e.Text = "Game over: " + s.Reason
	case recPrompt:
		t := d.Spaces[r.to].Triggers[r.other]
		e.Kind, e.At = "fired", space(r.to)
		e.Text = expand(t.Action.Message, who, piece)
		if !r.flag {
			e.Text = who + ": " + e.Text
		}
		e.Detail = fmt.Sprintf("%s on %s fired: %s", t.When, space(r.to), t.Action.Type)
	case recDisplaced, recTeleported:
		e.Kind, e.At = "fired", space(r.to)
		e.Text = fmt.Sprintf("%s is moved from %s to %s", piece, name(r.from), name(r.to))
		e.Data = m.moveData(r)
		e.Detail = fmt.Sprintf("%s %s→%s", recTypes[r.kind], space(r.from), space(r.to))
	case recStopped:
		e.Kind, e.At = "fired", space(r.to)
		e.Text = fmt.Sprintf("%s stops on %s", piece, name(r.to))
		e.Detail = ForceStop
	case recStays:
		e.Kind, e.At = "fired", space(r.from)
		e.Text = fmt.Sprintf("%s cannot go to %s and stays on %s", piece, name(r.to), name(r.from))
		e.Detail = fmt.Sprintf("a trigger's move to %s is refused", space(r.to))
	}
	return e
}

// moveData is what a page needs to animate a move or a capture: the
// piece that moves (the one sent back, for a capture), by its seat and
// its number from 1, and from where to where.
type moveData struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Seat  int    `json:"seat"`
	Piece int    `json:"piece"`
}

// moveData is the move of a record's piece.
func (m *Match) moveData(r record) moveData {
	d := m.def
	return moveData{From: d.Spaces[r.from].ID, To: d.Spaces[r.to].ID, Seat: int(r.piece) / d.Pieces, Piece: int(r.piece)%d.Pieces + 1}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// SharedLog reports that every viewer reads the same log: a game of
// pieces has no secrets (game.SharedLog).
func (m *Match) SharedLog() bool { return true }
