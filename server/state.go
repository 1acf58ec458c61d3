package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// What a connection is sent after every change (docs/server.md tells the
// protocol). A page holds a document of its match: the summary ("match"),
// its seat ("you"), what the seat sees ("view"), the commands it may play
// ("legal"), how many log records it has seen ("log"), the state hash
// ("hash"), when its time to decide runs out ("deadline"), the ranking
// once the match is over ("standings") and who may take back a move
// ("undoBy", "canUndo", "undone": undo.go), besides the log entries it
// has shown. A connection's first message is a whole
// state; after it, each change sends a delta: the new log entries, and a
// patch of what changed in the document (patch.go). Messages are numbered
// (n); a page that sees a gap asks for a whole state again ({"type":
// "sync"}), and one is also sent whenever the server decides to (a
// connection that joins, a change of seat).

// parts is what a page holds of its match after a message, each part as
// its JSON, made for a seat in one broadcast and shared by every
// connection of the seat; never changed once made.
type parts struct {
	ver   int // the broadcast it was made in
	you   int
	match []byte
	// view is nil before the match starts (or if showing it failed);
	// log and hash go with it.
	view     []byte
	log      int
	hash     string
	legal    []byte
	deadline int64 // Unix milliseconds; 0: none
	// undoBy is the seat that may take back its last move now, and
	// canUndo is set when it is this one; undone is the seat whose move
	// was just taken back (-1: none, for both).
	undoBy, undone int
	canUndo        bool
	// standings rank the seats once the match is over (nil before): the
	// end screen.
	standings []byte
	// mver and sumVer are the versions of the match and the summary the
	// view and the legal commands were made from.
	mver, sumVer int
}

// emptyList is the JSON of no legal commands, and of no log entries;
// zero stands for a value before that is gone.
var emptyList, zero = []byte("[]"), []byte("0")

// partsFor returns the parts of the seat for the current broadcast:
// made once per broadcast, and its view made again only if the match
// changed since the seat's last.
func (r *room) partsFor(seat int, c *broadcastCache) *parts {
	last := r.seen[seat]
	if last != nil && last.ver == r.ver {
		return last
	}
	p := c.newParts(min(len(r.sessions), len(r.rec.Seats)+1))
	*p = parts{ver: r.ver, you: seat, legal: emptyList, mver: r.mver, sumVer: r.sumVer, undoBy: -1, undone: -1}
	if r.m != nil {
		r.undoParts(p, seat)
		if last != nil && last.view != nil && last.mver == r.mver {
			p.view, p.log, p.hash = last.view, last.log, last.hash
			if last.sumVer == r.sumVer {
				p.legal, p.deadline = last.legal, last.deadline
			} else {
				r.legalParts(p, seat, c)
			}
		} else {
			// Showing the match may fail (a bug in a pack): then it is
			// broken, and its summary says why.
			built := false
			r.protect(func() {
				start := len(c.scratch)
				var err error
				if c.scratch, err = game.AppendView(c.scratch, r.m, seat); err != nil {
					panic(fmt.Sprintf("a view does not encode: %v", err))
				}
				end := len(c.scratch)
				log, hash := r.m.LogLen(), r.m.Hash()
				r.legalParts(p, seat, c)
				p.log, p.hash = log, hash
				c.later(&p.view, start, end)
				built = true
			})
			if !built {
				p.legal, p.deadline = emptyList, 0
				p.undoBy, p.canUndo, p.undone = -1, false, -1
			}
		}
	}
	p.match = r.summaryJSON()
	p.standings = r.standingsJSON()
	if r.seen == nil {
		r.seen = map[int]*parts{}
	}
	r.seen[seat] = p
	return p
}

// standingsJSON is the JSON of the seats' standings once the match is
// finished (nil before, or if ranking them fails): the same for every
// seat, made once after each change of the match.
func (r *room) standingsJSON() []byte {
	if r.m == nil || r.rec.Status != store.Finished {
		return nil
	}
	if st := &r.standings; st.json == nil || st.mver != r.mver {
		st.mver, st.json = r.mver, nil
		r.protect(func() { st.json, _ = json.Marshal(game.StandingsOf(r.m, len(r.names()))) })
	}
	return r.standings.json
}

