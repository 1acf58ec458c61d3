package sim

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/games/party"
)

// The benchmarks play the bundled default board with four bots: through
// the engine (BenchmarkSimulate) and through a hand-written baseline that
// plays the same rules as plain Go loops over an array graph
// (BenchmarkBaseline). TestBaselinePlaysTheSameGames checks that the two
// play identical games, so the ratio of their speeds is the engine's cost.
//
//	go test ./games/party/sim -run '^$' -bench . -benchmem

var benchPlayers = []string{"P1", "P2", "P3", "P4"}

// benchGames is the number of games one benchmark op plays: enough for
// the workers to share them out.
const benchGames = 1024

// BenchmarkSimulate runs the simulator on the default board with four bots,
// with one and with two workers. One op is benchGames games.
func BenchmarkSimulate(b *testing.B) {
	def := defaultBoard(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			measure(b, func(op int) {
				s, err := Run(context.Background(), def, Config{Games: benchGames, Players: benchPlayers, Seed: uint64(op), Workers: w})
				if err != nil || s.Failed > 0 {
					b.Fatal(err, s.FirstFailure)
				}
			})
		})
	}
}

// BenchmarkBaseline plays the same games as BenchmarkSimulate without the
// engine, on one goroutine and on two, each with half of the games: the
// second shows how much two goroutines can gain on this machine at all.
// One op is benchGames games.
func BenchmarkBaseline(b *testing.B) {
	def := defaultBoard(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			bls := make([]*baseline, w)
			rs := make([]gameResult, w)
			for k := range bls {
				bls[k] = newBaseline(b, def, benchPlayers, party.DefaultMaxRounds)
				rs[k] = bls[k].p.newResult()
			}
			measure(b, func(op int) {
				var wg sync.WaitGroup
				for k := range w {
					wg.Go(func() {
						for i := k; i < benchGames; i += w {
							bls[k].play(GameSeed(uint64(op), i), &rs[k])
						}
					})
				}
				wg.Wait()
			})
		})
	}
}

// measure runs the benchmark's loop, each op playing benchGames games,
// and reports games per second, allocations per game and the process's
// CPU time per game (user and system, the garbage collector's included),
// which a busy machine does not inflate as it does wall time.
func measure(b *testing.B, op func(op int)) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := cpuTime()
	ops := 0
	for b.Loop() {
		op(ops)
		ops++
	}
	cpu = cpuTime() - cpu
	runtime.ReadMemStats(&after)
	games := float64(ops * benchGames)
	b.ReportMetric(games/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/games, "allocs/game")
	b.ReportMetric(float64(cpu.Nanoseconds())/games, "cpu-ns/game")
}

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// baseline plays a party board with bots as plain Go: an array graph,
// the board's events sorted into arrays by trigger, one loop per turn. It
// knows the actions the default board uses (prompts, stats, moving back,
// skipping turns, teleports, finishing) and applies them with the party
// pack's semantics, drawing dice and bot choices from the same random
// streams as a simulated match, so that it plays the very same games.
type baseline struct {
	p       *runner
	players int
	cap     int
	dice    party.Dice
	next    [][]int
	// on[space][trigger] are the space's events of that trigger
	// (0 ON_ENTER, 1 ON_LAND, 2 ON_EXIT) in the order they fire.
	on [][3][]baseEvent

	// per game
	ps       []basePlayer
	turn     int
	skipRun  int
	finished []int
	fired    []int32 // per trigger, fired in the current step
	step     int32
	r        *gameResult
}

type baseEvent struct {
	trigger int // index into the runner's triggers (and gameResult.fired)
	kind    int
	n       float64 // stat delta, steps, turns
	to      int     // teleport target
	stat    int
	all     bool // prompt everybody
}

const (
	bPrompt = iota
	bStat
	bDisplace
	bSkip
	bTeleport
	bComplete
)

type basePlayer struct {
	space, turnsTaken int
	state             string
	skip              bool // has a SkipTurns effect
	skipLeft          int
	history           []baseMove
}

type baseMove struct {
	space       int
	backtracked bool
}

