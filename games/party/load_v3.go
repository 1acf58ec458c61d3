package party

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"path"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
)

// v3 reads the single-file game definition of the original's version 3:
// {"type": "game", "metadata", "requirements", "engine", "rules", "board": {"topology", "rendering"}}.
func (p *parser) v3(pt *part, obj map[string]any) *Board {
	pt.schemaDef = "v3"
	b := &Board{File: pt.file, SpacesFile: pt.file, Format: "v3", EngineType: "turn-based", Rules: defaultRules()}
	pt.checkKeys(obj, "", "a v3 game", []string{"$schema", "version", "type", "metadata", "requirements", "engine", "ui", "rules", "board"})
	if eng, ok := pt.obj(obj, "", "engine"); ok && !p.engine(pt, eng, "/engine", b) {
		return nil
	}
	if meta, ok := pt.obj(obj, "", "metadata"); ok {
		readMetadataV3(pt, meta, "/metadata", b)
	}
	if req, ok := pt.obj(obj, "", "requirements"); ok {
		readRequirements(pt, req, "/requirements", &b.Rules)
	}
	if rules, ok := pt.obj(obj, "", "rules"); ok {
		p.rulesV3(pt, rules, "/rules", &b.Rules)
	}
	b.Rules.MaxTurns = configMaxTurns(pt, b.EngineConfig, "/engine/config")
	board, ok := pt.obj(obj, "", "board")
	if !ok {
		if obj["board"] == nil {
			pt.errorf("/board", `a v3 game needs "board": {"topology": {"spaces": […]}}`)
		}
		return b
	}
	pt.checkKeys(board, "/board", "board", []string{"topology", "rendering", "settings"})
	if r, ok := pt.obj(board, "/board", "rendering"); ok {
		b.Render = plainJSON(r).(map[string]any)
	}
	topo, ok := pt.obj(board, "/board", "topology")
	if !ok {
		if board["topology"] == nil {
			pt.errorf("/board/topology", `a v3 board needs "topology": {"spaces": […]}`)
		}
		return b
	}
	b.Spaces = p.topology(pt, topo, "/board/topology")
	return b
}

// topology reads {"spaces": […], "connections": […]}.
func (p *parser) topology(pt *part, topo map[string]any, ptr string) []Space {
	pt.checkKeys(topo, ptr, "topology", []string{"spaces", "connections"})
	if conns, ok := pt.arr(topo, ptr, "connections"); ok && len(conns) > 0 {
		pt.errorf(ptr+"/connections", "connections listed beside the spaces are not read: list each connection in its space's \"connections\"")
	}
	p.spacesPt, p.spacesPtr = pt, ptr+"/spaces"
	return p.spaces(pt, topo["spaces"], ptr+"/spaces", v3Shape)
}

func readMetadataV3(pt *part, meta map[string]any, ptr string, b *Board) {
	pt.checkKeys(meta, ptr, "metadata", []string{"name", "author", "description", "howToPlay", "notes", "version", "created", "modified", "tags", "thumbnail", "id"})
	b.Name, _ = pt.str(meta, ptr, "name")
	b.Author, _ = pt.str(meta, ptr, "author")
	b.Description, _ = pt.str(meta, ptr, "description")
	b.HowToPlay, _ = pt.str(meta, ptr, "howToPlay")
	b.Notes, _ = pt.str(meta, ptr, "notes")
	b.Version, _ = pt.str(meta, ptr, "version")
	b.Tags = readTags(pt, meta, ptr)
}

// readRequirements reads requirements (or a bundle's dependencies): the
// player counts, and plugins, which Tabula does not load.
func readRequirements(pt *part, req map[string]any, ptr string, r *GameRules) {
	pt.checkKeys(req, ptr, "requirements", []string{"plugins", "minPlayers", "maxPlayers"})
	readPlayerCounts(pt, req, ptr, "minPlayers", "maxPlayers", 1, &r.MinPlayers, &r.MaxPlayers)
	plugins, _ := pt.arr(req, ptr, "plugins")
	for i, pv := range plugins {
		pm, ok := pv.(map[string]any)
		if !ok {
			continue // the schema reports it
		}
		id, _ := pm["id"].(string)
		if id == "core" {
			continue
		}
		name := ""
		if n, ok := pm["name"].(string); ok && n != "" {
			name = " (" + n + ")"
		}
		pt.warnf(fmt.Sprintf("%s/plugins/%d", ptr, i), "plugin %q%s is not loaded: Tabula plays the board with its own rules, without plugins", id, name)
	}
}

