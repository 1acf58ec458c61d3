package pieces

import (
	"fmt"
	"math"

	"github.com/tabulagames/tabula/engine"
)

// move is one way a piece can go with the roll. It holds no pointer, so
// that the search for moves writes none.
type move struct {
	piece    int // index in State.Pieces
	from, to int
	// lo and hi locate the spaces the piece enters, ending with to: in its
	// player's Path (Trouble), or in the match's scratch of paths.
	lo, hi int
	// enter is set when the piece comes out of its start.
	enter bool
	// captures counts the opponents' pieces it sends back.
	captures int
}

// path returns the spaces a move enters, ending with its target; it is
// valid until the moves are searched again.
func (m *Match) path(mv move) []int {
	if m.def.Engine == Trouble {
		return m.def.geo[mv.piece/m.def.Pieces].Path[mv.lo:mv.hi]
	}
	return m.paths[mv.lo:mv.hi]
}

// atStart reports whether a space is a start space, where pieces wait to
// come out: a piece is only ever on its own player's.
func (d *Definition) atStart(space int) bool { return d.startZone[space] }

// forbidden reports whether a seat's piece may not move onto a space:
// anybody's start space, or another player's goal.
func (d *Definition) forbidden(seat, space int) bool {
	return d.startZone[space] || (d.anyGoal[space] && !d.geo[seat].goal[space])
}

// legalMoves returns the moves a seat may make with a roll, each piece's
// once (a piece of Trouble has at most one; a multi-piece piece one per
// space it can reach). Moves that would do the same thing are offered
// once, with the lowest-numbered piece: pieces still at their start are
// alike, and so are pieces on the same space. The result is the match's
// scratch: it is valid until the state changes. It is kept for the same
// seat and roll until then (see movesKey).
func (m *Match) legalMoves(seat, roll int) []move {
	d, s := m.def, m.s
	key := seat<<16 | roll
	if m.movesKey == key {
		return m.moves
	}
	m.movesKey = key
	m.moves, m.paths = m.moves[:0], m.paths[:0]
	per := d.Pieces
	for k := range per {
		piece := seat*per + k
		from := s.Pieces[piece]
		start := d.atStart(from)
		if start && d.enterOn != nil && !d.enterOn[roll] {
			continue
		}
		if d.Engine == Trouble {
			g := &d.geo[seat]
			lo, hi := 0, 1
			if !start {
				p := g.at[from]
				if p+roll >= len(g.Path) {
					continue // a piece finishes by exact count
				}
				lo, hi = p+1, p+roll+1
			}
			m.consider(move{piece: piece, from: from, to: g.Path[hi-1], lo: lo, hi: hi, enter: start}, seat)
			continue
		}
		m.reach(seat, piece, from, roll, start)
	}
	return m.moves
}

// consider adds a move if its piece may land where it goes and no move
// already does the same.
func (m *Match) consider(mv move, seat int) {
	caps, ok := m.landing(seat, mv.piece, mv.to)
	if !ok {
		return
	}
	for _, o := range m.moves {
		if o.to == mv.to && (o.from == mv.from || (o.enter && mv.enter)) {
			return
		}
	}
	mv.captures = caps
	m.moves = append(m.moves, mv)
}

// landing reports whether a seat's piece may end a move on a space, and
// how many opponents' pieces it would send back. A piece is never
// captured on a safe space, a goal or a start; where pieces may not share
// a space (Trouble), one's own piece blocks it, and so does an opponent's
// that cannot be captured.
func (m *Match) landing(seat, piece, to int) (captures int, ok bool) {
	d := m.def
	if n := m.count[to]; n == 0 || (n == 1 && m.s.Pieces[piece] == to) {
		return 0, true
	}
	per := d.Pieces
	for q, sp := range m.s.Pieces {
		if sp != to || q == piece {
			continue
		}
		switch {
		case q/per == seat:
			if !d.Share {
				return 0, false
			}
		case d.Capture && !d.sheltered[to]:
			captures++
		case !d.Share:
			return 0, false
		}
	}
	return captures, true
}

// put moves a piece to a space, keeping the count of pieces per space.
func (m *Match) put(piece, space int) {
	m.count[m.s.Pieces[piece]]--
	m.s.Pieces[piece] = space
	m.count[space]++
}

// recount counts the pieces on every space again, after the state was
// set from outside (a new match, a clone, a scenario's setup).
func (m *Match) recount() {
	if len(m.count) != len(m.def.Spaces) {
		m.count = make([]int16, len(m.def.Spaces))
	}
	clear(m.count)
	for _, sp := range m.s.Pieces {
		m.count[sp]++
	}
	m.movesKey = -1
}

