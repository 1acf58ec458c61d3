package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/sim"
)

// bundled reads a bundled game file.
func bundled(t testing.TB, name string) []byte {
	t.Helper()
	data, err := examples.Games.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withoutShortcut is the default party board with its shortcut removed:
// the Shortcut space no longer sends whoever enters it to the last
// stretch.
func withoutShortcut(t testing.TB) []byte {
	t.Helper()
	var board map[string]any
	must(t, json.Unmarshal(bundled(t, "party/default.json"), &board))
	for _, s := range board["spaces"].([]any) {
		space := s.(map[string]any)
		if space["name"] != "Shortcut" {
			continue
		}
		var kept []any
		for _, e := range space["events"].([]any) {
			if e.(map[string]any)["action"].(map[string]any)["type"] != "SET_PLAYER_SPACE" {
				kept = append(kept, e)
			}
		}
		space["events"] = kept
	}
	data, err := json.Marshal(board)
	must(t, err)
	return data
}

// simulateDraft asks the server to simulate a draft (as a form, with the
// pinned report if any) and returns the status and the answer's body.
func simulateDraft(ctx context.Context, t testing.TB, base string, draft, against []byte, query string) (int, []byte, http.Header) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "draft.json")
	fw.Write(draft)
	if against != nil {
		aw, _ := mw.CreateFormField("against")
		aw.Write(against)
	}
	mw.Close()
	url := base + "/api/simulate"
	if query != "" {
		url += "?" + query
	}
	req, err := http.NewRequestWithContext(ctx, "POST", url, &body)
	must(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data, res.Header
}

func simulated(t testing.TB, status int, data []byte) Balance {
	t.Helper()
	if status != http.StatusOK {
		t.Fatalf("simulating: %d %s", status, data)
	}
	var b Balance
	must(t, json.Unmarshal(data, &b))
	return b
}

// change finds a change in an answer.
func change(b Balance, what, name, figure string) (sim.Change, bool) {
	for _, c := range b.Changes {
		if c.What == what && c.Name == name && c.Figure == figure {
			return c, true
		}
	}
	return sim.Change{}, false
}

// The editor's simulation of a draft: the whole budget of games on a small
// board, the seats' win rates, the length, the spaces and the board's map;
// against the pinned version, removing the shortcut moves the figures it
// should, beyond the noise, and the same draft against itself moves
// nothing (both are played with the same seeds).
func TestSimulateComparesTheDraftWithThePinnedVersion(t *testing.T) {
	ts := newPageServer(t, Options{Limits: Limits{Simulation: SimLimits{Games: 400, Burst: 100}}})
	ctx := context.Background()
	st, data, _ := simulateDraft(ctx, t, ts.hs.URL, bundled(t, "party/default.json"), nil, "players=2")
	pinned := simulated(t, st, data)
	r := pinned.Report
	if r.Games != 400 || r.Interrupted || pinned.Stopped != "" || len(r.Seats) != 2 || r.Seats[0].Name != "Seat 1" || r.Map == nil || len(r.Places) == 0 {
		t.Fatalf("the default board's simulation: %d games, interrupted %v, stopped %q, seats %+v, %d places, map %v",
			r.Games, r.Interrupted, pinned.Stopped, r.Seats, len(r.Places), r.Map != nil)
	}
	if pinned.Budget != (SimBudget{Games: 400, CPUSeconds: 1}) || pinned.Changes != nil {
		t.Errorf("budget %+v, changes %v", pinned.Budget, pinned.Changes)
	}
	report, _ := json.Marshal(r)

	st, data, _ = simulateDraft(ctx, t, ts.hs.URL, bundled(t, "party/default.json"), report, "players=2")
	if same := simulated(t, st, data); len(same.Changes) != 0 {
		t.Errorf("the pinned version against itself moved: %+v", same.Changes)
	}

	st, data, _ = simulateDraft(ctx, t, ts.hs.URL, withoutShortcut(t), report, "players=2")
	draft := simulated(t, st, data)
	longer, ok := change(draft, "length", "games", "rounds (mean)")
	if !ok || !longer.Beyond || longer.Difference <= 0 {
		t.Errorf("without the shortcut the games' length: %+v", longer)
	}
	for _, space := range []string{"Colour round", "Sing along", "Double trouble"} {
		c, ok := change(draft, "places", space, "landings")
		if !ok || !c.Beyond || c.Difference <= 0 {
			t.Errorf("without the shortcut, the landings on %s (skipped by it before): %+v", space, c)
		}
	}
	for _, c := range draft.Changes {
		if c.Beyond && !(c.BeforeHigh < c.AfterLow || c.AfterHigh < c.BeforeLow) {
			t.Errorf("%s %s: flagged beyond the noise with overlapping intervals: %+v", c.Name, c.Figure, c)
		}
	}
	// Pinned with other players, the draft cannot be compared with it.
	st, data, _ = simulateDraft(ctx, t, ts.hs.URL, withoutShortcut(t), report, "players=3")
	if other := simulated(t, st, data); other.Changes != nil || !strings.Contains(other.Against, "other players") {
		t.Errorf("compared with a version of other players: %+v, %q", other.Changes, other.Against)
	}
}

