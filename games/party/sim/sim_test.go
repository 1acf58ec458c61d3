package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/party"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// testPack compiles the boards of the tests.
var testPack = party.NewPack()

func defaultBoard(tb testing.TB) *party.Definition {
	tb.Helper()
	d, list := testPack.LoadFile("../../../examples/party/default.json")
	if d == nil {
		tb.Fatal(list)
	}
	return d
}

// space builds a space of a test board.
func space(id string, to []string, events ...party.Event) party.Space {
	s := party.Space{ID: id, Name: "S" + id, Events: events}
	for _, t := range to {
		s.Connections = append(s.Connections, party.Connection{Target: t, Draw: true})
	}
	return s
}

func event(trigger, action string, args any) party.Event {
	return party.Event{Trigger: trigger, Action: party.Action{Type: action, Args: args}, Priority: engine.Mid}
}

// tinyBoard compiles a board whose single die has one side, so that every
// game is the same and the summary can be worked out by hand.
func tinyBoard(t *testing.T, spaces ...party.Space) *party.Definition {
	t.Helper()
	b := &party.Board{File: "tiny.json", Name: "Tiny", Spaces: spaces,
		Rules: party.GameRules{Dice: party.Dice{Count: 1, Sides: 1}, Start: party.StartingPositions{Mode: "single"}}}
	d, err := testPack.Compile(b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func run(t *testing.T, def *party.Definition, cfg Config) *Summary {
	t.Helper()
	s, err := Run(context.Background(), def, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Timing = nil
	return s
}

// TestSummaryOfALine works out by hand what happens on a board of two
// spaces when every roll is 1: each player steps onto the finish, drinks
// once there, finishes and prompts everybody; the first seat wins every
// game in two turns of one round.
func TestSummaryOfALine(t *testing.T) {
	def := tinyBoard(t,
		space("1", []string{"2"}),
		space("2", nil,
			event(party.OnEnter, party.ChangeStat, party.ChangeStatArgs{Stat: "drinks", Delta: 1}),
			event(party.OnLand, party.SetPlayerState, party.StateArgs{State: party.CompletedGame}),
			event(party.OnLand, party.PromptAllPlayers, party.PromptArgs{Message: "Cheers, {{CURRENT_PLAYER_NAME}}"})))
	s := run(t, def, Config{Games: 40, Players: []string{"Ann", "Bob"}, Seed: 3, Workers: 2})

	if s.Games != 40 || s.Finished != 40 || s.Capped != 0 || s.Stalled != 0 || s.Failed != 0 || s.Interrupted {
		t.Errorf("games %d: finished %d, capped %d, stalled %d, failed %d, interrupted %v; want 40 finished",
			s.Games, s.Finished, s.Capped, s.Stalled, s.Failed, s.Interrupted)
	}
	one := func(v int) Distribution {
		return Distribution{Min: v, Median: v, P90: v, Max: v, Mean: float64(v), Histogram: []Bin{{From: v, To: v, Games: 40}}}
	}
	if !reflect.DeepEqual(s.Length, Length{Turns: one(2), Rounds: one(1)}) {
		t.Errorf("length %+v, want 2 turns in 1 round every game", s.Length)
	}
	// Wilson's interval for 40 wins in 40 games is [40/(40+z²), 1].
	wantSeats := []Seat{
		{Seat: 1, Name: "Ann", Wins: 40, WinRate: 1, Low: 0.9124, High: 1, Prompts: 2,
			Stats: []Stat{{Name: "drinks", Mean: 1, Max: 1}}, Effects: []Rate{}},
		{Seat: 2, Name: "Bob", Wins: 0, WinRate: 0, Low: 0, High: 0.0876, Prompts: 2,
			Stats: []Stat{{Name: "drinks", Mean: 1, Max: 1}}, Effects: []Rate{}},
	}
	if s.Decided != 40 || s.FairShare != 0.5 || !reflect.DeepEqual(s.Seats, wantSeats) {
		t.Errorf("decided %d, fair share %v, seats:\n%+v\nwant\n%+v", s.Decided, s.FairShare, s.Seats, wantSeats)
	}
	wantSpaces := []Space{
		{ID: "1", Name: "S1", Events: []Event{}},
		{ID: "2", Name: "S2", Landings: 80, LandingsPerGame: 2, Entries: 80, EntriesPerGame: 2, Fired: 240, FiredPerGame: 6,
			Events: []Event{{0, party.OnEnter, party.ChangeStat, 80}, {1, party.OnLand, party.SetPlayerState, 80}, {2, party.OnLand, party.PromptAllPlayers, 80}}},
	}
	if !reflect.DeepEqual(s.Spaces, wantSpaces) {
		t.Errorf("spaces:\n%+v\nwant\n%+v", s.Spaces, wantSpaces)
	}
	wantActions := []Count{{party.PromptAllPlayers, 80}, {party.SetPlayerState, 80}, {party.ChangeStat, 80}}
	if !reflect.DeepEqual(s.Actions, wantActions) {
		t.Errorf("actions %+v, want %+v", s.Actions, wantActions)
	}
}

// TestGamesStopAtTheRoundCap: on a loop that nothing ends, every game
// stops at the cap; in three rounds each of two players lands on 2, 1, 2.
func TestGamesStopAtTheRoundCap(t *testing.T) {
	def := tinyBoard(t, space("1", []string{"2"}), space("2", []string{"1"}))
	s := run(t, def, Config{Games: 10, Players: []string{"P1", "P2"}, MaxRounds: 3})
	if s.Capped != 10 || s.Finished != 0 || s.Decided != 0 {
		t.Errorf("capped %d, finished %d, decided %d; want 10 capped", s.Capped, s.Finished, s.Decided)
	}
	if empty := (Distribution{Histogram: []Bin{}}); !reflect.DeepEqual(s.Length, Length{Turns: empty, Rounds: empty}) {
		t.Errorf("length of no finished game: %+v", s.Length)
	}
	if got := []float64{s.Spaces[0].LandingsPerGame, s.Spaces[1].LandingsPerGame}; !slices.Equal(got, []float64{2, 4}) {
		t.Errorf("landings per game %v, want [2 4]", got)
	}
	if st := s.Seats[0]; st.WinRate != 0 || st.Low != 0 || st.High != 1 {
		t.Errorf("win rate of no decided game: %+v, want 0 in [0, 1]", st)
	}
}

// TestEndlessRepeatsStall: a player who repeats their turn forever never
// lets the round end; the game stops at the turn limit as stalled.
func TestEndlessRepeatsStall(t *testing.T) {
	repeat := party.EffectArgs{Effect: party.PlayerEffect{Type: "RepeatTurnsEffect", Kind: party.RepeatTurns, Turns: 1}}
	def := tinyBoard(t, space("1", []string{"2"}), space("2", nil, event(party.OnLand, party.ApplyEffect, repeat)))
	s := run(t, def, Config{Games: 3, Players: []string{"Solo"}, MaxRounds: 2})
	if s.Stalled != 3 || s.Finished+s.Capped+s.Failed != 0 {
		t.Errorf("stalled %d, finished %d, capped %d, failed %d; want 3 stalled", s.Stalled, s.Finished, s.Capped, s.Failed)
	}
	if fx := s.Seats[0].Effects; len(fx) != 1 || fx[0].Name != party.RepeatTurns || fx[0].PerGame != 2*TurnsPerRound {
		t.Errorf("effects %+v, want RepeatTurns %d times per game", fx, 2*TurnsPerRound)
	}
}

// TestBrokenGamesAreReported: a condition that fails from the second turn
// on breaks every game; the summary counts them and names the first.
func TestBrokenGamesAreReported(t *testing.T) {
	b, list := party.Parse("broken.json", []byte(`{"spaces": [
		{"id": 1, "connections": [{"targetId": 2}]},
		{"id": 2, "connections": [{"targetId": 1}], "events": [{"trigger": {"type": "CODE", "payload": "game.turnNumber > 1 && player.stats.drinks > 0"},
			"action": {"type": "PROMPT_CURRENT_PLAYER", "payload": {"message": "hi"}}}]}]}`))
	if list.HasErrors() {
		t.Fatal(list)
	}
	def, err := testPack.Compile(b)
	if err != nil {
		t.Fatal(err)
	}
	s := run(t, def, Config{Games: 5, Players: []string{"A", "B"}, Seed: 9, Workers: 2})
	if s.Failed != 5 || s.FirstFailure == nil || s.FirstFailure.Game != 0 || s.FirstFailure.Seed != GameSeed(9, 0) ||
		!strings.Contains(s.FirstFailure.Message, "drinks") {
		t.Errorf("failed %d, first failure %+v; want 5 failed, the first game named", s.Failed, s.FirstFailure)
	}
}

// TestSameSummaryWhateverTheWorkers: everything but the timing is the
// same with any number of workers, for a number of games that is not a
// multiple of the batch size.
func TestSameSummaryWhateverTheWorkers(t *testing.T) {
	def := defaultBoard(t)
	var want []byte
	for _, w := range []int{1, 2, 3, 7} {
		s := run(t, def, Config{Games: 333, Players: []string{"A", "B", "C"}, Seed: 77, Workers: w})
		got, _ := json.Marshal(s)
		if want == nil {
			want = got
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("workers=%d gives another summary:\n%s\nwant\n%s", w, got, want)
		}
	}
}

// TestLogOffSameSummary: the simulator's matches keep no log and count its
// records as they are made; matches that keep their whole log, counted
// after each command, give the same summary.
func TestLogOffSameSummary(t *testing.T) {
	boards, _ := filepath.Glob("../../../examples/party/*.json")
	if len(boards) < 3 {
		t.Fatalf("found %d boards: %v", len(boards), boards)
	}
	for _, file := range boards {
		def, _ := testPack.LoadFile(file)
		if def == nil {
			continue // not a board on its own
		}
		cfg := Config{Games: 300, Players: []string{"A", "B", "C"}, Seed: 5, Workers: 2, MaxRounds: 30}
		off, _ := json.Marshal(run(t, def, cfg))
		cfg.keepLog = true
		on, _ := json.Marshal(run(t, def, cfg))
		if !bytes.Equal(off, on) {
			t.Errorf("%s: the log off gives another summary:\n%s\nwant\n%s", file, off, on)
		}
	}
}

// TestJSONGolden holds the JSON document of a simulation of the default
// board to a golden file: its shape and its figures are stable.
func TestJSONGolden(t *testing.T) {
	def := defaultBoard(t)
	s := run(t, def, Config{Games: 200, Players: []string{"P1", "P2", "P3", "P4"}, Seed: 1, Workers: 2})
	s.Board.File = "examples/party/default.json"
	got, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "default-200.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the summary differs from %s (go test -update rewrites it after a deliberate change):\n%s", golden, got)
	}
	// The timing, when present, is the only other member.
	s.Timing = &Timing{Workers: 1}
	js, _ := json.Marshal(s)
	var m map[string]any
	json.Unmarshal(js, &m)
	if _, ok := m["timing"]; !ok {
		t.Error("no timing member")
	}
}

// TestInterruptedRunSummarisesTheFirstGames: a cancelled run reports the
// first games, in order, exactly as a run of that many games would.
func TestInterruptedRunSummarisesTheFirstGames(t *testing.T) {
	def := defaultBoard(t)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Games: 100_000, Players: []string{"A", "B"}, Seed: 5, Workers: 2,
		Progress: func(done int) {
			if done >= 3*batch {
				cancel()
			}
		}}
	s, err := Run(ctx, def, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Interrupted || s.Games < 3*batch || s.Games >= cfg.Games || s.Requested != cfg.Games {
		t.Fatalf("interrupted %v after %d of %d games", s.Interrupted, s.Games, s.Requested)
	}
	want := run(t, def, Config{Games: s.Games, Players: cfg.Players, Seed: cfg.Seed, Workers: 1})
	s.Timing, s.Interrupted, s.Requested = nil, false, s.Games
	if !reflect.DeepEqual(s, want) {
		t.Errorf("interrupted summary differs from a run of %d games", s.Games)
	}
}

// TestMemoryStaysFlat: the heap after many games is what it was after a
// few; the summary does not grow with the number of games.
func TestMemoryStaysFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 40,000 games")
	}
	def := defaultBoard(t)
	var early, late runtime.MemStats
	marks := map[int]*runtime.MemStats{2048: &early, 40_000: &late}
	_, err := Run(context.Background(), def, Config{Games: 40_000, Players: []string{"A", "B", "C", "D"}, Workers: 2,
		Progress: func(done int) {
			if ms, ok := marks[done]; ok {
				runtime.GC()
				runtime.ReadMemStats(ms)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if early.HeapAlloc == 0 || late.HeapAlloc == 0 {
		t.Fatal("the heap was not measured")
	}
	grew := int64(late.HeapAlloc) - int64(early.HeapAlloc)
	t.Logf("heap after 2,048 games: %d KiB; after 40,000: %d KiB", early.HeapAlloc>>10, late.HeapAlloc>>10)
	if grew > 256<<10 {
		t.Errorf("the heap grew by %d KiB between 2,048 and 40,000 games", grew>>10)
	}
}

func TestConfigErrors(t *testing.T) {
	def := defaultBoard(t)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Games: -1, Players: []string{"A"}}, "negative"},
		{Config{Games: 1}, "at least one player"},
		{Config{Games: 1, Players: []string{"A", "A"}}, `two players are called "A"`},
		{Config{Games: 1, Players: []string{"A"}, MaxRounds: -2}, "round cap"},
	} {
		if _, err := Run(context.Background(), def, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.cfg, err, c.want)
		}
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n            int64
		rate, low, high float64
	}{
		{0, 10, 0, 0, 0.2775},
		{5, 10, 0.5, 0.2366, 0.7634},
		{10, 10, 1, 0.7225, 1},
		{250, 1000, 0.25, 0.2242, 0.2778},
		{0, 0, 0, 0, 1},
	} {
		r, lo, hi := wilson(c.k, c.n)
		if round(r, 4) != c.rate || round(lo, 4) != c.low || round(hi, 4) != c.high {
			t.Errorf("wilson(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", c.k, c.n, r, lo, hi, c.rate, c.low, c.high)
		}
	}
}