var winTypes = []string{"reach-end", "reach-space"}

// rulesV3 reads the rules object of v3 games and bundles.
func (p *parser) rulesV3(pt *part, m map[string]any, ptr string, r *GameRules) {
	pt.checkKeys(m, ptr, "rules", []string{"turnOrder", "startingPositions", "recommendedPlayers", "diceRolling", "winCondition", "capture", "minPlayers", "maxPlayers"})
	if t, ok := pt.str(m, ptr, "turnOrder"); ok && t != "sequential" {
		pt.warnf(ptr+"/turnOrder", "turn order %q is not supported: players take turns in seat order (\"sequential\")", t)
	}
	if sp, ok := pt.obj(m, ptr, "startingPositions"); ok {
		r.Start = p.startingPositions(pt, sp, ptr+"/startingPositions", true)
	}
	if rec, ok := pt.obj(m, ptr, "recommendedPlayers"); ok {
		readPlayerCounts(pt, rec, ptr+"/recommendedPlayers", "min", "max", 0, &r.RecommendedMin, &r.RecommendedMax)
	}
	readPlayerCounts(pt, m, ptr, "minPlayers", "maxPlayers", 1, &r.MinPlayers, &r.MaxPlayers)
	minPtr := ptr + "/minPlayers"
	if m["minPlayers"] == nil {
		minPtr = ptr
	}
	checkPlayerCounts(pt, r, minPtr, ptr+"/recommendedPlayers/min")
	if d, ok := pt.obj(m, ptr, "diceRolling"); ok {
		dptr := ptr + "/diceRolling"
		if on, ok := pt.boolean(d, dptr, "enabled"); ok && !on {
			pt.warnf(dptr+"/enabled", "players always roll dice: enabled false is ignored")
		}
		if n, ok := pt.wholeIn(d, dptr, "diceCount", 1, MaxDice, "how many dice a roll has"); ok {
			r.Dice.Count = n
		}
		if n, ok := pt.wholeIn(d, dptr, "diceSides", 1, MaxSides, "the sides of each die"); ok {
			r.Dice.Sides = n
		}
		if again, ok := pt.arr(d, dptr, "rollAgainOn"); ok && len(again) > 0 {
			pt.warnf(dptr+"/rollAgainOn", "rolling again is not supported yet: it is ignored")
		}
	}
	if c, ok := pt.obj(m, ptr, "capture"); ok {
		if on, _ := c["enabled"].(bool); on {
			pt.warnf(ptr+"/capture", "capture is part of the multi-piece engine, which is not supported yet: it is ignored")
		}
	}
	wc, ok := pt.obj(m, ptr, "winCondition")
	if !ok || len(wc) == 0 {
		return
	}
	wptr := ptr + "/winCondition"
	pt.checkKeys(wc, wptr, "winCondition", []string{"type", "config"})
	typ, ok := pt.str(wc, wptr, "type")
	if !ok {
		if wc["type"] == nil {
			pt.errorf(wptr+"/type", "a winCondition needs a type: %s (or leave winCondition out)", strings.Join(winTypes, ", "))
		}
		return
	}
	cfg, _ := pt.obj(wc, wptr, "config")
	cptr := wptr + "/config"
	switch typ {
	case "reach-end":
		ids, ok := pt.arr(cfg, cptr, "endSpaceIds")
		if !ok || len(ids) == 0 {
			if cfg["endSpaceIds"] == nil || ok {
				pt.errorf(cptr+"/endSpaceIds", "reach-end needs endSpaceIds: the ids of the spaces that win")
			}
			return
		}
		w := WinCondition{Type: typ}
		for i, v := range ids {
			iptr := fmt.Sprintf("%s/endSpaceIds/%d", cptr, i)
			if id, ok := pt.spaceID(v, iptr); ok {
				w.SpaceIDs = append(w.SpaceIDs, id)
				p.refs = append(p.refs, spaceRef{pt: pt, ptr: iptr, id: id, what: "winning space"})
			}
		}
		r.Win = append(r.Win, w)
	case "reach-space":
		v := cfg["spaceId"]
		if v == nil {
			pt.errorf(cptr+"/spaceId", "reach-space needs spaceId: the id of the space that wins")
			return
		}
		if id, ok := pt.spaceID(v, cptr+"/spaceId"); ok {
			p.refs = append(p.refs, spaceRef{pt: pt, ptr: cptr + "/spaceId", id: id, what: "winning space"})
			r.Win = append(r.Win, WinCondition{Type: typ, SpaceIDs: []string{id}})
		}
	case "all-pieces-home":
		if p.multiPiece {
			pt.warnf(wptr+"/type", `winCondition "all-pieces-home" is ignored (it needs every piece of a player, and each player has one token): the game ends by the board's own events or at the round limit`)
			return
		}
		pt.errorf(wptr+"/type", `winCondition "all-pieces-home" needs the "multi-piece" engine, which is not supported yet`)
	default:
		pt.errorf(wptr+"/type", "unknown winCondition %q%s; the win conditions are %s", typ, pt.rep.DidYouMean(typ, winTypes), strings.Join(winTypes, ", "))
	}
}

