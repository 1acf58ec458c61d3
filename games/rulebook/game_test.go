package rulebook

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

var update = flag.Bool("update", false, "rewrite the golden files and the examples in canonical form")

const examples = "../../examples/rulebook"

// presetFiles are the games shipped as data.
var presetFiles = []string{"chutes-and-ladders.json", "candy-land.json", "monopoly.json"}

// pack is the pack the tests load games with.
var pack = NewPack()

func load(t testing.TB, name string) *Definition {
	t.Helper()
	def, list := pack.LoadFile(filepath.Join(examples, name))
	if def == nil || len(list) > 0 {
		t.Fatalf("%s:\n%s", name, list.String())
	}
	return def
}

// start starts a match, failing the test if it cannot.
func start(t testing.TB, def *Definition, s game.Setup) *Match {
	t.Helper()
	m, err := def.NewMatch(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// played is a command played by a seat.
type played struct {
	seat int
	cmd  Command
}

// botGame plays a whole match with bots and returns it with the commands
// played and the hash after every command.
func botGame(t testing.TB, def *Definition, players []string, seed uint64) (*Match, []played, []string) {
	t.Helper()
	g := start(t, def, game.Setup{Players: players, Seed: seed})
	bots := rng.New(seed).Stream("bots")
	hashes := []string{g.Hash()}
	var cmds []played
	for !g.Over() {
		ws := g.Waiting()
		if len(ws) == 0 {
			t.Fatalf("seed %d: the match waits for nothing and is not over (err %v)", seed, g.Err())
		}
		cmd, _ := g.Bot(ws[0], bots)
		if err := g.Play(ws[0], cmd); err != nil {
			t.Fatalf("seed %d: %+v: %v", seed, cmd, err)
		}
		cmds = append(cmds, played{ws[0], cmd})
		hashes = append(hashes, g.Hash())
		if len(hashes) > 200_000 {
			t.Fatalf("seed %d: the match does not end", seed)
		}
	}
	return g, cmds, hashes
}

func jsonLog(t testing.TB, g *Match) string {
	var b bytes.Buffer
	if err := g.WriteLog(&b, 0); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPresetsPlayToTheEnd: every preset game, with two to four bots and
// several seeds, ends with a winner; the same seed gives the same log and
// the same hash after every command, and replaying the commands rebuilds
// the same match.
func TestPresetsPlayToTheEnd(t *testing.T) {
	for _, name := range presetFiles {
		def := load(t, name)
		t.Run(name, func(t *testing.T) {
			lastStanding := 0
			for seed := uint64(1); seed <= 12; seed++ {
				players := []string{"Ann", "Bob", "Cid", "Dee"}[:2+seed%3]
				g, cmds, hashes := botGame(t, def, players, seed)
				if len(g.state.Winners) == 0 {
					t.Errorf("seed %d: no winner (%s)", seed, g.state.EndReason)
				}
				if strings.HasSuffix(g.state.EndReason, " won") {
					lastStanding++
				}
				again, _, hashes2 := botGame(t, def, players, seed)
				if jsonLog(t, g) != jsonLog(t, again) || !slices.Equal(hashes, hashes2) {
					t.Errorf("seed %d: two plays of the same match differ", seed)
				}
				replayed := start(t, def, game.Setup{Players: players, Seed: seed})
				for i, c := range cmds {
					if err := replayed.Play(c.seat, c.cmd); err != nil {
						t.Fatalf("seed %d: replaying command %d: %v", seed, i, err)
					}
				}
				if replayed.Hash() != g.Hash() {
					t.Errorf("seed %d: the replay gives hash %s, want %s", seed, replayed.Hash(), g.Hash())
				}
			}
			// The Monopoly-like game has a round limit, but bots should
			// mostly go bankrupt before it.
			if lastStanding < 9 {
				t.Errorf("only %d of 12 games ended by a win rather than a limit", lastStanding)
			}
		})
	}
}

// TestSeedsDiffer: the seed matters (a test of determinism that cannot
// fail would prove nothing).
func TestSeedsDiffer(t *testing.T) {
	def := load(t, "chutes-and-ladders.json")
	a, _, _ := botGame(t, def, []string{"Ann", "Bob"}, 1)
	b, _, _ := botGame(t, def, []string{"Ann", "Bob"}, 2)
	if a.Hash() == b.Hash() || jsonLog(t, a) == jsonLog(t, b) {
		t.Error("seeds 1 and 2 play the same game")
	}
}

// TestGoldenGames compares one whole game of each preset with its golden
// readable log (testdata/*.golden; go test -update rewrites them).
func TestGoldenGames(t *testing.T) {
	for _, name := range presetFiles {
		g, _, _ := botGame(t, load(t, name), []string{"Ann", "Bob", "Cid"}, 7)
		var b strings.Builder
		for _, e := range g.Log(game.Spectator, 0) {
			switch {
			case e.Kind == "fired":
				fmt.Fprintf(&b, "  [%s]\n", e.Subject)
			case e.Text != "":
				fmt.Fprintln(&b, e.Text)
			}
		}
		fmt.Fprintf(&b, "hash %s\n", g.Hash())
		golden := filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".golden")
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("%s differs from %s (go test -update rewrites it after a deliberate change)", name, golden)
		}
	}
}

// TestExamplesAreCanonical: the shipped games are written as Format writes
// them, so that loading and saving one in an editor changes nothing.
func TestExamplesAreCanonical(t *testing.T) {
	for _, name := range presetFiles {
		path := filepath.Join(examples, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Format(f)
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			os.WriteFile(path, out, 0o644)
			continue
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s is not in canonical form (go test -update rewrites it)", name)
		}
	}
}

// TestRoundTrip: load → edit → save → load keeps everything: a file with
// every kind of member, saved and read again, saves the same and plays the
// same.
func TestRoundTrip(t *testing.T) {
	src := `{"game": "rulebook", "name": "All", "description": "d",
 "players": {"min": 2, "max": 3, "start": {"tile": "b", "score": 7, "props": {"stuck": 1}}},
 "board": {"tiles": [
  {"id": "a", "name": "A", "kind": "k", "x": 1.5, "y": -2, "next": ["b", "c"], "price": 5, "rent": 2, "colour": "red", "props": {"tax": 3}},
  {"id": "b", "next": ["a"], "jump": "c"}, {"id": "c", "colour": "blue", "next": ["a"]}]},
 "decks": [{"name": "d", "cards": [{"name": "x", "colour": "red", "tile": "a", "move": 2, "count": 3, "props": {"money": 1}}]}],
 "events": [{"name": "BONUS", "description": "a bonus"}],
 "rules": [
  {"preset": "Turn", "name": "Turns", "description": "turns"},
  {"preset": "DieMove", "sides": 4, "numberOfDice": 2},
  {"name": "r", "description": "rd", "when": {"event": "TILE_LANDED", "kind": "k", "colour": "red"}, "if": "tile.price > 0 && player.score < 100",
   "then": [{"action": "PAY", "amount": "tile.rent", "to": "bank", "player": "each", "where": "player.score > 0", "priority": 3},
            {"action": "EMIT", "event": "BONUS", "amount": 2}]},
  {"when": {"event": "BONUS"}, "then": [{"action": "CHANGE_PROP", "prop": "stuck", "priority": -1}]},
  {"preset": "FiniteBoardWin", "tile": "c"}]}`
	f, err := Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	once, err := Format(f)
	if err != nil {
		t.Fatal(err)
	}
	def1, list := pack.Parse("once.json", once)
	if def1 == nil {
		t.Fatalf("the saved file is invalid:\n%s", list.String())
	}
	f2, _ := Decode(once)
	twice, _ := Format(f2)
	if !bytes.Equal(once, twice) {
		t.Errorf("saving twice differs:\n%s\n%s", once, twice)
	}
	for _, want := range []string{`"x": 1.5`, `"priority": 5`, `"where": "player.score > 0"`, `"description": "a bonus"`,
		`"preset": "DieMove",
      "numberOfDice": 2,
      "sides": 4`, `"tile.price > 0 && player.score < 100"`} {
		if !strings.Contains(string(once), want) {
			t.Errorf("the saved file lacks %s:\n%s", want, once)
		}
	}
	def0, list := pack.Parse("src.json", []byte(src))
	if def0 == nil {
		t.Fatalf("%s", list.String())
	}
	a, _, _ := botGame(t, def0, []string{"Ann", "Bob"}, 3)
	b, _, _ := botGame(t, def1, []string{"Ann", "Bob"}, 3)
	if a.Hash() != b.Hash() || jsonLog(t, a) != jsonLog(t, b) {
		t.Error("the saved file plays differently")
	}
}

// match builds a small game from rules (JSON) on a line of tiles 0…n-1.
func match(t *testing.T, tiles int, extra, rules string, players ...string) *Match {
	t.Helper()
	def := mustParse(t, gameJSON(tiles, extra, rules))
	if players == nil {
		players = []string{"Ann", "Bob"}
	}
	return start(t, def, game.Setup{Players: players, Seed: 1})
}

func gameJSON(tiles int, extra, rules string) string {
	var ts []string
	for i := range tiles {
		next := ""
		if i+1 < tiles {
			next = fmt.Sprintf(`, "next": ["%d"]`, i+1)
		}
		ts = append(ts, fmt.Sprintf(`{"id": "%d"%s}`, i, next))
	}
	return fmt.Sprintf(`{"game": "rulebook", %s "board": {"tiles": [%s]}, "rules": [%s]}`, extra, strings.Join(ts, ", "), rules)
}

func mustParse(t *testing.T, src string) *Definition {
	t.Helper()
	def, list := pack.Parse("game.json", []byte(src))
	if def == nil {
		t.Fatalf("%s\n%s", src, list.String())
	}
	return def
}

// TestTurnRulesAsWritten runs the original design's example as data:
// StartTurnRule queues END_TURN at priority 10, EndTurnRule queues "next
// player" and START_TURN at priority 1, and a move at priority 5 comes
// between.
func TestTurnRulesAsWritten(t *testing.T) {
	g := match(t, 20, "", `
 {"name": "Start", "when": {"event": "START_GAME"}, "then": [{"action": "EMIT", "event": "START_TURN"}]},
 {"name": "StartTurnRule", "when": {"event": "START_TURN"}, "then": [{"action": "EMIT", "event": "END_TURN", "priority": 10}]},
 {"name": "EndTurnRule", "when": {"event": "END_TURN"}, "then": [
   {"action": "SET_CURRENT_PLAYER", "to": "next", "priority": 1}, {"action": "EMIT", "event": "START_TURN", "priority": 1}]},
 {"name": "Play", "when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE", "priority": 5}, {"action": "MOVE", "priority": 5}]},
 {"name": "Win", "when": {"event": "TILE_LANDED"}, "if": "game.turn >= 3", "then": [{"action": "WIN", "priority": 0}]}`)
	if err := g.PlayBots(rng.New(1).Stream("bots"), 10); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Start on START_GAME",
		"Play on START_TURN (Ann)", "StartTurnRule on START_TURN (Ann)", "EndTurnRule on END_TURN (Ann)",
		"Play on START_TURN (Bob)", "StartTurnRule on START_TURN (Bob)", "EndTurnRule on END_TURN (Bob)",
		"Play on START_TURN (Ann)",
	}
	got := g.Trace()
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("trace:\n%s\nwant it to begin with:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !g.Over() || g.state.Turn != 3 || g.state.Winners[0] != 0 {
		t.Errorf("over %v after %d turns, winners %v; want Ann to win in turn 3", g.Over(), g.state.Turn, g.state.Winners)
	}
}

