package pieces

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// The engine types this pack plays.
const (
	Trouble    = "trouble"
	MultiPiece = "multi-piece"
)

// Engines are the engine types this pack plays, as files write them.
var Engines = []string{Trouble, MultiPiece}

// manifestName is the name of a bundle's manifest in its folder.
const manifestName = "board.json"

// at is where something was written: a file and a JSON pointer in it.
type at struct {
	pt  *part
	ptr string
}

func (a at) errorf(format string, args ...any) { a.pt.errorf(a.ptr, format, args...) }
func (a at) warnf(format string, args ...any)  { a.pt.warnf(a.ptr, format, args...) }

// gameFile is a game as its file (or bundle) writes it, before it is
// checked against its board and compiled.
type gameFile struct {
	Name, Author, Description string
	// HowToPlay tells players how the game is played (metadata.howToPlay).
	HowToPlay          string
	Engine             string
	engineAt, configAt at
	// Players: 0 when the file does not say.
	MinPlayers, MaxPlayers int
	minAt, maxAt           at

	// engine.config
	Pieces     int // 0: not given
	piecesAt   at
	Capture    *bool
	captureAt  at
	Safe       []ref
	Placings   bool
	EnterOn    []int
	hasEnterOn bool
	enterAt    at
	Track      int
	trackAt    at
	Lane       int
	laneAt     at
	Offsets    []int
	offsetsAt  at

	// rules
	DiceCount, DiceSides int
	diceAt               at
	RollAgain            []int
	hasRollAgain         bool
	rollAgainAt          at
	StartZones           []zone
	startAt              at
	HomeZones            []zone
	homeAt               at
	hasWin               bool
	RulesCapture         *bool
	rulesCaptureAt       at
	CaptureSafe          []ref

	Spaces  []rawSpace
	spaceAt at // the spaces array
	Render  map[string]any
}

// zone is one player's start or home zone: "player1": ["a", "b"].
type zone struct {
	Key    string
	Player int // 0-based, from the key
	Spaces []ref
	at     at
}

// rawSpace is a space as the file writes it.
type rawSpace struct {
	ID, Name, Type          string
	X, Y, Size              float64
	Color, TextColor, Shape string
	Conns                   []rawConn
	Triggers                []rawTrigger
	Safe                    bool
	at                      at
}

// rawConn is a connection as the file writes it.
type rawConn struct {
	Target ref
	Draw   bool
}

// rawTrigger is a space's trigger as the file writes it.
type rawTrigger struct {
	When     string
	Action   Action
	Priority engine.Priority
	at       at
}

// readSource reads the game at src: a bundle folder (or zip), a bundle
// manifest, or a v3 file. Every file is read through src. It returns the
// game as written (nil when it cannot be read at all) and the files read,
// which hold the diagnostics.
func readSource(src *game.Source) (*gameFile, []*part) {
	if src.IsDir() {
		return readBundle(src, manifestName)
	}
	data, err := src.Data()
	if err != nil {
		return nil, []*part{failedPart(readError(src.Name(), err))}
	}
	if isManifest(data) {
		return readBundle(src, src.Main())
	}
	pt := newPart(src.Context(), src.Name(), data)
	obj, ok := pt.decode(data)
	if !ok {
		return nil, []*part{pt}
	}
	return readV3(pt, obj), []*part{pt}
}

// failedPart is a file that could not be read, with the diagnostic that
// says why.
func failedPart(d diag.Diagnostic) *part {
	pt := newPart(context.Background(), d.File, nil)
	pt.rep.At(diag.Error, "", 0, 0, d.Message)
	return pt
}

// readError is the diagnostic of a file that cannot be read.
func readError(name string, err error) diag.Diagnostic {
	msg := err.Error()
	var pe *fs.PathError
	var le *game.LimitError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg = "no such file or folder"
	case errors.As(err, &le):
		msg = le.Error()
	case errors.As(err, &pe):
		msg = pe.Err.Error()
	}
	return diag.Diagnostic{File: name, Severity: diag.Error, Message: "cannot read the game: " + msg}
}

