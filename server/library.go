package server

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// BundledGames are the games a server offers everybody: a file system
// whose folders are named for packs (party/default.json, lanes/…), and
// the name of the game a new match offers first.
type BundledGames struct {
	FS      fs.FS
	Default string
}

// GameInfo is a game of the library as the lobby shows it.
type GameInfo struct {
	ID string `json:"id"`
	game.Info
	// Source is "bundled", "folder" or "saved".
	Source string `json:"source"`
	// File is the name of the file it came from.
	File string `json:"file"`
	// Hash identifies its contents.
	Hash string `json:"hash"`
	// Preview is the URL of the game's picture (a party bundle's
	// preview.png), if it has one.
	Preview string `json:"preview,omitempty"`
}

// compiled is a game file loaded once and shared by every match played on
// it.
type compiled struct {
	hash string
	pack game.Pack
	def  game.Definition
	info game.Info
	// drawing is the definition's drawing, encoded once.
	drawing json.RawMessage
	// data is the game as stored (the archive of its files); file its
	// name.
	data []byte
	file string
}

// sourceLimits are the limits of game files from clients and the store.
func (srv *Server) sourceLimits() game.Limits {
	return game.Limits{File: srv.limits.Upload, Total: srv.limits.Upload, Entries: 200, Ratio: 100}
}

// compile loads a game from its source with the server's packs (pack ""
// detects it) and prepares it for sharing. The source's archive is what
// gets stored.
func (srv *Server) compile(src *game.Source, packName string) (*compiled, diag.List) {
	if err := srv.checkDepth(src); err != nil {
		return nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: err.Error()}}
	}
	p, def, list := srv.packs.Load(src, packName)
	if def == nil || list.HasErrors() {
		return nil, list
	}
	data := src.Archive()
	c := &compiled{hash: contentHash(data), pack: p, def: def, info: def.Info(), data: data, file: src.Name()}
	if c.info.Pack == "" {
		c.info.Pack = p.Name()
	}
	d, err := json.Marshal(def.Drawing())
	if err != nil {
		return nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: "its drawing does not encode: " + err.Error()}}
	}
	c.drawing = d
	return c, list
}

// checkDepth refuses a JSON main file nested deeper than the limit before
// any decoder sees it.
func (srv *Server) checkDepth(src *game.Source) error {
	if src.IsDir() {
		return nil
	}
	data, err := src.Data()
	if err != nil {
		return err
	}
	if game.IsZip(data) {
		return nil
	}
	if d := jsonDepth(data, srv.limits.JSONDepth); d > srv.limits.JSONDepth {
		return fmt.Errorf("the file nests more than %d levels deep", srv.limits.JSONDepth)
	}
	return nil
}

// --- definitions, shared by matches ---

// defCache holds compiled games by content hash, the most recently used
// ones, so that a game is loaded once however many matches use it.
type defCache struct {
	srv   *Server
	mu    sync.Mutex
	max   int
	items map[string]*list.Element
	order *list.List
	// pinned are the library's games, always kept.
	pinned map[string]*compiled
}

func newDefCache(srv *Server, max int) *defCache {
	return &defCache{srv: srv, max: max, items: map[string]*list.Element{}, order: list.New(), pinned: map[string]*compiled{}}
}

func (c *defCache) pin(x *compiled) {
	c.mu.Lock()
	c.pinned[x.hash] = x
	c.mu.Unlock()
}

// get returns a stored game, compiled.
func (c *defCache) get(ctx context.Context, hash, packName, name string) (*compiled, error) {
	c.mu.Lock()
	if x, ok := c.pinned[hash]; ok {
		c.mu.Unlock()
		return x, nil
	}
	if e, ok := c.items[hash]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*compiled), nil
	}
	c.mu.Unlock()
	g, err := c.srv.store.Game(ctx, hash)
	if err != nil {
		return nil, err
	}
	if packName == "" {
		packName = g.Pack
	}
	if name == "" {
		name = g.Name
	}
	src, err := game.FromBytes(g.Name, g.Data, c.srv.sourceLimits())
	if err != nil {
		return nil, err
	}
	x, list := c.srv.compile(src, packName)
	if x == nil {
		return nil, errors.New(list.Errors().String())
	}
	// The stored bytes are the game: keep their hash even if archiving
	// again would give other bytes.
	x.hash, x.data = hash, g.Data
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[hash]; ok {
		return e.Value.(*compiled), nil
	}
	c.items[hash] = c.order.PushFront(x)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*compiled).hash)
	}
	return x, nil
}

