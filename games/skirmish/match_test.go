package skirmish

import (
	"bytes"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// load loads an encounter file for a test.
func load(t testing.TB, path string) *Definition {
	t.Helper()
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	def, l := testPack.LoadEncounter(src)
	if def == nil {
		t.Fatal(l)
	}
	return def
}

func ambush(t testing.TB) *Definition {
	return load(t, filepath.Join(examples, "ambush.encounter.json"))
}

// botFight plays the ambush with bots on both sides and returns the JSON
// lines log and the hash after every command.
func botFight(t testing.TB, def *Definition, seed uint64) (string, []string) {
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for n := 0; !m.State.Over; n++ {
		if n > 5000 {
			t.Fatal("the fight does not end")
		}
		seat := m.Waiting()[0]
		cmd, _ := m.Bot(seat)
		if err := m.Play(seat, cmd); err != nil {
			t.Fatalf("command %d: %v", n, err)
		}
		hashes = append(hashes, m.Hash())
	}
	var b bytes.Buffer
	m.Engine.WriteJSONL(&b, 0)
	return b.String(), hashes
}

// The same encounter, seed and commands give the same log and the same
// hash after every command, whatever the number of threads; another seed
// gives another fight.
func TestDeterminism(t *testing.T) {
	enc := ambush(t)
	wantLog, wantHashes := botFight(t, enc, 42)
	if len(wantHashes) < 20 || len(wantLog) < 20_000 {
		t.Fatalf("a suspiciously short fight: %d commands, %d bytes of log", len(wantHashes), len(wantLog))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				log, hashes := botFight(t, enc, 42)
				if log != wantLog || !slices.Equal(hashes, wantHashes) {
					t.Errorf("GOMAXPROCS=%d: the same fight came out differently", procs)
				}
			})
		}
		wg.Wait()
	}
	if log, _ := botFight(t, enc, 43); log == wantLog {
		t.Error("seed 43 gave the same fight as seed 42")
	}
}

// A rejected command changes nothing, not even the hash.
func TestRejectionChangesNothing(t *testing.T) {
	m := start(t, arena(6, 6, at("hero", goblin(), 0, 1, 1), at("foe", goblin(), 1, 2, 1)))
	before, records := m.Hash(), len(m.Engine.Records())
	for _, c := range []Command{
		{Do: "attack", Who: "foe", Target: "hero"},
		{Do: "move", To: &Cell{40, 40}},
		{Do: "dash", Who: "nobody"},
		{Do: "rest"},
	} {
		if err := m.do(c); !engine.IsRejected(err) {
			t.Errorf("%+v: %v, want a rejection", c, err)
		}
	}
	if m.Hash() != before || len(m.Engine.Records()) != records || m.Engine.Err() != nil {
		t.Error("rejected commands changed the match")
	}
}

// Death takes a creature out with everything it registered: its
// conditions, their modifiers and triggers, its opportunity attack.
func TestDeathCleansUp(t *testing.T) {
	armoured := target()
	armoured.HP = 5
	armoured.Conditions = []ConditionUse{{Name: "adaptive-armour"}, {Name: "battle-trance"}}
	m := start(t, arena(6, 6, at("hero", goblin(), 0, 1, 1), at("victim", armoured, 1, 2, 1)), 10, 6)
	g := m.State
	victim := g.ByKey("victim")
	if len(m.Engine.Index.Of(victim.ID)) != 1 || len(g.book.Of(victim.ID)) != 3 {
		t.Fatalf("before: %d triggers, conditions %v", len(m.Engine.Index.Of(victim.ID)), g.Conditions(victim.ID))
	}
	statusIDs := []engine.EntityID{}
	for _, s := range g.book.Of(victim.ID) {
		statusIDs = append(statusIDs, s.ID)
	}
	force(m, "hero", forceHit)
	do(t, m, Command{Do: "attack", Target: "victim"})
	if victim.Alive || !g.Over {
		t.Fatalf("the victim survived %d damage", 8)
	}
	if n := len(m.Engine.Index.Of(victim.ID)); n != 0 {
		t.Errorf("the dead victim keeps %d triggers", n)
	}
	for _, id := range statusIDs {
		if g.Object(id) != nil || len(m.Engine.Index.Of(id)) != 0 {
			t.Errorf("status %d (%s) outlived its bearer", id, g.Registry.Name(id))
		}
	}
	for _, v := range victim.Values() {
		for _, e := range v.Entries() {
			if e.By != victim.ID && e.By != engine.System {
				t.Errorf("%s keeps the modifier %q of entity %d", v.Name, e.Modifier.Name, e.By)
			}
		}
	}
	if m.Engine.Index.Len() != 1 { // the hero's opportunity attack
		t.Errorf("%d triggers left in the match, want 1", m.Engine.Index.Len())
	}
}

