// Package sim plays many bot games of a party board and summarises them,
// so that a designer learns before game night how long the board plays,
// whether seat order matters and which spaces fire too often.
//
// Games run in parallel on worker goroutines, each its own match with a
// seed derived from the master seed and the game's number. Their results
// are folded into the summary in game order, so the summary is the same
// whatever the number of workers; only Summary.Timing differs. The fold
// keeps fixed-size counters and exact per-value histograms bounded by the
// round cap, so memory does not grow with the number of games.
package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/party"
)

// Config says what to simulate.
type Config struct {
	// Games is the number of games to play.
	Games int
	// Players are the seats' names, in seat order.
	Players []string
	// Seed is the master seed; game i is played with GameSeed(Seed, i).
	Seed uint64
	// Workers is the number of games played at once (0: one per CPU).
	Workers int
	// MaxRounds stops a game that has not ended after that many rounds
	// (0: party.DefaultMaxRounds).
	MaxRounds int
	// Progress, if set, is called from one goroutine with the number of
	// games summarised so far, after each batch of games.
	Progress func(done int)

	// keepLog has the matches keep their whole log, and the summary count
	// its records after each command rather than as they are made: the
	// summary is the same (TestLogOffSameSummary).
	keepLog bool
}

// TurnsPerRound bounds the turns of a game: a game that begins more than
// TurnsPerRound × players × round cap turns is stopped and counted as
// stalled. Only a board whose repeat-turn effects never run out can get
// there (a player repeating their turn forever never lets the round end).
const TurnsPerRound = 10

