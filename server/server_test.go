package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/games/party"
)

// testServer runs a server on a temporary database.
type testServer struct {
	t   *testing.T
	srv *Server
	hs  *httptest.Server
	db  string
}

func newTestServer(t *testing.T, db string) *testServer {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "tabula.db")
	}
	srv, err := New(Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, srv: srv, hs: httptest.NewServer(srv.Handler()), db: db}
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

// call makes an API request and decodes the answer into out (if not nil).
// A string body is sent as it is, anything else as JSON.
func (ts *testServer) call(method, path string, body any, out any) int {
	ts.t.Helper()
	var rd io.Reader
	switch body := body.(type) {
	case nil:
	case string: // a file's text, sent as it is
		rd = strings.NewReader(body)
	default:
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, ts.hs.URL+path, rd)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			ts.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return res.StatusCode
}

// client is a WebSocket connection to a match.
type client struct {
	t    *testing.T
	ws   *websocket.Conn
	msgs chan map[string]any
	// last is the latest state of a party match; lastRaw is the latest
	// state message of any game, as sent.
	last    partyState
	lastRaw string
	id      int
}

// partyState is the state message of a party match.
type partyState struct {
	Type    string        `json:"type"`
	Match   Summary       `json:"match"`
	You     int           `json:"you"`
	View    *party.View   `json:"view"`
	Entries []party.Entry `json:"entries"`
}

// partyReplay is the replay of a party match.
type partyReplay struct {
	Match    Summary         `json:"match"`
	Commands []ReplayCommand `json:"commands"`
	Entries  []party.Entry   `json:"entries"`
	Final    *party.View     `json:"final"`
}

// keep remembers a state message.
func (c *client) keep(m map[string]any) {
	if m["type"] != "state" {
		return
	}
	c.lastRaw = m["raw"].(string)
	c.last = partyState{}
	json.Unmarshal([]byte(c.lastRaw), &c.last)
}

func (ts *testServer) dial(match, token string) *client {
	ts.t.Helper()
	return dial(ts.t, ts.hs.URL, match, token)
}

// dial connects to a match of the server at base (http://host:port).
func dial(t *testing.T, base, match, token string) *client {
	t.Helper()
	url := strings.Replace(base, "http", "ws", 1) + "/api/matches/" + match + "/ws"
	if token != "" {
		url += "?token=" + token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(16 << 20)
	c := &client{t: t, ws: ws, msgs: make(chan map[string]any, 1024)}
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			var m map[string]any
			json.Unmarshal(data, &m)
			m["raw"] = string(data)
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { ws.CloseNow() })
	return c
}

// next returns the next message of a given type, keeping the latest state.
func (c *client) next(typ string) map[string]any {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("connection closed while waiting for %q", typ)
			}
			c.keep(m)
			if m["type"] == typ {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no %q message", typ)
		}
	}
}

func (c *client) send(v any) {
	c.t.Helper()
	data, _ := json.Marshal(v)
	if err := c.ws.Write(context.Background(), websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

// command sends a command and returns the reply (ack or rejected).
func (c *client) command(kind string, extra map[string]any) map[string]any {
	c.t.Helper()
	c.id++
	msg := map[string]any{"type": "command", "id": c.id, "kind": kind}
	for k, v := range extra {
		msg[k] = v
	}
	c.send(msg)
	for {
		m := c.nextAny()
		if (m["type"] == "ack" || m["type"] == "rejected") && int(m["id"].(float64)) == c.id {
			return m
		}
	}
}

func (c *client) nextAny() map[string]any {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("connection closed")
		}
		c.keep(m)
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatal("no message")
	}
	return nil
}

// drain reads every message already queued, keeping the latest state.
func (c *client) drain() {
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return
			}
			c.keep(m)
		case <-time.After(10 * time.Millisecond):
			return
		}
	}
}

