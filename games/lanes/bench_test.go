package lanes

import (
	"errors"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// midGame is a board in the middle of a game: about 50 cards in each deck,
// 5 in each hand, two or three drones in each lane. A's Anansi is in lane
// 2 and A's Odin in lane 1; extra drones are added to A's lane 2.
func midGame(tb testing.TB, extraLane2 ...DroneSpec) *Scenario {
	var deck []string
	cards := bundled(tb).Cards
	for i := range 50 {
		deck = append(deck, cards[i%len(cards)].ID)
	}
	ds := func(names ...string) []DroneSpec {
		var out []DroneSpec
		for _, n := range names {
			out = append(out, DroneSpec{Drone: n})
		}
		return out
	}
	eight := 8
	return &Scenario{Seed: 1, Setup: SetupSpec{Players: map[string]PlayerSpec{
		"A": {Energy: &eight, Deck: deck,
			Hand:  []string{"Deploy_Proximity_Mine", "Laser_Blast", "Intel_Report", "Overcharge", "Tractor_Beam"},
			Lanes: map[int][]DroneSpec{1: ds("Gladiator", "Odin"), 2: append(ds("Thor", "Anansi", "War Machine"), extraLane2...), 3: ds("Osiris", "Specter", "Scanner")}},
		"B": {Energy: &eight, Deck: deck,
			Hand:  []string{"Laser_Blast", "Intel_Report", "Overcharge", "Reposition", "Power_Surge"},
			Lanes: map[int][]DroneSpec{1: ds("Firefly", "Gladiator"), 2: ds("War Machine", "Osiris"), 3: ds("Thor", "Specter", "Signal Beacon")}},
	}}}
}

var (
	playMine = Command{Do: "play", Card: "Proximity Mine", Lane: 2}
	// moveIntoMine moves A's Gladiator (the first drone of the board; B's
	// is "Gladiator 2") from lane 1 into lane 2.
	moveIntoMine = Command{Do: "move", Drone: "Gladiator", Lane: 2}
)

func startMid(tb testing.TB, sc *Scenario) *scenarioRun {
	run, err := sc.startWith(bundled(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

// TestBenchmarkBoards checks that the benchmarks measure what they say.
func TestBenchmarkBoards(t *testing.T) {
	run := startMid(t, midGame(t))
	if err := run.m.Play(0, playMine); err != nil {
		t.Fatal(err)
	}
	if got, want := run.m.trace(run.from), []string{"Anansi←system@1", "Odin←Anansi@2"}; !slices.Equal(got, want) {
		t.Errorf("mine card: trace %q, want %q", got, want)
	}
	run = startMid(t, midGame(t, DroneSpec{Drone: "Proximity Mine"}))
	if err := run.m.Play(0, moveIntoMine); err != nil {
		t.Fatal(err)
	}
	if got, want := run.m.trace(run.from), []string{"Proximity Mine←system@1"}; !slices.Equal(got, want) {
		t.Errorf("proximity mine: trace %q, want %q", got, want)
	}
}

// TestCascadeAllocations: effects change the state in place, so a
// command's cascade allocates a few small objects (its arguments, event
// payloads, log growth), never a copy of the state.
func TestCascadeAllocations(t *testing.T) {
	sc := midGame(t)
	allocs := 0.0
	for range 20 {
		run := startMid(t, sc)
		allocs += testing.AllocsPerRun(1, func() { run.m.Play(0, playMine) })
	}
	if avg := allocs / 20; avg > 40 {
		t.Errorf("the mine card's cascade makes %.0f allocations, want at most 40", avg)
	}
}

// BenchmarkChaosCascade runs the chaos cascade of the plan through the data
// pipeline: drones declared in the scenario file and compiled into
// triggers, the game's own effects, a match built and set up per
// operation (like the core's BenchmarkChaosCascade), one move.
func BenchmarkChaosCascade(b *testing.B) {
	sc := readScenario(b, filepath.Join(examples, "03-chaos-cascade.scenario.yaml"))
	def, err := testPack.scenarioGame(sc, examples)
	if err != nil {
		b.Fatal(err)
	}
	run, err := sc.startWith(def)
	if err != nil {
		b.Fatal(err)
	}
	p, move, err := run.command(sc.Commands[0])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		run, _ := sc.startWith(def)
		if err := run.m.Play(p, move); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMineCardCascade is the deepest cascade the original game
// supported, on a mid-game board: A plays a Mine card into the lane of A's
// Anansi, Anansi draws, Odin reacts to the draw. One op is the command
// (the card, its cascade, the end of the turn); setting up the board is
// not timed.
func BenchmarkMineCardCascade(b *testing.B) {
	benchCommand(b, midGame(b), playMine)
}

// BenchmarkProximityMine: on the same board, a drone moves into a lane
// with a Proximity Mine, which hits it and is destroyed.
func BenchmarkProximityMine(b *testing.B) {
	benchCommand(b, midGame(b, DroneSpec{Drone: "Proximity Mine"}), moveIntoMine)
}

// benchCommand times one command on boards set up from sc. The boards are
// set up in batches with the timer stopped: stopping and starting it reads
// the memory statistics, which stops the world, and around every command
// that read would cost more than the command. A batch is small (four
// boards of about 26 KB) so that the boards are still in the core's cache
// when their command runs, as the board of a game being played is;
// batches of 32 boards and more measure cache misses instead.
func benchCommand(b *testing.B, sc *Scenario, c Command) {
	const batch, collect = 4, 256
	runs := make([]*scenarioRun, 0, batch)
	// The collector runs with the timer stopped, every collect boards,
	// rather than alongside the commands, where it would mostly be
	// collecting the boards' setting up.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	made := 0
	b.ReportAllocs()
	for b.Loop() {
		if len(runs) == 0 {
			b.StopTimer()
			if made%collect == 0 {
				runtime.GC()
			}
			for range batch {
				runs = append(runs, startMid(b, sc))
			}
			made += batch
			b.StartTimer()
		}
		run := runs[len(runs)-1]
		runs = runs[:len(runs)-1]
		if err := run.m.Play(0, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBotGame plays whole games, bots on both sides, from a new match
// to the end; seeds cycle through 1..16.
func BenchmarkBotGame(b *testing.B) {
	b.ReportAllocs()
	games, commands := 0, 0
	for b.Loop() {
		seed := uint64(games%16 + 1)
		m, err := bundled(b).NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		n, err := playBots(m, seed)
		if err != nil {
			b.Fatal(err)
		}
		games++
		commands += n
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(commands)/float64(games), "commands/game")
}

// playBots plays a whole match with the pack's bot on both sides, each
// seat with its own stream, through Play, and returns the number of
// commands played.
func playBots(m *Match, seed uint64) (int, error) {
	streams := [2]*rng.Stream{rng.New(seed).Stream("bot 0"), rng.New(seed).Stream("bot 1")}
	n := 0
	for !m.over() {
		if n >= 100_000 {
			return n, errors.New("the game did not end")
		}
		p := m.s.Turn
		if err := m.Play(int(p), m.command(p, m.botAction(p, streams[p]))); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
