package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// room is one match's actor: a goroutine that owns the match and its
// connections and runs everything that touches them, one message at a
// time, in the order they arrive. Nothing else reads or writes its fields,
// except the atomics that readers (the lobby, the janitor) read without
// waiting for it.
type room struct {
	srv   *Server
	id    string
	inbox chan func()
	quit  chan struct{}
	done  chan struct{} // closed when run returns

	rec      store.Match
	def      *compiled  // nil if the match's game no longer loads
	m        game.Match // nil until the match starts
	sessions map[*session]struct{}
	stopping bool // set to leave memory after the current message
	moved    bool // its lease was lost: another node owns it now

	botQueued     bool
	played        played // who played for whom: the notes the log shows
	chat          chatLog
	undo          undoState         // what may be taken back (undo.go)
	deadlines     map[int]time.Time // when each waited-for person's time runs out
	timer         *time.Timer
	lastSeat      int   // the seat of the last command played
	prevUsed      int64 // lastUsed before the message being handled
	savedCommands int   // rec.Commands as last stored
	// ackTo is the session whose command is being played, and ackID the
	// command's id: the next broadcast sends it its acknowledgement with
	// its state, and clears ackTo.
	ackTo  *session
	ackID  int
	sumVer int // counts changes of the summary, so connections get it only when it changed
	// sumEnc is the encoding of the summary of, the last one published
	// that a connection was sent.
	sumEnc struct {
		of   *Summary
		data []byte
	}

	// Read by others without waiting.
	snap      atomic.Pointer[Summary]
	lastUsed  atomic.Int64 // unix nanoseconds of the last message handled
	online    atomic.Int32
	conns     atomic.Int32 // connections open or being opened, counted against the limit
	goesAlone atomic.Bool  // bots or timers will move it without anyone
}

// inboxSize bounds a room's queue of pending messages; a client that sends
// faster than the room works waits (its socket is not read meanwhile).
const inboxSize = 256

func newRoom(srv *Server, rec store.Match) *room {
	r := &room{
		srv: srv, id: rec.ID, inbox: make(chan func(), inboxSize), quit: make(chan struct{}), done: make(chan struct{}),
		rec: rec, sessions: map[*session]struct{}{}, deadlines: map[int]time.Time{}, lastSeat: -1,
	}
	r.lastUsed.Store(time.Now().UnixNano())
	r.publish()
	return r
}

func (r *room) run() {
	defer r.srv.wg.Done()
	defer close(r.done)
	for {
		select {
		case f := <-r.inbox:
			r.prevUsed = r.lastUsed.Swap(time.Now().UnixNano())
			r.safely(f)
			if r.stopping {
				reason := ""
				if r.moved {
					reason = reasonMoved
				}
				r.leave(reason)
				return
			}
		case <-r.quit:
			r.leave(reasonRestart)
			return
		}
	}
}

// leave closes the room: its connections (told why, if reason is set),
// its timer, its place in the server and in a cluster.
func (r *room) leave(reason string) {
	if r.timer != nil {
		r.timer.Stop()
	}
	if r.rec.Commands != r.savedCommands && !r.moved {
		// The lobby reads the count of commands of a match not in memory
		// from the store.
		if err := r.save(context.Background()); err != nil && !errors.Is(err, store.ErrFenced) {
			r.srv.log.Warn("storing a match's count of commands", "match", r.id, "err", err)
		}
	}
	for s := range r.sessions {
		s.closeWith(reason)
	}
	r.srv.forget(r)
	if c := r.srv.opts.Cluster; c != nil && !r.moved {
		c.Release(r.id)
	}
}

// stop asks the room to stop once the message it is handling is done.
func (r *room) stop() {
	select {
	case <-r.quit:
	default:
		close(r.quit)
	}
}