// A simulation stops at its CPU budget (said in the answer) with the games
// it played; a game with problems is answered with them.
func TestSimulateStopsAtItsBudget(t *testing.T) {
	ts := newPageServer(t, Options{Limits: Limits{Simulation: SimLimits{Games: 10_000_000, CPU: 100 * time.Millisecond, Burst: 100}}})
	start := time.Now()
	st, data, _ := simulateDraft(context.Background(), t, ts.hs.URL, bundled(t, "party/grand-tour.json"), nil, "")
	b := simulated(t, st, data)
	took := time.Since(start)
	if b.Stopped != "cpu" || !b.Report.Interrupted || b.Report.Games == 0 || b.Report.Games >= 10_000_000 || b.Budget.CPUSeconds != 0.1 {
		t.Errorf("stopped %q after %d games (interrupted %v), budget %+v", b.Stopped, b.Report.Games, b.Report.Interrupted, b.Budget)
	}
	if took > 3*time.Second {
		t.Errorf("a simulation of 0.1 s of CPU answered after %v", took)
	}
	t.Logf("0.1 s of CPU: %d games of the grand tour, answered in %v", b.Report.Games, took)

	broken := strings.Replace(string(bundled(t, "party/default.json")), `"targetId": 2`, `"targetId": 99`, 1)
	st, data, _ = simulateDraft(context.Background(), t, ts.hs.URL, []byte(broken), nil, "")
	var e apiError
	json.Unmarshal(data, &e)
	if st != http.StatusUnprocessableEntity || len(e.Diagnostics) == 0 {
		t.Errorf("a board with a connection to nowhere: %d %s", st, data)
	}
	st, data, _ = simulateDraft(context.Background(), t, ts.hs.URL, bundled(t, "party/default.json"), nil, "players=9")
	if st != http.StatusBadRequest || !strings.Contains(string(data), "2 to 8 players") {
		t.Errorf("nine players on a board for eight: %d %s", st, data)
	}
}