func TestDistribution(t *testing.T) {
	h := newHist(100)
	for v := 1; v <= 10; v++ {
		h.add(v)
	}
	d := h.distribution()
	if d.Min != 1 || d.Median != 5 || d.P90 != 9 || d.Max != 10 || d.Mean != 5.5 || len(d.Histogram) != 10 {
		t.Errorf("1..10: %+v, want min 1, median 5, p90 9, max 10, mean 5.5, 10 bins", d)
	}
	h = newHist(1000)
	for v := range 100 {
		h.add(3 + v*7)
	}
	d = h.distribution()
	total := 0
	for i, b := range d.Histogram {
		total += b.Games
		if i > 0 && b.From != d.Histogram[i-1].To+1 {
			t.Errorf("bins %+v and %+v are not adjacent", d.Histogram[i-1], b)
		}
	}
	if len(d.Histogram) > MaxBins || total != 100 || d.Histogram[0].From != 3 || d.Histogram[len(d.Histogram)-1].To != 696 {
		t.Errorf("a wide range: %d bins covering %d values: %+v", len(d.Histogram), total, d.Histogram)
	}
}

func TestGameSeedsDiffer(t *testing.T) {
	seen := map[uint64]bool{}
	for master := range uint64(4) {
		for i := range 1000 {
			s := GameSeed(master, i)
			if seen[s] {
				t.Fatalf("seed %d repeats (master %d, game %d)", s, master, i)
			}
			seen[s] = true
		}
	}
}