// isManifest reports whether a file is a bundle's board.json manifest.
func isManifest(data []byte) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return false
	}
	return obj["schema_version"] != nil && obj["paths"] != nil
}

// readV3 reads a v3 game file: {"type": "game", "metadata", "requirements",
// "engine", "ui", "rules", "board": {"topology", "rendering"}}.
func readV3(pt *part, obj map[string]any) *gameFile {
	f := &gameFile{}
	pt.checkKeys(obj, "", "a v3 game", []string{"$schema", "version", "type", "metadata", "requirements", "engine", "ui", "rules", "board"})
	if t, ok := pt.str(obj, "", "type"); ok && t != "game" {
		pt.errorf("/type", `a v3 game file says "type": "game", not %q`, t)
	}
	eng, ok := pt.obj(obj, "", "engine")
	if !ok {
		if obj["engine"] == nil {
			pt.errorf("/engine", `a game of pieces needs "engine": {"type": %q or %q, "config": {…}}`, Trouble, MultiPiece)
		}
		return nil
	}
	if !readEngine(pt, eng, "/engine", f) {
		return nil
	}
	if meta, ok := pt.obj(obj, "", "metadata"); ok {
		readMetadata(pt, meta, "/metadata", f)
	}
	if req, ok := pt.obj(obj, "", "requirements"); ok {
		readRequirements(pt, req, "/requirements", f)
	}
	if rules, ok := pt.obj(obj, "", "rules"); ok {
		readRules(pt, rules, "/rules", f)
	}
	board, ok := pt.obj(obj, "", "board")
	if !ok {
		if obj["board"] == nil {
			pt.errorf("/board", `a v3 game needs "board": {"topology": {"spaces": […]}}`)
		}
		return nil
	}
	pt.checkKeys(board, "/board", "board", []string{"topology", "rendering", "settings"})
	if r, ok := pt.obj(board, "/board", "rendering"); ok {
		f.Render = r
	}
	topo, ok := pt.obj(board, "/board", "topology")
	if !ok {
		if board["topology"] == nil {
			pt.errorf("/board/topology", `a v3 board needs "topology": {"spaces": […]}`)
		}
		return nil
	}
	readTopology(pt, topo, "/board/topology", f)
	return f
}

// bundleParts are the files a bundle manifest may name, in the order they
// are read: the engine first, since it says what the rest means.
var bundleParts = []string{"engine", "metadata", "dependencies", "rules", "settings", "ui", "topology"}