// TestPriorities: lower numbers first; equal priorities in the order they
// were queued, whichever rule queued them; a rule's condition is checked
// when its event happens, an action's "where" when it runs.
func TestPriorities(t *testing.T) {
	g := match(t, 3, "", `
 {"when": {"event": "START_GAME"}, "then": [{"action": "SAY", "text": "b5", "priority": 5}, {"action": "SAY", "text": "a1", "priority": 1}]},
 {"when": {"event": "START_GAME"}, "then": [{"action": "SAY", "text": "c5", "priority": 5}, {"action": "SAY", "text": "d0", "priority": 0},
   {"action": "EMIT", "event": "START_TURN", "priority": 2}]},
 {"when": {"event": "START_TURN"}, "then": [{"action": "SAY", "text": "e3", "priority": 3}, {"action": "SAY", "text": "f5", "priority": 5},
   {"action": "WIN", "priority": 6}]}`)
	var got []string
	for _, e := range g.Log(game.Spectator, 0) {
		if e.Kind == "note" {
			got = append(got, e.Text)
		}
	}
	if want := "d0 a1 e3 b5 c5 f5"; strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", strings.Join(got, " "), want)
	}
}

// forkBoard offers Park to the first player, auctions it among everyone
// if they pass, and then walks them on to a fork: every kind of decision
// but a draw.
const forkBoard = `{"game": "rulebook", "players": {"start": {"score": 100}},
 "board": {"tiles": [{"id": "s", "next": ["p"]}, {"id": "p", "name": "Park", "price": 40, "next": ["f"]},
  {"id": "f", "next": ["l", "r"]}, {"id": "l", "next": ["e"]}, {"id": "r", "next": ["e"]}, {"id": "e"}]},
 "rules": [{"preset": "Turn"},
  {"when": {"event": "START_TURN"}, "then": [{"action": "MOVE", "steps": 1, "priority": 1}]},
  {"preset": "BuyTile", "tileType": ""},
  {"when": {"event": "BUY_DECLINED"}, "then": [{"action": "AUCTION", "priority": 3}]},
  {"when": {"event": "TILE_LANDED", "tile": "p"}, "then": [{"action": "MOVE", "steps": 3, "priority": 4}]},
  {"preset": "FiniteBoardWin"}]}`

