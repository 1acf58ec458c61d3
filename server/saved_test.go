package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// bigParty is a party board of n spaces, about 240 bytes a space (8500
// spaces: 2 MB), made distinct by salt.
func bigParty(n int, salt string) string {
	var b strings.Builder
	b.WriteString(`{"spaces": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": %d, "name": "Space %d %s", "connections": [{"targetId": %d}], "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "Hello {{CURRENT_PLAYER_NAME}}, this is space %d"}}}]}`,
			i+1, i+1, salt, (i+1)%n+1, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// liveHeap is the heap in use after a collection, in MB.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc) >> 20
}

// Saved games leave memory: saving many big games holds only what the
// cache of compiled games may hold, deleting them gives it all back, and
// a restart loads none of them. (Forty saves of 2 MB from one address,
// then deleting them all, once took the live heap from 17 MB to 409 MB,
// never given back.)
func TestSavedGamesLeaveMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a measure of memory, not of goroutines meeting: it runs without -short")
	}
	// Eight games of 1 MB: eight times 10 MB if they stayed. The
	// scenario that once took the heap to 409 MB, forty games of 2 MB,
	// takes minutes: TABULA_SAVES=40 runs it.
	n, spaces, bound := 8, 4250, int64(45)
	if envInt("TABULA_SAVES", 0) > 8 {
		n, spaces, bound = envInt("TABULA_SAVES", 0), 8500, 80
	}
	cache := int64(spaces * 240 * 2) // two of the games
	ts := newTestServer(t, Options{Packs: allPacks(), Limits: Limits{SavedGames: 1000, SavedBytes: 1 << 30, Uploads: 1000, GameCache: cache}})
	before := liveHeap()
	type saved struct {
		Board  GameInfo `json:"board"`
		Secret string   `json:"secret"`
	}
	var games []saved
	for i := range n {
		var s saved
		if st := ts.call("POST", "/api/boards?name=big.json", bigParty(spaces, fmt.Sprint(i)), &s); st != http.StatusCreated {
			t.Fatalf("saving game %d: %d", i, st)
		}
		games = append(games, s)
	}
	held := liveHeap()
	t.Logf("live heap: %d MB before, %d MB with %d games of %d KB saved", before, held, n, len(games[0].Board.Hash)*0+spaces*240>>10)
	// A compiled game of 2 MB takes about 20 MB: the cache holds two.
	if held-before > bound {
		t.Errorf("%d saved games hold %d MB", n, held-before)
	}
	// The lobby lists them, and a match is made on one (it is compiled
	// again, through the cache).
	if st := ts.call("POST", "/api/matches", map[string]any{"board": games[0].Board.ID}, nil); st != http.StatusCreated {
		t.Errorf("a match on a saved game: %d", st)
	}
	for _, g := range games {
		if st, body := ts.raw("DELETE", "/api/boards/"+g.Board.ID, map[string]any{"secret": g.Secret}, nil); st != http.StatusNoContent {
			t.Fatalf("deleting: %d %s", st, body)
		}
	}
	after := liveHeap()
	t.Logf("live heap: %d MB once they are deleted", after)
	if after-before > 30 {
		t.Errorf("deleting the saved games left %d MB held", after-before)
	}
	if k, _ := ts.srv.defs.stats(); k != 0 {
		t.Errorf("%d compiled games stay in the cache after their deletion", k)
	}
	// A game with a match on it stays in the store (the match plays on
	// it); the others are gone from it.
	kept := 0
	for _, g := range games {
		if _, err := ts.srv.store.Game(context.Background(), g.Board.Hash); err == nil {
			kept++
		}
	}
	if kept != 1 {
		t.Errorf("%d deleted games stay in the store, want the one a match is made on", kept)
	}
}