// The registry finds any object by its id, and ids are handed out in
// order: combatants first, then conditions as they come.
func TestRegistry(t *testing.T) {
	m := start(t, arena(6, 6, at("a", goblin(), 0, 1, 1), at("b", goblin(), 1, 4, 4)))
	g := m.State
	if f, ok := g.Object(1).(*Combatant); !ok || f.Key != "a" {
		t.Errorf("object 1 is %v", g.Object(1))
	}
	do(t, m, Command{Do: "dodge"})
	s, ok := g.Object(3).(*status.Status)
	if !ok || s.Def.Name != "dodging" || s.Bearer != 1 || g.EntityName(3) != "dodging" {
		t.Errorf("object 3 is %v", g.Object(3))
	}
	do(t, m, Command{Do: "end"}, Command{Do: "end"})
	if g.Object(3) != nil || g.Registry.Name(3) != "dodging" {
		t.Error("an expired condition is still an object, or lost its name")
	}
}

// The battle trance stops deepening at its highest level.
func TestTranceCaps(t *testing.T) {
	c := target()
	c.Conditions = []ConditionUse{{Name: "battle-trance"}}
	ogre := target()
	ogre.HP = 500
	m := start(t, arena(6, 6, at("hero", c, 0, 1, 1), at("ogre", ogre, 1, 2, 1)))
	force(m, "hero", forceHit)
	for range MaxTrance + 2 {
		do(t, m, Command{Do: "attack", Target: "ogre"}, Command{Do: "end"}, Command{Do: "end"})
	}
	hero := m.State.ByKey("hero")
	if lvl := m.State.book.Find(hero.ID, "trance-level"); lvl == nil || lvl.Stacks != MaxTrance || hero.Attack.Score() != MaxTrance {
		t.Errorf("after %d hits: level %v, attack %+d", MaxTrance+2, lvl, hero.Attack.Score())
	}
}

// The encounter's round limit ends it in a draw; a long rest afterwards
// restores hit points and ends UNTIL_LONG_REST conditions.
func TestRoundLimitAndLongRest(t *testing.T) {
	def := arena(10, 3, at("a", goblin(), 0, 0, 0), at("b", goblin(), 1, 9, 2))
	def.MaxRounds = 2
	def.Conditions = []*status.Def{{Name: "weary", Duration: status.Duration{Kind: status.UntilLongRest}}}
	def.Placements[0].Conditions = []ConditionUse{{Name: "weary"}}
	m := start(t, def)
	m.State.ByKey("a").HP = 3 // hurt before the fight, for the rest to heal
	for range 4 {
		do(t, m, Command{Do: "end"})
	}
	if !m.State.Over || m.State.Winner != engine.NoPlayer {
		t.Fatalf("after 2 rounds: over %v, winner %d", m.State.Over, m.State.Winner)
	}
	if err := m.do(Command{Do: "end"}); !engine.IsRejected(err) {
		t.Errorf("a command after the end: %v", err)
	}
	do(t, m, Command{Do: "rest"})
	if a := m.State.ByKey("a"); a.HP != 7 || m.State.has(a.ID, "weary") {
		t.Errorf("after a long rest: HP %d, conditions %v", a.HP, m.State.Conditions(a.ID))
	}
	if !strings.Contains(strings.Join(m.trace(0), "\n"), "ENCOUNTER_END: draw: no side won in 2 rounds") {
		t.Error("the log does not say the fight ended in a draw")
	}
}

// Outcome follows the documented order of checks.
func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		natural, total, ac int
		crit               string
		auto               string
		want               string
	}{
		{10, 15, 15, "", "", Hit},
		{10, 14, 15, "", "", Miss},
		{20, 25, 100, "", "", Crit},
		{20, 25, 100, "NOCRIT", "", Hit},
		{1, 101, 15, "", "", CritMiss},
		{1, 5, 15, "", "AUTOHIT", Hit},
		{20, 25, 15, "", "AUTOMISS", Miss},
		{10, 15, 15, "AUTOCRIT", "", Crit},
		{10, 15, 15, "AUTOCRIT", "AUTOHIT", Crit},
		{10, 5, 15, "", "AUTOHIT", Hit},
	} {
		crit, auto := 0, 0
		switch tc.crit {
		case "AUTOCRIT":
			crit = 1
		case "NOCRIT":
			crit = 2
		}
		switch tc.auto {
		case "AUTOHIT":
			auto = 1
		case "AUTOMISS":
			auto = 2
		}
		if got := Outcome(tc.natural, tc.total, tc.ac, critOf(crit), hitOf(auto)); got != tc.want {
			t.Errorf("natural %d, total %d vs AC %d, %s %s: %s, want %s", tc.natural, tc.total, tc.ac, tc.crit, tc.auto, got, tc.want)
		}
	}
}
