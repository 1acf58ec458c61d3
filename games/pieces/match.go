package pieces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Match is one game of pieces being played. It is the engine's state:
// effects change its State and write its log. The state hash covers the
// State, the dice stream and the engine's own counters; the log and the
// tallies are the match's records of what happened, not state.
type Match struct {
	def   *Definition
	e     *engine.Match
	s     *State
	dice  *rng.Stream
	seats int
	// log is the readable log, one record per thing that happened.
	log journal
	// tally counts what each seat and each space did (see Tally).
	tally []int
	// places holds the figures Places returns.
	places []float64
	wait   [1]int

	// Scratch of the search for legal moves.
	moves []move
	paths []int
	front []node
	seen  []int32
	stamp int32
	// count is the number of pieces on each space: most spaces are empty,
	// and a move there needs no look at the other pieces.
	count []int16
	// movesKey is the seat and roll moves holds the legal moves of
	// (seat<<16 | roll), or -1: nothing changes the pieces between two
	// chains, so a command's moves are found once for the bot, the check
	// and the move.
	movesKey int
	// undoable says whether the last command may be taken back
	// (game.Undoer).
	undoable bool
}

// Command is a player's command: roll, or move one of their pieces (by
// its number, from 1) to a space. Its JSON is {"roll": true} or
// {"piece": 2, "to": "t14"}.
type Command struct {
	Roll  bool   `json:"roll,omitempty"`
	Piece int    `json:"piece,omitempty"`
	To    string `json:"to,omitempty"`
}

// State returns the match's state. It must not be changed.
func (m *Match) State() *State { return m.s }

// Definition returns the game the match plays.
func (m *Match) Definition() *Definition { return m.def }

// AppendCanonical encodes the state for the engine's state hash.
func (m *Match) AppendCanonical(b []byte) []byte { return m.s.AppendCanonical(b) }

// EntityName names a piece ("Ann's piece 2") in the engine's records.
func (m *Match) EntityName(id engine.EntityID) string {
	p := pieceOf(id)
	if p < 0 || p >= len(m.s.Pieces) {
		return ""
	}
	return m.pieceName(p)
}

// entity is the engine entity of a piece: its index plus one (0 is the
// engine's System).
func entity(piece int) engine.EntityID { return engine.EntityID(piece + 1) }

func pieceOf(id engine.EntityID) int { return int(id) - 1 }

// pieceName is a piece as players say it: "Ann's piece 2".
func (m *Match) pieceName(piece int) string {
	per := m.def.Pieces
	return m.s.Players[piece/per] + "'s piece " + strconv.Itoa(piece%per+1)
}

// run runs a chain for the seat whose turn it is, then forgets the
// engine's records: the match keeps its own log.
func (m *Match) run(call engine.EffectCall) error {
	err := m.e.Run(engine.PlayerID(m.s.Turn), call)
	m.e.ClearLog()
	m.movesKey = -1
	return err
}

// command runs a player's command: the chain of a roll or of a move. A
// move may be taken back unless its chain rolled (a scripted die too) or
// it ended the game; a roll never may.
func (m *Match) command(call engine.EffectCall, roll bool) error {
	draws, script := m.e.RNG.Draws(), len(m.s.Script)
	err := m.run(call)
	m.undoable = err == nil && !roll && m.e.RNG.Draws() == draws && len(m.s.Script) == script && !m.s.Over()
	return err
}

// Undoable reports whether the last command may be taken back
// (game.Undoer): a choice of piece may, unless it ended the game; a roll
// may not.
func (m *Match) Undoable() bool { return m.undoable }

// rollJSON is the roll command's JSON.
var rollJSON = json.RawMessage(`{"roll":true}`)

// Apply plays a seat's command, given as JSON.
func (m *Match) Apply(seat int, data json.RawMessage) error {
	if roll, piece, to, ok := m.quickCommand(data); ok {
		return m.play(seat, roll, piece, to, "")
	}
	var cmd Command
	if err := game.DecodeCommand(data, &cmd); err != nil {
		return engine.Rejectf(`a command is {"roll": true} or {"piece": N, "to": "space"}: %v`, err)
	}
	return m.Play(seat, cmd)
}

