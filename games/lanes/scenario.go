package lanes

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

// Scenario is a lanes scenario file (docs/scenarios.md, "Drone lanes"): a
// board set up by hand, commands, and what must come out of them.
type Scenario struct {
	Game        string `yaml:"game"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// File is the game file, relative to the scenario's folder (default:
	// the bundled game, examples/lanes/drone-lanes.json). Data is its
	// older name.
	File string `yaml:"file"`
	Data string `yaml:"data"`
	// Define adds trigger types, drones and cards to the game, in the game
	// file's format; a drone or card with an existing name or id replaces it.
	Define   any           `yaml:"define"`
	Seed     uint64        `yaml:"seed"`
	Players  []string      `yaml:"players"`
	Setup    SetupSpec     `yaml:"setup"`
	Commands []CommandSpec `yaml:"commands"`
	Expect   ExpectSpec    `yaml:"expect"`
}

// SetupSpec is the state the scenario starts from.
type SetupSpec struct {
	Round   int                   `yaml:"round"`
	Phase   string                `yaml:"phase"`
	Turn    string                `yaml:"turn"`
	Players map[string]PlayerSpec `yaml:"players"`
}

// PlayerSpec is one player's side of the setup. Drones are listed on the
// board they sit on, left to right: a mine a card put on A's board is in
// A's lanes.
type PlayerSpec struct {
	Energy   *int                   `yaml:"energy"`
	Budget   *int                   `yaml:"budget"`
	Threat   int                    `yaml:"threat"`
	Passed   bool                   `yaml:"passed"`
	Hand     []string               `yaml:"hand"`
	Deck     []string               `yaml:"deck"`
	Discard  []string               `yaml:"discard"`
	Sections map[string]SectionSpec `yaml:"sections"`
	Lanes    map[int][]DroneSpec    `yaml:"lanes"`
}

// SectionSpec sets a ship section's hull and shields.
type SectionSpec struct {
	Hull    *int `yaml:"hull"`
	Shields *int `yaml:"shields"`
}

// DroneSpec is a drone of the setup: a name, or an object.
type DroneSpec struct {
	Drone string `yaml:"drone"`
	// As is the drone's label in traces and expectations.
	As        string `yaml:"as"`
	Hull      *int   `yaml:"hull"`
	Shields   *int   `yaml:"shields"`
	Attack    *int   `yaml:"attack"`
	Exhausted bool   `yaml:"exhausted"`
	Marked    bool   `yaml:"marked"`
}

// UnmarshalYAML accepts a plain drone name for a drone as it comes.
func (d *DroneSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		d.Drone = n.Value
		return nil
	}
	type plain DroneSpec
	return n.Decode((*plain)(d))
}

// CommandSpec is one command of a scenario.
type CommandSpec struct {
	Player string `yaml:"player"`
	Deploy string `yaml:"deploy"`
	Move   string `yaml:"move"`
	Attack string `yaml:"attack"`
	Play   string `yaml:"play"`
	Pass   bool   `yaml:"pass"`
	// Lane is where a drone is deployed or a card is played.
	Lane int `yaml:"lane"`
	// To is where a drone moves (move, and a card's moves).
	To int `yaml:"to"`
	// Target is the drone or enemy ship section (by name) attacked, or the
	// drone a card targets.
	Target string   `yaml:"target"`
	Drones []string `yaml:"drones"`
	// Reject, if set, expects the command to be refused with a reason
	// containing this text.
	Reject string `yaml:"reject"`
}

// ExpectSpec is what must hold after the commands. Only what is written is
// checked.
type ExpectSpec struct {
	// Trace is every trigger firing of the commands, in order.
	Trace *[]string `yaml:"trace"`
	// Deepest is the deepest firing's chain depth.
	Deepest *int                    `yaml:"deepest"`
	Drones  map[string]DroneExpect  `yaml:"drones"`
	Players map[string]PlayerExpect `yaml:"players"`
	Turn    string                  `yaml:"turn"`
	Phase   string                  `yaml:"phase"`
	Round   *int                    `yaml:"round"`
	Winner  string                  `yaml:"winner"`
	// Log lists lines that must appear, in this order, in the readable
	// log of the commands.
	Log []string `yaml:"log"`
}

// DroneExpect is what a drone must be like.
type DroneExpect struct {
	Attack       *int  `yaml:"attack"`
	Hull         *int  `yaml:"hull"`
	Shields      *int  `yaml:"shields"`
	Speed        *int  `yaml:"speed"`
	Lane         *int  `yaml:"lane"`
	Drew         *int  `yaml:"drew"`
	EnergyGained *int  `yaml:"energyGained"`
	Exhausted    *bool `yaml:"exhausted"`
	Destroyed    *bool `yaml:"destroyed"`
	Marked       *bool `yaml:"marked"`
}

// PlayerExpect is what a player must be like.
type PlayerExpect struct {
	Hand         *int                     `yaml:"hand"`
	Deck         *int                     `yaml:"deck"`
	Discard      *int                     `yaml:"discard"`
	Energy       *int                     `yaml:"energy"`
	Budget       *int                     `yaml:"budget"`
	Threat       *int                     `yaml:"threat"`
	Drawn        *int                     `yaml:"drawn"`
	EnergyGained *int                     `yaml:"energyGained"`
	Damage       *int                     `yaml:"damage"`
	Sections     map[string]SectionExpect `yaml:"sections"`
}

// SectionExpect is what a ship section must be like.
type SectionExpect struct {
	Hull    *int `yaml:"hull"`
	Shields *int `yaml:"shields"`
}

// RunScenario runs a lanes scenario file and reports every expectation
// that failed.
func (p *Pack) RunScenario(path string, data []byte) *scenario.Result {
	var sc Scenario
	r, ok := scenario.Open(path, data, &sc)
	if !ok {
		return r
	}
	run, err := p.startScenario(&sc, filepath.Dir(path))
	if err != nil {
		r.Failf("%v", err)
		return r
	}
	run.play(r)
	run.check(r)
	return r
}

// scenarioRun is a scenario being run: its match, and where the commands'
// records begin.
type scenarioRun struct {
	sc    *Scenario
	m     *Match
	from  int
	names [2]string
}

// startScenario loads the scenario's game (with its definitions) and sets
// up the board. dir is the folder relative paths are read from.
func (p *Pack) startScenario(sc *Scenario, dir string) (*scenarioRun, error) {
	def, err := p.scenarioGame(sc, dir)
	if err != nil {
		return nil, err
	}
	return sc.startWith(def)
}

// startWith sets up the scenario's board with a game already loaded.
func (sc *Scenario) startWith(def *Definition) (*scenarioRun, error) {
	names := [2]string{"A", "B"}
	if len(sc.Players) > 0 {
		if len(sc.Players) != 2 || sc.Players[0] == sc.Players[1] {
			return nil, fmt.Errorf("players: a lanes game has two players with different names")
		}
		names = [2]string{sc.Players[0], sc.Players[1]}
	}
	seed := sc.Seed
	if seed == 0 {
		seed = 1
	}
	m := def.newMatch(seed, names)
	run := &scenarioRun{sc: sc, m: m, names: names}
	if err := run.setup(); err != nil {
		return nil, fmt.Errorf("setup: %v", err)
	}
	m.e.Touch()
	run.from = len(m.e.Records())
	return run, nil
}

// scenarioSource returns the source of a scenario's game: the file it
// names, relative to its folder, or the bundled game.
func scenarioSource(sc *Scenario, dir string) (*game.Source, error) {
	file := sc.File
	switch {
	case sc.File != "" && sc.Data != "":
		return nil, fmt.Errorf("file and data both name the game file: keep file")
	case sc.Data != "":
		file = sc.Data
	case file == "":
		return BundledSource(BundledGame)
	}
	src, err := game.Open(scenario.Resolve(dir, file), game.Limits{})
	if err != nil {
		return nil, fmt.Errorf("file: %v", err)
	}
	return src, nil
}

// scenarioGame loads the scenario's game file and adds its definitions.
func (p *Pack) scenarioGame(sc *Scenario, dir string) (*Definition, error) {
	src, err := scenarioSource(sc, dir)
	if err != nil {
		return nil, err
	}
	if sc.Define == nil {
		def, diags := p.LoadDefinition(src)
		if def == nil {
			return nil, fmt.Errorf("the game file is invalid:\n%s", diags.String())
		}
		return def, nil
	}
	data, err := src.Data()
	if err != nil {
		return nil, fmt.Errorf("file: %v", err)
	}
	// Validate the definitions with the schema, then check the game they
	// make together.
	js, err := json.Marshal(sc.Define)
	if err != nil {
		return nil, fmt.Errorf("define: %v", err)
	}
	doc, err := diag.DecodeJSON(js)
	if err != nil {
		return nil, fmt.Errorf("define: %v", err)
	}
	col := &collector{prefix: "/define"}
	p.ext.Check(col, doc)
	if col.errs() {
		return nil, col.err()
	}
	var x extension
	if err := json.Unmarshal(js, &x); err != nil {
		return nil, fmt.Errorf("define: %v", err)
	}
	var f fileData
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", src.Name(), err)
	}
	setPointers("", f.TriggerTypes, f.Drones, f.Cards)
	setPointers("/define", x.TriggerTypes, x.Drones, x.Cards)
	f.merge(&x)
	col.prefix = ""
	def := p.build(&f, src.Name(), col)
	if col.errs() {
		return nil, col.err()
	}
	return def, nil
}

// collector gathers diagnostics without positions, for scenario files.
type collector struct {
	prefix string
	list   diag.List
}

// Errorf records an error.
func (c *collector) Errorf(ptr, format string, args ...any) {
	c.list = append(c.list, diag.Diagnostic{Pointer: c.prefix + ptr, Severity: diag.Error, Message: fmt.Sprintf(format, args...)})
}

// Warnf ignores warnings: a scenario fails only on errors.
func (c *collector) Warnf(string, string, ...any) {}

func (c *collector) errs() bool { return c.list.HasErrors() }

func (c *collector) err() error {
	var lines []string
	for _, d := range c.list {
		lines = append(lines, d.Pointer+": "+d.Message)
	}
	return fmt.Errorf("define:\n  %s", strings.Join(lines, "\n  "))
}

func (run *scenarioRun) player(name string) (engine.PlayerID, error) {
	for i, n := range run.names {
		if n == name {
			return engine.PlayerID(i), nil
		}
	}
	return 0, fmt.Errorf("no player %q (the players are %s and %s)", name, run.names[0], run.names[1])
}

func (run *scenarioRun) setup() error {
	m, s, st := run.m, run.m.s, run.sc.Setup
	s.Round = max(st.Round, 1)
	s.Phase = PhaseAction
	if st.Phase != "" {
		ph, ok := ParsePhase(st.Phase)
		if !ok || ph == PhaseOver {
			return fmt.Errorf("phase %q: use deployment or action", st.Phase)
		}
		s.Phase = ph
	}
	if st.Turn != "" {
		p, err := run.player(st.Turn)
		if err != nil {
			return fmt.Errorf("turn: %v", err)
		}
		s.Turn = p
	}
	s.First = s.Turn
	var names []string
	for name := range st.Players {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, err := run.player(name); err != nil {
			return err
		}
	}
	labels := map[string]bool{}
	for p := range engine.PlayerID(2) {
		ps := st.Players[run.names[p]]
		pl := &s.Players[p]
		stats := s.Stats(p)
		pl.Energy = stats.EnergyPerRound
		if ps.Energy != nil {
			pl.Energy = *ps.Energy
		}
		if ps.Budget != nil {
			pl.Budget = *ps.Budget
		}
		pl.Threat = ps.Threat
		s.Passed[p] = ps.Passed
		var err error
		for _, list := range []struct {
			names []string
			to    *[]int
			what  string
		}{{ps.Hand, &pl.Hand, "hand"}, {ps.Deck, &pl.Deck, "deck"}, {ps.Discard, &pl.Discard, "discard"}} {
			if *list.to, err = run.cards(list.names); err != nil {
				return fmt.Errorf("%s's %s: %v", pl.Name, list.what, err)
			}
		}
		for name, sec := range ps.Sections {
			i := slices.IndexFunc(pl.Sections[:], func(x Section) bool { return x.Def.Name == name })
			if i < 0 {
				return fmt.Errorf("%s's sections: no section %q", pl.Name, name)
			}
			if sec.Hull != nil {
				pl.Sections[i].Hull = *sec.Hull
			}
			if sec.Shields != nil {
				pl.Sections[i].Shields = *sec.Shields
			}
		}
		for lane := 1; lane <= Lanes; lane++ {
			for _, ds := range ps.Lanes[lane] {
				k := m.def.Drone(ds.Drone)
				if k == nil {
					var all []string
					for _, d := range m.def.Drones {
						all = append(all, d.Name)
					}
					return fmt.Errorf("%s's lane %d: no drone %q%s", pl.Name, lane, ds.Drone, diag.DidYouMean(ds.Drone, all))
				}
				d := s.Drone(s.newDrone(m.e.Index, k, p, lane))
				if ds.As != "" {
					d.Label = ds.As
				}
				if labels[d.Label] {
					return fmt.Errorf("two drones are labelled %q: give one another name with \"as\"", d.Label)
				}
				labels[d.Label] = true
				if ds.Hull != nil {
					d.Hull = *ds.Hull
				}
				if ds.Shields != nil {
					d.Shields = *ds.Shields
				}
				if ds.Attack != nil && *ds.Attack != k.Attack {
					d.Mods = append(d.Mods, Mod{Stat: StatAttack, Value: *ds.Attack - k.Attack})
				}
				d.Exhausted, d.Marked = ds.Exhausted, ds.Marked
			}
		}
		for lane := range ps.Lanes {
			if lane < 1 || lane > Lanes {
				return fmt.Errorf("%s's lanes: there is no lane %d (lanes are 1-%d)", pl.Name, lane, Lanes)
			}
		}
	}
	return nil
}

func (run *scenarioRun) cards(names []string) ([]int, error) {
	out := []int{}
	for _, n := range names {
		c := run.m.def.Card(n)
		if c == nil {
			var all []string
			for _, c := range run.m.def.Cards {
				all = append(all, c.ID)
			}
			return nil, fmt.Errorf("no card %q%s", n, diag.DidYouMean(n, all))
		}
		out = append(out, c.index)
	}
	return out, nil
}

// drone finds a drone by label.
func (run *scenarioRun) drone(label string) (*Drone, error) {
	s := run.m.s
	for i := range s.Drones {
		if s.Drones[i].Label == label {
			return &s.Drones[i], nil
		}
	}
	var all []string
	for _, d := range s.Drones {
		all = append(all, d.Label)
	}
	return nil, fmt.Errorf("no drone %q%s", label, diag.DidYouMean(label, all))
}

// command turns a scenario command into a seat and a command.
func (run *scenarioRun) command(c CommandSpec) (int, Command, error) {
	p, err := run.player(c.Player)
	if err != nil {
		return 0, Command{}, err
	}
	var cmd Command
	switch {
	case c.Pass:
		cmd = Command{Do: "pass"}
	case c.Deploy != "":
		cmd = Command{Do: "deploy", Drone: c.Deploy, Lane: c.Lane}
	case c.Move != "":
		cmd = Command{Do: "move", Drone: c.Move, Lane: c.To}
	case c.Attack != "":
		cmd = Command{Do: "attack", Drone: c.Attack, Target: c.Target}
	case c.Play != "":
		cmd = Command{Do: "play", Card: c.Play, Lane: c.Lane, Target: c.Target, To: c.To, Drones: c.Drones}
	default:
		return 0, cmd, fmt.Errorf("say what the command does: deploy, move, attack, play or pass")
	}
	return int(p), cmd, nil
}

// play runs the scenario's commands, recording failures in r.
func (run *scenarioRun) play(r *scenario.Result) {
	for i, c := range run.sc.Commands {
		p, cmd, err := run.command(c)
		if err != nil {
			r.Failf("command %d: %v", i+1, err)
			return
		}
		err = run.m.Play(p, cmd)
		switch {
		case c.Reject != "" && err == nil:
			r.Failf("command %d: was accepted, want it rejected (%s)", i+1, c.Reject)
		case c.Reject != "" && !strings.Contains(err.Error(), c.Reject):
			r.Failf("command %d: rejected with %q, want a reason containing %q", i+1, err, c.Reject)
		case c.Reject == "" && err != nil:
			r.Failf("command %d: %v", i+1, err)
			return
		}
	}
}

// check compares the match with the scenario's expectations.
func (run *scenarioRun) check(r *scenario.Result) {
	m, s, x := run.m, run.m.s, run.sc.Expect
	if x.Trace != nil {
		r.ExpectLines("trace", m.trace(run.from), *x.Trace)
	}
	if x.Deepest != nil {
		deepest := int32(0)
		for _, rec := range m.e.Records()[run.from:] {
			if rec.Kind == engine.RecFired {
				deepest = max(deepest, rec.Depth)
			}
		}
		r.Expect("deepest firing", deepest, *x.Deepest)
	}
	var labels []string
	for _, d := range s.Drones {
		labels = append(labels, d.Label)
	}
	scenario.Each(r, "drones", "drone", x.Drones, labels, func(label string, want DroneExpect) {
		d, _ := run.drone(label)
		scenario.ExpectSet(r, label+" attack", d.Attack(), want.Attack)
		scenario.ExpectSet(r, label+" hull", d.Hull, want.Hull)
		scenario.ExpectSet(r, label+" shields", d.Shields, want.Shields)
		scenario.ExpectSet(r, label+" speed", d.Speed(), want.Speed)
		scenario.ExpectSet(r, label+" lane", d.Lane, want.Lane)
		scenario.ExpectSet(r, label+" drew", d.Drew, want.Drew)
		scenario.ExpectSet(r, label+" energyGained", d.EnergyGained, want.EnergyGained)
		scenario.ExpectSet(r, label+" exhausted", d.Exhausted, want.Exhausted)
		scenario.ExpectSet(r, label+" destroyed", d.Destroyed, want.Destroyed)
		scenario.ExpectSet(r, label+" marked", d.Marked, want.Marked)
	})
	scenario.Each(r, "players", "player", x.Players, run.names[:], func(name string, want PlayerExpect) {
		p, _ := run.player(name)
		pl := &s.Players[p]
		scenario.ExpectSet(r, name+" hand", len(pl.Hand), want.Hand)
		scenario.ExpectSet(r, name+" deck", len(pl.Deck), want.Deck)
		scenario.ExpectSet(r, name+" discard", len(pl.Discard), want.Discard)
		scenario.ExpectSet(r, name+" energy", pl.Energy, want.Energy)
		scenario.ExpectSet(r, name+" budget", pl.Budget, want.Budget)
		scenario.ExpectSet(r, name+" threat", pl.Threat, want.Threat)
		scenario.ExpectSet(r, name+" drawn", pl.Drawn, want.Drawn)
		scenario.ExpectSet(r, name+" energyGained", pl.EnergyGained, want.EnergyGained)
		scenario.ExpectSet(r, name+" ship damage", s.ShipDamage(p), want.Damage)
		var sections []string
		for _, sec := range pl.Sections {
			sections = append(sections, sec.Def.Name)
		}
		scenario.Each(r, name+"'s sections", "section", want.Sections, sections, func(sec string, want SectionExpect) {
			i := slices.Index(sections, sec)
			scenario.ExpectSet(r, name+" "+sec+" hull", pl.Sections[i].Hull, want.Hull)
			scenario.ExpectSet(r, name+" "+sec+" shields", pl.Sections[i].Shields, want.Shields)
		})
	})
	if x.Turn != "" {
		r.Expect("turn", s.Players[s.Turn].Name, x.Turn)
	}
	if x.Phase != "" {
		r.Expect("phase", s.Phase.String(), x.Phase)
	}
	if x.Round != nil {
		r.Expect("round", s.Round, *x.Round)
	}
	if x.Winner != "" {
		got := "none"
		switch {
		case s.Phase == PhaseOver && s.Winner == engine.NoPlayer:
			got = "draw"
		case s.Phase == PhaseOver:
			got = s.Players[s.Winner].Name
		}
		r.Expect("winner", got, x.Winner)
	}
	if len(x.Log) > 0 {
		r.ExpectInOrder("log", m.textLines(run.from), x.Log)
	}
}