// bundleParts are the files a bundle manifest may name, in the order they
// are read.
var bundleParts = []string{"engine", "metadata", "dependencies", "rules", "settings", "ui", "topology"}

// manifestName is the name of a bundle's manifest in its folder.
const manifestName = "board.json"

// loadBundle reads a bundle: a manifest (named manifest in src) naming
// the files of the parts, which together make a v3 game. Every file is
// read through src.
func loadBundle(src *game.Source, manifest string) (*Board, diag.List) {
	p := &parser{ctx: src.Context()}
	mfile := src.Path(manifest)
	data, err := src.ReadFile(manifest)
	if err != nil {
		d := readError(mfile, err)
		d.Message = "not a bundle: a bundle folder holds a board.json manifest (" + strings.TrimPrefix(d.Message, "cannot read the board: ") + ")"
		if entries := src.Entries(); entries != nil && errors.Is(err, fs.ErrNotExist) {
			d.File = src.Name()
			d.Message = "board.json not found in the bundle: a zipped bundle holds its board.json manifest at the top of the archive"
			if nested := nestedManifest(entries); nested != "" {
				d.Message += fmt.Sprintf(", not in a folder (this one has %q): zip the bundle folder's files, not the folder", nested)
			}
		}
		return nil, diag.List{d}
	}
	mp := p.newPart(mfile, data)
	root, ok := mp.decode()
	if !ok {
		return p.finish(nil)
	}
	obj, ok := root.(map[string]any)
	if !ok {
		mp.errorf("", "a bundle manifest must be a JSON object, not %s", diag.JSONKind(root))
		return p.finish(nil)
	}
	mp.schemaDef = "bundleManifest"
	b := &Board{File: src.Path(path.Dir(manifest)), Format: "bundle", EngineType: "turn-based", Rules: defaultRules()}
	mp.checkKeys(obj, "", "a bundle manifest", []string{"schema_version", "id", "paths", "assetsRoot"})
	if v, has := obj["schema_version"]; !has {
		mp.errorf("/schema_version", "a bundle manifest needs \"schema_version\": 2")
	} else if n, ok := wholeNumber(v); !ok || n < 2 {
		mp.errorf("/schema_version", "schema_version must be 2 or more, not %s", diag.Describe(v))
	}
	if _, ok := mp.str(obj, "", "id"); !ok && obj["id"] == nil {
		mp.errorf("/id", "a bundle manifest needs an \"id\" naming the board")
	}
	paths, ok := mp.obj(obj, "", "paths")
	if !ok {
		if obj["paths"] == nil {
			mp.errorf("/paths", `a bundle manifest needs "paths": {"topology": "topology.json", …}`)
		}
		return p.finish(nil)
	}
	mp.checkKeys(paths, "/paths", "paths", bundleParts)
	parts := map[string]map[string]any{}
	files := map[string]*part{}
	for _, key := range bundleParts {
		rel, ok := mp.str(paths, "/paths", key)
		if !ok {
			if key == "topology" && paths[key] == nil {
				mp.errorf("/paths/topology", `paths needs "topology": the file with the spaces`)
			}
			continue
		}
		pptr := "/paths/" + key
		name, err := src.Resolve(manifest, rel)
		if err != nil {
			mp.errorf(pptr, "%q must be a path inside the bundle folder", rel)
			continue
		}
		pdata, err := src.ReadFile(name)
		if err != nil {
			mp.errorf(pptr, "cannot read %q: %s", rel, strings.TrimPrefix(readError(name, err).Message, "cannot read the board: "))
			continue
		}
		pt := p.newPart(src.Path(name), pdata)
		files[key] = pt
		v, ok := pt.decode()
		if !ok {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			pt.errorf("", "the %s file must hold a JSON object, not %s", key, diag.JSONKind(v))
			continue
		}
		pt.schemaDef = "bundle" + strings.ToUpper(key[:1]) + key[1:]
		parts[key] = m
		if key == "engine" && !p.engine(pt, m, "", b) {
			return p.finish(nil)
		}
	}
	for _, key := range bundleParts {
		m, ok := parts[key]
		if !ok {
			continue
		}
		pt := files[key]
		switch key {
		case "engine":
			pt.checkKeys(m, "", "the engine file", []string{"type", "config"})
			b.Rules.MaxTurns = configMaxTurns(pt, b.EngineConfig, "/config")
		case "metadata":
			readMetadataV3(pt, m, "", b)
		case "dependencies":
			readRequirements(pt, m, "", &b.Rules)
		case "rules":
			p.rulesV3(pt, m, "", &b.Rules)
		case "settings":
			if rc, ok := pt.obj(m, "", "renderConfig"); ok {
				b.Render = plainJSON(rc).(map[string]any)
			}
		case "topology":
			b.SpacesFile = pt.file
			b.Spaces = p.topology(pt, m, "")
		}
	}
	if _, ok := parts["topology"]; !ok {
		return p.finish(nil)
	}
	b.Preview = readPreview(src, manifest, mp)
	return p.finish(b)
}

