package skirmish

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario/scenariotest"
)

const examples = "../../examples/skirmish"

// validate checks a skirmish file as `tabula validate` does.
func validate(path string) diag.List {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return diag.List{{File: path, Severity: diag.Error, Message: err.Error()}}
	}
	return testPack.Validate(src)
}

// loadFile loads an encounter file, returning its diagnostics.
func loadFile(path string) (*Definition, diag.List) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, diag.List{{File: path, Severity: diag.Error, Message: err.Error()}}
	}
	return testPack.LoadEncounter(src)
}

// newMatch starts a match of an encounter, each side played under its
// own name.
func newMatch(def *Definition, seed uint64) (*Match, error) {
	return def.NewMatch(game.Setup{Players: def.Sides, Seed: seed})
}

// TestExampleScenarios runs every scenario file of the examples, as
// `tabula test examples/skirmish` does.
func TestExampleScenarios(t *testing.T) {
	scenariotest.Run(t, examples, 3, testPack.RunScenario)
}

// A scenario whose expectations do not hold fails, saying which.
func TestScenarioFailures(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(examples, "walk-away.scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"hp: {fighter: 6, goblin: 7}", "hp: {fighter: 5, goblin: 7}", "fighter HP: got 6, want 5"},
		{"positions: {fighter: [0, 2]}", "positions: {fighter: [1, 2]}", "fighter position: got (0,2), want (1,2)"},
		{"goblin: {reactions: 0}", "goblin: {reactions: 1}", "goblin reactions: got 0, want 1"},
		{`"fired opportunity attack (goblin)"`, `"fired opportunity attack (fighter)"`, "- fired opportunity attack (fighter)"},
		{"turn: fighter", "turn: goblin", "turn: got fighter, want goblin"},
		{"dice: [14, 5]", "dice: [14, 5, 3]", "scripted dice left: got 1, want 0"},
		{"hp: {fighter: 6, goblin: 7}", "hp: {fighter: 6, gobln: 7}", `no combatant "gobln" (did you mean goblin?)`},
		{"  turn: fighter", "  turn: fighter\n  colour: red", "field colour not found"},
		{"goblin: {reactions: 0}", "goblin: {reactions: 0}\n  values: {fighter: {atack: 3}}", `values: fighter: no value "atack" (did you mean attack?)`},
	} {
		changed := strings.Replace(string(data), tc.from, tc.to, 1)
		if changed == string(data) {
			t.Fatalf("%q is not in the scenario", tc.from)
		}
		r := testPack.RunScenario(filepath.Join(examples, "walk-away.scenario.yaml"), []byte(changed))
		if r.Passed() || !strings.Contains(r.String(), tc.want) {
			t.Errorf("with %q the scenario gave:\n%s\nwant a failure saying %q", tc.to, r.String(), tc.want)
		}
	}
}

// Every example file is valid.
func TestExamplesAreValid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(examples, "*.json"))
	if len(files) < 5 {
		t.Fatalf("only %d example files", len(files))
	}
	for _, f := range files {
		if l := validate(f); len(l) > 0 {
			var b bytes.Buffer
			l.Print(&b)
			t.Errorf("%s:\n%s", f, b.String())
		}
	}
}

