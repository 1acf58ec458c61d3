package server

import (
	"context"
	"net/http"
	"slices"

	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/usertext"
)

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
