package party

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
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

// exampleBoards are the bundled boards.
func exampleBoards(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../examples/party/*.json")
	if err != nil || len(files) < 4 {
		t.Fatalf("the example boards: %v %v", files, err)
	}
	return files
}

// Every bundled board, and every fixture of the original game that loads
// (v1, v3, a bundle folder and a zipped bundle), passes the checks of
// every pack: played by random legal commands and by the pack's bot. The
// checks read every view and the whole log after every command, so the
// games are kept short.
func TestPassesTheChecks(t *testing.T) {
	p := NewPack()
	type board struct {
		path string
		o    gametest.Options
	}
	var boards []board
	for _, path := range exampleBoards(t) {
		boards = append(boards, board{path, gametest.Options{MaxRounds: 8}})
	}
	if root, ok := fixturesIfAny(t); ok {
		for _, rel := range append(fixtureFiles(t, root), "bundles/default-board.zip") {
			if def, _ := testPack.LoadFile(filepath.Join(root, rel)); def != nil {
				boards = append(boards, board{filepath.Join(root, rel), gametest.Options{MaxRounds: 4, Games: 1}})
			}
		}
		if len(boards) < 16 {
			t.Errorf("only %d boards to check", len(boards))
		}
	}
	for _, b := range boards {
		t.Run(filepath.Base(b.path), func(t *testing.T) {
			t.Parallel()
			def := gametest.Load(t, p, b.path)
			gametest.Check(t, def, b.o)
			b.o.PackBot, b.o.Games = true, 1
			gametest.Check(t, def, b.o)
		})
	}
}

// fixturesIfAny returns the folder of the original game's fixtures, or
// false when they are not there (outside CI).
func fixturesIfAny(t *testing.T) (string, bool) {
	var root string
	ok := t.Run("fixtures", func(t *testing.T) { root = sharedDir(t) })
	return root, ok && root != ""
}

// storedMatch is a match as a server stored it: its setup and each
// command with the state hash after it.
type storedMatch struct {
	Match     string   `json:"match"`
	Board     string   `json:"board"`
	Seed      uint64   `json:"seed"`
	MaxRounds int      `json:"maxRounds"`
	Players   []string `json:"players"`
	Status    string   `json:"status"`
	Result    string   `json:"result"`
	Commands  []struct {
		Seat    int             `json:"seat"`
		Command json.RawMessage `json:"command"`
		Hash    string          `json:"hash"`
	} `json:"commands"`
}

// The matches a server stored before the game interface (commands with a
// "player", a choice of the first way without a value) replay through
// Apply with the very state hashes they were stored with.
func TestStoredMatchesReplay(t *testing.T) {
	data, err := os.ReadFile("testdata/stored-matches.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Matches []storedMatch }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, sm := range file.Matches {
		t.Run(sm.Match, func(t *testing.T) {
			def := gametest.Load(t, testPack, "../../examples/party/"+sm.Board)
			m, err := def.Start(game.Setup{Players: sm.Players, Seed: sm.Seed, MaxRounds: sm.MaxRounds})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range sm.Commands {
				if err := m.Apply(c.Seat, c.Command); err != nil {
					t.Fatalf("command %d %s: %v", i, c.Command, err)
				}
				if h := m.Hash(); h != c.Hash {
					t.Fatalf("command %d %s: hash %s, stored %s", i, c.Command, h, c.Hash)
				}
			}
			o := m.Outcome()
			if o.Over != (sm.Status == "finished") {
				t.Errorf("over %v, stored as %s", o.Over, sm.Status)
			}
			if o.Over && (len(o.Winners) != 1 || !strings.HasSuffix(sm.Result, sm.Players[o.Winners[0]]+" won") || !strings.HasPrefix(sm.Result, o.Reason)) {
				t.Errorf("outcome %+v, stored %q", o, sm.Result)
			}
		})
	}
	if len(file.Matches) != 3 {
		t.Errorf("%d stored matches", len(file.Matches))
	}
}

// played is one command of a match, as JSON.
type played struct {
	seat int
	data json.RawMessage
}

// replay starts a match and plays commands through Apply.
func replay(t *testing.T, def game.Definition, setup game.Setup, cmds []played) game.Match {
	t.Helper()
	m, err := def.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cmds {
		if err := m.Apply(c.seat, c.data); err != nil {
			t.Fatalf("command %d %s: %v", i, c.data, err)
		}
	}
	return m
}

// Every legal command of many positions (rolls, forks, prompts to
// everybody) is accepted through Apply from its JSON, and its typed form
// reads back from that JSON.
func TestJSONCommandsRoundTrip(t *testing.T) {
	def := gametest.Load(t, testPack, "../../examples/party/everything.json")
	setup := game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: 5}
	m := replay(t, def, setup, nil)
	r := rng.New(5).Stream("test")
	var cmds []played
	kinds := map[string]int{}
	for step := 0; step < 60 && !m.Outcome().Over; step++ {
		for _, seat := range m.Waiting() {
			for _, l := range m.Legal(seat) {
				var c Command
				c, err := decodeCommand(seat, l.Data)
				if err != nil || !bytes.Equal(c.json(), l.Data) {
					t.Fatalf("%s reads back as %+v (%v)", l.Data, c, err)
				}
				kinds[c.Kind]++
				fresh := replay(t, def, setup, cmds)
				if err := fresh.Apply(seat, l.Data); err != nil {
					t.Fatalf("seat %d's legal %s (%s): %v", seat, l.Data, l.Text, err)
				}
			}
		}
		seat := m.Waiting()[0]
		legal := m.Legal(seat)
		c := legal[r.IntN(len(legal))].Data
		if err := m.Apply(seat, c); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, played{seat, c})
	}
	for _, k := range commandKinds {
		if kinds[k] == 0 {
			t.Errorf("no %s among the legal commands tried: %v", k, kinds)
		}
	}
}

// The commands of each kind, as JSON: what they read as, and what is
// rejected with which reason.
func TestCommandJSON(t *testing.T) {
	for _, c := range []struct {
		json string
		seat int
		want Command
		err  string
	}{
		{`{"kind":"roll"}`, 0, Command{Kind: KindRoll}, ""},
		{`{"player":1,"kind":"roll"}`, 1, Command{Kind: KindRoll}, ""},
		{`{"player":0,"kind":"roll"}`, 1, Command{}, "seat 1 cannot play a command of player 0"},
		{`{"kind":"roll","value":4}`, 0, Command{}, "the dice are rolled by the match"},
		{`{"kind":"roll","value":0}`, 0, Command{}, "the dice are rolled by the match"},
		{`{"player":0,"kind":"roll","value":6}`, 0, Command{}, "the dice are rolled by the match"},
		{`{"kind":"choose-path","value":2}`, 0, Command{Kind: KindChoosePath, Value: 2}, ""},
		{`{"kind":"choose-path","value":0}`, 0, Command{Kind: KindChoosePath}, ""},
		{`{"kind":"choose-path","space":"12"}`, 0, Command{Kind: KindChoosePath, Space: "12"}, ""},
		{`{"player":2,"kind":"choose-path"}`, 2, Command{Kind: KindChoosePath}, ""},
		{`{"kind":"choose-path"}`, 0, Command{}, `needs "value"`},
		{`{"kind":"choose-path","value":1,"space":"3"}`, 0, Command{}, "not both"},
		{`{"kind":"choose-path","value":-1}`, 0, Command{}, "not -1"},
		{`{"kind":"ack"}`, 0, Command{Kind: KindAck}, ""},
		{`{"kind":"ack","value":1}`, 0, Command{}, "without a value"},
		{`{"kind":"roll","die":6}`, 0, Command{}, `unknown field "die"`},
		{`{"kind":"roll"} {}`, 0, Command{}, "more after"},
		{`"roll"`, 0, Command{}, "a command is a JSON object"},
	} {
		got, err := decodeCommand(c.seat, []byte(c.json))
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: %+v, %v; want %+v", c.json, got, err, c.want)
		case c.err != "" && (err == nil || !engine.IsRejected(err) || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want a rejection saying %q", c.json, err, c.err)
		}
	}
}

// A roll never carries its result, through JSON or the typed API; the
// rejection changes nothing. Scripted rolls come from the setup, in
// order, then the dice roll from the seed.
func TestRollsComeFromTheMatch(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 3, Dice: []int{2, 5}})
	h := m.Hash()
	if err := m.Apply(0, json.RawMessage(`{"kind":"roll","value":6}`)); !engine.IsRejected(err) {
		t.Errorf("a roll with a value: %v", err)
	}
	if err := m.Play(0, Command{Kind: KindRoll, Value: 6}); !engine.IsRejected(err) {
		t.Errorf("a typed roll with a value: %v", err)
	}
	if m.Hash() != h || m.s.Phase != PhaseRoll {
		t.Fatal("a rejected roll changed the match")
	}
	var rolls []int
	for len(rolls) < 3 {
		seat := m.Waiting()[0]
		c, _ := m.Bot(seat, rng.New(1).Stream("bots"))
		if err := m.Play(seat, c); err != nil {
			t.Fatal(err)
		}
		if c.Kind == KindRoll {
			rolls = append(rolls, m.s.LastRoll[0])
		}
	}
	if rolls[0] != 2 || rolls[1] != 5 || rolls[2] < 1 || rolls[2] > 6 || len(m.s.Dice) != 0 {
		t.Errorf("rolls %v (dice left %v), want 2, 5 and a die", rolls, m.s.Dice)
	}
	if _, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Dice: []int{3, 7}}, Options{}); err == nil ||
		!strings.Contains(err.Error(), "scripted roll 2 (7) is impossible with 1d6") {
		t.Errorf("an impossible scripted roll: %v", err)
	}
}

// A board's player limits are enforced; a board that sets none is for 1
// to 8 players, as the original game allows.
func TestPlayerLimits(t *testing.T) {
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('A' + i))
		}
		return out
	}
	board := func(lo, hi int) *Definition {
		return compileBoard(t, &Board{Name: "Line", Spaces: []Space{sp("1", next("2")), sp("2", nil)},
			Rules: GameRules{MinPlayers: lo, MaxPlayers: hi, Dice: Dice{1, 6}}})
	}
	for _, c := range []struct {
		def    *Definition
		lo, hi int
	}{
		{compileFile(t, "../../examples/party/default.json"), 2, 8},
		{compileFile(t, "../../examples/party/grand-tour.json"), 2, 12},
		{compileFile(t, "../../examples/party/everything.json"), 1, 6},
		{board(0, 0), 1, 8},
		{board(3, 0), 3, 8},
		{board(0, 4), 1, 4},
		{board(10, 0), 10, 10},
		{board(2, 200), 2, MaxSeats},
	} {
		info := c.def.Info()
		if info.MinPlayers != c.lo || info.MaxPlayers != c.hi {
			t.Errorf("%s: players %d to %d, want %d to %d", info.Name, info.MinPlayers, info.MaxPlayers, c.lo, c.hi)
		}
		for _, n := range []int{c.lo - 1, c.lo, c.hi, c.hi + 1, 12} {
			_, err := c.def.Start(game.Setup{Players: names(n)})
			var pe *game.PlayersError
			if want := n >= c.lo && n <= c.hi; want != (err == nil) || (err != nil && !errors.As(err, &pe)) {
				t.Errorf("%s with %d players: %v", info.Name, n, err)
			}
		}
	}
	_, err := compileFile(t, "../../examples/party/default.json").Start(game.Setup{Players: names(12)})
	if err == nil || err.Error() != "Tabula Party is for 2 to 8 players, not 12" {
		t.Errorf("12 players on the default board: %v", err)
	}
}

// What the lobby learns of a board.
func TestInfo(t *testing.T) {
	info := compileFile(t, "../../examples/party/default.json").Info()
	want := game.Info{Pack: "party", Name: "Tabula Party", Description: info.Description, HowToPlay: info.HowToPlay, MinPlayers: 2, MaxPlayers: 8,
		DefaultMaxRounds: 100, Size: "11 spaces"}
	if !reflect.DeepEqual(info, want) || info.Description == "" || !strings.HasPrefix(info.HowToPlay, "Roll the die") {
		t.Errorf("info %+v", info)
	}
}

// The legal commands say what they do in the players' words: a way is
// named by its space, with its id where two ways have the same name.
func TestLegalCommandsText(t *testing.T) {
	def := compileBoard(t, &Board{Spaces: []Space{
		sp("1", []string{"2", "12", "3"}),
		{ID: "2", Name: "Rhyme Time", Events: []Event{ev(OnEnter, PromptAllPlayers, prompt("Rhyme with {{CURRENT_PLAYER_NAME}}"))}},
		{ID: "12", Name: "Rhyme Time"},
		{ID: "3"},
	}, Rules: GameRules{Dice: Dice{1, 6}}})
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Dice: []int{1}})
	texts := func(seat int) []string {
		var out []string
		for _, c := range m.Legal(seat) {
			out = append(out, c.Text+" "+string(c.Data))
		}
		return out
	}
	check := func(seat int, want ...string) {
		t.Helper()
		if got := texts(seat); !slices.Equal(got, want) {
			t.Errorf("seat %d: %q, want %q", seat, got, want)
		}
	}
	check(0, `Roll the dice {"kind":"roll"}`)
	check(1)
	if err := m.Apply(0, json.RawMessage(`{"kind":"roll"}`)); err != nil {
		t.Fatal(err)
	}
	// Two ways to spaces of the same name are told apart by their order,
	// never by their ids; a space without a name is named after its id.
	check(0, `Go to Rhyme Time (way 1) {"kind":"choose-path","value":0}`, `Go to Rhyme Time (way 2) {"kind":"choose-path","value":1}`,
		`Go to Space 3 {"kind":"choose-path","value":2}`)
	check(1)
	if err := m.Apply(0, json.RawMessage(`{"kind":"choose-path","space":"2"}`)); err != nil {
		t.Fatal(err)
	}
	// A prompt to everybody: the current player acknowledges it.
	check(0, `OK: Rhyme with Ann {"kind":"ack"}`)
	check(1)
	if got := m.Waiting(); !slices.Equal(got, []int{0}) {
		t.Errorf("waiting for %v", got)
	}
}

// The terminal reads "" or "roll" as a roll, a number as a way, "" as an
// acknowledgement; Text shows where everybody stands, in words, and leaves
// what the seat may play to the terminal's list of legal commands (so that
// nothing is asked twice).
func TestTerminal(t *testing.T) {
	def := compileBoard(t, &Board{Spaces: []Space{
		sp("1", []string{"2", "3"}),
		sp("2", nil, ev(OnLand, PromptCurrentPlayer, prompt("Drink!")), ev(OnLand, SetPlayerState, StateArgs{State: CompletedGame})),
		sp("3", nil),
	}, Rules: GameRules{Dice: Dice{1, 6}}})
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Dice: []int{1}})
	apply := func(seat int, line string) {
		t.Helper()
		c, err := m.ParseCommand(seat, line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if err := m.Apply(seat, c); err != nil {
			t.Fatal(err)
		}
	}
	refuse := func(seat int, line, want string) {
		t.Helper()
		if _, err := m.ParseCommand(seat, line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
	if text := m.Text(0); !strings.Contains(text, "Round 1 · Ann's turn") || strings.Contains(text, "roll.") {
		t.Errorf("Ann's text:\n%s", text)
	}
	if text := m.Text(1); !strings.Contains(text, "Waiting for Ann to roll.") {
		t.Errorf("Bob's text:\n%s", text)
	}
	refuse(1, "", "Bob is not asked anything now")
	refuse(0, "jump", "press Enter")
	apply(0, "roll")
	if text := m.Text(0); strings.Contains(text, "which way") || strings.Contains(text, "S3") {
		t.Errorf("Ann's text at the fork:\n%s", text)
	}
	if got := m.Legal(0); len(got) != 2 || got[0].Text != "Go to S2" || got[1].Text != "Go to S3" {
		t.Errorf("the ways: %v", got)
	}
	refuse(0, "3", "type a number from 1 to 2")
	apply(0, "1")
	if text := m.Text(0); strings.Contains(text, "Drink!") {
		t.Errorf("Ann's text at the prompt:\n%s", text)
	}
	if got := m.Legal(0); len(got) != 1 || got[0].Text != "OK: Drink!" {
		t.Errorf("the prompt: %v", got)
	}
	apply(0, "")
	if text := m.Text(1); !strings.Contains(text, "> Bob") || !strings.Contains(text, "Ann          on S2 ") || !strings.Contains(text, "finished") || strings.Contains(text, "COMPLETED_GAME") {
		t.Errorf("Bob's text:\n%s", text)
	}
}

// The log tells players what happened in their words, and designers in
// the engine's; a page finds the space of each step and firing in At.
func TestLogEntries(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Dice: []int{6, 1}})
	for m.s.Players[0].State != CompletedGame || m.s.Prompt != nil {
		seat := m.Waiting()[0]
		c := m.Legal(seat)[0].Data
		if bytes.Contains(c, []byte(KindChoosePath)) {
			c = json.RawMessage(`{"kind":"choose-path","space":"5"}`)
		}
		if err := m.Apply(seat, c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	var got []string
	for _, e := range m.Log(game.Spectator, 0) {
		got = append(got, e.Kind+"|"+e.Type+"|"+e.At+"|"+e.Text+"|"+e.Detail)
	}
	for _, want := range []string{
		"event|ROLLED|1|Ann rolls 6|",
		"event|ON_ENTER|2|Ann enters Warm-up|",
		"fired|ON_ENTER|2||↳ Warm-up (2) · ON_ENTER → PROMPT_ALL_PLAYERS \"Warm-up! Everybody takes a sip.\"",
		"event|PROMPTED|2|Warm-up: Warm-up! Everybody takes a sip.|",
		"answer|||Ann takes the way to Shortcut|Ann takes the way to Shortcut (5)",
		"event|TELEPORTED|10|Ann is sent to Last stretch|",
		"event|STATE_CHANGED|11|Ann has finished|Ann is now COMPLETED_GAME",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no entry %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, e := range m.Log(0, 0) {
		if strings.Contains(e.Text, "PROMPT_") || strings.Contains(e.Text, "COMPLETED_GAME") || strings.Contains(e.Text, "→") {
			t.Errorf("engine words in a player's text: %q", e.Text)
		}
	}
	all := m.Log(game.Spectator, 0)
	later := slices.IndexFunc(all, func(e game.Entry) bool { return e.Seq >= 5 })
	if got := m.Log(1, 5); !reflect.DeepEqual(got, all[later:]) {
		t.Errorf("the log from record 5 is not the whole log's end: %d entries of %d", len(got), len(all))
	}
}

// Every field of the state, and of what it holds, goes into the state
// hash: changing any one changes the hash.
func TestHashCoversTheState(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 4, Dice: []int{1, 1, 3}})
	for m.s.Prompt == nil {
		c, _ := m.Bot(m.Waiting()[0], rng.New(1).Stream("bots"))
		if err := m.Play(m.Waiting()[0], c); err != nil {
			t.Fatal(err)
		}
	}
	s := m.s
	s.Winners, s.Finished, s.EndReason = []int{1}, []int{1, 0}, "reached Finish (11)"
	s.Players[0].Stats = map[string]Stat{"drinks": {Value: 2, Display: 3}}
	s.Players[0].Effects = []ActiveEffect{{Kind: SkipTurns, ID: "nap", Left: 1}}
	if len(s.Players[0].History) == 0 || len(s.Dice) == 0 || len(s.LastRoll) == 0 {
		t.Fatalf("a state without history, dice or roll: %+v", s)
	}
	m.e.Touch()
	changes := map[string]func(s *State){
		"State.Players":          nil, // by their fields
		"State.Current":          func(s *State) { s.Current = 1 - s.Current },
		"State.RemainingMoves":   func(s *State) { s.RemainingMoves++ },
		"State.Phase":            func(s *State) { s.Phase = PhaseEnd },
		"State.Turn":             func(s *State) { s.Turn++ },
		"State.MaxRounds":        func(s *State) { s.MaxRounds++ },
		"State.Over":             func(s *State) { s.Over = !s.Over },
		"State.Winners":          func(s *State) { s.Winners[0] = 0 },
		"State.EndReason":        func(s *State) { s.EndReason = "stopped" },
		"State.Finished":         func(s *State) { s.Finished = s.Finished[:1] },
		"State.LastRoll":         func(s *State) { s.LastRoll[0]++ },
		"State.Dice":             func(s *State) { s.Dice[0]++ },
		"State.Prompt":           func(s *State) { s.Prompt = nil },
		"State.SkipRun":          func(s *State) { s.SkipRun++ },
		"State.LastRound":        func(s *State) { s.LastRound++ },
		"State.skipText":         func(s *State) { s.skipText = !s.skipText },
		"State.autoAck":          func(s *State) { s.autoAck = !s.autoAck },
		"State.ackAll":           func(s *State) { s.ackAll = !s.ackAll },
		"State.quirks":           nil, // by each quirk: TestHashCoversQuirks
		"Player.Name":            func(s *State) { s.Players[1].Name = "Cy" },
		"Player.Seat":            func(s *State) { s.Players[1].Seat = 0 },
		"Player.Space":           func(s *State) { s.Players[1].Space++ },
		"Player.Start":           func(s *State) { s.Players[1].Start++ },
		"Player.State":           func(s *State) { s.Players[1].State = Eliminated },
		"Player.TurnsTaken":      func(s *State) { s.Players[1].TurnsTaken++ },
		"Player.Stats":           func(s *State) { s.Players[0].Stats["tolls"] = Stat{} },
		"Player.Effects":         func(s *State) { s.Players[0].Effects = nil },
		"Player.History":         func(s *State) { s.Players[0].History = s.Players[0].History[1:] },
		"Player.Reversed":        func(s *State) { s.Players[1].Reversed = !s.Players[1].Reversed },
		"Player.Prompts":         func(s *State) { s.Players[1].Prompts++ },
		"Stat.Value":             func(s *State) { s.Players[0].Stats["drinks"] = Stat{Value: 1, Display: 3} },
		"Stat.Display":           func(s *State) { s.Players[0].Stats["drinks"] = Stat{Value: 2, Display: 1} },
		"ActiveEffect.Kind":      func(s *State) { s.Players[0].Effects[0].Kind = RepeatTurns },
		"ActiveEffect.ID":        func(s *State) { s.Players[0].Effects[0].ID = "sleep" },
		"ActiveEffect.Left":      func(s *State) { s.Players[0].Effects[0].Left++ },
		"Move.Space":             func(s *State) { s.Players[0].History[0].Space++ },
		"Move.RemainingMoves":    func(s *State) { s.Players[0].History[0].RemainingMoves++ },
		"Move.Round":             func(s *State) { s.Players[0].History[0].Round++ },
		"Move.Backtracked":       func(s *State) { s.Players[0].History[0].Backtracked = !s.Players[0].History[0].Backtracked },
		"Prompt.Text":            func(s *State) { s.Prompt.Text += "!" },
		"Prompt.To":              func(s *State) { s.Prompt.To = s.Prompt.To[:len(s.Prompt.To)-1] },
		"Stat names (map keys)":  func(s *State) { s.Players[0].Stats = map[string]Stat{"beers": {Value: 2, Display: 3}} },
		"Player order (by seat)": func(s *State) { s.Players[0], s.Players[1] = s.Players[1], s.Players[0] },
	}
	// What the hash leaves out: the board, shared and fixed, and what the
	// engine's hash holds: a prompt's space is the space of the event the
	// match waits in, whether it addresses everybody is that event's
	// action, its segments its text coloured from the placeholder stream;
	// the payloads of stat changes are the log's, which the engine's hash
	// counts; the tally of where things happened, a simulation's figures
	// that the log's records tell too.
	fixed := []string{"State.def", "State.board", "Prompt.Space", "Prompt.Everyone", "Prompt.Segments", "State.statChanges", "State.tally",
		"State.outside", "State.ran"} // the last two only while a step runs outside the engine
	for _, typ := range []reflect.Type{reflect.TypeFor[State](), reflect.TypeFor[Player](), reflect.TypeFor[Stat](),
		reflect.TypeFor[ActiveEffect](), reflect.TypeFor[Move](), reflect.TypeFor[Prompt]()} {
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
	c.Winners, c.Finished, c.LastRoll, c.Dice = slices.Clone(s.Winners), slices.Clone(s.Finished), slices.Clone(s.LastRoll), slices.Clone(s.Dice)
	if s.Prompt != nil {
		pr := *s.Prompt
		pr.To = slices.Clone(pr.To)
		c.Prompt = &pr
	}
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		p := &c.Players[i]
		p.Effects, p.History = slices.Clone(p.Effects), slices.Clone(p.History)
		if p.Stats != nil {
			p.Stats = maps.Clone(p.Stats)
		}
	}
	return &c
}

// The catalog is what the editor's page reads: its JSON is the one the
// server answered before it moved into the pack, and it offers every
// trigger and action the loader knows.
func TestCatalog(t *testing.T) {
	got, err := json.MarshalIndent(testPack.Catalog(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/catalog.golden.json", append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/catalog.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		t.Errorf("the catalog differs from testdata/catalog.golden.json:\n%s", got)
	}
	c := testPack.Catalog().(Catalog)
	var actions, triggers []string
	for _, a := range c.Actions {
		actions = append(actions, a.Name)
	}
	for _, tr := range c.Triggers {
		triggers = append(triggers, tr.Value)
	}
	if !slices.Equal(actions, ActionTypes) || !slices.Equal(triggers, TriggerTypes) {
		t.Errorf("the catalog's actions %v and triggers %v, the loader's %v and %v", actions, triggers, ActionTypes, TriggerTypes)
	}
}

// For every action the catalog offers, an event whose payload the
// editor's form writes loads without a problem.
func TestCatalogMatchesTheLoader(t *testing.T) {
	c := testPack.Catalog().(Catalog)
	var events []string
	for _, a := range c.Actions {
		payload := map[string]any{}
		for _, f := range a.Fields {
			switch f.Type {
			case "text":
				payload[f.Name] = "Drink!"
			case "number", "int":
				payload[f.Name] = 2
			case "choice":
				payload[f.Name] = f.Values[len(f.Values)-1]
			case "space":
				payload[f.Name] = "b"
			case "effect":
				payload[f.Name] = map[string]any{"type": f.Values[0], "args": []any{"nap", 1}}
			case "bool":
				payload[f.Name] = true
			default:
				t.Errorf("%s.%s: a field of type %q that the page does not know", a.Name, f.Name, f.Type)
			}
		}
		ev, _ := json.Marshal(map[string]any{"trigger": map[string]any{"type": "ON_LAND"}, "action": map[string]any{"type": a.Name, "payload": payload}, "priority": c.DefaultPriority})
		events = append(events, string(ev))
	}
	board := `{"metadata": {"name": "Every action"}, "spaces": [
	  {"id": "a", "name": "A", "connections": [{"targetId": "b"}], "events": [` + strings.Join(events, ",") + `]},
	  {"id": "b", "name": "B", "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`
	b, list := Parse("every.json", []byte(board))
	if b == nil || len(list) > 0 {
		t.Errorf("a board made from the catalog: %q", lines(list))
	}
}

// The drawing is the board as the page draws it: the JSON the server
// drew before it moved into the pack, without the lobby's "info".
func TestDrawing(t *testing.T) {
	for _, name := range []string{"default", "everything"} {
		got, err := json.Marshal(compileFile(t, "../../examples/party/"+name+".json").Drawing())
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile("testdata/drawing-" + name + ".golden.json")
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: the drawing differs from its golden file:\n%s", name, got)
		}
	}
}

// The pack claims its boards (files, bundle folders, their manifests,
// zipped bundles) and no other pack's files; a bundle's source keeps every
// file it is made of, and loads again from its archive alone.
func TestSourcesAndArchives(t *testing.T) {
	dir := writeBundle(t, map[string]string{
		"board.json": `{"schema_version": 2, "id": "b", "paths": {"metadata": "meta.json", "rules": "rules.json", "topology": "parts/topology.json"}}`,
		"meta.json":  `{"name": "Bundled"}`,
		"rules.json": `{"minPlayers": 2, "maxPlayers": 3}`,
		"notes.txt":  `not part of the board`,
		"parts/topology.json": `{"spaces": [{"id": "1", "connections": [{"targetId": "2"}]},
 {"id": "2", "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`,
	})
	open := func(path string) *game.Source {
		t.Helper()
		src, err := game.Open(path, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	mem := func(name, data string) *game.Source {
		src, err := game.FromBytes(name, []byte(data), game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	for _, c := range []struct {
		src  *game.Source
		want bool
	}{
		{open(dir), true},
		{open(filepath.Join(dir, "board.json")), true},
		{open("../../examples/party/default.json"), true},
		{open("../../examples/party/everything.json"), true},
		{open(t.TempDir()), false},
		{mem("nim.json", `{"game": "nim", "pile": 21, "take": 3}`), false},
		{mem("lanes.json", `{"game": "lanes", "spaces": []}`), false},
		{mem("broken.json", `{"spaces": [`), true},
		{mem("notes.json", `{"title": "no board"}`), false},
	} {
		if got := testPack.Detect(c.src); got != c.want {
			t.Errorf("Detect(%s) = %v", c.src.Name(), got)
		}
	}

	src := open(dir)
	def, list := testPack.LoadDefinition(src)
	if def == nil || len(list) > 0 {
		t.Fatalf("the bundle: %q", lines(list))
	}
	if files := src.Files(); !slices.Equal(slices.Sorted(slices.Values(files)), []string{"board.json", "meta.json", "parts/topology.json", "rules.json"}) {
		t.Errorf("files read: %v", files)
	}
	again, err := game.FromBytes("bundle.zip", src.Archive(), game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	def2, list := testPack.LoadDefinition(again)
	if def2 == nil || len(list) > 0 {
		t.Fatalf("the bundle from its archive: %q", lines(list))
	}
	if !reflect.DeepEqual(def.Info(), def2.Info()) || def2.Info().Name != "Bundled" || def2.Info().MinPlayers != 2 ||
		!reflect.DeepEqual(def.Drawing(), def2.Drawing()) {
		t.Errorf("from the archive: %+v, want %+v", def2.Info(), def.Info())
	}
	if got := def2.Board.SpacesFile; got != "bundle.zip/parts/topology.json" {
		t.Errorf("the archive's topology is named %q", got)
	}

	// A board file alone is its own archive.
	src = open("../../examples/party/default.json")
	if def, _ := testPack.LoadDefinition(src); def == nil {
		t.Fatal("the default board does not load")
	}
	data, _ := os.ReadFile("../../examples/party/default.json")
	if !bytes.Equal(src.Archive(), data) {
		t.Error("the archive of a board file is not the file")
	}

	// A bundle whose manifest points out of its folder is refused, saying
	// where.
	bad := writeBundle(t, map[string]string{
		"board.json": `{"schema_version": 2, "id": "b", "paths": {"topology": "../../etc/topology.json", "rules": "/rules.json"}}`,
	})
	_, list = testPack.LoadDefinition(open(bad))
	var got []string
	for _, d := range list {
		got = append(got, d.Pointer+": "+d.Message)
	}
	want := []string{
		`/paths/topology: "../../etc/topology.json" must be a path inside the bundle folder`,
		`/paths/rules: "/rules.json" must be a path inside the bundle folder`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzApply: no command, however malformed, makes a match panic, and one
// that is rejected changes nothing.
func FuzzApply(f *testing.F) {
	for _, c := range []string{`{"kind":"roll"}`, `{"player":0,"kind":"choose-path"}`, `{"kind":"choose-path","space":"5"}`,
		`{"kind":"choose-path","value":99}`, `{"kind":"ack","value":-1}`, `{"kind":"roll","value":1e99}`, `{"player":null}`} {
		f.Add(0, []byte(c))
	}
	def := compileFile(f, "../../examples/party/default.json")
	f.Fuzz(func(t *testing.T, seat int, data []byte) {
		m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{4}})
		// Ann rolls 4: she acknowledges the warm-up (a prompt to everybody),
		// and stands at the fork of space 4.
		for _, c := range []played{{0, json.RawMessage(`{"kind":"roll"}`)}, {0, json.RawMessage(`{"kind":"ack"}`)}} {
			if err := m.Apply(c.seat, c.data); err != nil {
				t.Fatal(err)
			}
		}
		if w := m.Waits(); len(w) != 1 || w[0].Kind != KindChoosePath {
			t.Fatalf("waits %+v, want Ann at a fork", w)
		}
		h := m.Hash()
		if err := m.Apply(seat, data); err != nil {
			if !engine.IsRejected(err) {
				t.Fatalf("%s: %v is not a rejection", data, err)
			}
			if m.Hash() != h {
				t.Fatalf("%s was rejected but changed the match", data)
			}
		}
	})
}
