package pieces

import (
	"github.com/tabulagames/tabula/engine/rng"
)

// baseline plays Trouble as plain Go: arrays of progress, a die, the
// pack bot's judgement, no engine, no log, no game interface. It is the
// speed the pack's simulation is measured against, and it plays the very
// same games (TestBaselinePlaysTheSameGames): the same dice from the same
// stream, the same choices.
type baseline struct {
	track, lane, per, players int
	offsets                   []int
	rollAgain, enterOn        []bool
	sides                     int
	maxRounds                 int
	wait                      int
	// progress of each piece, seat by seat: -1 at home, then 0 … track+lane-1.
	progress []int
	// ring holds the piece on each ring space, or -1.
	ring []int
	dice *rng.Streams
}

// baselineResult is what a baseline game comes to.
type baselineResult struct {
	winner, rolls, moves, captures, rounds int
}

func newBaseline(d *Definition, players int) *baseline {
	b := &baseline{track: d.Track, lane: d.Lane, per: d.Pieces, players: players, offsets: d.Offsets[:players],
		rollAgain: d.rollAgain, enterOn: d.enterOn, sides: d.Dice.Sides, maxRounds: DefaultMaxRounds,
		progress: make([]int, players*d.Pieces), ring: make([]int, d.Track), dice: rng.New(0), wait: d.entryWait()}
	return b
}

// cell returns the ring space of a piece's progress (or -1 in the lane).
func (b *baseline) cell(seat, progress int) int {
	if progress < 0 || progress >= b.track {
		return -1
	}
	return (b.offsets[seat] + progress) % b.track
}

// dist is the steps left to the lane, as the pack's bot counts them.
func (b *baseline) dist(progress int) int {
	if progress < 0 {
		return b.track + 1 + b.wait
	}
	return max(b.track-progress, 0)
}

func (b *baseline) play(seed uint64) baselineResult {
	b.dice.Reset(seed)
	die := b.dice.Stream("dice")
	for i := range b.progress {
		b.progress[i] = -1
	}
	for i := range b.ring {
		b.ring[i] = -1
	}
	var res baselineResult
	res.winner = -1
	turn, round := 0, 1
	var cand, targets [16]int
	for {
		r := 1 + die.IntN(b.sides)
		res.rolls++
		// The moves, piece by piece; pieces at home are alike.
		n := 0
		entering := false
		for k := range b.per {
			q := turn*b.per + k
			p := b.progress[q]
			t := p + r
			if p < 0 {
				if !b.enterOn[r] || entering {
					continue
				}
				t = 0
			}
			if t >= b.track+b.lane {
				continue
			}
			if !b.free(turn, q, t) {
				continue
			}
			if p < 0 {
				entering = true
			}
			cand[n], targets[n] = q, t
			n++
		}
		won := false
		if n > 0 {
			pick := 0
			if n > 1 {
				pick = b.choose(turn, cand[:n], targets[:n])
			}
			res.moves++
			res.captures += b.move(turn, cand[pick], targets[pick])
			won = b.allHome(turn)
		}
		if won {
			res.winner = turn
			res.rounds = round
			return res
		}
		if b.rollAgain[r] {
			continue
		}
		turn = (turn + 1) % b.players
		if turn == 0 {
			if round >= b.maxRounds {
				res.rounds = round
				return res
			}
			round++
		}
	}
}

// free reports whether a seat's piece may end on progress t: no piece of
// its own there (an opponent's is captured).
func (b *baseline) free(seat, piece, t int) bool {
	if t >= b.track {
		for k := range b.per {
			q := seat*b.per + k
			if q != piece && b.progress[q] == t {
				return false
			}
		}
		return true
	}
	o := b.ring[b.cell(seat, t)]
	return o < 0 || o/b.per != seat
}

// move moves a piece and returns the captures.
func (b *baseline) move(seat, piece, t int) int {
	if c := b.cell(seat, b.progress[piece]); c >= 0 {
		b.ring[c] = -1
	}
	b.progress[piece] = t
	c := b.cell(seat, t)
	if c < 0 {
		return 0
	}
	caps := 0
	if o := b.ring[c]; o >= 0 {
		b.progress[o] = -1
		caps = 1
	}
	b.ring[c] = piece
	return caps
}

func (b *baseline) allHome(seat int) bool {
	for k := range b.per {
		if b.progress[seat*b.per+k] < b.track {
			return false
		}
	}
	return true
}

// choose is the pack bot's judgement, on progress instead of spaces.
func (b *baseline) choose(seat int, pieces, targets []int) int {
	best, bestScore := 0, -1<<30
	for i, q := range pieces {
		p, t := b.progress[q], targets[i]
		sc := b.dist(p) - b.dist(t)
		if c := b.cell(seat, t); c >= 0 {
			if o := b.ring[c]; o >= 0 {
				sc += scoreCapture
			}
			if b.danger(seat, c) {
				sc -= scoreDanger
			}
		} else if p < b.track {
			sc += scoreHome
			home := true
			for k := range b.per {
				if o := seat*b.per + k; o != q && b.progress[o] < b.track {
					home = false
				}
			}
			if home {
				sc += scoreFinish
			}
		}
		if p < 0 {
			sc += scoreEnter
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}

// danger reports whether an opponent's piece on the ring could reach ring
// space c with one die.
func (b *baseline) danger(seat, c int) bool {
	for q, a := range b.progress {
		p := q / b.per
		if p == seat || a < 0 {
			continue
		}
		t := (c - b.offsets[p] + b.track) % b.track
		if t > a && t-a <= b.sides {
			return true
		}
	}
	return false
}
