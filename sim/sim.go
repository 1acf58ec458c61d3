// Package sim plays many games of any game with bots in every seat and
// reports how the game plays: who wins and how surely, how long games
// last, how often they hit the round limit or break, and what each piece
// (a card, a drone, a character, a space) did. Designers use it to balance
// a deck, an encounter or a board before anyone sits down to play.
//
// It reaches the game only through the game interface: a game.Definition
// starts each match, bots choose commands (game.BotCommand by default), and
// the match's game.Outcome, and its game.Tally when it keeps one, feed the
// report. A pack may offer a faster way to play its games with its own
// bots (Fast), which gives the same report.
//
// Games run in parallel on worker goroutines, each its own match with a
// seed and bot streams derived from the master seed and the game's index.
// Their results are folded into the report in game order, so the report is
// the same whatever the number of workers; only Report.Timing differs.
package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Config says what to simulate.
type Config struct {
	// Games is the number of games to play.
	Games int
	// Workers is the number of games played at once (0: GOMAXPROCS).
	Workers int
	// MaxRounds ends a game that has not ended after that many rounds,
	// with no winner (0: the game's default, game.Info.DefaultMaxRounds).
	MaxRounds int
	// Players are the players' names, in seat order (the order of the
	// first game when Rotate is set).
	Players []string
	// Seed is the master seed: game i is played with GameSeed(Seed, i),
	// and its bots draw from streams derived from that seed.
	Seed uint64
	// Bots returns the bot of a player (its index in Players), for every
	// game anew, so that no bot carries anything from one game to the
	// next; nil plays every seat with PackBot.
	Bots func(player int) Bot
	// Rotate moves the players one seat on from game to game, so that each
	// starts as often as the others: in game i, seat s is played by player
	// (s+i) mod len(Players).
	Rotate bool
	// MaxCommands stops a game that is still going after that many
	// commands and counts it as failed (0: DefaultMaxCommands). It catches
	// games that never end when the round limit does not.
	MaxCommands int
	// Compat plays every game in a compatibility mode of its game
	// (game.Setup.Compat): "original" plays a party board as the
	// original game did.
	Compat string
	// Progress, if set, is called from Run's goroutine with the number of
	// games folded into the report so far, after each batch of games.
	Progress func(done int)
	// BeforeGame, if set, is called by each worker, on its own goroutine,
	// before each game it plays. A server uses it to run simulations below
	// its other work: it may lower the priority of the worker's thread,
	// yield, measure the CPU the worker used and cancel the run when it
	// has used its share.
	BeforeGame func()
}

// DefaultMaxCommands is the most commands a game may take when
// Config.MaxCommands is 0.
const DefaultMaxCommands = 100000

// Bot chooses the commands of one seat. A bot draws any randomness it
// needs from r, its own stream, never from the match's, so that bots never
// change the dice.
type Bot interface {
	// Command returns the seat's next command, in the pack's JSON, or
	// false if the seat has nothing to play now.
	Command(m game.Match, seat int, r *rng.Stream) (json.RawMessage, bool)
}

// PackBot plays as the pack's own bot (game.BotCommand): the game's bot if
// the match has one, else a random legal command.
type PackBot struct{}

// Command plays game.BotCommand.
func (PackBot) Command(m game.Match, seat int, r *rng.Stream) (json.RawMessage, bool) {
	return game.BotCommand(m, seat, r)
}

// RandomBot plays a legal command chosen at random, each equally likely,
// even when the pack has a bot of its own: the baseline a designer
// compares a strategy with.
type RandomBot struct{}

// Command plays a random legal command. It is game.BotCommand's own
// fallback, written again because hiding the pack's bot from
// game.BotCommand behind a wrapper would cost an allocation per command.
func (RandomBot) Command(m game.Match, seat int, r *rng.Stream) (json.RawMessage, bool) {
	legal := m.Legal(seat)
	switch len(legal) {
	case 0:
		return nil, false
	case 1:
		return legal[0].Data, true
	}
	return legal[r.IntN(len(legal))].Data, true
}

