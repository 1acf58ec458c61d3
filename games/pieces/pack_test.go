package pieces_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/pieces"
)

// shared returns the folder of the original game's fixtures, or skips the
// test (fails it under CI) when they are missing.
func shared(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TABULA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "fixtures", "customjack")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the fixtures are missing (%v): set TABULA_SHARED", err)
		}
		t.Skipf("skipping: the original game's fixtures are not at %s (set TABULA_SHARED)", dir)
	}
	return filepath.Join(dir, "fixtures", "customjack")
}

// The games every test plays: the original's Trouble as a v3 file and as
// a bundle folder, and the bundled games.
func games(t *testing.T) map[string]string {
	fx := shared(t)
	return map[string]string{
		"v3 trouble-classic":      filepath.Join(fx, "v3", "trouble-classic.json"),
		"bundle-trouble (folder)": filepath.Join(fx, "bundle-trouble"),
		"examples trouble":        "../../examples/pieces/trouble.json",
		"examples crossroads":     "../../examples/pieces/crossroads.json",
	}
}

func load(t testing.TB, path string) *pieces.Definition {
	t.Helper()
	def, list := pieces.NewPack().LoadFile(path)
	if def == nil {
		t.Fatalf("%s does not load:\n%s", path, list)
	}
	return def
}

func TestEveryGamePassesTheChecks(t *testing.T) {
	for name, path := range games(t) {
		t.Run(name, func(t *testing.T) {
			def := gametest.Load(t, pieces.NewPack(), path)
			gametest.Check(t, def, gametest.Options{Players: []int{2, 3, 4}})
			gametest.Check(t, def, gametest.Options{Players: []int{2, 3, 4}, PackBot: true, Games: 1})
		})
	}
}

// Trouble plays to a winner with 2, 3 and 4 players, from the v3 file and
// from the bundle folder alike: the original never declares one.
func TestTroublePlaysToAWinner(t *testing.T) {
	fx := shared(t)
	for _, path := range []string{filepath.Join(fx, "v3", "trouble-classic.json"), filepath.Join(fx, "bundle-trouble")} {
		def := load(t, path)
		for _, n := range []int{2, 3, 4} {
			for seed := range uint64(20) {
				m := playOut(t, def, n, seed)
				o := m.Outcome()
				if !o.Over || len(o.Winners) != 1 {
					t.Fatalf("%s, %d players, seed %d: %+v, want one winner", path, n, seed, o)
				}
				w := o.Winners[0]
				v := m.View(w).(pieces.View)
				if v.Players[w].Home != def.Pieces || !strings.Contains(o.Reason, "got every piece home") {
					t.Fatalf("%s, %d players, seed %d: the winner has %d pieces home (%s)", path, n, seed, v.Players[w].Home, o.Reason)
				}
			}
		}
	}
}

var names = []string{"Ann", "Bob", "Cy", "Di"}

