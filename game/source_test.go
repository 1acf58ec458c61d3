package game_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
)

func zipOf(t testing.TB, comment string, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[i+1]))
	}
	zw.SetComment(comment)
	zw.Close()
	return buf.Bytes()
}

// A game read from several files is archived whole, and the archive reads
// back as the same files with the same main file.
func TestArchiveRoundTrip(t *testing.T) {
	src, err := game.Open("testdata/encounter/fight.json", game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	main, _ := src.Data()
	ref, err := src.Resolve(src.Main(), "units/ogre.json")
	if err != nil {
		t.Fatal(err)
	}
	ogre, err := src.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	arch := src.Archive()
	if !game.IsZip(arch) {
		t.Fatal("a game of two files is not archived as a zip")
	}
	back, err := game.FromBytes("stored", arch, game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Main() != "fight.json" {
		t.Fatalf("main %q", back.Main())
	}
	got, _ := back.Data()
	gotOgre, err := back.ReadFile("units/ogre.json")
	if err != nil || !bytes.Equal(got, main) || !bytes.Equal(gotOgre, ogre) {
		t.Fatalf("the archive reads back differently: %v", err)
	}
	// One file is stored as it is.
	one, _ := game.FromBytes("one.json", main, game.Limits{})
	one.Data()
	if !bytes.Equal(one.Archive(), main) {
		t.Fatal("a game of one file is not stored as that file")
	}
}

func TestSourceRefusesClimbingOut(t *testing.T) {
	src, _ := game.Open("testdata/encounter/fight.json", game.Limits{})
	for _, ref := range []string{"../secret.json", "/etc/passwd", `units\ogre.json`, "units/../../x.json"} {
		if _, err := src.Resolve(src.Main(), ref); err == nil {
			t.Errorf("%q was accepted", ref)
		}
	}
	for _, name := range []string{"../x.json", "/abs.json", `a\b.json`} {
		_, err := game.FromBytes("evil.zip", zipOf(t, "", name, "{}"), game.Limits{})
		if err == nil {
			t.Errorf("an archive entry %q was accepted", name)
		}
	}
}

func TestSourceLimits(t *testing.T) {
	big := strings.Repeat("0", 1<<20)
	cases := []struct {
		name   string
		data   []byte
		limits game.Limits
		want   string
	}{
		{"bomb", zipOf(t, "", "board.json", big), game.Limits{Ratio: 100}, "inflated size / compressed size"},
		{"file", zipOf(t, "", "board.json", big), game.Limits{File: 1000}, "the limit is 1000 bytes"},
		{"entries", zipOf(t, "", "a", "1", "b", "2", "c", "3"), game.Limits{Entries: 2}, "the limit is 2 entries"},
		{"plain", []byte(big), game.Limits{File: 1000}, "the limit is 1000 bytes"},
	}
	for _, c := range cases {
		_, err := game.FromBytes(c.name, c.data, c.limits)
		var le *game.LimitError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a limit error saying %q", c.name, err, c.want)
		}
	}
}