// TestDecisions: buying, declining, an auction where every player bids at
// once and may answer in any order, a fork; rejected answers leave no
// trace.
func TestDecisions(t *testing.T) {
	g := start(t, mustParse(t, forkBoard), game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 1})
	ws := g.Waits()
	if len(ws) != 1 || ws[0].Kind != KindBuy || ws[0].Player != 0 || !slices.Equal(ws[0].Options, []string{"Buy Park for 40", "Pass on Park"}) {
		t.Fatalf("waits %+v, want Ann offered Park", ws)
	}
	before := g.Hash()
	for _, bad := range []played{{1, Command{Kind: KindBuy}}, {0, Command{Kind: KindBid}}, {0, Command{Kind: KindBuy, Value: 2}}, {7, Command{Kind: KindBuy}}} {
		if err := g.Play(bad.seat, bad.cmd); !engine.IsRejected(err) {
			t.Errorf("%+v: %v, want a rejection", bad, err)
		}
	}
	if g.Hash() != before || g.commands != 0 {
		t.Fatal("a rejected answer changed the match")
	}
	// Ann passes: everyone bids at once.
	if err := g.Play(0, Command{Kind: KindBuy, Value: 1}); err != nil {
		t.Fatal(err)
	}
	ws = g.Waits()
	if len(ws) != 3 || ws[0].Player != 0 || ws[1].Player != 1 || ws[2].Player != 2 || ws[0].Kind != KindBid {
		t.Fatalf("waits %+v, want Ann, Bob and Cid bidding", ws)
	}
	if want := []string{"Pass on Park", "Bid 10", "Bid 20", "Bid 30", "Bid 40", "Bid 50", "Bid 60"}; !slices.Equal(ws[1].Options, want) {
		t.Errorf("bids %v, want %v", ws[1].Options, want)
	}
	for _, c := range []played{{2, Command{Kind: KindBid, Value: 3}}, {1, Command{Kind: KindBid, Value: 3}}, {0, Command{Kind: KindBid, Value: 0}}} {
		if err := g.Play(c.seat, c.cmd); err != nil {
			t.Fatal(err)
		}
	}
	// Bob and Cid bid 30; Bob comes first in seat order from Ann.
	if o := g.state.Owners[1]; o != 1 || g.state.Players[1].Score != 70 {
		t.Errorf("owner %d, Bob's score %d; want Bob to buy Park for 30", o, g.state.Players[1].Score)
	}
	// Then the walk from Park reaches the fork and Ann chooses.
	ws = g.Waits()
	if len(ws) != 1 || ws[0].Kind != KindChoosePath || !slices.Equal(ws[0].Options, []string{"Go to L", "Go to R"}) {
		t.Fatalf("waits %+v, want Ann to choose l or r", ws)
	}
	if err := g.Play(0, Command{Kind: KindChoosePath, Value: 1}); err != nil {
		t.Fatal(err)
	}
	if !g.Over() || g.state.Winners[0] != 0 || g.state.tileID(g.state.Players[0].Tile) != "e" {
		t.Errorf("over %v, winners %v; want Ann to walk by r to e and win", g.Over(), g.state.Winners)
	}
	log := strings.Join(g.logLines(), "\n")
	for _, line := range []string{"Ann does not buy Park", "Ann passes on Park\nBob bids 30\nCid bids 30\nBob buys Park for 30",
		"Ann goes to R\nAnn passes R", "Ann lands on E"} {
		if !strings.Contains(log, line) {
			t.Errorf("the log lacks %q:\n%s", line, log)
		}
	}
}

