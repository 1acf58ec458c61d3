package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/store"
)

// room is one match's actor: a goroutine that owns the match and its
// connections and runs everything that touches them, one message at a
// time, in the order they arrive. Nothing else reads or writes its fields.
type room struct {
	srv   *Server
	id    string
	inbox chan func()
	quit  chan struct{}
	done  chan struct{} // closed when run returns

	rec      store.Match
	def      definition // nil if the match's game file no longer loads
	game     game       // nil until the match starts
	sessions map[*session]struct{}
	bots     *rng.Stream
}

// inboxSize bounds a room's queue of pending messages; a client that sends
// faster than the room works waits (its socket is not read meanwhile).
const inboxSize = 128

func newRoom(srv *Server, rec store.Match, def definition) *room {
	return &room{
		srv: srv, id: rec.ID, inbox: make(chan func(), inboxSize), quit: make(chan struct{}), done: make(chan struct{}),
		rec: rec, def: def, sessions: map[*session]struct{}{},
		bots: rng.New(rec.Seed ^ 0x9e3779b97f4a7c15).Stream("bots"),
	}
}

func (r *room) run() {
	defer close(r.done)
	for {
		select {
		case f := <-r.inbox:
			f()
		case <-r.quit:
			for s := range r.sessions {
				s.close()
			}
			return
		}
	}
}

// do runs f on the room's goroutine and waits until it has run.
func (r *room) do(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case r.inbox <- func() { f(); close(done) }:
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

// rebuild replays the stored commands of a started match and checks the
// state hash after each one. A mismatch means the match cannot be
// trusted: it is reported and the match refuses further commands.
func (r *room) rebuild(ctx context.Context) error {
	cmds, err := r.srv.store.Commands(ctx, r.id)
	if err != nil {
		return err
	}
	g, err := r.def.Start(r.names(), r.rec.Seed, r.rec.MaxRounds)
	if err != nil {
		return err
	}
	r.game = g
	for i, c := range cmds {
		var pc Command
		if err := json.Unmarshal(c.Data, &pc); err != nil {
			return fmt.Errorf("stored command %d is not readable: %v", c.Seq, err)
		}
		if c.Seq != i {
			return fmt.Errorf("stored commands jump from %d to %d", i-1, c.Seq)
		}
		if err := g.Apply(pc); err != nil {
			return fmt.Errorf("stored command %d (%s by %s) is refused on replay: %v", c.Seq, pc.Kind, r.playerName(pc.Player), err)
		}
		if h := g.Hash(); h != c.Hash {
			return fmt.Errorf("replaying command %d gives state hash %s, but %s was stored", c.Seq, h, c.Hash)
		}
	}
	return nil
}

// markBroken records why a match cannot go on.
func (r *room) markBroken(ctx context.Context, why error) {
	r.rec.Status = store.Broken
	r.rec.Error = why.Error()
	if err := r.srv.store.UpdateMatch(ctx, r.rec); err != nil {
		r.srv.logf("match %s: %v", r.id, err)
	}
	r.srv.logf("match %s is broken: %v", r.id, why)
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
	return fmt.Sprintf("player %d", seat)
}

// seatOf returns the seat a token plays, or -1.
func (r *room) seatOf(token string) int {
	if token == "" {
		return -1
	}
	for i, s := range r.rec.Seats {
		if s.Token == token && !s.Bot {
			return i
		}
	}
	return -1
}

// --- the lobby ---

var errNotOwner = errors.New("only whoever created the match may do that")

var errClosing = errors.New("the server is shutting down")

// join seats a player under a nickname and returns the seat's token.
func (r *room) join(ctx context.Context, name string) (int, string, error) {
	name = strings.TrimSpace(name)
	switch {
	case r.rec.Status != store.Lobby:
		return 0, "", fmt.Errorf("the match has started; you can watch it")
	case name == "":
		return 0, "", fmt.Errorf("choose a nickname")
	case len([]rune(name)) > 32:
		return 0, "", fmt.Errorf("a nickname has at most 32 characters")
	}
	free := -1
	for i, s := range r.rec.Seats {
		if strings.EqualFold(s.Name, name) {
			return 0, "", fmt.Errorf("%q is taken at this table; choose another nickname", name)
		}
		if s.Name == "" && free < 0 {
			free = i
		}
	}
	if free < 0 {
		return 0, "", fmt.Errorf("every seat is taken; you can watch the match")
	}
	r.rec.Seats[free] = store.Seat{Name: name, Token: newToken()}
	if err := r.srv.store.UpdateMatch(ctx, r.rec); err != nil {
		r.rec.Seats[free] = store.Seat{}
		return 0, "", err
	}
	r.broadcast()
	return free, r.rec.Seats[free].Token, nil
}

// fillWithBots puts a bot in every empty seat.
func (r *room) fillWithBots(ctx context.Context, owner string) error {
	if owner != r.rec.Owner {
		return errNotOwner
	}
	if r.rec.Status != store.Lobby {
		return fmt.Errorf("the match has started")
	}
	n := 0
	for i, s := range r.rec.Seats {
		if s.Name == "" {
			n++
			r.rec.Seats[i] = store.Seat{Name: r.botName(n), Bot: true}
		}
	}
	if err := r.srv.store.UpdateMatch(ctx, r.rec); err != nil {
		return err
	}
	r.broadcast()
	return nil
}

func (r *room) botName(n int) string {
	for ; ; n++ {
		name := fmt.Sprintf("Bot %d", n)
		if !slices.ContainsFunc(r.rec.Seats, func(s store.Seat) bool { return s.Name == name }) {
			return name
		}
	}
}

// start begins the match with the seats taken; empty seats are dropped.
func (r *room) start(ctx context.Context, owner string) error {
	if owner != r.rec.Owner {
		return errNotOwner
	}
	if r.rec.Status != store.Lobby {
		return fmt.Errorf("the match has already started")
	}
	seats := slices.DeleteFunc(slices.Clone(r.rec.Seats), func(s store.Seat) bool { return s.Name == "" })
	if len(seats) == 0 {
		return fmt.Errorf("nobody has joined yet")
	}
	g, err := r.def.Start(namesOf(seats), r.rec.Seed, r.rec.MaxRounds)
	if err != nil {
		return err
	}
	prev := r.rec
	r.rec.Seats = seats
	r.rec.Status = store.Playing
	if err := r.srv.store.UpdateMatch(ctx, r.rec); err != nil {
		r.rec = prev
		return err
	}
	r.game = g
	r.runBots(ctx)
	r.broadcast()
	return nil
}

func namesOf(seats []store.Seat) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = s.Name
	}
	return out
}