// A newer draft from the same client stops the older one's simulation,
// which is answered as superseded; a page that goes away stops its own;
// either way the worker is free for the next at once.
func TestSimulateStopsWhenSuperseded(t *testing.T) {
	ts := newPageServer(t, Options{Limits: Limits{Simulation: SimLimits{Games: 10_000_000, CPU: time.Minute, Wall: time.Minute, Workers: 1, Burst: 100}}})
	long := bundled(t, "party/grand-tour.json")
	running := func(want float64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for gaugeValue(t, ts, "tabula_simulations_running") != want {
			if time.Now().After(deadline) {
				t.Fatalf("%v simulations running, want %v", gaugeValue(t, ts, "tabula_simulations_running"), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	first := make(chan int, 1)
	var firstBody []byte
	go func() {
		st, data, _ := simulateDraft(context.Background(), t, ts.hs.URL, long, nil, "")
		firstBody = data
		first <- st
	}()
	running(1)
	second := make(chan int, 1)
	ctx, leave := context.WithCancel(context.Background())
	go func() {
		st, _, _ := simulateDraft(ctx, t, ts.hs.URL, long, nil, "")
		second <- st
	}()
	select {
	case st := <-first:
		if st != http.StatusConflict || !strings.Contains(string(firstBody), `"superseded":true`) {
			t.Errorf("the superseded simulation was answered %d %s", st, firstBody)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a newer draft did not stop the older one's simulation")
	}
	running(1)
	leave() // the page goes away
	<-second
	running(0)
	if n := counterValue(t, ts, `tabula_simulations_total{end="gone"}`); n != 1 {
		t.Errorf("%v simulations stopped because their page went away, want 1", n)
	}
}

// gaugeValue reads one value of the server's metrics.
func gaugeValue(t testing.TB, ts *testServer, name string) float64 {
	t.Helper()
	return counterValue(t, ts, name)
}

func counterValue(t testing.TB, ts *testServer, series string) float64 {
	t.Helper()
	_, data := ts.raw("GET", "/metrics", nil, nil)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			var v float64
			json.Unmarshal([]byte(rest), &v)
			return v
		}
	}
	return 0
}

// A client flooding the simulator is limited (one simulation at a time,
// the rest refused with a time to retry), and a match's commands keep
// their latency meanwhile: the round trip of a command, measured in turns
// with the flood on and off, stays within a small multiple of the quiet
// one.
func TestSimulationFloodKeepsMatchesResponsive(t *testing.T) {
	if testing.Short() {
		t.Skip("measures latencies for a few seconds")
	}
	ts := newTestServer(t, Options{Packs: append(allPacks(), gametest.NewNim()), Bundled: BundledGames{FS: examples.Games, Default: "default"},
		Limits: Limits{Simulation: SimLimits{Games: 100_000_000, CPU: time.Minute, Wall: time.Minute}}})
	board := ts.upload("pile.json", `{"game": "nim", "name": "A big pile", "pile": 1000, "take": 1}`)
	tb := ts.newTable(board, 2, []string{"Ann", "Bob"}, false, true, map[string]any{"maxRounds": 10000})
	players := []*client{ts.dial(tb.ID, q("token", tb.tokens[0])), ts.dial(tb.ID, q("token", tb.tokens[1]))}
	players[0].waitFor("the match", func(s stateIn) bool { return len(s.Legal) > 0 })
	turn := 0
	// roundTrips plays n commands and returns their round trips.
	roundTrips := func(n int) []time.Duration {
		out := make([]time.Duration, 0, n)
		for range n {
			p := players[turn%2]
			p.waitFor("my turn", func(s stateIn) bool { return len(s.Legal) > 0 })
			start := time.Now()
			if m := p.command(json.RawMessage(`{"take":1}`)); m["type"] != "ack" {
				t.Fatalf("a command was not acknowledged: %v", m)
			}
			out = append(out, time.Since(start))
			turn++
		}
		return out
	}
	roundTrips(20) // warm up

	draft, base := bundled(t, "party/grand-tour.json"), ts.hs.URL
	statuses := map[int]int{}
	var mu sync.Mutex
	mostRunning := 0.0
	flood := func(ctx context.Context) *sync.WaitGroup {
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					st, _, _ := simulateDraft(ctx, t, base, draft, nil, "")
					mu.Lock()
					statuses[st]++
					mu.Unlock()
					select {
					case <-ctx.Done():
					case <-time.After(10 * time.Millisecond):
					}
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if r := gaugeValue(t, ts, "tabula_simulations_running"); r > mostRunning {
					mostRunning = r
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
		return &wg
	}

	var quiet, flooded []time.Duration
	gamesBefore := counterValue(t, ts, "tabula_simulation_games_total")
	for range 4 {
		quiet = append(quiet, roundTrips(100)...)
		func() {
			ctx, stop := context.WithCancel(context.Background())
			wg := flood(ctx)
			defer func() {
				stop()
				wg.Wait()
			}()
			// The flood under way: a simulation running (on a busy
			// machine its workers, at the lowest priority, may take a
			// while to start).
			time.Sleep(200 * time.Millisecond)
			for deadline := time.Now().Add(10 * time.Second); gaugeValue(t, ts, "tabula_simulations_running") == 0 && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			flooded = append(flooded, roundTrips(100)...)
		}()
	}
	games := counterValue(t, ts, "tabula_simulation_games_total") - gamesBefore

	q50, q90 := quantiles(quiet)
	f50, f90 := quantiles(flooded)
	t.Logf("command round trip: quiet median %v, p90 %v; during the flood median %v, p90 %v; the flood got %v, simulated %.0f games, at most %.0f at once",
		q50, q90, f50, f90, statuses, games, mostRunning)
	if statuses[http.StatusTooManyRequests] == 0 {
		t.Errorf("the flood was never limited: %v", statuses)
	}
	if mostRunning > float64(ts.srv.limits.Simulation.Workers) {
		t.Errorf("%.0f simulations ran at once, more than the %d workers", mostRunning, ts.srv.limits.Simulation.Workers)
	}
	if mostRunning == 0 {
		t.Errorf("the flood's simulations did not run (%.0f games)", games)
	}
	// Without the limits (every request simulating at once, at the
	// threads' usual priority) the median was 60–80 ms on two cores.
	if f50 > 2*q50+5*time.Millisecond || f90 > 3*q90+20*time.Millisecond {
		t.Errorf("the flood slowed the match's commands: median %v → %v, p90 %v → %v", q50, f50, q90, f90)
	}
}

// quantiles returns the median and the 90th percentile of durations.
func quantiles(ds []time.Duration) (p50, p90 time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*9/10]
}
