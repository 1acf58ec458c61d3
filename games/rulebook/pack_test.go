package rulebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// TestGameInterface: every shipped game behaves as the game interface
// promises, played by random legal commands (for 25 rounds at most: the
// checks read the whole log after every command) and, to its end, by the
// pack's bot.
func TestGameInterface(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(examples, "*.json"))
	if len(files) < 3 {
		t.Fatalf("examples: %v", files)
	}
	for _, path := range files {
		def := gametest.Load(t, pack, path)
		t.Run(filepath.Base(path), func(t *testing.T) {
			gametest.Check(t, def, gametest.Options{MaxRounds: 25})
			gametest.Check(t, def, gametest.Options{PackBot: true, Players: []int{3}, MaxCommands: 50_000})
		})
	}
}

// TestInfo: what the lobby is told of a game.
func TestInfo(t *testing.T) {
	got := load(t, "monopoly.json").Info()
	want := game.Info{Pack: "rulebook", Name: "Monopoly-like", Description: got.Description, HowToPlay: got.HowToPlay, MinPlayers: 2, MaxPlayers: 6,
		DefaultMaxRounds: DefaultMaxRounds, Size: "40 tiles"}
	if !reflect.DeepEqual(got, want) || got.Description == "" || !strings.HasPrefix(got.HowToPlay, "Roll two dice") {
		t.Errorf("info %+v, want %+v", got, want)
	}
}

// apply plays a command given as JSON, failing the test if it is refused.
func apply(t *testing.T, m *Match, seat int, data string) {
	t.Helper()
	if err := m.Apply(seat, json.RawMessage(data)); err != nil {
		t.Fatalf("seat %d: %s: %v", seat, data, err)
	}
}

// position is a match of the fork board after some commands.
type position struct {
	name string
	cmds []played
}

var forkPositions = []position{
	{"an offer", nil},
	{"an auction", []played{{0, Command{Kind: KindBuy, Value: 1}}}},
	{"an auction with a bid in", []played{{0, Command{Kind: KindBuy, Value: 1}}, {2, Command{Kind: KindBid, Value: 1}}}},
	{"a fork", []played{{0, Command{Kind: KindBuy}}}},
}

func (p position) start(t *testing.T) *Match {
	t.Helper()
	m := start(t, mustParse(t, forkBoard), game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 1})
	for _, c := range p.cmds {
		if err := m.Play(c.seat, c.cmd); err != nil {
			t.Fatalf("%s: %+v: %v", p.name, c, err)
		}
	}
	return m
}

