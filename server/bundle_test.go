package server

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/examples"
)

// partyBundle is a small party bundle: its manifest and parts, by name.
var partyBundle = map[string]string{
	"board.json":    `{"schema_version": 2, "id": "three-steps", "paths": {"metadata": "metadata.json", "rules": "rules.json", "topology": "topology.json"}}`,
	"metadata.json": `{"name": "Three steps", "author": "Ann", "description": "A zipped bundle"}`,
	"rules.json":    `{"minPlayers": 2, "maxPlayers": 4, "startingPositions": {"mode": "single", "spaceIds": ["1"]}}`,
	"topology.json": `{"spaces": [
  {"id": "1", "name": "Start", "type": "start", "connections": [{"targetId": "2"}]},
  {"id": "2", "name": "Middle", "connections": [{"targetId": "3"}],
   "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "PROMPT_CURRENT_PLAYER", "payload": {"message": "Drink!"}}}]},
  {"id": "3", "name": "End", "connections": [],
   "triggers": [{"when": {"type": "ON_ENTER"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}
]}`,
}

func zipBundle(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"board.json", "metadata.json", "rules.json", "topology.json", "preview.png"} {
		if _, ok := files[name]; !ok {
			continue
		}
		w, err := zw.Create(name)
		must(t, err)
		w.Write([]byte(files[name]))
	}
	must(t, zw.Close())
	return buf.Bytes()
}

// A zipped party bundle is a game file like any other: uploaded as the
// body or as a form's file it joins the library, and a match is played
// on it to the end.
func TestZippedBundleUpload(t *testing.T) {
	ts := newTestServer(t, Options{Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}, Logger: testLogger()})
	archive := zipBundle(t, partyBundle)

	var saved struct {
		Board GameInfo `json:"board"`
	}
	status, body := ts.raw("POST", "/api/boards?name=three-steps.zip", archive, map[string]string{"Content-Type": "application/zip"})
	if status != http.StatusCreated {
		t.Fatalf("uploading the zip: %d %s", status, body)
	}
	must(t, json.Unmarshal(body, &saved))
	if saved.Board.Pack != "party" || saved.Board.Name != "Three steps" || saved.Board.MinPlayers != 2 {
		t.Fatalf("saved %+v", saved.Board)
	}

	// The same archive as a form's file is the same game.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, err := mw.CreateFormFile("file", "three-steps.zip")
	must(t, err)
	fw.Write(archive)
	mw.Close()
	status, body = ts.raw("POST", "/api/boards", form.Bytes(), map[string]string{"Content-Type": mw.FormDataContentType()})
	var again struct {
		Board GameInfo `json:"board"`
	}
	must(t, json.Unmarshal(body, &again))
	if status != http.StatusOK || again.Board.ID != saved.Board.ID {
		t.Fatalf("uploading it as a form: %d %s", status, body)
	}

	// A bundle with a mistake is answered with the entry that holds it.
	bad := map[string]string{}
	for k, v := range partyBundle {
		bad[k] = v
	}
	bad["rules.json"] = `{"minPlayers": 5, "maxPlayers": 2}`
	var refused apiError
	if st := ts.call("POST", "/api/boards?name=bad.zip", zipBundle(t, bad), &refused); st != http.StatusUnprocessableEntity ||
		len(refused.Diagnostics) != 1 || refused.Diagnostics[0].File != "bad.zip/rules.json" || refused.Diagnostics[0].Pointer != "/minPlayers" {
		t.Fatalf("a bad bundle: %d %+v", st, refused)
	}

	tb := ts.newTable(saved.Board.ID, 2, []string{"Ann"}, true, true, map[string]any{"public": true, "maxRounds": 30})
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	playToEnd(t, ann)
	ts.waitStatus(tb.ID, "", "finished")

	// Without a preview.png the game has no picture.
	if saved.Board.Preview != "" {
		t.Errorf("a bundle without a picture has the preview %q", saved.Board.Preview)
	}
	if st, _ := ts.raw("GET", "/api/boards/"+saved.Board.ID+"/preview", nil, nil); st != http.StatusNotFound {
		t.Errorf("the picture of a game without one: %d", st)
	}
}

