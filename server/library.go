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

// compileSent compiles a game a client sent (an upload, a validation):
// at most Compiles at once, all clients together; the others wait their
// turn, or give up when ctx ends. Games already stored (those of matches
// and of the library) do not wait behind strangers' files.
func (srv *Server) compileSent(ctx context.Context, src *game.Source, packName string) (*compiled, diag.List) {
	select {
	case srv.compiles <- struct{}{}:
		defer func() { <-srv.compiles }()
	case <-ctx.Done():
		return nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: "the server is busy checking other games; try again"}}
	}
	return srv.compile(src, packName)
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

// defCache holds compiled games by content hash, so that a game is
// loaded once however many matches use it: the operator's games (bundled
// and folder ones) for the life of the process, others the most recently
// used ones, as many as fit in its budget (the bytes of their files). A
// match keeps its own game as long as it is in memory.
type defCache struct {
	srv    *Server
	mu     sync.Mutex
	budget int64 // the most bytes of files kept, all games together
	size   int64
	items  map[string]*list.Element
	order  *list.List
	// pinned are the operator's games, always kept.
	pinned map[string]*compiled
}

func newDefCache(srv *Server, budget int64) *defCache {
	return &defCache{srv: srv, budget: budget, items: map[string]*list.Element{}, order: list.New(), pinned: map[string]*compiled{}}
}

func (c *defCache) pin(x *compiled) {
	c.mu.Lock()
	c.pinned[x.hash] = x
	c.mu.Unlock()
}

// cached returns a game already compiled, without loading it.
func (c *defCache) cached(hash string) (*compiled, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x, ok := c.pinned[hash]; ok {
		return x, true
	}
	if e, ok := c.items[hash]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*compiled), true
	}
	return nil, false
}

// get returns a stored game, compiled.
func (c *defCache) get(ctx context.Context, hash, packName string) (*compiled, error) {
	if x, ok := c.cached(hash); ok {
		return x, nil
	}
	g, err := c.srv.store.Game(ctx, hash)
	if err != nil {
		return nil, err
	}
	if packName == "" {
		packName = g.Pack
	}
	src, err := game.FromBytes(g.Name, g.Data, c.srv.sourceLimits())
	if err != nil {
		return nil, err
	}
	// What was stored loads as it was stored, even text a file sent now
	// could not hold.
	src = src.WithContext(diag.Stored(context.Background()))
	x, list := c.srv.compile(src, packName)
	if x == nil {
		return nil, errors.New(list.Errors().String())
	}
	// The stored bytes are the game: keep their hash even if archiving
	// again would give other bytes.
	x.hash, x.data = hash, g.Data
	return c.put(x), nil
}

// put keeps a compiled game (or returns the one kept already), and lets
// the least recently used go past the budget.
func (c *defCache) put(x *compiled) *compiled {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.pinned[x.hash]; ok {
		return p
	}
	if e, ok := c.items[x.hash]; ok {
		return e.Value.(*compiled)
	}
	c.items[x.hash] = c.order.PushFront(x)
	c.size += int64(len(x.data))
	for c.size > c.budget && c.order.Len() > 1 {
		c.evict(c.order.Back())
	}
	return x
}

func (c *defCache) evict(e *list.Element) {
	x := e.Value.(*compiled)
	c.order.Remove(e)
	delete(c.items, x.hash)
	c.size -= int64(len(x.data))
}

// drop forgets a game (a deleted saved game): matches in memory keep
// theirs, and it is loaded again if another is made on it.
func (c *defCache) drop(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[hash]; ok {
		c.evict(e)
	}
}

// stats reports the games kept (not the operator's) and their files'
// bytes.
func (c *defCache) stats() (games int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.size
}

// --- the library ---

// libEntry is a game of the library: what the lobby shows of it, and for
// the operator's games (bundled and folder ones) the game itself, always
// in memory. A saved game is compiled when used, through the cache.
type libEntry struct {
	info   GameInfo
	pinned *compiled
	// rec is a saved game's entry in the store (its owner's secret's
	// hash, its saver, size and last use).
	rec store.Entry
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
	// drafts are the drafts stored in the last day (draftLife), which
	// count against their authors' quotas.
	drafts []draftRec
}

// draftRec is a draft stored for a client.
type draftRec struct {
	from string // the hash of the client's address
	size int64
	at   time.Time
}

// draftLife is how long a draft counts against its author's quota, and
// how long one no match was made on stays in the store.
const draftLife = 24 * time.Hour

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
		l.addPinned(gameID(n), "bundled", c)
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
		l.addPinned("dir-"+gameID(name), "folder", c)
	}
	return nil
}