// playOut plays a match to its end with the pack's bot.
func playOut(t testing.TB, def *pieces.Definition, n int, seed uint64) *pieces.Match {
	t.Helper()
	m, err := def.NewMatch(game.Setup{Players: names[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	r := rng.New(seed).Stream("bots")
	for i := 0; len(m.Waiting()) > 0; i++ {
		if i > 5000 {
			t.Fatalf("seed %d: no end after %d commands", seed, i)
		}
		seat := m.Waiting()[0]
		cmd, _ := m.BotCommand(seat, r)
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// The bundle folder, its zip (stored or deflated entries) and the v3 file
// are the same game: the same match, hash for hash.
func TestBundleFolderZipAndFileAgree(t *testing.T) {
	fx := shared(t)
	folder := filepath.Join(fx, "bundle-trouble")
	defs := map[string]*pieces.Definition{"v3": load(t, filepath.Join(fx, "v3", "trouble-classic.json")), "folder": load(t, folder)}
	for _, method := range []uint16{zip.Store, zip.Deflate} {
		data := zipFolder(t, folder, method)
		src, err := game.FromBytes("trouble.zip", data, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		p := pieces.NewPack()
		if !p.Detect(src) {
			t.Fatal("the zip is not detected")
		}
		def, list := p.LoadDefinition(src)
		if def == nil {
			t.Fatal(list)
		}
		defs["zip"+string(rune('0'+method))] = def
	}
	want := ""
	for name, def := range defs {
		m := playOut(t, def, 4, 3)
		if want == "" {
			want = m.Hash()
		}
		if m.Hash() != want {
			t.Errorf("%s ends on %s, another on %s", name, m.Hash(), want)
		}
	}
}

func zipFolder(t *testing.T, dir string, method uint16) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: e.Name(), Method: method})
		w.Write(data)
	}
	zw.Close()
	return buf.Bytes()
}

// A game loaded again from its source's archive (as a server stores it)
// is the same game.
func TestArchiveLoadsAgain(t *testing.T) {
	for name, path := range games(t) {
		src, err := game.Open(path, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		p := pieces.NewPack()
		def, _ := p.LoadDefinition(src)
		again, err := game.FromBytes("stored", src.Archive(), game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Detect(again) {
			t.Fatalf("%s: its archive is not detected", name)
		}
		def2, list := p.LoadDefinition(again)
		if def2 == nil {
			t.Fatalf("%s: its archive does not load: %s", name, list)
		}
		if a, b := playOut(t, def, 3, 9).Hash(), playOut(t, def2, 3, 9).Hash(); a != b {
			t.Fatalf("%s: %s from the file, %s from the archive", name, a, b)
		}
	}
}

// The pack claims Trouble and multi-piece games, whatever their form, and
// leaves the party pack its boards.
func TestDetect(t *testing.T) {
	fx := shared(t)
	cases := []struct {
		path        string
		pieces, any bool
	}{
		{filepath.Join(fx, "v3", "trouble-classic.json"), true, true},
		// The original played it turn by turn, its zones inert: so does the
		// party pack.
		{filepath.Join(fx, "v3", "example-multi-piece-game.json"), false, true},
		{filepath.Join(fx, "bundle-trouble"), true, true},
		{filepath.Join(fx, "bundle-trouble", "board.json"), true, true},
		{filepath.Join(fx, "bundle-default"), false, true},
		{filepath.Join(fx, "v2", "defaultBoard.json"), false, true},
		{"../../examples/party/default.json", false, true},
		{"../../examples/lanes/drone-lanes.json", false, false},
	}
	packs := game.Packs{pieces.NewPack(), party.NewPack()}
	for _, c := range cases {
		src, err := game.Open(c.path, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := pieces.NewPack().Detect(src); got != c.pieces {
			t.Errorf("%s: detected %t, want %t", c.path, got, c.pieces)
		}
		p, _ := packs.Detect(src)
		if c.pieces && p.Name() != "pieces" {
			t.Errorf("%s: the packs give it to %v", c.path, p)
		}
	}
}

// The same setup and commands give the same hashes, and a clone plays on
// to the hashes the original reaches; a determinization rolls other dice.
func TestCloneAndDeterminize(t *testing.T) {
	for name, path := range games(t) {
		def := load(t, path)
		m := playHalfway(t, def)
		c := m.Clone()
		if c.Hash() != m.Hash() {
			t.Fatalf("%s: the clone's hash %s, the match's %s", name, c.Hash(), m.Hash())
		}
		if c.LogLen() != m.LogLen() {
			t.Fatalf("%s: the clone's log has %d records, the match's %d", name, c.LogLen(), m.LogLen())
		}
		r1, r2 := rng.New(1).Stream("a"), rng.New(1).Stream("a")
		for i := 0; len(m.Waiting()) > 0; i++ {
			seat := m.Waiting()[0]
			cmd, _ := game.BotCommand(m, seat, r1)
			cmd2, _ := game.BotCommand(c, seat, r2)
			if string(cmd) != string(cmd2) {
				t.Fatalf("%s: command %d: the match's bot plays %s, the clone's %s", name, i, cmd, cmd2)
			}
			if err := m.Apply(seat, cmd); err != nil {
				t.Fatal(err)
			}
			if err := c.Apply(seat, cmd); err != nil {
				t.Fatal(err)
			}
			if c.Hash() != m.Hash() {
				t.Fatalf("%s: command %d: the clone's hash %s, the match's %s", name, i, c.Hash(), m.Hash())
			}
		}
		a, _ := json.Marshal(m.Log(game.Spectator, 0))
		b, _ := json.Marshal(c.Log(game.Spectator, 0))
		if string(a) != string(b) {
			t.Fatalf("%s: the clone tells another log", name)
		}

		// Determinizations draw other dice: their games differ.
		m = playHalfway(t, def)
		r := rng.New(2).Stream("det")
		seen := map[string]bool{}
		for range 8 {
			d := m.Determinize(m.Waiting()[0], r)
			for k := 0; k < 30 && len(d.Waiting()) > 0; k++ {
				seat := d.Waiting()[0]
				cmd, _ := game.BotCommand(d, seat, r)
				if err := d.Apply(seat, cmd); err != nil {
					t.Fatal(err)
				}
			}
			seen[d.Hash()] = true
		}
		if len(seen) < 4 {
			t.Fatalf("%s: 8 determinizations played on to %d positions: their dice are alike", name, len(seen))
		}
	}
}

func playHalfway(t *testing.T, def *pieces.Definition) *pieces.Match {
	t.Helper()
	m, err := def.NewMatch(game.Setup{Players: names, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	r := rng.New(3).Stream("bots")
	for range 120 {
		seat := m.Waiting()[0]
		cmd, _ := m.BotCommand(seat, r)
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// Evaluate stays within [-1, 1], rises as a seat's pieces go on, and says
// who won at the end.
func TestEvaluate(t *testing.T) {
	def := load(t, "../../examples/pieces/trouble.json")
	m, _ := def.NewMatch(game.Setup{Players: names[:2], Seed: 4})
	if e := m.Evaluate(0); e != 0 {
		t.Fatalf("at the start: %g, want 0", e)
	}
	r := rng.New(1).Stream("bots")
	for len(m.Waiting()) > 0 {
		for seat := range 2 {
			if e := m.Evaluate(seat); e < -1 || e > 1 {
				t.Fatalf("seat %d: %g", seat, e)
			}
		}
		seat := m.Waiting()[0]
		cmd, _ := m.BotCommand(seat, r)
		m.Apply(seat, cmd)
	}
	w := m.Outcome().Winners[0]
	if m.Evaluate(w) != 1 || m.Evaluate(1-w) != -1 {
		t.Fatalf("at the end: winner %g, loser %g", m.Evaluate(w), m.Evaluate(1-w))
	}
}

// Every legal command of many positions is accepted through Apply as
// JSON, and the JSON of the view and the log encodes.
func TestCommandsRoundTrip(t *testing.T) {
	for name, path := range games(t) {
		def := load(t, path)
		m, _ := def.NewMatch(game.Setup{Players: names[:3], Seed: 21})
		r := rng.New(5).Stream("pick")
		for step := 0; len(m.Waiting()) > 0 && step < 400; step++ {
			seat := m.Waiting()[0]
			legal := m.Legal(seat)
			for _, c := range legal {
				cp := m.Clone()
				if err := cp.Apply(seat, c.Data); err != nil {
					t.Fatalf("%s: %s (%s): %v", name, c.Data, c.Text, err)
				}
				var cmd pieces.Command
				if err := game.DecodeCommand(c.Data, &cmd); err != nil {
					t.Fatalf("%s: %s does not decode: %v", name, c.Data, err)
				}
				again, _ := json.Marshal(cmd)
				cp2 := m.Clone()
				if err := cp2.Apply(seat, again); err != nil || cp2.Hash() != cp.Hash() {
					t.Fatalf("%s: %s, written again as %s, plays otherwise (%v)", name, c.Data, again, err)
				}
			}
			if err := m.Apply(seat, legal[r.IntN(len(legal))].Data); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestRejections(t *testing.T) {
	def := load(t, "../../examples/pieces/trouble.json")
	m, _ := def.NewMatch(game.Setup{Players: names[:2], Seed: 1, Dice: []int{6, 6}})
	cases := []struct {
		seat int
		cmd  string
		want string
	}{
		{1, `{"roll":true}`, "it is Ann's turn"},
		{0, `{"piece":1,"to":"t0"}`, "roll first"},
		{0, `{"roll":true,"piece":1}`, "not both"},
		{0, `{}`, "say what to do"},
		{0, `{"roll":true,"extra":1}`, "unknown field"},
		{0, `{"piece":1,"to":"nowhere"}`, `no space "nowhere"`},
		{7, `{"roll":true}`, "no seat 7"},
	}
	h := m.Hash()
	for _, c := range cases {
		err := m.Apply(c.seat, json.RawMessage(c.cmd))
		if err == nil || !engine.IsRejected(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("seat %d plays %s: %v, want a rejection saying %q", c.seat, c.cmd, err, c.want)
		}
	}
	if m.Hash() != h {
		t.Fatal("rejected commands changed the state")
	}
}

// A game set to play for placings goes on after the first player is
// home, until every place is decided; the first home is the winner.
func TestPlacings(t *testing.T) {
	data, err := os.ReadFile("../../examples/pieces/trouble.json")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"piecesPerPlayer": 4,`), []byte(`"piecesPerPlayer": 4, "placings": true,`), 1)
	src, _ := game.FromBytes("placings.json", data, game.Limits{})
	def, list := pieces.NewPack().LoadDefinition(src)
	if def == nil || !def.Placings {
		t.Fatalf("the game does not load for placings: %v", list)
	}
	for _, n := range []int{2, 3, 4} {
		m := playOut(t, def, n, 8)
		s := m.State()
		if len(s.Placings) != n {
			t.Fatalf("%d players: placings %v", n, s.Placings)
		}
		if o := m.Outcome(); !slices.Equal(o.Winners, s.Placings[:1]) {
			t.Fatalf("%d players: winners %v, placings %v", n, o.Winners, s.Placings)
		}
		sorted := slices.Sorted(slices.Values(s.Placings))
		if !slices.Equal(sorted, []int{0, 1, 2, 3}[:n]) {
			t.Fatalf("%d players: placings %v are not every seat once", n, s.Placings)
		}
	}
}

// The tallies count moves and captures by seat, and trigger firings on
// the spaces.
func TestTally(t *testing.T) {
	def := load(t, "../../examples/pieces/crossroads.json")
	m := playOut(t, def, 3, 2)
	seats, spaces := 0, 0
	for _, tl := range m.Tally() {
		switch tl.Kind {
		case "seat":
			seats++
			if tl.Firings == 0 || tl.Damage < tl.Firings {
				t.Errorf("%+v: every seat moves, each move at least a space", tl)
			}
		case "space":
			spaces++
		}
	}
	if seats != 3 || spaces == 0 {
		t.Fatalf("%d seats and %d spaces tallied", seats, spaces)
	}
}
