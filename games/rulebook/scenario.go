package rulebook

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

// Scenario is a designer's test of a rule book (a file with "game:
// rulebook"): a match's inputs and what must come out of it. See the "Rule
// books" section of docs/scenarios.md.
type Scenario struct {
	Game string `yaml:"game"`
	Name string `yaml:"name"`
	// File is the game file, relative to the scenario's folder (or
	// absolute).
	File    string   `yaml:"file"`
	Players []string `yaml:"players"`
	Seed    uint64   `yaml:"seed"`
	// Rolls are scripted die faces, used in order before random ones.
	Rolls []int    `yaml:"rolls"`
	Setup *Opening `yaml:"setup"`
	// Commands answer the match's questions in order; rolls and draws
	// that no command answers are answered at once.
	Commands []ScenarioCommand `yaml:"commands"`
	// Bots answer what the commands do not; without them the scenario
	// stops at the first question left.
	Bots bool `yaml:"bots"`
	// Turns stops the scenario when turn Turns+1 waits for its first
	// answer (0: play on).
	Turns     int    `yaml:"turns"`
	MaxRounds int    `yaml:"maxRounds"`
	Expect    Expect `yaml:"expect"`
}

// ScenarioCommand is a scripted answer.
type ScenarioCommand struct {
	Player string `yaml:"player"`
	Kind   string `yaml:"kind"`
	Choice int    `yaml:"choice"`
}

// Expect is what a scenario checks once it stops.
type Expect struct {
	Over    *bool                   `yaml:"over"`
	Winners []string                `yaml:"winners"`
	Reason  string                  `yaml:"reason"`
	Current string                  `yaml:"current"`
	Turn    int                     `yaml:"turn"`
	Round   int                     `yaml:"round"`
	Players map[string]PlayerExpect `yaml:"players"`
	Owners  map[string]string       `yaml:"owners"`
	// Trace is every rule firing in order ("RULE on EVENT (player,
	// tile)"); TraceIncludes are firings that must appear in this order,
	// others between them; LogIncludes the same for the readable log.
	Trace         []string `yaml:"trace"`
	TraceIncludes []string `yaml:"traceIncludes"`
	LogIncludes   []string `yaml:"logIncludes"`
	// Error is a piece of the error that must break the match.
	Error string `yaml:"error"`
}

// PlayerExpect is what a scenario checks of one player.
type PlayerExpect struct {
	Score  *int           `yaml:"score"`
	Tile   string         `yaml:"tile"`
	Active *bool          `yaml:"active"`
	Props  map[string]int `yaml:"props"`
}

// maxScenarioCommands bounds a scenario that would play forever.
const maxScenarioCommands = 100_000

// RunScenario runs a scenario file (data holds its bytes).
func (p *Pack) RunScenario(path string, data []byte) *scenario.Result {
	var sc Scenario
	r, ok := scenario.Open(path, data, &sc)
	if !ok {
		return r
	}
	if sc.File == "" {
		r.Failf("the scenario needs \"file\": the game file, relative to the scenario")
		return r
	}
	file := scenario.Resolve(filepath.Dir(path), sc.File)
	def, list := p.LoadFile(file)
	if def == nil {
		r.Failf("the game file is invalid:\n%s", list.String())
		return r
	}
	players := sc.Players
	if len(players) == 0 {
		players = defaultPlayers(def)
	}
	g, err := def.NewMatch(game.Setup{Players: players, Seed: sc.Seed, Dice: sc.Rolls, MaxRounds: sc.MaxRounds}, sc.Setup)
	if g == nil {
		r.Failf("cannot start the match: %v", err)
		return r
	}
	if err == nil {
		err = sc.play(g, r)
	}
	sc.check(g, err, r)
	return r
}

// defaultPlayers names the fewest players a game allows.
func defaultPlayers(def *Definition) []string {
	var out []string
	for i := range def.minPlayers {
		out = append(out, fmt.Sprintf("Player %d", i+1))
	}
	return out
}

