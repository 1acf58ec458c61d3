package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Every limit holds on every route that makes or holds the same thing.

// A rematch makes a match: it counts against the creation limit of the
// address asking, like creating one. (A bots-only match rematched again
// and again once made 1,823 matches in 15 s past a limit of 30 a
// minute.)
func TestRematchCountsAsCreating(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{Creates: 3}})
	tb := ts.newTable("twenty-one", 2, nil, true, true, nil)
	ts.waitStatus(tb.ID, q("owner", tb.Owner), "finished")
	id := tb.ID
	made := 0
	for range 5 {
		var next struct {
			ID string `json:"id"`
		}
		st, body := ts.raw("POST", "/api/matches/"+id+"/rematch", map[string]any{"owner": tb.Owner}, nil)
		if st != http.StatusOK {
			if st != http.StatusTooManyRequests || !strings.Contains(string(body), "at most 3 a minute") {
				t.Fatalf("a refused rematch: %d %s", st, body)
			}
			break
		}
		must(t, json.Unmarshal(body, &next))
		made++
		ts.waitStatus(next.ID, q("owner", tb.Owner), "finished")
		// Asking again for the same rematch makes nothing: it answers the
		// one made.
		if st, again := ts.raw("POST", "/api/matches/"+id+"/rematch", map[string]any{"owner": tb.Owner}, nil); st != http.StatusOK || !strings.Contains(string(again), next.ID) {
			t.Fatalf("asking again for a rematch made: %d %s", st, again)
		}
		id = next.ID
	}
	// One create and two rematches: the limit of three a minute.
	if made != 2 {
		t.Errorf("%d rematches were made after one create, with a limit of 3 a minute", made)
	}
	if st, _ := ts.raw("POST", "/api/matches", map[string]any{"board": "twenty-one"}, nil); st != http.StatusTooManyRequests {
		t.Errorf("creating after the rematches used the limit: %d", st)
	}
}

// The owner's decisions about seats stick: a player removed from a table
// does not come back to it (by another name, or in its rematch), and a
// seat handed to a bot stays the bot's in the rematch until the owner
// gives it back.
func TestOwnersDecisionsAboutSeatsStick(t *testing.T) {
	// Clients are told apart behind a proxy of the loopback address.
	ts := newTestServer(t, Options{TrustedProxies: []string{"127.0.0.1"}})
	tb := ts.newTable("twelve-seats", 4, []string{"Ann", "Bob"}, false, false, nil)
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/1", map[string]any{"owner": tb.Owner, "remove": true}, nil); st != http.StatusOK {
		t.Fatalf("removing Bob: %d", st)
	}
	for _, name := range []string{"Bob", "B0b", "Robert"} {
		st, body := ts.raw("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": name, "invite": tb.Invite}, nil)
		if st != http.StatusForbidden || !strings.Contains(string(body), "removed") {
			t.Errorf("Bob joining again as %s: %d %s", name, st, body)
		}
	}
	// Another address joins.
	other := newClientFrom(ts, "10.1.2.3")
	if st := other.join(tb.ID, tb.Invite, "Cy"); st != http.StatusOK {
		t.Fatalf("Cy joining from another address: %d", st)
	}
	ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner}, nil)
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil); st != http.StatusOK {
		t.Fatalf("start: %d", st)
	}
	// Ann's seat goes to a bot; the match plays to its end.
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/0", map[string]any{"owner": tb.Owner, "bot": true}, nil); st != http.StatusOK {
		t.Fatalf("handing Ann's seat to a bot: %d", st)
	}
	c := ts.dial(tb.ID, q("token", other.token))
	playToEnd(t, c)
	var next struct {
		ID string `json:"id"`
	}
	if st := ts.call("POST", "/api/matches/"+tb.ID+"/rematch", map[string]any{"owner": tb.Owner}, &next); st != http.StatusOK {
		t.Fatalf("rematch: %d", st)
	}
	s := ts.summary(next.ID, q("owner", tb.Owner))
	if !s.Seats[0].Bot || !s.Seats[0].Human {
		t.Errorf("in the rematch Ann's seat is not the bot's the owner gave it to: %+v", s.Seats[0])
	}
	if st := ts.call("POST", "/api/matches/"+next.ID+"/seats/0", map[string]any{"owner": tb.Owner, "bot": false}, nil); st != http.StatusOK {
		t.Errorf("the owner giving Ann her seat back in the rematch: %d", st)
	}
}

// clientFrom is a client behind a trusted proxy that says its address.
type clientFrom struct {
	ts    *testServer
	addr  string
	token string
}

func newClientFrom(ts *testServer, addr string) *clientFrom { return &clientFrom{ts: ts, addr: addr} }

func (c *clientFrom) join(match, invite, name string) int {
	st, body := c.ts.raw("POST", "/api/matches/"+match+"/join", map[string]any{"name": name, "invite": invite}, map[string]string{"X-Forwarded-For": c.addr})
	var j joined
	json.Unmarshal(body, &j)
	c.token = j.Token
	return st
}

// Matches made by all addresses together are bounded too, and so are the
// matches in memory: past them, making or opening one is refused with a
// reason, until some leave.
func TestMatchesAreBoundedInAll(t *testing.T) {
	ts := newTestServer(t, Options{TrustedProxies: []string{"127.0.0.1"}, Limits: Limits{Creates: 10, CreatesAll: 3}})
	for i, from := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"} {
		st, body := ts.raw("POST", "/api/matches", map[string]any{"board": "twenty-one"}, map[string]string{"X-Forwarded-For": from})
		if (i < 3) != (st == http.StatusCreated) || i == 3 && !strings.Contains(string(body), "at most 3 matches a minute") {
			t.Errorf("match %d, from %s: %d %s", i+1, from, st, body)
		}
	}
	mem := newTestServer(t, Options{Limits: Limits{Matches: 2}})
	var tables []*table
	for range 3 {
		tables = append(tables, mem.newTable("twenty-one", 2, nil, false, false, nil))
	}
	for i, tb := range tables {
		st, body := mem.raw("GET", "/api/matches/"+tb.ID+"?invite="+tb.Invite, nil, nil)
		if (i < 2) != (st == http.StatusOK) || i == 2 && !strings.Contains(string(body), "2 matches in memory") {
			t.Errorf("opening match %d: %d %s", i+1, st, body)
		}
	}
}