// --- the library ---

// libEntry is a game of the library.
type libEntry struct {
	info  GameInfo
	c     *compiled
	owner string // hash of the saver's secret (saved games)
}

// library holds the games the server offers: the bundled ones, the files
// of --boards DIR, and those players saved (kept in the store).
type library struct {
	srv    *Server
	mu     sync.Mutex
	byID   map[string]*libEntry
	order  []string
	deflt  string
	stored map[string]bool // game hashes known to be in the store
}

func newLibrary(srv *Server) *library {
	return &library{srv: srv, byID: map[string]*libEntry{}, stored: map[string]bool{}}
}

func (l *library) load(ctx context.Context, bundled BundledGames, dir string) error {
	if bundled.FS != nil {
		if err := l.loadBundled(bundled); err != nil {
			return err
		}
	}
	if dir != "" {
		if err := l.loadDir(dir); err != nil {
			return err
		}
	}
	return l.loadSaved(ctx)
}

// loadBundled adds every game of the bundled file system, folder by
// folder (one per pack), the default game first. Files there that are not
// games on their own (a skirmish's combatants) are skipped.
func (l *library) loadBundled(b BundledGames) error {
	var names []string
	err := fs.WalkDir(b.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.Count(p, "/") == 1 && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".zip")) {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(names)
	slices.SortStableFunc(names, func(a, c string) int { return boolCmp(gameID(c) == b.Default, gameID(a) == b.Default) })
	for _, n := range names {
		src, err := game.OpenFS(b.FS, n, "", game.Limits{})
		if err != nil {
			return err
		}
		c, list := l.srv.compile(src, "")
		if c == nil {
			if l.isPart(src) {
				l.srv.log.Debug("bundled file is not a game on its own", "file", n)
				continue
			}
			l.srv.log.Warn("a bundled game does not load", "file", n, "problems", list.String())
			continue
		}
		l.add(gameID(n), "bundled", c, "")
	}
	l.deflt = b.Default
	return nil
}

// isPart reports whether a file that is not a game is a valid file of a
// pack all the same (a skirmish's combatant), or no pack's file at all.
func (l *library) isPart(src *game.Source) bool {
	p, err := l.srv.packs.Detect(src)
	if err != nil {
		return true
	}
	v, ok := p.(game.Validator)
	return ok && !v.Validate(src).HasErrors()
}

// anyPackClaims reports whether some pack recognises the source.
func (l *library) anyPackClaims(src *game.Source) bool {
	_, err := l.srv.packs.Detect(src)
	return err == nil
}

// gameID is a bundled game's id: its file name without the folder and
// the extensions (duel.encounter.json → duel).
func gameID(p string) string {
	base := path.Base(p)
	if i := strings.Index(base, "."); i > 0 {
		base = base[:i]
	}
	return base
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

// loadDir adds every game file of a folder; those that do not load are
// logged and skipped.
func (l *library) loadDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".zip") {
			continue
		}
		src, err := game.Open(path.Join(dir, name), l.srv.sourceLimits())
		if err != nil {
			l.srv.log.Warn("skipping a game file", "file", name, "err", err)
			continue
		}
		c, list := l.srv.compile(src, "")
		if c == nil {
			if l.anyPackClaims(src) {
				l.srv.log.Warn("skipping a game file", "file", name, "problems", list.Errors().String())
			}
			continue
		}
		l.add("dir-"+gameID(name), "folder", c, "")
	}
	return nil
}

// loadSaved adds the games players saved.
func (l *library) loadSaved(ctx context.Context) error {
	entries, err := l.srv.store.Entries(ctx)
	if err != nil {
		return err
	}
	for _, e := range entries {
		c, err := l.srv.defs.get(ctx, e.GameHash, e.Pack, e.File)
		if err != nil {
			l.srv.log.Warn("a saved game no longer loads", "id", e.ID, "err", err)
			continue
		}
		le := l.add(e.ID, "saved", c, e.Owner)
		if e.Name != "" {
			le.info.Name = e.Name
		}
		l.stored[c.hash] = true
	}
	return nil
}

