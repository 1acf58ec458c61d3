package skirmish

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
)

// fight plays commands on an encounter of the examples with scripted dice,
// the sides played by Ann and Bob, and returns the match.
func fight(t *testing.T, encounter string, dice []int, cmds ...Command) *Match {
	t.Helper()
	def := load(t, filepath.Join(examples, encounter))
	m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: dice})
	if err != nil {
		t.Fatal(err)
	}
	do(t, m, cmds...)
	return m
}

// entry returns the log entry whose text starts with prefix.
func entry(t *testing.T, m *Match, prefix string) game.Entry {
	t.Helper()
	log := m.Log(game.Spectator, 0)
	i := slices.IndexFunc(log, func(e game.Entry) bool { return strings.HasPrefix(e.Text, prefix) })
	if i < 0 {
		var texts []string
		for _, e := range log {
			if e.Text != "" {
				texts = append(texts, e.Text)
			}
		}
		t.Fatalf("no entry %q in:\n%s", prefix, strings.Join(texts, "\n"))
	}
	return log[i]
}

func hasTerm(terms []Term, want Term) bool { return slices.Contains(terms, want) }

// An attack's entry tells it in players' words, with who, whom, where and
// how much, and what its roll was made of: both dice with advantage, the
// one kept, every term with its source and channel, the total against the
// armour class, and the damage as rolled and as taken.
func TestAttackEntry(t *testing.T) {
	// The invisible rogue's attack: 6 and 17 with advantage; its
	// shortsword's d6 rolls 2.
	m := fight(t, "invisible-rogue.encounter.json", []int{6, 17, 2}, Command{Do: "attack", Who: "rogue", Target: "goblin"})
	e := entry(t, m, "Rogue hits Goblin with the shortsword: 5 damage")
	if e.Subject != "rogue" || e.Target != "goblin" || e.Amount != 5 || e.At != "(2,1)" || e.Type != "ATTACK" || e.Seat != 0 {
		t.Errorf("entry %+v", e)
	}
	if !strings.Contains(e.Detail, "ATTACK/COMPLETION rogue → goblin") {
		t.Errorf("detail %q", e.Detail)
	}
	a := e.Data.(*AttackData)
	r := a.Roll
	if !slices.Equal(r.Dice, []int{6, 17}) || r.Kept != 17 || r.Advantage != "advantage" || r.Total != 22 || r.Against != 15 ||
		r.AgainstWhat != "ac" || r.Result != "hit" || r.Bonus != 5 {
		t.Errorf("roll %+v", r)
	}
	for _, want := range []Term{{Source: "dex", Bonus: 3}, {Source: "proficiency", Bonus: 2}, {Source: "Unseen", Channel: "self_static", Effect: "advantage"}} {
		if !hasTerm(r.Modifiers, want) {
			t.Errorf("no term %+v in %+v", want, r.Modifiers)
		}
	}
	if len(a.Damage) != 1 || a.Damage[0].Dice != "1d6" || !slices.Equal(a.Damage[0].Rolls, []int{2}) || a.Damage[0].Bonus != 3 ||
		a.Damage[0].Rolled != 5 || a.Damage[0].Taken != 5 || a.Dealt != 5 || a.HPLeft == nil || *a.HPLeft != 2 {
		t.Errorf("damage %+v, dealt %d", a.Damage, a.Dealt)
	}
	if _, err := json.Marshal(e); err != nil {
		t.Fatal(err)
	}
}

// The other creature's modifiers count toward a roll in its to-target
// channels, and the log says so: a dodging fighter gives its attacker
// disadvantage (to_target_contextual, as it can see it).
func TestTargetChannelsInTheRoll(t *testing.T) {
	m := fight(t, "walk-away.encounter.json", []int{18, 5},
		Command{Do: "dodge", Who: "fighter"}, Command{Do: "end"}, Command{Do: "attack", Who: "goblin", Target: "fighter"})
	r := entry(t, m, "Goblin misses Fighter with the scimitar").Data.(*AttackData).Roll
	if !hasTerm(r.Modifiers, Term{Source: "Dodging", Channel: "to_target_contextual", Effect: "disadvantage"}) ||
		r.Advantage != "disadvantage" || r.Kept != 5 || r.Result != "miss" {
		t.Errorf("roll %+v", r)
	}
}

// Damage taken through a resistance says so, per component.
func TestResistedDamageEntry(t *testing.T) {
	m := fight(t, "adaptive-armour.encounter.json", []int{15, 4, 3, 15, 4},
		Command{Do: "attack", Who: "imp", Target: "fighter"}, Command{Do: "end"},
		Command{Do: "attack", Who: "fighter", Target: "imp"}, Command{Do: "end"},
		Command{Do: "attack", Who: "imp", Target: "fighter"})
	a := entry(t, m, "Imp hits Fighter with the flame claw: 3 damage").Data.(*AttackData)
	if d := a.Damage[0]; d.Rolled != 6 || d.Taken != 3 || d.Resistance != "resistance" || d.Type != "fire" {
		t.Errorf("damage %+v", d)
	}
}