// playTurn makes whatever move the client's seat is asked for; it reports
// false when nothing is asked of it.
func (c *client) playTurn() bool {
	c.t.Helper()
	v := c.last.View
	if v == nil || len(v.YourWaits) == 0 {
		return false
	}
	w := v.YourWaits[0]
	var reply map[string]any
	switch w.Kind {
	case party.KindChoosePath:
		reply = c.command(w.Kind, map[string]any{"space": v.Choices[0]})
	default:
		reply = c.command(w.Kind, nil)
	}
	if reply["type"] != "ack" {
		c.t.Fatalf("%s refused: %v", w.Kind, reply["reason"])
	}
	return true
}

type created struct {
	ID    string `json:"id"`
	Owner string `json:"owner"`
	URL   string `json:"url"`
}

type joined struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// newMatch creates a match on the default board and seats the named
// humans; bots fill the rest.
func (ts *testServer) newMatch(seats int, humans ...string) (created, []joined) {
	ts.t.Helper()
	return ts.newMatchOn("default", seats, humans...)
}

// newMatchOn creates a match on a game of the library and seats the named
// humans.
func (ts *testServer) newMatchOn(board string, seats int, humans ...string) (created, []joined) {
	ts.t.Helper()
	var m created
	if code := ts.call("POST", "/api/matches", map[string]any{"board": board, "seats": seats}, &m); code != http.StatusCreated {
		ts.t.Fatalf("create: %d", code)
	}
	var js []joined
	for _, h := range humans {
		var j joined
		if code := ts.call("POST", "/api/matches/"+m.ID+"/join", map[string]any{"name": h}, &j); code != http.StatusOK {
			ts.t.Fatalf("join %s: %d", h, code)
		}
		js = append(js, j)
	}
	return m, js
}

func TestBoardsOffered(t *testing.T) {
	ts := newTestServer(t, "")
	var boards []BoardInfo
	ts.call("GET", "/api/boards", nil, &boards)
	if len(boards) == 0 || boards[0].ID != "default" || boards[0].Spaces != 11 {
		t.Fatalf("boards: %+v", boards)
	}
	var d BoardDrawing
	if code := ts.call("GET", "/api/boards/default", nil, &d); code != 200 || len(d.Spaces) != 11 || d.Spaces[0].Visual.X == 0 {
		t.Errorf("drawing: %d %+v", code, d.Spaces)
	}
}

func TestUploadShowsEveryProblemWithItsPlace(t *testing.T) {
	ts := newTestServer(t, "")
	bad := `{"metadata": {"name": "Broken"},
  "spaces": [
    {"id": 1, "name": "A", "visualDetails": {"x": 0, "y": 0}, "connections": [{"targetId": 9}], "events": []},
    {"id": 1, "name": "B", "visualDetails": {"x": 0, "y": 0}, "connections": [], "events": [
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "TELEPORT", "payload": {}}}]}
  ]}`
	req, _ := http.NewRequest("POST", ts.hs.URL+"/api/boards?name=broken.json", strings.NewReader(bad))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out apiError
	json.NewDecoder(res.Body).Decode(&out)
	res.Body.Close()
	if res.StatusCode != http.StatusUnprocessableEntity || len(out.Diagnostics) < 3 {
		t.Fatalf("status %d, %+v", res.StatusCode, out)
	}
	var text []string
	for _, d := range out.Diagnostics {
		if d.Line == 0 || d.Pointer == "" {
			t.Errorf("diagnostic without a place: %+v", d)
		}
		text = append(text, d.String())
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"broken.json:3:", "/spaces/0/connections/0/targetId", "/spaces/1/id", "/spaces/1/events/0/action/type"} {
		if !strings.Contains(all, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, all)
		}
	}
	good, _ := json.Marshal(map[string]any{"spaces": []any{
		map[string]any{"id": "a", "name": "Alpha", "connections": []any{map[string]any{"targetId": "b"}}, "events": []any{}},
		map[string]any{"id": "b", "name": "Beta", "events": []any{}},
	}, "metadata": map[string]any{"name": "Tiny"}})
	req, _ = http.NewRequest("POST", ts.hs.URL+"/api/boards?name=tiny.json", bytes.NewReader(good))
	res, _ = http.DefaultClient.Do(req)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("a valid upload: %d", res.StatusCode)
	}
	var boards []BoardInfo
	ts.call("GET", "/api/boards", nil, &boards)
	if boards[len(boards)-1].Name != "Tiny" || boards[len(boards)-1].Source != "upload" {
		t.Errorf("the upload is not offered: %+v", boards)
	}
}