// TestMatchErrors: bad players or setups are refused before the match
// starts.
func TestMatchErrors(t *testing.T) {
	def := load(t, "monopoly.json")
	for _, c := range []struct {
		players []string
		setup   *Opening
		want    string
	}{
		{[]string{"Ann"}, nil, "Monopoly-like is for 2 to 6 players, not 1"},
		{[]string{"Ann", "Ann"}, nil, `two players are called "Ann"`},
		{[]string{"Ann", " "}, nil, "a player needs a name"},
		{[]string{"Ann", "Bob"}, &Opening{Current: "Cid"}, `setup: there is no player "Cid" (the players are Ann, Bob)`},
		{[]string{"Ann", "Bob"}, &Opening{Owners: map[string]string{"zz": "Ann"}}, `setup: owners: there is no tile "zz"`},
		{[]string{"Ann", "Bob"}, &Opening{Players: map[string]PlayerOpening{"Ann": {Props: map[string]int{"x": 1}}}}, `setup: Ann: players have no property "x"`},
	} {
		if _, err := def.NewMatch(game.Setup{Players: c.players}, c.setup); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %+v: %v, want %q", c.players, c.setup, err, c.want)
		}
	}
}

// TestRunaway: a loop that a condition could stop, but does not, is ended
// by the engine's step budget with an error naming the rules going round;
// the turns before it, however long the game, do not count.
func TestRunaway(t *testing.T) {
	g := match(t, 4, "", `{"preset": "Turn"}, {"preset": "DieMove"},
 {"name": "Spin", "when": {"event": "TILE_LANDED"}, "if": "tile.id == '3'", "then": [{"action": "MOVE_TO", "to": "'2'", "priority": 2}]},
 {"name": "Back", "when": {"event": "TILE_LANDED"}, "if": "tile.id == '2'", "then": [{"action": "MOVE_TO", "to": "'3'", "priority": 2}]}`)
	err := g.PlayBots(rng.New(1).Stream("bots"), 1000)
	var re *engine.RunawayError
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want a runaway error", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "Spin") || !strings.Contains(msg, "Back") || strings.Contains(msg, "Turn") {
		t.Errorf("the error should name Spin and Back only: %v", err)
	}
	if g.Err() == nil || g.Waiting() != nil || g.Play(0, Command{Kind: KindRoll}) == nil {
		t.Error("a broken match goes on")
	}
	// A long game of many answers, more steps in all than the budget,
	// is not a runaway.
	long := start(t, mustParse(t, gameJSON(2, "", `{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "TurnLimit", "rounds": 12000}`)),
		game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, MaxRounds: 20_000})
	if err := long.PlayBots(rng.New(1).Stream("bots"), 30_000); err != nil || !long.Over() {
		t.Errorf("a game of 24000 turns: %v (over %v)", err, long.Over())
	}
}