// Saving throws and initiative are rolls too, told with their terms.
func TestSaveAndInitiativeEntries(t *testing.T) {
	m := fight(t, "duel.encounter.json", []int{5, 14, 16, 2}, Command{Do: "attack", Who: "fighter", Target: "goblin"})
	r := entry(t, m, "Fighter fails its save against Cursed (6 against DC 12)").Data.(RollData)
	if r.Kind != "save" || r.Kept != 5 || r.Total != 6 || r.Against != 12 || r.AgainstWhat != "dc" || r.Result != "failure" ||
		!hasTerm(r.Modifiers, Term{Source: "wis", Bonus: 1}) {
		t.Errorf("save %+v", r)
	}
	m = fight(t, "ambush.encounter.json", nil)
	r = entry(t, m, "Rogue rolls").Data.(RollData)
	if r.Kind != "initiative" || r.Total != r.Kept+3 || !hasTerm(r.Modifiers, Term{Source: "dex", Bonus: 3}) {
		t.Errorf("initiative %+v", r)
	}
}

// The terminal reads commands in the pack's words and draws the fight.
func TestParseAndText(t *testing.T) {
	def := load(t, filepath.Join(examples, "walk-away.encounter.json"))
	m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{14, 5}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want, err string }{
		{"attack goblin", `{"do":"attack","who":"fighter","target":"goblin"}`, ""},
		{"a goblin javelin", `{"do":"attack","who":"fighter","target":"goblin","weapon":"javelin"}`, ""},
		{"move 0 2", `{"do":"move","who":"fighter","to":[0,2]}`, ""},
		{"shove goblin", `{"do":"shove","who":"fighter","target":"goblin"}`, ""},
		{"e", `{"do":"end","who":"fighter"}`, ""},
		{"move 0", "", "move X Y"},
		{"fly", "", `no command "fly"`},
		{"help", "", "commands:"},
	} {
		got, err := m.ParseCommand(0, tc.line)
		if string(got) != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: %s, %v", tc.line, got, err)
		}
	}
	if text := m.Text(0); !strings.Contains(text, "A Fighter      heroes   HP 13/13 AC 16") ||
		!strings.Contains(text, "Fighter's turn (heroes (Ann)), round 1: action, 30 ft.") {
		t.Errorf("text:\n%s", text)
	}
	cmd, _ := m.ParseCommand(0, "move 0 2")
	if err := m.Apply(0, cmd); err != nil {
		t.Fatal(err)
	}
	if text := m.Text(1); !strings.Contains(text, "Fighter leaves the reach of Goblin.") {
		t.Errorf("text:\n%s", text)
	}
	if got, err := m.ParseCommand(1, "no"); err != nil || string(got) != `{"do":"reaction","take":false}` {
		t.Errorf("no: %s, %v", got, err)
	}
	if _, err := m.ParseCommand(0, "end"); err == nil {
		t.Error("the mover's side typed a command while the goblins decide")
	}
}

// The tally counts each combatant's attacks, damage and knock-outs.
func TestTally(t *testing.T) {
	m := fight(t, "invisible-rogue.encounter.json", []int{6, 17, 2, 20, 6, 6}, Command{Do: "attack", Who: "rogue", Target: "goblin"},
		Command{Do: "end"}, Command{Do: "attack", Who: "goblin", Target: "rogue"})
	got := m.Tally()
	want := []game.Tally{{Name: "rogue", Kind: "character", Seat: 0, Firings: 1, Damage: 5},
		{Name: "goblin", Kind: "character", Seat: 1, Firings: 1, Damage: 14, Kills: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("tally %+v, want %+v", got, want)
	}
}

// A trigger's firing names whose it is: the creature, or the bearer of the
// condition that fired.
func TestFiringEntry(t *testing.T) {
	m := fight(t, "walk-away.encounter.json", []int{14, 5}, Command{Do: "move", Who: "fighter", To: &Cell{0, 2}})
	log := m.Log(game.Spectator, 0)
	i := slices.IndexFunc(log, func(e game.Entry) bool { return e.Kind == "fired" })
	if i < 0 {
		t.Fatal("no firing in the log")
	}
	if log[i].Subject != "goblin" || log[i].Seat != 1 || log[i].Detail != "fired opportunity attack (goblin)" || log[i].Text != "" {
		t.Errorf("firing %+v", log[i])
	}
}

// The end of the fight is told after the blow that ended it, though the
// engine finds the fight over while the blow is still being resolved (an
// attack is told at its completion, after the deaths it causes): in the
// whole log, and in the entries of the last command, as a page reads them.
func TestFightOverIsToldLast(t *testing.T) {
	m := fight(t, "invisible-rogue.encounter.json", []int{6, 17, 2, 20, 6, 6}, Command{Do: "attack", Who: "rogue", Target: "goblin"},
		Command{Do: "end"})
	before := m.LogLen()
	do(t, m, Command{Do: "attack", Who: "goblin", Target: "rogue"})
	want := []string{
		"Goblin critically hits Rogue with the scimitar: 14 damage, and it goes down",
		"The fight is over: goblins (Bob) are the last standing",
	}
	for _, from := range []int{0, before} {
		var texts []string
		for _, e := range m.Log(game.Spectator, from) {
			if e.Text != "" {
				texts = append(texts, e.Text)
			}
		}
		if len(texts) < 2 || !slices.Equal(texts[len(texts)-2:], want) {
			t.Errorf("from record %d, the log ends:\n%s\nwant it to end:\n%s", from, strings.Join(texts, "\n"), strings.Join(want, "\n"))
		}
	}
	blow := entry(t, m, want[0])
	if blow.Type != "ATTACK" || blow.Subject != "goblin" || blow.Target != "rogue" || blow.Amount != 14 || blow.Data.(*AttackData).HPLeft == nil {
		t.Errorf("the blow's entry %+v", blow)
	}
}