// node is a space reached in a search of a multi-piece board, with the
// node it was reached from.
type node struct {
	space, parent int32
}

// reach finds where a multi-piece piece can go with a roll: every space
// reached by exactly that many steps along the board's connections,
// never onto a start space or another player's goal. A piece that would
// have to stop short (a dead end) cannot use the roll. Each space reached
// keeps the first way found, in the order of the board's connections.
func (m *Match) reach(seat, piece, from, roll int, start bool) {
	d := m.def
	if len(m.seen) != len(d.Spaces) {
		m.seen = make([]int32, len(d.Spaces))
	}
	m.front = append(m.front[:0], node{space: int32(from), parent: -1})
	lo, hi := 0, 1
	for range roll {
		if m.stamp == math.MaxInt32 {
			clear(m.seen)
			m.stamp = 0
		}
		m.stamp++
		for i := lo; i < hi; i++ {
			for _, nx := range d.Spaces[m.front[i].space].Next {
				if d.forbidden(seat, nx) || m.seen[nx] == m.stamp {
					continue
				}
				m.seen[nx] = m.stamp
				m.front = append(m.front, node{space: int32(nx), parent: int32(i)})
			}
		}
		lo, hi = hi, len(m.front)
		if lo == hi {
			return
		}
	}
	for i := lo; i < hi; i++ {
		plo := len(m.paths)
		m.paths = append(m.paths, make([]int, roll)...)
		for k, j := roll-1, i; k >= 0; k-- {
			m.paths[plo+k] = int(m.front[j].space)
			j = int(m.front[j].parent)
		}
		m.consider(move{piece: piece, from: from, to: int(m.front[i].space), lo: plo, hi: plo + roll, enter: start}, seat)
	}
}

// allHome reports whether every piece of a seat is in its goal.
func (m *Match) allHome(seat int) bool {
	g := &m.def.geo[seat]
	per := m.def.Pieces
	for _, sp := range m.s.Pieces[seat*per : (seat+1)*per] {
		if !g.goal[sp] {
			return false
		}
	}
	return true
}

// The effects. Commands are checked before they run (Play), so effects
// never refuse.

func startGame(c *engine.Ctx, m *Match, _ struct{}) error {
	m.record(c, record{kind: recStart, seat: int8(m.s.Turn)})
	return nil
}

// roll rolls the dice for the player whose turn it is. With no move, the
// turn passes (or the player rolls again); with one, the piece moves; with
// several, the player chooses.
func roll(c *engine.Ctx, m *Match, _ struct{}) error {
	s, d := m.s, m.def
	s.Dice = s.Dice[:0]
	total := 0
	for range d.Dice.Count {
		var v int
		if len(s.Script) > 0 {
			v, s.Script = s.Script[0], s.Script[1:]
		} else {
			v = 1 + m.dice.IntN(d.Dice.Sides)
		}
		s.Dice = append(s.Dice, v)
		total += v
	}
	s.Roll, s.Roller = total, s.Turn
	moves := m.legalMoves(s.Turn, total)
	m.record(c, record{kind: recRolled, seat: int8(s.Turn), amount: int16(total), flag: len(moves) == 0})
	switch len(moves) {
	case 0:
		m.endRoll(c)
	case 1:
		m.startMove(c, moves[0])
	default:
		s.Phase = PhaseMove
	}
	return nil
}

// movePiece plays the chosen move: the i-th legal move of the roll.
func movePiece(c *engine.Ctx, m *Match, i int) error {
	moves := m.legalMoves(m.s.Turn, m.s.Roll)
	if i < 0 || i >= len(moves) {
		return fmt.Errorf("no move %d among the %d legal moves", i, len(moves))
	}
	m.startMove(c, moves[i])
	return nil
}

// startMove begins a move: the piece walks its path space by space.
func (m *Match) startMove(c *engine.Ctx, mv move) {
	s := m.s
	m.movesKey = -1
	s.Phase = PhaseRoll
	s.Moving = mv.piece
	path := m.path(mv)
	if cap(s.Path) < len(path) {
		s.Path = make([]int, 0, max(len(path), 2*m.def.Dice.Count*m.def.Dice.Sides))
	}
	s.Path = s.Path[:len(path)]
	copy(s.Path, path)
	s.Step = 0
	kind := recMoved
	if mv.enter {
		kind = recEntered
	}
	seat := mv.piece / m.def.Pieces
	m.record(c, record{kind: kind, seat: int8(seat), piece: uint8(mv.piece), from: int16(mv.from), to: int16(mv.to), amount: int16(s.Roll)})
	m.tally[seat*tallySeat+tallyMoves]++
	m.walk(c)
}