// TestStall: rules that leave nothing to do before anyone wins stop the
// match with an error saying so.
func TestStall(t *testing.T) {
	def := mustParse(t, gameJSON(3, "", `{"when": {"event": "START_GAME"}, "then": [{"action": "SAY", "text": "hello"}]}`))
	_, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}}, nil)
	var se *StallError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "the game stopped after START_GAME") {
		t.Errorf("got %v, want a stall after START_GAME", err)
	}
}

// TestRoundLimit: a match with a round limit ends without a winner when a
// turn of the next round would begin.
func TestRoundLimit(t *testing.T) {
	def := mustParse(t, gameJSON(100, "", `{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}`))
	g := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, MaxRounds: 2})
	if err := g.PlayBots(rng.New(1).Stream("bots"), 100); err != nil {
		t.Fatal(err)
	}
	if !g.Over() || g.state.Turn != 4 || len(g.state.Winners) != 0 || g.state.EndReason != "the round limit (2) was reached" {
		t.Errorf("over %v after %d turns, winners %v, %q", g.Over(), g.state.Turn, g.state.Winners, g.state.EndReason)
	}
	if o := g.Outcome(); !o.Over || o.Rounds != 2 || len(o.Winners) != 0 || o.Reason != "the round limit of 2 was reached" {
		t.Errorf("outcome %+v, want over after 2 rounds without winners", o)
	}
}