// readBundle reads a bundle: a manifest (named manifest in src) naming the
// files of its parts, which together make a v3 game.
func readBundle(src *game.Source, manifest string) (*gameFile, []*part) {
	data, err := src.ReadFile(manifest)
	if err != nil {
		d := readError(src.Path(manifest), err)
		d.Message = "not a bundle: a bundle folder holds a board.json manifest (" + strings.TrimPrefix(d.Message, "cannot read the game: ") + ")"
		return nil, []*part{failedPart(d)}
	}
	mp := newPart(src.Context(), src.Path(manifest), data)
	parts := []*part{mp}
	obj, ok := mp.decode(data)
	if !ok {
		return nil, parts
	}
	mp.checkKeys(obj, "", "a bundle manifest", []string{"schema_version", "id", "paths", "assetsRoot"})
	if v, has := obj["schema_version"]; !has {
		mp.errorf("/schema_version", `a bundle manifest needs "schema_version": 2`)
	} else if n, ok := wholeNumber(v); !ok || n < 2 {
		mp.errorf("/schema_version", "schema_version must be 2 or more, not %s", diag.Describe(v))
	}
	if _, ok := mp.str(obj, "", "id"); !ok && obj["id"] == nil {
		mp.errorf("/id", `a bundle manifest needs an "id" naming the board`)
	}
	paths, ok := mp.obj(obj, "", "paths")
	if !ok {
		if obj["paths"] == nil {
			mp.errorf("/paths", `a bundle manifest needs "paths": {"engine": "engine.json", "topology": "topology.json", …}`)
		}
		return nil, parts
	}
	mp.checkKeys(paths, "/paths", "paths", bundleParts)
	f := &gameFile{}
	read := map[string]bool{}
	for _, key := range bundleParts {
		pptr := "/paths/" + key
		rel, ok := mp.str(paths, "/paths", key)
		if !ok {
			if paths[key] == nil && (key == "engine" || key == "topology") {
				mp.errorf(pptr, "paths needs %q: the file with the %s", key, partWhat[key])
			}
			if key == "engine" {
				return nil, parts
			}
			continue
		}
		name, err := src.Resolve(manifest, rel)
		if err != nil {
			mp.errorf(pptr, "%q must be a path inside the bundle folder", rel)
			continue
		}
		pdata, err := src.ReadFile(name)
		if err != nil {
			mp.errorf(pptr, "cannot read %q: %s", rel, strings.TrimPrefix(readError(name, err).Message, "cannot read the game: "))
			if key == "engine" {
				return nil, parts
			}
			continue
		}
		pt := newPart(src.Context(), src.Path(name), pdata)
		parts = append(parts, pt)
		m, ok := pt.decode(pdata)
		if !ok {
			if key == "engine" {
				return nil, parts
			}
			continue
		}
		read[key] = true
		switch key {
		case "engine":
			if !readEngine(pt, m, "", f) {
				return nil, parts
			}
		case "metadata":
			readMetadata(pt, m, "", f)
		case "dependencies":
			readRequirements(pt, m, "", f)
		case "rules":
			readRules(pt, m, "", f)
		case "settings":
			pt.checkKeys(m, "", "the settings file", []string{"renderConfig"})
			if rc, ok := pt.obj(m, "", "renderConfig"); ok {
				f.Render = rc
			}
		case "topology":
			readTopology(pt, m, "", f)
		}
	}
	if !read["topology"] {
		return nil, parts
	}
	return f, parts
}

var partWhat = map[string]string{"engine": "engine type and its settings", "topology": "spaces"}

func readMetadata(pt *part, meta map[string]any, ptr string, f *gameFile) {
	pt.checkKeys(meta, ptr, "metadata", []string{"name", "author", "description", "howToPlay", "notes", "version", "created", "modified", "tags", "thumbnail", "id"})
	f.Name, _ = pt.str(meta, ptr, "name")
	f.Author, _ = pt.str(meta, ptr, "author")
	f.Description, _ = pt.str(meta, ptr, "description")
	f.HowToPlay, _ = pt.str(meta, ptr, "howToPlay")
}

// readRequirements reads requirements (or a bundle's dependencies): the
// player counts, and plugins, which Tabula does not load.
func readRequirements(pt *part, req map[string]any, ptr string, f *gameFile) {
	pt.checkKeys(req, ptr, "requirements", []string{"plugins", "minPlayers", "maxPlayers"})
	readPlayers(pt, req, ptr, f)
	plugins, _ := pt.arr(req, ptr, "plugins")
	for i, pv := range plugins {
		pm, ok := pv.(map[string]any)
		if !ok {
			pt.errorf(fmt.Sprintf("%s/plugins/%d", ptr, i), "a plugin must be an object, not %s", diag.JSONKind(pv))
			continue
		}
		id, _ := pm["id"].(string)
		if source, _ := pm["source"].(string); id == "core" || source == "builtin" {
			continue
		}
		pt.warnf(fmt.Sprintf("%s/plugins/%d", ptr, i), "plugin %q is not loaded: Tabula plays the %s engine with its own rules", id, f.Engine)
	}
}

// maxSeats bounds the players of any game of pieces.
const maxSeats = 12

func readPlayers(pt *part, m map[string]any, ptr string, f *gameFile) {
	if n, ok := pt.whole(m, ptr, "minPlayers", 1, maxSeats); ok {
		f.MinPlayers, f.minAt = n, at{pt, ptr + "/minPlayers"}
	}
	if n, ok := pt.whole(m, ptr, "maxPlayers", 1, maxSeats); ok {
		f.MaxPlayers, f.maxAt = n, at{pt, ptr + "/maxPlayers"}
	}
}