// Bad files get every problem reported, with its position, a JSON pointer
// and, where it helps, a suggestion.
func TestValidationDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"testdata/broken.json", []string{"testdata/broken.json:5:1: /: invalid JSON: unexpected end of the file"}},
		{"testdata/bad-goblin.json", []string{
			`bad-goblin.json:5:16: /abilities/cha: "cha" is required here`,
			`bad-goblin.json:7:12: /armor: unknown member "armor" (did you mean armour?)`,
			`bad-goblin.json:11:63: /weapons/0/damage/0/dice: '1d7' does not match pattern`,
			`bad-goblin.json:11:78: /weapons/0/damage/0/type: must be one of acid, `,
			`not "slashng" (did you mean slashing?)`,
			`bad-goblin.json:12:5: /weapons/1: a ranged weapon needs "range": [normal, long] in feet`,
			`bad-goblin.json:13:14: /weapons/2/name: a second weapon named "bow"`,
			`bad-goblin.json:13:47: /weapons/2/range: a melee weapon has a reach, not a range`,
			`bad-goblin.json:15:27: /resistances/fyre: unknown member "fyre" (did you mean fire?)`,
			`bad-goblin.json:16:18: /conditions/0: no condition "invisble" (did you mean invisible?)`,
			`bad-goblin.json:16:59: /conditions/1/round: unknown member "round" (did you mean rounds?)`,
			`bad-goblin.json:16:63: /conditions/2: warning: "hexed" is not a standard condition`,
		}},
		{"testdata/bad.encounter.json", []string{
			`bad.encounter.json:6:34: /sides/2: side "ghosts" has no combatants`,
			`bad.encounter.json:9:14: /conditions/0/name: "blinded" is a standard condition`,
			`bad.encounter.json:10:47: /conditions/1/modifiers/0/value: no value "atack" (did you mean attack?)`,
			`bad.encounter.json:10:69: /conditions/1/modifiers/1: give exactly one of bonus, min, max, advantage, critical, autoHit, resistance (here: bonus, advantage)`,
			`bad.encounter.json:11:86: /conditions/1/modifiers/2/when: when: undefined field 'distanse'`,
			`bad.encounter.json:12:8: /conditions/1/modifiers/3: a resistance modifier needs its "damageType"`,
			`bad.encounter.json:15:49: /combatants/0/side: no side "goblin"; the sides are heroes, goblins, ghosts (did you mean goblins?)`,
			`bad.encounter.json:15:65: /combatants/0/at: (2,1) is a wall`,
			`bad.encounter.json:16:12: /combatants/1/id: a second combatant with id "g1"`,
			`bad.encounter.json:16:66: /combatants/1/at: (9,9) is off the 4×3 map`,
			`bad.encounter.json:17:26: /combatants/2/file: no combatant file testdata/missing.json`,
			`bad.encounter.json:18:26: /combatants/3/file: the combatant file testdata/bad-goblin.json has errors (reported with it)`,
			`bad.encounter.json:18:69: /combatants/3/at: (0,0) is already g3's square`,
			`bad-goblin.json:16:18: /conditions/0: no condition "invisble"`,
		}},
		{"testdata/bad-conditions.encounter.json", []string{
			`/conditions/0/modifiers/0/when: a condition ("when") needs a contextual channel`,
			`/conditions/1/modifiers/0: a self_contextual modifier needs a condition ("when")`,
			`/conditions/2/modifiers/0/when: when: a condition must be true or false, but this is int`,
			`/conditions/3/modifiers/0/damageType: only a resistance modifier has a damage type`,
			`/combatants/0/conditions/0/rounds: must be at least 1`,
			`/combatants/1/conditions/0: no condition "dimm" (did you mean dim?)`,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			l := validate(tc.file)
			l.Print(&b)
			got := b.String()
			if !l.HasErrors() {
				t.Fatalf("no errors:\n%s", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			if enc, _ := loadFile(tc.file); enc != nil {
				t.Error("a file with errors loaded")
			}
		})
	}
}

// A condition that is neither a name nor an object is told both forms; one
// of the right form but wrong within is told what is wrong.
func TestConditionForm(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(examples, "goblin.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ conditions, want string }{
		{`[3]`, `/conditions/0: must be a condition's name or an object like {"name": "blinded", "rounds": 2}`},
		{`[""]`, `/conditions/0: must not be empty`},
		{`[{"name": "blinded", "rounds": "2"}]`, `/conditions/0/rounds: must be a whole number, not a string`},
	} {
		data := strings.Replace(string(base), `"skills": ["stealth"],`, `"skills": ["stealth"], "conditions": `+c.conditions+`,`, 1)
		path := filepath.Join(t.TempDir(), "goblin.json")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		validate(path).Print(&b)
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("conditions %s: got\n%s\nwant a line with %q", c.conditions, b.String(), c.want)
		}
	}
}

// The schema printed by `tabula schema skirmish` is the one published in
// docs/schema.
func TestPublishedSchema(t *testing.T) {
	doc, err := os.ReadFile("../../docs/schema/skirmish-1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, Schema) {
		t.Error("docs/schema/skirmish-1.schema.json differs from games/skirmish/schema/skirmish-1.schema.json; copy the latter over")
	}
}