// Fast is a game.Definition that offers the simulator a faster way to play
// its games when every seat is played by the pack's own bot (Config.Bots is
// nil): matches that keep no log and write no text only people read, whose
// bots play without writing their commands as JSON for Apply to read back,
// and which start over without being built anew. It is optional: a pack
// that implements it must play through it exactly the games it plays
// through Start, Apply and game.BotCommand, so that the report is the same
// either way (the same outcomes, rounds, commands and tallies); only a
// command that fails is told without its JSON.
//
// The interfaces name only types of the game interface, so that a pack
// implements them without importing this package.
type Fast interface {
	game.Definition
	// StartFast begins a match as Start does, for a simulation. The match
	// is a FastMatch; if it is not, the simulator plays through Start.
	StartFast(s game.Setup) (game.Match, error)
}

// FastMatch is a match started by Fast.StartFast.
type FastMatch interface {
	game.Match
	// AppendWaiting appends to dst the seats Waiting would return, so
	// that asking before every command allocates nothing.
	AppendWaiting(dst []int) []int
	// PlayBot plays for the seat the command game.BotCommand would return,
	// drawing from r as it would, and reports whether there was one; the
	// error is Apply's.
	PlayBot(seat int, r *rng.Stream) (bool, error)
	// Restart starts the match over as StartFast would start it with s,
	// keeping the memory it has.
	Restart(s game.Setup) error
}

// CommandCounter is a FastMatch that plays some commands by itself, such
// as the acknowledgements of messages its bots would play at once without
// a choice: Commands is the number of commands played so far, those
// included, which the report counts instead of the bots' calls to
// PlayBot. It is optional.
type CommandCounter interface {
	Commands() int
}

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

// batchSize is how many consecutive games a worker plays per hand-over:
// enough to make the hand-over cheap next to the games.
const batchSize = 16

// window is how many batches per worker may be under way or waiting to be
// folded; it bounds the memory held by results.
const window = 4

// cancelCheck is how often, in commands, a long game looks whether the run
// was cancelled.
const cancelCheck = 1024

// batch is the results of consecutive games, from game first on. Batches
// are handed from the workers to Run and back, and reused.
type batch struct {
	first int
	// want is the number of games asked for; played the number played
	// (fewer only when the run was cancelled).
	want, played int
	games        []result
}

