package sim

import (
	"math"
	"slices"
)

// Summary is what a simulation found. Everything but Timing depends only on
// the board, the players, the seed, the round cap and the number of games:
// it is the same whatever the number of workers.
type Summary struct {
	Board     BoardInfo `json:"board"`
	Players   []string  `json:"players"`
	Seed      uint64    `json:"seed"`
	MaxRounds int       `json:"maxRounds"`
	// Requested is the number of games asked for; Games the number
	// summarised (fewer only when the run was interrupted).
	Requested   int  `json:"requested"`
	Games       int  `json:"games"`
	Interrupted bool `json:"interrupted"`
	// Finished games ended by the board's rules; Capped ones reached the
	// round cap; Stalled ones took more than TurnsPerRound turns per
	// player and round; Failed ones broke (FirstFailure says how).
	Finished     int      `json:"finished"`
	Capped       int      `json:"stoppedAtCap"`
	Stalled      int      `json:"stalled"`
	Failed       int      `json:"failed"`
	FirstFailure *Failure `json:"firstFailure"`
	// Length is the length of the finished games.
	Length Length `json:"length"`
	// Decided games had a winner; FairShare is 1 / players, what every
	// seat's win rate would be if seat order did not matter.
	Decided   int     `json:"decided"`
	FairShare float64 `json:"fairShare"`
	Seats     []Seat  `json:"seats"`
	Spaces    []Space `json:"spaces"`
	// Actions counts the board actions applied, by type (those the board
	// never applied are left out).
	Actions []Count `json:"actions"`
	// Timing holds the wall-clock figures, which vary from run to run.
	Timing *Timing `json:"timing,omitempty"`
}

// BoardInfo names the board simulated.
type BoardInfo struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Spaces int    `json:"spaces"`
	Events int    `json:"events"`
}

// Failure is the first game (in game order) whose match broke.
type Failure struct {
	Game    int    `json:"game"`
	Seed    uint64 `json:"seed"`
	Message string `json:"message"`
}

// Length is the distribution of the finished games' length.
type Length struct {
	// Turns counts every turn begun, skipped and repeated turns included.
	Turns Distribution `json:"turns"`
	// Rounds counts the rounds begun: a game that ends during a round's
	// second turn lasted that round.
	Rounds Distribution `json:"rounds"`
}

