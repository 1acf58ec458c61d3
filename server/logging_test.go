package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log's output that the server writes from many
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The log tells an operator the life of matches and the limits clients
// hit, at INFO, without a line for each request unless asked; a flood of
// refusals is one line, which counts them.
func TestLogIsForOperators(t *testing.T) {
	for _, access := range []bool{false, true} {
		var out syncBuffer
		ts := newTestServer(t, Options{Logger: slog.New(slog.NewTextHandler(&out, nil)), AccessLog: access,
			Limits: Limits{Creates: 2}})
		tb := ts.newTable("twenty-one", 2, nil, true, true, nil)
		ts.waitStatus(tb.ID, q("invite", tb.Invite), "finished")
		ts.newTable("twenty-one", 2, nil, false, false, nil)
		for range 4 {
			if st := ts.call("POST", "/api/matches", map[string]any{"board": "twenty-one", "seats": 2}, nil); st != http.StatusTooManyRequests {
				t.Fatalf("a match past the limit: %d, not 429", st)
			}
		}
		ts.close()
		log := out.String()
		for _, want := range []string{`msg="match created"`, `msg="match started"`, `msg="match finished"`,
			`msg="a client hit a limit" limit=limit-creates/limit-uploads path=/api/matches`} {
			if !strings.Contains(log, want) {
				t.Errorf("access log %v: the log lacks %s:\n%s", access, want, log)
			}
		}
		if n := strings.Count(log, "hit a limit"); n != 1 {
			t.Errorf("access log %v: 4 refusals within a second make %d lines, not 1:\n%s", access, n, log)
		}
		if got := strings.Contains(log, "msg=request"); got != access {
			t.Errorf("access log %v: a line for each request is %v:\n%s", access, got, log)
		}
	}
}