// TestBotOptionsPlayTheSameGame: leaving prompts unexpanded and
// acknowledging them at once change no dice, path, stat or outcome of a
// match.
func TestBotOptionsPlayTheSameGame(t *testing.T) {
	def := defaultBoard(t)
	players := []string{"A", "B", "C"}
	p, err := newRunner(def, Config{Players: players, MaxRounds: 50})
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(30) {
		var want string
		for _, opt := range []party.Options{{}, {SkipText: true}, {AutoAck: true}, {SkipText: true, AutoAck: true}} {
			g, err := def.NewMatch(game.Setup{Players: players, Seed: seed, MaxRounds: 50}, opt)
			if err != nil {
				t.Fatal(err)
			}
			bots := newBots(seed)
			for !g.State().Over {
				if err := p.step(g, bots); err != nil {
					t.Fatal(err)
				}
			}
			var b strings.Builder
			for _, f := range g.Firings() {
				fmt.Fprintf(&b, "%d %s\n", f.Player, g.FiringLine(f))
			}
			fmt.Fprintf(&b, "%+v %v %d", g.State().Players, g.State().Winners, g.State().Turn)
			if want == "" {
				want = b.String()
			} else if b.String() != want {
				t.Fatalf("seed %d, %+v:\n%s\nwant\n%s", seed, opt, b.String(), want)
			}
		}
	}
}