// A combatant file is not an encounter.
func TestLoadNeedsAnEncounter(t *testing.T) {
	enc, l := loadFile(filepath.Join(examples, "goblin.json"))
	if enc != nil || !strings.Contains(l[len(l)-1].Message, "this is a combatant file") {
		t.Errorf("loading a combatant as an encounter: %v", l)
	}
}

// The data files give the creatures the numbers a designer expects.
func TestCreatureFromData(t *testing.T) {
	enc, l := loadFile(filepath.Join(examples, "ambush.encounter.json"))
	if enc == nil {
		t.Fatal(l)
	}
	m, err := newMatch(enc, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key                     string
		ac, hp, attack, speed   int
		conditions              []string
		initiativeRolled, alive bool
	}{
		{"fighter", 17, 13, 0, 30, []string{"adaptive-armour", "adaptive-plating"}, true, true},
		{"rogue", 14, 11, 0, 30, []string{"invisible", "unseen", "steady-aim"}, true, true},
		{"goblin-1", 15, 7, 0, 30, nil, true, true},
		{"imp", 13, 10, 0, 30, nil, true, true},
	} {
		f := m.State.ByKey(tc.key)
		if f.AC.Score() != tc.ac || f.HP != tc.hp || f.Speed.Score() != tc.speed || !slices.Equal(m.State.Conditions(f.ID), tc.conditions) {
			t.Errorf("%s: AC %d HP %d speed %d conditions %v", tc.key, f.AC.Score(), f.HP, f.Speed.Score(), m.State.Conditions(f.ID))
		}
	}
	imp := m.State.ByKey("imp")
	if imp.Resistance.Resistance("fire").String() != "immunity" || imp.Resistance.Resistance("cold").String() != "vulnerability" {
		t.Error("the imp's resistances did not load")
	}
	rogue := m.State.ByKey("rogue")
	if rogue.Saves[1].Score() != 2 || rogue.Skills[skillIndex("stealth")].Score() != 2 || rogue.Skills[skillIndex("athletics")].Score() != 0 {
		t.Error("the rogue's proficiencies did not load")
	}
}

// FuzzValidate: whatever a file holds, validation reports problems and
// never panics.
func FuzzValidate(f *testing.F) {
	for _, name := range []string{"goblin.json", "duel.encounter.json", "ambush.encounter.json"} {
		data, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	dir := f.TempDir()
	for _, name := range []string{"goblin.json", "fighter.json", "rogue.json", "ember-imp.json", "barbarian.json", "skeleton.json", "ogre.json"} {
		data, _ := os.ReadFile(filepath.Join(examples, name))
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		validate(path)
		if enc, _ := loadFile(path); enc != nil {
			if _, err := newMatch(enc, 1); err != nil {
				t.Fatalf("a valid encounter does not start: %v", err)
			}
		}
	})
}

// Files damaged at random (a few bytes changed) are reported, never panic,
// and when they still load, they play.
func TestDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"goblin.json", "fighter.json", "rogue.json", "ember-imp.json", "barbarian.json", "skeleton.json", "ogre.json"} {
		data, _ := os.ReadFile(filepath.Join(examples, name))
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"ambush.encounter.json", "duel.encounter.json", "goblin.json"} {
		base, _ := os.ReadFile(filepath.Join(examples, name))
		for range 300 {
			data := slices.Clone(base)
			for range 1 + rng.IntN(4) {
				data[rng.IntN(len(data))] = byte(rng.IntN(128))
			}
			path := filepath.Join(dir, "damaged.json")
			os.WriteFile(path, data, 0o644)
			validate(path)
			if enc, _ := loadFile(path); enc != nil {
				m, err := newMatch(enc, 1)
				if err != nil {
					t.Fatalf("a valid encounter does not start: %v\n%s", err, data)
				}
				if err := m.PlayBots(5000); err != nil {
					t.Fatalf("%v\n%s", err, data)
				}
			}
		}
	}
}

// Scenario files written before players read creatures by name, on the
// encounters of then, still pass: their traces and rejections name
// creatures by key and squares by coordinates ("note: goblin lets fighter
// go", "goblin-3 cannot be pushed: (4,3) is a wall", "step 2: goblin-3
// stands on (3,3)", "fighter finds no way to (9,9)").
func TestScenariosWrittenBeforeNames(t *testing.T) {
	scenariotest.RunWrittenBefore(t, "testdata/before-names", 16, testPack.RunScenario)
}
