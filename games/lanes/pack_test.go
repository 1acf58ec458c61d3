package lanes

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// splitGame is the bundled game whose players have a deck and a squad of
// their own: strikes and attackers for the first seat, mines and support
// for the second.
func splitGame(t testing.TB) *Definition {
	t.Helper()
	src, err := BundledSource("strike-and-mines.json")
	if err != nil {
		t.Fatal(err)
	}
	def, list := testPack.LoadDefinition(src)
	if def == nil {
		t.Fatal(list.String())
	}
	return def
}

// The bundled games, one with a deck per player, pass the checks of every
// pack, played by random legal commands and by the pack's bot.
func TestPassesTheChecks(t *testing.T) {
	for name, def := range map[string]*Definition{"bundled": bundled(t), "split": splitGame(t)} {
		t.Run(name, func(t *testing.T) {
			gametest.Check(t, def, gametest.Options{MaxRounds: 8})
			gametest.Check(t, def, gametest.Options{PackBot: true})
		})
	}
}

// Every bundled game loads through the pack as the server loads it.
func TestBundledGames(t *testing.T) {
	files, err := filepath.Glob("../../examples/lanes/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled games: %v", err)
	}
	for _, f := range files {
		src, err := BundledSource(filepath.Base(f))
		if err != nil {
			t.Fatal(err)
		}
		if !testPack.Detect(src) {
			t.Errorf("%s: not detected", f)
		}
		def, list := testPack.Load(src)
		if def == nil || len(list) > 0 {
			t.Errorf("%s:\n%s", f, list.String())
			continue
		}
		if info := def.Info(); info.MinPlayers != 2 || info.MaxPlayers != 2 || info.DefaultMaxRounds == 0 || info.Size == "" {
			t.Errorf("%s: %+v", f, info)
		}
		if _, err := json.Marshal(def.Drawing()); err != nil {
			t.Error(err)
		}
	}
	def := gametest.Load(t, testPack, "../../examples/lanes/"+BundledGame)
	if got := def.Info().Size; got != "15 drones, 13 cards" {
		t.Errorf("size %q", got)
	}
}

// Each player draws from their own deck and deploys from their own squad.
func TestDecksAndSquadsPerPlayer(t *testing.T) {
	def := splitGame(t)
	m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for seat, deck := range def.Rules.Decks {
		var ids []string
		for _, e := range deck {
			ids = append(ids, e.Card)
		}
		pl := &m.s.Players[seat]
		for _, ci := range slices.Concat(pl.Hand, pl.Deck) {
			if id := def.Cards[ci].ID; !slices.Contains(ids, id) {
				t.Errorf("seat %d holds %s, which is not in its deck", seat, id)
			}
		}
	}
	turn := int(m.s.Turn)
	own, other := "Odin", "Anansi"
	if turn == 1 {
		own, other = other, own
	}
	if err := m.Play(turn, Command{Do: "deploy", Drone: other, Lane: 1}); !engine.IsRejected(err) || !strings.Contains(err.Error(), "not in the squad") {
		t.Errorf("deploying the other squad's %s: %v", other, err)
	}
	if err := m.Play(turn, Command{Do: "deploy", Drone: own, Lane: 1}); err != nil {
		t.Errorf("deploying %s: %v", own, err)
	}
}

// playSome plays n commands (or to the end) with the pack's bot.
func playSome(t testing.TB, m *Match, seed uint64, n int) {
	t.Helper()
	r := rng.New(seed).Stream("bots")
	for i := 0; i < n && !m.Outcome().Over; i++ {
		seat := m.Waiting()[0]
		cmd, _ := m.BotCommand(seat, r)
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatalf("command %d %s: %v", i, cmd, err)
		}
	}
}