func newBaseline(tb testing.TB, def *party.Definition, players []string, maxRounds int) *baseline {
	p, err := newRunner(def, Config{Players: players, MaxRounds: maxRounds})
	if err != nil {
		tb.Fatal(err)
	}
	b := def.Board
	bl := &baseline{p: p, players: len(players), cap: maxRounds, dice: b.Rules.Dice,
		next: make([][]int, len(b.Spaces)), on: make([][3][]baseEvent, len(b.Spaces)),
		ps: make([]basePlayer, len(players)), fired: make([]int32, len(p.triggers))}
	for i, sp := range b.Spaces {
		for _, c := range sp.Connections {
			j, _ := b.SpaceIndex(c.Target)
			if !slices.Contains(bl.next[i], j) {
				bl.next[i] = append(bl.next[i], j)
			}
		}
	}
	type sorted struct {
		be   baseEvent
		prio int
		pos  int
	}
	var evs [3][][]sorted
	for k := range evs {
		evs[k] = make([][]sorted, len(b.Spaces))
	}
	for id, t := range p.triggers {
		ev := &b.Spaces[t.space].Events[t.event]
		be := baseEvent{trigger: id}
		switch a := ev.Action.Args.(type) {
		case party.PromptArgs:
			be.kind, be.all = bPrompt, ev.Action.Type == party.PromptAllPlayers
		case party.ChangeStatArgs:
			be.kind, be.n, be.stat = bStat, a.Delta, p.statIndex[a.Stat]
		case party.DisplaceArgs:
			be.kind, be.n = bDisplace, float64(a.Steps)
		case party.EffectArgs:
			be.kind, be.n = bSkip, float64(a.Effect.Turns)
		case party.TeleportArgs:
			be.kind = bTeleport
			be.to, _ = b.SpaceIndex(a.SpaceID)
		case party.StateArgs:
			be.kind = bComplete
		default:
			tb.Fatalf("the baseline does not know %s", ev.Action.Type)
		}
		k := slices.Index([]string{party.OnEnter, party.OnLand, party.OnExit}, ev.Trigger)
		if k < 0 {
			tb.Fatalf("the baseline does not know %s", ev.Trigger)
		}
		evs[k][t.space] = append(evs[k][t.space], sorted{be: be, prio: int(ev.Priority), pos: t.event})
	}
	for k := range evs {
		for i, list := range evs[k] {
			slices.SortStableFunc(list, func(a, b sorted) int { return cmp.Compare(b.prio, a.prio) })
			for _, s := range list {
				bl.on[i][k] = append(bl.on[i][k], s.be)
			}
		}
	}
	return bl
}

// play plays one game with the given seed into r.
func (bl *baseline) play(seed uint64, r *gameResult) {
	r.reset()
	r.seed = seed
	bl.r = r
	streams := rng.New(seed)
	dice := streams.Stream("dice")
	bots := newBots(seed)
	for i := range bl.ps {
		bl.ps[i] = basePlayer{state: party.Playing, history: bl.ps[i].history[:0]}
	}
	bl.turn, bl.skipRun, bl.finished = 0, 0, bl.finished[:0]
	clear(bl.fired)
	bl.step = 0
	over := false
	for !over {
		// The player with the fewest turns, ties in seat order.
		cur := 0
		for i := range bl.ps {
			if bl.ps[i].turnsTaken < bl.ps[cur].turnsTaken {
				cur = i
			}
		}
		p := &bl.ps[cur]
		bl.turn++
		if p.skip {
			if p.skipLeft > 0 {
				p.state = party.SkippingTurn
				p.skipLeft--
			} else {
				if p.state == party.SkippingTurn {
					p.state = party.Playing
				}
				p.skip = false
			}
		}
		if p.state != party.Playing {
			bl.skipRun++
		} else {
			bl.skipRun = 0
			moves := 0
			for range bl.dice.Count {
				moves += dice.Between(1, bl.dice.Sides)
			}
			for moves > 0 {
				bl.newStep()
				ways := bl.next[p.space]
				if len(ways) == 0 {
					moves = 0
					bl.land(cur, p.space, &moves)
					break
				}
				to := ways[0]
				if len(ways) > 1 {
					to = ways[bots.IntN(len(ways))]
				}
				from := p.space
				bl.move(p, to, &moves)
				bl.fire(cur, from, 2, &moves)
				bl.arrive(cur, to, &moves)
			}
		}
		// The end of the turn.
		if len(bl.finished) == len(bl.ps) {
			r.winners = append(r.winners, bl.finished[0])
			break
		}
		if bl.nobodyCanPlay() {
			r.winners = append(r.winners, bl.finished[:min(1, len(bl.finished))]...)
			break
		}
		p.turnsTaken++
		if bl.round() > bl.cap {
			r.end = endCapped
			over = true
		}
	}
	r.turns = bl.turn
	r.rounds = bl.round()
	if r.end == endCapped {
		r.rounds = bl.cap
	}
}

