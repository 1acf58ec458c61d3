package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
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
	sumVer int // counts changes of the summary
	// sumJSON is the encoding of the summary last published, made with it.
	sumJSON []byte
	// What connections are sent (state.go): ver numbers their messages,
	// mver counts the changes of the match (a seat's view is built again
	// only after one), seen holds what each seat watched was last sent.
	ver  int
	mver int
	seen map[int]*parts
	// hints are the sizes of what the last broadcast made, to allocate
	// what the next one makes at once.
	hints struct{ msgs int }
	// wait holds the seats the match waits for, as of version mver.
	wait struct {
		mver  int
		seats []int
	}
	// standings is the JSON of a finished match's standings, as of
	// version mver (standingsJSON).
	standings struct {
		mver int
		json []byte
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
const inboxSize = 16

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
	done := make(chan struct{}, 1)
	return r.await(ctx, func() { defer func() { done <- struct{}{} }(); f() }, done)
}

// await queues f, which sends on done once it has run, and waits for it.
func (r *room) await(ctx context.Context, f func(), done <-chan struct{}) error {
	select {
	case r.inbox <- f:
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
	r.mver++ // the views are made again, even from a match that went part of the way
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
	// A server stopped (or killed) between storing a match's last command
	// and storing its end: the end is stored now.
	r.finishIfOver(ctx)
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
	r.mver++
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
	err := r.m.Apply(seat, data)
	r.mver++
	if err != nil {
		if engine.IsRejected(err) {
			r.srv.metrics.rejected.WithLabelValues("rules").Inc()
			return err
		}
		r.markBroken(err)
		return err
	}
	seq := r.rec.Commands
	start := time.Now()
	err = r.srv.store.Append(ctx, r.id, store.Command{Seq: seq, Player: seat, Data: data, Hash: r.m.Hash(), Reason: reason}, r.rec.Fence)
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
	r.finishIfOver(ctx)
	return nil
}

// finishIfOver stores the end of a match in play whose game is over.
func (r *room) finishIfOver(ctx context.Context) {
	out := r.m.Outcome()
	if !out.Over || r.rec.Status != store.Playing {
		return
	}
	r.rec.Status = store.Finished
	r.rec.Result = r.resultText(out)
	if err := r.save(ctx); err != nil {
		r.srv.log.Error("storing a match's end", "match", r.id, "err", err)
	}
	r.srv.log.Info("match finished", "match", r.id, "result", r.rec.Result)
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

// waiting returns the seats the match waits for: asked of the match once
// after each change, in the room's buffer (valid until the next change).
func (r *room) waiting() []int {
	if r.wait.mver != r.mver || r.wait.seats == nil {
		r.wait.mver = r.mver
		r.wait.seats = game.AppendWaiting(r.wait.seats[:0], r.m)
	}
	return r.wait.seats
}

// waitsForBot reports whether the match waits for a seat a bot plays.
func (r *room) waitsForBot() bool {
	for _, seat := range r.waiting() {
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
	for _, s := range r.waiting() {
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
	waiting := r.waiting()
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
	for _, seat := range r.waiting() {
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
	var s Summary
	fillSummary(&s, rec, make([]SeatView, 0, len(rec.Seats)), func(seat int) bool { return online[seat] })
	return s
}

// fillSummary writes a match's summary into s, its seats into seats.
func fillSummary(s *Summary, rec store.Match, seats []SeatView, online func(seat int) bool) {
	*s = Summary{ID: rec.ID, Game: rec.Pack, Board: rec.BoardID, BoardName: rec.BoardName, Status: rec.Status, MaxRounds: rec.MaxRounds,
		Public: rec.Settings.Public, TurnLimit: rec.Settings.TurnLimit.Seconds(), Result: rec.Result, Error: rec.Error,
		Commands: rec.Commands, Created: rec.Created, Updated: rec.Updated, Rematch: rec.Settings.Rematch, Next: rec.Settings.Next,
		Compat: rec.Settings.Compat, SpectatorChat: rec.Settings.SpectatorChat, Seats: seats}
	for i, seat := range rec.Seats {
		s.Seats = append(s.Seats, SeatView{Name: seat.Name, Bot: seat.Bot, Level: seat.Level, Online: online(i), Human: seat.Token != "",
			Handed: seat.Handed, Muted: seat.Muted})
	}
}

// publishedSummary is a summary, its seats and its encoding in one
// allocation, for the few seats most games have.
type publishedSummary struct {
	Summary
	seats [6]SeatView
	enc   [512]byte
}

// publish stores the room's summary where readers find it without waiting
// for the room. It is made anew (readers may hold the last one), after
// every change.
func (r *room) publish() {
	p := new(publishedSummary)
	seats := p.seats[:0]
	if len(r.rec.Seats) > len(p.seats) {
		seats = make([]SeatView, 0, len(r.rec.Seats))
	}
	fillSummary(&p.Summary, r.rec, seats, r.isOnline)
	r.sumJSON = p.Summary.appendJSON(p.enc[:0])
	r.snap.Store(&p.Summary)
	r.online.Store(int32(len(r.sessions)))
}

// isOnline reports whether a connection holds the seat.
func (r *room) isOnline(seat int) bool {
	for s := range r.sessions {
		if slices.Contains(s.held, seat) {
			return true
		}
	}
	return false
}

// summary is the latest published summary.
func (r *room) summary() Summary { return *r.snap.Load() }

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