// play answers the match's questions as the scenario says.
func (sc *Scenario) play(g *Match, r *scenario.Result) error {
	bots := rng.New(sc.Seed).Stream("bots")
	cmds := sc.Commands
	defer func() {
		if len(cmds) > 0 && r.Passed() {
			c := cmds[0]
			r.Failf("%d command(s) were not used: the match never asked %s for %q (it waits for %s)", len(cmds), c.Player, c.Kind, g.waitText())
		}
	}()
	for range maxScenarioCommands {
		ws := g.Waits()
		if g.Over() || g.Err() != nil || len(ws) == 0 || (sc.Turns > 0 && g.state.Turn > sc.Turns) {
			return g.Err()
		}
		w := ws[0]
		var cmd Command
		seat := w.Player
		switch {
		case len(cmds) > 0 && (cmds[0].Kind == w.Kind || (w.Kind != KindRoll && w.Kind != KindDraw)):
			if seat = slices.Index(g.players, cmds[0].Player); seat < 0 {
				r.Failf("command %d: there is no player %q", len(sc.Commands)-len(cmds), cmds[0].Player)
				return nil
			}
			cmd = Command{Kind: cmds[0].Kind, Value: cmds[0].Choice}
			cmds = cmds[1:]
		case w.Kind == KindRoll || w.Kind == KindDraw:
			cmd = Command{Kind: w.Kind}
		case sc.Bots:
			cmd, _ = g.Bot(seat, bots)
		default:
			return nil
		}
		if err := g.Play(seat, cmd); err != nil {
			if g.Err() != nil {
				return err
			}
			r.Failf("command %s %s %d was refused: %v (the match waits for %s)", g.players[seat], cmd.Kind, cmd.Value, err, g.waitText())
			return nil
		}
	}
	r.Failf("the scenario did not stop after %d commands", maxScenarioCommands)
	return nil
}

func (m *Match) waitText() string {
	var out []string
	for _, w := range m.Waits() {
		out = append(out, m.players[w.Player]+" "+w.Kind)
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

// check compares the match with the expectations.
func (sc *Scenario) check(g *Match, err error, r *scenario.Result) {
	e := &sc.Expect
	s := g.state
	switch {
	case e.Error == "" && err != nil:
		r.Failf("the match broke: %v", err)
	case e.Error != "" && err == nil:
		r.Failf("the match did not break; want an error with %q", e.Error)
	case e.Error != "" && !strings.Contains(err.Error(), e.Error):
		r.Failf("the match broke with %q; want an error with %q", err, e.Error)
	}
	if e.Over != nil {
		r.Expect("over", s.Over, *e.Over)
	}
	if e.Winners != nil {
		var got []string
		for _, w := range s.Winners {
			got = append(got, g.players[w])
		}
		r.Expect("winners", got, e.Winners)
	}
	if e.Reason != "" && !strings.Contains(s.EndReason, e.Reason) {
		r.Failf("the game ended because %q; want %q in it", s.EndReason, e.Reason)
	}
	if e.Current != "" {
		r.Expect("current player", g.players[s.Current], e.Current)
	}
	if e.Turn != 0 {
		r.Expect("turn", s.Turn, e.Turn)
	}
	if e.Round != 0 {
		r.Expect("round", s.Round, e.Round)
	}
	scenario.Each(r, "players", "player", e.Players, g.players, func(name string, want PlayerExpect) {
		seat := slices.Index(g.players, name)
		p := &s.Players[seat]
		scenario.ExpectSet(r, name+"'s score", p.Score, want.Score)
		if want.Tile != "" {
			r.Expect(name+"'s tile", s.tileID(p.Tile), want.Tile)
		}
		scenario.ExpectSet(r, name+" still in the game", p.Active, want.Active)
		for _, k := range sortedKeys(want.Props) {
			r.Expect(name+"'s "+k, s.Prop(seat, k), want.Props[k])
		}
	})
	var tiles []string
	for _, t := range g.def.File.Board.Tiles {
		tiles = append(tiles, t.ID)
	}
	scenario.Each(r, "owners", "tile", e.Owners, tiles, func(id, want string) {
		got := ""
		if o := s.Owners[g.def.byID[id]]; o >= 0 {
			got = g.players[o]
		}
		r.Expect("owner of "+id, got, want)
	})
	if e.Trace != nil {
		r.ExpectLines("the trace", g.Trace(), e.Trace)
	}
	r.ExpectInOrder("trace", g.Trace(), e.TraceIncludes)
	r.ExpectInOrderOf("log", g.logLinesBefore(), e.LogIncludes)
}

// logLinesBefore are the lines of the readable log, each with its wording
// from before players read tiles, properties and decks in words, which
// scenarios written then name: a numbered tile by its number and colour
// ("1 (red)", now "red 1"), a tile without a name by its id, a property
// by its name in the file, the round limit "(40)".
func (m *Match) logLinesBefore() scenario.Lines {
	s := m.state
	names := map[string]string{}
	for i, t := range m.def.File.Board.Tiles {
		before := t.ID
		switch {
		case t.Name != "":
			before = t.Name
		case t.Colour != "":
			before = t.ID + " (" + t.Colour + ")"
		}
		names[s.tileLabel(i)] = before
	}
	for _, k := range m.def.props {
		names[m.def.propLabel(k)] = k
	}
	if s.MaxRounds > 0 {
		names[fmt.Sprintf("the round limit of %d was reached", s.MaxRounds)] = fmt.Sprintf("the round limit (%d) was reached", s.MaxRounds)
	}
	reword := scenario.Reword(names)
	var out scenario.Lines
	for _, line := range m.logLines() {
		out.Add(line, reword(line))
	}
	return out
}
