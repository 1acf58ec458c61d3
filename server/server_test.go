package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTwoPeoplePlayAMatch(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, nil)
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	b := ts.dial(tb.ID, q("token", tb.tokens[1]))
	a.waitFor("Ann's first state", func(s stateIn) bool { return s.View != nil })
	b.waitFor("Bob's first state", func(s stateIn) bool { return s.View != nil })
	if len(a.last.Legal)+len(b.last.Legal) == 0 {
		t.Fatal("nobody is offered a command")
	}
	// Out of turn: refused with the rule's words.
	waiter := b
	if len(a.last.Legal) == 0 {
		waiter = a
	}
	if r := waiter.command(json.RawMessage(`{"take":1}`)); r["type"] != "rejected" || !strings.Contains(r["reason"].(string), "turn") {
		t.Fatalf("a command out of turn: %v", r)
	}
	playToEnd(t, a, b)
	a.waitFor("the end", func(s stateIn) bool { return a.match.Status == "finished" })
	if !strings.Contains(a.match.Result, "took the last counter") {
		t.Errorf("result %q", a.match.Result)
	}
	// The end screen: the seats ranked, the winner first, sent once the
	// match is over (and never before).
	a.waitFor("the standings", func(s stateIn) bool { return s.Standings != nil })
	st := a.last.Standings
	if len(st.Seats) != 2 || st.Seats[0].Place != 1 || st.Seats[1].Place != 2 {
		t.Errorf("standings %+v", st)
	}
	if w := st.Seats[0].Seat; !strings.HasPrefix(a.match.Result, []string{"Ann", "Bob"}[w]) {
		t.Errorf("the first of the standings is seat %d; the result is %q", w, a.match.Result)
	}
	for _, raw := range a.raw[:len(a.raw)-1] {
		if strings.Contains(raw, `"standings"`) && !strings.Contains(raw, `"over":true`) && !strings.Contains(raw, "finished") {
			t.Errorf("standings before the end: %.300s", raw)
		}
	}
	var rp Replay
	ts.call("GET", "/api/matches/"+tb.ID+"/replay?"+q("token", tb.tokens[0]), nil, &rp)
	var step ReplayStep
	ts.call("GET", fmt.Sprintf("/api/matches/%s/replay/%d?%s", tb.ID, len(rp.Commands), q("token", tb.tokens[0])), nil, &step)
	if rp.Standings == nil || step.Standings == nil || !reflect.DeepEqual(*rp.Standings, *st) || !reflect.DeepEqual(*step.Standings, *st) {
		t.Errorf("the replay's standings %+v and its last step's %+v, want %+v", rp.Standings, step.Standings, st)
	}
	// Every entry arrived once, in order.
	for i := 1; i < len(a.entries); i++ {
		if a.entries[i].Seq <= a.entries[i-1].Seq {
			t.Fatalf("entries out of order or repeated: %d then %d", a.entries[i-1].Seq, a.entries[i].Seq)
		}
	}
}

func TestBotsPlayAWholeMatchAndItSurvivesARestart(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("long", 3, nil, true, true, map[string]any{"public": true, "maxRounds": 1000})
	s := ts.waitStatus(tb.ID, "", "finished")
	if s.Commands != 1000 {
		t.Fatalf("%d commands, want 1000 (one counter at a time)", s.Commands)
	}
	var rp Replay
	ts.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &rp)
	if rp.Seed == "" || len(rp.Commands) != 1000 {
		t.Fatalf("the replay of a finished match: seed %q, %d commands", rp.Seed, len(rp.Commands))
	}
	last := rp.Commands[999].Hash
	ts2 := ts.restart()
	var again Replay
	ts2.call("GET", "/api/matches/"+tb.ID+"/replay", nil, &again)
	if again.Match.Status != "finished" || again.Commands[999].Hash != last {
		t.Fatalf("after a restart: %s, hash %s", again.Match.Status, again.Commands[999].Hash)
	}
}

// A match that panics (in its rules, its view, its bot) is marked broken
// with the reason; the server and other matches go on.
func TestAPanicBreaksOnlyItsMatch(t *testing.T) {
	ts := newTestServer(t, Options{})
	good := ts.newTable("twenty-one", 2, []string{"Ann"}, true, true, nil)
	for _, board := range []string{"trap-apply", "trap-view", "trap-bot"} {
		tb := ts.newTable(board, 2, nil, true, true, nil)
		if board == "trap-view" {
			ts.dial(tb.ID, q("invite", tb.Invite)) // someone must look
		}
		s := ts.waitStatus(tb.ID, q("invite", tb.Invite), "broken")
		if !strings.Contains(s.Error, "a bug") {
			t.Errorf("%s: error %q", board, s.Error)
		}
	}
	c := ts.dial(good.ID, q("token", good.tokens[0]))
	playToEnd(t, c)
	if ts.srv.metrics.panics == nil {
		t.Fatal("no panic counter")
	}
}