// TestLegal: each seat is offered one command per option of its first
// decision, in the players' words.
func TestLegal(t *testing.T) {
	for _, c := range []struct {
		position
		seat int
		want []string
	}{
		{forkPositions[0], 0, []string{"Buy Park for 40", "Pass on Park"}},
		{forkPositions[0], 1, nil},
		{forkPositions[1], 1, []string{"Pass on Park", "Bid 10", "Bid 20", "Bid 30", "Bid 40", "Bid 50", "Bid 60"}},
		{forkPositions[2], 2, nil},
		{forkPositions[3], 0, []string{"Go to L", "Go to R"}},
	} {
		var got []string
		for _, cmd := range c.start(t).Legal(c.seat) {
			got = append(got, cmd.Text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s, seat %d: %q, want %q", c.name, c.seat, got, c.want)
		}
	}
	m := start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
	if got := m.Legal(0); len(got) != 1 || got[0].Text != "Roll 2 dice" || string(got[0].Data) != `{"kind":"roll"}` {
		t.Errorf("Monopoly begins with %+v, want Ann to roll", got)
	}
}

// TestCommandsRoundTrip: every legal command of several positions is JSON
// that decodes to a Command and encodes back the same, and Apply accepts
// it.
func TestCommandsRoundTrip(t *testing.T) {
	starts := []func() *Match{
		func() *Match {
			return start(t, load(t, "candy-land.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
		},
		func() *Match {
			return start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
		},
	}
	for _, p := range forkPositions {
		starts = append(starts, func() *Match { return p.start(t) })
	}
	for i, fresh := range starts {
		m := fresh()
		n := 0
		for seat := range m.players {
			for _, c := range m.Legal(seat) {
				n++
				var cmd Command
				if err := game.DecodeCommand(c.Data, &cmd); err != nil {
					t.Errorf("position %d: %s: %v", i, c.Data, err)
				}
				if js, _ := json.Marshal(cmd); !bytes.Equal(js, c.Data) {
					t.Errorf("position %d: %s encodes back as %s", i, c.Data, js)
				}
				if err := fresh().Apply(seat, c.Data); err != nil {
					t.Errorf("position %d: seat %d's legal %s (%s): %v", i, seat, c.Data, c.Text, err)
				}
			}
		}
		if n == 0 {
			t.Errorf("position %d: no legal command", i)
		}
	}
}

// TestStoredCommands: matches stored before named the seat in each
// command; they replay, and a command naming another seat is refused.
// Commands never carry dice.
func TestStoredCommands(t *testing.T) {
	def := load(t, "monopoly.json")
	players := []string{"Ann", "Bob", "Cid"}
	g, cmds, _ := botGame(t, def, players, 5)
	again := start(t, def, game.Setup{Players: players, Seed: 5})
	for i, c := range cmds {
		stored, _ := json.Marshal(struct {
			Player int    `json:"player"`
			Kind   string `json:"kind"`
			Value  int    `json:"value,omitempty"`
		}{c.seat, c.cmd.Kind, c.cmd.Value})
		if err := again.Apply(c.seat, stored); err != nil {
			t.Fatalf("stored command %d %s: %v", i, stored, err)
		}
	}
	if again.Hash() != g.Hash() {
		t.Errorf("the stored commands replay to hash %s, want %s", again.Hash(), g.Hash())
	}

	m := start(t, def, game.Setup{Players: players, Seed: 1})
	h := m.Hash()
	for _, bad := range []struct {
		seat int
		data string
	}{
		{1, `{"player": 0, "kind": "roll"}`},
		{0, `{"player": 1, "kind": "roll"}`},
		{0, `{"kind": "roll", "value": 6}`},
		{0, `{"kind": "roll", "dice": [6, 6]}`},
		{0, `{"value": 1}`},
	} {
		if err := m.Apply(bad.seat, json.RawMessage(bad.data)); !engine.IsRejected(err) {
			t.Errorf("seat %d: %s: %v, want a rejection", bad.seat, bad.data, err)
		}
	}
	if m.Hash() != h {
		t.Error("rejected commands changed the match")
	}
	apply(t, m, 0, `{"player": 0, "kind": "roll"}`)
}

// jsonOf encodes v, for comparisons.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// TestSealedBids: while an auction's bids are not all in, no view and no
// log tells a bid given, or that it was given beyond whom the match still
// waits for; once all are in, they show together.
func TestSealedBids(t *testing.T) {
	// Two matches in which Bob bids 10 and 30.
	a, b := forkPositions[1].start(t), forkPositions[1].start(t)
	before := a.LogLen()
	beforeView := a.view(game.Spectator)
	apply(t, a, 1, `{"kind": "bid", "value": 1}`)
	apply(t, b, 1, `{"kind": "bid", "value": 3}`)
	for _, viewer := range []int{0, 2, game.Spectator} {
		if jsonOf(t, a.View(viewer)) != jsonOf(t, b.View(viewer)) {
			t.Errorf("the view of seat %d tells Bob's bid:\n%s\n%s", viewer, jsonOf(t, a.View(viewer)), jsonOf(t, b.View(viewer)))
		}
		if got := a.Log(viewer, before); len(got) != 0 {
			t.Errorf("the log of seat %d tells that Bob bid: %+v", viewer, got)
		}
		if jsonOf(t, a.Log(viewer, 0)) != jsonOf(t, b.Log(viewer, 0)) {
			t.Errorf("the logs of seat %d differ with Bob's bid", viewer)
		}
	}
	// Nor does the state hash every player is sent: it leaves sealed
	// answers out, so trying every bid against it tells nothing (and it
	// covers the match's secret seed besides).
	if a.Hash() != b.Hash() {
		t.Errorf("the state hash tells Bob's bid: %s after a bid of 10, %s after 30", a.Hash(), b.Hash())
	}
	// What changed is whom the match waits for, and what follows from it.
	after := a.view(game.Spectator)
	if got := a.Waiting(); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("waiting for %v, want Ann and Cid", got)
	}
	after.Waits, after.Commands, after.Hash = beforeView.Waits, beforeView.Commands, beforeView.Hash
	if jsonOf(t, after) != jsonOf(t, beforeView) {
		t.Errorf("the view changed beyond whom it waits for:\n%s\n%s", jsonOf(t, beforeView), jsonOf(t, after))
	}
	// Cid bids 20 and Ann passes: every bid shows, in the order asked.
	apply(t, a, 2, `{"kind": "bid", "value": 2}`)
	if got := a.Log(game.Spectator, before); len(got) != 0 {
		t.Errorf("the log tells bids before all are in: %+v", got)
	}
	apply(t, a, 0, `{"kind": "bid", "value": 0}`)
	var lines []string
	for _, e := range a.Log(game.Spectator, before) {
		if e.Text != "" {
			lines = append(lines, e.Text)
		}
	}
	want := []string{"Ann passes on Park", "Bob bids 10", "Cid bids 20", "Cid buys Park for 20"}
	if len(lines) < len(want) || !slices.Equal(lines[:len(want)], want) {
		t.Errorf("the log after the last bid:\n%s\nwant it to begin with:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestLog: the readable log tells the game in the players' words, at the
// tiles where the page animates it; rule firings, questions and the
// engine's bookkeeping have no text, only details.
func TestLog(t *testing.T) {
	m := start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{1, 2, 2, 1}})
	apply(t, m, 0, `{"kind": "roll"}`)
	apply(t, m, 0, `{"kind": "buy", "value": 0}`)
	apply(t, m, 1, `{"kind": "roll"}`)
	var lines []string
	landed, fired := false, false
	for _, e := range m.Log(game.Spectator, 0) {
		switch {
		case e.Kind == "fired":
			fired = true
			if e.Text != "" || e.Subject == "" || !strings.HasPrefix(e.Detail, "rule ") {
				t.Errorf("a firing: %+v", e)
			}
		case e.Kind == "ask" || e.Type == EndTurn || e.Type == CurrentPlayerChanged:
			if e.Text != "" || e.Detail == "" {
				t.Errorf("bookkeeping told to the players: %+v", e)
			}
		case e.Type == TileLanded && e.Seat == 1:
			landed = true
			if e.At != "a2" || e.Subject != "Bob" || e.Text != "Bob lands on Whitechapel Way" {
				t.Errorf("Bob's landing: %+v", e)
			}
		}
		if e.Text != "" {
			lines = append(lines, e.Text)
		}
		if strings.Contains(e.Text, "score") || strings.Contains(e.Text, "answers") {
			t.Errorf("engine words in the players' log: %q", e.Text)
		}
	}
	if !landed || !fired {
		t.Errorf("landed %v, fired %v", landed, fired)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"Ann rolls 1+2 = 3\nAnn passes Old Kent Lane\nAnn passes Chance\nAnn lands on Whitechapel Way\nAnn buys Whitechapel Way for 60\nTurn 2: Bob",
		"Bob pays 20 to Ann\nTurn 3: Ann"} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks\n%s\nin\n%s", want, text)
		}
	}
}

// TestTextAndParse: the terminal shows the question with its options
// numbered, and reads an option's number or its words.
func TestTextAndParse(t *testing.T) {
	auction := forkPositions[1].start(t)
	for _, c := range []struct {
		m    *Match
		seat int
		line string
		want string // the command, or a piece of the error
	}{
		{forkPositions[0].start(t), 0, "2", `{"kind":"buy","value":1}`},
		{forkPositions[0].start(t), 0, "Pass", `{"kind":"buy","value":1}`},
		{forkPositions[0].start(t), 0, " buy ", `{"kind":"buy"}`},
		{forkPositions[0].start(t), 0, "3", "type a number from 1 to 2"},
		{forkPositions[0].start(t), 1, "1", "you are not asked anything; waiting for Ann"},
		{auction, 1, "30", `{"kind":"bid","value":3}`},
		{auction, 1, "bid 20", `{"kind":"bid","value":2}`},
		{auction, 1, "bid", `could be "Bid 10" or "Bid 20"`},
		{auction, 1, "pass on park", `{"kind":"bid"}`},
		{forkPositions[3].start(t), 0, "r", `{"kind":"choose-path","value":1}`},
		{start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1}), 0, "", `{"kind":"roll"}`},
		{start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1}), 0, "roll", `{"kind":"roll"}`},
		{start(t, load(t, "monopoly.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1}), 0, "2", "press Enter"},
	} {
		got, err := c.m.ParseCommand(c.seat, c.line)
		msg := string(got)
		if err != nil {
			msg = err.Error()
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("seat %d typed %q: %s, want %s", c.seat, c.line, msg, c.want)
		}
	}
	text := forkPositions[0].start(t).Text(0)
	for _, want := range []string{"Turn 1, round 1: Ann's turn", "Ann (you): 100 on Park", "Bob: 100 on S", "Buy Park for 40?\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	if text := auction.Text(game.Spectator); !strings.Contains(text, "Waiting for Ann, Bob, Cid.") {
		t.Errorf("a spectator's text:\n%s", text)
	}
}

// TestDrawing: the board as the page draws it, every tile with a name
// players read (made from its id where the file gives none).
func TestDrawing(t *testing.T) {
	got := jsonOf(t, mustParse(t, forkBoard).Drawing())
	want := `{"tiles":[{"id":"s","name":"S","x":0,"y":0,"next":["p"]},{"id":"p","name":"Park","x":0,"y":0,"next":["f"],"price":40},` +
		`{"id":"f","name":"F","x":0,"y":0,"next":["l","r"]},{"id":"l","name":"L","x":0,"y":0,"next":["e"]},{"id":"r","name":"R","x":0,"y":0,"next":["e"]},` +
		`{"id":"e","name":"E","x":0,"y":0,"next":[]}]}`
	if got != want {
		t.Errorf("drawing\n%s\nwant\n%s", got, want)
	}
}

// TestEditor: the catalog with the predicates of each event, the outline
// of a file being edited (valid or not), and predicates rendered as CEL.
func TestEditor(t *testing.T) {
	var cat map[string]json.RawMessage
	if err := json.Unmarshal([]byte(jsonOf(t, pack.Catalog())), &cat); err != nil {
		t.Fatal(err)
	}
	var members []string
	for k := range cat {
		members = append(members, k)
	}
	slices.Sort(members)
	if want := []string{"actions", "defaultPriority", "events", "predicates", "predicatesFor", "presets", "priorityDoc", "priorityOrder", "selectors", "variables"}; !slices.Equal(members, want) {
		t.Errorf("catalog members %v, want %v", members, want)
	}
	var predicatesFor map[string][]string
	json.Unmarshal(cat["predicatesFor"], &predicatesFor)
	if p := predicatesFor[CardDrawn]; !slices.Contains(p, "CardIs") || slices.Contains(p, "TileKind") || len(predicatesFor) != len(builtinEvents) {
		t.Errorf("predicates for %s: %v (%d events)", CardDrawn, p, len(predicatesFor))
	}

	// An invalid file (an unknown action) still has its events outlined.
	src, _ := game.FromBytes("g.json", []byte(`{"game": "rulebook", "events": [{"name": "BONUS"}],
 "rules": [{"when": {"event": "BONUS"}, "then": [{"action": "NOPE"}]}]}`), game.Limits{})
	var outline struct {
		Events []struct {
			Name       string   `json:"name"`
			Custom     bool     `json:"custom"`
			Predicates []string `json:"predicates"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(jsonOf(t, pack.Outline(src))), &outline); err != nil {
		t.Fatal(err)
	}
	if n := len(outline.Events); n != len(builtinEvents)+1 || outline.Events[n-1].Name != "BONUS" || !outline.Events[n-1].Custom ||
		!slices.Contains(outline.Events[n-1].Predicates, "AmountIs") {
		t.Errorf("outline %+v", outline)
	}
	broken, _ := game.FromBytes("g.json", []byte(`{"game": "rulebook", `), game.Limits{})
	if o := pack.Outline(broken); o != nil {
		t.Errorf("the outline of a file that is not JSON: %v", o)
	}

	if cel, err := pack.Render("TileKind", map[string]string{"kind": "chute"}); err != nil || cel != "tile.kind == 'chute'" {
		t.Errorf("TileKind: %q, %v", cel, err)
	}
	_, err := pack.Render("TileKnd", nil)
	var np *NoPredicateError
	if !errors.As(err, &np) || err.Error() != `no predicate "TileKnd" (did you mean TileKind?)` {
		t.Errorf("an unknown predicate: %v", err)
	}
	for _, args := range []map[string]string{nil, {"amount": "x"}} {
		if _, err := pack.Render("ScoreBelow", args); err == nil || errors.As(err, &np) {
			t.Errorf("ScoreBelow %v: %v, want an error about its argument", args, err)
		}
	}
}

// TestStateHash: a change to any field of the state changes the hash.
func TestStateHash(t *testing.T) {
	def := load(t, "candy-land.json")
	fresh := func() *Match {
		return start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{3}})
	}
	base := fresh().Hash()
	changes := stateChanges("State", reflect.TypeFor[State]())
	if len(changes) < 20 {
		t.Fatalf("only %d fields found", len(changes))
	}
	for _, c := range changes {
		m := fresh()
		c.change(reflect.ValueOf(m.state).Elem())
		m.eng.Touch()
		if m.Hash() == base {
			t.Errorf("changing %s leaves the hash as it was", c.name)
		}
	}
}

// stateChange changes one field of a state.
type stateChange struct {
	name   string
	change func(v reflect.Value)
}

// stateChanges lists a change of every exported field of a struct type,
// and of the fields of the structs in it (the first of a list of them).
func stateChanges(name string, typ reflect.Type) []stateChange {
	var out []stateChange
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		path := name + "." + f.Name
		field := func(v reflect.Value) reflect.Value { return v.Field(i) }
		switch {
		case f.Type.Kind() == reflect.Struct:
			for _, c := range stateChanges(path, f.Type) {
				out = append(out, stateChange{c.name, func(v reflect.Value) { c.change(field(v)) }})
			}
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			for _, c := range stateChanges(path+"[0]", f.Type.Elem()) {
				out = append(out, stateChange{c.name, func(v reflect.Value) { c.change(field(v).Index(0)) }})
			}
		default:
			out = append(out, stateChange{path, func(v reflect.Value) { changeValue(field(v)) }})
		}
	}
	return out
}

func changeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Int:
		v.SetInt(v.Int() + 1)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
	default:
		panic(fmt.Sprintf("no change for a %s", v.Type()))
	}
}
