package skirmish

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	bundled "github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// encounters are the bundled encounter files.
func encounters(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(examples, "*.encounter.json"))
	if len(files) < 5 {
		t.Fatalf("only %d encounters", len(files))
	}
	return files
}

// Every bundled encounter behaves as every game must, played with random
// legal commands and with the pack's bot.
func TestGameInterface(t *testing.T) {
	p := NewPack()
	for _, f := range encounters(t) {
		def := gametest.Load(t, p, f)
		t.Run(filepath.Base(f)+"/random", func(t *testing.T) {
			gametest.Check(t, def, gametest.Options{MaxRounds: 8, Games: 2})
		})
		t.Run(filepath.Base(f)+"/bot", func(t *testing.T) {
			gametest.Check(t, def, gametest.Options{PackBot: true, Games: 2})
		})
	}
}

// The game interface's description of an encounter: its sides are its
// seats, all of them played.
func TestInfo(t *testing.T) {
	info := load(t, filepath.Join(examples, "ambush.encounter.json")).Info()
	want := game.Info{Pack: "skirmish", Name: "Goblin ambush at the ruined gate",
		Description: "Three heroes, one of them invisible, walk into three goblins, an ember imp and a skeleton at a ruined gate.",
		MinPlayers:  2, MaxPlayers: 2, Roles: []string{"heroes", "goblins"}, DefaultMaxRounds: 30, Size: "8 combatants on a 14×9 map"}
	if !strings.HasPrefix(info.HowToPlay, "Each side is one player.") || !strings.HasSuffix(info.HowToPlay, "or in a draw after 30 rounds.") {
		t.Errorf("how to play: %q", info.HowToPlay)
	}
	info.HowToPlay = ""
	if got, want := must(json.Marshal(info)), must(json.Marshal(want)); !bytes.Equal(got, want) {
		t.Errorf("info %s\nwant %s", got, want)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A game loaded, archived and loaded again from the archive alone is the
// same game: the archive holds the encounter with its combatant files.
func TestArchiveRoundTrip(t *testing.T) {
	p := NewPack()
	for _, f := range encounters(t) {
		src, err := game.Open(f, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		def, l := p.LoadEncounter(src)
		if def == nil {
			t.Fatal(l)
		}
		archive := src.Archive()
		if !game.IsZip(archive) {
			t.Fatalf("%s: the archive of an encounter and its combatants is not a zip", f)
		}
		back, err := game.FromBytes("stored.zip", archive, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Detect(back) {
			t.Fatalf("%s: the archive is not detected as a skirmish", f)
		}
		again, l := p.Load(back)
		if again == nil {
			t.Fatalf("%s: the archive does not load: %v", f, l)
		}
		if a, b := describe(t, def), describe(t, again.(*Definition)); a != b {
			t.Errorf("%s: the archived game differs:\n%s\nwant\n%s", f, b, a)
		}
		if files := slices.Sorted(slices.Values(back.Files())); !slices.Equal(files, slices.Sorted(slices.Values(src.Files()))) {
			t.Errorf("%s: the archive read %v, the original %v", f, files, src.Files())
		}
	}
}

// describe is what a definition plays like: its info, its map and the
// first fight of a seed, to the byte of the log.
func describe(t *testing.T, def *Definition) string {
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.PlayBots(5000); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(def.Info())
	json.NewEncoder(&b).Encode(def.Drawing())
	m.Engine.WriteJSONL(&b, 0)
	return b.String()
}

// A combatant file is not a game: loading it says so, and where.
func TestCombatantIsNotAGame(t *testing.T) {
	src, err := game.Open(filepath.Join(examples, "goblin.json"), game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPack()
	if !p.Detect(src) {
		t.Fatal("a combatant file is not detected as a skirmish file")
	}
	def, l := p.Load(src)
	if def != nil || !strings.Contains(l.String(), "goblin.json: /kind: this is a combatant file, not a game") {
		t.Errorf("loading a combatant file: %v, %s", def, l.String())
	}
}

// A file from memory that names combatant files it does not hold is told
// which are missing; nothing is read from the disk beside it.
func TestLoadReadsOnlyTheSource(t *testing.T) {
	data := must(game.Open(filepath.Join(examples, "duel.encounter.json"), game.Limits{}))
	main := must(data.Data())
	src := must(game.FromBytes("duel.encounter.json", main, game.Limits{}))
	def, l := NewPack().Load(src)
	if def != nil || !strings.Contains(l.String(), "/combatants/0/file: no combatant file fighter.json") {
		t.Errorf("got %v, %s", def, l.String())
	}
}

// seatOf is the seat of a combatant's side.
func seatOf(m *Match, key string) int { return int(m.State.ByKey(key).Side) }

// A creature of a side played by a person, next to a creature that walks
// away, gives its side the choice: let it go, and no attack is made;
// attack, and it is made. The pack's bot takes the attack at once.
func TestReactionIsAskedOfTheReactingSide(t *testing.T) {
	def := load(t, filepath.Join(examples, "walk-away.encounter.json"))
	begin := func(t *testing.T) *Match {
		m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{14, 5}})
		if err != nil {
			t.Fatal(err)
		}
		fighter, goblin := seatOf(m, "fighter"), seatOf(m, "goblin")
		if err := m.Apply(fighter, json.RawMessage(`{"do":"move","who":"fighter","to":[0,2]}`)); err != nil {
			t.Fatal(err)
		}
		if w := m.Waiting(); !slices.Equal(w, []int{goblin}) {
			t.Fatalf("waiting for %v, want the goblins' seat %d", w, goblin)
		}
		if m.TimeLimit(goblin) != 20*time.Second || m.TimeLimit(fighter) != 0 {
			t.Errorf("time limits %v and %v, want 20s for the reaction", m.TimeLimit(goblin), m.TimeLimit(fighter))
		}
		if l := m.Legal(fighter); len(l) != 0 {
			t.Errorf("the mover's side may play %v while the goblins decide", l)
		}
		if err := m.Apply(fighter, json.RawMessage(`{"do":"end"}`)); !engine.IsRejected(err) {
			t.Errorf("a command of the mover's side while the goblins decide: %v", err)
		}
		legal := m.Legal(goblin)
		if len(legal) != 2 || legal[0].Text != "Attack Fighter as it leaves (opportunity attack)" || legal[1].Text != "Let it go" {
			t.Fatalf("the goblins may play %v", legal)
		}
		v := m.View(goblin).(*View)
		if v.Reaction == nil || v.Reaction.Who != "goblin" || v.Reaction.Mover != "fighter" {
			t.Errorf("the goblins' view of the reaction: %+v", v.Reaction)
		}
		if v := m.View(fighter).(*View); v.Reaction != nil || v.Reachable != nil {
			t.Errorf("the fighter's side sees a reaction or squares to reach while the goblins decide: %+v", v)
		}
		return m
	}
	attacks := func(m *Match) int { return count(m, testPack.ev.attack, engine.Completion) }
	t.Run("let it go", func(t *testing.T) {
		m := begin(t)
		if err := m.Apply(seatOf(m, "goblin"), json.RawMessage(`{"do":"reaction","take":false}`)); err != nil {
			t.Fatal(err)
		}
		fighter := m.State.ByKey("fighter")
		if attacks(m) != 0 || fighter.HP != 13 || fighter.Pos != (Cell{0, 2}) || m.State.ByKey("goblin").Economy.Reactions != 1 {
			t.Errorf("%d attacks, fighter HP %d on %s", attacks(m), fighter.HP, fighter.Pos)
		}
		if w := m.Waiting(); !slices.Equal(w, []int{seatOf(m, "fighter")}) {
			t.Errorf("after the answer, waiting for %v", w)
		}
		if !slices.ContainsFunc(m.Log(game.Spectator, 0), func(e game.Entry) bool { return e.Text == "Goblin lets Fighter go" }) {
			t.Error("the log does not say the goblin let the fighter go")
		}
	})
	t.Run("attack", func(t *testing.T) {
		m := begin(t)
		if err := m.Apply(seatOf(m, "goblin"), m.Legal(seatOf(m, "goblin"))[0].Data); err != nil {
			t.Fatal(err)
		}
		fighter := m.State.ByKey("fighter")
		if attacks(m) != 1 || fighter.HP != 6 || fighter.Pos != (Cell{0, 2}) {
			t.Errorf("%d attacks, fighter HP %d on %s", attacks(m), fighter.HP, fighter.Pos)
		}
	})
	t.Run("the bot takes it", func(t *testing.T) {
		m := begin(t)
		seat := seatOf(m, "goblin")
		cmd, ok := m.BotCommand(seat, rng.New(1).Stream("bot"))
		if !ok || string(cmd) != `{"do":"reaction","take":true}` {
			t.Fatalf("the bot answers %s, %v", cmd, ok)
		}
		if _, ok := m.BotCommand(seatOf(m, "fighter"), rng.New(1).Stream("bot")); ok {
			t.Error("the bot plays for the mover's side while the goblins decide")
		}
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
		if attacks(m) != 1 || m.State.ByKey("fighter").HP != 6 {
			t.Errorf("%d attacks, fighter HP %d", attacks(m), m.State.ByKey("fighter").HP)
		}
	})
}

// Every legal command of a few positions of every bundled encounter
// (the first turn, and after three and six of the bot's commands) is
// accepted through Apply; each decodes into a Command that encodes back to
// the same JSON.
func TestCommandJSONRoundTrip(t *testing.T) {
	type step struct {
		seat int
		cmd  json.RawMessage
	}
	for _, f := range encounters(t) {
		def := load(t, f)
		setup := game.Setup{Players: def.Sides, Seed: 3}
		m := must(def.NewMatch(setup))
		var played []step
		for n := 0; n <= 6 && !m.State.Over; n++ {
			seat := m.Waiting()[0]
			if n%3 == 0 {
				for _, c := range m.Legal(seat) {
					var cmd Command
					if err := game.DecodeCommand(c.Data, &cmd); err != nil {
						t.Fatalf("%s: %s does not decode: %v", f, c.Data, err)
					}
					if again := commandJSON(cmd); !bytes.Equal(again, c.Data) {
						t.Errorf("%s: %s encodes back as %s", f, c.Data, again)
					}
					try := must(def.NewMatch(setup))
					for _, s := range played {
						if err := try.Apply(s.seat, s.cmd); err != nil {
							t.Fatal(err)
						}
					}
					if err := try.Apply(seat, c.Data); err != nil {
						t.Fatalf("%s: the legal command %s (%s): %v", f, c.Data, c.Text, err)
					}
				}
			}
			cmd, _ := m.BotCommand(seat, nil)
			if err := m.Apply(seat, cmd); err != nil {
				t.Fatal(err)
			}
			played = append(played, step{seat, cmd})
		}
	}
}

// The embedded examples hold every encounter with the combatant files it
// uses: each loads from them alone.
func TestEmbeddedExamples(t *testing.T) {
	p := NewPack()
	names, err := fs.Glob(bundled.Skirmish, "skirmish/*.encounter.json")
	if err != nil || len(names) < 5 {
		t.Fatalf("%d embedded encounters: %v", len(names), err)
	}
	for _, name := range names {
		files, _ := fs.Glob(bundled.Skirmish, "skirmish/*.json")
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, f := range files {
			data, _ := fs.ReadFile(bundled.Skirmish, f)
			w, _ := zw.Create(path.Base(f))
			w.Write(data)
		}
		zw.SetComment("tabula main: " + path.Base(name))
		zw.Close()
		src, err := game.FromBytes(name, buf.Bytes(), game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if def, l := p.Load(src); def == nil {
			t.Errorf("%s: %s", name, l.String())
		}
	}
}

// An encounter has at most 16 sides, each a seat: 19 are refused.
func TestTooManySides(t *testing.T) {
	data := must(os.ReadFile(filepath.Join(examples, "walk-away.encounter.json")))
	var sides []string
	for i := range 17 {
		sides = append(sides, fmt.Sprintf(`"s%d"`, i))
	}
	changed := strings.Replace(string(data), `"sides": ["heroes", "goblins"]`, `"sides": ["heroes", "goblins", `+strings.Join(sides, ", ")+`]`, 1)
	src := must(game.FromBytes("crowd.encounter.json", []byte(changed), game.Limits{}))
	if def, l := NewPack().Load(src); def != nil || !strings.Contains(l.String(), "/sides: takes at most 16 items, not 19") {
		t.Errorf("19 sides: %v\n%s", def, l.String())
	}
}