func TestLobbyPlayAndSpectate(t *testing.T) {
	ts := newTestServer(t, "")
	m, js := ts.newMatch(3, "Ann")
	var sum Summary
	if code := ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": "wrong"}, &sum); code != http.StatusForbidden {
		t.Errorf("start with a wrong owner secret: %d", code)
	}
	if code := ts.call("POST", "/api/matches/"+m.ID+"/join", map[string]any{"name": "ann"}, nil); code != http.StatusConflict {
		t.Errorf("a taken nickname: %d", code)
	}
	ts.call("POST", "/api/matches/"+m.ID+"/bots", map[string]any{"owner": m.Owner}, &sum)
	if sum.Seats[1].Name != "Bot 1" || !sum.Seats[2].Bot {
		t.Fatalf("seats after bots: %+v", sum.Seats)
	}
	ann := ts.dial(m.ID, js[0].Token)
	watcher := ts.dial(m.ID, "")
	ann.next("state")
	watcher.next("state")
	if code := ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, &sum); code != http.StatusOK || sum.Status != "playing" {
		t.Fatalf("start: %d %+v", code, sum)
	}
	ann.next("state")
	if r := watcher.command("roll", nil); r["type"] != "rejected" || !strings.Contains(r["reason"].(string), "spectators cannot play") {
		t.Errorf("a spectator's roll: %v", r)
	}
	for i := 0; i < 2000 && (ann.last.View == nil || !ann.last.View.Over); i++ {
		if !ann.playTurn() {
			ann.nextAny()
		}
	}
	if !ann.last.View.Over {
		t.Fatal("the game did not end")
	}
	ts.call("GET", "/api/matches/"+m.ID, nil, &sum)
	if sum.Status != "finished" || sum.Result == "" {
		t.Errorf("finished match: %+v", sum)
	}
	watcher.drain()
	if watcher.last.View == nil || watcher.last.View.Hash != ann.last.View.Hash || watcher.last.View.You != -1 {
		t.Error("the spectator does not see the same final state")
	}
	var rp partyReplay
	ts.call("GET", "/api/matches/"+m.ID+"/replay", nil, &rp)
	if len(rp.Commands) != sum.Commands || len(rp.Entries) == 0 || rp.Commands[len(rp.Commands)-1].Hash != ann.last.View.Hash {
		t.Errorf("replay: %d commands (want %d), %d entries", len(rp.Commands), sum.Commands, len(rp.Entries))
	}
}

