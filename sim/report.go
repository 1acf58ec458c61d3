package sim

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/tabulagames/tabula/game"
)

// Report is what a simulation found. Everything but Timing depends only on
// the game and the configuration (the number of workers aside): the same
// run gives the same report, byte for byte in JSON.
type Report struct {
	Game    GameInfo `json:"game"`
	Players []string `json:"players"`
	Seed    uint64   `json:"seed"`
	// MaxRounds is the round limit the games were played with (0: none);
	// MaxCommands the most commands a game could take.
	MaxRounds   int  `json:"maxRounds"`
	MaxCommands int  `json:"maxCommands"`
	Rotate      bool `json:"rotate"`
	// Requested is the number of games asked for; Games the number played
	// and reported (fewer only when the run was interrupted).
	Requested   int  `json:"requested"`
	Games       int  `json:"games"`
	Interrupted bool `json:"interrupted"`
	// Finished games were ended by the game's rules: Decided ones with a
	// winner, Draws without.
	Finished int `json:"finished"`
	Decided  int `json:"decided"`
	Draws    int `json:"draws"`
	// RoundLimit counts the games stopped by the round limit.
	RoundLimit RoundLimit `json:"roundLimit"`
	// Failed counts the games that broke.
	Failed Failures `json:"failed"`
	// FairShare is 1 / players: every player's win rate if neither the
	// seat nor the player made a difference.
	FairShare float64 `json:"fairShare"`
	// Seats are the players' wins, by player, in the order of Players.
	Seats []Wins `json:"seats"`
	// Positions are the wins by seat ("seat 1", or "seat 1 (heroes)" when
	// the game names its seats), when the players were rotated; without
	// rotation each player kept one seat, and Seats says it all.
	Positions []Wins `json:"positions,omitempty"`
	// Endings counts how the finished games ended, by the outcome's
	// reason, most frequent first.
	Endings []Count `json:"endings"`
	// Length is the length of the finished games.
	Length Length `json:"length"`
	// Pieces sums what each piece did over the games played to their end
	// (finished or stopped by the round limit), by kind then name; empty
	// when the game keeps no tally.
	Pieces []Piece `json:"pieces"`
	// Places is what each place, piece and seat did (game.Placer), in the
	// game's order; empty when the game counts none.
	Places []PlaceFigures `json:"places"`
	// Map draws the places of one kind as the game's board
	// (game.Mapper); nil when the game has no board to draw.
	Map *game.PlaceMap `json:"map,omitempty"`
	// Timing holds the wall-clock figures, which vary from run to run.
	Timing *Timing `json:"timing,omitempty"`
}

// GameInfo names the game simulated.
type GameInfo struct {
	Pack string `json:"pack"`
	Name string `json:"name"`
	Size string `json:"size,omitempty"`
}

// RoundLimit is the games that reached the round limit without a winner.
type RoundLimit struct {
	Games int `json:"games"`
	// Limit is the round limit (0: none).
	Limit int `json:"limit"`
	// Reasons are the outcomes' reasons, most frequent first.
	Reasons []Count `json:"reasons"`
}

// Failures is the games that broke: an error or a panic of the game, a
// bot command the game refused, a game still going after MaxCommands
// commands.
type Failures struct {
	Games int `json:"games"`
	// First are the first MaxFailures of them, in game order.
	First []Failure `json:"first"`
}

// MaxFailures is how many failed games a report describes.
const MaxFailures = 5

// Failure is one game that broke, with what it takes to replay it.
type Failure struct {
	Game int    `json:"game"`
	Seed uint64 `json:"seed"`
	// Players are the players in seat order.
	Players  []string `json:"players"`
	Commands int      `json:"commands"`
	Error    string   `json:"error"`
}