// quickCommand reads the commands Legal writes, byte for byte, without
// the JSON decoder; anything else (and a space it does not know) is left
// to the decoder. Both read the same command from such bytes.
func (m *Match) quickCommand(data []byte) (roll bool, piece, to int, ok bool) {
	if bytes.Equal(data, rollJSON) {
		return true, 0, -1, true
	}
	rest, ok := bytes.CutPrefix(data, []byte(`{"piece":`))
	if !ok || len(rest) == 0 || rest[0] < '1' || rest[0] > '9' {
		return false, 0, 0, false
	}
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' && piece < 1000 {
		piece = piece*10 + int(rest[0]-'0')
		rest = rest[1:]
	}
	rest, ok = bytes.CutPrefix(rest, []byte(`,"to":"`))
	if !ok || len(rest) < 2 || !bytes.HasSuffix(rest, []byte(`"}`)) {
		return false, 0, 0, false
	}
	id := rest[:len(rest)-2]
	for _, b := range id {
		if b < 0x20 || b >= 0x7f || b == '"' || b == '\\' {
			return false, 0, 0, false
		}
	}
	to, ok = m.def.byID[string(id)]
	return false, piece, to, ok
}

// Play plays a seat's command. A command that breaks the rules is an
// engine.RejectError and changes nothing.
func (m *Match) Play(seat int, cmd Command) error {
	to := -1
	if cmd.To != "" {
		if to = m.def.Space(cmd.To); to < 0 {
			return engine.Rejectf("there is no space %q", cmd.To)
		}
	}
	return m.play(seat, cmd.Roll, cmd.Piece, to, cmd.To)
}

// play plays a roll, or a move of the seat's piece number piece (from 1)
// to space to (-1: wherever it can go, if that is one space).
func (m *Match) play(seat int, roll bool, piece, to int, written string) error {
	s, d := m.s, m.def
	switch {
	case s.Over():
		return engine.Rejectf("the game is over")
	case seat < 0 || seat >= m.seats:
		return engine.Rejectf("there is no seat %d", seat)
	case seat != s.Turn:
		return engine.Rejectf("it is %s's turn", s.Players[s.Turn])
	case roll && (piece != 0 || to >= 0 || written != ""):
		return engine.Rejectf("a command either rolls or moves a piece, not both")
	case roll:
		if s.Phase != PhaseRoll {
			return engine.Rejectf("choose which piece moves with the %d you rolled first", s.Roll)
		}
		return m.command(d.pack.fx.roll.Call(struct{}{}), true)
	case piece == 0:
		return engine.Rejectf(`say what to do: {"roll": true}, or {"piece": N, "to": "space"}`)
	case s.Phase != PhaseMove:
		return engine.Rejectf("roll first: pieces move once the dice are rolled")
	case piece < 1 || piece > d.Pieces:
		return engine.Rejectf("your pieces are numbered 1 to %d, not %d", d.Pieces, piece)
	}
	moves := m.legalMoves(seat, s.Roll)
	index := seat*d.Pieces + piece - 1
	var targets []string
	for i, mv := range moves {
		if mv.piece != index {
			continue
		}
		if mv.to == to {
			return m.command(d.pack.fx.move.Call(i), false)
		}
		targets = append(targets, d.Spaces[mv.to].ID)
	}
	switch {
	case len(targets) == 1 && to < 0:
		return m.play(seat, false, piece, d.Space(targets[0]), targets[0])
	case len(targets) > 0 && to < 0:
		return engine.Rejectf("piece %d can go to %s with a %d: say which with \"to\"", piece, strings.Join(targets, " or "), s.Roll)
	case len(targets) > 0:
		return engine.Rejectf("piece %d goes to %s with a %d, not to %s", piece, strings.Join(targets, " or "), s.Roll, d.Spaces[to].ID)
	}
	var can []string
	for _, mv := range moves {
		can = append(can, strconv.Itoa(mv.piece%d.Pieces+1))
	}
	slices.Sort(can)
	return engine.Rejectf("piece %d cannot move with a %d; piece %s can", piece, s.Roll, strings.Join(slices.Compact(can), " or "))
}

// Waiting returns the seat whose turn it is, or none once the game is
// over. The slice is the match's own: do not keep or change it.
func (m *Match) Waiting() []int {
	if m.s.Over() {
		return nil
	}
	m.wait[0] = m.s.Turn
	return m.wait[:]
}

