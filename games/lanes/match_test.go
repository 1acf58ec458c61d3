package lanes

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/scenario"
)

// botGame plays a whole bot game and returns its JSON log, its final hash
// and the hash after every command.
func botGame(t testing.TB, seed uint64) (*Match, []byte, []string) {
	m, err := NewMatch(Builtin(), seed, [2]string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	bots := [2]*Bot{NewBot(seed, 0), NewBot(seed, 1)}
	var hashes []string
	for n := 0; !m.Over(); n++ {
		if n > 20_000 {
			t.Fatal("the game did not end")
		}
		p := m.S.Turn
		if err := m.Do(p, bots[p].Choose(m, p)); err != nil {
			t.Fatalf("command %d: %v", n, err)
		}
		hashes = append(hashes, m.E.Hash())
	}
	var log bytes.Buffer
	if err := m.WriteJSONL(&log, 0); err != nil {
		t.Fatal(err)
	}
	return m, log.Bytes(), hashes
}

// TestSameSeedSameGame: two bot games with the same seed have the same
// log and the same state hash after every command; another seed gives
// another game.
func TestSameSeedSameGame(t *testing.T) {
	m1, log1, h1 := botGame(t, 42)
	_, log2, h2 := botGame(t, 42)
	if !bytes.Equal(log1, log2) {
		t.Error("the logs of two games with seed 42 differ")
	}
	if len(h1) != len(h2) {
		t.Fatalf("%d and %d commands", len(h1), len(h2))
	}
	for i := range h1 {
		if h1[i] != h2[i] {
			t.Fatalf("the hashes differ after command %d", i)
		}
	}
	if _, log3, _ := botGame(t, 43); bytes.Equal(log1, log3) {
		t.Error("seeds 42 and 43 gave the same game")
	}
	if !m1.Over() {
		t.Error("the game is not over")
	}
}

// TestBotGamesEnd: bot games end (by victory or the round limit) and use
// every kind of action.
func TestBotGamesEnd(t *testing.T) {
	kinds := map[string]bool{}
	for seed := uint64(1); seed <= 12; seed++ {
		m, _, _ := botGame(t, seed)
		if m.S.Round > m.Def.Rules.MaxRounds {
			t.Errorf("seed %d: %d rounds, more than the limit", seed, m.S.Round)
		}
		for _, ev := range m.E.Events {
			kinds[m.Def.rules.Types.Name(ev.Type)] = true
		}
	}
	for _, want := range []string{"ON_DEPLOY", "ON_MOVE", "ON_LANE_ATTACK", "ON_ATTACK", "ON_CARD_PLAY", "ON_CARD_DRAWN",
		"ON_ENERGY_GAINED", "ON_ROUND_START", "ON_LANE_DEPLOYMENT", "TOKEN_CREATED", "DESTROYED", "GAME_OVER"} {
		if !kinds[want] {
			t.Errorf("no %s event in 12 bot games", want)
		}
	}
}

// TestFiringRecords: the JSON log's TRIGGER_FIRED records carry what a UI
// needs to animate a cascade: chain, depth, the drone and its board and
// lane, the ability and what it does.
func TestFiringRecords(t *testing.T) {
	sc := readScenario(t, filepath.Join(examples, "03-chaos-cascade.scenario.yaml"))
	run, err := sc.Start(examples)
	if err != nil {
		t.Fatal(err)
	}
	run.Play(&scenario.Result{})
	var buf bytes.Buffer
	if err := run.M.WriteJSONL(&buf, run.From); err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Kind        string   `json:"kind"`
		KindName    string   `json:"kindName"`
		Chain       int      `json:"chain"`
		Depth       int      `json:"depth"`
		Reactor     int      `json:"reactor"`
		ReactorName string   `json:"reactorName"`
		SourceName  string   `json:"sourceName"`
		Drone       string   `json:"drone"`
		Ability     string   `json:"ability"`
		TriggerType string   `json:"triggerType"`
		Description string   `json:"description"`
		Lane        int      `json:"lane"`
		Effects     []string `json:"effects"`
		Text        string   `json:"text"`
	}
	var fired []rec
	texts := 0
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var r rec
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if r.Kind == "fired" {
			fired = append(fired, r)
		}
		if r.Text != "" {
			texts++
		}
	}
	if len(fired) != 8 {
		t.Fatalf("%d firings, want 8", len(fired))
	}
	deep := fired[6]
	want := rec{Kind: "fired", KindName: "TRIGGER_FIRED", Depth: 6, ReactorName: "HypoDrone", SourceName: "Thor", Drone: "HypoDrone",
		Ability: "Feedback", TriggerType: "ON_POWER_GAIN", Description: "draw 1 card", Lane: 1}
	deep.Chain, deep.Reactor, deep.Effects, want.Effects = 0, 0, nil, nil
	if deep.Kind != want.Kind || deep.KindName != want.KindName || deep.Depth != want.Depth || deep.ReactorName != want.ReactorName ||
		deep.SourceName != want.SourceName || deep.Drone != want.Drone || deep.Ability != want.Ability ||
		deep.TriggerType != want.TriggerType || deep.Description != want.Description || deep.Lane != want.Lane {
		t.Errorf("the deepest firing is\n%+v\nwant\n%+v", deep, want)
	}
	if texts == 0 {
		t.Error("no event has a readable text")
	}
}

// TestRejectedChangesNothing: an action the rules refuse leaves the state
// as it was.
func TestRejectedChangesNothing(t *testing.T) {
	m, err := NewMatch(Builtin(), 3, [2]string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	before := m.E.Hash()
	other := 1 - m.S.Turn
	for _, tc := range []struct {
		p engine.PlayerID
		a Action
	}{
		{other, Action{Kind: Pass}},
		{m.S.Turn, Action{Kind: Move, ID: 99, Lane: 2}},
		{m.S.Turn, Action{Kind: Deploy, Drone: Builtin().Drone("Odin"), Lane: 0}},
		{m.S.Turn, Action{Kind: Play, Card: 0}},
	} {
		if err := m.Do(tc.p, tc.a); !engine.IsRejected(err) {
			t.Errorf("%v: got %v, want a rejection", tc.a.Kind, err)
		}
	}
	if m.E.Hash() != before {
		t.Error("a rejected action changed the state")
	}
}
