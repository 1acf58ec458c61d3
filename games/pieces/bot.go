package pieces

import (
	"encoding/json"

	"github.com/tabulagames/tabula/engine/rng"
)

// BotCommand is the pack's quick bot: it rolls, and of several moves it
// plays the best by a fixed judgement (see bestMove). It draws nothing from
// r: the same position gives the same move.
func (m *Match) BotCommand(seat int, _ *rng.Stream) (json.RawMessage, bool) {
	s := m.s
	if s.Over() || seat != s.Turn {
		return nil, false
	}
	if s.Phase == PhaseRoll {
		return rollJSON, true
	}
	moves := m.legalMoves(seat, s.Roll)
	return m.moveJSON(moves[m.bestMove(seat, moves)]), true
}

// The bot's judgement of a move, in points.
const (
	scoreFinish  = 1000 // the move gets the player's last piece home
	scoreCapture = 100  // per opponent's piece sent back
	scoreHome    = 60   // the piece reaches its goal
	scoreEnter   = 40   // the piece comes out
	scoreDanger  = 30   // taken off when an opponent's piece could land on it next
)

// bestMove returns the index of the move the bot plays: the one that
// finishes, else the one scoring most (captures, reaching home, coming
// out, the ground gained, less the danger of where it ends), the first of
// equals.
func (m *Match) bestMove(seat int, moves []move) int {
	best, bestScore := 0, -1<<30
	for i, mv := range moves {
		if sc := m.score(seat, mv); sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}

func (m *Match) score(seat int, mv move) int {
	d := m.def
	g := &d.geo[seat]
	sc := mv.captures*scoreCapture + g.dist[mv.from] - g.dist[mv.to]
	if g.goal[mv.to] && !g.goal[mv.from] {
		sc += scoreHome
		if m.homeAfter(seat, mv) {
			sc += scoreFinish
		}
	}
	if mv.enter {
		sc += scoreEnter
	}
	if m.danger(seat, mv.to) {
		sc -= scoreDanger
	}
	return sc
}

// homeAfter reports whether every piece of the seat but the moving one is
// home already.
func (m *Match) homeAfter(seat int, mv move) bool {
	g := &m.def.geo[seat]
	per := m.def.Pieces
	for q := seat * per; q < (seat+1)*per; q++ {
		if q != mv.piece && !g.goal[m.s.Pieces[q]] {
			return false
		}
	}
	return true
}

// danger reports whether an opponent's piece on the board is close
// enough behind a space to land on it with one roll: within the dice's
// top roll, counted along that opponent's way home.
func (m *Match) danger(seat, to int) bool {
	d := m.def
	if !d.Capture || d.sheltered[to] {
		return false
	}
	top := d.Dice.Count * d.Dice.Sides
	per := d.Pieces
	for q, sp := range m.s.Pieces {
		p := q / per
		if p == seat || d.startZone[sp] {
			continue
		}
		g := &d.geo[p]
		if d.Engine == Trouble {
			if a, b := g.at[sp], g.at[to]; b > a && b-a <= top {
				return true
			}
			continue
		}
		if gap := g.dist[sp] - g.dist[to]; gap > 0 && gap <= top {
			return true
		}
	}
	return false
}