// GameSeed returns the seed of game i of a simulation with the given
// master seed: the (i+1)-th output of SplitMix64 started at the master
// seed, so that neighbouring games get unrelated seeds and any one game can
// be replayed on its own.
func GameSeed(master uint64, i int) uint64 {
	z := master + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// batch is how many consecutive games a worker plays per job: enough to
// make the hand-over between goroutines cheap next to the games.
const batch = 32

// window is how many batches per worker may be under way or waiting to be
// folded; it bounds the memory held by results.
const window = 4

// Run plays the games and returns their summary. If ctx is cancelled, it
// stops handing out games and returns the summary of the games played so
// far (in order, from the first), marked Interrupted.
func Run(ctx context.Context, def *party.Definition, cfg Config) (*Summary, error) {
	if cfg.Games < 0 {
		return nil, fmt.Errorf("the number of games must not be negative")
	}
	if len(cfg.Players) == 0 {
		return nil, fmt.Errorf("a game needs at least one player")
	}
	if cfg.MaxRounds < 0 {
		return nil, fmt.Errorf("the round cap must not be negative")
	}
	if cfg.MaxRounds == 0 {
		cfg.MaxRounds = party.DefaultMaxRounds
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// A first game checks the players and the board before any worker
	// starts, so that a mistake is one clear error.
	probe, err := newRunner(def, cfg)
	if err != nil {
		return nil, err
	}
	acc := newAccumulator(probe, cfg)
	start := time.Now()

	nbatches := (cfg.Games + batch - 1) / batch
	slots := workers * window
	results := make([][]gameResult, slots)
	free := make(chan int, slots)
	for i := range slots {
		free <- i
	}
	type job struct{ first, n, slot int }
	// Buffered, so that a worker finishing a batch finds the next one
	// waiting rather than waiting for the dispatcher to be scheduled.
	jobs := make(chan job, workers)
	done := make(chan job, slots)

	// The dispatcher hands out batches in order, each into a free slot.
	go func() {
		defer close(jobs)
		for b := range nbatches {
			var slot int
			select {
			case slot = <-free:
			case <-ctx.Done():
				return
			}
			first := b * batch
			select {
			case jobs <- job{first: first, n: min(batch, cfg.Games-first), slot: slot}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for w := range workers {
		p := probe
		if w > 0 {
			p, _ = newRunner(def, cfg) // cannot fail: the probe did not
		}
		go func() {
			for j := range jobs {
				rs := results[j.slot]
				for len(rs) < j.n {
					rs = append(rs, p.newResult())
				}
				rs = rs[:j.n]
				for k := range rs {
					p.play(j.first+k, &rs[k])
				}
				results[j.slot] = rs
				done <- j
				// Let the collector and the dispatcher run now: when every
				// CPU plays games, they would otherwise wait for the
				// scheduler to preempt a worker, and the workers for them.
				runtime.Gosched()
			}
			done <- job{first: -1}
		}()
	}

	// The collector folds batches in game order.
	pending := map[int]job{}
	next, running := 0, workers
	for running > 0 {
		j := <-done
		if j.first < 0 {
			running--
			continue
		}
		pending[j.first] = j
		for {
			j, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			for k := range results[j.slot] {
				acc.add(&results[j.slot][k])
			}
			next += j.n
			free <- j.slot
			if cfg.Progress != nil {
				cfg.Progress(next)
			}
		}
	}
	s := acc.summary()
	s.Interrupted = next < cfg.Games
	elapsed := time.Since(start)
	s.Timing = &Timing{Workers: workers, Seconds: elapsed.Seconds()}
	if elapsed > 0 {
		s.Timing.GamesPerSecond = float64(s.Games) / elapsed.Seconds()
	}
	return s, nil
}

// runner plays games, one after another, on one goroutine.
type runner struct {
	def       *party.Definition
	cfg       Config
	spaces    int
	stats     []string // the stats the board changes, sorted
	statIndex map[string]int
	// triggers maps a match's trigger ids (the same in every match of
	// the board) to the board event they stand for.
	triggers              []triggerInfo
	evLand, evEnter, evFx engine.EventType
	turnLimit             int
	// game is the match played last, reset for the next game; bots are
	// the bots' random streams.
	game *party.Match
	bots *rng.Streams
	// r is the result of the game being played, which the match's log
	// records are counted into as they are made (Record).
	r *gameResult
}

type triggerInfo struct {
	space, event int
	action       int // index into Actions
}

// Actions are the board actions the summary counts, in the order of
// party.ActionTypes.
var Actions = party.ActionTypes

// Effects are the player effects the summary counts per seat.
var Effects = []string{party.SkipTurns, party.RepeatTurns, party.DoubleTurn, party.ChangeDirection}

func newRunner(def *party.Definition, cfg Config) (*runner, error) {
	g, err := def.NewMatch(game.Setup{Players: cfg.Players, MaxRounds: cfg.MaxRounds}, party.Options{})
	if err != nil {
		return nil, err
	}
	b := def.Board
	p := &runner{def: def, cfg: cfg, spaces: len(b.Spaces), statIndex: map[string]int{},
		turnLimit: TurnsPerRound * len(cfg.Players) * cfg.MaxRounds, bots: rng.New(0)}
	types := g.Engine().Rules.Types
	var ok [3]bool
	p.evLand, ok[0] = types.Lookup(party.OnLand)
	p.evEnter, ok[1] = types.Lookup(party.OnEnter)
	p.evFx, ok[2] = types.Lookup("EFFECT_APPLIED")
	if slices.Contains(ok[:], false) {
		return nil, errors.New("sim: the party rules lack an event type the summary counts")
	}
	for _, sp := range b.Spaces {
		for _, ev := range sp.Events {
			var name string
			switch a := ev.Action.Args.(type) {
			case party.SetStatArgs:
				name = a.Stat
			case party.ChangeStatArgs:
				name = a.Stat
			default:
				continue
			}
			if _, seen := p.statIndex[name]; !seen {
				p.statIndex[name] = 0
				p.stats = append(p.stats, name)
			}
		}
	}
	slices.Sort(p.stats)
	for i, name := range p.stats {
		p.statIndex[name] = i
	}
	var failed error
	g.Engine().Index.Each(func(t *engine.Instance) {
		space, event, ok := def.EventOf(t.Def)
		if !ok || int(t.ID) != len(p.triggers) {
			failed = errors.New("sim: the match's triggers are not the board's events in order")
			return
		}
		action := slices.Index(Actions, b.Spaces[space].Events[event].Action.Type)
		p.triggers = append(p.triggers, triggerInfo{space: space, event: event, action: action})
	})
	return p, failed
}

// outcome says how a game ended.
type outcome uint8

// The ways a game ends.
const (
	// endFinished: the board's rules ended it (a winner, everybody done,
	// the board's own turn limit).
	endFinished outcome = iota
	// endCapped: it reached the round cap.
	endCapped
	// endStalled: it took more than TurnsPerRound turns per player and round
	// without the round cap ending it.
	endStalled
	// endFailed: the match broke (an effect failed, a chain ran away).
	endFailed
)

// gameResult is what one game contributes to the summary.
type gameResult struct {
	index   int
	seed    uint64
	end     outcome
	err     string
	turns   int
	rounds  int
	winners []int
	// per space
	landings, entries []int32
	// per trigger id
	fired []int32
	// per seat
	prompts []int32
	stats   []float64 // seat*len(stats) + stat
	effects []int32   // seat*len(Effects) + effect
}

func (p *runner) newResult() gameResult {
	n := len(p.cfg.Players)
	return gameResult{
		landings: make([]int32, p.spaces), entries: make([]int32, p.spaces),
		fired:   make([]int32, len(p.triggers)),
		prompts: make([]int32, n), stats: make([]float64, n*len(p.stats)), effects: make([]int32, n*len(Effects)),
	}
}

func (r *gameResult) reset() {
	r.err, r.turns, r.rounds, r.winners = "", 0, 0, r.winners[:0]
	clear(r.landings)
	clear(r.entries)
	clear(r.fired)
	clear(r.prompts)
	clear(r.stats)
	clear(r.effects)
}

// newBots returns the random stream of a game's bots: apart from the
// match's own streams, so that bots do not change the dice.
func newBots(seed uint64) *rng.Stream { return rng.New(seed).Stream("bots") }

// play plays game i with bots in every seat and records its result in r.
func (p *runner) play(i int, r *gameResult) {
	r.reset()
	r.index = i
	r.seed = GameSeed(p.cfg.Seed, i)
	p.bots.Reset(r.seed)
	bots := p.bots.Stream("bots")
	var err error
	p.r = r
	if p.game == nil || p.game.Engine().Err() != nil {
		// A broken match is not used again.
		setup := game.Setup{Players: p.cfg.Players, Seed: r.seed, MaxRounds: p.cfg.MaxRounds}
		opt := party.Options{SkipText: true, AutoAck: true}
		if !p.cfg.keepLog {
			// Nobody reads the log: the summary counts its records as
			// they are made.
			opt.NoLog, opt.Sink = true, p
		}
		p.game, err = p.def.NewMatch(setup, opt)
	} else {
		err = p.game.Reset(r.seed)
	}
	if err != nil {
		p.game = nil
		r.end, r.err = endFailed, err.Error()
		return
	}
	g := p.game
	s := g.State()
	m := g.Engine()
	seen := 0 // log records already counted, when the match keeps them
	for !s.Over {
		if err := p.step(g, bots); err != nil {
			r.end, r.err = endFailed, err.Error()
			p.game = nil
			return
		}
		if p.cfg.keepLog {
			seen = p.count(m, seen)
		}
		if !s.Over && s.Turn > p.turnLimit {
			r.end = endStalled
			break
		}
	}
	r.turns = s.Turn
	r.rounds = s.Round()
	capped := s.Over && r.rounds > p.cfg.MaxRounds
	if mt := p.def.Board.Rules.MaxTurns; mt > 0 && r.rounds > mt {
		capped = false // the board's own turn limit ended it first
		r.rounds = mt
	} else if capped {
		r.rounds = p.cfg.MaxRounds
	}
	if capped && r.end == endFinished {
		r.end = endCapped
	}
	r.winners = append(r.winners, s.Winners...)
	for seat := range s.Players {
		pl := &s.Players[seat]
		r.prompts[seat] = int32(pl.Prompts)
		for k, name := range p.stats {
			r.stats[seat*len(p.stats)+k] = pl.StatValue(name)
		}
	}
}

// step plays the next command: every seat's bot in turn answers what the
// match waits for.
func (p *runner) step(g *party.Match, bots *rng.Stream) error {
	for seat := range p.cfg.Players {
		if cmd, ok := g.Bot(seat, bots); ok {
			return g.Play(seat, cmd)
		}
	}
	return errors.New("the match waits for nobody")
}

// Record counts one record of the game's log into its result: landings,
// entries and player effects from events, firings per trigger.
func (p *runner) Record(rec *engine.Record, ev *engine.Event) {
	r := p.r
	switch rec.Kind {
	case engine.RecEvent:
		switch ev.Type {
		case p.evLand:
			r.landings[ev.Location]++
		case p.evEnter:
			r.entries[ev.Location]++
		case p.evFx:
			if k := slices.Index(Effects, ev.Data.(string)); k >= 0 && ev.Player >= 0 {
				r.effects[int(ev.Player)*len(Effects)+k]++
			}
		}
	case engine.RecFired:
		if int(rec.Trigger) < len(r.fired) {
			r.fired[rec.Trigger]++
		}
	}
}

// count counts the records of a kept log from index from on, and returns
// the new length of the log.
func (p *runner) count(m *engine.Match, from int) int {
	recs := m.Records()
	for i := from; i < len(recs); i++ {
		var ev *engine.Event
		if recs[i].Kind == engine.RecEvent {
			ev = &m.Events[recs[i].Event]
		}
		p.Record(&recs[i], ev)
	}
	return len(recs)
}
