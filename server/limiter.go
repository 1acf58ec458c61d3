package server

import (
	"fmt"
	"sync"
	"time"
)

// Limiters shared by the routes: what one client may hold at once
// (holdLimit), how often it may do something (rateLimit). A client is a
// key, usually its address (Server.clientAddr, which reads trusted
// proxies' X-Forwarded-For); every route that makes or holds the same
// thing takes from the same limiter, so that no route goes round another's
// limit.

// holdLimit counts what clients hold at once (connections, sockets):
// at most perKey for one key, at most total in all. The key "" is
// counted in all only.
type holdLimit struct {
	mu     sync.Mutex
	perKey int
	total  int
	all    int
	held   map[string]int
}

func newHoldLimit(perKey, total int) *holdLimit {
	return &holdLimit{perKey: perKey, total: total, held: map[string]int{}}
}

// acquire takes one place for key, or says which limit is reached.
func (h *holdLimit) acquire(key string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.total > 0 && h.all >= h.total {
		return fmt.Errorf("the server holds %d connections, the most it takes; try again later", h.total)
	}
	if key != "" && h.perKey > 0 && h.held[key] >= h.perKey {
		return fmt.Errorf("%d connections from your address already, the most one address may hold", h.perKey)
	}
	h.all++
	if key != "" {
		h.held[key]++
	}
	return nil
}

// release gives a place of key back.
func (h *holdLimit) release(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.all--
	if key == "" {
		return
	}
	if h.held[key] <= 1 {
		delete(h.held, key)
	} else {
		h.held[key]--
	}
}

// count is what key holds now.
func (h *holdLimit) count(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held[key]
}

// rateLimit counts what each client did in the last minute, and what all
// did: at most perKey for one key and total in all (0: no limit in all).
type rateLimit struct {
	mu     sync.Mutex
	perKey int
	total  int
	seen   map[string][]time.Time
	all    []time.Time
}

func newRateLimit(perKey, total int) *rateLimit {
	return &rateLimit{perKey: perKey, total: total, seen: map[string][]time.Time{}}
}

// allow records one more action of key and reports whether it is within
// the limits; an action refused is not recorded. It says which limit
// refused it.
func (r *rateLimit) allow(key string, now time.Time) (ok bool, byAll bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = dropOld(r.all, now)
	recent := dropOld(r.seen[key], now)
	switch {
	case r.total > 0 && len(r.all) >= r.total:
		r.seen[key] = recent
		return false, true
	case len(recent) >= r.perKey:
		r.seen[key] = recent
		return false, false
	}
	r.seen[key] = append(recent, now)
	r.all = append(r.all, now)
	return true, false
}

// dropOld drops the times older than a minute from a list in order.
func dropOld(times []time.Time, now time.Time) []time.Time {
	i := 0
	for i < len(times) && now.Sub(times[i]) > time.Minute {
		i++
	}
	if i == len(times) {
		return times[:0]
	}
	return times[i:]
}

// prune forgets the clients that did nothing for a minute.
func (r *rateLimit) prune(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, recent := range r.seen {
		if len(recent) == 0 || now.Sub(recent[len(recent)-1]) > time.Minute {
			delete(r.seen, k)
		}
	}
	r.all = dropOld(r.all, now)
}
