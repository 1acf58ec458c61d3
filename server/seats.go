package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/usertext"
)

// Seats: who sits where, and several players on one device.
//
// A seat is played with a secret (its token). Players who share one
// device (pass-and-play) share one token: the device's connection holds
// every seat of that token and switches between them, one seat's view at
// a time, so that a hand shows only to whoever holds the device.

// join seats a player under a nickname and returns the seat and its
// secret. A client that already plays a seat of the match (rt.seat) adds
// a player on its device: the new seat is played with the same secret.
// A player the owner removed (joining from the same address, client, or
// under a name that reads as theirs) is refused.
func (r *room) join(ctx context.Context, rt rights, name, token, client string) (int, string, error) {
	switch {
	case !rt.read:
		return 0, "", errNoRight
	case r.rec.Status != store.Lobby:
		return 0, "", fmt.Errorf("the match has started; you can watch it")
	}
	name, err := r.checkName(name)
	if err != nil {
		return 0, "", err
	}
	from := store.HashSecret(client)
	if removedFromTable(r.rec.Settings.Removed, name, from) {
		return 0, "", errRemoved
	}
	free := slices.IndexFunc(r.rec.Seats, func(s store.Seat) bool { return s.Name == "" })
	if free < 0 {
		return 0, "", fmt.Errorf("every seat is taken; you can watch the match")
	}
	secret, hash := token, ""
	if rt.seat >= 0 {
		hash = r.rec.Seats[rt.seat].Token
	} else {
		secret = newSecret()
		hash = store.HashSecret(secret)
	}
	prev := r.rec.Seats[free]
	r.rec.Seats[free] = store.Seat{Name: name, Token: hash, From: from}
	if err := r.save(ctx); err != nil {
		r.rec.Seats[free] = prev
		return 0, "", err
	}
	// The device's connections now hold the new seat too.
	for s := range r.sessions {
		if rt.seat >= 0 && slices.Contains(s.held, rt.seat) {
			s.held = append(s.held, free)
		}
	}
	r.changed()
	return free, secret, nil
}

// checkName checks and normalises a nickname (package usertext) and
// refuses one that reads as a name already at the table.
func (r *room) checkName(name string) (string, error) {
	name, err := usertext.Name(name)
	if err != nil {
		return "", err
	}
	for _, s := range r.rec.Seats {
		if s.Name != "" && usertext.LookAlike(s.Name, name) {
			return "", fmt.Errorf("%q reads like %q, who is at this table already: choose another nickname", name, s.Name)
		}
	}
	return name, nil
}

// seatCreator seats the match's creator in its first seat, under the
// name they gave, and returns the seat's secret. It runs before the match
// is stored.
func seatCreator(rec *store.Match, name string) (string, error) {
	name, err := usertext.Name(name)
	if err != nil {
		return "", err
	}
	secret := newSecret()
	rec.Seats[0] = store.Seat{Name: name, Token: store.HashSecret(secret)}
	return secret, nil
}

// seatGone tells the connections holding a seat that it is no longer
// theirs: a connection that holds other seats goes on with them; one
// that held only this one is closed.
func (r *room) seatGone(seat int) {
	for s := range r.sessions {
		i := slices.Index(s.held, seat)
		if i < 0 {
			continue
		}
		s.held = slices.Delete(slices.Clone(s.held), i, i+1)
		if len(s.held) == 0 {
			s.closeWith("you left this seat")
			continue
		}
		if s.seat == seat {
			r.viewAs(s, s.held[0], 0)
		}
	}
}

// switchSeat shows the session another of its seats (or, with seat -1,
// what someone watching sees): a device passed to the next player. The
// session is sent that seat's whole state; msg.Log says how much of the
// log the client keeps (0 after hiding a hand: everything again).
func (r *room) switchSeat(s *session, msg clientMsg) error {
	if msg.Seat == nil {
		return fmt.Errorf(`say which seat: {"type":"seat","id":N,"seat":S}`)
	}
	seat := *msg.Seat
	if seat != game.Spectator && !slices.Contains(s.held, seat) {
		return fmt.Errorf("this device does not play seat %d", seat+1)
	}
	r.viewAs(s, seat, msg.Log)
	return nil
}