// readEngine reads {"type", "config"}; it reports false when the engine is
// not one of this pack's, and nothing else should be read.
func readEngine(pt *part, m map[string]any, ptr string, f *gameFile) bool {
	pt.checkKeys(m, ptr, "engine", []string{"type", "config"})
	typ, ok := pt.str(m, ptr, "type")
	if !ok {
		if m["type"] == nil {
			pt.errorf(ptr+"/type", "the engine needs a type: %s", strings.Join(Engines, " or "))
		}
		return false
	}
	if !slices.Contains(Engines, typ) {
		pt.errorf(ptr+"/type", "the %q engine is not a game of pieces%s: this pack plays %s", typ, pt.rep.DidYouMean(typ, Engines), strings.Join(Engines, " and "))
		return false
	}
	f.Engine, f.engineAt = typ, at{pt, ptr + "/type"}
	cptr := ptr + "/config"
	f.configAt = at{pt, cptr}
	cfg, ok := pt.obj(m, ptr, "config")
	if !ok {
		return true
	}
	known := []string{"piecesPerPlayer", "allowCapture", "safeSpaces", "placings", "enterOn"}
	ignored := map[string]string{}
	switch typ {
	case Trouble:
		known = append(known, "trackLength", "finishLength", "startOffsets", "debugChooseRoll")
		ignored["debugChooseRoll"] = "rolls come from the match's seed; scenario files script them (\"rolls\")"
	case MultiPiece:
		known = append(known, "turnTimer", "autoRoll")
		ignored["turnTimer"] = "a server sets a turn's time limit for its matches"
	}
	pt.checkKeys(cfg, cptr, "engine.config", known)
	for _, k := range slices.Sorted(mapKeys(ignored)) {
		if _, has := cfg[k]; has {
			pt.warnf(cptr+"/"+k, "%s is ignored: %s", k, ignored[k])
		}
	}
	if on, ok := pt.boolean(cfg, cptr, "autoRoll"); ok && on {
		pt.warnf(cptr+"/autoRoll", "autoRoll is ignored: players roll the die themselves, so that every turn is seen")
	}
	if n, ok := pt.whole(cfg, cptr, "piecesPerPlayer", 1, maxPieces); ok {
		f.Pieces, f.piecesAt = n, at{pt, cptr + "/piecesPerPlayer"}
	}
	if b, ok := pt.boolean(cfg, cptr, "allowCapture"); ok {
		f.Capture, f.captureAt = &b, at{pt, cptr + "/allowCapture"}
	}
	if refs, ok := pt.refs(cfg, cptr, "safeSpaces"); ok {
		f.Safe = append(f.Safe, refs...)
	}
	f.Placings, _ = pt.boolean(cfg, cptr, "placings")
	if rolls, ok := pt.wholes(cfg, cptr, "enterOn", 1, maxRoll); ok {
		f.EnterOn, f.hasEnterOn, f.enterAt = rolls, true, at{pt, cptr + "/enterOn"}
	}
	if typ == Trouble {
		// The original reads 0 (or nothing) as the default.
		if n, ok := pt.whole(cfg, cptr, "trackLength", 0, maxSpaces); ok && n > 0 {
			f.Track, f.trackAt = n, at{pt, cptr + "/trackLength"}
		}
		if n, ok := pt.whole(cfg, cptr, "finishLength", 0, maxSpaces); ok && n > 0 {
			f.Lane, f.laneAt = n, at{pt, cptr + "/finishLength"}
		}
		if offs, ok := pt.wholes(cfg, cptr, "startOffsets", 0, maxSpaces); ok && len(offs) > 0 {
			f.Offsets, f.offsetsAt = offs, at{pt, cptr + "/startOffsets"}
		}
	}
	return true
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Bounds of what a game may declare.
const (
	maxPieces = 16
	maxSpaces = 4096
	maxDice   = 6
	maxSides  = 20
	maxRoll   = maxDice * maxSides
	// maxTriggers bounds a space's triggers.
	maxTriggers = 255
	// maxConnections bounds a board's connections: with maxRoll, it
	// bounds the search for a multi-piece roll's moves.
	maxConnections = 16384
)

// winTypes are the win conditions a game of pieces may declare.
var winTypes = []string{"all-pieces-home"}

// readRules reads the rules object of v3 games and bundles.
func readRules(pt *part, m map[string]any, ptr string, f *gameFile) {
	pt.checkKeys(m, ptr, "rules", []string{"turnOrder", "startingPositions", "recommendedPlayers", "diceRolling", "winCondition", "capture", "minPlayers", "maxPlayers"})
	if t, ok := pt.str(m, ptr, "turnOrder"); ok && t != "sequential" {
		pt.warnf(ptr+"/turnOrder", "turn order %q is not supported: players take turns in seat order (\"sequential\")", t)
	}
	readPlayers(pt, m, ptr, f)
	if sp, ok := pt.obj(m, ptr, "startingPositions"); ok {
		sptr := ptr + "/startingPositions"
		pt.checkKeys(sp, sptr, "startingPositions", []string{"mode", "startZones", "spaceIds", "distribution"})
		if z, ok := pt.obj(sp, sptr, "startZones"); ok {
			f.StartZones, f.startAt = readZones(pt, z, sptr+"/startZones"), at{pt, sptr + "/startZones"}
		}
	}
	if d, ok := pt.obj(m, ptr, "diceRolling"); ok {
		dptr := ptr + "/diceRolling"
		f.diceAt = at{pt, dptr}
		pt.checkKeys(d, dptr, "diceRolling", []string{"enabled", "diceCount", "diceSides", "rollAgainOn"})
		if on, ok := pt.boolean(d, dptr, "enabled"); ok && !on {
			pt.errorf(dptr+"/enabled", "a game of pieces is played with dice: enabled must be true (or left out)")
		}
		f.DiceCount, _ = pt.whole(d, dptr, "diceCount", 1, maxDice)
		f.DiceSides, _ = pt.whole(d, dptr, "diceSides", 2, maxSides)
		if rolls, ok := pt.wholes(d, dptr, "rollAgainOn", 1, maxRoll); ok {
			f.RollAgain, f.hasRollAgain, f.rollAgainAt = rolls, true, at{pt, dptr + "/rollAgainOn"}
		}
	}
	if c, ok := pt.obj(m, ptr, "capture"); ok {
		cptr := ptr + "/capture"
		pt.checkKeys(c, cptr, "capture", []string{"enabled", "safeSpaces", "captureAction"})
		if b, ok := pt.boolean(c, cptr, "enabled"); ok {
			f.RulesCapture, f.rulesCaptureAt = &b, at{pt, cptr + "/enabled"}
		}
		if refs, ok := pt.refs(c, cptr, "safeSpaces"); ok {
			f.CaptureSafe = refs
		}
		if a, ok := pt.str(c, cptr, "captureAction"); ok && a != "sendToStart" {
			pt.errorf(cptr+"/captureAction", "captureAction %q is not supported: a captured piece goes back to its start (\"sendToStart\")", a)
		}
	}
	wc, ok := pt.obj(m, ptr, "winCondition")
	if !ok || len(wc) == 0 {
		return
	}
	wptr := ptr + "/winCondition"
	pt.checkKeys(wc, wptr, "winCondition", []string{"type", "config"})
	typ, ok := pt.str(wc, wptr, "type")
	switch {
	case !ok:
		if wc["type"] == nil {
			pt.errorf(wptr+"/type", `a winCondition needs a type: "all-pieces-home"`)
		}
		return
	case !slices.Contains(winTypes, typ):
		pt.errorf(wptr+"/type", "unknown winCondition %q%s: a game of pieces is won with \"all-pieces-home\"", typ, pt.rep.DidYouMean(typ, winTypes))
		return
	}
	f.hasWin = true
	cfg, _ := pt.obj(wc, wptr, "config")
	cptr := wptr + "/config"
	pt.checkKeys(cfg, cptr, "winCondition.config", []string{"homeZones"})
	if z, ok := pt.obj(cfg, cptr, "homeZones"); ok {
		f.HomeZones, f.homeAt = readZones(pt, z, cptr+"/homeZones"), at{pt, cptr + "/homeZones"}
	}
}

// readZones reads {"player1": [ids], "player2": [ids], …}, in player order.
func readZones(pt *part, m map[string]any, ptr string) []zone {
	var out []zone
	for _, key := range slices.Sorted(mapKeys(m)) {
		kptr := ptr + "/" + diag.Escape(key)
		var n int
		if _, err := fmt.Sscanf(key, "player%d", &n); err != nil || key != fmt.Sprintf("player%d", n) || n < 1 || n > maxSeats {
			pt.errorf(kptr, "zones are named player1 to player%d, not %q", maxSeats, key)
			continue
		}
		refs, ok := pt.refs(m, ptr, key)
		if !ok {
			continue
		}
		if len(refs) == 0 {
			pt.errorf(kptr, "a zone needs at least one space")
			continue
		}
		out = append(out, zone{Key: key, Player: n - 1, Spaces: refs, at: at{pt, kptr}})
	}
	slices.SortFunc(out, func(a, b zone) int { return a.Player - b.Player })
	return out
}

// readTopology reads {"spaces": […], "connections": []}.
func readTopology(pt *part, topo map[string]any, ptr string, f *gameFile) {
	pt.checkKeys(topo, ptr, "topology", []string{"spaces", "connections"})
	if conns, ok := pt.arr(topo, ptr, "connections"); ok && len(conns) > 0 {
		pt.errorf(ptr+"/connections", "connections listed beside the spaces are not read: list each connection in its space's \"connections\"")
	}
	sptr := ptr + "/spaces"
	f.spaceAt = at{pt, sptr}
	list, ok := pt.arr(topo, ptr, "spaces")
	if !ok {
		if topo["spaces"] == nil {
			pt.errorf(sptr, "a board needs spaces: an array of at least one space")
		}
		return
	}
	if len(list) > maxSpaces {
		pt.errorf(sptr, "a board has at most %d spaces, not %d", maxSpaces, len(list))
		return
	}
	seen := map[string]string{}
	conns := 0
	for i, v := range list {
		s, ok := readSpace(pt, v, fmt.Sprintf("%s/%d", sptr, i))
		if !ok {
			continue
		}
		if conns += len(s.Conns); conns > maxConnections {
			pt.errorf(s.at.ptr+"/connections", "a board has at most %d connections in all", maxConnections)
			return
		}
		if first, dup := seen[s.ID]; dup {
			pt.errorf(s.at.ptr+"/id", "duplicate space id %q: %s has it too; every space needs its own id", s.ID, first)
			continue
		}
		seen[s.ID] = s.at.ptr
		f.Spaces = append(f.Spaces, s)
	}
}

var spaceKeys = []string{"id", "name", "type", "position", "visual", "properties", "connections", "triggers"}

func readSpace(pt *part, v any, ptr string) (rawSpace, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr, "a space must be an object, not %s", diag.JSONKind(v))
		return rawSpace{}, false
	}
	pt.checkKeys(m, ptr, "a space", spaceKeys)
	s := rawSpace{at: at{pt, ptr}}
	if idv := m["id"]; idv == nil {
		pt.errorf(ptr+"/id", "a space needs an id (a string or a whole number)")
		return s, false
	} else if s.ID, ok = pt.spaceID(idv, ptr+"/id"); !ok {
		return s, false
	}
	s.Name, _ = pt.str(m, ptr, "name")
	s.Type, _ = pt.str(m, ptr, "type")
	if pos, ok := pt.obj(m, ptr, "position"); ok {
		s.X, _ = pt.num(pos, ptr+"/position", "x")
		s.Y, _ = pt.num(pos, ptr+"/position", "y")
	}
	if vis, ok := pt.obj(m, ptr, "visual"); ok {
		vptr := ptr + "/visual"
		s.Size, _ = pt.num(vis, vptr, "size")
		s.Color, _ = pt.str(vis, vptr, "color")
		s.TextColor, _ = pt.str(vis, vptr, "textColor")
		s.Shape, _ = pt.str(vis, vptr, "shape")
		if x, ok := pt.num(vis, vptr, "x"); ok {
			s.X = x
		}
		if y, ok := pt.num(vis, vptr, "y"); ok {
			s.Y = y
		}
	}
	if props, ok := pt.obj(m, ptr, "properties"); ok {
		pptr := ptr + "/properties"
		pt.checkKeys(props, pptr, "properties", []string{"isSafe", "isHome", "maxPieces"})
		s.Safe, _ = pt.boolean(props, pptr, "isSafe")
		pt.boolean(props, pptr, "isHome")
		pt.whole(props, pptr, "maxPieces", 0, 1<<20)
	}
	if conns, ok := pt.arr(m, ptr, "connections"); ok {
		for j, cv := range conns {
			cptr := fmt.Sprintf("%s/connections/%d", ptr, j)
			cm, ok := cv.(map[string]any)
			if !ok {
				pt.errorf(cptr, "a connection must be an object, not %s", diag.JSONKind(cv))
				continue
			}
			pt.checkKeys(cm, cptr, "a connection", []string{"targetId", "draw", "condition", "weight"})
			if cm["condition"] != nil {
				pt.warnf(cptr+"/condition", "connection conditions are not supported: pieces may always take this connection")
			}
			tv := cm["targetId"]
			if tv == nil {
				pt.errorf(cptr+"/targetId", "a connection needs a targetId: the id of the space it leads to")
				continue
			}
			id, ok := pt.spaceID(tv, cptr+"/targetId")
			if !ok {
				continue
			}
			draw := true
			if d, ok := pt.boolean(cm, cptr, "draw"); ok {
				draw = d
			}
			s.Conns = append(s.Conns, rawConn{Target: ref{pt: pt, ptr: cptr + "/targetId", id: id}, Draw: draw})
		}
	}
	if trs, ok := pt.arr(m, ptr, "triggers"); ok {
		if len(trs) > maxTriggers {
			pt.errorf(ptr+"/triggers", "a space has at most %d triggers, not %d", maxTriggers, len(trs))
			trs = trs[:maxTriggers]
		}
		for j, tv := range trs {
			if t, ok := readTrigger(pt, tv, fmt.Sprintf("%s/triggers/%d", ptr, j)); ok {
				s.Triggers = append(s.Triggers, t)
			}
		}
	}
	return s, true
}

