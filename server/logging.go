package server

import (
	"net/http"
	"sync"
	"time"
)

// What the server's log says: an operator reads the life of matches
// (created, started, finished, broken), errors, and the limits clients
// hit, at INFO and above; each HTTP request only with Options.AccessLog,
// since at a few thousand commands a second a line per request would
// drown everything else and cost as much as the requests.

// limitLog tells the log that clients hit a limit, at most once a second
// for each limit: a flood of refusals is one line a second, which counts
// them.
type limitLog struct {
	mu   sync.Mutex
	last map[string]time.Time
	more map[string]int // hits since the last line
}

// limitHit logs that a client hit a limit (named as the flag that sets
// it, "limit-rate"), unless that limit was logged less than a second ago:
// then it is counted in the next line.
func (srv *Server) limitHit(limit string, attrs ...any) {
	l := &srv.limitLog
	now := time.Now()
	l.mu.Lock()
	if l.last == nil {
		l.last, l.more = map[string]time.Time{}, map[string]int{}
	}
	if now.Sub(l.last[limit]) < time.Second {
		l.more[limit]++
		l.mu.Unlock()
		return
	}
	l.last[limit] = now
	more := l.more[limit]
	l.more[limit] = 0
	l.mu.Unlock()
	attrs = append([]any{"limit", limit}, attrs...)
	if more > 0 {
		attrs = append(attrs, "more", more)
	}
	srv.log.Info("a client hit a limit", attrs...)
}

// logRequest logs a request that was answered: failures of the server
// (5xx) and the limits a client hit (413, 429), and with the access log on
// every request.
func (srv *Server) logRequest(req *http.Request, rw *statusWriter, took time.Duration) {
	// The path only: queries may carry secrets.
	if srv.opts.AccessLog {
		srv.log.Info("request", "method", req.Method, "path", req.URL.Path, "status", rw.status,
			"ms", float64(took.Microseconds())/1000, "bytes", rw.bytes, "addr", srv.clientAddr(req))
	}
	switch {
	case rw.status >= 500 && rw.status != http.StatusServiceUnavailable:
		srv.log.Warn("request failed", "method", req.Method, "path", req.URL.Path, "status", rw.status, "addr", srv.clientAddr(req))
	case rw.status == http.StatusTooManyRequests:
		srv.limitHit("limit-creates/limit-uploads", "path", req.URL.Path, "addr", srv.clientAddr(req))
	case rw.status == http.StatusRequestEntityTooLarge:
		srv.limitHit("limit-body/limit-upload", "path", req.URL.Path, "addr", srv.clientAddr(req))
	}
}
