package lanes

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

// botGame plays a whole bot game and returns the match, its log as JSON
// and the hash after every command.
func botGame(t testing.TB, seed uint64) (*Match, []byte, []string) {
	m, err := bundled(t).NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	bots := [2]*rng.Stream{rng.New(seed).Stream("bot 0"), rng.New(seed).Stream("bot 1")}
	var hashes []string
	for n := 0; !m.over(); n++ {
		if n > 20_000 {
			t.Fatal("the game did not end")
		}
		seat := int(m.s.Turn)
		cmd, ok := m.BotCommand(seat, bots[seat])
		if !ok {
			t.Fatalf("command %d: the bot has nothing to play", n)
		}
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatalf("command %d: %s: %v", n, cmd, err)
		}
		hashes = append(hashes, m.Hash())
	}
	log, err := json.Marshal(m.Log(game.Spectator, 0))
	if err != nil {
		t.Fatal(err)
	}
	return m, log, hashes
}

// TestSameSeedSameGame: two bot games with the same seed have the same
// log and the same state hash after every command; another seed gives
// another game.
func TestSameSeedSameGame(t *testing.T) {
	m1, log1, h1 := botGame(t, 42)
	_, log2, h2 := botGame(t, 42)
	if string(log1) != string(log2) {
		t.Error("the logs of two games with seed 42 differ")
	}
	if !slices.Equal(h1, h2) {
		t.Error("the hashes of two games with seed 42 differ")
	}
	if _, log3, _ := botGame(t, 43); string(log1) == string(log3) {
		t.Error("seeds 42 and 43 gave the same game")
	}
	if !m1.Outcome().Over {
		t.Error("the game is not over")
	}
}

// TestBotGamesEnd: bot games end (by victory or the round limit) and use
// every kind of action.
func TestBotGamesEnd(t *testing.T) {
	kinds := map[string]bool{}
	for seed := uint64(1); seed <= 12; seed++ {
		m, _, _ := botGame(t, seed)
		if o := m.Outcome(); o.Rounds > m.def.Rules.MaxRounds || o.Reason == "" {
			t.Errorf("seed %d: %+v, more rounds than the limit or no reason", seed, o)
		}
		for _, ev := range m.e.Events {
			kinds[m.def.rules.Types.Name(ev.Type)] = true
		}
	}
	for _, want := range []string{"ON_DEPLOY", "ON_MOVE", "ON_LANE_ATTACK", "ON_ATTACK", "ON_CARD_PLAY", "ON_CARD_DRAWN",
		"ON_ENERGY_GAINED", "ON_ROUND_START", "ON_LANE_DEPLOYMENT", "TOKEN_CREATED", "DESTROYED", "GAME_OVER"} {
		if !kinds[want] {
			t.Errorf("no %s event in 12 bot games", want)
		}
	}
}

// TestFiringEntries: the log's firings carry what a page needs to animate
// a cascade: chain, depth, the reacting drone and the drone it affects,
// named as the view names them, the lane, the ability and what it does.
func TestFiringEntries(t *testing.T) {
	sc := readScenario(t, filepath.Join(examples, "03-chaos-cascade.scenario.yaml"))
	run, err := testPack.startScenario(sc, examples)
	if err != nil {
		t.Fatal(err)
	}
	run.play(&scenario.Result{})
	var fired []game.Entry
	texts := 0
	for _, e := range run.m.Log(game.Spectator, run.from) {
		if e.Kind == "fired" {
			fired = append(fired, e)
		}
		if e.Text != "" {
			texts++
		}
	}
	if len(fired) != 8 {
		t.Fatalf("%d firings, want 8", len(fired))
	}
	deep := fired[6]
	d, _ := deep.Data.(*EntryData)
	if deep.Depth != 6 || deep.Subject != "HypoDrone" || deep.Type != "ON_POWER_GAIN" || deep.At != "lane 1" || deep.Seat != 0 ||
		d == nil || d.Ability != "Feedback" || d.Description != "draw 1 card" || d.SubjectSeat == nil || *d.SubjectSeat != 0 {
		t.Errorf("the deepest firing is %+v (data %+v)", deep, d)
	}
	if texts == 0 {
		t.Error("no entry has a readable text")
	}
}

// TestMineEntries: a Proximity Mine's firing names the mine as its
// subject and the drone that moved in as its target, with the damage; the
// damage entry says who dealt it to whom.
func TestMineEntries(t *testing.T) {
	run := startMid(t, midGame(t, DroneSpec{Drone: "Proximity Mine"}))
	if err := run.m.Play(0, moveIntoMine); err != nil {
		t.Fatal(err)
	}
	var fired, damaged *game.Entry
	for _, e := range run.m.Log(1, run.from) {
		switch {
		case e.Kind == "fired":
			fired = &e
		case e.Type == "DAMAGED" && damaged == nil:
			damaged = &e
		}
	}
	if fired == nil || fired.Subject != "Proximity Mine" || fired.Target != "Gladiator" || fired.Amount != 4 || fired.At != "lane 2" {
		t.Errorf("the mine's firing: %+v", fired)
	}
	if damaged == nil || damaged.Subject != "Proximity Mine" || damaged.Target != "Gladiator" || damaged.Amount != 4 {
		t.Errorf("the damage: %+v", damaged)
	}
}

// TestRejectedChangesNothing: a command the rules refuse leaves the state
// as it was.
func TestRejectedChangesNothing(t *testing.T) {
	m, err := bundled(t).NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	before := m.Hash()
	turn := int(m.s.Turn)
	for _, tc := range []struct {
		seat int
		c    Command
	}{
		{1 - turn, Command{Do: "pass"}},
		{turn, Command{Do: "move", Drone: "Odin", Lane: 2}},
		{turn, Command{Do: "deploy", Drone: "Odin", Lane: 0}},
		{turn, Command{Do: "deploy", Drone: "Odinn", Lane: 1}},
		{turn, Command{Do: "play", Card: "Laser Blast"}},
		{turn, Command{Do: "fly"}},
		{turn, Command{Do: "pass", Lane: 2}},
	} {
		if err := m.Play(tc.seat, tc.c); !engine.IsRejected(err) {
			t.Errorf("%+v: got %v, want a rejection", tc.c, err)
		}
	}
	if m.Hash() != before {
		t.Error("a rejected command changed the state")
	}
}
