package party

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
)

// boardFingerprint is what a board means, without where it was read from:
// its file, format and the pointers of its spaces and events. Win
// conditions count as their winning spaces (v3 writes several as one),
// and the engine's configuration, kept only as written, is left out (its
// turn limit is in the rules), and so is a bundle's picture.
func boardFingerprint(t *testing.T, b *Board) string {
	t.Helper()
	c := *b
	c.File, c.Format, c.SpacesFile, c.EngineConfig, c.Preview = "", "", "", nil, nil
	var wins []string
	for _, w := range c.Rules.Win {
		wins = append(wins, w.SpaceIDs...)
	}
	c.Rules.Win = nil
	c.Spaces = slices.Clone(b.Spaces)
	for i := range c.Spaces {
		s := &c.Spaces[i]
		s.Pointer = ""
		s.Events = slices.Clone(s.Events)
		for j := range s.Events {
			s.Events[j].Pointer, s.Events[j].Condition = "", nil
		}
	}
	data, err := json.Marshal(struct {
		Board *Board
		Wins  []string
	}{&c, wins})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// partyBoards lists every party board of the examples and of the original
// game's fixtures that loads.
func partyBoards(t *testing.T) []string {
	out, _ := filepath.Glob("../../examples/party/*.json")
	root := sharedDir(t)
	for _, pattern := range []string{"v1/*.json", "v2/*.json", "v3/*.json", "bundles/*.zip", "bundle-*"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		out = append(out, m...)
	}
	return out
}

// TestConvertRoundTrip converts every board that loads to v3 and to a
// zipped bundle, loads the result, and finds the same board: same
// fingerprint, and the same bot game, hash for hash; converting it again
// writes the same bytes.
func TestConvertRoundTrip(t *testing.T) {
	converted := 0
	for _, path := range partyBoards(t) {
		src, err := game.Open(path, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !testPack.Detect(src) {
			continue
		}
		def, _ := testPack.LoadDefinition(src)
		if def == nil {
			continue // an invalid fixture, or another engine's
		}
		want := boardFingerprint(t, def.Board)
		for _, format := range testPack.Formats() {
			name := filepath.Base(path)
			t.Run(name+" to "+format, func(t *testing.T) {
				data, err := testPack.Convert(def, format)
				if err != nil {
					t.Fatal(err)
				}
				if game.IsZip(data) != (format == FormatBundle) {
					t.Fatalf("%s written as a zip: %v", format, game.IsZip(data))
				}
				out, err := game.FromBytes("converted", data, game.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				back, list := testPack.LoadDefinition(out)
				if back == nil {
					t.Fatalf("the converted board does not load:\n%s", list)
				}
				wantFormat := map[string]string{FormatV3: "v3", FormatBundle: "bundle"}[format]
				if back.Board.Format != wantFormat {
					t.Errorf("read back as %s", back.Board.Format)
				}
				if format == FormatBundle && !bytes.Equal(back.Board.Preview, def.Board.Preview) {
					t.Errorf("the bundle's preview.png: %d bytes, want %d", len(back.Board.Preview), len(def.Board.Preview))
				}
				if again, err := testPack.Convert(back, format); err != nil || !bytes.Equal(again, data) {
					t.Errorf("converting the converted board again gives other bytes (%v)", err)
				}
				if got := boardFingerprint(t, back.Board); got != want {
					t.Errorf("the converted board differs:\n got %s\nwant %s", got, want)
				}
				setup := game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: 5, MaxRounds: 30}
				if info := def.Info(); info.MinPlayers > 3 || info.MaxPlayers < 3 {
					setup.Players = setup.Players[:info.MinPlayers]
				}
				h1, log1 := botGame(t, start(t, def, setup), 9)
				h2, log2 := botGame(t, start(t, back, setup), 9)
				if !slices.Equal(h1, h2) || log1 != log2 {
					t.Errorf("a bot game plays differently on the converted board (%d and %d commands)", len(h1), len(h2))
				}
			})
		}
		converted++
	}
	if converted < 10 {
		t.Errorf("only %d boards converted", converted)
	}
}

// TestConvertFormats: an unknown format is refused, naming the formats.
func TestConvertFormats(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	if _, err := testPack.Convert(def, "v1"); err == nil || !strings.Contains(err.Error(), "v3 or bundle") {
		t.Errorf("converting to v1: %v", err)
	}
	if _, err := os.Stat("../../examples/party/default.json"); err != nil {
		t.Fatal(err)
	}
}