// --- playing ---

// command plays a command from a seat: validated by the match, stored with
// its state hash, and only then acknowledged and shown to everybody.
func (r *room) command(ctx context.Context, seat int, cmd Command) error {
	switch {
	case r.rec.Status == store.Broken:
		return engine.Rejectf("this match is broken and cannot go on: %s", r.rec.Error)
	case r.game == nil:
		return engine.Rejectf("the match has not started")
	case seat < 0:
		return engine.Rejectf("spectators cannot play; join a match with a free seat to play")
	}
	cmd.Player = seat
	if err := r.apply(ctx, cmd); err != nil {
		return err
	}
	r.runBots(ctx)
	r.broadcast()
	return nil
}

// apply plays and stores one command. If storing fails, the match is
// rebuilt from what is stored, so that memory never runs ahead of disk.
func (r *room) apply(ctx context.Context, cmd Command) error {
	seq := r.game.Commands()
	if err := r.game.Apply(cmd); err != nil {
		if engine.IsRejected(err) {
			return err
		}
		r.markBroken(ctx, err)
		return err
	}
	data, _ := json.Marshal(cmd)
	if err := r.srv.store.Append(ctx, r.id, store.Command{Seq: seq, Player: cmd.Player, Data: data, Hash: r.game.Hash()}); err != nil {
		r.srv.logf("match %s: storing command %d: %v", r.id, seq, err)
		if rerr := r.rebuild(context.Background()); rerr != nil {
			r.markBroken(context.Background(), rerr)
		}
		return fmt.Errorf("the move could not be saved; please try again")
	}
	if r.game.Over() {
		r.rec.Status = store.Finished
		r.rec.Result = r.game.Result()
		if err := r.srv.store.UpdateMatch(ctx, r.rec); err != nil {
			r.srv.logf("match %s: %v", r.id, err)
		}
	}
	return nil
}