// TestHTMLReport checks that the page is well formed (it parses as XML),
// loads nothing from elsewhere, and draws the board three times.
func TestHTMLReport(t *testing.T) {
	def := defaultBoard(t)
	s, err := Run(context.Background(), def, Config{Games: 100, Players: []string{"Ann", "Bob <b>", "Cy & co"}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.WriteHTML(&buf, def.Board); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	dec := xml.NewDecoder(strings.NewReader(page))
	dec.Strict = true
	circles, stack := 0, []string{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well formed: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
			if e.Name.Local == "circle" {
				circles++
			}
			switch e.Name.Local {
			case "script", "link", "img", "iframe", "object", "embed":
				t.Errorf("the page has a <%s> element", e.Name.Local)
			}
			for _, a := range e.Attr {
				if (a.Name.Local == "src" || a.Name.Local == "href") && !strings.HasPrefix(a.Value, "#") {
					t.Errorf("<%s %s=%q> refers to another resource", e.Name.Local, a.Name.Local, a.Value)
				}
			}
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1] != e.Name.Local {
				t.Fatalf("</%s> closes %v", e.Name.Local, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Errorf("elements left open: %v", stack)
	}
	if want := 3 * len(def.Board.Spaces); circles != want {
		t.Errorf("%d circles, want %d (the board drawn three times)", circles, want)
	}
	for _, bad := range []string{"http:", "https:", "@import", "ZgotmplZ", "Bob <b>"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	for _, want := range []string{"Bob &lt;b&gt;", "Nap time", "Does seat order matter?", "median "} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