// loadSaved adds the games players saved, from what the store keeps of
// them: none is loaded, unless it was saved before the store kept what
// the lobby shows of it (then it is loaded once, and that is kept).
func (l *library) loadSaved(ctx context.Context) error {
	entries, err := l.srv.store.Entries(ctx)
	if err != nil {
		return err
	}
	for _, se := range entries {
		var info GameInfo
		if se.Info == nil || json.Unmarshal(se.Info, &info) != nil {
			c, err := l.srv.defs.get(ctx, se.GameHash, se.Pack)
			if err != nil {
				l.srv.log.Warn("a saved game no longer loads", "id", se.ID, "err", err)
				continue
			}
			info = infoOf(se.ID, "saved", c)
			se.Info, _ = json.Marshal(info)
			se.Size = int64(len(c.data))
			if err := l.srv.store.SaveEntry(ctx, se); err != nil {
				return err
			}
		}
		info.ID, info.Source, info.Hash = se.ID, "saved", se.GameHash
		if se.Name != "" {
			info.Name = se.Name
		}
		l.put(&libEntry{info: info, rec: se})
		l.stored[se.GameHash] = true
	}
	return nil
}

// infoOf is what the lobby shows of a compiled game.
func infoOf(id, source string, c *compiled) GameInfo {
	info := GameInfo{ID: id, Info: c.info, Source: source, File: path.Base(c.file), Hash: c.hash}
	if info.Name == "" {
		info.Name = id
	}
	if p, ok := c.def.(game.Previewer); ok {
		if data, _ := p.Preview(); data != nil {
			info.Preview = "/api/boards/" + id + "/preview"
		}
	}
	return info
}

// addPinned adds an operator's game, kept in memory.
func (l *library) addPinned(id, source string, c *compiled) {
	l.srv.defs.pin(c)
	l.put(&libEntry{info: infoOf(id, source, c), pinned: c})
}

func (l *library) put(e *libEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byID[e.info.ID]; !ok {
		l.order = append(l.order, e.info.ID)
	}
	l.byID[e.info.ID] = e
}

// compiled returns a library game, compiled: the operator's from memory,
// a saved one through the cache.
func (l *library) compiled(ctx context.Context, e *libEntry) (*compiled, error) {
	if e.pinned != nil {
		return e.pinned, nil
	}
	return l.srv.defs.get(ctx, e.info.Hash, e.info.Pack)
}

// errQuota is a saved game past a quota.
type errQuota struct{ msg string }

func (e *errQuota) Error() string { return e.msg }

// save adds a game a player uploaded or saved from the editor, unless the
// library has the same game already (same contents): then that entry is
// returned, and secret is "". A new entry's secret lets its saver rename
// and delete it. A new entry must fit the quotas of its saver's address
// (client) and of the library.
func (l *library) save(ctx context.Context, c *compiled, name, client string) (e *libEntry, secret string, err error) {
	from := store.HashSecret(client)
	l.mu.Lock()
	for _, id := range l.order {
		if x := l.byID[id]; x.info.Hash == c.hash {
			l.mu.Unlock()
			return x, "", nil
		}
	}
	err = l.fits(from, int64(len(c.data)), true)
	l.mu.Unlock()
	if err != nil {
		return nil, "", err
	}
	size := int64(len(c.data))
	if err := l.storeGame(ctx, c); err != nil {
		return nil, "", err
	}
	secret = newSecret()
	id := "g-" + c.hash[:12]
	info := infoOf(id, "saved", c)
	if name != "" {
		info.Name = name
	}
	se := store.Entry{ID: id, GameHash: c.hash, Pack: c.info.Pack, Name: name, File: path.Base(c.file),
		Owner: store.HashSecret(secret), Created: time.Now(), Client: from, Size: size}
	se.Info, _ = json.Marshal(info)
	if err := l.srv.store.SaveEntry(ctx, se); err != nil {
		return nil, "", err
	}
	l.srv.defs.put(c)
	e = &libEntry{info: info, rec: se}
	l.put(e)
	return e, secret, nil
}

// fits checks that a game of size bytes (an entry if entry, else a
// draft) fits the quotas of its saver's address (the hash from) and of
// the library; the caller holds l.mu. Drafts of the last day count in
// the bytes.
func (l *library) fits(from string, size int64, entry bool) error {
	var mine, all int
	var mineBytes, allBytes int64
	for _, id := range l.order {
		x := l.byID[id]
		if x.info.Source != "saved" {
			continue
		}
		all++
		allBytes += x.rec.Size
		if x.rec.Client == from {
			mine++
			mineBytes += x.rec.Size
		}
	}
	for _, d := range l.drafts {
		allBytes += d.size
		if d.from == from {
			mineBytes += d.size
		}
	}
	lim := l.srv.limits
	switch {
	case entry && mine >= lim.SavedGames:
		return &errQuota{fmt.Sprintf("your address keeps %d saved games already, the most one may keep: delete one first", lim.SavedGames)}
	case mineBytes+size > lim.SavedBytes:
		return &errQuota{fmt.Sprintf("your saved games and drafts would take more than %d bytes, the most one address may keep: delete a saved game, or wait a day for drafts to go", lim.SavedBytes)}
	case entry && all >= lim.SavedGamesAll || allBytes+size > lim.SavedBytesAll:
		return &errQuota{"the library is full; try again once some saved games have expired"}
	}
	return nil
}

