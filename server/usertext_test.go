package server

import (
	"net/http"
	"path"
	"strings"
	"testing"
	"time"
)

// Names strangers give themselves are checked and normalised once, at the
// edge: what cannot be shown is refused with the reason, what nobody sees
// is dropped, and a name that reads as another's at the same table is
// refused.
func TestNicknamesAreCheckedAtTheEdge(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("twelve-seats", 12, []string{"Ann"}, false, false, nil)
	join := func(name string) (int, string) {
		st, body := ts.raw("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": name, "invite": tb.Invite}, nil)
		return st, string(body)
	}
	for _, c := range []struct {
		name string
		want string
	}{
		{"Eve\uE002", "private-use"},                   // the party log's marks
		{"Eve\x07", "control"},                         // control characters
		{"\u200b\u200b", "empty"},                      // nothing visible
		{"ANN", "reads like"},                          // the same name, in capitals
		{"\u0410nn", "reads like"},                     // a Cyrillic A: reads as Ann
		{"A\u200bnn", "reads like"},                    // a zero-width space inside
		{strings.Repeat("x", 40), "at most"},           // too long
		{"e\u0301\u0301\u0301\u0301\u0301", "accents"}, // a pile of accents
	} {
		if st, body := join(c.name); st != http.StatusBadRequest && st != http.StatusConflict || !strings.Contains(body, c.want) {
			t.Errorf("joining as %q: %d %s, want a refusal saying %q", c.name, st, body, c.want)
		}
	}
	// What is dropped is dropped before the name is kept: bidi overrides,
	// zero-width spaces, surrounding spaces; full-width letters fold.
	for name, kept := range map[string]string{"  \u202eBob\u202c  ": "Bob", "Ｃｙ": "Cy", "Dee\u200d": "Dee"} {
		if st, body := join(name); st != http.StatusOK {
			t.Fatalf("joining as %q: %d %s", name, st, body)
		}
		found := false
		for _, s := range ts.summary(tb.ID, q("invite", tb.Invite)).Seats {
			found = found || s.Name == kept
		}
		if !found {
			t.Errorf("%q is not seated as %q: %+v", name, kept, ts.summary(tb.ID, q("invite", tb.Invite)).Seats)
		}
	}
	// A bot's name counts too: nobody joins as one.
	ts.call("POST", "/api/matches/"+tb.ID+"/bots", map[string]any{"owner": tb.Owner}, nil)
	tb2 := ts.newTable("twelve-seats", 3, []string{"B0t 1"}, false, false, nil)
	ts.call("POST", "/api/matches/"+tb2.ID+"/bots", map[string]any{"owner": tb2.Owner}, nil)
	for _, s := range ts.summary(tb2.ID, q("invite", tb2.Invite)).Seats[1:] {
		if s.Name == "Bot 1" {
			t.Errorf("a bot was named like the player B0t 1: %+v", ts.summary(tb2.ID, q("invite", tb2.Invite)).Seats)
		}
	}
}

// A saved game's name, which the lobby shows to everybody, is checked
// like any text from a stranger.
func TestSavedGameNamesAreChecked(t *testing.T) {
	ts := newTestServer(t, Options{})
	var saved struct {
		Board  GameInfo `json:"board"`
		Secret string   `json:"secret"`
	}
	if st := ts.call("POST", "/api/boards?name=g.json", `{"game": "nim", "name": "Mine", "pile": 7, "take": 2}`, &saved); st != http.StatusCreated {
		t.Fatalf("saving: %d", st)
	}
	rename := func(name string) (int, string) {
		st, body := ts.raw("PATCH", "/api/boards/"+saved.Board.ID, map[string]any{"secret": saved.Secret, "name": name}, nil)
		return st, string(body)
	}
	for _, bad := range []string{"Evil\uE000", "", strings.Repeat("x", 81)} {
		if st, body := rename(bad); st != http.StatusBadRequest {
			t.Errorf("renaming to %q: %d %s", bad, st, body)
		}
	}
	if st, body := rename("  \u202eNice\u202c\ngame "); st != http.StatusOK || !strings.Contains(body, `"name":"Nice game"`) {
		t.Errorf("renaming to a name with invisible runes: %d %s", st, body)
	}
	// A game file's own name, shown in the lobby, too.
	if st, body := ts.raw("POST", "/api/boards?name=h.json", `{"game": "nim", "name": "Bad\u0007name\uE001", "pile": 8, "take": 2}`, nil); st != http.StatusUnprocessableEntity || !strings.Contains(string(body), "private-use") {
		t.Errorf("saving a game named with private-use runes: %d %s", st, body)
	}
}

