package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Real slow clients against a real server (the server's own http.Server
// and listener, on a real socket): every phase of a connection has a
// deadline, and connections are capped per address and in all.

// rawConn opens a TCP connection to the test server.
func (ts *testServer) rawConn() net.Conn {
	ts.t.Helper()
	c, err := net.Dial("tcp", ts.hs.Listener.Addr().String())
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(func() { c.Close() })
	return c
}

// closedWithin reports whether the server closes the connection within d
// while the client goes on trickling bytes (trickle, if set, is sent every
// step); what the server sent before closing is returned.
func closedWithin(c net.Conn, d time.Duration, step time.Duration, trickle []byte) (bool, string) {
	got := make(chan string, 1)
	go func() {
		data, _ := io.ReadAll(c)
		got <- string(data)
	}()
	deadline := time.After(d)
	tick := time.NewTicker(step)
	defer tick.Stop()
	for {
		select {
		case data := <-got:
			return true, data
		case <-deadline:
			return false, ""
		case <-tick.C:
			if trickle != nil {
				c.Write(trickle)
			}
		}
	}
}

// A request whose body trickles in a byte at a time loses its connection
// once the request's time is up, however steadily the bytes come.
func TestSlowBodyIsCutOff(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{RequestTime: time.Second}})
	for _, path := range []string{"/api/boards?name=slow.json", "/api/matches", "/api/validate"} {
		c := ts.rawConn()
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", path)
		start := time.Now()
		closed, _ := closedWithin(c, 5*time.Second, 200*time.Millisecond, []byte(" "))
		if !closed {
			t.Errorf("%s: a body trickled a byte every 200 ms still holds its connection after 5 s (the limit is 1 s)", path)
		} else if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%s: the connection was closed after %v", path, took)
		}
	}
}

// Headers sent slowly lose their connection after HeaderTime.
func TestSlowHeadersAreCutOff(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{HeaderTime: 500 * time.Millisecond}})
	c := ts.rawConn()
	fmt.Fprintf(c, "GET /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	if closed, _ := closedWithin(c, 4*time.Second, 100*time.Millisecond, []byte("X")); !closed {
		t.Error("headers trickled a byte every 100 ms still hold their connection after 4 s (the limit is 500 ms)")
	}
}

// A WebSocket lives past the request's time (its deadlines are lifted
// when it is accepted); a message begun on it must arrive within
// MessageTime, or the connection is closed.
func TestWebSocketDeadlines(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{RequestTime: 500 * time.Millisecond, MessageTime: 500 * time.Millisecond}})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, nil)
	// A quiet connection outlives the request's time and still plays.
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	a.waitFor("Ann's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	time.Sleep(1500 * time.Millisecond)
	if r := a.command(a.last.Legal[0].Data); r["type"] != "ack" {
		t.Fatalf("a command after a quiet while: %v", r)
	}
	// A message that trickles in is cut off.
	c, br := ts.rawWebSocket(tb.ID, q("token", tb.tokens[1]))
	// A masked text frame of 100 bytes, of which one is sent at a time.
	hdr := []byte{0x81, 0x80 | 100, 1, 2, 3, 4}
	c.Write(hdr)
	go io.Copy(io.Discard, br)
	if closed := trickleUntilClosed(c, 4*time.Second, 100*time.Millisecond); !closed {
		t.Error("a WebSocket message trickled a byte every 100 ms still holds its connection after 4 s (the limit is 500 ms)")
	}
}

// A WebSocket whose client never answers a ping (a machine gone, or a
// client that reads nothing) is closed within the ping's time.
func TestSilentWebSocketIsClosed(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{PingEvery: 200 * time.Millisecond, PingTimeout: 300 * time.Millisecond}})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, nil)
	c, _ := ts.rawWebSocket(tb.ID, q("token", tb.tokens[0]))
	// The client reads nothing, so it never sees the pings, nor answers.
	deadline := time.Now().Add(5 * time.Second)
	// (Its place is taken before the handshake is answered.)
	if ts.srv.sockets.count("127.0.0.1") == 0 {
		t.Fatal("the WebSocket is not counted")
	}
	for ts.srv.sockets.count("127.0.0.1") > 0 {
		if time.Now().After(deadline) {
			t.Fatal("a WebSocket that answers no ping is still open after 5 s (pings every 200 ms, 300 ms to answer)")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.Close()
}

// trickleUntilClosed writes a byte every step until a write fails (the
// server closed the connection), within d.
func trickleUntilClosed(c net.Conn, d, step time.Duration) bool {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		time.Sleep(step)
		c.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := c.Write([]byte{'x'}); err != nil {
			return true
		}
	}
	return false
}

// rawWebSocket opens a WebSocket by hand, to send what a real client
// would not.
func (ts *testServer) rawWebSocket(match, query string) (net.Conn, *bufio.Reader) {
	ts.t.Helper()
	c := ts.rawConn()
	fmt.Fprintf(c, "GET /api/matches/%s/ws?%s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"+
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", match, query)
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		ts.t.Fatalf("the handshake: %d", res.StatusCode)
	}
	return c, br
}