// Legal lists what the seat may play now: a roll, or each move of the
// roll.
func (m *Match) Legal(seat int) []game.Command {
	s := m.s
	if s.Over() || seat != s.Turn {
		return nil
	}
	if s.Phase == PhaseRoll {
		return []game.Command{{Data: rollJSON, Text: m.rollText()}}
	}
	moves := m.legalMoves(seat, s.Roll)
	out := make([]game.Command, len(moves))
	for i, mv := range moves {
		out[i] = game.Command{Data: m.moveJSON(mv), Text: m.moveText(mv)}
	}
	return out
}

func (m *Match) rollText() string {
	if m.def.Dice.Count == 1 {
		return "Roll the die"
	}
	return "Roll the dice"
}

// moveJSON is a move's command, in the form quickCommand reads.
func (m *Match) moveJSON(mv move) json.RawMessage {
	return m.def.command(mv.piece%m.def.Pieces, mv.to)
}

// moveText says what a move does: "Move piece 2 from t10 to t14 (sends
// Bob's piece 1 home)".
func (m *Match) moveText(mv move) string {
	d := m.def
	n := mv.piece%d.Pieces + 1
	var t string
	switch {
	case mv.enter:
		t = fmt.Sprintf("Piece %d: out onto %s", n, d.spaceName(mv.to))
	case d.geo[mv.piece/d.Pieces].goal[mv.to] && !d.geo[mv.piece/d.Pieces].goal[mv.from]:
		t = fmt.Sprintf("Piece %d: %s home, to %s", n, steps(m.s.Roll), d.spaceName(mv.to))
	case d.Engine == Trouble:
		t = fmt.Sprintf("Piece %d: %s along the track, to %s", n, steps(m.s.Roll), d.spaceName(mv.to))
	default:
		t = fmt.Sprintf("Piece %d: %s, to %s", n, steps(m.s.Roll), d.spaceName(mv.to))
	}
	if who := m.captured(mv); len(who) > 0 {
		t += ", sending " + strings.Join(who, " and ") + " back to the start"
	}
	return t
}

// captured names the pieces a move sends back.
func (m *Match) captured(mv move) []string {
	if mv.captures == 0 {
		return nil
	}
	var who []string
	per := m.def.Pieces
	for q, sp := range m.s.Pieces {
		if sp == mv.to && q/per != mv.piece/per {
			who = append(who, m.pieceName(q))
		}
	}
	return who
}

// steps says a number of steps: "1 step", "6 steps".
func steps(n int) string { return plural(n, "step") }

// Hash is the engine's state hash.
func (m *Match) Hash() string { return m.e.Hash() }

// Outcome says whether the game is over and who won: the first player to
// get every piece home (none when the round limit ended it).
func (m *Match) Outcome() game.Outcome {
	s := m.s
	o := game.Outcome{Over: s.Over(), Winners: []int{}, Reason: s.Reason, Rounds: s.Round}
	if len(s.Placings) > 0 {
		o.Winners = append(o.Winners, s.Placings[0])
	}
	return o
}

// Clone returns an exact copy of the match: the same state, dice stream,
// log and tallies, and the engine's own copy of its triggers and counters,
// so that it plays on to the same hashes.
func (m *Match) Clone() game.Match { return m.copyWith(m.s.clone(), engine.CloneOptions{}) }

// copyWith copies the match onto a copy of its state: the engine through
// its own Clone (its counters are the match's, whatever the triggers did),
// the records and the tallies; it costs the same at any point of a game.
func (m *Match) copyWith(st *State, o engine.CloneOptions) *Match {
	c := &Match{def: m.def, s: st, seats: m.seats, log: m.log.copy(), tally: slices.Clone(m.tally), movesKey: -1, undoable: m.undoable}
	c.e = m.e.Clone(c, o)
	c.dice = c.e.RNG.Stream("dice")
	c.recount()
	return c
}

// Determinize returns a copy in which the dice to come are drawn again
// from r: the only thing a seat cannot know in a game of pieces. The copy
// is for playing on: it leaves the engine's log behind.
func (m *Match) Determinize(_ int, r *rng.Stream) game.Match {
	st := m.s.clone()
	st.Script = nil
	c := m.copyWith(st, engine.CloneOptions{WithoutLog: true})
	c.e.RNG = rng.New(r.Uint64())
	c.dice = c.e.RNG.Stream("dice")
	c.e.Touch()
	return c
}