// A restart compiles none of the saved games: the lobby lists them from
// what the store keeps; a game is compiled when a match is made on it.
func TestRestartLoadsNoSavedGame(t *testing.T) {
	ts := newTestServer(t, Options{})
	var s struct {
		Board  GameInfo `json:"board"`
		Secret string   `json:"secret"`
	}
	if st := ts.call("POST", "/api/boards?name=g.json", `{"game": "nim", "name": "Mine", "description": "Take one or two.", "pile": 7, "take": 2}`, &s); st != http.StatusCreated {
		t.Fatalf("saving: %d", st)
	}
	ts = ts.restart()
	if k, _ := ts.srv.defs.stats(); k != 0 {
		t.Errorf("a restart compiled %d saved games", k)
	}
	var list []GameInfo
	ts.call("GET", "/api/boards", nil, &list)
	found := false
	for _, g := range list {
		if g.ID == s.Board.ID {
			found = g.Name == "Mine" && g.Description == "Take one or two." && g.Size == s.Board.Size && g.Source == "saved"
		}
	}
	if !found {
		t.Errorf("the saved game is not listed as it was: %+v", list)
	}
	if st := ts.call("POST", "/api/matches", map[string]any{"board": s.Board.ID}, nil); st != http.StatusCreated {
		t.Errorf("a match on it: %d", st)
	}
	if k, _ := ts.srv.defs.stats(); k != 1 {
		t.Errorf("%d games compiled once a match was made on one", k)
	}
}

// A game saved by a server of schema version 2 (which kept nothing of
// what the lobby shows) is listed after the upgrade, loaded once.
func TestVersion2LibraryStillServes(t *testing.T) {
	path := t.TempDir() + "/v2.db"
	copyTestFile(t, "testdata/old-v2.db", path)
	ts := newTestServer(t, Options{DB: path})
	var list []GameInfo
	ts.call("GET", "/api/boards", nil, &list)
	found := false
	for _, g := range list {
		found = found || g.Name == "Saved before" && g.Size == "9 counters" && g.Source == "saved"
	}
	if !found {
		t.Fatalf("the version 2 game is not listed: %+v", list)
	}
	entries, _ := ts.srv.store.Entries(context.Background())
	if len(entries) != 1 || entries[0].Info == nil || entries[0].Size == 0 {
		t.Errorf("what the lobby shows of it was not kept: %+v", entries)
	}
}