func (l *library) add(id, source string, c *compiled, owner string) *libEntry {
	l.srv.defs.pin(c)
	e := &libEntry{info: GameInfo{ID: id, Info: c.info, Source: source, File: path.Base(c.file), Hash: c.hash}, c: c, owner: owner}
	if e.info.Name == "" {
		e.info.Name = id
	}
	if p, ok := c.def.(game.Previewer); ok {
		if data, _ := p.Preview(); data != nil {
			e.info.Preview = "/api/boards/" + id + "/preview"
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byID[id]; !ok {
		l.order = append(l.order, id)
	}
	l.byID[id] = e
	return e
}

// save adds a game a player uploaded or saved from the editor, unless the
// library has the same game already (same contents): then that entry is
// returned, and secret is "". A new entry's secret lets its saver rename
// and delete it.
func (l *library) save(ctx context.Context, c *compiled, name string) (e *libEntry, secret string, err error) {
	l.mu.Lock()
	for _, id := range l.order {
		if x := l.byID[id]; x.c.hash == c.hash {
			l.mu.Unlock()
			return x, "", nil
		}
	}
	l.mu.Unlock()
	if err := l.storeGame(ctx, c); err != nil {
		return nil, "", err
	}
	secret = newSecret()
	id := "g-" + c.hash[:12]
	se := store.Entry{ID: id, GameHash: c.hash, Pack: c.info.Pack, Name: name, File: path.Base(c.file),
		Owner: store.HashSecret(secret), Created: time.Now()}
	if err := l.srv.store.SaveEntry(ctx, se); err != nil {
		return nil, "", err
	}
	e = l.add(id, "saved", c, se.Owner)
	if name != "" {
		e.info.Name = name
	}
	return e, secret, nil
}

// storeGame makes sure a game is in the store.
func (l *library) storeGame(ctx context.Context, c *compiled) error {
	l.mu.Lock()
	known := l.stored[c.hash]
	l.mu.Unlock()
	if known {
		return nil
	}
	if err := l.srv.store.SaveGame(ctx, store.Game{Hash: c.hash, Pack: c.info.Pack, Name: path.Base(c.file), Data: c.data, Created: time.Now()}); err != nil {
		return err
	}
	l.mu.Lock()
	l.stored[c.hash] = true
	l.mu.Unlock()
	return nil
}

var errNotSaver = errors.New("only whoever saved this game may change it")

// rename renames a saved game.
func (l *library) rename(ctx context.Context, id, secret, name string) (*libEntry, error) {
	e, err := l.ownEntry(id, secret)
	if err != nil {
		return nil, err
	}
	name, err = gameName(name)
	if err != nil {
		return nil, err
	}
	se := store.Entry{ID: id, GameHash: e.c.hash, Pack: e.info.Pack, Name: name, File: e.info.File, Owner: e.owner, Created: time.Now()}
	if err := l.srv.store.SaveEntry(ctx, se); err != nil {
		return nil, err
	}
	l.mu.Lock()
	e.info.Name = name
	l.mu.Unlock()
	return e, nil
}

// remove deletes a saved game from the library (matches played on it keep
// their copy).
func (l *library) remove(ctx context.Context, id, secret string) error {
	if _, err := l.ownEntry(id, secret); err != nil {
		return err
	}
	if err := l.srv.store.DeleteEntry(ctx, id); err != nil {
		return err
	}
	l.mu.Lock()
	delete(l.byID, id)
	l.order = slices.DeleteFunc(l.order, func(x string) bool { return x == id })
	l.mu.Unlock()
	return nil
}

func (l *library) ownEntry(id, secret string) (*libEntry, error) {
	e, ok := l.get(id)
	if !ok {
		return nil, store.ErrNotFound
	}
	if e.info.Source != "saved" || !secretIs(secret, e.owner) {
		return nil, errNotSaver
	}
	return e, nil
}

func (l *library) get(id string) (*libEntry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id == "" {
		id = l.deflt
	}
	e, ok := l.byID[id]
	return e, ok
}

// list returns the library, one entry per distinct game.
func (l *library) list() []GameInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]GameInfo, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, l.byID[id].info)
	}
	return out
}