// legalParts makes the seat's legal commands and deadline.
func (r *room) legalParts(p *parts, seat int, c *broadcastCache) {
	p.legal, p.deadline = emptyList, 0
	if seat < 0 || !r.playing() || r.rec.Seats[seat].Bot {
		return
	}
	legal := r.m.Legal(seat)
	if len(legal) == 0 {
		return
	}
	start := len(c.scratch)
	var err error
	if c.scratch, err = game.AppendCommands(c.scratch, legal); err != nil {
		panic(fmt.Sprintf("legal commands do not encode: %v", err))
	}
	c.later(&p.legal, start, len(c.scratch))
	if d, ok := r.deadlines[seat]; ok {
		p.deadline = d.UnixMilli()
	}
}

// broadcast sends every connection what changed: a delta from what it
// was last sent, or a whole state to a connection that has none.
// Connections that were sent the same and see the same (a seat's several
// tabs, spectators) share one message; log entries every viewer reads
// alike are encoded once.
func (r *room) broadcast() {
	if len(r.sessions) == 0 {
		r.ackTo = nil
		r.seen = nil
		return
	}
	r.ver++
	var bc broadcastCache
	bc.init()
	defer bc.done()
	bc.msgs2.hint = r.hints.msgs
	defer func() { r.hints.msgs = bc.msgs2.used() }()
	logLen := 0
	if r.m != nil {
		logLen = r.m.LogLen()
	}
	// The parts of every seat watched first, kept in one allocation of
	// their size; then the messages.
	for s := range r.sessions {
		r.partsFor(s.seat, &bc)
	}
	bc.seal()
	for s := range r.sessions {
		cur := r.partsFor(s.seat, &bc)
		k := msgKey{seat: s.seat, from: s.logSent, sent: s.sent}
		msg := bc.message(k)
		if msg == nil {
			msg = r.message(s.sent, cur, s.logSent, &bc)
			bc.msgs = append(bc.msgs, keyedMsg{k, msg})
		}
		if s == r.ackTo && !s.relayed() {
			s.sendAck(msg, r.ackID)
			r.ackTo = nil
		} else {
			s.send(msg)
		}
		s.sent, s.logSent = cur, logLen
		r.sendSeats(s)
	}
	// Seats nobody watches any more are forgotten.
	for seat, p := range r.seen {
		if p.ver != r.ver {
			delete(r.seen, seat)
		}
	}
}

// resync sends a connection a whole state now, with the log from record
// log on: what a page asks for when it missed a message.
func (r *room) resync(s *session, log int) {
	if _, ok := r.sessions[s]; !ok {
		return
	}
	s.logSent = max(0, log)
	if r.m != nil {
		s.logSent = min(s.logSent, r.m.LogLen())
	}
	cur, msg := r.whole(s.seat, s.logSent)
	s.send(msg)
	s.sent = cur
	if r.m != nil {
		s.logSent = r.m.LogLen()
	}
}

// whole makes the whole state of a seat now, with the log from record
// from on: its parts and its message.
func (r *room) whole(seat, from int) (*parts, []byte) {
	var bc broadcastCache
	bc.init()
	defer bc.done()
	cur := r.partsFor(seat, &bc)
	bc.seal()
	return cur, r.message(nil, cur, from, &bc)
}

// msgKey is what makes two connections' messages alike: the seat, the
// part of the log already sent, the parts already sent.
type msgKey struct {
	seat, from int
	sent       *parts
}

type keyedMsg struct {
	key msgKey
	msg []byte
}

// broadcastCache holds what one broadcast encoded, to share it: the
// messages by key (few: a room's connections see a handful of distinct
// things) and the log entries by viewer and first record.
type broadcastCache struct {
	msgs    []keyedMsg
	entries []encodedEntries
	// Room for a few of each, so that a broadcast allocates none.
	msgsArr    [4]keyedMsg
	entriesArr [2]encodedEntries
	// scratch is where the views and legal commands of the broadcast are
	// made, and pending the places in parts that receive them, copied
	// into one allocation of their size (seal): connections keep them
	// until the next change. msgs2 holds the broadcast's messages, which
	// go once written; parts its parts, allocated at once for the seats.
	scratch    []byte
	scratchBuf *[]byte
	pending    []pendingBytes
	pendingArr [8]pendingBytes
	msgs2      arena
	parts      []parts
	// sum is the patch of the summary from old to cur, in a buffer of its
	// own.
	sum struct {
		old, cur, ops []byte
		buf           [256]byte
	}
}

