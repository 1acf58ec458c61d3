package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/store/storetest"
)

func TestMain(m *testing.M) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		runLoadServer()
	}
	code := m.Run()
	storetest.Stop()
	os.Exit(code)
}

// nimGames are the games of the test servers that host Nim: a short game,
// and games whose match panics on purpose.
var nimGames = fstest.MapFS{
	"nim/twenty-one.json":   {Data: []byte(`{"game": "nim", "name": "Twenty-one", "description": "Take 1 to 3; the last counter wins.", "pile": 21, "take": 3}`)},
	"nim/trap-apply.json":   {Data: []byte(`{"game": "nim", "name": "Trap in apply", "pile": 12, "take": 3, "trap": "apply", "trapAt": 6}`)},
	"nim/trap-view.json":    {Data: []byte(`{"game": "nim", "name": "Trap in view", "pile": 12, "take": 3, "trap": "view", "trapAt": 6}`)},
	"nim/trap-bot.json":     {Data: []byte(`{"game": "nim", "name": "Trap in bots", "pile": 12, "take": 3, "trap": "bot", "trapAt": 6}`)},
	"nim/long.json":         {Data: []byte(`{"game": "nim", "name": "A long game", "pile": 1000, "take": 1, "maxPlayers": 12}`)},
	"nim/sixty.json":        {Data: []byte(`{"game": "nim", "name": "Sixty", "pile": 60, "take": 1}`)},
	"nim/not-a-game.txt":    {Data: []byte(`hello`)},
	"other/readme.json":     {Data: []byte(`{"hello": "world"}`)},
	"nim/twelve-seats.json": {Data: []byte(`{"game": "nim", "name": "Twelve", "pile": 30, "take": 2, "minPlayers": 1, "maxPlayers": 12}`)},
}

// testServer runs a server on a temporary database.
type testServer struct {
	t   testing.TB
	srv *Server
	hs  *httptest.Server
	db  string
	opt Options
}

// newTestServer starts a server hosting Nim (opts may change anything).
func newTestServer(t testing.TB, opts Options) *testServer {
	t.Helper()
	if opts.DB == "" && opts.Store == nil {
		opts.DB = filepath.Join(t.TempDir(), "tabula.db")
	}
	if opts.Packs == nil {
		opts.Packs = game.Packs{gametest.NewNim()}
	}
	if opts.Bots == nil {
		opts.Bots, _ = bot.ByLevel(bot.Options{Playouts: 50})
		opts.BotLevels = bot.Levels
	}
	if opts.Limits.Rate == 0 {
		// Test clients play as fast as the server answers.
		opts.Limits.Rate, opts.Limits.Burst = 10000, 10000
	}
	if opts.Limits.ConnsPerAddr == 0 && opts.Limits.SocketsPerAddr == 0 {
		// Every test client comes from the loopback address.
		opts.Limits.ConnsPerAddr, opts.Limits.SocketsPerAddr = 100000, 100000
	}
	if opts.Bundled.FS == nil {
		opts.Bundled = BundledGames{FS: nimGames, Default: "twenty-one"}
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	// The server as `tabula serve` runs it: its deadlines and its caps on
	// connections.
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer()
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	ts := &testServer{t: t, srv: srv, hs: hs, db: opts.DB, opt: opts}
	t.Cleanup(ts.close)
	return ts
}

func (ts *testServer) close() {
	if ts.hs != nil {
		ts.hs.CloseClientConnections()
		ts.hs.Close()
		ts.srv.Close()
		ts.hs = nil
	}
}

// restart closes the server and starts another on the same database.
func (ts *testServer) restart() *testServer {
	ts.t.Helper()
	ts.close()
	opts := ts.opt
	return newTestServer(ts.t, opts)
}

// call makes an API request and decodes the answer into out (if not nil);
// it returns the status. A string body is sent as it is, anything else as
// JSON.
func (ts *testServer) call(method, path string, body any, out any) int {
	ts.t.Helper()
	status, data := ts.raw(method, path, body, nil)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			ts.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return status
}

// raw makes a request with extra headers and returns the status and body.
func (ts *testServer) raw(method, path string, body any, headers map[string]string) (int, []byte) {
	ts.t.Helper()
	var rd io.Reader
	ctype := ""
	switch body := body.(type) {
	case nil:
	case string:
		rd, ctype = strings.NewReader(body), "application/json"
	case []byte:
		rd, ctype = bytes.NewReader(body), "application/octet-stream"
	default:
		b, _ := json.Marshal(body)
		rd, ctype = bytes.NewReader(b), "application/json"
	}
	req, _ := http.NewRequest(method, ts.hs.URL+path, rd)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

type joined struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// table is a match with its secrets.
type table struct {
	created
	tokens []string
}

// newTable creates a match of a game with seats, joins the named people
// and fills the other seats with bots (if bots), and starts it (if
// start).
func (ts *testServer) newTable(board string, seats int, people []string, bots, start bool, extra map[string]any) *table {
	ts.t.Helper()
	req := map[string]any{"board": board, "seats": seats}
	for k, v := range extra {
		req[k] = v
	}
	var tb table
	if st := ts.call("POST", "/api/matches", req, &tb.created); st != http.StatusCreated {
		ts.t.Fatalf("creating a match of %s: %d", board, st)
	}
	for _, p := range people {
		var j joined
		if st := ts.call("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": p, "invite": tb.Invite}, &j); st != http.StatusOK {
			ts.t.Fatalf("%s joining: %d", p, st)
		}
		tb.tokens = append(tb.tokens, j.Token)
	}
	if bots {
		if st := ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner}, nil); st != http.StatusOK {
			ts.t.Fatalf("adding bots: %d", st)
		}
	}
	if start {
		var out map[string]any
		if st := ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, &out); st != http.StatusOK {
			ts.t.Fatalf("starting: %d %v", st, out)
		}
	}
	return &tb
}