// Distribution summarises whole numbers: min, the nearest-rank median and
// 90th percentile, max, the mean, and a histogram of at most MaxBins bins
// of equal width. All but the mean are exact.
type Distribution struct {
	Min       int     `json:"min"`
	Median    int     `json:"median"`
	P90       int     `json:"p90"`
	Max       int     `json:"max"`
	Mean      float64 `json:"mean"`
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

// Seat is what one seat did, over every game that did not fail.
type Seat struct {
	Seat int    `json:"seat"` // 1-based
	Name string `json:"name"`
	// Wins and WinRate (wins / decided games) with the 95% Wilson score
	// interval of the rate.
	Wins    int     `json:"wins"`
	WinRate float64 `json:"winRate"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	// Prompts is the number of prompts the seat had to acknowledge, per
	// game on average.
	Prompts float64 `json:"promptsPerGame"`
	// Stats are the board's stats at the end of a game (e.g. drinks).
	Stats []Stat `json:"stats"`
	// Effects counts the player effects applied to the seat, per game.
	Effects []Rate `json:"effects"`
}

// Stat is one stat of a seat at the end of the games: its mean and its
// largest value.
type Stat struct {
	Name string  `json:"name"`
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// Rate is a count and its mean per game.
type Rate struct {
	Name    string  `json:"name"`
	Total   int64   `json:"total"`
	PerGame float64 `json:"perGame"`
}

// Count is a name and a count.
type Count struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// Space is what happened on one space, over every game that did not fail.
type Space struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Landings are moves that ended here; Entries are arrivals (each step
	// onto it, teleports and moves back included); Fired is how often its
	// events fired. Each comes as a total and per game.
	Landings        int64   `json:"landings"`
	LandingsPerGame float64 `json:"landingsPerGame"`
	Entries         int64   `json:"entries"`
	EntriesPerGame  float64 `json:"entriesPerGame"`
	Fired           int64   `json:"fired"`
	FiredPerGame    float64 `json:"firedPerGame"`
	Events          []Event `json:"events"`
}

// Event is how often one event of a space fired.
type Event struct {
	Index   int    `json:"index"`
	Trigger string `json:"trigger"`
	Action  string `json:"action"`
	Fired   int64  `json:"fired"`
}

// Timing holds the wall-clock figures of a run.
type Timing struct {
	Workers        int     `json:"workers"`
	Seconds        float64 `json:"seconds"`
	GamesPerSecond float64 `json:"gamesPerSecond"`
}

// accumulator folds game results, in game order, into fixed-size counters.
type accumulator struct {
	p   *runner
	cfg Config

	games, finished, capped, stalled, failed int
	first                                    *Failure
	turns, rounds                            hist
	wins                                     []int64
	decided                                  int
	landings, entries                        []int64
	fired                                    []int64
	prompts                                  []int64
	statSum, statMax                         []float64
	effects                                  []int64
}

func newAccumulator(p *runner, cfg Config) *accumulator {
	n := len(cfg.Players)
	return &accumulator{
		p: p, cfg: cfg,
		turns:  newHist(p.turnLimit + 2),
		rounds: newHist(cfg.MaxRounds + 2),
		wins:   make([]int64, n), landings: make([]int64, p.spaces), entries: make([]int64, p.spaces),
		fired: make([]int64, len(p.triggers)), prompts: make([]int64, n),
		statSum: make([]float64, n*len(p.stats)), statMax: make([]float64, n*len(p.stats)),
		effects: make([]int64, n*len(Effects)),
	}
}

func (a *accumulator) add(r *gameResult) {
	a.games++
	switch r.end {
	case endFailed:
		a.failed++
		if a.first == nil {
			a.first = &Failure{Game: r.index, Seed: r.seed, Message: r.err}
		}
		return
	case endCapped:
		a.capped++
	case endStalled:
		a.stalled++
	case endFinished:
		a.finished++
		a.turns.add(r.turns)
		a.rounds.add(r.rounds)
	}
	if len(r.winners) > 0 {
		a.decided++
		for _, w := range r.winners {
			a.wins[w]++
		}
	}
	for i := range a.landings {
		a.landings[i] += int64(r.landings[i])
		a.entries[i] += int64(r.entries[i])
	}
	for i := range a.fired {
		a.fired[i] += int64(r.fired[i])
	}
	for i := range a.prompts {
		a.prompts[i] += int64(r.prompts[i])
	}
	for i, v := range r.stats {
		a.statSum[i] += v
		if a.games-a.failed == 1 || v > a.statMax[i] {
			a.statMax[i] = v
		}
	}
	for i := range a.effects {
		a.effects[i] += int64(r.effects[i])
	}
}

// summary builds the summary of the games folded so far.
func (a *accumulator) summary() *Summary {
	b := a.p.def.Board
	played := a.games - a.failed
	s := &Summary{
		Board:     BoardInfo{Name: b.Name, File: b.File, Spaces: len(b.Spaces), Events: len(a.p.triggers)},
		Players:   slices.Clone(a.cfg.Players),
		Seed:      a.cfg.Seed,
		MaxRounds: a.cfg.MaxRounds,
		Requested: a.cfg.Games, Games: a.games,
		Finished: a.finished, Capped: a.capped, Stalled: a.stalled, Failed: a.failed, FirstFailure: a.first,
		Length:    Length{Turns: a.turns.distribution(), Rounds: a.rounds.distribution()},
		Decided:   a.decided,
		FairShare: round(1/float64(len(a.cfg.Players)), 4),
		Seats:     []Seat{},
		Spaces:    []Space{},
		Actions:   []Count{},
	}
	nstats := len(a.p.stats)
	for seat, name := range a.cfg.Players {
		rate, lo, hi := wilson(a.wins[seat], int64(a.decided))
		st := Seat{Seat: seat + 1, Name: name, Wins: int(a.wins[seat]), WinRate: round(rate, 4), Low: round(lo, 4), High: round(hi, 4),
			Prompts: perGame(a.prompts[seat], played), Stats: []Stat{}, Effects: []Rate{}}
		for k, stat := range a.p.stats {
			i := seat*nstats + k
			mean := 0.0
			if played > 0 {
				mean = a.statSum[i] / float64(played)
			}
			st.Stats = append(st.Stats, Stat{Name: stat, Mean: round(mean, 3), Max: a.statMax[i]})
		}
		for k, fx := range Effects {
			n := a.effects[seat*len(Effects)+k]
			if n > 0 {
				st.Effects = append(st.Effects, Rate{Name: fx, Total: n, PerGame: perGame(n, played)})
			}
		}
		s.Seats = append(s.Seats, st)
	}
	for i := range b.Spaces {
		sp := &b.Spaces[i]
		s.Spaces = append(s.Spaces, Space{ID: sp.ID, Name: sp.Name,
			Landings: a.landings[i], LandingsPerGame: perGame(a.landings[i], played),
			Entries: a.entries[i], EntriesPerGame: perGame(a.entries[i], played), Events: []Event{}})
	}
	actions := make([]int64, len(Actions))
	for id, t := range a.p.triggers {
		sp := &s.Spaces[t.space]
		ev := &b.Spaces[t.space].Events[t.event]
		sp.Fired += a.fired[id]
		sp.Events = append(sp.Events, Event{Index: t.event, Trigger: ev.Trigger, Action: ev.Action.Type, Fired: a.fired[id]})
		if t.action >= 0 {
			actions[t.action] += a.fired[id]
		}
	}
	for i := range s.Spaces {
		s.Spaces[i].FiredPerGame = perGame(s.Spaces[i].Fired, played)
	}
	for i, n := range actions {
		if n > 0 {
			s.Actions = append(s.Actions, Count{Name: Actions[i], Count: n})
		}
	}
	return s
}

func perGame(n int64, games int) float64 {
	if games == 0 {
		return 0
	}
	return round(float64(n)/float64(games), 3)
}

// round rounds v to the given number of decimals, so that the summary
// reads well.
func round(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(v*p) / p
}

// wilson returns the rate k/n and its 95% Wilson score interval, which,
// unlike the normal approximation, stays within [0, 1] and behaves for
// rates near 0 or 1 and for few games.
func wilson(k, n int64) (rate, lo, hi float64) {
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

// hist counts whole numbers in [0, len) exactly; larger values count in
// the last cell. Its size depends on the round cap, not on the games.
type hist struct {
	counts []int64
	n      int64
	sum    int64
}

func newHist(size int) hist { return hist{counts: make([]int64, size)} }

func (h *hist) add(v int) {
	v = max(0, min(v, len(h.counts)-1))
	h.counts[v]++
	h.n++
	h.sum += int64(v)
}

// quantile returns the nearest-rank q-quantile: the smallest value with at
// least ⌈q·n⌉ values at or below it.
func (h *hist) quantile(q float64) int {
	rank := max(1, int64(math.Ceil(q*float64(h.n))))
	var cum int64
	for v, c := range h.counts {
		cum += c
		if cum >= rank {
			return v
		}
	}
	return len(h.counts) - 1
}

func (h *hist) distribution() Distribution {
	if h.n == 0 {
		return Distribution{Histogram: []Bin{}}
	}
	lo := slices.IndexFunc(h.counts, func(c int64) bool { return c > 0 })
	hi := len(h.counts) - 1
	for h.counts[hi] == 0 {
		hi--
	}
	d := Distribution{Min: lo, Median: h.quantile(0.5), P90: h.quantile(0.9), Max: hi,
		Mean: round(float64(h.sum)/float64(h.n), 3), Histogram: []Bin{}}
	width := (hi - lo + MaxBins) / MaxBins // ⌈(hi-lo+1)/MaxBins⌉
	for from := lo; from <= hi; from += width {
		to := min(from+width-1, hi)
		var n int64
		for v := from; v <= to; v++ {
			n += h.counts[v]
		}
		d.Histogram = append(d.Histogram, Bin{From: from, To: to, Games: int(n)})
	}
	return d
}