// The moments a space's trigger may listen to.
const (
	OnEnter = "ON_ENTER"
	OnLand  = "ON_LAND"
	OnExit  = "ON_EXIT"
)

var whenTypes = []string{OnEnter, OnLand, OnExit}

func readTrigger(pt *part, v any, ptr string) (rawTrigger, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr, "a trigger must be an object, not %s", diag.JSONKind(v))
		return rawTrigger{}, false
	}
	pt.checkKeys(m, ptr, "a trigger", []string{"when", "action", "priority", "state"})
	t := rawTrigger{at: at{pt, ptr}, Priority: engine.Mid}
	when, ok := pt.obj(m, ptr, "when")
	if !ok {
		if m["when"] == nil {
			pt.errorf(ptr+"/when", `a trigger needs "when": {"type": %s}`, strings.Join(whenTypes, ", "))
		}
		return t, false
	}
	pt.checkKeys(when, ptr+"/when", "when", []string{"type", "payload"})
	typ, ok := pt.str(when, ptr+"/when", "type")
	if !ok {
		if when["type"] == nil {
			pt.errorf(ptr+"/when/type", "when needs a type: %s", strings.Join(whenTypes, ", "))
		}
		return t, false
	}
	name := normalizeName(typ)
	if !slices.Contains(whenTypes, name) {
		msg := "pieces move on their own"
		if name == "CODE" {
			msg = "CODE conditions belong to party boards; a game of pieces fires triggers when a piece moves"
		}
		pt.errorf(ptr+"/when/type", "unknown trigger %q%s: %s, so a space's triggers are %s", typ, pt.rep.DidYouMean(name, whenTypes), msg, strings.Join(whenTypes, ", "))
		return t, false
	}
	t.When = name
	if p, ok := pt.str(m, ptr, "priority"); ok {
		pr, known := engine.ParsePriority(normalizeName(p))
		if !known {
			pt.errorf(ptr+"/priority", "unknown priority %q%s; the priorities are %s", p, pt.rep.DidYouMean(normalizeName(p), engine.PriorityNames), strings.Join(engine.PriorityNames, ", "))
			return t, false
		}
		t.Priority = pr
	}
	if s, ok := pt.str(m, ptr, "state"); ok && normalizeName(s) != "READY" {
		pt.warnf(ptr+"/state", "a trigger's state is ignored: every trigger starts ready")
	}
	av, ok := pt.obj(m, ptr, "action")
	if !ok {
		if m["action"] == nil {
			pt.errorf(ptr+"/action", `a trigger needs an "action": {"type": …, "payload": {…}}`)
		}
		return t, false
	}
	t.Action, ok = readAction(pt, av, ptr+"/action")
	return t, ok
}