// Hidden information stays hidden: after a few rounds, seat 1's view, log
// and text, and a spectator's, name no card of seat 0's hand or deck that
// seat 0 has not played; seat 0's own view shows its hand.
func TestHiddenInformation(t *testing.T) {
	def := splitGame(t)
	for _, seed := range []uint64{1, 2, 3} {
		m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		playSome(t, m, seed, 60)
		played := map[string]bool{}
		for _, ev := range m.e.Events {
			if c, ok := ev.Data.(*CardDef); ok {
				played[c.ID] = true
			}
		}
		pl := &m.s.Players[0]
		var secret []string
		for _, ci := range slices.Concat(pl.Hand, pl.Deck) {
			if c := def.Cards[ci]; !played[c.ID] && !slices.Contains(secret, c.Name) {
				secret = append(secret, c.Name, c.ID)
			}
		}
		if len(secret) == 0 {
			t.Fatalf("seed %d: seat 0 has played every card it has", seed)
		}
		for _, viewer := range []int{1, game.Spectator} {
			view, _ := json.Marshal(m.View(viewer))
			log, _ := json.Marshal(m.Log(viewer, 0))
			for what, text := range map[string]string{"view": string(view), "log": string(log), "text": m.Text(viewer)} {
				for _, name := range secret {
					if strings.Contains(text, name) {
						t.Errorf("seed %d: the %s of seat %d names %q, a card of seat 0 not played", seed, what, viewer, name)
					}
				}
			}
		}
		var own View
		data, _ := json.Marshal(m.View(0))
		if err := json.Unmarshal(data, &own); err != nil {
			t.Fatal(err)
		}
		if len(own.Players[0].Hand) != len(pl.Hand) || own.Players[1].Hand != nil || own.Players[1].HandCount != len(m.s.Players[1].Hand) {
			t.Errorf("seed %d: seat 0 sees hands %v and %v (count %d)", seed, own.Players[0].Hand, own.Players[1].Hand, own.Players[1].HandCount)
		}
		for i, c := range own.Players[0].Hand {
			if c.Name != def.Cards[pl.Hand[i]].key || c.Text == "" {
				t.Errorf("seed %d: seat 0's card %d is %+v", seed, i, c)
			}
		}
		if own.Players[0].DeckCount != len(pl.Deck) || own.Hash != m.Hash() {
			t.Errorf("seed %d: deck count %d, hash %s", seed, own.Players[0].DeckCount, own.Hash)
		}
	}
}

// Every legal command of a few positions, sent as JSON through Apply, is
// accepted, and reads back as the command it was.
func TestJSONCommandsRoundTrip(t *testing.T) {
	def := bundled(t)
	setup := game.Setup{Players: []string{"A", "B"}, Seed: 9}
	var prefix []json.RawMessage
	r := rng.New(9).Stream("bots")
	m, _ := def.NewMatch(setup)
	kinds := map[string]bool{}
	for step := 0; step < 120 && !m.Outcome().Over; step++ {
		seat := m.Waiting()[0]
		if step%15 == 0 {
			for _, c := range m.Legal(seat) {
				var cmd Command
				if err := game.DecodeCommand(c.Data, &cmd); err != nil {
					t.Fatalf("%s: %v", c.Data, err)
				}
				again, _ := json.Marshal(cmd)
				if string(again) != string(c.Data) {
					t.Errorf("%s reads back as %s", c.Data, again)
				}
				kinds[cmd.Do] = true
				fresh, _ := def.NewMatch(setup)
				for _, p := range prefix {
					if err := fresh.Apply(fresh.Waiting()[0], p); err != nil {
						t.Fatal(err)
					}
				}
				if err := fresh.Apply(seat, c.Data); err != nil {
					t.Errorf("step %d: legal %s (%s): %v", step, c.Data, c.Text, err)
				}
			}
		}
		cmd, _ := m.BotCommand(seat, r)
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
		prefix = append(prefix, cmd)
	}
	for _, k := range []string{"deploy", "move", "attack", "play", "pass"} {
		if !kinds[k] {
			t.Errorf("no legal %s command in the positions tried", k)
		}
	}
}