// safely runs one message. A panic inside it (a bug in a pack or here)
// breaks this match only: it is marked broken with the reason, the stack
// goes to the log, and the server and every other match go on.
func (r *room) safely(f func()) {
	defer func() {
		if p := recover(); p != nil {
			r.srv.metrics.panics.Inc()
			r.srv.log.Error("panic in a match", "match", r.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			// No acknowledgement goes out for what failed; markBroken
			// tells everybody.
			r.ackTo = nil
			r.markBroken(fmt.Errorf("the match failed (a bug, which was logged): %v", p))
		}
	}()
	f()
}

// protect runs f, and if it panics marks the match broken (once), logs
// the stack and returns: what failed is left out.
func (r *room) protect(f func()) {
	defer func() {
		if p := recover(); p != nil {
			r.srv.metrics.panics.Inc()
			r.srv.log.Error("panic in a match", "match", r.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if r.rec.Status != store.Broken {
				r.markBroken(fmt.Errorf("the match failed (a bug, which was logged): %v", p))
				r.publish()
			}
		}
	}()
	f()
}

// post queues f without waiting for it; if the queue is full, a goroutine
// waits to queue it, so that the room itself never blocks on its inbox.
func (r *room) post(f func()) {
	select {
	case r.inbox <- f:
	default:
		go func() {
			select {
			case r.inbox <- f:
			case <-r.done:
			}
		}()
	}
}

// do runs f on the room's goroutine and waits until it has run.
func (r *room) do(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case r.inbox <- func() { defer close(done); f() }:
	case <-ctx.Done():
		return ctx.Err()
	case <-r.done:
		return errClosing
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-r.done:
		return errClosing
	}
}

// idleSince is how long the room has been unused and unwatched, or 0 if
// someone watches it or it goes on by itself.
func (r *room) idleSince(now time.Time) time.Duration {
	if r.online.Load() > 0 || r.goesAlone.Load() {
		return 0
	}
	return now.Sub(time.Unix(0, r.lastUsed.Load()))
}

// evictable reports, on the room's goroutine, whether it may leave memory:
// nothing happened since the janitor saw it unused at seen, nobody
// watches it, and nothing will move it.
func (r *room) evictable(seen int64) bool {
	return r.prevUsed == seen && len(r.sessions) == 0 && !r.goesOn()
}

// goesOn reports whether bots or timers will move the match.
func (r *room) goesOn() bool {
	return r.botQueued || len(r.deadlines) > 0 || (r.playing() && r.waitsForBot())
}

// --- rebuilding ---

// rebuild replays the stored commands of a started match and checks the
// state hash after each one. A mismatch means the match cannot be
// trusted: it is reported and the match refuses further commands.
func (r *room) rebuild(ctx context.Context) error {
	cmds, err := r.srv.store.Commands(ctx, r.id)
	if err != nil {
		return err
	}
	// A log that does not replay leaves the match as far as it went.
	m, notes, undo, err := r.replayLog(cmds, len(cmds), func(m game.Match) { r.m = m })
	if err != nil {
		return err
	}
	r.m, r.played, r.undo = m, notes, undo
	if n := len(cmds); n > 0 {
		r.lastSeat = cmds[n-1].Player
	}
	// The stored count may lag (appends do not update it): it is saved
	// when the room closes if it differs, and only then, so that looking
	// at a match does not make it look played.
	r.savedCommands = r.rec.Commands
	r.rec.Commands = len(cmds)
	return nil
}

// setup is how the match starts: its players, seed and round limit.
func (r *room) setup() game.Setup {
	return game.Setup{Players: r.names(), Seed: r.rec.Seed, MaxRounds: r.rec.MaxRounds, AutoAck: r.rec.Settings.AutoAck,
		Compat: r.rec.Settings.Compat}
}

// save stores the match's record, and remembers the count of commands
// it stored (appends do not update it).
func (r *room) save(ctx context.Context) error {
	if err := r.srv.store.UpdateMatch(ctx, r.rec); err != nil {
		return err
	}
	r.savedCommands = r.rec.Commands
	return nil
}

// markBroken records why a match cannot go on.
func (r *room) markBroken(why error) {
	if r.rec.Status == store.Broken {
		return
	}
	r.rec.Status = store.Broken
	r.rec.Error = why.Error()
	r.clearTimers()
	if err := r.save(context.Background()); err != nil {
		r.srv.log.Error("storing that a match is broken", "match", r.id, "err", err)
	}
	r.srv.log.Error("match broken", "match", r.id, "reason", why.Error())
	// Everybody is told at once, the lobby too: after what is being done
	// now (a broadcast, perhaps, which broke it).
	r.sumVer++
	r.publish()
	r.post(r.afterChange)
}

func (r *room) names() []string {
	var out []string
	for _, s := range r.rec.Seats {
		if s.Name != "" {
			out = append(out, s.Name)
		}
	}
	return out
}

func (r *room) playerName(seat int) string {
	if seat >= 0 && seat < len(r.rec.Seats) {
		return r.rec.Seats[seat].Name
	}
	return fmt.Sprintf("seat %d", seat)
}

// --- rights ---

// Rights are what a client's secrets let it do in a match.
type rights struct {
	read bool
	seat int // the first seat it plays, or -1
	// seats are all the seats it plays: several when players share one
	// device (pass-and-play).
	seats []int
	owner bool
}

// rightsOf works out what the secrets a client gave allow: a seat's token
// plays that seat, the owner's secret owns the match, the invitation's
// secret (or a public match) lets anyone read and join.
func (r *room) rightsOf(token, owner, invite string) rights {
	rt := rights{seat: -1}
	rt.owner = secretIs(owner, r.rec.Owner)
	if token != "" {
		for i, s := range r.rec.Seats {
			if s.Token != "" && secretIs(token, s.Token) {
				rt.seats = append(rt.seats, i)
			}
		}
		if len(rt.seats) > 0 {
			rt.seat = rt.seats[0]
		}
	}
	rt.read = rt.owner || rt.seat >= 0 || r.rec.Settings.Public || secretIs(invite, r.rec.Invite)
	return rt
}

// --- the lobby ---

var (
	errNotOwner = errors.New("only whoever created the match may do that")
	errNoRight  = errors.New("this match is private: ask for its invitation link")
)

// fillWithBots puts a bot of the given level in every empty seat.
func (r *room) fillWithBots(ctx context.Context, rt rights, level string) error {
	if !rt.owner {
		return errNotOwner
	}
	if r.rec.Status != store.Lobby {
		return fmt.Errorf("the match has started")
	}
	prev := slices.Clone(r.rec.Seats)
	n := 0
	for i, s := range r.rec.Seats {
		if s.Name == "" {
			n++
			r.rec.Seats[i] = store.Seat{Name: r.botName(n), Bot: true, Level: level}
		}
	}
	if err := r.save(ctx); err != nil {
		r.rec.Seats = prev
		return err
	}
	r.changed()
	return nil
}

func (r *room) botName(n int) string { return freeBotName(n, r.rec.Seats) }

// start begins the match with the seats taken; empty seats are dropped.
func (r *room) start(ctx context.Context, rt rights) error {
	if !rt.owner {
		return errNotOwner
	}
	if r.rec.Status != store.Lobby {
		return fmt.Errorf("the match has already started")
	}
	if r.def == nil {
		return fmt.Errorf("the match's game does not load")
	}
	seats := slices.DeleteFunc(slices.Clone(r.rec.Seats), func(s store.Seat) bool { return s.Name == "" })
	if len(seats) == 0 {
		return fmt.Errorf("nobody has joined yet")
	}
	prev := r.rec
	r.rec.Seats = seats
	m, err := r.def.def.Start(r.setup())
	if err != nil {
		r.rec = prev
		return err
	}
	r.rec.Status = store.Playing
	if err := r.save(ctx); err != nil {
		r.rec = prev
		return err
	}
	r.m = m
	r.srv.log.Info("match started", "match", r.id, "game", r.rec.BoardName, "players", len(seats))
	r.seatsMoved(prev.Seats)
	r.changed()
	return nil
}

// leaveSeat takes a player out: in the lobby their seat becomes free; in a
// match being played, a bot plays it from now on.
func (r *room) leaveSeat(ctx context.Context, seat int) error {
	if seat < 0 || seat >= len(r.rec.Seats) || r.rec.Seats[seat].Name == "" {
		return fmt.Errorf("there is nobody in seat %d", seat)
	}
	prev := r.rec.Seats[seat]
	switch r.rec.Status {
	case store.Lobby:
		r.rec.Seats[seat] = store.Seat{}
	case store.Playing:
		r.rec.Seats[seat].Bot, r.rec.Seats[seat].Token, r.rec.Seats[seat].Handed = true, "", store.HandedLeft
	default:
		return fmt.Errorf("the match is %s", r.rec.Status)
	}
	if err := r.save(ctx); err != nil {
		r.rec.Seats[seat] = prev
		return err
	}
	r.seatGone(seat)
	r.changed()
	return nil
}

// handOver gives a seat of a match being played to a bot, or back to its
// player (the owner decides, for a player who went away).
func (r *room) handOver(ctx context.Context, rt rights, seat int, bot bool) error {
	if !rt.owner {
		return errNotOwner
	}
	if r.rec.Status != store.Playing {
		return fmt.Errorf("the match is not being played")
	}
	if seat < 0 || seat >= len(r.rec.Seats) {
		return fmt.Errorf("there is no seat %d", seat)
	}
	s := &r.rec.Seats[seat]
	if !bot && s.Token == "" {
		return fmt.Errorf("%s has no player to give the seat back to", s.Name)
	}
	prev := *s
	s.Bot, s.Handed = bot, ""
	if bot {
		s.Handed = store.HandedOwner
	}
	if err := r.save(ctx); err != nil {
		*s = prev
		return err
	}
	r.changed()
	return nil
}

// --- playing ---

func (r *room) playing() bool {
	return r.m != nil && r.rec.Status == store.Playing
}

// command plays a command from a seat: checked by the match, stored with
// its state hash, and only then acknowledged and shown to everybody.
func (r *room) command(ctx context.Context, seat int, data json.RawMessage) error {
	switch {
	case r.rec.Status == store.Broken:
		return engine.Rejectf("this match is broken and cannot go on: %s", r.rec.Error)
	case r.m == nil:
		return engine.Rejectf("the match has not started")
	case r.rec.Status != store.Playing:
		return engine.Rejectf("the match is %s", r.rec.Status)
	case seat < 0:
		return engine.Rejectf("spectators cannot play; join a match with a free seat to play")
	case r.rec.Seats[seat].Bot:
		return engine.Rejectf("a bot plays your seat now; ask the match's owner to give it back")
	}
	start := time.Now()
	if err := r.apply(ctx, seat, data, ""); err != nil {
		return err
	}
	r.srv.metrics.latency.Observe(time.Since(start).Seconds())
	r.changed()
	return nil
}

// apply plays and stores one command, with the reason a bot played it
// for a person, if it did. If storing fails, the match is rebuilt from
// what is stored, so that memory never runs ahead of disk.
func (r *room) apply(ctx context.Context, seat int, data json.RawMessage, reason string) error {
	at, deadline := r.m.LogLen(), r.deadlines[seat]
	if err := r.m.Apply(seat, data); err != nil {
		if engine.IsRejected(err) {
			r.srv.metrics.rejected.WithLabelValues("rules").Inc()
			return err
		}
		r.markBroken(err)
		return err
	}
	seq := r.rec.Commands
	start := time.Now()
	err := r.srv.store.Append(ctx, r.id, store.Command{Seq: seq, Player: seat, Data: data, Hash: r.m.Hash(), Reason: reason}, r.rec.Fence)
	r.srv.metrics.storeWrite.Observe(time.Since(start).Seconds())
	if err != nil {
		r.srv.log.Error("storing a command", "match", r.id, "seq", seq, "err", err)
		if ctx.Err() != nil || errors.Is(err, store.ErrClosed) {
			// The client went away or the server is stopping before the
			// command was queued: it is not stored, so the match goes
			// back to what is.
			if rerr := r.rebuild(context.Background()); rerr != nil {
				r.markBroken(rerr)
			}
			return fmt.Errorf("the move could not be saved; please try again")
		}
		if errors.Is(err, store.ErrFenced) {
			// Another node owns the match now: this one lets it go.
			r.stopping, r.moved = true, true
			return fmt.Errorf("%w; try again", errOwnerGone)
		}
		if rerr := r.rebuild(r.srv.ctx); rerr != nil {
			r.markBroken(rerr)
		}
		return fmt.Errorf("the move could not be saved; please try again")
	}
	r.rec.Commands++
	r.played.add(at, seat, reason)
	r.undoPlayed(seat, reason, deadline)
	r.lastSeat = seat
	r.srv.metrics.commands.Inc()
	if out := r.m.Outcome(); out.Over {
		r.rec.Status = store.Finished
		r.rec.Result = r.resultText(out)
		if err := r.save(ctx); err != nil {
			r.srv.log.Error("storing a match's end", "match", r.id, "err", err)
		}
		r.srv.log.Info("match finished", "match", r.id, "result", r.rec.Result)
	}
	return nil
}

// resultText says how a match ended: the reason and who won (unless the
// reason says so already).
func (r *room) resultText(out game.Outcome) string {
	var names []string
	for _, w := range out.Winners {
		names = append(names, r.playerName(w))
	}
	reason := out.Reason
	switch {
	case len(names) == 0 && reason == "":
		return "no winner"
	case len(names) == 0:
		return reason + "; no winner"
	case strings.HasSuffix(reason, " won") || (len(names) == 1 && strings.Contains(reason, names[0])):
		return reason
	case reason == "":
		return strings.Join(names, ", ") + " won"
	}
	return reason + "; " + strings.Join(names, ", ") + " won"
}

// waitsForBot reports whether the match waits for a seat a bot plays.
func (r *room) waitsForBot() bool {
	for _, seat := range r.m.Waiting() {
		if r.rec.Seats[seat].Bot {
			return true
		}
	}
	return false
}

// changed runs after everything that changes the match: it publishes the
// summary, tells every connection, and schedules bots and timers.
func (r *room) changed() {
	r.sumVer++
	r.rec.Updated = time.Now()
	r.afterChange()
}

func (r *room) afterChange() {
	r.publish()
	// The timers first: the state that asks someone for a decision tells
	// them how long they have for it.
	r.resetTimers()
	r.broadcast()
	r.scheduleBots()
	r.goesAlone.Store(r.goesOn())
}

// scheduleBots queues one bot decision if the match waits for a bot. Each
// decision is one message of the room's queue, so the room answers others
// between two bot moves.
func (r *room) scheduleBots() {
	if r.botQueued || !r.playing() || !r.waitsForBot() {
		return
	}
	r.botQueued = true
	r.post(r.botStep)
}

// botStep plays one decision of the first bot the match waits for. A bot
// that searches (a level other than the pack's own bot and "random")
// thinks on a copy of the match, off the room's goroutine, so that the
// room answers everyone meanwhile; its command is played if the match has
// not changed since.
func (r *room) botStep() {
	if !r.playing() {
		r.botQueued = false
		return
	}
	seat := -1
	for _, s := range r.m.Waiting() {
		if r.rec.Seats[s].Bot {
			seat = s
			break
		}
	}
	if seat < 0 {
		r.botQueued = false
		return
	}
	level := r.rec.Seats[seat].Level
	cl, canCopy := r.m.(game.Cloner)
	if level == "" || level == "random" || !canCopy || r.srv.opts.Bots == nil {
		r.botQueued = false
		r.playFor(seat, level, nil, r.rec.Seats[seat].Handed)
		r.changed()
		return
	}
	copy, hash, stream, why := cl.Clone(), r.m.Hash(), r.botStream(), r.rec.Seats[seat].Handed
	think := r.srv.opts.Bots
	budget := r.srv.limits.BotTime
	go func() {
		// At most BotThreads bots think at once, all matches together:
		// the other CPUs stay free for people's commands.
		if !r.srv.botThread(r.done) {
			return // the room stopped meanwhile
		}
		cmd, ok := think(copy, seat, level, stream, budget)
		<-r.srv.bots
		r.post(func() {
			r.botQueued = false
			if ok && r.playing() && r.m.Hash() == hash {
				r.playFor(seat, level, cmd, why)
			}
			r.changed()
		})
	}()
}

// playFor plays one decision of a seat with a bot: the seat's bot (cmd,
// if it has already chosen), or a stand-in for a person whose time ran
// out. A bot whose command is refused (a bug in the bot) is replaced by
// the first legal command. reason says why a bot plays for a person
// (store.Command.Reason), if it does.
func (r *room) playFor(seat int, level string, cmd json.RawMessage, reason string) {
	if cmd == nil {
		var ok bool
		if cmd, ok = r.botCommand(seat, level); !ok {
			return
		}
	}
	err := r.apply(context.Background(), seat, cmd, reason)
	if err != nil && engine.IsRejected(err) && r.playing() {
		r.srv.log.Warn("a bot's command was refused", "match", r.id, "seat", seat, "command", string(cmd), "err", err)
		if legal := r.m.Legal(seat); len(legal) > 0 {
			err = r.apply(context.Background(), seat, legal[0].Data, reason)
		}
	}
	if err != nil && !engine.IsRejected(err) {
		r.srv.log.Error("a bot's move failed", "match", r.id, "seat", seat, "err", err)
	}
}

// botCommand asks the seat's bot for its command, on the room's goroutine.
func (r *room) botCommand(seat int, level string) (json.RawMessage, bool) {
	if b := r.srv.opts.Bots; b != nil && level != "" {
		// A search in the room (a match that cannot be copied) takes its
		// place among the bots thinking too.
		if !r.srv.botThread(r.quit) {
			return nil, false
		}
		cmd, ok := b(r.m, seat, level, r.botStream(), r.srv.limits.BotTime)
		<-r.srv.bots
		if ok {
			return cmd, true
		}
	}
	return game.BotCommand(r.m, seat, r.botStream())
}

// botStream is the random stream of the match's next bot decision: drawn
// from the seed and the number of commands played, so that a match
// resumed after a restart has its bots decide exactly as they would have.
func (r *room) botStream() *rng.Stream { return botStream(r.rec.Seed, r.rec.Commands) }

// botStream is the random stream of a bot deciding after the commands-th
// command of a match played with seed.
func botStream(seed uint64, commands int) *rng.Stream {
	return rng.New(seed ^ 0x9e3779b97f4a7c15 ^ uint64(commands)*0xbf58476d1ce4e5b9).Stream("bots")
}

// --- turn limits ---

// limitFor is how long a person in the seat may take over what the match
// asks them now: the match's own limit for quick decisions, else the
// match's turn limit.
func (r *room) limitFor(seat int) time.Duration {
	if t, ok := r.m.(game.Timed); ok {
		if d := t.TimeLimit(seat); d > 0 {
			return d
		}
	}
	return r.rec.Settings.TurnLimit
}

// resetTimers gives every person the match newly waits for their time,
// and sets the room's timer for the first to run out.
func (r *room) resetTimers() {
	if !r.playing() {
		r.clearTimers()
		return
	}
	waiting := r.m.Waiting()
	for seat := range r.deadlines {
		if !slices.Contains(waiting, seat) || r.rec.Seats[seat].Bot {
			delete(r.deadlines, seat)
		}
	}
	now := time.Now()
	for _, seat := range waiting {
		if r.rec.Seats[seat].Bot {
			continue
		}
		limit := r.limitFor(seat)
		if limit <= 0 {
			delete(r.deadlines, seat)
			continue
		}
		// A seat that just played and is asked again gets its time anew.
		if _, ok := r.deadlines[seat]; !ok || seat == r.lastSeat {
			r.deadlines[seat] = now.Add(limit)
		}
	}
	r.lastSeat = -1
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	var first time.Time
	for _, d := range r.deadlines {
		if first.IsZero() || d.Before(first) {
			first = d
		}
	}
	if !first.IsZero() {
		r.timer = time.AfterFunc(time.Until(first), func() { r.post(r.timeUp) })
	}
}

func (r *room) clearTimers() {
	clear(r.deadlines)
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

// timeUp plays, with a bot, the decisions of the people whose time ran
// out.
func (r *room) timeUp() {
	if !r.playing() {
		return
	}
	now := time.Now()
	played := false
	for _, seat := range r.m.Waiting() {
		if d, ok := r.deadlines[seat]; ok && !now.Before(d) {
			delete(r.deadlines, seat)
			r.srv.log.Info("time ran out; a bot plays the decision", "match", r.id, "seat", seat)
			r.playFor(seat, "", nil, store.ReasonTimeout)
			played = true
			break
		}
	}
	if played {
		r.changed()
	} else {
		r.resetTimers()
	}
}

// --- what clients are sent ---

// Summary is a match as the lobby lists it: nothing secret.
type Summary struct {
	ID string `json:"id"`
	// Game is the pack that plays the match ("party").
	Game      string     `json:"game"`
	Board     string     `json:"board"`
	BoardName string     `json:"boardName"`
	Status    string     `json:"status"`
	Seats     []SeatView `json:"seats"`
	MaxRounds int        `json:"maxRounds"`
	Public    bool       `json:"public"`
	// TurnLimit is the time a person has for a decision, in seconds (0:
	// none).
	TurnLimit float64   `json:"turnLimit,omitempty"`
	Result    string    `json:"result,omitempty"`
	Error     string    `json:"error,omitempty"`
	Commands  int       `json:"commands"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
	// Rematch is the match this one is a rematch of; Next its rematch.
	Rematch string `json:"rematch,omitempty"`
	Next    string `json:"next,omitempty"`
	// Compat is the compatibility mode the match plays in ("original"),
	// if any.
	Compat string `json:"compat,omitempty"`
	// SpectatorChat is set when those who watch may write in the table's
	// chat (the players always may, unless muted).
	SpectatorChat bool `json:"spectatorChat,omitempty"`
}

// SeatView is a seat as everybody sees it (never its secret).
type SeatView struct {
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Level  string `json:"level,omitempty"`
	Online bool   `json:"online"`
	// Human is set for a seat a person took, even while a bot plays it.
	Human bool `json:"human,omitempty"`
	// Handed says why a bot plays a person's seat ("left": they left;
	// "owner": the match's owner handed it over).
	Handed string `json:"handed,omitempty"`
	// Muted is set when the match's owner muted the seat's player in the
	// table's chat.
	Muted bool `json:"muted,omitempty"`
}

func summarize(rec store.Match, online map[int]bool) Summary {
	s := Summary{ID: rec.ID, Game: rec.Pack, Board: rec.BoardID, BoardName: rec.BoardName, Status: rec.Status, MaxRounds: rec.MaxRounds,
		Public: rec.Settings.Public, TurnLimit: rec.Settings.TurnLimit.Seconds(), Result: rec.Result, Error: rec.Error,
		Commands: rec.Commands, Created: rec.Created, Updated: rec.Updated, Rematch: rec.Settings.Rematch, Next: rec.Settings.Next,
		Compat: rec.Settings.Compat, SpectatorChat: rec.Settings.SpectatorChat, Seats: make([]SeatView, 0, len(rec.Seats))}
	for i, seat := range rec.Seats {
		s.Seats = append(s.Seats, SeatView{Name: seat.Name, Bot: seat.Bot, Level: seat.Level, Online: online[i], Human: seat.Token != "",
			Handed: seat.Handed, Muted: seat.Muted})
	}
	return s
}

// publish stores the room's summary where readers find it without waiting
// for the room.
func (r *room) publish() {
	online := map[int]bool{}
	for s := range r.sessions {
		for _, seat := range s.held {
			online[seat] = true
		}
	}
	sum := summarize(r.rec, online)
	r.snap.Store(&sum)
	r.online.Store(int32(len(r.sessions)))
}

// summary is the latest published summary.
func (r *room) summary() Summary { return *r.snap.Load() }

// stateMsg is what a connection is sent after every change: the summary
// (when it changed), the viewer's view, its legal commands and the log
// entries it has not seen.
type stateMsg struct {
	Type    string          `json:"type"`
	Match   *Summary        `json:"match,omitempty"`
	You     int             `json:"you"`
	View    json.RawMessage `json:"view,omitempty"`
	Legal   []game.Command  `json:"legal"`
	Entries []game.Entry    `json:"entries"`
	// Log is the number of log records the viewer has seen, to ask for
	// the rest after a reconnection.
	Log int `json:"log"`
	// Deadline is when the viewer's time to decide runs out, in Unix
	// milliseconds (0: no limit).
	Deadline int64  `json:"deadline,omitempty"`
	Hash     string `json:"hash,omitempty"`
	// Standings rank the seats once the match is over, with the figures
	// its game counts: the end screen.
	Standings *game.Standings `json:"standings,omitempty"`
}

// broadcast sends every connection what changed. Connections that see the
// same thing (the same seat, the same part of the log) share one
// encoding: spectators, and a player's several tabs. Within one
// broadcast the summary is encoded once, and log entries that several
// viewers see alike (a public log) are encoded once for all of them.
func (r *room) broadcast() {
	if len(r.sessions) == 0 {
		r.ackTo = nil
		return
	}
	var bc broadcastCache
	logLen := 0
	if r.m != nil {
		logLen = r.m.LogLen()
	}
	for s := range r.sessions {
		k := stateKey{s.seat, s.logSent, s.sumVer}
		msg := bc.message(k)
		if msg == nil {
			msg = r.stateFor(s.seat, s.logSent, s.sumVer != r.sumVer, &bc)
			bc.msgs = append(bc.msgs, keyedMsg{k, msg})
		}
		if s == r.ackTo && !s.relayed() {
			s.sendAck(msg, r.ackID)
			r.ackTo = nil
		} else {
			s.send(msg)
		}
		s.logSent = logLen
		s.sumVer = r.sumVer
		r.sendSeats(s)
	}
}

// stateKey is what makes two connections' state messages alike: the seat,
// the part of the log already sent, the summary already sent.
type stateKey struct{ seat, from, sumVer int }

type keyedMsg struct {
	key stateKey
	msg []byte
}

// broadcastCache holds what one broadcast encoded, to share it: the
// messages by key (few: a room's connections see a handful of distinct
// things) and the encoded log entries by their first record.
type broadcastCache struct {
	msgs    []keyedMsg
	entries []encodedEntries
}

type encodedEntries struct {
	from    int
	entries []game.Entry
	enc     []byte // a part of a message already made, never changed
}

func (c *broadcastCache) message(k stateKey) []byte {
	for _, m := range c.msgs {
		if m.key == k {
			return m.msg
		}
	}
	return nil
}

// encodedLog returns the encoding of entries if an earlier message of the
// broadcast holds the same entries.
func (c *broadcastCache) encodedLog(from int, entries []game.Entry) ([]byte, bool) {
	for _, e := range c.entries {
		if e.from == from && slices.EqualFunc(e.entries, entries, sameEntry) {
			return e.enc, true
		}
	}
	return nil, false
}

// sameEntry reports whether two log entries are the same, and so encode
// the same.
func sameEntry(a, b game.Entry) bool {
	da, db := a.Data, b.Data
	a.Data, b.Data = nil, nil
	return a == b && (da == nil && db == nil || reflect.DeepEqual(da, db))
}

// stateFor encodes the state message of a viewer who has seen the log up
// to from: written by hand around the pack's own encodings, so that
// nothing is encoded twice. The message is built in a pooled buffer and
// copied out once, at its size: it is shared by connections and queued,
// so it is never changed afterwards.
func (r *room) stateFor(seat, from int, withSummary bool, bc *broadcastCache) []byte {
	e := getEncoder()
	defer putEncoder(e)
	b := &e.buf
	b.WriteString(`{"type":"state","you":`)
	e.int(seat)
	if withSummary {
		b.WriteString(`,"match":`)
		b.Write(r.summaryJSON())
	}
	if r.m == nil {
		b.WriteString(`,"legal":[],"entries":[]}`)
		return bytes.Clone(b.Bytes())
	}
	// The match's view, log and legal commands, unless showing them fails
	// (a bug in a pack): then the match is broken and the message says so
	// without them.
	mark := b.Len()
	ok := false
	var entries []game.Entry
	entStart, entEnd := -1, -1
	r.protect(func() {
		b.WriteString(`,"view":`)
		e.encode(r.m.View(seat))
		b.WriteString(`,"entries":`)
		entries = r.played.withNotes(r.m.Log(seat, from), from, r.m.LogLen(), r.playerName)
		if enc, ok := bc.encodedLog(from, entries); ok {
			b.Write(enc)
		} else {
			entStart = b.Len()
			e.encode(entries)
			entEnd = b.Len()
		}
		b.WriteString(`,"log":`)
		e.int(r.m.LogLen())
		b.WriteString(`,"hash":"`)
		b.WriteString(r.m.Hash())
		b.WriteString(`","legal":`)
		var legal []game.Command
		if seat >= 0 && r.playing() && !r.rec.Seats[seat].Bot {
			legal = r.m.Legal(seat)
		}
		if legal == nil {
			b.WriteString("[]")
		} else {
			e.encode(legal)
		}
		if d, ok := r.deadlines[seat]; ok && legal != nil {
			b.WriteString(`,"deadline":`)
			e.int(int(d.UnixMilli()))
		}
		if r.rec.Status == store.Finished {
			b.WriteString(`,"standings":`)
			e.encode(game.StandingsOf(r.m, len(r.names())))
		}
		r.writeUndo(e, seat)
		ok = true
	})
	if !ok {
		// A broken match: the summary says why.
		b.Truncate(mark)
		if !withSummary {
			b.WriteString(`,"match":`)
			b.Write(r.summaryJSON())
		}
		b.WriteString(`,"legal":[],"entries":[]}`)
		return bytes.Clone(b.Bytes())
	}
	b.WriteByte('}')
	msg := bytes.Clone(b.Bytes())
	if entStart >= 0 {
		bc.entries = append(bc.entries, encodedEntries{from, entries, msg[entStart:entEnd:entEnd]})
	}
	return msg
}

