package bot

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// DuelResult is how a duel between two bots went.
type DuelResult struct {
	// Players is the number of seats of each game: a plays one of them, b
	// every other.
	Players int `json:"players"`
	// Games is the number of games played to their end (or to the game's
	// round limit); A and B are each bot's wins over them, Draws the games
	// nobody won.
	Games int  `json:"games"`
	A     Rate `json:"a"`
	B     Rate `json:"b"`
	Draws int  `json:"draws"`
	// Commands is the number of commands played in all, for the mean
	// length of a game.
	Commands int `json:"commands"`
	// Failed counts the games that broke (a bot failed, a match refused a
	// bot's command or broke, a game did not end within MaxDuelCommands);
	// Err is the first such failure, with its game's seed.
	Failed int   `json:"failed"`
	Err    error `json:"-"`
	// BySeat has, for each seat, the games in which a played it and who
	// won them: where the sides of a game differ (an archer against a
	// fighter), what the seat gives, apart from what the bot adds.
	BySeat []SeatRecord `json:"bySeat"`
	// Interrupted is set when ctx ended the duel before every game was
	// played: the games counted are those before the first not finished,
	// the same as a duel of that many games would count.
	Interrupted bool `json:"interrupted,omitempty"`
}

// SeatRecord is how the games went in which bot a played one seat.
type SeatRecord struct {
	Games int `json:"games"`
	A     int `json:"a"` // a's wins
	B     int `json:"b"` // b's wins
}

// Rate is a number of wins over a number of games, with its 95% Wilson
// score interval, which stays within [0, 1] and holds for few games and
// for rates near 0 or 1.
type Rate struct {
	Wins int     `json:"wins"`
	Rate float64 `json:"rate"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// String tells the duel in one line.
func (d DuelResult) String() string {
	s := fmt.Sprintf("%d games of %d players: a won %s, b won %s, %d draws, %.1f commands a game",
		d.Games, d.Players, d.A, d.B, d.Draws, float64(d.Commands)/float64(max(1, d.Games)))
	if len(d.BySeat) > 1 {
		s += "; a in seat"
		for i, r := range d.BySeat {
			if i > 0 {
				s += ","
			}
			s += fmt.Sprintf(" %d won %d of %d (b %d)", i+1, r.A, r.Games, r.B)
		}
	}
	if d.Failed > 0 {
		s += fmt.Sprintf("; %d failed (first: %v)", d.Failed, d.Err)
	}
	if d.Interrupted {
		s += "; interrupted"
	}
	return s
}

// String is "45 (90.0%, 95% interval 78.6–95.7%)".
func (r Rate) String() string {
	return fmt.Sprintf("%d (%.1f%%, 95%% interval %.1f–%.1f%%)", r.Wins, 100*r.Rate, 100*r.Low, 100*r.High)
}

// MaxDuelCommands ends a duel's game that has not ended after that many
// commands, as a failure: games end by their rules or their round limit
// long before.
const MaxDuelCommands = 100000

// Duel plays games matches of def between bot a, in one seat, and bot b,
// in every other, and counts their wins. The games have the game's
// smallest number of players, and at least two; with swap, a's seat turns
// from game to game (a plays second in every other game of two players),
// else a always plays the first seat. Game i is played with a seed drawn
// from seed and i, each seat's bot with a stream of its own, so a duel of
// bots bounded by playouts gives the same result on every machine. Games
// are played in parallel, one per CPU, and bots must allow that (those of
// New do). Matches that are not game.Cloners are given to the bots with
// their History.
func Duel(ctx context.Context, def game.Definition, a, b Bot, games int, seed uint64, swap bool) DuelResult {
	info := def.Info()
	n := max(2, info.MinPlayers)
	if info.MaxPlayers > 0 {
		n = min(n, info.MaxPlayers)
	}
	res := DuelResult{Players: n, BySeat: make([]SeatRecord, n)}
	results := make([]duelGame, games)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				aSeat := 0
				if swap {
					aSeat = i % n
				}
				results[i] = playDuelGame(ctx, def, a, b, n, aSeat, gameSeed(seed, i))
				results[i].aSeat = aSeat
			}
		}()
	}
	for i := range games {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	// Results are added up in game order, whatever the order they ended in;
	// an interrupted duel counts the games before the first it did not
	// finish, so that its result is that of a duel of that many games.
	for _, g := range results {
		if !g.played {
			res.Interrupted = true
			break
		}
		switch {
		case g.err != nil:
			res.Failed++
			if res.Err == nil {
				res.Err = g.err
			}
			continue
		}
		res.Games++
		res.Commands += g.commands
		seat := &res.BySeat[g.aSeat]
		seat.Games++
		switch {
		case g.aWon:
			res.A.Wins++
			seat.A++
		case g.bWon:
			res.B.Wins++
			seat.B++
		default:
			res.Draws++
		}
	}
	res.A.Rate, res.A.Low, res.A.High = wilson(res.A.Wins, res.Games)
	res.B.Rate, res.B.Low, res.B.High = wilson(res.B.Wins, res.Games)
	return res
}

// duelGame is how one game of a duel went.
type duelGame struct {
	played     bool // to its end, or to a failure
	aSeat      int
	aWon, bWon bool
	commands   int
	err        error
}

// playDuelGame plays one game of a duel, with a in seat aSeat.
func playDuelGame(ctx context.Context, def game.Definition, a, b Bot, n, aSeat int, seed uint64) duelGame {
	players := make([]string, n)
	for i := range players {
		players[i] = fmt.Sprintf("P%d", i+1)
	}
	setup := game.Setup{Players: players, Seed: seed}
	fail := func(err error) duelGame {
		return duelGame{played: true, err: fmt.Errorf("game of seed %d: %w", seed, err)}
	}
	m, err := def.Start(setup)
	if err != nil {
		return fail(err)
	}
	if _, ok := m.(game.Cloner); !ok {
		m = Replayable(m, History{Def: def, Setup: setup})
	}
	bots := rng.New(seed ^ 0x9e3779b97f4a7c15)
	streams := make([]*rng.Stream, n)
	for i := range streams {
		streams[i] = bots.Stream(players[i])
	}
	for cmds := 0; ; cmds++ {
		if o := m.Outcome(); o.Over {
			g := duelGame{played: true, commands: cmds, aWon: slices.Contains(o.Winners, aSeat)}
			g.bWon = !g.aWon && len(o.Winners) > 0
			return g
		}
		if ctx.Err() != nil {
			return duelGame{}
		}
		if cmds >= MaxDuelCommands {
			return fail(fmt.Errorf("not over after %d commands", cmds))
		}
		seat := waiting(m)
		if seat < 0 {
			return fail(fmt.Errorf("not over, and waiting for nobody"))
		}
		bot := b
		if seat == aSeat {
			bot = a
		}
		cmd, err := bot.Choose(ctx, m, seat, streams[seat])
		if err != nil {
			return fail(err)
		}
		if err := m.Apply(seat, cmd); err != nil {
			return fail(fmt.Errorf("seat %d's bot played %s: %w", seat, cmd, err))
		}
	}
}

// gameSeed is the seed of game i of a duel: the (i+1)-th output of
// SplitMix64 started at the duel's seed, so that neighbouring games get
// unrelated seeds.
func gameSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// wilson returns the rate k/n and its 95% Wilson score interval.
func wilson(k, n int) (rate, lo, hi float64) {
	if n == 0 {
		return 0, 0, 1
	}
	const z = 1.959963984540054 // the 97.5th percentile of the normal law
	nf := float64(n)
	p := float64(k) / nf
	d := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / d
	half := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return p, max(0, centre-half), min(1, centre+half)
}