// previewName is the picture of a bundle, beside its manifest.
const previewName = "preview.png"

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// maxPreviewSide is the widest and tallest preview.png kept, in pixels:
// the lobby shows it small, and every visitor's browser decodes it, so a
// picture of 60,000 by 60,000 pixels (a few hundred KB of PNG, gigabytes
// once decoded) never reaches one.
const maxPreviewSide = 4096

// readPreview reads a bundle's preview.png, if it has one; a file that is
// not a PNG image, that is bigger than maxPreviewSide pixels on a side
// (read from its header, before anything decodes it), or that cannot be
// read, is left out with a warning.
func readPreview(src *game.Source, manifest string, mp *part) []byte {
	name := path.Join(path.Dir(manifest), previewName)
	if !src.Exists(name) {
		return nil
	}
	data, err := src.ReadFile(name)
	switch {
	case err != nil:
		mp.warnf("", "%s is left out: %s", previewName, strings.TrimPrefix(readError(name, err).Message, "cannot read the board: "))
		return nil
	case !strings.HasPrefix(string(data[:min(len(data), len(pngSignature))]), pngSignature):
		mp.warnf("", "%s is not a PNG image: it is left out", previewName)
		return nil
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	switch {
	case err != nil:
		mp.warnf("", "%s is not a PNG image (%v): it is left out", previewName, err)
		return nil
	case cfg.Width > maxPreviewSide || cfg.Height > maxPreviewSide:
		mp.warnf("", "%s is %d×%d pixels, more than %d on a side: it is left out; make it smaller", previewName, cfg.Width, cfg.Height, maxPreviewSide)
		return nil
	}
	return data
}

// nestedManifest returns the first board.json an archive holds in a
// folder, or "".
func nestedManifest(entries []string) string {
	for _, e := range entries {
		if path.Base(e) == manifestName {
			return e
		}
	}
	return ""
}

// looksLikeBundle reports whether an archive holds the parts of a bundle
// without its manifest at the top, so that its loader can say what is
// missing.
func looksLikeBundle(src *game.Source) bool {
	for _, e := range src.Entries() {
		if b := path.Base(e); b == manifestName || b == "topology.json" {
			return true
		}
	}
	return false
}