// runBots plays every move that waits for a bot.
func (r *room) runBots(ctx context.Context) {
	for r.game != nil && !r.game.Over() && r.rec.Status == store.Playing {
		moved := false
		for _, seat := range r.game.Waits() {
			if !r.rec.Seats[seat].Bot {
				continue
			}
			cmd, ok := r.game.BotCommand(seat, r.bots)
			if !ok {
				continue
			}
			if err := r.apply(ctx, cmd); err != nil {
				r.srv.logf("match %s: bot %s: %v", r.id, r.playerName(seat), err)
				return
			}
			moved = true
			break
		}
		if !moved {
			return
		}
	}
}

// --- what clients are sent ---

// Summary is a match as the lobby lists it.
type Summary struct {
	ID string `json:"id"`
	// Game is the pack that plays the match: "party" or "rulebook".
	Game      string     `json:"game"`
	Board     string     `json:"board"`
	BoardName string     `json:"boardName"`
	Status    string     `json:"status"`
	Seats     []SeatView `json:"seats"`
	MaxRounds int        `json:"maxRounds"`
	Result    string     `json:"result,omitempty"`
	Error     string     `json:"error,omitempty"`
	Commands  int        `json:"commands"`
	Created   time.Time  `json:"created"`
}

// SeatView is a seat as everybody sees it (never its token).
type SeatView struct {
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Online bool   `json:"online"`
}

func summarize(rec store.Match, online map[int]bool) Summary {
	s := Summary{ID: rec.ID, Game: rec.Game, Board: rec.BoardID, BoardName: rec.BoardName, Status: rec.Status, MaxRounds: rec.MaxRounds,
		Result: rec.Result, Error: rec.Error, Commands: rec.Commands, Created: rec.Created, Seats: []SeatView{}}
	for i, seat := range rec.Seats {
		s.Seats = append(s.Seats, SeatView{Name: seat.Name, Bot: seat.Bot, Online: online[i]})
	}
	return s
}

func (r *room) summary() Summary {
	online := map[int]bool{}
	for s := range r.sessions {
		online[s.seat] = true
	}
	sum := summarize(r.rec, online)
	if r.game != nil {
		sum.Commands = r.game.Commands()
	}
	return sum
}

// stateMsg is what a connection is sent after every change: the view and
// log entries of the match's game (a party.View and party.Entry items, or
// a rulebook.View and rulebook.Entry items; match.game says which).
type stateMsg struct {
	Type    string  `json:"type"`
	Match   Summary `json:"match"`
	You     int     `json:"you"`
	View    any     `json:"view"`
	Entries any     `json:"entries"`
}

// broadcast sends every connection its view and the log entries it has
// not seen.
func (r *room) broadcast() {
	sum := r.summary()
	for s := range r.sessions {
		r.sendState(s, sum)
	}
}

func (r *room) sendState(s *session, sum Summary) {
	msg := stateMsg{Type: "state", Match: sum, You: s.seat, Entries: []any{}}
	if r.game != nil {
		msg.View = r.game.View(s.seat)
		msg.Entries = r.game.Entries(s.logSent)
		s.logSent = r.game.LogLen()
	}
	s.send(msg)
}

// boardInfo describes the match's game as it was when the match was
// created.
func (r *room) boardInfo() BoardInfo {
	info := BoardInfo{ID: r.rec.BoardID, Game: r.rec.Game}
	if r.def != nil {
		r.def.Describe(&info)
	}
	info.Name = r.rec.BoardName
	return info
}
