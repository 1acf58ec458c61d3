package sim

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// relay is a game for the simulator's tests: the players say "go" in turn,
// and the game's seed decides how the game goes, so that a test knows what
// each game of a run does from GameSeed alone.
type relay struct {
	min, max      int
	defaultRounds int
	roles         []string
	// plan says what game seed does; nil: plainPlan.
	plan func(seed uint64) plan
	// tally, if set, makes the matches game.Talliers.
	tally func(seed uint64) []game.Tally
}

// plan is how one game of relay goes.
type plan struct {
	// length is the commands after which the game ends; 0: never.
	length int
	// winner is the winning seat (modulo the players), or -1 for a game
	// without one.
	winner int
	// fail is how the game breaks at command failAt: "error" (Apply fails),
	// "panic" (Apply panics), "reject" (Apply refuses the legal command),
	// "stuck" (the game waits for nobody without being over), "winner"
	// (the outcome names a seat that does not exist).
	fail   string
	failAt int
}

// plainPlan ends every game after 4 commands, won by seat seed mod 2.
func plainPlan(seed uint64) plan { return plan{length: 4, winner: int(seed % 2)} }

func (g *relay) Info() game.Info {
	return game.Info{Pack: "relay", Name: "Relay", MinPlayers: g.min, MaxPlayers: g.max, DefaultMaxRounds: g.defaultRounds, Roles: g.roles}
}

func (g *relay) Drawing() any { return nil }

func (g *relay) Start(s game.Setup) (game.Match, error) {
	if err := g.Info().CheckPlayers(len(s.Players)); err != nil {
		return nil, err
	}
	plan := plainPlan
	if g.plan != nil {
		plan = g.plan
	}
	m := &relayMatch{g: g, seed: s.Seed, players: len(s.Players), plan: plan(s.Seed), limit: s.MaxRounds, rounds: 1}
	if m.limit == 0 {
		m.limit = g.defaultRounds
	}
	if g.tally != nil {
		return &tallyMatch{m}, nil
	}
	return m, nil
}

type relayMatch struct {
	g                  *relay
	seed               uint64
	players, limit     int
	plan               plan
	commands, rounds   int
	over, limitReached bool
}

var goCommand = json.RawMessage(`{"go":true}`)

func (m *relayMatch) Apply(seat int, data json.RawMessage) error {
	var c struct {
		Go bool `json:"go"`
	}
	if err := game.DecodeCommand(data, &c); err != nil || !c.Go {
		return engine.Rejectf(`a relay command is {"go": true}`)
	}
	if m.over || seat != m.commands%m.players {
		return engine.Rejectf("not your turn")
	}
	if m.plan.fail != "" && m.commands+1 == m.plan.failAt {
		switch m.plan.fail {
		case "error":
			return errors.New("the table collapsed")
		case "panic":
			panic("the relay baton broke")
		case "reject":
			return engine.Rejectf("no more going today")
		}
	}
	m.commands++
	if m.commands%m.players == 0 {
		m.rounds++
	}
	switch {
	case m.plan.length > 0 && m.commands == m.plan.length:
		m.over = true
	case m.limit > 0 && m.rounds > m.limit:
		m.over, m.limitReached, m.rounds = true, true, m.limit
	}
	return nil
}

func (m *relayMatch) stuck() bool {
	return (m.plan.fail == "stuck" || m.plan.fail == "winner") && m.commands+1 >= m.plan.failAt
}

func (m *relayMatch) Waiting() []int {
	if m.over || m.stuck() {
		return nil
	}
	return []int{m.commands % m.players}
}

func (m *relayMatch) Legal(seat int) []game.Command {
	if m.over || m.stuck() || seat != m.commands%m.players {
		return nil
	}
	return []game.Command{{Data: goCommand, Text: "Go"}}
}

func (m *relayMatch) View(int) any              { return m.commands }
func (m *relayMatch) Log(int, int) []game.Entry { return nil }
func (m *relayMatch) LogLen() int               { return 0 }
func (m *relayMatch) Hash() string              { return strconv.Itoa(m.commands) }

func (m *relayMatch) Outcome() game.Outcome {
	o := game.Outcome{Over: m.over, Rounds: m.rounds, Winners: []int{}}
	switch {
	case m.plan.fail == "winner" && m.stuck():
		o.Over, o.Winners = true, []int{m.players}
	case m.limitReached:
		o.Reason = "the round limit was reached"
	case !m.over:
	case m.plan.winner < 0:
		o.Reason = "everyone ran out of breath"
	default:
		w := m.plan.winner % m.players
		o.Winners = append(o.Winners, w)
		o.Reason = "seat " + strconv.Itoa(w+1) + " crossed the line"
	}
	return o
}

// tallyMatch is a relay match that tallies its pieces.
type tallyMatch struct{ *relayMatch }

func (m *tallyMatch) Tally() []game.Tally { return m.g.tally(m.seed) }