// Commands that name drones, cards and lanes in the players' words read as they say.
func TestCommandsByName(t *testing.T) {
	run := startMid(t, midGame(t))
	m := run.m
	tests := []struct {
		seat int
		cmd  string
		want string // a line of the log, or the rejection
	}{
		{0, `{"do":"attack","drone":"Odin","target":"Firefly"}`, "Odin attacks Firefly in lane 1"},
		{1, `{"do":"play","card":"Laser Blast","target":"Firefly"}`, "Laser Blast needs an enemy drone as its target"},
		{0, `{"do":"move","drone":"Osiris","lane":2}`, "it is B's turn"},
		{1, `{"do":"play","card":"Laser Blast","target":"Gladiator"}`, "B plays Laser Blast on Gladiator"},
		{0, `{"do":"attack","drone":"Osiris","target":"Power Cell"}`, "Osiris has no attack"},
		{0, `{"do":"attack","drone":"Specter","target":"Drone Control Hub"}`, "Thor 2 guards the section"},
		{0, `{"do":"play","card":"Deploy_Proximity_Mine","lane":2}`, "A plays Proximity Mine into lane 2"},
		{1, `{"do":"move","drone":"Osiris 2","lane":3}`, "Osiris 2 moves from lane 2 to lane 3"},
		{0, `{"do":"pass"}`, "A passes"},
	}
	for _, tc := range tests {
		from := m.LogLen()
		seat := tc.seat
		err := m.Apply(seat, json.RawMessage(tc.cmd))
		if err != nil {
			if !engine.IsRejected(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %q", tc.cmd, err, tc.want)
			}
			continue
		}
		if lines := m.textLines(from); !slices.Contains(lines, tc.want) {
			t.Errorf("%s: the log says %q, want %q", tc.cmd, lines, tc.want)
		}
	}
}

// Typed commands read in the game's words.
func TestParseCommand(t *testing.T) {
	run := startMid(t, midGame(t))
	m := run.m
	tests := []struct{ line, want string }{
		{"p", `{"do":"pass"}`},
		{"PASS", `{"do":"pass"}`},
		{"move gladiator 2", `{"do":"move","drone":"Gladiator","lane":2}`},
		{"move War Machine to 3", `{"do":"move","drone":"War Machine","lane":3}`},
		{"attack odin firefly", `{"do":"attack","drone":"Odin","target":"Firefly"}`},
		{"attack War Machine War Machine 2", `{"do":"attack","drone":"War Machine","target":"War Machine 2"}`},
		{"attack thor drone control hub", `{"do":"attack","drone":"Thor","target":"Drone Control Hub"}`},
		{"play proximity mine 2", `{"do":"play","card":"Proximity Mine","lane":2}`},
		{"play Laser Blast Firefly", `{"do":"play","card":"Laser Blast","target":"Firefly"}`},
		{"play tractor beam osiris 2 3", `{"do":"play","card":"Tractor Beam","target":"Osiris 2","to":3}`},
		{"play intel report", `{"do":"play","card":"Intel Report"}`},
		{`{"do":"pass"}`, `{"do":"pass"}`},
		{"deploy odin 2", `{"do":"deploy","drone":"Odin","lane":2}`},
		{"1", string(m.Legal(0)[0].Data)},
		{"fly away", "error"},
		{"move Odin", "error"},
		{"play Reposition 2", "error"},
		{"9999", "error"},
		{`{"do":"pass","x":1}`, "error"},
	}
	for _, tc := range tests {
		got, err := m.ParseCommand(0, tc.line)
		switch {
		case tc.want == "error" && err == nil:
			t.Errorf("%q: %s, want an error", tc.line, got)
		case tc.want != "error" && err != nil:
			t.Errorf("%q: %v", tc.line, err)
		case tc.want != "error" && string(got) != tc.want:
			t.Errorf("%q: %s, want %s", tc.line, got, tc.want)
		}
	}
}

// The tally counts firings per drone kind and plays per card, with the
// damage and the kills of each.
func TestTally(t *testing.T) {
	m, _, _ := botGame(t, 4)
	played, fired := 0, 0
	for _, r := range m.e.Records() {
		if r.Kind == engine.RecFired {
			fired++
		}
		if r.Kind == engine.RecEvent && m.e.Events[r.Event].Type == evCardPlayed {
			played++
		}
	}
	var cards, firings, damage, kills int
	for _, tl := range m.Tally() {
		switch tl.Kind {
		case "card":
			cards += tl.Firings
		case "drone":
			firings += tl.Firings
		default:
			t.Errorf("kind %q", tl.Kind)
		}
		damage += tl.Damage
		kills += tl.Kills
	}
	if cards != played || firings != fired || damage == 0 || kills == 0 {
		t.Errorf("tally: %d plays of %d, %d firings of %d, damage %d, kills %d", cards, played, firings, fired, damage, kills)
	}
}

// A match starts with two players, and the round limit of its setup.
func TestStart(t *testing.T) {
	def := bundled(t)
	for _, players := range [][]string{{"A"}, {"A", "B", "C"}, {"A", "A"}, {"A", ""}} {
		if _, err := def.Start(game.Setup{Players: players}); err == nil {
			t.Errorf("started with %q", players)
		}
	}
	m, err := def.NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: 2, MaxRounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	playSome(t, m, 2, 10_000)
	if o := m.Outcome(); !o.Over || o.Rounds != 2 || !strings.HasPrefix(o.Reason, "round limit") {
		t.Errorf("outcome %+v, want the end after 2 rounds", o)
	}
}