func (bl *baseline) round() int {
	low := bl.ps[0].turnsTaken
	for _, p := range bl.ps[1:] {
		low = min(low, p.turnsTaken)
	}
	return low + 1
}

func (bl *baseline) nobodyCanPlay() bool {
	if bl.skipRun < len(bl.ps) {
		return false
	}
	for _, p := range bl.ps {
		if p.state == party.Playing || p.skip {
			return false
		}
	}
	return true
}

// newStep starts a chain: each event fires at most once in it.
func (bl *baseline) newStep() { bl.step++ }

func (bl *baseline) move(p *basePlayer, to int, moves *int) {
	if len(p.history) == 0 {
		p.history = append(p.history, baseMove{space: p.space})
	}
	p.space = to
	*moves = max(0, *moves-1)
	p.history = append(p.history, baseMove{space: to})
}

// arrive enters a space, and lands there if no move is left: whether it
// lands is decided on arrival, before the space's events run.
func (bl *baseline) arrive(seat, space int, moves *int) {
	bl.r.entries[space]++
	landing := *moves == 0
	if landing {
		bl.r.landings[space]++
	}
	bl.fire(seat, space, 0, moves)
	if landing {
		bl.fire(seat, space, 1, moves)
	}
}

func (bl *baseline) land(seat, space int, moves *int) {
	bl.r.landings[space]++
	bl.fire(seat, space, 1, moves)
}

// fire runs the events of a space for one trigger, each at most once per
// step.
func (bl *baseline) fire(seat, space, trigger int, moves *int) {
	r := bl.r
	p := &bl.ps[seat]
	for i := range bl.on[space][trigger] {
		e := &bl.on[space][trigger][i]
		if bl.fired[e.trigger] == bl.step {
			continue
		}
		bl.fired[e.trigger] = bl.step
		r.fired[e.trigger]++
		switch e.kind {
		case bPrompt:
			if e.all {
				for s := range r.prompts {
					r.prompts[s]++
				}
			} else {
				r.prompts[seat]++
			}
		case bStat:
			r.stats[seat*len(bl.p.stats)+e.stat] += e.n
		case bSkip:
			p.skip, p.skipLeft = true, int(e.n)
			r.effects[seat*len(Effects)]++
		case bComplete:
			if p.state != party.CompletedGame {
				p.state = party.CompletedGame
				bl.finished = append(bl.finished, seat)
			}
		case bTeleport:
			bl.move(p, e.to, moves)
			bl.arrive(seat, e.to, moves)
		case bDisplace:
			live := 0
			for _, m := range p.history {
				if !m.backtracked {
					live++
				}
			}
			if live == 0 {
				continue
			}
			t := max(0, live+int(e.n)-1) // the live entry to go back to
			k := -1
			for j := range p.history {
				if p.history[j].backtracked {
					continue
				}
				k++
				if k == t {
					p.space = p.history[j].space
				} else if k > t {
					p.history[j].backtracked = true
				}
			}
			bl.arrive(seat, p.space, moves)
		}
	}
}

func TestBaselinePlaysTheSameGames(t *testing.T) {
	def := defaultBoard(t)
	p, err := newRunner(def, Config{Players: benchPlayers, MaxRounds: party.DefaultMaxRounds})
	if err != nil {
		t.Fatal(err)
	}
	bl := newBaseline(t, def, benchPlayers, party.DefaultMaxRounds)
	want, got := p.newResult(), p.newResult()
	for i := range 2000 {
		p.play(i, &want)
		bl.play(want.seed, &got)
		got.index = i
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("game %d (seed %d):\nbaseline %+v\nengine   %+v", i, want.seed, got, want)
		}
	}
}
