package pieces

import (
	"encoding/json"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
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

// StartFast begins a match for a simulation (sim.Fast): the same match
// Start begins, whose bot plays without writing its commands as JSON.
func (d *Definition) StartFast(s game.Setup) (game.Match, error) { return d.NewMatch(s) }

// AppendWaiting appends the seats Waiting returns to dst (sim.FastMatch).
func (m *Match) AppendWaiting(dst []int) []int {
	if m.s.Over() {
		return dst
	}
	return append(dst, m.s.Turn)
}

// PlayBot plays for the seat what BotCommand would return, as Apply would
// play it, without the JSON between them (sim.FastMatch).
func (m *Match) PlayBot(seat int, _ *rng.Stream) (bool, error) {
	s := m.s
	if s.Over() || seat != s.Turn {
		return false, nil
	}
	if s.Phase == PhaseRoll {
		return true, m.play(seat, true, 0, -1, "")
	}
	moves := m.legalMoves(seat, s.Roll)
	best := moves[m.bestMove(seat, moves)]
	// Apply plays the first move of that piece to that space.
	for i, mv := range moves {
		if mv.piece == best.piece && mv.to == best.to {
			return true, m.command(m.def.pack.fx.move.Call(i), false)
		}
	}
	return true, nil // not reached: best is among the moves
}

// Restart starts the match over as StartFast would (sim.FastMatch),
// keeping its memory when the number of players is the same and no dice
// are scripted: the engine's match is reset rather than built again.
func (m *Match) Restart(s game.Setup) error {
	d := m.def
	if len(s.Players) != m.seats || len(s.Dice) > 0 || d.Info().CheckPlayers(len(s.Players)) != nil {
		n, err := d.NewMatch(s)
		if err != nil {
			return err
		}
		*m = *n
		m.e.State = m // the engine's state is the match, which n was
		return nil
	}
	if err := engine.CheckPlayers(s.Players); err != nil {
		return err
	}
	st := m.s
	*st = State{Players: s.Players, Pieces: st.Pieces, Moving: -1, Roller: -1, MaxRounds: s.MaxRounds, Round: 1}
	if st.MaxRounds == 0 {
		st.MaxRounds = DefaultMaxRounds
	}
	for seat := range s.Players {
		copy(st.Pieces[seat*d.Pieces:], d.geo[seat].Start)
	}
	m.e.Reset(m, s.Seed)
	m.e.Players = s.Players
	for _, t := range d.triggers {
		m.e.Index.Add(t.def, engine.System, engine.NoPlayer, engine.LocationID(t.space), int64(t.space))
	}
	m.dice = m.e.RNG.Stream("dice")
	m.log = journal{}
	clear(m.tally)
	m.movesKey = -1
	m.undoable = false
	m.recount()
	return m.run(d.pack.fx.start.Call(struct{}{}))
}