// step goes on with a move after the triggers of the spaces it passed.
func step(c *engine.Ctx, m *Match, _ struct{}) error {
	m.walk(c)
	return nil
}

// walk moves the piece along its path. Spaces without triggers are passed
// at once; at a space whose triggers listen (leaving the space before, or
// entering this one), the move pauses until they have fired.
func (m *Match) walk(c *engine.Ctx) {
	s, d := m.s, m.def
	seat := s.Moving / d.Pieces
	for s.Step < len(s.Path) {
		from, to := s.Pieces[s.Moving], s.Path[s.Step]
		s.Step++
		m.put(s.Moving, to)
		m.tally[seat*tallySeat+tallySteps]++
		exit, enter := d.listens[from]&listenExit != 0, d.listens[to]&listenEnter != 0
		if exit || enter {
			if exit {
				m.emit(c, d.pack.evExit, s.Moving, from)
			}
			if enter {
				m.emit(c, d.pack.evEnter, s.Moving, to)
			}
			c.Then(d.pack.fx.step.Call(struct{}{}))
			return
		}
	}
	s.Path, s.Step = s.Path[:0], 0
	to := s.Pieces[s.Moving]
	m.tally[m.seats*tallySeat+to*tallySpace+tallySpaceLandings]++
	m.settle(c, s.Moving)
	if d.listens[to]&listenLand != 0 {
		m.emit(c, d.pack.evLand, s.Moving, to)
		c.Then(d.pack.fx.after.Call(struct{}{}))
		return
	}
	m.finishMove(c)
}

// settle sends back the opponents' pieces a piece landed on, when it
// captures them.
func (m *Match) settle(c *engine.Ctx, piece int) {
	d, s := m.def, m.s
	to := s.Pieces[piece]
	if !d.Capture || d.sheltered[to] {
		return
	}
	per := d.Pieces
	seat := piece / per
	for q, sp := range s.Pieces {
		if sp != to || q/per == seat {
			continue
		}
		back := d.geo[q/per].Start[q%per]
		m.put(q, back)
		m.record(c, record{kind: recCaptured, seat: int8(seat), piece: uint8(piece), other: uint8(q), from: int16(to), to: int16(back)})
		m.tally[seat*tallySeat+tallyCaptures]++
		m.tally[m.seats*tallySeat+to*tallySpace+tallySpaceCaptures]++
	}
}

// emit announces a moment of a piece at a space, for the space's triggers.
func (m *Match) emit(c *engine.Ctx, typ engine.EventType, piece, space int) {
	ev := engine.NewEvent(typ)
	ev.Subject = entity(piece)
	ev.Player = engine.PlayerID(piece / m.def.Pieces)
	ev.Location = engine.LocationID(space)
	c.Emit(ev)
}

func afterMove(c *engine.Ctx, m *Match, _ struct{}) error {
	m.finishMove(c)
	return nil
}

// finishMove ends a move once every trigger has fired: a player with every
// piece home takes the next place (and the game may end); otherwise the
// roll ends as rolls do.
func (m *Match) finishMove(c *engine.Ctx) {
	s := m.s
	seat := s.Moving / m.def.Pieces
	s.Moving = -1
	if s.placed(seat) == 0 && m.allHome(seat) {
		s.Placings = append(s.Placings, seat)
		m.record(c, record{kind: recPlaced, seat: int8(seat), amount: int16(len(s.Placings))})
		left := -1
		for p := range s.Players {
			if s.placed(p) == 0 {
				if left >= 0 {
					left = -2 // two or more still play
					break
				}
				left = p
			}
		}
		switch {
		case !m.def.Placings:
			m.gameOver(c, fmt.Sprintf("%s got every piece home", s.Players[seat]))
		case left >= 0:
			s.Placings = append(s.Placings, left)
			m.record(c, record{kind: recPlaced, seat: int8(left), amount: int16(len(s.Placings))})
			m.gameOver(c, fmt.Sprintf("%s got every piece home first", s.Players[s.Placings[0]]))
		case left == -1:
			m.gameOver(c, fmt.Sprintf("%s got every piece home first", s.Players[s.Placings[0]]))
		default:
			m.passTurn(c)
		}
		return
	}
	m.endRoll(c)
}