// Saved games have quotas: per address, in games and bytes, and in all;
// renaming one counts against the address's rate of uploads. An unused
// saved game expires; one in use does not.
func TestSavedGameQuotas(t *testing.T) {
	ts := newTestServer(t, Options{TrustedProxies: []string{"127.0.0.1"},
		Limits: Limits{SavedGames: 2, SavedBytes: 300, SavedGamesAll: 3, Uploads: 6, SavedExpire: time.Hour}})
	save := func(from string, i int, pad int) (int, string) {
		body := fmt.Sprintf(`{"game": "nim", "name": "G%d", "description": "%s", "pile": %d, "take": 2}`, i, strings.Repeat("x", pad), 5+i)
		st, out := ts.raw("POST", "/api/boards?name=g.json", body, map[string]string{"X-Forwarded-For": from})
		return st, string(out)
	}
	if st, _ := save("10.0.0.1", 1, 0); st != http.StatusCreated {
		t.Fatalf("a first game: %d", st)
	}
	if st, out := save("10.0.0.1", 2, 300); st != http.StatusInsufficientStorage || !strings.Contains(out, "300 bytes") {
		t.Errorf("past the address's bytes: %d %s", st, out)
	}
	if st, _ := save("10.0.0.1", 3, 0); st != http.StatusCreated {
		t.Fatalf("a second game: %d", st)
	}
	if st, out := save("10.0.0.1", 4, 0); st != http.StatusInsufficientStorage || !strings.Contains(out, "2 saved games") {
		t.Errorf("a third game from one address: %d %s", st, out)
	}
	if st, _ := save("10.0.0.2", 5, 0); st != http.StatusCreated {
		t.Errorf("a game from another address: %d", st)
	}
	if st, out := save("10.0.0.3", 6, 0); st != http.StatusInsufficientStorage || !strings.Contains(out, "full") {
		t.Errorf("past the library's games: %d %s", st, out)
	}
	// 10.0.0.1 uploaded four times this minute: renames count too, and
	// the seventh is refused.
	var list []GameInfo
	ts.call("GET", "/api/boards", nil, &list)
	for i, want := range []int{http.StatusForbidden, http.StatusForbidden, http.StatusTooManyRequests} {
		st, out := ts.raw("PATCH", "/api/boards/"+list[len(list)-1].ID, map[string]any{"secret": "x", "name": "y"}, map[string]string{"X-Forwarded-For": "10.0.0.1"})
		if st != want {
			t.Errorf("rename %d (upload %d of the minute): %d %s, want %d", i+1, i+5, st, out, want)
		}
	}
	// The games were saved two hours ago; one is used now: only the
	// others expire.
	ts.srv.library.mu.Lock()
	for _, e := range ts.srv.library.byID {
		e.rec.Created = e.rec.Created.Add(-2 * time.Hour)
	}
	ts.srv.library.mu.Unlock()
	used := list[len(list)-1]
	if st := ts.call("POST", "/api/matches", map[string]any{"board": used.ID}, nil); st != http.StatusCreated {
		t.Fatal(st)
	}
	ts.srv.library.expire(context.Background(), time.Now())
	var after []GameInfo
	ts.call("GET", "/api/boards", nil, &after)
	saved := 0
	for _, g := range after {
		if g.Source == "saved" {
			saved++
			if g.ID != used.ID {
				t.Errorf("%s did not expire", g.Name)
			}
		}
	}
	if saved != 1 {
		t.Errorf("%d saved games after expiry, want the one in use", saved)
	}
}

func copyTestFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	must(t, err)
	must(t, os.WriteFile(to, data, 0o644))
}

// The editor's drafts count against the address's quota of saved bytes
// for a day, and one no match was made on leaves the store after a day.
func TestDraftsAreBounded(t *testing.T) {
	ts := newTestServer(t, Options{Limits: Limits{SavedBytes: 350}})
	draft := func(i int) (int, string, string) {
		var d struct {
			Draft string `json:"draft"`
		}
		body := fmt.Sprintf(`{"game": "nim", "name": "Draft %d", "description": "%s", "pile": %d, "take": 2}`, i, strings.Repeat("x", 60), 5+i)
		st, out := ts.raw("POST", "/api/drafts?name=d.json", body, nil)
		json.Unmarshal(out, &d)
		return st, string(out), d.Draft
	}
	st, _, played := draft(1)
	if st != http.StatusCreated {
		t.Fatalf("a first draft: %d", st)
	}
	st, _, unplayed := draft(2)
	if st != http.StatusCreated {
		t.Fatalf("a second draft: %d", st)
	}
	if st, out, _ := draft(3); st != http.StatusInsufficientStorage || !strings.Contains(out, "350 bytes") {
		t.Errorf("a third draft past the address's bytes: %d %s", st, out)
	}
	if st := ts.call("POST", "/api/matches", map[string]any{"draft": played}, nil); st != http.StatusCreated {
		t.Fatalf("a match of a draft: %d", st)
	}
	// A day later: the draft played stays (its match plays on it), the
	// other is gone, and the address may make drafts again.
	ts.srv.library.expire(context.Background(), time.Now().Add(25*time.Hour))
	if _, err := ts.srv.store.Game(context.Background(), played); err != nil {
		t.Errorf("the draft a match was made on: %v", err)
	}
	if _, err := ts.srv.store.Game(context.Background(), unplayed); err == nil {
		t.Error("the draft nobody played stays in the store after a day")
	}
	if st, out, _ := draft(3); st != http.StatusCreated {
		t.Errorf("a draft a day later: %d %s", st, out)
	}
}