// Wins is how often one player (or one seat) won.
type Wins struct {
	Name string `json:"name"`
	Wins int    `json:"wins"`
	// WinRate is wins over the decided games, with Low and High the
	// bounds of its 95% Wilson score interval.
	WinRate float64 `json:"winRate"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
}

// Count is a name and how many games it names.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// maxReasons is how many distinct reasons a report counts one by one;
// those first met later are counted together under otherReasons.
const maxReasons = 50

const otherReasons = "(other reasons)"

// Length is the distribution of the finished games' length.
type Length struct {
	// Commands counts the commands played, every seat's.
	Commands Distribution `json:"commands"`
	// Rounds counts the rounds played, as the game counts them.
	Rounds Distribution `json:"rounds"`
}

// Distribution summarises whole numbers: their minimum, nearest-rank
// median and 90th percentile, maximum and mean, and a histogram of at
// most MaxBins bins of equal width. All but the mean are exact.
type Distribution struct {
	Min    int     `json:"min"`
	Median int     `json:"median"`
	P90    int     `json:"p90"`
	Max    int     `json:"max"`
	Mean   float64 `json:"mean"`
	// MeanLow and MeanHigh bound the 95% interval of the mean (normal
	// approximation), what a comparison of two versions reads.
	MeanLow   float64 `json:"meanLow"`
	MeanHigh  float64 `json:"meanHigh"`
	Histogram []Bin   `json:"histogram"`
}

// MaxBins is the most bins a histogram has.
const MaxBins = 20

// Bin is one bar of a histogram: the games whose value is in [From, To].
type Bin struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Games int `json:"games"`
}

// Piece is what one piece did, summed over the games (pieces of the same
// kind and name are one piece).
type Piece struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Games is the number of games whose tally has the piece.
	Games int `json:"games"`
	// Firings, Damage and Kills are totals over every game, and per game
	// played to its end (finished or stopped by the round limit).
	Firings        int64   `json:"firings"`
	Damage         int64   `json:"damage"`
	Kills          int64   `json:"kills"`
	FiringsPerGame float64 `json:"firingsPerGame"`
	DamagePerGame  float64 `json:"damagePerGame"`
	KillsPerGame   float64 `json:"killsPerGame"`
}

// Timing holds the wall-clock figures of a run.
type Timing struct {
	Workers        int     `json:"workers"`
	Seconds        float64 `json:"seconds"`
	GamesPerSecond float64 `json:"gamesPerSecond"`
}

// Played is the number of games played to their end: finished or stopped
// by the round limit (not failed). Per-game figures are over these.
func (r *Report) Played() int { return r.Finished + r.RoundLimit.Games }

// accumulator folds game results, in game order, into counters whose size
// depends on the game and the players, not on the number of games.
type accumulator struct {
	info  game.Info
	cfg   Config
	seats [][]string
	limit int

	games, decided, draws, limitHits, failed int
	failures                                 []Failure
	wins, seatWins                           []int
	endings, limitReasons                    counter
	commands, rounds                         hist
	pieces                                   []pieceSum
	pieceIndex                               map[pieceKey]int
	places                                   places
	placeMap                                 *game.PlaceMap
}

type pieceKey struct{ kind, name string }

// pieceSum is a piece being summed; last is the number (from 1) of the
// last game that counted it.
type pieceSum struct {
	Piece
	last int
}

func newAccumulator(info game.Info, cfg Config, seats [][]string) *accumulator {
	n := len(cfg.Players)
	return &accumulator{info: info, cfg: cfg, seats: seats, limit: roundLimit(info, cfg),
		wins: make([]int, n), seatWins: make([]int, n),
		endings: newCounter(), limitReasons: newCounter(),
		commands: newHist(), rounds: newHist(), pieceIndex: map[pieceKey]int{}}
}

// add folds the next game's result.
func (a *accumulator) add(r *result) {
	i := a.games
	a.games++
	switch r.end {
	case endFailed:
		a.failed++
		if len(a.failures) < MaxFailures {
			a.failures = append(a.failures, Failure{Game: i, Seed: GameSeed(a.cfg.Seed, i),
				Players: slices.Clone(a.seats[i%len(a.seats)]), Commands: r.commands, Error: r.err})
		}
		return
	case endLimit:
		a.limitHits++
		a.limitReasons.add(r.reason)
	case endWon, endDrawn:
		if r.end == endWon {
			a.decided++
		} else {
			a.draws++
		}
		a.endings.add(r.reason)
		a.commands.add(r.commands)
		a.rounds.add(r.rounds)
	}
	for _, p := range r.winners {
		a.wins[p]++
	}
	for _, s := range r.winSeats {
		a.seatWins[s]++
	}
	for _, t := range r.tallies {
		k := pieceKey{t.Kind, t.Name}
		j, ok := a.pieceIndex[k]
		if !ok {
			j = len(a.pieces)
			a.pieceIndex[k] = j
			a.pieces = append(a.pieces, pieceSum{Piece: Piece{Kind: t.Kind, Name: t.Name}})
		}
		p := &a.pieces[j]
		if p.last != a.games {
			// A piece told twice in one game (two goblins) counts one
			// game.
			p.last = a.games
			p.Games++
		}
		p.Firings += int64(t.Firings)
		p.Damage += int64(t.Damage)
		p.Kills += int64(t.Kills)
	}
	a.places.add(r.layout, r.counts)
}

// report builds the report of the games folded so far.
func (a *accumulator) report() *Report {
	n := len(a.cfg.Players)
	finished := a.decided + a.draws
	played := finished + a.limitHits
	r := &Report{
		Game:    GameInfo{Pack: a.info.Pack, Name: a.info.Name, Size: a.info.Size},
		Players: slices.Clone(a.cfg.Players), Seed: a.cfg.Seed,
		MaxRounds: a.limit, MaxCommands: a.cfg.MaxCommands, Rotate: a.cfg.Rotate && n > 1,
		Requested: a.cfg.Games, Games: a.games,
		Finished: finished, Decided: a.decided, Draws: a.draws,
		RoundLimit: RoundLimit{Games: a.limitHits, Limit: a.limit, Reasons: a.limitReasons.counts()},
		Failed:     Failures{Games: a.failed, First: slices.Clone(a.failures)},
		FairShare:  round(1/float64(n), 4),
		Seats:      wins(a.wins, a.decided, func(i int) string { return a.cfg.Players[i] }),
		Endings:    a.endings.counts(),
		Length:     Length{Commands: a.commands.distribution(), Rounds: a.rounds.distribution()},
		Pieces:     []Piece{},
		Places:     a.places.report(played),
		Map:        a.placeMap,
	}
	if r.Failed.First == nil {
		r.Failed.First = []Failure{}
	}
	if r.Rotate {
		r.Positions = wins(a.seatWins, a.decided, func(i int) string {
			if i < len(a.info.Roles) && a.info.Roles[i] != "" {
				return "seat " + strconv.Itoa(i+1) + " (" + a.info.Roles[i] + ")"
			}
			return "seat " + strconv.Itoa(i+1)
		})
	}
	for _, ps := range a.pieces {
		p := ps.Piece
		p.FiringsPerGame = perGame(p.Firings, played)
		p.DamagePerGame = perGame(p.Damage, played)
		p.KillsPerGame = perGame(p.Kills, played)
		r.Pieces = append(r.Pieces, p)
	}
	slices.SortFunc(r.Pieces, func(x, y Piece) int {
		return cmp.Or(cmp.Compare(x.Kind, y.Kind), cmp.Compare(x.Name, y.Name))
	})
	return r
}

func wins(counts []int, decided int, name func(int) string) []Wins {
	out := make([]Wins, len(counts))
	for i, k := range counts {
		rate, lo, hi := Wilson(k, decided)
		out[i] = Wins{Name: name(i), Wins: k, WinRate: round(rate, 4), Low: round(lo, 4), High: round(hi, 4)}
	}
	return out
}

func perGame(n int64, games int) float64 {
	if games == 0 {
		return 0
	}
	return round(float64(n)/float64(games), 3)
}

// round rounds v to the given number of decimals, so that the report
// reads well and its JSON does not show the last bits of a division.
func round(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(v*p) / p
}

// Wilson returns the rate k/n and its 95% Wilson score interval, which,
// unlike the usual normal approximation, stays within [0, 1] and holds for
// few games and for rates near 0 or 1. With no games, the rate is 0 and
// the interval [0, 1]: nothing is known.
func Wilson(k, n int) (rate, low, high float64) {
	if n <= 0 {
		return 0, 0, 1
	}
	const z = 1.96 // the 97.5th percentile of the normal law
	nf := float64(n)
	p := float64(k) / nf
	d := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / d
	half := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return p, max(0, centre-half), min(1, centre+half)
}

// counter counts strings, keeping the first maxReasons distinct ones met
// and counting the rest together.
type counter struct {
	index map[string]int
	list  []Count
	// last is the string counted last, at list[at]: most games end alike,
	// and a string compared with itself needs no hashing.
	last string
	at   int
}

func newCounter() counter { return counter{index: map[string]int{}, at: -1} }

func (c *counter) add(s string) {
	if c.at >= 0 && s == c.last {
		c.list[c.at].Count++
		return
	}
	c.last = s
	i, ok := c.index[s]
	if !ok {
		if len(c.list) >= maxReasons {
			s = otherReasons
			i, ok = c.index[s]
		}
		if !ok {
			i = len(c.list)
			c.index[s] = i
			c.list = append(c.list, Count{Name: s})
		}
	}
	c.at = i
	c.list[i].Count++
}

// counts returns the counts, most frequent first, then by name.
func (c *counter) counts() []Count {
	out := slices.Clone(c.list)
	if out == nil {
		out = []Count{}
	}
	slices.SortStableFunc(out, func(x, y Count) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Name, y.Name))
	})
	return out
}

// hist counts whole numbers exactly: one counter per distinct value, which
// MaxCommands bounds; the small ones (game lengths) by index.
type hist struct {
	small  []int
	counts map[int]int
	n, sum int
}

// histSmall bounds the values hist counts by index.
const histSmall = 4096

func newHist() hist { return hist{counts: map[int]int{}} }

func (h *hist) add(v int) {
	if v >= 0 && v < histSmall {
		if v >= len(h.small) {
			h.small = append(h.small, make([]int, v+1-len(h.small))...)
		}
		h.small[v]++
	} else {
		h.counts[v]++
	}
	h.n++
	h.sum += v
}

func (h *hist) distribution() Distribution {
	if h.n == 0 {
		return Distribution{Histogram: []Bin{}}
	}
	counts := make(map[int]int, len(h.counts)+len(h.small))
	maps.Copy(counts, h.counts)
	for v, k := range h.small {
		if k > 0 {
			counts[v] = k
		}
	}
	values := make([]int, 0, len(counts))
	for v := range counts {
		values = append(values, v)
	}
	slices.Sort(values)
	// quantile is the nearest-rank q-quantile: the smallest value with at
	// least ⌈q·n⌉ values at or below it.
	quantile := func(q float64) int {
		rank := max(1, int(math.Ceil(q*float64(h.n))))
		cum := 0
		for _, v := range values {
			if cum += counts[v]; cum >= rank {
				return v
			}
		}
		return values[len(values)-1]
	}
	lo, hi := values[0], values[len(values)-1]
	var sq float64
	for _, v := range values {
		sq += float64(counts[v]) * float64(v) * float64(v)
	}
	mean, mlo, mhi := meanInterval(float64(h.sum), sq, h.n)
	d := Distribution{Min: lo, Median: quantile(0.5), P90: quantile(0.9), Max: hi,
		Mean: round(mean, 3), MeanLow: round(mlo, 3), MeanHigh: round(mhi, 3), Histogram: []Bin{}}
	width := (hi - lo + MaxBins) / MaxBins // ⌈(hi-lo+1)/MaxBins⌉
	k := 0
	for from := lo; from <= hi; from += width {
		to := min(from+width-1, hi)
		b := Bin{From: from, To: to}
		for ; k < len(values) && values[k] <= to; k++ {
			b.Games += counts[values[k]]
		}
		d.Histogram = append(d.Histogram, b)
	}
	return d
}