// viewAs makes the session see as the seat and sends it that seat's state
// with the log from record from.
func (r *room) viewAs(s *session, seat, from int) {
	s.seat = seat
	s.logSent = 0
	if r.m != nil {
		s.logSent = min(max(from, 0), r.m.LogLen())
	}
	var bc broadcastCache
	s.send(r.stateFor(s.seat, s.logSent, true, &bc))
	if r.m != nil {
		s.logSent = r.m.LogLen()
	}
	s.sumVer = r.sumVer
	r.sendSeats(s)
}

// seatsMoved follows the seats of a match that starts: the empty ones
// were left out, so the connections' seats are numbered anew. And a device
// that holds several seats of a game whose seats see secrets starts as
// someone watching: the page shows a seat once the player whose turn it
// is says they hold the device.
func (r *room) seatsMoved(before []store.Seat) {
	moved := make([]int, len(before))
	n := 0
	for i, st := range before {
		moved[i] = -1
		if st.Name != "" {
			moved[i] = n
			n++
		}
	}
	renumber := func(seat int) int {
		if seat >= 0 && seat < len(moved) {
			return moved[seat]
		}
		return seat
	}
	_, secret := r.m.(game.Secretive)
	for s := range r.sessions {
		held := make([]int, 0, len(s.held))
		for _, seat := range s.held {
			if seat = renumber(seat); seat >= 0 {
				held = append(held, seat)
			}
		}
		s.held, s.seat = held, renumber(s.seat)
		if secret && len(s.held) > 1 {
			s.seat = game.Spectator
		}
	}
}

// seatsMsg tells a connection holding several seats which of them the
// match waits for, and whether a seat's view holds something the others
// may not see (then the page hides the table while the device passes).
type seatsMsg struct {
	Type string `json:"type"`
	// Seat is the seat the connection sees as now (-1: none).
	Seat int `json:"seat"`
	// Held are the seats of the device; Ready those of them the match
	// waits for now, in order.
	Held  []int `json:"held"`
	Ready []int `json:"ready"`
	// Secret is set when a held seat's view shows what other seats may
	// not see (a hand of cards).
	Secret bool `json:"secret"`
}

// sendSeats sends a connection that holds several seats where they stand;
// a connection with one seat needs nothing of it.
func (r *room) sendSeats(s *session) {
	if len(s.held) < 2 {
		return
	}
	msg := seatsMsg{Type: "seats", Seat: s.seat, Held: s.held, Ready: []int{}}
	if r.playing() {
		r.protect(func() {
			for _, seat := range r.m.Waiting() {
				if slices.Contains(s.held, seat) && !r.rec.Seats[seat].Bot {
					msg.Ready = append(msg.Ready, seat)
				}
			}
			if sec, ok := r.m.(game.Secretive); ok {
				msg.Secret = slices.ContainsFunc(s.held, sec.Secret)
			}
		})
	}
	data, _ := json.Marshal(msg)
	s.send(data)
}

// The owner's decisions about seats stick: a player the owner removes
// does not come back to the table (nor to its rematches, which keep its
// settings) under another name or the same one, from the address they
// had joined from.

// remove takes a player out of the match at the owner's word, and
// remembers them so that they stay out.
func (r *room) remove(ctx context.Context, seat int) error {
	if seat < 0 || seat >= len(r.rec.Seats) || r.rec.Seats[seat].Name == "" {
		return r.leaveSeat(ctx, seat) // says there is nobody there
	}
	prev := r.rec.Settings.Removed
	s := r.rec.Seats[seat]
	if !s.Bot || s.Token != "" {
		r.rec.Settings.Removed = append(slices.Clip(prev), store.Removed{Name: s.Name, From: s.From})
	}
	if err := r.leaveSeat(ctx, seat); err != nil {
		r.rec.Settings.Removed = prev
		return err
	}
	return nil
}

// errRemoved refuses a player the match's owner removed.
var errRemoved = &errRefused{http.StatusForbidden, "the match's owner removed you from this table"}

// removedFromTable reports whether someone joining under a name from an
// address (the hash of it) is a player the owner removed: the same
// address, or a name that reads as theirs.
func removedFromTable(removed []store.Removed, name, from string) bool {
	for _, r := range removed {
		if (from != "" && r.From == from) || usertext.LookAlike(r.Name, name) {
			return true
		}
	}
	return false
}