// saveDraft stores a draft of a client, within its quota.
func (l *library) saveDraft(ctx context.Context, c *compiled, client string, now time.Time) error {
	from := store.HashSecret(client)
	l.mu.Lock()
	known := l.stored[c.hash]
	err := error(nil)
	if !known {
		err = l.fits(from, int64(len(c.data)), false)
	}
	if err == nil && !known {
		l.drafts = append(l.drafts, draftRec{from: from, size: int64(len(c.data)), at: now})
	}
	l.mu.Unlock()
	if err != nil {
		return err
	}
	return l.storeGame(ctx, c)
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

// used notes that a match was made on a library game: a saved game in
// use does not expire. It is written at most once an hour.
func (l *library) used(ctx context.Context, e *libEntry, now time.Time) {
	if e.info.Source != "saved" {
		return
	}
	l.mu.Lock()
	if now.Sub(e.rec.Used) < time.Hour {
		l.mu.Unlock()
		return
	}
	e.rec.Used = now
	rec := e.rec
	l.mu.Unlock()
	if err := l.srv.store.SaveEntry(ctx, rec); err != nil {
		l.srv.log.Warn("noting a saved game's use", "id", rec.ID, "err", err)
	}
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
	l.mu.Lock()
	rec := e.rec
	info := e.info
	l.mu.Unlock()
	info.Name, rec.Name = name, name
	rec.Info, _ = json.Marshal(info)
	if err := l.srv.store.SaveEntry(ctx, rec); err != nil {
		return nil, err
	}
	l.mu.Lock()
	e.info, e.rec = info, rec
	l.mu.Unlock()
	return e, nil
}

// remove deletes a saved game from the library (matches played on it keep
// their copy).
func (l *library) remove(ctx context.Context, id, secret string) error {
	e, err := l.ownEntry(id, secret)
	if err != nil {
		return err
	}
	return l.drop(ctx, e)
}

// drop deletes a saved game: its entry, its compiled game in memory, and
// its file in the store unless a match is played on it.
func (l *library) drop(ctx context.Context, e *libEntry) error {
	if err := l.srv.store.DeleteEntry(ctx, e.info.ID); err != nil {
		return err
	}
	l.mu.Lock()
	delete(l.byID, e.info.ID)
	l.order = slices.DeleteFunc(l.order, func(x string) bool { return x == e.info.ID })
	delete(l.stored, e.info.Hash) // it may leave the store
	l.mu.Unlock()
	l.srv.defs.drop(e.info.Hash)
	return l.srv.store.DeleteGame(ctx, e.info.Hash)
}

// expire deletes the saved games nobody made a match on for SavedExpire
// (since they were saved, or last used), and the drafts (and any game no
// match or entry refers to) stored more than a day ago.
func (l *library) expire(ctx context.Context, now time.Time) {
	// Drafts count for a day; those no match was made on leave then.
	l.mu.Lock()
	l.drafts = slices.DeleteFunc(l.drafts, func(d draftRec) bool { return now.Sub(d.at) > draftLife })
	l.mu.Unlock()
	gone, err := l.srv.store.DeleteUnusedGames(ctx, now.Add(-draftLife))
	if err != nil {
		l.srv.log.Warn("deleting drafts nobody played", "err", err)
	}
	l.mu.Lock()
	for _, h := range gone {
		delete(l.stored, h)
	}
	l.mu.Unlock()
	for _, h := range gone {
		l.srv.defs.drop(h)
	}
	if l.srv.limits.SavedExpire <= 0 {
		return
	}
	var old []*libEntry
	l.mu.Lock()
	for _, id := range l.order {
		e := l.byID[id]
		last := e.rec.Used
		if last.IsZero() {
			last = e.rec.Created
		}
		if e.info.Source == "saved" && now.Sub(last) > l.srv.limits.SavedExpire {
			old = append(old, e)
		}
	}
	l.mu.Unlock()
	for _, e := range old {
		if err := l.drop(ctx, e); err != nil {
			l.srv.log.Warn("expiring a saved game", "id", e.info.ID, "err", err)
			continue
		}
		l.srv.log.Info("a saved game nobody played expired", "id", e.info.ID)
	}
}

func (l *library) ownEntry(id, secret string) (*libEntry, error) {
	e, ok := l.get(id)
	if !ok {
		return nil, store.ErrNotFound
	}
	if e.info.Source != "saved" || !secretIs(secret, e.rec.Owner) {
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