// summaryJSON is the encoding of the published summary, made once per
// summary.
func (r *room) summaryJSON() []byte {
	sum := r.snap.Load()
	if r.sumEnc.of != sum {
		r.sumEnc.of, r.sumEnc.data = sum, appendJSON(nil, sum)
	}
	return r.sumEnc.data
}

// encoder is a JSON encoder writing to a buffer, kept in a pool: a state
// message is built in one, then copied out at its size.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	num [20]byte
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	return e
}}

func getEncoder() *encoder { return encoders.Get().(*encoder) }

func putEncoder(e *encoder) {
	if e.buf.Cap() > 1<<20 {
		return // do not keep a huge buffer
	}
	e.buf.Reset()
	encoders.Put(e)
}

// encode appends v's JSON encoding, as json.Marshal writes it. What is
// encoded is the server's own types or a pack's views, which always
// encode; a view that does not is a bug in its pack, and panics, which
// breaks the match.
func (e *encoder) encode(v any) {
	if err := e.enc.Encode(v); err != nil {
		panic(fmt.Sprintf("a message does not encode: %v", err))
	}
	e.buf.Truncate(e.buf.Len() - 1) // the newline Encode ends with
}

func (e *encoder) int(n int) { e.buf.Write(strconv.AppendInt(e.num[:0], int64(n), 10)) }

// appendJSON appends v's JSON encoding to b. What the server sends is its
// own types or a pack's views, which always encode; a view that does not
// is a bug in its pack, and panics, which breaks the match.
func appendJSON(b []byte, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("a message does not encode: %v", err))
	}
	return append(b, data...)
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