// Unfinished matches never give their seed away, nor anyone's secret.
func TestSecretsStaySecret(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	a.waitFor("a state", func(s stateIn) bool { return s.View != nil })
	spectator := ts.dial(tb.ID, "")
	spectator.waitFor("a state", func(s stateIn) bool { return s.View != nil })
	_, replay := ts.raw("GET", "/api/matches/"+tb.ID+"/replay", nil, nil)
	_, list := ts.raw("GET", "/api/matches", nil, nil)
	_, summary := ts.raw("GET", "/api/matches/"+tb.ID, nil, nil)
	var seed struct {
		Seed string `json:"seed"`
	}
	json.Unmarshal(replay, &seed)
	if seed.Seed != "" {
		t.Errorf("the replay of a match being played gives its seed")
	}
	everything := string(replay) + string(list) + string(summary) + strings.Join(a.raw, "") + strings.Join(spectator.raw, "")
	for _, secret := range append(tb.tokens, tb.Owner, tb.Invite) {
		if strings.Contains(everything, secret) {
			t.Errorf("a secret (%s…) was sent", secret[:6])
		}
	}
}

// A private match is not listed, and without its invitation nobody reads
// it, joins it or watches it.
func TestPrivateMatchesNeedTheirInvitation(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann"}, false, false, nil)
	var list MatchList
	ts.call("GET", "/api/matches", nil, &list)
	for _, m := range list.Matches {
		if m.ID == tb.ID {
			t.Fatal("a private match is listed")
		}
	}
	if st := ts.call("GET", "/api/matches/"+tb.ID, nil, nil); st != http.StatusForbidden {
		t.Errorf("reading without the invitation: %d", st)
	}
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": "Squatter"}, nil); st != http.StatusForbidden {
		t.Errorf("joining without the invitation: %d", st)
	}
	if st, _ := ts.raw("GET", "/api/matches/"+tb.ID+"/ws", nil, map[string]string{"Connection": "Upgrade", "Upgrade": "websocket",
		"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}); st != http.StatusForbidden {
		t.Errorf("watching without the invitation: %d", st)
	}
	if st := ts.call("GET", "/api/matches/"+tb.ID+"?invite="+tb.Invite, nil, nil); st != http.StatusOK {
		t.Errorf("reading with the invitation: %d", st)
	}
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Invite}, nil); st != http.StatusForbidden {
		t.Errorf("starting with the invitation's secret rather than the owner's: %d", st)
	}
}

// A player can leave; the owner can remove one, and hand a seat to a bot
// and back; a seat's player whose bot plays cannot play it meanwhile.
func TestSeatsBelongToThoseInvited(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twelve-seats", 3, []string{"Ann", "Bob", "Cy"}, false, false, nil)
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/leave", map[string]any{"token": tb.tokens[2]}, nil); st != http.StatusOK {
		t.Fatalf("Cy leaving: %d", st)
	}
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/1", map[string]any{"owner": tb.Owner, "remove": true}, nil); st != http.StatusOK {
		t.Fatalf("removing Bob: %d", st)
	}
	s := ts.summary(tb.ID, q("invite", tb.Invite))
	if s.Seats[1].Name != "" || s.Seats[2].Name != "" || s.Seats[0].Name != "Ann" {
		t.Fatalf("seats: %+v", s.Seats)
	}
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil); st != http.StatusOK {
		t.Fatalf("start: %d", st)
	}
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	a.waitFor("Ann's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/0", map[string]any{"owner": tb.Owner, "bot": true}, nil); st != http.StatusOK {
		t.Fatalf("handing Ann's seat to a bot: %d", st)
	}
	s = ts.waitStatus(tb.ID, q("invite", tb.Invite), "finished")
	if !s.Seats[0].Bot || !s.Seats[0].Human {
		t.Fatalf("Ann's seat: %+v", s.Seats[0])
	}
}

// The limits: bodies, uploads (multipart included), messages, rates.
func TestLimitsGiveClearErrors(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{Upload: 4 << 10, Body: 1 << 10, Creates: 3, Rate: 5, Burst: 5, Message: 512}})
	big := `{"game":"nim","name":"` + strings.Repeat("x", 8<<10) + `","pile":3,"take":1}`
	cases := []struct {
		name   string
		status int
		body   []byte
		want   string
		do     func() (int, []byte)
	}{
		{name: "upload", do: func() (int, []byte) { return ts.raw("POST", "/api/boards", big, nil) }, status: 413, want: "4096 bytes"},
		{name: "multipart upload", do: func() (int, []byte) {
			body := "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.json\"\r\n\r\n" + big + "\r\n--b--\r\n"
			return ts.raw("POST", "/api/boards", []byte(body), map[string]string{"Content-Type": "multipart/form-data; boundary=b"})
		}, status: 413, want: "4096 bytes"},
		{name: "validate", do: func() (int, []byte) { return ts.raw("POST", "/api/validate", big, nil) }, status: 413, want: "4096 bytes"},
		{name: "body", do: func() (int, []byte) {
			return ts.raw("POST", "/api/matches", `{"board":"`+strings.Repeat("x", 2<<10)+`"}`, nil)
		}, status: 413, want: "1024 bytes"},
		{name: "deep", do: func() (int, []byte) {
			return ts.raw("POST", "/api/validate", `{"game":"nim","x":`+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`}`, nil)
		}, status: 200, want: "nests more than 64 levels"},
	}
	for _, c := range cases {
		st, body := c.do()
		if st != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %d %s, want %d and %q", c.name, st, body, c.status, c.want)
		}
	}
	for i := range 4 {
		st, body := ts.raw("POST", "/api/matches", map[string]any{"board": "twenty-one"}, nil)
		if (i < 3) != (st == http.StatusCreated) {
			t.Errorf("creating match %d: %d %s", i+1, st, body)
		}
		if i == 3 && (st != http.StatusTooManyRequests || !strings.Contains(string(body), "at most 3 a minute")) {
			t.Errorf("the fourth match in a minute: %d %s", st, body)
		}
	}
}

