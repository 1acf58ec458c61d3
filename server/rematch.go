package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/tabulagames/tabula/store"
)

// rematch returns the match's rematch, making and starting it the first
// time: the same game, seats, players (their secrets' hashes are copied,
// so each plays their seat there with the secret they hold; the owner's
// decisions about seats stick: a seat handed to a bot, a muted player),
// owner, invitation and settings, with a new seed.
func (r *room) rematch(ctx context.Context) (string, error) {
	if r.rec.Settings.Next != "" {
		return r.rec.Settings.Next, nil
	}
	if r.rec.Status != store.Finished && r.rec.Status != store.Abandoned {
		return "", errors.New("the match is not over")
	}
	if r.def == nil {
		return "", errors.New("the match's game does not load")
	}
	next := r.rec
	next.ID, next.Seed, next.Status, next.Result, next.Error = newID(), newSeed(), store.Lobby, "", ""
	next.Seats = slices.Clone(r.rec.Seats)
	next.Settings.Rematch, next.Settings.Next = r.rec.ID, ""
	next.Commands, next.Fence, next.Created = 0, 0, time.Now()
	for i := range next.Seats {
		// A person whose time ran out plays again; a seat the owner
		// handed to a bot stays the bot's (the owner may give it back).
		if s := &next.Seats[i]; s.Token != "" && s.Handed != store.HandedOwner {
			s.Bot, s.Handed = false, ""
		}
	}
	if err := r.srv.store.CreateMatch(ctx, next); err != nil {
		return "", err
	}
	r2, err := r.srv.room(ctx, next.ID)
	if err != nil {
		return "", err
	}
	var serr error
	if err := r2.do(ctx, func() { serr = r2.start(ctx, rights{owner: true, read: true, seat: -1}) }); err != nil {
		return "", err
	}
	if serr != nil {
		return "", serr
	}
	r.rec.Settings.Next = next.ID
	if err := r.save(ctx); err != nil {
		return "", err
	}
	r.changed()
	return next.ID, nil
}