// A bundle's preview.png is the lobby's picture of the game: the library
// entry names its URL, and it is served as a PNG image.
func TestBundlePreviewServed(t *testing.T) {
	ts := newTestServer(t, Options{Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}, Logger: testLogger()})
	png := string(pngSaying(t, 16, 9))
	files := map[string]string{"preview.png": png}
	for k, v := range partyBundle {
		files[k] = v
	}
	var saved struct {
		Board GameInfo `json:"board"`
	}
	if st := ts.call("POST", "/api/boards?name=pictured.zip", zipBundle(t, files), &saved); st != http.StatusCreated {
		t.Fatalf("uploading: %d", st)
	}
	if want := "/api/boards/" + saved.Board.ID + "/preview"; saved.Board.Preview != want {
		t.Fatalf("preview %q, want %q", saved.Board.Preview, want)
	}
	req, _ := http.NewRequest("GET", ts.hs.URL+saved.Board.Preview, nil)
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || string(body) != png || res.Header.Get("Content-Type") != "image/png" ||
		res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("the picture: %d %q %v", res.StatusCode, body, res.Header)
	}
	// The saved game keeps its picture across a restart.
	ts2 := ts.restart()
	var list []GameInfo
	ts2.call("GET", "/api/boards", nil, &list)
	found := false
	for _, g := range list {
		if g.ID == saved.Board.ID {
			found = true
			if g.Preview != saved.Board.Preview {
				t.Errorf("after a restart: preview %q", g.Preview)
			}
		}
	}
	if !found {
		t.Error("the saved game is gone after a restart")
	}
}

// pngSaying is a PNG image of one pixel whose header says it is w×h.
func pngSaying(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	must(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))))
	data := buf.Bytes()
	ihdr := data[12 : 12+4+13] // "IHDR" and its fields
	binary.BigEndian.PutUint32(ihdr[4:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[8:], uint32(h))
	binary.BigEndian.PutUint32(data[12+4+13:], crc32.ChecksumIEEE(ihdr))
	return data
}

// A preview.png whose header says 60,000×60,000 pixels (437 KB once, and
// gigabytes in each lobby visitor's browser) is never shown: the game is
// saved without it, with a warning saying why.
func TestHugePreviewIsRefused(t *testing.T) {
	ts := newTestServer(t, Options{Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}})
	files := map[string]string{"preview.png": string(pngSaying(t, 60000, 60000))}
	for k, v := range partyBundle {
		files[k] = v
	}
	st, body := ts.raw("POST", "/api/boards?name=huge.zip", zipBundle(t, files), nil)
	if st != http.StatusCreated || !strings.Contains(string(body), "60000×60000 pixels") || strings.Contains(string(body), `"preview"`) {
		t.Errorf("a game with a huge picture: %d %s", st, body)
	}
}

// The --boards folder offers zipped bundles and bundle folders.
func TestBoardsFolderOffersBundles(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "three-steps.zip"), zipBundle(t, partyBundle), 0o644))
	folder := map[string]string{}
	for k, v := range partyBundle {
		folder[k] = v
	}
	folder["metadata.json"] = `{"name": "Three steps, unzipped"}`
	must(t, os.Mkdir(filepath.Join(dir, "unzipped"), 0o755))
	for name, data := range folder {
		must(t, os.WriteFile(filepath.Join(dir, "unzipped", name), []byte(data), 0o644))
	}
	ts := newTestServer(t, Options{Packs: allPacks(), BoardsDir: dir, Bundled: BundledGames{FS: examples.Games, Default: "default"}, Logger: testLogger()})
	var list []GameInfo
	ts.call("GET", "/api/boards", nil, &list)
	found := map[string]string{}
	for _, g := range list {
		if g.Source == "folder" {
			found[g.Name] = g.Pack
		}
	}
	if found["Three steps"] != "party" || found["Three steps, unzipped"] != "party" {
		t.Fatalf("the folder's games: %v", found)
	}
}

// A v2 board (the flat format) is uploaded like any game file, and an
// archive that would inflate past the server's limits is refused before
// it is, saying which limit.
func TestUploadFormats(t *testing.T) {
	ts := newTestServer(t, Options{Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}, Logger: testLogger()})
	v2 := `{"name": "Flat", "gameRules": {"minPlayers": 2, "maxPlayers": 4, "startingPositions": {"mode": "single", "spaceIds": [1]}},
 "spaces": [{"id": 1, "name": "Start", "connections": [{"targetId": 2}], "triggers": []},
            {"id": 2, "name": "End", "connections": [], "triggers": [{"when": {"type": "ON_ENTER"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`
	var saved struct {
		Board GameInfo `json:"board"`
	}
	if st := ts.call("POST", "/api/boards?name=flat.json", v2, &saved); st != http.StatusCreated || saved.Board.Pack != "party" || saved.Board.MinPlayers != 2 {
		t.Fatalf("uploading a v2 board: %d %+v", st, saved.Board)
	}

	// 8 MiB of zeros deflate to about 8 KB: past the server's 2 MiB.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("board.json")
	w.Write(make([]byte, 8<<20))
	zw.Close()
	status, body := ts.raw("POST", "/api/boards?name=bomb.zip", buf.Bytes(), map[string]string{"Content-Type": "application/zip"})
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "bomb.zip: entry board.json is too large: the limit is 2097152 bytes") {
		t.Fatalf("a zip bomb: %d %s", status, body)
	}
}