func TestWebSocketLimits(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{Rate: 5, Burst: 5, Message: 512, Connections: 3}})
	tb := ts.newTable("twenty-one", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	a.waitFor("a state", func(s stateIn) bool { return s.View != nil })
	// Many messages at once: the ones past the burst are refused.
	for range 12 {
		a.send([]byte(`{"type":"hello"}`))
	}
	refused := 0
	deadline := time.After(5 * time.Second)
	for refused == 0 {
		select {
		case data := <-a.msgs:
			if strings.Contains(string(data), "too many messages") {
				refused++
			}
		case <-deadline:
			t.Fatal("a flood of messages was not limited")
		}
	}
	// More connections than allowed are refused. A connection counts once
	// it is in its match, which its first state says: a handshake alone
	// does not make it so.
	for range 2 {
		ts.dial(tb.ID, "").waitFor("a state", func(s stateIn) bool { return s.View != nil })
	}
	st, body := ts.raw("GET", "/api/matches/"+tb.ID+"/ws", nil, map[string]string{"Connection": "Upgrade", "Upgrade": "websocket",
		"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
	if st != http.StatusServiceUnavailable || !strings.Contains(string(body), "3 connections") {
		t.Errorf("a fourth connection: %d %s", st, body)
	}
}

// Requests from other sites, of the wrong type or to another host name
// are refused; the page is sent with headers that stop framing and
// sniffing.
func TestSameOriginByDefault(t *testing.T) {
	ts := newTestServer(t, Options{})
	create := map[string]any{"board": "twenty-one"}
	cases := []struct {
		name    string
		body    any
		headers map[string]string
		status  int
	}{
		{"another site's page", create, map[string]string{"Origin": "https://evil.example"}, 403},
		{"a cross-site fetch", create, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"a text/plain form", `{"board":"twenty-one"}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"trailing data", `{"board":"twenty-one"} x`, nil, 400},
		{"a rebound host name", create, map[string]string{"Host": "evil.example"}, 421},
		{"our own page", create, map[string]string{"Origin": ts.hs.URL}, 201},
	}
	for _, c := range cases {
		st, body := ts.raw("POST", "/api/matches", c.body, c.headers)
		if st != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, st, body, c.status)
		}
	}
	res, err := http.Get(ts.hs.URL + "/")
	must(t, err)
	res.Body.Close()
	for k, want := range map[string]string{"Content-Security-Policy": "frame-ancestors 'none'", "X-Content-Type-Options": "nosniff",
		"Referrer-Policy": "no-referrer"} {
		if !strings.Contains(res.Header.Get(k), want) {
			t.Errorf("%s: %q", k, res.Header.Get(k))
		}
	}
}

func TestHealthAndMetrics(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, nil, true, true, nil)
	ts.waitStatus(tb.ID, q("invite", tb.Invite), "finished")
	for path, want := range map[string]string{"/healthz": "up", "/readyz": "ready", "/metrics": "tabula_commands_total"} {
		st, body := ts.raw("GET", path, nil, nil)
		if st != 200 || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d %.200s", path, st, body)
		}
	}
}

// Bots are filled at a level; an unknown level is refused with a
// suggestion; a strong bot plays a whole match.
func TestBotLevels(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twenty-one", 2, []string{"Ann"}, false, false, nil)
	st, body := ts.raw("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner, "level": "mtcs"}, nil)
	if st != http.StatusConflict || !strings.Contains(string(body), "did you mean mcts") {
		t.Fatalf("an unknown level: %d %s", st, body)
	}
	ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner, "level": "mcts"}, nil)
	s := ts.summary(tb.ID, q("invite", tb.Invite))
	if s.Seats[1].Level != "mcts" {
		t.Fatalf("the bot's seat: %+v", s.Seats[1])
	}
	ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil)
	a := ts.dial(tb.ID, q("token", tb.tokens[0]))
	playToEnd(t, a)
}