// Text inside a game a client sends (a space's name, a creature's, a
// card's), which players read on each other's screens, holds no control
// character and no bidirectional override: the upload is refused, at the
// string's place in the file, for every pack.
func TestGameTextIsChecked(t *testing.T) {
	ts := newTestServer(t, Options{Packs: allPacks()})
	for _, c := range []struct{ file, old, new, where string }{
		{"party/default.json", `"name": "Tabula Party"`, `"name": "Tabula \u202eParty"`, "/metadata/name"},
		{"pieces/trouble.json", `"name": "Trouble"`, `"name": "Trouble\u0007"`, "/metadata/name"},
		{"rulebook/monopoly.json", `"Go"`, `"G\u202do"`, ""},
		{"lanes/drone-lanes.json", `"name": "`, `"name": "\u202b`, "/name"},
	} {
		src := string(bundled(t, c.file))
		if !strings.Contains(src, c.old) {
			t.Fatalf("%s holds no %s", c.file, c.old)
		}
		src = strings.Replace(src, c.old, c.new, 1)
		st, body := ts.raw("POST", "/api/boards?name="+path.Base(c.file), src, nil)
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), "remove it") || !strings.Contains(string(body), `"pointer":"`+c.where) {
			t.Errorf("%s with %s: %d %s", c.file, c.new, st, body)
		}
	}
}

// A match that breaks tells every connection at once, players' and
// spectators', and the lobby says so.
func TestABrokenMatchTellsEveryone(t *testing.T) {
	ts := newTestServer(t, Options{})
	tb := ts.newTable("trap-apply", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	watcher := ts.dial(tb.ID, "")
	for _, c := range []*client{ann, bob, watcher} {
		c.waitFor("the first state", func(s stateIn) bool { return s.View != nil })
	}
	// Take counters until the trap goes off (at 6 or fewer).
	for range 10 {
		ann.drain()
		bob.drain()
		var c *client
		switch {
		case len(ann.last.Legal) > 0:
			c = ann
		case len(bob.last.Legal) > 0:
			c = bob
		}
		if c == nil || ann.match.Status == "broken" {
			break
		}
		// The command that sets the trap off is refused, not
		// acknowledged: it is not played.
		c.id++
		c.send(map[string]any{"type": "command", "id": c.id, "data": c.last.Legal[len(c.last.Legal)-1].Data})
		time.Sleep(50 * time.Millisecond)
	}
	for name, c := range map[string]*client{"Ann": ann, "Bob": bob, "the spectator": watcher} {
		c.waitFor("the match broken", func(s stateIn) bool { return c.match.Status == "broken" && len(s.Legal) == 0 })
		if !strings.Contains(c.match.Error, "a bug") {
			t.Errorf("%s is told %q", name, c.match.Error)
		}
	}
	var list MatchList
	ts.call("GET", "/api/matches", nil, &list)
	for _, m := range list.Matches {
		if m.ID == tb.ID && m.Status != "broken" {
			t.Errorf("the lobby lists the match as %s", m.Status)
		}
	}
}

// A game stored before hidden characters were refused still loads as it
// was stored: old-hidden-text.db was written by the server of that time,
// each game uploaded with such a character in a name (the ones
// TestGameTextIsChecked refuses in a file sent now) and a match of each
// started with Ann and a bot. Every match goes on, and the library still
// offers every game.
func TestStoredGameWithHiddenCharactersLoads(t *testing.T) {
	ts := newTestServer(t, Options{DB: copyTestdata(t, "old-hidden-text.db"), Packs: allPacks()})
	for _, c := range []struct{ file, board, match, token string }{
		{"party/default.json", "g-8f702e6df4d7", "9f0f666bb0fe", "4d27f70aca464f8e1caac16aaa8fd35f"},
		{"pieces/trouble.json", "g-1f59f212ddc9", "23b527553ec6", "2af373cf5c2e860167f6651b693e7070"},
		{"rulebook/monopoly.json", "g-6ecad9a5fb0c", "741271b77557", "286725b452c33e1dde4af529acc5bd2f"},
		{"lanes/drone-lanes.json", "g-f6f04fb3cea9", "dc08629db68f", "c524693a4bc78e45c602465774c916a9"},
	} {
		s := ts.summary(c.match, q("token", c.token))
		if s.Status != "playing" {
			t.Errorf("%s: the match stored with it is %s (%s)", c.file, s.Status, s.Error)
			continue
		}
		ann := ts.dial(c.match, q("token", c.token))
		ann.waitFor("the match", func(st stateIn) bool { return st.View != nil })
		if ann.last.You != 0 {
			t.Errorf("%s: Ann's secret plays seat %d", c.file, ann.last.You)
		}
		var info map[string]any
		if st := ts.call("POST", "/api/matches", map[string]any{"board": c.board, "seats": 2}, &info); st != http.StatusCreated {
			t.Errorf("%s: a new match of the stored game: %d %v", c.file, st, info)
		}
	}
}