// Every field of the state goes into the state hash: changing any one
// changes the hash.
func TestHashCoversTheState(t *testing.T) {
	run := startMid(t, midGame(t))
	m := run.m
	// Start a card's play, so that its fields are set.
	m.s.Play = cardPlay{Active: true, Card: m.def.Cards[0], Player: 0, Lane: 2, Target: FirstDrone, To: 1, Drones: []engine.EntityID{FirstDrone}}
	m.s.Players[0].Deck = []int{1, 2, 3}
	m.s.Players[0].Discard = []int{4}
	d := &m.s.Drones[0]
	d.Mods = []Mod{{Stat: StatAttack, Value: 1}}
	changes := map[string]func(s *State){
		"State.Round":       func(s *State) { s.Round++ },
		"State.MaxRounds":   func(s *State) { s.MaxRounds++ },
		"State.Phase":       func(s *State) { s.Phase = PhaseDeployment },
		"State.First":       func(s *State) { s.First = 1 - s.First },
		"State.Turn":        func(s *State) { s.Turn = 1 - s.Turn },
		"State.Passed":      func(s *State) { s.Passed[1] = !s.Passed[1] },
		"State.FirstPasser": func(s *State) { s.FirstPasser = 1 },
		"State.GoAgain":     func(s *State) { s.GoAgain = !s.GoAgain },
		"State.NeedRound":   func(s *State) { s.NeedRound = !s.NeedRound },
		"State.Winner":      func(s *State) { s.Winner = 1 },
		"State.Order":       func(s *State) { s.Order++ },
		"State.Drones":      func(s *State) { s.Drones = s.Drones[:len(s.Drones)-1] },
		"Player.Name":       func(s *State) { s.Players[1].Name = "C" },
		"Player.Energy":     func(s *State) { s.Players[1].Energy++ },
		"Player.Budget":     func(s *State) { s.Players[1].Budget++ },
		"Player.Threat":     func(s *State) { s.Players[1].Threat++ },
		"Player.Deck": func(s *State) {
			s.Players[0].Deck[0], s.Players[0].Deck[1] = s.Players[0].Deck[1], s.Players[0].Deck[0]
		},
		"Player.Hand":         func(s *State) { s.Players[0].Hand = s.Players[0].Hand[1:] },
		"Player.Discard":      func(s *State) { s.Players[0].Discard[0]++ },
		"Player.Lanes":        func(s *State) { l := s.Players[0].Lanes[0]; l[0], l[1] = l[1], l[0] },
		"Player.Sections":     nil, // by its fields
		"Player.Drawn":        func(s *State) { s.Players[0].Drawn++ },
		"Player.EnergyGained": func(s *State) { s.Players[0].EnergyGained++ },
		"Section.Hull":        func(s *State) { s.Players[0].Sections[2].Hull-- },
		"Section.Shields":     func(s *State) { s.Players[1].Sections[0].Shields-- },
		"Drone.Kind":          func(s *State) { s.Drones[1].Kind = s.def.Drones[0] },
		"Drone.Owner":         func(s *State) { s.Drones[1].Owner = 1 - s.Drones[1].Owner },
		"Drone.Label":         func(s *State) { s.Drones[1].Label = "Loki" },
		"Drone.Lane":          func(s *State) { s.Drones[1].Lane++ },
		"Drone.Hull":          func(s *State) { s.Drones[1].Hull-- },
		"Drone.Shields":       func(s *State) { s.Drones[1].Shields++ },
		"Drone.Exhausted":     func(s *State) { s.Drones[1].Exhausted = !s.Drones[1].Exhausted },
		"Drone.Marked":        func(s *State) { s.Drones[1].Marked = !s.Drones[1].Marked },
		"Drone.Destroyed":     func(s *State) { s.Drones[1].Destroyed = !s.Drones[1].Destroyed },
		"Drone.Mods":          func(s *State) { s.Drones[0].Mods = nil },
		"Drone.Drew":          func(s *State) { s.Drones[1].Drew++ },
		"Drone.EnergyGained":  func(s *State) { s.Drones[1].EnergyGained++ },
		"Mod.Stat":            func(s *State) { s.Drones[0].Mods[0].Stat = StatSpeed },
		"Mod.Value":           func(s *State) { s.Drones[0].Mods[0].Value = 2 },
		"Mod.Temporary":       func(s *State) { s.Drones[0].Mods[0].Temporary = true },
		"cardPlay.Active":     func(s *State) { s.Play.Active = false },
		"cardPlay.Card":       func(s *State) { s.Play.Card = s.def.Cards[1] },
		"cardPlay.Player":     func(s *State) { s.Play.Player = 1 },
		"cardPlay.Lane":       func(s *State) { s.Play.Lane = 3 },
		"cardPlay.Target":     func(s *State) { s.Play.Target++ },
		"cardPlay.To":         func(s *State) { s.Play.To = 3 },
		"cardPlay.Drones":     func(s *State) { s.Play.Drones[0]++ },
		"cardPlay.Next":       func(s *State) { s.Play.Next++ },
	}
	// What the hash leaves out: the definition, shared and fixed; a
	// drone's id, which is its place in Drones; the effects' scratch list.
	fixed := []string{"State.def", "State.Players", "State.Play", "State.scratch", "Section.Def", "Drone.ID"}
	for _, typ := range []reflect.Type{reflect.TypeFor[State](), reflect.TypeFor[Player](), reflect.TypeFor[Section](),
		reflect.TypeFor[Drone](), reflect.TypeFor[Mod](), reflect.TypeFor[cardPlay]()} {
		for f := range typ.Fields() {
			name := typ.Name() + "." + f.Name
			if _, ok := changes[name]; !ok && !slices.Contains(fixed, name) {
				t.Errorf("%s: no test changes it", name)
			}
		}
	}
	base := m.Hash()
	for name, change := range changes {
		if change == nil {
			continue
		}
		saved := cloneState(m.s)
		change(m.s)
		m.e.Touch()
		if m.Hash() == base {
			t.Errorf("changing %s leaves the hash as it was", name)
		}
		*m.s = *saved
		m.e.Touch()
		if m.Hash() != base {
			t.Fatalf("restoring after %s: the hash differs", name)
		}
	}
}

