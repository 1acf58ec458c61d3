package pieces

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

// Scenario is a pieces scenario file (docs/trouble.md, "Scenario files"):
// a game, where the pieces stand, the dice to roll, commands, and what
// must come out of them.
type Scenario struct {
	Game        string `yaml:"game"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// File is the game: a v3 file, a bundle folder or a zip, relative to
	// the scenario's folder ($VAR and ${VAR} are read from the
	// environment).
	File    string   `yaml:"file"`
	Seed    uint64   `yaml:"seed"`
	Players []string `yaml:"players"`
	// Rolls are the dice, in order, before random ones.
	Rolls    []int         `yaml:"rolls"`
	Setup    SetupSpec     `yaml:"setup"`
	Commands []CommandSpec `yaml:"commands"`
	Expect   ExpectSpec    `yaml:"expect"`
}

// SetupSpec is where the scenario starts from; what it leaves out is as a
// new game has it.
type SetupSpec struct {
	// Turn is the player whose turn it is.
	Turn string `yaml:"turn"`
	// Round is the round under way.
	Round int `yaml:"round"`
	// Pieces are the spaces of each player's pieces, from piece 1 on:
	// a space id, or "start" for the piece's own start. Pieces not listed
	// stay at their start.
	Pieces map[string][]string `yaml:"pieces"`
}

// CommandSpec is one command: a roll, or a move of a piece (by number)
// to a space.
type CommandSpec struct {
	Player string `yaml:"player"`
	Roll   bool   `yaml:"roll"`
	Move   int    `yaml:"move"`
	To     string `yaml:"to"`
	// Reject, if set, expects the command to be refused with a reason
	// containing this text.
	Reject string `yaml:"reject"`
}

// ExpectSpec is what must hold after the commands. Only what is written
// is checked.
type ExpectSpec struct {
	// Pieces are the spaces of the players' pieces, as in the setup.
	Pieces map[string][]string `yaml:"pieces"`
	Turn   string              `yaml:"turn"`
	// Phase is "roll", "move" or "over".
	Phase string `yaml:"phase"`
	// Roll is the last roll's total.
	Roll *int `yaml:"roll"`
	// Moves are the moves offered now, as their texts ("Move piece 2 from
	// t3 to t7"), in order.
	Moves *[]string `yaml:"moves"`
	// Winner is the winner's name, or "none".
	Winner string `yaml:"winner"`
	// Placings are the players with every piece home, in order.
	Placings *[]string `yaml:"placings"`
	// Captures are the pieces each player sent back.
	Captures map[string]int `yaml:"captures"`
	Round    *int           `yaml:"round"`
	// Log lists lines that must appear, in this order, in the readable
	// log of the commands.
	Log []string `yaml:"log"`
}

// RunScenario runs a pieces scenario file and reports every expectation
// that failed.
func (p *Pack) RunScenario(path string, data []byte) *scenario.Result {
	var sc Scenario
	r, ok := scenario.Open(path, data, &sc)
	if !ok {
		return r
	}
	m, err := p.startScenario(&sc, filepath.Dir(path))
	if err != nil {
		r.Failf("%v", err)
		return r
	}
	from := m.LogLen()
	for i, c := range sc.Commands {
		seat := slices.Index(sc.Players, c.Player)
		if seat < 0 {
			r.Failf("command %d: no player %q%s", i+1, c.Player, diag.DidYouMean(c.Player, sc.Players))
			return r
		}
		err := m.Play(seat, Command{Roll: c.Roll, Piece: c.Move, To: c.To})
		switch {
		case c.Reject != "" && err == nil:
			r.Failf("command %d: was accepted, want it rejected (%s)", i+1, c.Reject)
		case c.Reject != "" && !strings.Contains(err.Error(), c.Reject):
			r.Failf("command %d: rejected with %q, want a reason containing %q", i+1, err, c.Reject)
		case c.Reject == "" && err != nil:
			r.Failf("command %d: %v", i+1, err)
			return r
		}
	}
	checkScenario(r, &sc, m, from)
	return r
}

// startScenario loads the scenario's game and sets its match up.
func (p *Pack) startScenario(sc *Scenario, dir string) (*Match, error) {
	if sc.File == "" {
		return nil, fmt.Errorf(`file: name the game file ("file": "trouble.json")`)
	}
	src, err := game.Open(scenario.Resolve(dir, sc.File), game.Limits{})
	if err != nil {
		return nil, fmt.Errorf("file: %v", err)
	}
	def, list := p.LoadDefinition(src)
	if def == nil {
		return nil, fmt.Errorf("the game file is invalid:\n%s", list.String())
	}
	if len(sc.Players) == 0 {
		sc.Players = []string{"Ann", "Bob"}
	}
	m, err := def.NewMatch(game.Setup{Players: sc.Players, Seed: max(sc.Seed, 1), Dice: sc.Rolls})
	if err != nil {
		return nil, fmt.Errorf("players, rolls: %v", err)
	}
	if err := m.SetUp(sc.Setup); err != nil {
		return nil, fmt.Errorf("setup: %v", err)
	}
	return m, nil
}

// SetUp places the pieces and gives the turn as a scenario says, before
// the first command.
func (m *Match) SetUp(st SetupSpec) error {
	s, d := m.s, m.def
	names := s.Players
	if st.Turn != "" {
		seat := slices.Index(names, st.Turn)
		if seat < 0 {
			return fmt.Errorf("turn: no player %q%s", st.Turn, diag.DidYouMean(st.Turn, names))
		}
		s.Turn = seat
	}
	if st.Round > 0 {
		s.Round = st.Round
	}
	for _, name := range slices.Sorted(mapKeys(st.Pieces)) {
		seat := slices.Index(names, name)
		if seat < 0 {
			return fmt.Errorf("pieces: no player %q%s", name, diag.DidYouMean(name, names))
		}
		list := st.Pieces[name]
		if len(list) > d.Pieces {
			return fmt.Errorf("pieces: %s has %d pieces, not %d", name, d.Pieces, len(list))
		}
		for k, id := range list {
			sp, err := m.placeOf(seat, k, id)
			if err != nil {
				return fmt.Errorf("pieces: %s's piece %d: %v", name, k+1, err)
			}
			s.Pieces[seat*d.Pieces+k] = sp
		}
	}
	if !d.Share {
		for q, sp := range s.Pieces {
			for o := range q {
				if s.Pieces[o] == sp {
					return fmt.Errorf("pieces: %s and %s are both on %s, and a space of %s holds one piece", m.pieceName(o), m.pieceName(q), d.Spaces[sp].ID, d.Engine)
				}
			}
		}
	}
	m.recount()
	m.e.Touch()
	return nil
}

// placeOf reads where a scenario puts a piece: "start", or a space the
// piece may stand on.
func (m *Match) placeOf(seat, k int, id string) (int, error) {
	d := m.def
	if id == "start" {
		return d.geo[seat].Start[k], nil
	}
	sp := d.Space(id)
	switch {
	case sp < 0:
		return 0, fmt.Errorf("no space %q", id)
	case d.startZone[sp] && sp != d.geo[seat].Start[k]:
		return 0, fmt.Errorf("%s is a start space; write \"start\" for the piece's own", id)
	case d.forbidden(seat, sp) && !d.startZone[sp]:
		return 0, fmt.Errorf("%s belongs to another player", id)
	case d.Engine == Trouble && d.geo[seat].at[sp] < 0 && !d.startZone[sp]:
		return 0, fmt.Errorf("%s is not on this player's way round", id)
	}
	return sp, nil
}

// where says where a piece is, as scenarios write it.
func (m *Match) where(piece int) string {
	sp := m.s.Pieces[piece]
	if m.def.startZone[sp] {
		return "start"
	}
	return m.def.Spaces[sp].ID
}

func checkScenario(r *scenario.Result, sc *Scenario, m *Match, from int) {
	s, x := m.s, sc.Expect
	per := m.def.Pieces
	scenario.Each(r, "pieces", "player", x.Pieces, sc.Players, func(name string, want []string) {
		seat := slices.Index(sc.Players, name)
		var got []string
		for k := range per {
			got = append(got, m.where(seat*per+k))
		}
		if len(want) < per {
			got = got[:len(want)]
		}
		r.Expect(name+"'s pieces", strings.Join(got, " "), strings.Join(want, " "))
	})
	if x.Turn != "" {
		r.Expect("turn", s.Players[s.Turn], x.Turn)
	}
	if x.Phase != "" {
		r.Expect("phase", s.Phase.String(), x.Phase)
	}
	scenario.ExpectSet(r, "roll", s.Roll, x.Roll)
	scenario.ExpectSet(r, "round", s.Round, x.Round)
	if x.Moves != nil {
		var got scenario.Lines
		if s.Phase == PhaseMove {
			for _, mv := range m.legalMoves(s.Turn, s.Roll) {
				got.Add(m.moveText(mv), m.moveTextBefore(mv))
			}
		}
		r.ExpectLinesOf("moves", got, *x.Moves)
	}
	if x.Winner != "" {
		got := "none"
		if o := m.Outcome(); len(o.Winners) > 0 {
			got = s.Players[o.Winners[0]]
		}
		r.Expect("winner", got, x.Winner)
	}
	if x.Placings != nil {
		var got []string
		for _, p := range s.Placings {
			got = append(got, s.Players[p])
		}
		r.Expect("placings", strings.Join(got, ", "), strings.Join(*x.Placings, ", "))
	}
	scenario.Each(r, "captures", "player", x.Captures, sc.Players, func(name string, want int) {
		seat := slices.Index(sc.Players, name)
		r.Expect(name+"'s captures", m.tally[seat*tallySeat+tallyCaptures], want)
	})
	if len(x.Log) > 0 {
		var lines scenario.Lines
		for i := from; i < m.log.n; i++ {
			rec := m.log.at(i)
			if e := m.entry(i, rec); e.Text != "" {
				lines.Add(e.Text, m.textBefore(rec))
			}
		}
		r.ExpectInOrderOf("log", lines, x.Log)
	}
}

// Before players read spaces by name, the log and the moves named spaces
// by their ids and said moves otherwise ("Ann's piece 1 moves from t3 to
// t7", "Move piece 2 from t3 to t7"). Scenarios written then still name
// them so: textBefore and moveTextBefore word a record and a move as that
// version did, where it worded them otherwise.

// textBefore is a log record as the log told it before players read
// spaces by name, or "" where it told it as now.
func (m *Match) textBefore(r record) string {
	d := m.def
	space := func(i int16) string { return d.Spaces[i].ID }
	piece := m.pieceName(int(r.piece))
	switch r.kind {
	case recEntered:
		return piece + " comes out"
	case recMoved:
		t := fmt.Sprintf("%s moves from %s to %s", piece, space(r.from), space(r.to))
		if d.geo[r.seat].goal[r.to] && !d.geo[r.seat].goal[r.from] {
			t += ", home"
		}
		return t
	case recCaptured:
		return fmt.Sprintf("%s is sent home by %s", m.pieceName(int(r.other)), m.s.Players[r.seat])
	case recDisplaced, recTeleported:
		return fmt.Sprintf("%s is moved from %s to %s", piece, space(r.from), space(r.to))
	case recStopped:
		return fmt.Sprintf("%s stops on %s", piece, space(r.to))
	case recStays:
		return fmt.Sprintf("%s cannot go to %s and stays on %s", piece, space(r.to), space(r.from))
	}
	return ""
}

// moveTextBefore is a move as it was offered before players read spaces
// by name ("Bring piece 2 out to t0", "Move piece 1 from t3 to t7 (sends
// Bob's piece 1 back)").
func (m *Match) moveTextBefore(mv move) string {
	d := m.def
	n := mv.piece%d.Pieces + 1
	t := fmt.Sprintf("Move piece %d from %s to %s", n, d.Spaces[mv.from].ID, d.Spaces[mv.to].ID)
	if mv.enter {
		t = fmt.Sprintf("Bring piece %d out to %s", n, d.Spaces[mv.to].ID)
	}
	if who := m.captured(mv); len(who) > 0 {
		t += " (sends " + strings.Join(who, " and ") + " back)"
	}
	return t
}