// Run plays the games and returns their report. If ctx is cancelled, it
// stops soon and reports the games played so far, from the first on
// without a gap, marked Interrupted. Errors are mistakes in the
// configuration (no players, too many for the game, a first match that
// cannot start); games that break are counted in the report instead.
func Run(ctx context.Context, def game.Definition, cfg Config) (*Report, error) {
	switch {
	case cfg.Games < 0:
		return nil, errors.New("the number of games must not be negative")
	case len(cfg.Players) == 0:
		return nil, errors.New("a simulation needs at least one player")
	case cfg.MaxRounds < 0:
		return nil, errors.New("the round limit must not be negative")
	case cfg.MaxCommands < 0:
		return nil, errors.New("the command limit must not be negative")
	}
	if cfg.MaxCommands == 0 {
		cfg.MaxCommands = DefaultMaxCommands
	}
	info, err := game.InfoFor(def, cfg.Compat)
	if err != nil {
		return nil, err
	}
	if err := info.CheckPlayers(len(cfg.Players)); err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, (cfg.Games+batchSize-1)/batchSize))
	seats := seating(cfg)
	// A first match checks the players and the game before any worker
	// starts, so that a mistake is one clear error rather than a report
	// of games that all failed the same way.
	if err := probe(def, cfg, seats[0]); err != nil {
		return nil, err
	}
	acc := newAccumulator(info, cfg, seats)
	if m, ok := def.(game.Mapper); ok {
		acc.placeMap = m.PlaceMap()
	}
	start := time.Now()

	nbatches := (cfg.Games + batchSize - 1) / batchSize
	slots := workers * window
	// free holds the batches no worker or fold uses; done, the batches
	// played. Both can hold every batch, so that sending never blocks.
	free := make(chan *batch, slots)
	for range slots {
		free <- &batch{}
	}
	done := make(chan *batch, slots)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPlayer(def, cfg, seats)
			for {
				var b *batch
				select {
				case b = <-free:
				case <-ctx.Done():
					return
				}
				k := int(next.Add(1) - 1)
				if k >= nbatches {
					free <- b
					return
				}
				b.first = k * batchSize
				b.want = min(batchSize, cfg.Games-b.first)
				for len(b.games) < b.want {
					b.games = append(b.games, result{})
				}
				for b.played = 0; b.played < b.want; b.played++ {
					if cfg.BeforeGame != nil {
						cfg.BeforeGame()
					}
					if ctx.Err() != nil || !p.play(ctx, b.first+b.played, &b.games[b.played]) {
						break
					}
				}
				done <- b
				// Let Run fold now: when every CPU plays games it would
				// otherwise wait for the scheduler to preempt a worker.
				runtime.Gosched()
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	// Batches are folded in game order; the fold stops at the first batch
	// cut short, so that an interrupted report is that of the games
	// 0…Games-1, as a run of that many games would give.
	pending := make(map[int]*batch, slots)
	folded, stopped := 0, false
	for b := range done {
		pending[b.first] = b
		for !stopped {
			b, ok := pending[folded]
			if !ok {
				break
			}
			delete(pending, folded)
			for k := range b.played {
				acc.add(&b.games[k])
			}
			played := b.played
			folded += played
			stopped = played < b.want
			free <- b // b belongs to the workers again: not to be read
			if cfg.Progress != nil && played > 0 {
				cfg.Progress(folded)
			}
		}
	}
	r := acc.report()
	r.Interrupted = folded < cfg.Games
	elapsed := time.Since(start)
	r.Timing = &Timing{Workers: workers, Seconds: elapsed.Seconds()}
	if elapsed > 0 {
		r.Timing.GamesPerSecond = float64(r.Games) / elapsed.Seconds()
	}
	return r, nil
}

// seating returns the players' names in seat order for each rotation:
// seats[i mod len(seats)] is that of game i.
func seating(cfg Config) [][]string {
	n := len(cfg.Players)
	if !cfg.Rotate || n == 1 {
		return [][]string{cfg.Players}
	}
	out := make([][]string, n)
	for shift := range n {
		out[shift] = make([]string, n)
		for s := range n {
			out[shift][s] = cfg.Players[(s+shift)%n]
		}
	}
	return out
}

// playerAt returns the player (index into Config.Players) in a seat of
// game i.
func playerAt(rotations, i, seat, n int) int {
	return (seat + i%rotations) % n
}

func probe(def game.Definition, cfg Config, names []string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the game cannot start: panic: %v", v)
		}
	}()
	_, err = def.Start(game.Setup{Players: names, Seed: GameSeed(cfg.Seed, 0), MaxRounds: cfg.MaxRounds, Compat: cfg.Compat})
	return err
}

// ending is how a game ended.
type ending uint8

// The ways a game ends.
const (
	// endWon: the game's rules ended it with winners.
	endWon ending = iota
	// endDrawn: the game's rules ended it without a winner.
	endDrawn
	// endLimit: it reached the round limit without a winner.
	endLimit
	// endFailed: it broke (an error, a panic, a rejected bot command, no
	// end within MaxCommands).
	endFailed
)

// result is what one game adds to the report.
type result struct {
	end      ending
	commands int
	rounds   int
	reason   string
	err      string
	// winners are players (indices into Config.Players); winSeats the
	// seats they played.
	winners, winSeats []int
	tallies           []game.Tally
	// layout and counts are the game's places (game.Placer), counts
	// copied from the match.
	layout []game.Place
	counts []float64
}

// player plays games one after another on one worker goroutine.
type player struct {
	def     game.Definition
	cfg     Config
	seats   [][]string
	limit   int
	streams *rng.Streams
	// names are the bot streams' names, by player.
	names []string
	bots  []Bot
	rs    []*rng.Stream
	// fast is the definition's fast path, if it has one and the pack's
	// bots play every seat; match is the match it played last, started
	// over for the next game, and waiting a buffer for its seats.
	fast    Fast
	match   FastMatch
	waiting []int
	// views are match's optional interfaces.
	views views
}