// pendingBytes is a part made in the scratch, to place at seal.
type pendingBytes struct {
	to         *[]byte
	start, end int
}

func (c *broadcastCache) init() {
	c.msgs, c.entries, c.sum.ops, c.pending = c.msgsArr[:0], c.entriesArr[:0], c.sum.buf[:0], c.pendingArr[:0]
	c.scratchBuf = getBuf()
	c.scratch = (*c.scratchBuf)[:0]
}

func (c *broadcastCache) done() {
	*c.scratchBuf = c.scratch
	putBuf(c.scratchBuf)
}

// later places scratch[start:end] at *to when the broadcast's parts are
// sealed.
func (c *broadcastCache) later(to *[]byte, start, end int) {
	c.pending = append(c.pending, pendingBytes{to, start, end})
}

// seal copies what the parts made in the scratch into one allocation of
// its size, and places it.
func (c *broadcastCache) seal() {
	if len(c.pending) == 0 {
		return
	}
	data := bytes.Clone(c.scratch)
	for _, p := range c.pending {
		*p.to = data[p.start:p.end:p.end]
	}
	c.scratch, c.pending = c.scratch[:0], c.pending[:0]
}

// newParts returns parts to fill, from an array made for the seats of the
// room (seats of them).
func (c *broadcastCache) newParts(seats int) *parts {
	if len(c.parts) == cap(c.parts) {
		c.parts = make([]parts, 0, max(seats, 2))
	}
	c.parts = c.parts[:len(c.parts)+1]
	return &c.parts[len(c.parts)-1]
}

// arena hands out copies of bytes from one allocation: what one broadcast
// makes is made together and let go together.
type arena struct {
	buf  []byte
	hint int // the size to allocate first: what the last broadcast used
	all  int // the bytes handed out
}