// normalizeName is the original's normalisation of trigger, action and
// priority names: upper-case, runs of white space become "_", and other
// characters that are not letters, digits or "_" are dropped.
func normalizeName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			space = true
			continue
		case space:
			b.WriteByte('_')
		}
		space = false
		if r == '_' || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// detectSource reports whether src is a game of this pack: a v3 file, a
// bundle manifest, or a bundle folder whose engine is trouble or
// multi-piece. It reads as little as it can and never fails.
// inertZones reports whether a multi-piece file's start or home zones name
// spaces its board does not have. The original game had no multi-piece
// engine: it played every such file turn by turn, one token each, its zones
// inert; a file written for it so (the original's own example) is left to
// the party pack, which plays it that way with a warning.
func inertZones(data []byte) bool {
	var f struct {
		Board struct {
			Topology struct {
				Spaces []struct {
					ID json.RawMessage `json:"id"`
				} `json:"spaces"`
			} `json:"topology"`
		} `json:"board"`
		Rules struct {
			StartingPositions struct {
				StartZones map[string][]json.RawMessage `json:"startZones"`
			} `json:"startingPositions"`
			WinCondition struct {
				Config struct {
					HomeZones map[string][]json.RawMessage `json:"homeZones"`
				} `json:"config"`
			} `json:"winCondition"`
		} `json:"rules"`
	}
	if json.Unmarshal(data, &f) != nil {
		return false
	}
	id := func(raw json.RawMessage) string { return strings.Trim(string(raw), `" `) }
	spaces := map[string]bool{}
	for _, sp := range f.Board.Topology.Spaces {
		spaces[id(sp.ID)] = true
	}
	for _, zones := range []map[string][]json.RawMessage{f.Rules.StartingPositions.StartZones, f.Rules.WinCondition.Config.HomeZones} {
		for _, zone := range zones {
			for _, sp := range zone {
				if !spaces[id(sp)] {
					return true
				}
			}
		}
	}
	return false
}

