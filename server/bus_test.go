package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/tabulagames/tabula/cluster"
	"github.com/tabulagames/tabula/store/storetest"
)

// A cluster on a locked bus: a client without credentials cannot
// connect; a node that gets hold of a match's lease (by a node's
// credentials, stolen or its own) answers requests forwarded to it with
// data only: its headers never reach the client, whose answer keeps the
// guard's security headers and the JSON content type. (A client with no
// credentials once overwrote a private match's lease and served its own
// page, Content-Type: text/html and CSP included, on the server's origin.)
func TestClusterBusIsLocked(t *testing.T) {
	bus := natsForTest(t, "a", "b", "rogue")
	db := storetest.Postgres(t)
	a, b := newNode(t, "a", bus, db), newNode(t, "b", bus, db)
	if nc, err := nats.Connect(bus.url); err == nil {
		nc.Close()
		t.Fatal("a client without credentials connected to the cluster's bus")
	}
	// A match made on a, but never loaded: no node holds its lease.
	tb := a.newTable("twenty-one", 2, nil, false, false, nil)

	var none atomic.Pointer[Server]
	rogue := bus.join(t, "rogue", time.Second, &none)
	defer rogue.Close()
	must(t, rogue.Handle(subjHTTP, func([]byte) ([]byte, error) {
		return json.Marshal(httpMsg{Status: 200, Body: []byte(`<script>steal(localStorage)</script>`), Header: http.Header{
			"Content-Type":            {"text/html"},
			"Content-Security-Policy": {"default-src *; script-src * 'unsafe-inline'"},
			"X-Frame-Options":         {"ALLOWALL"},
			"Set-Cookie":              {"evil=1"},
		}})
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := rogue.Acquire(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(b.hs.URL + "/api/matches/" + tb.ID + "?invite=" + tb.Invite)
	must(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	h := res.Header
	if !strings.HasPrefix(h.Get("Content-Type"), "application/json") || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") ||
		h.Get("X-Frame-Options") != "DENY" || h.Get("Set-Cookie") != "" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the answer of the node holding the lease came with its headers: %v (%s)", h, body)
	}
}

// A request forwarded by another node is run like one of this node's: a
// panic in it is a 500, not the node's end, and it counts against the
// address of the client who sent it, which the forwarding node says.
func TestForwardedRequestsAreGuarded(t *testing.T) {
	ts := newTestServer(t, Options{})
	var seen string
	ts.srv.inner = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		seen = ts.srv.clientAddr(req)
		if req.URL.Path == "/boom" {
			panic("a bug")
		}
		writeJSON(w, http.StatusOK, map[string]string{})
	})
	for _, c := range []struct {
		path   string
		status int
	}{{"/boom", 500}, {"/fine", 200}} {
		data, _ := json.Marshal(httpMsg{Method: "GET", URL: c.path, Host: "localhost", Client: "192.0.2.7"})
		out, err := ts.srv.answerHTTP(data)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		var ans httpMsg
		must(t, json.Unmarshal(out, &ans))
		if ans.Status != c.status || seen != "192.0.2.7" {
			t.Errorf("%s: status %d, client %q", c.path, ans.Status, seen)
		}
	}
}

// When the bus drops frames for this node's clients (their node fell far
// behind), those clients are disconnected, to reconnect and be sent what
// they missed rather than go on without it.
func TestDroppedFramesDisconnectTheirClients(t *testing.T) {
	ts := newTestServer(t, Options{})
	s := newSession(nil, -1)
	ts.srv.relays = map[string]*session{"x": s}
	ts.srv.BusError("tabula.node.b.command", cluster.ErrBusy)
	select {
	case <-s.done:
		t.Fatal("a refused request disconnected a relayed client")
	default:
	}
	ts.srv.BusError("tabula.node.b.frames", cluster.ErrDropped)
	select {
	case <-s.done:
		if !strings.Contains(s.reason, "reconnect") {
			t.Errorf("the client is told %q", s.reason)
		}
	default:
		t.Fatal("a client whose frames were dropped stays connected")
	}
}