// views are the optional interfaces of a match, asserted once per match
// rather than once per game.
type views struct {
	counter CommandCounter
	tallier game.Tallier
	placer  game.Placer
}

func viewsOf(m game.Match) views {
	var v views
	v.counter, _ = m.(CommandCounter)
	v.tallier, _ = m.(game.Tallier)
	v.placer, _ = m.(game.Placer)
	return v
}

func newPlayer(def game.Definition, cfg Config, seats [][]string) *player {
	n := len(cfg.Players)
	p := &player{def: def, cfg: cfg, seats: seats, limit: roundLimit(def.Info(), cfg),
		streams: rng.New(0), names: make([]string, n), bots: make([]Bot, n), rs: make([]*rng.Stream, n)}
	for i := range n {
		p.names[i] = "sim bot " + strconv.Itoa(i)
	}
	if f, ok := def.(Fast); ok && cfg.Bots == nil {
		p.fast = f
	}
	return p
}

// roundLimit is the round limit the games are played with (0: none).
func roundLimit(info game.Info, cfg Config) int {
	if cfg.MaxRounds > 0 {
		return cfg.MaxRounds
	}
	return info.DefaultMaxRounds
}

// play plays game i with bots in every seat and records it in r. It
// returns false, with r meaningless, if ctx was cancelled during the game.
func (p *player) play(ctx context.Context, i int, r *result) (finished bool) {
	*r = result{winners: r.winners[:0], winSeats: r.winSeats[:0], tallies: r.tallies[:0], counts: r.counts[:0]}
	defer func() {
		if v := recover(); v != nil {
			r.fail("panic: %v", v)
			p.match = nil // not to be used again
			finished = true
		}
	}()
	seed := GameSeed(p.cfg.Seed, i)
	names := p.seats[i%len(p.seats)]
	n := len(names)
	// Each player's bot draws from a stream of its own, apart from the
	// match's streams: bots never change the dice.
	p.streams.Reset(seed)
	for seat := range n {
		pl := playerAt(len(p.seats), i, seat, n)
		p.rs[seat] = p.streams.Stream(p.names[pl])
		p.bots[seat] = PackBot{}
		if p.cfg.Bots != nil {
			p.bots[seat] = p.cfg.Bots(pl)
		}
	}
	setup := game.Setup{Players: names, Seed: seed, MaxRounds: p.cfg.MaxRounds, Compat: p.cfg.Compat}
	if p.fast != nil {
		return p.playFast(ctx, i, setup, r)
	}
	m, err := p.def.Start(setup)
	if err != nil {
		r.fail("the game cannot start: %v", err)
		return true
	}
	for {
		if r.commands%cancelCheck == cancelCheck-1 && ctx.Err() != nil {
			return false
		}
		waiting := m.Waiting()
		if len(waiting) == 0 {
			break
		}
		if r.commands >= p.cfg.MaxCommands {
			r.fail("still going after %d commands, in round %d", r.commands, m.Outcome().Rounds)
			return true
		}
		if err := p.step(m, names, waiting); err != nil {
			r.fail("%v", err)
			return true
		}
		r.commands++
	}
	return p.end(m, viewsOf(m), i, n, r)
}

// playFast plays game i as play does, through the definition's fast path.
func (p *player) playFast(ctx context.Context, i int, setup game.Setup, r *result) bool {
	var err error
	if p.match == nil {
		var m game.Match
		if m, err = p.fast.StartFast(setup); err == nil {
			var ok bool
			if p.match, ok = m.(FastMatch); !ok {
				p.fast = nil
				return p.play(ctx, i, r)
			}
			p.views = viewsOf(m)
		}
	} else if err = p.match.Restart(setup); err != nil {
		p.match = nil // not to be used again
	}
	if err != nil {
		r.fail("the game cannot start: %v", err)
		return true
	}
	m, names, counter := p.match, setup.Players, p.views.counter
	for {
		if r.commands%cancelCheck == cancelCheck-1 && ctx.Err() != nil {
			return false
		}
		p.waiting = m.AppendWaiting(p.waiting[:0])
		if len(p.waiting) == 0 {
			break
		}
		if r.commands >= p.cfg.MaxCommands {
			r.fail("still going after %d commands, in round %d", r.commands, m.Outcome().Rounds)
			return true
		}
		if err := p.stepFast(m, names, p.waiting); err != nil {
			p.match = nil
			r.fail("%v", err)
			return true
		}
		r.commands++
		if counter != nil {
			r.commands = counter.Commands()
		}
	}
	return p.end(m, p.views, i, len(names), r)
}