func detectSource(src *game.Source) bool {
	manifest := ""
	switch {
	case src.IsDir():
		if !src.Exists(manifestName) {
			return false
		}
		manifest = manifestName
	default:
		data, err := src.Data()
		if err != nil {
			return false
		}
		if isManifest(data) {
			manifest = src.Main()
			break
		}
		var head struct {
			Game   string `json:"game"`
			Type   string `json:"type"`
			Engine struct {
				Type string `json:"type"`
			} `json:"engine"`
		}
		if json.Unmarshal(data, &head) != nil {
			return false
		}
		return (head.Game == "" || head.Game == "pieces") && slices.Contains(Engines, head.Engine.Type) &&
			!(head.Engine.Type == MultiPiece && inertZones(data))
	}
	data, err := src.ReadFile(manifest)
	if err != nil {
		return false
	}
	var m struct {
		Paths struct {
			Engine string `json:"engine"`
		} `json:"paths"`
	}
	if json.Unmarshal(data, &m) != nil || m.Paths.Engine == "" {
		return false
	}
	name, err := src.Resolve(manifest, m.Paths.Engine)
	if err != nil {
		return false
	}
	data, err = src.ReadFile(name)
	if err != nil {
		return false
	}
	var eng struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(data, &eng) == nil && slices.Contains(Engines, eng.Type)
}
