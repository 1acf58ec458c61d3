package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// What one client, and all of them, may make the server hold. Each check
// here is the one every route that makes or holds the same thing goes
// through: docs/server.md lists them, route by route.

// mayMake takes one match of the creation limits of a client: at most
// Creates a minute from one address, CreatesAll from all, by any route
// (creating one, a rematch, the editor's play, a request another node
// forwarded with its client's address). It answers a refusal.
func (srv *Server) mayMake(client string) error {
	ok, byAll := srv.creates.allow(client, time.Now())
	switch {
	case ok:
		return nil
	case byAll:
		srv.metrics.rejected.WithLabelValues("rate").Inc()
		return &errRefused{http.StatusServiceUnavailable, fmt.Sprintf("the server makes at most %d matches a minute and has made them; try again in a minute", srv.limits.CreatesAll)}
	}
	srv.metrics.rejected.WithLabelValues("rate").Inc()
	return &errRefused{http.StatusTooManyRequests, fmt.Sprintf("too many matches created: at most %d a minute from one address", srv.limits.Creates)}
}

// roomForOneMore refuses to load a match into memory when Matches are
// there already (the caller holds srv.mu).
func (srv *Server) roomForOneMore() error {
	if n := len(srv.rooms) + len(srv.loading); n >= srv.limits.Matches {
		srv.metrics.rejected.WithLabelValues("matches").Inc()
		return &errRefused{http.StatusServiceUnavailable, fmt.Sprintf("the server holds %d matches in memory, the most it takes; try again later", srv.limits.Matches)}
	}
	return nil
}

// writeRefusal answers an error: a refusal with its status, anything else
// as 503 (the server cannot do it now).
func writeRefusal(w http.ResponseWriter, err error) {
	var re *errRefused
	if errors.As(err, &re) {
		writeError(w, re.status, "%s", re.msg)
		return
	}
	writeError(w, http.StatusServiceUnavailable, "%v", err)
}

// botThread waits for a place among the bots thinking (BotThreads in
// all), first come first served; it reports false if stop closed first.
// The caller gives the place back by receiving from srv.bots.
func (srv *Server) botThread(stop <-chan struct{}) bool {
	select {
	case srv.bots <- struct{}{}:
		return true
	case <-stop:
		return false
	case <-srv.ctx.Done():
		return false
	}
}