func TestBadCommandsAreRejectedWithAReason(t *testing.T) {
	ts := newTestServer(t, "")
	m, js := ts.newMatch(2, "Ann", "Bob")
	ann, bob := ts.dial(m.ID, js[0].Token), ts.dial(m.ID, js[1].Token)
	ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	ann.next("state")
	bob.next("state")
	hash := func() string {
		var rp partyReplay
		ts.call("GET", "/api/matches/"+m.ID+"/replay", nil, &rp)
		return rp.Final.Hash
	}
	before := hash()
	for _, c := range []struct {
		name string
		msg  string
		want string
	}{
		{"out of turn", `{"type":"command","id":1,"kind":"roll"}`, "it is Ann's turn, not Bob's"},
		{"for another seat", `{"type":"command","id":2,"kind":"roll","player":0}`, "you play seat 1 and cannot command seat 0"},
		{"malformed", `{"type":"command",`, "not a JSON message"},
		{"unknown type", `{"type":"dance","id":3}`, "unknown message type"},
		{"scripted dice", `{"type":"command","id":4,"kind":"roll","value":6}`, "the dice are rolled by the server"},
		{"unknown kind", `{"type":"command","id":5,"kind":"fly"}`, "unknown command"},
		{"oversized", `{"type":"command","id":6,"kind":"roll","pad":"` + strings.Repeat("x", 2000) + `"}`, "message too large"},
	} {
		bob.ws.Write(context.Background(), websocket.MessageText, []byte(c.msg))
		var r map[string]any
		for r == nil || r["type"] != "rejected" {
			r = bob.nextAny()
		}
		if !strings.Contains(r["reason"].(string), c.want) {
			t.Errorf("%s: reason %q, want %q", c.name, r["reason"], c.want)
		}
	}
	if hash() != before {
		t.Error("rejected commands changed the match")
	}
	if r := ann.command("roll", nil); r["type"] != "ack" {
		t.Errorf("Ann's roll: %v", r)
	}
}

func TestRestartRebuildsMatchesAndChecksHashes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tabula.db")
	ts := newTestServer(t, db)
	m, js := ts.newMatch(2, "Ann", "Bob")
	ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	ann, bob := ts.dial(m.ID, js[0].Token), ts.dial(m.ID, js[1].Token)
	ann.next("state")
	bob.next("state")
	for i := 0; i < 12; i++ {
		ann.drain()
		bob.drain()
		if !ann.playTurn() && !bob.playTurn() {
			break
		}
	}
	ann.drain()
	want := ann.last.View.Hash
	commands := ann.last.View.Commands
	ts.close()

	// A new server on the same database picks the match up where it was.
	ts2 := newTestServer(t, db)
	ann2 := ts2.dial(m.ID, js[0].Token)
	ann2.next("state")
	if ann2.last.View.Hash != want || ann2.last.View.Commands != commands {
		t.Fatalf("after restart: hash %s (%d commands), want %s (%d)", ann2.last.View.Hash, ann2.last.View.Commands, want, commands)
	}
	ts2.close()

	// A stored hash that the replay does not reproduce is reported, and the
	// match refuses to go on.
	ts3, sum := tamper(t, db, m.ID, 3)
	if sum.Status != "broken" || !strings.Contains(sum.Error, "replaying command 3 gives state hash") {
		t.Errorf("tampered match: %+v", sum)
	}
	c := ts3.dial(m.ID, js[0].Token)
	c.next("state")
	if r := c.command("roll", nil); r["type"] != "rejected" || !strings.Contains(fmt.Sprint(r["reason"]), "broken") {
		t.Errorf("a command to a broken match: %v", r)
	}
}

// tamper changes the stored hash of a match's command and starts a server
// on the database; it returns the server and the match's summary.
func tamper(t *testing.T, db, match string, seq int) (*testServer, Summary) {
	t.Helper()
	st, err := openForTest(db)
	if err != nil {
		t.Fatal(err)
	}
	st.exec(t, `UPDATE commands SET hash = 'tampered' WHERE seq = ? AND match_id = ?`, seq, match)
	st.close()
	ts := newTestServer(t, db)
	var sum Summary
	ts.call("GET", "/api/matches/"+match, nil, &sum)
	return ts, sum
}

// TestListWhileMatchesAreCreated lists the matches while others are being
// created and joined (run with -race).
func TestListWhileMatchesAreCreated(t *testing.T) {
	ts := newTestServer(t, "")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			ts.newMatch(2, "Ann")
		}
	}()
	for {
		select {
		case <-done:
			var sums []Summary
			ts.call("GET", "/api/matches", nil, &sums)
			if len(sums) != 20 {
				t.Errorf("%d matches listed, want 20", len(sums))
			}
			return
		default:
			var sums []Summary
			if code := ts.call("GET", "/api/matches", nil, &sums); code != 200 {
				t.Fatalf("list: %d", code)
			}
		}
	}
}
