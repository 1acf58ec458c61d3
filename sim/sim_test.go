package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func nim(t testing.TB) game.Definition {
	t.Helper()
	return gametest.Load(t, gametest.NewNim(), "../game/gametest/testdata/twenty-one.json")
}

func random(int) Bot { return RandomBot{} }

// run runs a simulation that must not fail to start.
func run(t testing.TB, def game.Definition, cfg Config) *Report {
	t.Helper()
	r, err := Run(context.Background(), def, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// stable is the report's JSON without its timing.
func stable(t testing.TB, r *Report) string {
	t.Helper()
	c := *r
	c.Timing = nil
	data, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

// mixedPlan has games of every kind, by their seed: won, drawn, stopped
// by the round limit, and broken in each way a game can break.
func mixedPlan(seed uint64) plan {
	switch seed % 16 {
	case 0:
		return plan{fail: "error", failAt: 3}
	case 1:
		return plan{fail: "panic", failAt: 2}
	case 2:
		return plan{fail: "reject", failAt: 5}
	case 3:
		return plan{fail: "stuck", failAt: 4}
	case 4:
		return plan{fail: "winner", failAt: 2}
	case 5, 6:
		return plan{} // never ends: the round limit stops it
	case 7:
		return plan{length: 3 + int(seed%5), winner: -1}
	}
	return plan{length: 2 + int(seed%9), winner: int(seed/16) % 3}
}

// mixedTally tallies three pieces, one of them told twice, and a fourth in
// one game out of two.
func mixedTally(seed uint64) []game.Tally {
	out := []game.Tally{
		{Name: "Odin", Kind: "drone", Seat: 0, Firings: 2, Damage: 3, Kills: 1},
		{Name: "goblin", Kind: "character", Seat: -1, Firings: 1, Damage: 1},
		{Name: "goblin", Kind: "character", Seat: -1, Firings: 1, Damage: 2, Kills: 1},
		{Name: "Ace", Kind: "drone", Seat: 1, Firings: int(seed % 3)},
	}
	if seed%2 == 1 {
		out = append(out, game.Tally{Name: "trap", Kind: "space", Seat: -1, Firings: 1, Kills: 1})
	}
	return out
}

func mixed() *relay {
	return &relay{min: 1, max: 4, defaultRounds: 6, plan: mixedPlan, tally: mixedTally}
}

func TestSameReportWhateverTheWorkers(t *testing.T) {
	for _, tc := range []struct {
		name string
		def  game.Definition
		cfg  Config
	}{
		{"nim, random bots, rotated", nim(t), Config{Games: 700, Players: []string{"Ann", "Bob", "Cy"}, Seed: 42, Rotate: true, Bots: random}},
		{"nim, pack bots", nim(t), Config{Games: 300, Players: []string{"Ann", "Bob"}, Seed: 3}},
		{"relay, every ending", mixed(), Config{Games: 500, Players: []string{"A", "B", "C"}, Seed: 9, Rotate: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want string
			for _, workers := range []int{1, 2, 3, 8} {
				cfg := tc.cfg
				cfg.Workers = workers
				got := stable(t, run(t, tc.def, cfg))
				if want == "" {
					want = got
				} else if got != want {
					t.Fatalf("with %d workers the report differs from that of 1 worker:\n%s\nwant:\n%s", workers, got, want)
				}
			}
		})
	}
}

func TestInterruptedRunReportsTheFirstGames(t *testing.T) {
	def := nim(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Games: 5000, Players: []string{"Ann", "Bob", "Cy"}, Seed: 5, Workers: 3, Bots: random, Rotate: true}
	var seen []int
	cfg.Progress = func(done int) {
		seen = append(seen, done)
		if done >= 100 {
			cancel()
		}
	}
	r, err := Run(ctx, def, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Requested != 5000 || r.Games < 100 || r.Games >= 5000 {
		t.Fatalf("interrupted %v, %d of %d games; want interrupted, at least 100 of 5000", r.Interrupted, r.Games, r.Requested)
	}
	if last := seen[len(seen)-1]; last != r.Games {
		t.Errorf("the last progress said %d games; the report has %d", last, r.Games)
	}
	for k := 1; k < len(seen); k++ {
		if seen[k] <= seen[k-1] {
			t.Errorf("progress went from %d to %d", seen[k-1], seen[k])
		}
	}
	// The games reported are the first ones: a run of that many games
	// reports the same.
	cfg.Games, cfg.Progress = r.Games, nil
	whole := run(t, def, cfg)
	r.Requested, r.Interrupted = whole.Requested, whole.Interrupted
	if got, want := stable(t, r), stable(t, whole); got != want {
		t.Errorf("the interrupted run reports\n%s\nwhereas a run of its %d games reports\n%s", got, r.Games, want)
	}
}

// BeforeGame is called once before every game, on the worker that plays
// it; a server stops a run from there when the worker used its share.
func TestBeforeGameRunsBeforeEachGameAndMayStopTheRun(t *testing.T) {
	calls := 0
	cfg := Config{Games: 200, Players: []string{"Ann", "Bob"}, Seed: 3, Workers: 1, Bots: random,
		BeforeGame: func() { calls++ }}
	if r := run(t, nim(t), cfg); calls != 200 || r.Games != 200 {
		t.Fatalf("BeforeGame was called %d times for %d games; want 200", calls, r.Games)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls = 0
	cfg.BeforeGame = func() {
		if calls++; calls == 40 {
			cancel()
		}
	}
	r, err := Run(ctx, nim(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Games != 39 {
		t.Errorf("cancelled before game 40: interrupted %v, %d games; want interrupted, 39 games", r.Interrupted, r.Games)
	}
}

func TestCancelledBeforeStartReportsNoGame(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Run(ctx, nim(t), Config{Games: 100, Players: []string{"Ann", "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Games != 0 || r.Requested != 100 {
		t.Errorf("interrupted %v, %d of %d games; want interrupted, 0 of 100", r.Interrupted, r.Games, r.Requested)
	}
}

// TestWilson checks the interval against the values statistics tables
// give for the score interval without continuity correction, to four
// decimals.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n            int
		rate, low, high float64
	}{
		{0, 0, 0, 0, 1},
		{0, 10, 0, 0, 0.2775},
		{1, 10, 0.1, 0.0179, 0.4042},
		{5, 10, 0.5, 0.2366, 0.7634},
		{10, 10, 1, 0.7225, 1},
		{1, 1, 1, 0.2065, 1},
		{50, 100, 0.5, 0.4038, 0.5962},
		{81, 263, 0.308, 0.2553, 0.3662},
		{15, 148, 0.1014, 0.0624, 0.1605},
		{0, 20, 0, 0, 0.1611},
		{1, 29, 0.0345, 0.0061, 0.1718},
	} {
		rate, low, high := Wilson(tc.k, tc.n)
		if math.Abs(rate-tc.rate) > 5e-4 || math.Abs(low-tc.low) > 5e-5 || math.Abs(high-tc.high) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = %.4f [%.4f, %.4f]; want %.4f [%.4f, %.4f]", tc.k, tc.n, rate, low, high, tc.rate, tc.low, tc.high)
		}
	}
}

func TestRoundLimit(t *testing.T) {
	never := func(uint64) plan { return plan{} }
	for _, tc := range []struct {
		name      string
		def       *relay
		maxRounds int
		limit     int
		rounds    int
	}{
		{"the game's default", &relay{min: 2, max: 2, defaultRounds: 10, plan: never}, 0, 10, 10},
		{"the configuration's", &relay{min: 2, max: 2, defaultRounds: 10, plan: never}, 3, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.def, Config{Games: 40, Players: []string{"A", "B"}, MaxRounds: tc.maxRounds})
			want := RoundLimit{Games: 40, Limit: tc.limit, Reasons: []Count{{Name: "the round limit was reached", Count: 40}}}
			if got := r.RoundLimit; !equalJSON(got, want) {
				t.Errorf("round limit %+v; want %+v", got, want)
			}
			if r.MaxRounds != tc.limit || r.Finished != 0 || r.Failed.Games != 0 || r.Decided != 0 || r.Played() != 40 {
				t.Errorf("max rounds %d, finished %d, failed %d, decided %d, played %d; want %d, 0, 0, 0, 40",
					r.MaxRounds, r.Finished, r.Failed.Games, r.Decided, r.Played(), tc.limit)
			}
			want2 := "40 of 40 games hit the round limit of " + strconv.Itoa(tc.limit) + ": the round limit was reached."
			if got := r.LimitSentence(); got != want2 {
				t.Errorf("LimitSentence() = %q; want %q", got, want2)
			}
		})
	}
}

func TestAGameWithoutEndFailsAtTheCommandLimit(t *testing.T) {
	def := &relay{min: 2, max: 2, plan: func(uint64) plan { return plan{} }}
	r := run(t, def, Config{Games: 20, Players: []string{"A", "B"}, MaxCommands: 50})
	if r.Failed.Games != 20 || len(r.Failed.First) != MaxFailures || r.RoundLimit.Games != 0 || r.MaxRounds != 0 {
		t.Fatalf("failed %d (%d told), round limit %d of %d; want 20 (%d told), none with no limit",
			r.Failed.Games, len(r.Failed.First), r.RoundLimit.Games, r.MaxRounds, MaxFailures)
	}
	if got, want := r.Failed.First[0].Error, "still going after 50 commands, in round 26"; got != want {
		t.Errorf("error %q; want %q", got, want)
	}
}

func TestFailedGamesAreCountedAndTold(t *testing.T) {
	const games, seed = 400, 11
	r := run(t, mixed(), Config{Games: games, Players: []string{"A", "B", "C"}, Seed: seed, Workers: 3})
	// What each game does follows from its seed alone.
	var failed, limit, drawn, won []int
	for i := range games {
		switch p := mixedPlan(GameSeed(seed, i)); {
		case p.fail != "":
			failed = append(failed, i)
		case p.length == 0:
			limit = append(limit, i)
		case p.winner < 0:
			drawn = append(drawn, i)
		default:
			won = append(won, i)
		}
	}
	if r.Games != games || r.Failed.Games != len(failed) || r.RoundLimit.Games != len(limit) || r.Draws != len(drawn) ||
		r.Decided != len(won) || r.Finished != len(drawn)+len(won) {
		t.Fatalf("games %d, failed %d, round limit %d, draws %d, decided %d, finished %d; want %d, %d, %d, %d, %d, %d",
			r.Games, r.Failed.Games, r.RoundLimit.Games, r.Draws, r.Decided, r.Finished,
			games, len(failed), len(limit), len(drawn), len(won), len(drawn)+len(won))
	}
	if len(r.Failed.First) != MaxFailures {
		t.Fatalf("%d failures told; want %d", len(r.Failed.First), MaxFailures)
	}
	wantErr := map[string]string{
		"error":  "C (seat 3) played {\"go\":true}: the table collapsed",
		"panic":  "panic: the relay baton broke",
		"reject": "the bot of B (seat 2) played {\"go\":true}, which the game refused: rejected: no more going today",
		"stuck":  "the game waits for nobody but is not over",
		"winner": "the outcome names seat index 3 among the winners; the 3 seats are 0 to 2",
	}
	for k, f := range r.Failed.First {
		i := failed[k]
		p := mixedPlan(GameSeed(seed, i))
		if f.Game != i || f.Seed != GameSeed(seed, i) || f.Error != wantErr[p.fail] || strings.Join(f.Players, ",") != "A,B,C" {
			t.Errorf("failure %d: %+v; want game %d, seed %d, players A,B,C, error %q", k, f, i, GameSeed(seed, i), wantErr[p.fail])
		}
	}
}

func TestTalliesAreSummed(t *testing.T) {
	const games, seed = 300, 2
	def := mixed()
	r := run(t, def, Config{Games: games, Players: []string{"A", "B"}, Seed: seed})
	// Only games played to their end count.
	type sum struct{ games, firings, damage, kills int64 }
	want := map[[2]string]*sum{}
	var order [][2]string
	played := 0
	for i := range games {
		s := GameSeed(seed, i)
		if mixedPlan(s).fail != "" {
			continue
		}
		played++
		counted := map[[2]string]bool{}
		for _, tl := range mixedTally(s) {
			k := [2]string{tl.Kind, tl.Name}
			if want[k] == nil {
				want[k] = &sum{}
			}
			if !counted[k] {
				counted[k] = true
				want[k].games++
			}
			want[k].firings += int64(tl.Firings)
			want[k].damage += int64(tl.Damage)
			want[k].kills += int64(tl.Kills)
		}
	}
	order = [][2]string{{"character", "goblin"}, {"drone", "Ace"}, {"drone", "Odin"}, {"space", "trap"}}
	if r.Played() != played || len(r.Pieces) != len(order) {
		t.Fatalf("%d games played, %d pieces; want %d, %d:\n%+v", r.Played(), len(r.Pieces), played, len(order), r.Pieces)
	}
	for k, p := range r.Pieces {
		w := want[order[k]]
		perGame := func(n int64) float64 { return math.Round(1000*float64(n)/float64(played)) / 1000 }
		if p.Kind != order[k][0] || p.Name != order[k][1] || int64(p.Games) != w.games ||
			p.Firings != w.firings || p.Damage != w.damage || p.Kills != w.kills ||
			p.FiringsPerGame != perGame(w.firings) || p.DamagePerGame != perGame(w.damage) || p.KillsPerGame != perGame(w.kills) {
			t.Errorf("piece %d: %+v; want %s %s, %+v over %d games", k, p, order[k][0], order[k][1], *w, played)
		}
	}
}

func TestRotationSharesTheFirstSeat(t *testing.T) {
	// Nim's own bot plays perfectly, and the first player of Twenty-one
	// wins with perfect play: without rotation Ann wins every game.
	def := nim(t)
	for _, tc := range []struct {
		rotate    bool
		seats     []int
		positions []int
	}{
		{false, []int{100, 0}, nil},
		{true, []int{50, 50}, []int{100, 0}},
	} {
		r := run(t, def, Config{Games: 100, Players: []string{"Ann", "Bob"}, Rotate: tc.rotate})
		var seats, positions []int
		for _, w := range r.Seats {
			seats = append(seats, w.Wins)
		}
		for _, w := range r.Positions {
			positions = append(positions, w.Wins)
		}
		if !equalJSON(seats, tc.seats) || !equalJSON(positions, tc.positions) || r.Rotate != tc.rotate {
			t.Errorf("rotate %v: wins by player %v, by seat %v; want %v, %v", tc.rotate, seats, positions, tc.seats, tc.positions)
		}
	}
}

func TestPositionsNameTheGamesSeats(t *testing.T) {
	def := &relay{min: 2, max: 2, roles: []string{"heroes", "monsters"}}
	r := run(t, def, Config{Games: 10, Players: []string{"Ann", "Bob"}, Rotate: true})
	var names []string
	for _, w := range r.Positions {
		names = append(names, w.Name)
	}
	if got, want := strings.Join(names, ", "), "seat 1 (heroes), seat 2 (monsters)"; got != want {
		t.Errorf("positions %q; want %q", got, want)
	}
}

// takeOne is a Nim bot that always takes one counter.
type takeOne struct{}

func (takeOne) Command(m game.Match, seat int, _ *rng.Stream) (json.RawMessage, bool) {
	if len(m.Legal(seat)) == 0 {
		return nil, false
	}
	return json.RawMessage(`{"take":1}`), true
}

func TestBotsFollowThePlayers(t *testing.T) {
	// Ann plays perfectly and Bob always takes one: Ann wins from either
	// seat.
	bots := func(player int) Bot {
		if player == 0 {
			return PackBot{}
		}
		return takeOne{}
	}
	r := run(t, nim(t), Config{Games: 64, Players: []string{"Ann", "Bob"}, Rotate: true, Bots: bots})
	if r.Seats[0].Wins != 64 || r.Positions[0].Wins != 32 {
		t.Errorf("Ann won %d games, seat 1 %d; want 64 and 32", r.Seats[0].Wins, r.Positions[0].Wins)
	}
}

func TestConfigurationMistakes(t *testing.T) {
	def := nim(t)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Games: 1}, "at least one player"},
		{Config{Games: -1, Players: []string{"A", "B"}}, "must not be negative"},
		{Config{Games: 1, Players: []string{"A", "B"}, MaxRounds: -2}, "round limit must not be negative"},
		{Config{Games: 1, Players: []string{"A", "B", "C", "D", "E"}}, "Twenty-one is for 2 to 4 players, not 5"},
		{Config{Games: 1, Players: []string{"A", "A"}}, "A"},
	} {
		_, err := Run(context.Background(), def, tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v; want one saying %q", tc.cfg, err, tc.want)
		}
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what the report writes now (run the tests with -update to see how):\n%s", path, got)
	}
}

// goldenRuns are the runs whose reports are golden files.
func goldenRuns(t *testing.T) map[string]*Report {
	return map[string]*Report{
		"nim-rotated": run(t, nim(t), Config{Games: 200, Players: []string{"Ann", "Bob", "Cy"}, Seed: 7, Rotate: true, Bots: random}),
		"relay-mixed": run(t, mixed(), Config{Games: 200, Players: []string{"Ann", "Bob", "Cy"}, Seed: 11}),
	}
}

func TestGoldenReports(t *testing.T) {
	for name, r := range goldenRuns(t) {
		r.Timing = nil
		var text, page bytes.Buffer
		if err := r.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteHTML(&page); err != nil {
			t.Fatal(err)
		}
		golden(t, name+".txt", text.String())
		golden(t, name+".html", page.String())
		golden(t, name+".json", stable(t, r))
	}
}

func TestHTMLLoadsNothingFromElsewhere(t *testing.T) {
	for name, r := range goldenRuns(t) {
		var page bytes.Buffer
		if err := r.WriteHTML(&page); err != nil {
			t.Fatal(err)
		}
		html := strings.ToLower(page.String())
		for _, bad := range []string{"://", "src=", "href=", "url(", "@import", "<link", "<img", "<iframe"} {
			if strings.Contains(html, bad) {
				t.Errorf("%s: the page has %q: it must need nothing from elsewhere", name, bad)
			}
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
