package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/store"
)

// BoardInfo describes a board the server offers.
type BoardInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Spaces      int    `json:"spaces"`
	MinPlayers  int    `json:"minPlayers"`
	MaxPlayers  int    `json:"maxPlayers"`
	// Source is "bundled", "folder" or "upload".
	Source string `json:"source"`
	// Game is the pack that plays it: "party" or "rulebook".
	Game string `json:"game"`
}

// entry is a game of the library: its bytes (stored with each match, so a
// match replays even if the library changes) and the compiled definition.
type entry struct {
	info BoardInfo
	data []byte
	file string
	def  definition
}

// library holds the games the server offers — party boards and rule
// books —: the bundled examples, the files of --boards DIR, and uploads
// kept in the database.
type library struct {
	mu     sync.Mutex
	boards map[string]*entry
	order  []string
}

func newLibrary() *library { return &library{boards: map[string]*entry{}} }

// loadBundled adds the example games shipped in the binary: the party
// boards, then the rule books.
func (l *library) loadBundled() error {
	for _, set := range []struct {
		files fs.FS
		glob  string
	}{{examples.Party, "party/*.json"}, {examples.Rulebook, "rulebook/*.json"}} {
		names, err := fs.Glob(set.files, set.glob)
		if err != nil {
			return err
		}
		slices.Sort(names)
		// The default board comes first: it is what a new match offers.
		slices.SortStableFunc(names, func(a, b string) int {
			return boolCmp(path.Base(b) == "default.json", path.Base(a) == "default.json")
		})
		for _, n := range names {
			data, err := fs.ReadFile(set.files, n)
			if err != nil {
				return err
			}
			id := strings.TrimSuffix(path.Base(n), ".json")
			if _, list := l.add(id, n, data, "bundled"); list.HasErrors() {
				return fmt.Errorf("bundled game %s is invalid:\n%s", n, list.String())
			}
		}
	}
	return nil
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// loadDir adds every valid board file of a folder; invalid ones are
// reported and skipped.
func (l *library) loadDir(dir string) (diag.List, error) {
	var problems diag.List
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		id := "dir-" + strings.TrimSuffix(e.Name(), ".json")
		if _, list := l.add(id, file, data, "folder"); list.HasErrors() {
			problems = append(problems, list...)
		}
	}
	return problems, nil
}

// loadUploads adds the boards uploaded earlier.
func (l *library) loadUploads(ctx context.Context, st *store.Store) error {
	boards, err := st.Boards(ctx)
	if err != nil {
		return err
	}
	for _, b := range boards {
		l.add(b.ID, b.Source, b.Data, "upload")
	}
	return nil
}

// add checks a game file and, if valid, offers it under id.
func (l *library) add(id, file string, data []byte, source string) (*entry, diag.List) {
	def, list := compileGame("", file, data)
	if def == nil {
		return nil, list
	}
	e := &entry{info: BoardInfo{ID: id, Source: source, Game: def.Game()}, data: data, file: file, def: def}
	def.Describe(&e.info)
	if e.info.Name == "" {
		e.info.Name = id
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.boards[id]; !ok {
		l.order = append(l.order, id)
	}
	l.boards[id] = e
	return e, list
}

// upload validates an uploaded game file and, if it is valid, stores it.
// The id is derived from the contents, so uploading the same file twice
// gives the same game.
func (l *library) upload(ctx context.Context, st *store.Store, name string, data []byte) (*entry, diag.List, error) {
	sum := sha256.Sum256(data)
	id := "up-" + hex.EncodeToString(sum[:6])
	name = filepath.Base(name)
	e, list := l.add(id, name, data, "upload")
	if e == nil {
		return nil, list, nil
	}
	err := st.SaveBoard(ctx, store.Board{ID: id, Name: e.info.Name, Source: name, Data: data, Created: time.Now()})
	return e, list, err
}

func (l *library) get(id string) (*entry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.boards[id]
	return e, ok
}

func (l *library) list() []BoardInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]BoardInfo, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, l.boards[id].info)
	}
	return out
}