// stateIn is a state message as a client reads it.
type stateIn struct {
	Type      string          `json:"type"`
	Match     *Summary        `json:"match"`
	You       int             `json:"you"`
	View      json.RawMessage `json:"view"`
	Legal     []game.Command  `json:"legal"`
	Entries   []game.Entry    `json:"entries"`
	Log       int             `json:"log"`
	Deadline  int64           `json:"deadline"`
	Hash      string          `json:"hash"`
	Standings *game.Standings `json:"standings"`
	// UndoBy, CanUndo and Undone: see undo_test.go.
	UndoBy  *int `json:"undoBy"`
	CanUndo bool `json:"canUndo"`
	Undone  *int `json:"undone"`
}

// client is a WebSocket connection to a match.
type client struct {
	t    testing.TB
	ws   *websocket.Conn
	msgs chan []byte
	mu   sync.Mutex
	// last is the latest state; match the latest summary; entries every
	// log entry received; raw every message.
	last    stateIn
	match   Summary
	entries []game.Entry
	raw     []string
	id      int
}

// dial connects to a match with a query of secrets ("token=…").
func (ts *testServer) dial(match, query string) *client {
	ts.t.Helper()
	return dial(ts.t, ts.hs.URL, match, query)
}

func dial(t testing.TB, base, match, query string) *client {
	t.Helper()
	url := strings.Replace(base, "http", "ws", 1) + "/api/matches/" + match + "/ws"
	if query != "" {
		url += "?" + query
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, res, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("dial %s: %v (%d)", url, err, status)
	}
	ws.SetReadLimit(16 << 20)
	c := &client{t: t, ws: ws, msgs: make(chan []byte, 4096)}
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			// A frame may hold several messages, as an array.
			if len(data) > 0 && data[0] == '[' {
				var msgs []json.RawMessage
				json.Unmarshal(data, &msgs)
				for _, m := range msgs {
					c.msgs <- m
				}
				continue
			}
			c.msgs <- data
		}
	}()
	t.Cleanup(func() { ws.CloseNow() })
	return c
}

// take keeps a message: the latest state and every entry.
func (c *client) take(data []byte) map[string]any {
	var m map[string]any
	json.Unmarshal(data, &m)
	c.raw = append(c.raw, string(data))
	if m["type"] == "state" {
		var s stateIn
		if err := json.Unmarshal(data, &s); err != nil {
			c.t.Fatalf("a state message does not decode: %v", err)
		}
		c.last = s
		if s.Match != nil {
			c.match = *s.Match
		}
		c.entries = append(c.entries, s.Entries...)
	}
	return m
}