// SearchAdvice is how bots search a game of pieces: a game is mostly
// dice, and a few commands of random play then Evaluate's count of the
// way home judge a move as well as playouts to the end, at a fraction of
// their cost (docs/bots.md).
func (m *Match) SearchAdvice() game.SearchAdvice {
	return game.SearchAdvice{Iterations: 100, Depth: 4, Exploration: 0.2}
}

// Evaluate scores the position for a seat, from -1 to 1: how much further
// its pieces are on their way home than the best of the others', or the
// result once the game is over.
func (m *Match) Evaluate(seat int) float64 {
	s := m.s
	if seat < 0 || seat >= m.seats {
		return 0
	}
	if s.Over() {
		switch p := s.placed(seat); {
		case p == 1:
			return 1
		case p == 0:
			return -1
		default:
			return 1 - 2*float64(p-1)/float64(max(m.seats-1, 1))
		}
	}
	best := -1.0
	for p := range m.seats {
		if p != seat {
			best = max(best, m.progress(p))
		}
	}
	return m.progress(seat) - best
}

// progress is how far a seat's pieces are on their way home, from 0 (all
// at the start) to 1 (all home).
func (m *Match) progress(seat int) float64 {
	g := &m.def.geo[seat]
	per := m.def.Pieces
	sum := 0
	for _, sp := range m.s.Pieces[seat*per : (seat+1)*per] {
		sum += g.far - g.dist[sp]
	}
	return float64(sum) / float64(per*g.far)
}

// The tallies: per seat, its moves, the spaces its pieces walked and its
// captures; per space, its triggers' firings and the captures on it.
const (
	tallyMoves = iota
	tallySteps
	tallyCaptures
	tallySeat
)

const (
	tallySpaceFirings = iota
	tallySpaceCaptures
	tallySpaceLandings
	tallySpace
)

// Tally returns what each seat did (kind "seat", named "seat N": Firings
// its moves, Damage the spaces its pieces walked, Kills its captures) and
// what happened on each space where anything did (kind "space", named by
// its id: Firings its triggers' firings, Kills the captures on it).
func (m *Match) Tally() []game.Tally {
	out := make([]game.Tally, 0, m.seats)
	for seat := range m.seats {
		t := m.tally[seat*tallySeat:]
		out = append(out, game.Tally{Name: m.def.seatNames[seat], Kind: "seat", Seat: seat,
			Firings: t[tallyMoves], Damage: t[tallySteps], Kills: t[tallyCaptures]})
	}
	base := m.seats * tallySeat
	for sp := range m.def.Spaces {
		t := m.tally[base+sp*tallySpace:]
		if t[tallySpaceFirings] > 0 || t[tallySpaceCaptures] > 0 {
			out = append(out, game.Tally{Name: m.def.Spaces[sp].ID, Kind: "space", Seat: -1,
				Firings: t[tallySpaceFirings], Kills: t[tallySpaceCaptures]})
		}
	}
	return out
}

// Standings rank the players (game.Ranker): those with every piece home
// in the order they finished, then by the pieces they have home and on
// their way; with those counts and the pieces still waiting.
func (m *Match) Standings() game.Standings {
	v := m.view(game.Spectator)
	key := func(seat int) (int, int, int) {
		p := v.Players[seat]
		place := p.Place
		if place == 0 {
			place = len(v.Players) + 1
		}
		return place, p.Home, p.Out
	}
	st := game.Rank(len(v.Players), func(a, b int) int {
		pa, ha, oa := key(a)
		pb, hb, ob := key(b)
		switch {
		case pa != pb:
			return pa - pb
		case ha != hb:
			return hb - ha
		}
		return ob - oa
	}, func(seat int) []string {
		p := v.Players[seat]
		return []string{strconv.Itoa(p.Home), strconv.Itoa(p.Out), strconv.Itoa(p.AtStart)}
	}, func(seat int) string {
		if p := v.Players[seat].Place; p > 0 {
			return "every piece home, " + game.Ordinal(p)
		}
		return ""
	})
	st.Figures = []string{"pieces home", "on the way", "waiting"}
	return st
}