// No more than ConnsPerAddr connections from one address, nor Conns in
// all, even of clients that send nothing; a place is given back when a
// connection closes.
func TestConnectionsAreCapped(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{ConnsPerAddr: 5, SocketsPerAddr: 100}})
	var held []net.Conn
	for range 5 {
		held = append(held, ts.rawConn())
	}
	time.Sleep(100 * time.Millisecond)
	extra := ts.rawConn()
	closed, answer := closedWithin(extra, 3*time.Second, time.Second, nil)
	if !closed || !strings.Contains(answer, "503") || !strings.Contains(answer, "5 connections from your address") {
		t.Errorf("a sixth connection from one address: closed %v, %q", closed, answer)
	}
	held[0].Close()
	time.Sleep(100 * time.Millisecond)
	if st, _ := ts.raw("GET", "/api/boards", nil, nil); st != http.StatusOK {
		t.Errorf("a connection once one closed: %d", st)
	}

	all := newTestServer(t, Options{Limits: Limits{ConnsPerAddr: 100, Conns: 3, SocketsPerAddr: 100}})
	for range 3 {
		all.rawConn()
	}
	time.Sleep(100 * time.Millisecond)
	closed, answer = closedWithin(all.rawConn(), 3*time.Second, time.Second, nil)
	if !closed || !strings.Contains(answer, "3 connections, the most it takes") {
		t.Errorf("a fourth connection in all: closed %v, %q", closed, answer)
	}
}

// One client holds at most SocketsPerAddr WebSockets, players' and
// spectators', all matches together.
func TestWebSocketsPerClient(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{SocketsPerAddr: 3, ConnsPerAddr: 100}})
	one := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	two := ts.newTable("twenty-one", 2, []string{"Cy"}, false, false, map[string]any{"public": true})
	ts.dial(one.ID, q("token", one.tokens[0])).waitFor("a state", func(s stateIn) bool { return s.View != nil })
	ts.dial(one.ID, "").waitFor("a state", func(s stateIn) bool { return s.View != nil })
	last := ts.dial(two.ID, "")
	last.waitFor("a state", func(s stateIn) bool { return s.Match != nil })
	for _, query := range []string{q("token", one.tokens[1]), ""} {
		st, body := ts.raw("GET", "/api/matches/"+two.ID+"/ws?"+query, nil, map[string]string{"Connection": "Upgrade", "Upgrade": "websocket",
			"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
		if st != http.StatusTooManyRequests || !strings.Contains(string(body), "3 connections") {
			t.Errorf("a fourth WebSocket (%q): %d %s", query, st, body)
		}
	}
	last.ws.CloseNow()
	deadline := time.Now().Add(5 * time.Second)
	for ts.srv.sockets.count("127.0.0.1") > 2 {
		if time.Now().After(deadline) {
			t.Fatal("a closed WebSocket's place was not given back")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.dial(two.ID, "").waitFor("a state", func(s stateIn) bool { return s.Match != nil })
}

// Behind a trusted reverse proxy, clients are told apart by the address
// the proxy saw; a client that is not a trusted proxy cannot choose its
// address with X-Forwarded-For.
func TestTrustedProxies(t *testing.T) {
	create := func(ts *testServer, xff string) int {
		st, _ := ts.raw("POST", "/api/matches", map[string]any{"board": "twenty-one"}, map[string]string{"X-Forwarded-For": xff})
		return st
	}
	direct := newTestServer(t, Options{Limits: Limits{Creates: 2}})
	for i, xff := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"} {
		if st := create(direct, xff); (i < 2) != (st == http.StatusCreated) {
			t.Errorf("no proxy trusted, X-Forwarded-For %s: %d", xff, st)
		}
	}
	proxied := newTestServer(t, Options{TrustedProxies: []string{"127.0.0.0/8"}, Limits: Limits{Creates: 2}})
	for _, c := range []struct {
		xff  string
		want int
	}{
		{"10.0.0.1", 201}, {"10.0.0.1", 201}, {"10.0.0.1", 429},
		// A client's own X-Forwarded-For comes first; the proxy appends
		// the address it saw, which is the one counted.
		{"10.9.9.9, 10.0.0.1", 429},
		{"10.0.0.2", 201},
		{"", 201}, // the proxy itself
	} {
		if st := create(proxied, c.xff); st != c.want {
			t.Errorf("behind a trusted proxy, X-Forwarded-For %q: %d, want %d", c.xff, st, c.want)
		}
	}
	if _, err := parseProxies([]string{"10.0.0.0/8", "::1", "proxy.example"}); err == nil || !strings.Contains(err.Error(), "proxy.example") {
		t.Errorf("a bad proxy: %v", err)
	}
}
