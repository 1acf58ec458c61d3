package party

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
)

// bundleFiles reads the files of the original's default bundle folder.
func bundleFiles(t *testing.T) map[string][]byte {
	t.Helper()
	dir := filepath.Join(sharedDir(t), "bundle-default")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

// zipFiles archives files (name → content, in name order) with a method.
func zipFiles(t *testing.T, method uint16, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	}) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// loadBytes loads a board from bytes as the server does with an upload.
func loadBytes(t *testing.T, name string, data []byte) (*Board, []string) {
	t.Helper()
	src, err := game.FromBytes(name, data, game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !testPack.Detect(src) {
		return nil, []string{"not detected"}
	}
	b, l := readSource(src)
	return b, lines(l)
}

// TestZippedBundle: a bundle zipped with stored or deflated entries, and
// the original's own zip, load as the bundle folder does.
func TestZippedBundle(t *testing.T) {
	folder, l := Load(filepath.Join(sharedDir(t), "bundle-default"))
	if folder == nil {
		t.Fatal(lines(l))
	}
	files := bundleFiles(t)
	original, err := os.ReadFile(filepath.Join(sharedDir(t), "bundles", "default-board.zip"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"stored.zip":            zipFiles(t, zip.Store, files),
		"deflated.zip":          zipFiles(t, zip.Deflate, files),
		"default-board.zip":     original,
		"upload-without-a-name": zipFiles(t, zip.Deflate, files),
	} {
		b, l := loadBytes(t, name, data)
		if b == nil {
			t.Errorf("%s: %q", name, l)
			continue
		}
		if hasPreview := name == "default-board.zip"; (b.Preview != nil) != hasPreview {
			t.Errorf("%s: a preview of %d bytes", name, len(b.Preview))
		}
		if b.Format != "bundle" || len(b.Spaces) != len(folder.Spaces) || fmt.Sprint(b.Rules) != fmt.Sprint(folder.Rules) {
			t.Errorf("%s: %s board of %d spaces, rules %+v; the folder: %d spaces, %+v", name, b.Format, len(b.Spaces), b.Rules, len(folder.Spaces), folder.Rules)
		}
	}
}

// pngOf is a PNG image of w×h pixels whose header says it is as wide
// and tall as sayW×sayH (its pixels are not: nothing decodes them).
func pngOf(t *testing.T, w, h, sayW, sayH int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	// The header chunk: length, "IHDR", width, height, …, its CRC.
	ihdr := data[8+4 : 8+4+4+13]
	binary.BigEndian.PutUint32(ihdr[4:], uint32(sayW))
	binary.BigEndian.PutUint32(ihdr[8:], uint32(sayH))
	binary.BigEndian.PutUint32(data[8+4+4+13:], crc32.ChecksumIEEE(ihdr))
	return data
}

// TestBundlePreview: a bundle's preview.png is kept for the lobby; a file
// of that name that is not a PNG image, or whose header says it is more
// than 4096 pixels on a side, is left out, with a warning.
func TestBundlePreview(t *testing.T) {
	files := bundleFiles(t)
	png := pngOf(t, 3, 2, 3, 2)
	for _, c := range []struct {
		preview []byte
		keep    bool
		warn    string
	}{
		{png, true, ""},
		{[]byte("GIF89a"), false, "b.zip/board.json:1:1: /: warning: preview.png is not a PNG image: it is left out"},
		{pngOf(t, 1, 1, 60000, 60000), false, "b.zip/board.json:1:1: /: warning: preview.png is 60000×60000 pixels, more than 4096 on a side: it is left out; make it smaller"},
		{pngOf(t, 1, 1, 4097, 10), false, "b.zip/board.json:1:1: /: warning: preview.png is 4097×10 pixels, more than 4096 on a side: it is left out; make it smaller"},
		{pngOf(t, 1, 1, 4096, 4096), true, ""},
		{[]byte("\x89PNG\r\n\x1a\n fake image data"), false, "b.zip/board.json:1:1: /: warning: preview.png is not a PNG image (unexpected EOF): it is left out"},
		{nil, false, ""},
	} {
		fs := map[string][]byte{}
		for k, v := range files {
			fs[k] = v
		}
		if c.preview != nil {
			fs["preview.png"] = c.preview
		}
		src, err := game.FromBytes("b.zip", zipFiles(t, zip.Store, fs), game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		def, l := testPack.LoadDefinition(src)
		if def == nil {
			t.Fatal(lines(l))
		}
		data, media := def.Preview()
		if c.keep != (data != nil) || c.keep && (!bytes.Equal(data, c.preview) || media != "image/png") {
			t.Errorf("preview %q: got %d bytes of %q", c.preview, len(data), media)
		}
		if got := strings.Join(lines(l), "\n"); got != c.warn {
			t.Errorf("preview %q: diagnostics %q, want %q", c.preview, got, c.warn)
		}
		if c.keep && !slices.Contains(src.Files(), "preview.png") {
			t.Errorf("preview.png is not kept in the stored game: %q", src.Files())
		}
	}
}

// TestZippedBundleErrors: what the original refuses in a zipped bundle is
// a diagnostic naming the entry (and where in it) with how to fix it.
func TestZippedBundleErrors(t *testing.T) {
	files := bundleFiles(t)
	var manifest map[string]any
	if err := json.Unmarshal(files["board.json"], &manifest); err != nil {
		t.Fatal(err)
	}
	with := func(change func(m map[string]any, files map[string][]byte)) []byte {
		m := map[string]any{}
		for k, v := range manifest {
			m[k] = v
		}
		fs := map[string][]byte{}
		for k, v := range files {
			fs[k] = v
		}
		change(m, fs)
		if _, ok := fs["board.json"]; ok {
			fs["board.json"], _ = json.Marshal(m)
		}
		return zipFiles(t, zip.Deflate, fs)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"no manifest", with(func(m map[string]any, fs map[string][]byte) { delete(fs, "board.json") }),
			"b.zip: /: board.json not found in the bundle: a zipped bundle holds its board.json manifest at the top of the archive"},
		{"manifest in a folder", func() []byte {
			nested := map[string][]byte{}
			for k, v := range files {
				nested["default-board/"+k] = v
			}
			return zipFiles(t, zip.Deflate, nested)
		}(), `b.zip: /: board.json not found in the bundle: a zipped bundle holds its board.json manifest at the top of the archive, not in a folder (this one has "default-board/board.json"): zip the bundle folder's files, not the folder`},
		{"schema version 1", with(func(m map[string]any, _ map[string][]byte) { m["schema_version"] = 1 }),
			"b.zip/board.json:1:220: /schema_version: schema_version must be 2 or more, not 1"},
		{"no schema version", with(func(m map[string]any, _ map[string][]byte) { delete(m, "schema_version") }),
			`b.zip/board.json:1:1: /schema_version: a bundle manifest needs "schema_version": 2`},
		{"no id", with(func(m map[string]any, _ map[string][]byte) { delete(m, "id") }),
			`b.zip/board.json:1:1: /id: a bundle manifest needs an "id" naming the board`},
		{"no paths", with(func(m map[string]any, _ map[string][]byte) { delete(m, "paths") }),
			`b.zip/board.json:1:1: /paths: a bundle manifest needs "paths": {"topology": "topology.json", …}`},
		{"no topology path", with(func(m map[string]any, _ map[string][]byte) {
			p := map[string]any{}
			for k, v := range m["paths"].(map[string]any) {
				if k != "topology" {
					p[k] = v
				}
			}
			m["paths"] = p
		}), `b.zip/board.json:1:53: /paths/topology: paths needs "topology": the file with the spaces`},
		{"missing file", with(func(_ map[string]any, fs map[string][]byte) { delete(fs, "topology.json") }),
			`b.zip/board.json:1:171: /paths/topology: cannot read "topology.json": no such file or folder`},
		{"path out of the bundle", with(func(m map[string]any, _ map[string][]byte) {
			p := map[string]any{}
			for k, v := range m["paths"].(map[string]any) {
				p[k] = v
			}
			p["rules"] = "../rules.json"
			m["paths"] = p
		}), `b.zip/board.json:1:147: /paths/rules: "../rules.json" must be a path inside the bundle folder`},
		{"broken JSON in a part", with(func(_ map[string]any, fs map[string][]byte) { fs["rules.json"] = []byte("{\n  \"minPlayers\": 1,,\n}") }),
			`b.zip/rules.json:2:19: /: invalid JSON: invalid character ',' looking for beginning of object key string`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, got := loadBytes(t, "b.zip", c.data)
			if !slices.Contains(got, c.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), c.want)
			}
		})
	}
}

// BenchmarkLoadFormats loads the same default board from each format the
// original wrote it in: v1, v2, the bundle folder and the zipped bundle
// (whose preview.png is read and checked too).
func BenchmarkLoadFormats(b *testing.B) {
	root := sharedDir(b)
	for _, f := range []string{"v1/defaultBoard.json", "v2/defaultBoard.json", "bundle-default", "bundles/default-board.zip"} {
		b.Run(f, func(b *testing.B) {
			path := filepath.Join(root, filepath.FromSlash(f))
			b.ReportAllocs()
			for b.Loop() {
				if board, l := Load(path); board == nil {
					b.Fatal(lines(l))
				}
			}
		})
	}
}