// copy returns a copy of b, never changed afterwards.
func (a *arena) copy(b []byte) []byte {
	if len(a.buf)+len(b) > cap(a.buf) {
		a.buf = make([]byte, 0, max(a.hint-a.all, 2*cap(a.buf), len(b)))
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	a.all += len(b)
	return a.buf[start:len(a.buf):len(a.buf)]
}

// used is how many bytes the arena handed out.
func (a *arena) used() int { return a.all }

// sameBytes reports whether a and b are the same bytes in memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

type encodedEntries struct {
	viewer, from int
	enc          []byte
}

func (c *broadcastCache) message(k msgKey) []byte {
	for _, m := range c.msgs {
		if m.key == k {
			return m.msg
		}
	}
	return nil
}

// entries returns the JSON of the log entries the seat reads from record
// from on ([] for none), encoded once per broadcast for each viewer, or
// once for all of them when the log is shared. Entries not encoded yet in
// this broadcast are written in b, and fresh is set: the caller files the
// copy of them its message holds (c.file).
func (r *room) entries(c *broadcastCache, b *[]byte, seat, from int) (enc []byte, fresh bool) {
	if r.m == nil || from >= r.m.LogLen() {
		return emptyList, false
	}
	viewer := r.viewer(seat)
	for _, e := range c.entries {
		if e.viewer == viewer && e.from == from {
			return e.enc, false
		}
	}
	var err error
	// The notes of who played for whom go among the entries: the same for
	// every viewer.
	entries := r.played.withNotes(r.m.Log(viewer, from), from, r.m.LogLen(), r.playerName)
	if *b, err = game.AppendEntries((*b)[:0], entries); err != nil {
		panic(fmt.Sprintf("log entries do not encode: %v", err))
	}
	if len(*b) <= 2 {
		c.entries = append(c.entries, encodedEntries{viewer, from, emptyList})
		return emptyList, false
	}
	return *b, true
}

// viewer is whose log a seat reads: its own, or everybody's when the log is
// shared.
func (r *room) viewer(seat int) int {
	if game.IsSharedLog(r.m) {
		return game.Spectator
	}
	return seat
}

// file keeps the encoding of the entries a message holds at [start, end),
// for the other messages of the broadcast.
func (c *broadcastCache) file(viewer, from int, msg []byte, start, end int) {
	c.entries = append(c.entries, encodedEntries{viewer, from, msg[start:end:end]})
}

// message encodes what a connection that was sent old (nil: nothing yet)
// and has the log up to from is sent now: a whole state, or a delta. It
// is copied out of a pooled buffer at its size, and never changed: it is
// shared by connections and queued.
func (r *room) message(old, cur *parts, from int, c *broadcastCache) []byte {
	eb := getBuf()
	defer putBuf(eb)
	entries, fresh := emptyList, false
	r.protect(func() { entries, fresh = r.entries(c, eb, cur.you, from) })
	b := getBuf()
	defer putBuf(b)
	m := (*b)[:0]
	entStart := -1
	if old == nil {
		m = append(m, `{"type":"state","n":`...)
		m = strconv.AppendInt(m, int64(r.ver), 10)
		m = append(m, `,"match":`...)
		m = append(m, cur.match...)
		m = append(m, `,"you":`...)
		m = strconv.AppendInt(m, int64(cur.you), 10)
		if cur.view != nil {
			m = append(m, `,"view":`...)
			m = append(m, cur.view...)
		}
		m = append(m, `,"entries":`...)
		entStart = len(m)
		m = append(m, entries...)
		if cur.view != nil {
			m = append(m, `,"log":`...)
			m = strconv.AppendInt(m, int64(cur.log), 10)
			m = append(m, `,"hash":`...)
			m = game.AppendString(m, cur.hash)
		}
		m = append(m, `,"legal":`...)
		m = append(m, cur.legal...)
		if cur.deadline != 0 {
			m = append(m, `,"deadline":`...)
			m = strconv.AppendInt(m, cur.deadline, 10)
		}
		if cur.standings != nil {
			m = append(m, `,"standings":`...)
			m = append(m, cur.standings...)
		}
		if cur.undoBy >= 0 {
			m = append(m, `,"undoBy":`...)
			m = strconv.AppendInt(m, int64(cur.undoBy), 10)
		}
		if cur.canUndo {
			m = append(m, `,"canUndo":true`...)
		}
		if cur.undone >= 0 {
			m = append(m, `,"undone":`...)
			m = strconv.AppendInt(m, int64(cur.undone), 10)
		}
	} else {
		m = append(m, `{"type":"delta","n":`...)
		m = strconv.AppendInt(m, int64(r.ver), 10)
		m = append(m, `,"patch":[`...)
		start := len(m)
		if m = appendPatch(m, old, cur, c); len(m) == start {
			m = m[:start-len(`,"patch":[`)] // nothing changed
		} else {
			m = append(m, ']')
		}
		if len(entries) > 2 {
			m = append(m, `,"entries":`...)
			entStart = len(m)
			m = append(m, entries...)
		}
	}
	m = append(m, '}')
	*b = m
	msg := c.msgs2.copy(m)
	if fresh && entStart >= 0 {
		c.file(r.viewer(cur.you), from, msg, entStart, entStart+len(entries))
	}
	return msg
}

// appendPatch appends the operations turning what a page holds after old
// into what it holds after cur.
// The summary's operations, the same for every seat, are made once per
// broadcast and kept in c.
func appendPatch(ops []byte, old, cur *parts, c *broadcastCache) []byte {
	d := differs.Get().(*differ)
	defer differs.Put(d)
	start := len(ops)
	if !bytes.Equal(old.match, cur.match) {
		if c.sum.ops == nil || !sameBytes(c.sum.old, old.match) || !sameBytes(c.sum.cur, cur.match) {
			c.sum.old, c.sum.cur = old.match, cur.match
			d.start = 0
			c.sum.ops = d.diff(c.sum.ops[:0], "/match", old.match, cur.match)
		}
		ops = append(ops, c.sum.ops...) // the first operations: no comma before
	}
	d.start = start
	ops = d.diff(ops, "/view", old.view, cur.view)
	switch {
	case cur.view == nil && old.view != nil:
		ops = d.diff(ops, "/log", zero, nil)
		ops = d.diff(ops, "/hash", zero, nil)
	case cur.view != nil:
		if old.view == nil || old.log != cur.log {
			d.scratch = strconv.AppendInt(d.scratch[:0], int64(cur.log), 10)
			ops = d.diff(ops, "/log", nil, d.scratch)
		}
		if old.view == nil || old.hash != cur.hash {
			d.scratch = game.AppendString(d.scratch[:0], cur.hash)
			ops = d.diff(ops, "/hash", nil, d.scratch)
		}
	}
	if !bytes.Equal(old.legal, cur.legal) {
		// Set whole: a few commands, which clients read at once.
		ops = d.diff(ops, "/legal", nil, cur.legal)
	}
	if old.deadline != cur.deadline {
		var v []byte
		if cur.deadline != 0 {
			d.scratch = strconv.AppendInt(d.scratch[:0], cur.deadline, 10)
			v = d.scratch
		}
		ops = d.diff(ops, "/deadline", zero, v)
	}
	if !bytes.Equal(old.standings, cur.standings) {
		ops = d.diff(ops, "/standings", old.standings, cur.standings)
	}
	ops = patchSeat(ops, d, "/undoBy", old.undoBy, cur.undoBy)
	switch {
	case cur.canUndo && !old.canUndo:
		ops = d.diff(ops, "/canUndo", nil, trueValue)
	case old.canUndo && !cur.canUndo:
		ops = d.diff(ops, "/canUndo", zero, nil)
	}
	return patchSeat(ops, d, "/undone", old.undone, cur.undone)
}

// trueValue is the JSON of true.
var trueValue = []byte("true")

// patchSeat appends the operation turning a member that holds a seat, or
// is absent (-1), from old to cur.
func patchSeat(ops []byte, d *differ, path string, old, cur int) []byte {
	switch {
	case old == cur:
		return ops
	case cur < 0:
		return d.diff(ops, path, zero, nil)
	}
	d.scratch = strconv.AppendInt(d.scratch[:0], int64(cur), 10)
	return d.diff(ops, path, nil, d.scratch)
}

// differs keeps differs and their scratch between patches.
var differs = sync.Pool{New: func() any { return &differ{small: smallValue} }}

// bufs are buffers messages are built in, then copied out at their size.
var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuf() *[]byte { return bufs.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if cap(*b) > 1<<20 {
		return // a huge one is left to the collector
	}
	bufs.Put(b)
}

// summaryJSON is the encoding of the published summary, made with it.
func (r *room) summaryJSON() []byte { return r.sumJSON }

// appendJSON appends the summary's JSON, as encoding/json writes it.
func (s *Summary) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = game.AppendString(b, s.ID)
	b = append(b, `,"game":`...)
	b = game.AppendString(b, s.Game)
	b = append(b, `,"board":`...)
	b = game.AppendString(b, s.Board)
	b = append(b, `,"boardName":`...)
	b = game.AppendString(b, s.BoardName)
	b = append(b, `,"status":`...)
	b = game.AppendString(b, s.Status)
	b = append(b, `,"seats":`...)
	if s.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, seat := range s.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = game.AppendString(b, seat.Name)
			b = append(b, `,"bot":`...)
			b = game.AppendBool(b, seat.Bot)
			if seat.Level != "" {
				b = append(b, `,"level":`...)
				b = game.AppendString(b, seat.Level)
			}
			b = append(b, `,"online":`...)
			b = game.AppendBool(b, seat.Online)
			if seat.Human {
				b = append(b, `,"human":true`...)
			}
			if seat.Handed != "" {
				b = append(b, `,"handed":`...)
				b = game.AppendString(b, seat.Handed)
			}
			if seat.Muted {
				b = append(b, `,"muted":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"maxRounds":`...)
	b = strconv.AppendInt(b, int64(s.MaxRounds), 10)
	b = append(b, `,"public":`...)
	b = game.AppendBool(b, s.Public)
	if s.TurnLimit != 0 {
		b = append(b, `,"turnLimit":`...)
		b = game.AppendFloat(b, s.TurnLimit)
	}
	for _, f := range [...]struct{ name, value string }{{`,"result":`, s.Result}, {`,"error":`, s.Error}} {
		if f.value != "" {
			b = append(b, f.name...)
			b = game.AppendString(b, f.value)
		}
	}
	b = append(b, `,"commands":`...)
	b = strconv.AppendInt(b, int64(s.Commands), 10)
	b = append(b, `,"created":`...)
	b = appendTime(b, s.Created)
	b = append(b, `,"updated":`...)
	b = appendTime(b, s.Updated)
	for _, f := range [...]struct{ name, value string }{{`,"rematch":`, s.Rematch}, {`,"next":`, s.Next}, {`,"compat":`, s.Compat}} {
		if f.value != "" {
			b = append(b, f.name...)
			b = game.AppendString(b, f.value)
		}
	}
	if s.SpectatorChat {
		b = append(b, `,"spectatorChat":true`...)
	}
	return append(b, '}')
}

// appendTime appends a time as encoding/json writes it (RFC 3339 with
// nanoseconds).
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