// next returns the next message, within the timeout.
func (c *client) next(timeout time.Duration) (map[string]any, bool) {
	c.t.Helper()
	select {
	case data, ok := <-c.msgs:
		if !ok {
			return nil, false
		}
		return c.take(data), true
	case <-time.After(timeout):
		c.t.Fatalf("no message within %v", timeout)
	}
	return nil, false
}

// drain reads every message already queued.
func (c *client) drain() {
	for {
		select {
		case data, ok := <-c.msgs:
			if !ok {
				return
			}
			c.take(data)
		default:
			return
		}
	}
}

// waitFor reads messages until cond holds of the latest state.
func (c *client) waitFor(what string, cond func(s stateIn) bool) {
	c.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		c.drain()
		if cond(c.last) {
			return
		}
		select {
		case data, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the connection closed while waiting for %s", what)
			}
			c.take(data)
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s; last state: %+v", what, c.last)
		}
	}
}

// send sends a raw message.
func (c *client) send(v any) {
	c.t.Helper()
	data, ok := v.([]byte)
	if !ok {
		data, _ = json.Marshal(v)
	}
	if err := c.ws.Write(context.Background(), websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

// command sends a command and returns the reply (ack or rejected).
func (c *client) command(data json.RawMessage) map[string]any {
	c.t.Helper()
	return c.request(map[string]any{"type": "command", "data": data})
}

// request sends a message of the client (its id added) and returns the
// reply (ack or rejected); the state an acknowledged one made is waited
// for.
func (c *client) request(msg map[string]any) map[string]any {
	c.t.Helper()
	c.id++
	before := c.last.Hash
	msg["id"] = c.id
	c.send(msg)
	for {
		m, ok := c.next(15 * time.Second)
		if !ok {
			c.t.Fatal("the connection closed")
		}
		if (m["type"] == "ack" || m["type"] == "rejected") && int(m["id"].(float64)) == c.id {
			if m["type"] == "ack" && c.last.Hash == before {
				// A client on another node than the match's may be sent
				// the acknowledgement before the state the command made:
				// wait for it, as the page does, before the next move.
				c.waitFor("the state after the command", func(s stateIn) bool { return s.Hash != before })
			}
			return m
		}
	}
}

// over reports whether the latest state says the match is over.
func (s stateIn) over() bool {
	if s.Match != nil && s.Match.Status != "playing" && s.Match.Status != "lobby" {
		return true
	}
	var v struct {
		Over bool `json:"over"`
	}
	json.Unmarshal(s.View, &v)
	return v.Over
}

// playToEnd has the clients play the first legal command they are offered
// until the match is over (bots play the other seats).
func playToEnd(t *testing.T, clients ...*client) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for moves := 0; ; moves++ {
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end (%d moves)", moves)
		}
		played := false
		for _, c := range clients {
			c.drain()
			if c.match.Status == "finished" || c.match.Status == "broken" {
				return
			}
			if len(c.last.Legal) > 0 {
				if r := c.command(c.last.Legal[0].Data); r["type"] != "ack" {
					t.Fatalf("a legal command was refused: %v", r["reason"])
				}
				played = true
			}
		}
		if !played {
			select {
			case data, ok := <-clients[0].msgs:
				if ok {
					clients[0].take(data)
				}
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

func (ts *testServer) summary(id, query string) Summary {
	ts.t.Helper()
	var s Summary
	path := "/api/matches/" + id
	if query != "" {
		path += "?" + query
	}
	if st := ts.call("GET", path, nil, &s); st != http.StatusOK {
		ts.t.Fatalf("GET %s: %d", path, st)
	}
	return s
}

// waitStatus polls a match until it has the status.
func (ts *testServer) waitStatus(id, query, status string) Summary {
	ts.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := ts.summary(id, query)
		if s.Status == status {
			return s
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("match %s is %s, not %s: %+v", id, s.Status, status, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func q(k, v string) string { return k + "=" + v }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var _ = fmt.Sprint

// testLogger writes the server's warnings and errors to the test's output
// when TABULA_TEST_LOG is set.
func testLogger() *slog.Logger {
	if os.Getenv("TABULA_TEST_LOG") == "" {
		return nil
	}
	level := slog.LevelWarn
	switch os.Getenv("TABULA_TEST_LOG") {
	case "info":
		level = slog.LevelInfo
	case "debug":
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}