// stepFast plays one command as step does, through FastMatch.PlayBot.
func (p *player) stepFast(m FastMatch, names []string, waiting []int) error {
	for _, seat := range waiting {
		if seat < 0 || seat >= len(names) {
			return fmt.Errorf("the game waits for seat index %d; the %d seats are 0 to %d", seat, len(names), len(names)-1)
		}
		played, err := m.PlayBot(seat, p.rs[seat])
		if err != nil {
			if engine.IsRejected(err) {
				return fmt.Errorf("the bot of %s (seat %d) played a command the game refused: %v", names[seat], seat+1, err)
			}
			return fmt.Errorf("%s (seat %d): %v", names[seat], seat+1, err)
		}
		if played {
			return nil
		}
	}
	return nobodyPlays(names, waiting)
}

// end records how game i, over, ended: its outcome, winners and tallies.
func (p *player) end(m game.Match, v views, i, n int, r *result) bool {
	o := m.Outcome()
	if !o.Over {
		r.fail("the game waits for nobody but is not over")
		return true
	}
	r.rounds, r.reason = o.Rounds, o.Reason
	for _, w := range o.Winners {
		if w < 0 || w >= n {
			r.fail("the outcome names seat index %d among the winners; the %d seats are 0 to %d", w, n, n-1)
			return true
		}
		r.winSeats = append(r.winSeats, w)
		r.winners = append(r.winners, playerAt(len(p.seats), i, w, n))
	}
	switch {
	case len(r.winners) > 0:
		r.end = endWon
	case p.limit > 0 && o.Rounds >= p.limit:
		r.end = endLimit
	default:
		r.end = endDrawn
	}
	if v.tallier != nil {
		r.tallies = append(r.tallies, v.tallier.Tally()...)
	}
	if v.placer != nil {
		ps := v.placer.Places()
		r.layout, r.counts = ps.Places, append(r.counts, ps.Counts...)
	} else if len(r.tallies) > 0 {
		r.layout, r.counts = tallyPlaces(r.tallies, r.counts)
	}
	return true
}

// step plays one command: that of the first seat waited for whose bot has
// one.
func (p *player) step(m game.Match, names []string, waiting []int) error {
	for _, seat := range waiting {
		if seat < 0 || seat >= len(names) {
			return fmt.Errorf("the game waits for seat index %d; the %d seats are 0 to %d", seat, len(names), len(names)-1)
		}
		cmd, ok := p.bots[seat].Command(m, seat, p.rs[seat])
		if !ok {
			continue
		}
		if err := m.Apply(seat, cmd); err != nil {
			if engine.IsRejected(err) {
				return fmt.Errorf("the bot of %s (seat %d) played %s, which the game refused: %v", names[seat], seat+1, cmd, err)
			}
			return fmt.Errorf("%s (seat %d) played %s: %v", names[seat], seat+1, cmd, err)
		}
		return nil
	}
	return nobodyPlays(names, waiting)
}

// nobodyPlays is the error of a game that waits for seats whose bots have
// nothing to play.
func nobodyPlays(names []string, waiting []int) error {
	who := make([]string, len(waiting))
	for k, seat := range waiting {
		who[k] = names[seat]
	}
	return fmt.Errorf("the game waits for %s, whose bots have nothing to play", strings.Join(who, ", "))
}

func (r *result) fail(format string, args ...any) {
	r.end, r.err = endFailed, fmt.Sprintf(format, args...)
}