// cloneState copies a state deeply enough for TestHashCoversTheState.
func cloneState(s *State) *State {
	c := *s
	c.Drones = slices.Clone(s.Drones)
	for i := range c.Drones {
		c.Drones[i].Mods = slices.Clone(s.Drones[i].Mods)
	}
	for p := range c.Players {
		pl := &c.Players[p]
		pl.Deck, pl.Hand, pl.Discard = slices.Clone(pl.Deck), slices.Clone(pl.Hand), slices.Clone(pl.Discard)
		for l := range pl.Lanes {
			pl.Lanes[l] = slices.Clone(pl.Lanes[l])
		}
	}
	c.Play.Drones = slices.Clone(s.Play.Drones)
	return &c
}

// The view shows the board as the page draws it; a spectator sees no
// hand.
func TestView(t *testing.T) {
	run := startMid(t, midGame(t))
	var v View
	data, _ := json.Marshal(run.m.View(game.Spectator))
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.You != -1 || v.Players[0].Hand != nil || v.Players[1].Hand != nil || v.Players[0].HandCount != 5 {
		t.Errorf("a spectator sees %+v", v.Players)
	}
	lane2 := v.Players[0].Lanes[1]
	if len(lane2) != 3 || lane2[1].Name != "Anansi" || lane2[1].Kind != "Anansi" || lane2[1].Lane != 2 {
		t.Errorf("A's lane 2: %+v", lane2)
	}
	if s := v.Players[1].Sections[0]; s.Name != "Bridge" || s.Hull != 10 || s.Status != "healthy" {
		t.Errorf("B's first section: %+v", s)
	}
	for _, key := range []string{`"you":-1`, `"phase":"action"`, `"turn":0`, `"hand":null`, `"handCount":5`, `"deckCount":50`,
		`"discardCount":0`, `"modifiers":[]`, `"exhausted":false`, `"outcome":{"over":false`, `"hash":"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("the view has no %s", key)
		}
	}
	if text := run.m.Text(0); !strings.Contains(text, "Hand: [Proximity Mine 2]") {
		t.Errorf("the text:\n%s", text)
	}
}