// endRoll ends a roll that did not finish the player: on a roll-again
// roll the player rolls again, else the turn passes.
func (m *Match) endRoll(c *engine.Ctx) {
	s := m.s
	s.Phase = PhaseRoll
	if m.def.rollAgain[s.Roll] {
		m.record(c, record{kind: recAgain, seat: int8(s.Turn), amount: int16(s.Roll)})
		return
	}
	m.passTurn(c)
}

// passTurn gives the turn to the next seat still playing; a new round
// begins when the turn comes round again.
func (m *Match) passTurn(c *engine.Ctx) {
	s := m.s
	n := len(s.Players)
	next := s.Turn
	for i := 1; i <= n; i++ {
		if p := (s.Turn + i) % n; s.placed(p) == 0 {
			next = p
			break
		}
	}
	if next <= s.Turn {
		if s.Round >= s.MaxRounds {
			m.gameOver(c, fmt.Sprintf("the round limit of %d was reached", s.MaxRounds))
			return
		}
		s.Round++
	}
	s.Turn, s.Phase = next, PhaseRoll
	m.record(c, record{kind: recTurn, seat: int8(next), amount: int16(min(s.Round, maxRound))})
}

func (m *Match) gameOver(c *engine.Ctx, reason string) {
	s := m.s
	s.Phase, s.Reason = PhaseOver, reason
	m.record(c, record{kind: recOver, seat: -1})
}

// The actions of the board's triggers act on the piece whose move set
// them off.

func prompt(c *engine.Ctx, m *Match, a promptArgs) error {
	piece := pieceOf(c.Event().Subject)
	t := c.Trigger().Def
	m.record(c, record{kind: recPrompt, seat: int8(piece / m.def.Pieces), piece: uint8(piece), to: int16(c.Event().Location),
		other: uint8(t.Data.(int)), flag: a.All})
	m.fired(c)
	return nil
}

func displace(c *engine.Ctx, m *Match, steps int) error {
	d, s := m.def, m.s
	piece := pieceOf(c.Event().Subject)
	seat := piece / d.Pieces
	at := s.Pieces[piece]
	if d.Engine == Trouble {
		g := &d.geo[seat]
		if p := g.at[at]; p >= 0 {
			at = g.Path[min(max(p+steps, 0), len(g.Path)-1)]
		}
	} else {
		for range abs(steps) {
			ways := d.Spaces[at].Next
			if steps < 0 {
				ways = d.Spaces[at].Prev
			}
			moved := false
			for _, w := range ways {
				if !d.forbidden(seat, w) {
					at, moved = w, true
					break
				}
			}
			if !moved {
				break
			}
		}
	}
	m.arrive(c, piece, at, recDisplaced)
	m.fired(c)
	return nil
}

func teleport(c *engine.Ctx, m *Match, space int) error {
	m.arrive(c, pieceOf(c.Event().Subject), space, recTeleported)
	m.fired(c)
	return nil
}

func forceStop(c *engine.Ctx, m *Match, _ struct{}) error {
	s := m.s
	piece := pieceOf(c.Event().Subject)
	if s.Moving == piece && s.Step < len(s.Path) {
		s.Path = s.Path[:s.Step]
		m.record(c, record{kind: recStopped, seat: int8(piece / m.def.Pieces), piece: uint8(piece), to: int16(s.Pieces[piece])})
	}
	m.fired(c)
	return nil
}

// arrive puts a piece that a trigger moves on its new space, if it may
// stand there. A piece moved in the middle of a move ends its move there;
// one moved after it landed lands again.
func (m *Match) arrive(c *engine.Ctx, piece, to int, kind uint8) {
	d, s := m.def, m.s
	seat := piece / d.Pieces
	from := s.Pieces[piece]
	if to == from {
		return
	}
	if _, ok := m.landing(seat, piece, to); !ok || d.forbidden(seat, to) {
		m.record(c, record{kind: recStays, seat: int8(seat), piece: uint8(piece), from: int16(from), to: int16(to)})
		return
	}
	m.put(piece, to)
	m.record(c, record{kind: kind, seat: int8(seat), piece: uint8(piece), from: int16(from), to: int16(to)})
	if s.Moving == piece && len(s.Path) > 0 {
		s.Path = s.Path[:s.Step]
		return
	}
	m.settle(c, piece)
	if d.listens[to]&listenLand != 0 {
		m.emit(c, d.pack.evLand, piece, to)
	}
}

// fired counts a trigger's firing at its space.
func (m *Match) fired(c *engine.Ctx) {
	m.tally[m.seats*tallySeat+int(c.Trigger().Location)*tallySpace+tallySpaceFirings]++
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
