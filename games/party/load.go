package party

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/internal/celcost"
	"github.com/tabulagames/tabula/games/party/code"
)

// The longest strings a board may hold, in characters. Names are what
// CODE conditions see (space ids, names and types, stats), so their bound
// is also the cost estimate's (code.Sizes); anything else (messages,
// descriptions, conditions, free-form settings) is text.
const (
	maxName = code.MaxName
	maxText = 2000
)

// stringLimits bound every string of a board, as the schema does too.
var stringLimits = diag.StringLimits{Key: maxName, Default: maxText, Members: map[string]int{
	"id": maxName, "name": maxName, "type": maxName, "targetId": maxName, "spaceId": maxName,
	"spaceIds": maxName, "endSpaceIds": maxName, "statId": maxName, "statName": maxName,
	"targetPlayerId": maxName, "state": maxName,
}}

// maxStats is the most different stats a board's actions may set or
// change: CODE conditions may go through them all (player.stats).
const maxStats = code.MaxStats

// checkStats reports a board whose actions name more stats than allowed.
func (p *parser) checkStats(b *Board) {
	if len(p.stats) > maxStats && p.spacesPt != nil {
		p.spacesPt.errorf(p.spacesPtr, "the actions name %d different stats; a board has at most %d", len(p.stats), maxStats)
	}
}

// Load reads a party board on disk: a JSON file in the v1, v2 or v3
// format, or a bundle (a folder holding a board.json manifest, that
// manifest itself, or a zip archive of the folder's files). It checks the
// board against the published JSON Schema
// (docs/schema/board-1.schema.json) and the rules of the game — duplicate
// and dangling space ids, unknown triggers, actions, effects and
// placeholders, missing or mistyped payload members, CODE conditions that
// do not compile, and anything else that would stall the original game —
// and returns every problem found, sorted by file and position. The board
// is nil when there are errors; warnings may come with a valid board.
func Load(path string) (*Board, diag.List) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, diag.List{readError(path, err)}
	}
	return readSource(src)
}

// readSource reads the board at src: a bundle folder, a bundle manifest
// or a board file. Every file is read through src.
func readSource(src *game.Source) (*Board, diag.List) {
	if src.IsDir() {
		return loadBundle(src, manifestName)
	}
	data, err := src.Data()
	if err != nil {
		return nil, diag.List{readError(src.Name(), err)}
	}
	if isManifest(data) {
		return loadBundle(src, src.Main())
	}
	return parse(src.Context(), src.Name(), data)
}

// Parse reads a board from the bytes of a JSON file (v1, v2 or v3; a bundle
// must be loaded from its folder with Load). file names the bytes in
// diagnostics.
func Parse(file string, data []byte) (*Board, diag.List) {
	return parse(context.Background(), file, data)
}

// parse is Parse, stopping early (with an error) when ctx ends.
func parse(ctx context.Context, file string, data []byte) (*Board, diag.List) {
	p := &parser{ctx: ctx}
	pt := p.newPart(file, data)
	root, ok := pt.decode()
	if !ok {
		return p.finish(nil)
	}
	obj, ok := root.(map[string]any)
	if !ok {
		pt.errorf("", "a board must be a JSON object, not %s", diag.JSONKind(root))
		return p.finish(nil)
	}
	var b *Board
	switch boardFormat(obj) {
	case "v3":
		b = p.v3(pt, obj)
	case "manifest":
		pt.errorf("", "this is the manifest of a bundle: load its folder")
	case "v1":
		b = p.v1(pt, obj)
	case "v2":
		b = p.v2(pt, obj)
	default:
		pt.errorf("", `not a party board: a v1 or v2 board has "spaces", a v3 board has "type": "game" and "board": {"topology": …}`)
	}
	return p.finish(b)
}

// readError is the diagnostic of a board that cannot be read.
func readError(path string, err error) diag.Diagnostic {
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
	return diag.Diagnostic{File: path, Severity: diag.Error, Message: "cannot read the board: " + msg}
}

// detect reports whether a file's bytes are a party board: JSON with
// top-level "spaces" (v1 or v2), a v3 game ("type": "game" or
// "board": {"topology"}) or a bundle manifest. JSON too broken to decode
// counts when it mentions "spaces" or "topology", so that its syntax
// errors are reported.
func detect(data []byte) bool {
	// The top-level members as written: decoding only what boardFormat
	// looks at costs nothing like decoding the whole file.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		return errors.As(err, &se) && (bytes.Contains(data, []byte(`"spaces"`)) || bytes.Contains(data, []byte(`"topology"`)))
	}
	obj := map[string]any{}
	for k, v := range raw {
		switch k {
		case "game", "type":
			var s any
			json.Unmarshal(v, &s)
			obj[k] = s
		case "board":
			var board map[string]json.RawMessage
			if json.Unmarshal(v, &board) == nil {
				m := map[string]any{}
				if t := board["topology"]; t != nil && string(t) != "null" {
					m["topology"] = true
				}
				obj[k] = m
			}
		default:
			obj[k] = nil // present; boardFormat asks no more of it but whether it is null
			if string(v) != "null" {
				obj[k] = true
			}
		}
	}
	if g, ok := obj["game"].(string); ok && g != "party" {
		return false // another pack's file
	}
	return boardFormat(obj) != ""
}

// boardFormat tells a board's format from its top-level members.
func boardFormat(obj map[string]any) string {
	if t, _ := obj["type"].(string); t == "game" {
		return "v3"
	}
	if board, ok := obj["board"].(map[string]any); ok && board["topology"] != nil {
		return "v3"
	}
	if obj["schema_version"] != nil && obj["paths"] != nil {
		return "manifest"
	}
	if _, ok := obj["spaces"]; ok {
		if isV2(obj) {
			return "v2"
		}
		return "v1"
	}
	return ""
}

// isManifest reports whether a file is a bundle's board.json manifest.
func isManifest(data []byte) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return false
	}
	return obj["schema_version"] != nil && obj["paths"] != nil && obj["spaces"] == nil
}

// parser builds one board from one or more files (parts).
type parser struct {
	parts []*part
	// refs are the space ids the board refers to, checked once every
	// space is known.
	refs []spaceRef
	// spacesPt and spacesPtr say where the spaces array is.
	spacesPt  *part
	spacesPtr string
	// stop is set when the board is of a kind Tabula does not play (another
	// engine): further checks would only add noise.
	stop bool
	// multiPiece is set for a file that asks for the "multi-piece" engine,
	// played as the original game played it: turn by turn, one token each.
	multiPiece bool
	// ctx ends the checks when the caller gives up.
	ctx context.Context
	// conditions are the CODE conditions compiled so far, by their text:
	// each is compiled once, and at most celcost.MaxConditions different
	// ones.
	conditions map[string]compiledCondition
	// stats are the names of the stats actions set or change.
	stats map[string]bool
}

type compiledCondition struct {
	cond  *code.Condition
	probs []code.Problem
}

// compile compiles a CODE condition once however often the board writes
// it.
func (p *parser) compile(src string) (*code.Condition, []code.Problem) {
	if c, ok := p.conditions[src]; ok {
		return c.cond, c.probs
	}
	if p.conditions == nil {
		p.conditions = map[string]compiledCondition{}
	}
	if len(p.conditions) == celcost.MaxConditions {
		return nil, []code.Problem{{Message: fmt.Sprintf("a board holds at most %d different CODE conditions", celcost.MaxConditions)}}
	}
	cond, probs := code.Compile(src)
	p.conditions[src] = compiledCondition{cond, probs}
	return cond, probs
}

// spaceRef is a reference to a space by id, somewhere in a part.
type spaceRef struct {
	pt   *part
	ptr  string
	id   string
	what string // "connection target", "teleport target", …
}

// part is one JSON file of a board and the diagnostics found in it.
type part struct {
	file string
	data []byte
	rep  *diag.Reporter
	// schemaDiags are the JSON Schema's findings, merged with the
	// loader's in finish.
	schemaDiags diag.List
	root        any
	schemaDef   string // the $defs entry the part is checked against
}

func (p *parser) newPart(file string, data []byte) *part {
	ctx := p.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	pt := &part{file: file, data: data, rep: diag.NewReporter(file, data).WithContext(ctx)}
	p.parts = append(p.parts, pt)
	return pt
}

// decode reads the part's JSON, keeping numbers exact; a syntax error is
// reported where it is, and so is every string longer than its limit.
func (pt *part) decode() (any, bool) {
	v, ok := pt.rep.DecodeJSON(pt.data)
	pt.root = v
	if ok {
		diag.CheckStrings(pt.rep, v, stringLimits)
	}
	return v, ok
}

func (pt *part) errorf(ptr, format string, args ...any) { pt.rep.Errorf(ptr, format, args...) }
func (pt *part) warnf(ptr, format string, args ...any)  { pt.rep.Warnf(ptr, format, args...) }

// finish checks the references between spaces, merges the JSON Schema's
// findings with the loader's and returns the board, or nil if there are
// errors.
func (p *parser) finish(b *Board) (*Board, diag.List) {
	if b != nil && !p.stop {
		p.checkStats(b)
		p.checkRefs(b)
		p.checkEnding(b)
		p.checkTraps(b)
	}
	var all diag.List
	for _, pt := range p.parts {
		if !p.stop {
			pt.checkSchema()
		}
		all = append(all, pt.rep.List...)
	}
	all.Sort()
	if all.HasErrors() {
		return nil, all
	}
	return b, all
}

// checkSchema validates the part against its definition in the board
// schema, dropping what the loader already reported better (covered).
func (pt *part) checkSchema() {
	if pt.root == nil || pt.schemaDef == "" {
		return
	}
	compiledSchemas()[pt.schemaDef].Check(newCovered(pt.rep), pt.root)
}

// covered passes the schema's findings on to a part's reporter, except
// those the loader reported better: at a pointer where the loader said
// something, inside a value the loader rejected, or beside a type the
// loader did not know. It looks each finding up by its pointer and the
// pointer's parents, so that its cost does not grow with the loader's
// diagnostics.
type covered struct {
	*diag.Reporter
	at, within map[string]bool // the loader's pointers, and the values its errors reject
}

func newCovered(r *diag.Reporter) *covered {
	c := &covered{Reporter: r, at: map[string]bool{}, within: map[string]bool{}}
	for _, d := range r.List {
		if d.More > 0 {
			continue
		}
		c.at[d.Pointer] = true
		if d.Severity == diag.Error && d.Pointer != "" {
			// An unknown type makes the rest of its object meaningless.
			c.within[strings.TrimSuffix(d.Pointer, "/type")] = true
		}
	}
	return c
}

// inside reports whether a pointer is inside a value the loader rejected.
func (c *covered) inside(ptr string) bool {
	for p := ptr; p != ""; {
		p = p[:strings.LastIndexByte(p, '/')]
		if c.within[p] {
			return true
		}
	}
	return false
}

// Errorf reports a finding of the schema unless the loader covered it.
func (c *covered) Errorf(ptr, format string, args ...any) {
	if ptr == "" && format == "" || !c.at[ptr] && !c.inside(ptr) {
		c.Reporter.Errorf(ptr, format, args...)
	}
}

// Covers reports whether every finding at or below a pointer would be
// dropped (diag.Coverer).
func (c *covered) Covers(ptr string) bool {
	return c.inside(ptr) || c.within[ptr] && c.at[ptr]
}

// Field accessors. Each reads one member of an object; a missing member
// (or null) gives ok == false silently, a member of the wrong kind gives
// ok == false and an error at its pointer.

func (pt *part) str(m map[string]any, ptr, key string) (string, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be a string, not %s", diag.JSONKind(v))
	}
	return s, ok
}

func (pt *part) obj(m map[string]any, ptr, key string) (map[string]any, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, false
	}
	o, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be an object, not %s", diag.JSONKind(v))
	}
	return o, ok
}

func (pt *part) arr(m map[string]any, ptr, key string) ([]any, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be an array, not %s", diag.JSONKind(v))
	}
	return a, ok
}

func (pt *part) boolean(m map[string]any, ptr, key string) (bool, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be true or false, not %s", diag.JSONKind(v))
	}
	return b, ok
}

func (pt *part) num(m map[string]any, ptr, key string) (float64, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	n, isNum := v.(json.Number)
	f, err := n.Float64()
	if !isNum || err != nil {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be a number, not %s", diag.JSONKind(v))
		return 0, false
	}
	return f, true
}

func (pt *part) whole(m map[string]any, ptr, key string) (int, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	n, ok := wholeNumber(v)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be a whole number, not %s", diag.JSONKind(v))
	}
	return n, ok
}

// wholeIn reads a whole number member and checks that it is within
// [lo, hi]; what says what the number is, for the error.
func (pt *part) wholeIn(m map[string]any, ptr, key string, lo, hi int, what string) (int, bool) {
	n, ok := pt.whole(m, ptr, key)
	return n, ok && pt.inRange(ptr+"/"+diag.Escape(key), key, float64(n), float64(lo), float64(hi), what)
}

// inRange reports a number outside [lo, hi] as an error at ptr, naming it
// and saying what it is; it reports whether n is within.
func (pt *part) inRange(ptr, name string, n, lo, hi float64, what string) bool {
	if n >= lo && n <= hi {
		return true
	}
	pt.errorf(ptr, "%s must be from %s to %s (%s), not %s", name, formatNumber(lo), formatNumber(hi), what, formatNumber(n))
	return false
}

// wholeNumber reads a JSON number without a fraction (1 and 1.0 alike).
func wholeNumber(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := n.Int64(); err == nil && i >= -1<<31 && i < 1<<31 {
		return int(i), true
	}
	f, err := n.Float64()
	if err != nil || f != float64(int32(f)) {
		return 0, false
	}
	return int(f), true
}

// spaceID reads a space id: a string, or an integer compared as a string
// (the original's board lookup compares String(id)).
func (pt *part) spaceID(v any, ptr string) (string, bool) {
	switch v := v.(type) {
	case string:
		if strings.TrimSpace(v) == "" {
			pt.errorf(ptr, "a space id cannot be empty")
			return "", false
		}
		return v, true
	case json.Number:
		if n, ok := wholeNumber(v); ok {
			return strconv.Itoa(n), true
		}
	}
	pt.errorf(ptr, "a space id must be a string or a whole number, not %s", diag.JSONKind(v))
	return "", false
}

// checkKeys warns about members an object does not have, which are
// ignored, suggesting the closest known member.
func (pt *part) checkKeys(m map[string]any, ptr, what string, known []string) {
	for _, k := range sortedKeys(m) {
		if slices.Contains(known, k) {
			continue
		}
		hint := pt.rep.DidYouMean(k, known)
		if other, ok := otherFormatNames[k]; ok && slices.Contains(known, other) {
			hint = fmt.Sprintf(": this format calls it %q", other)
		}
		pt.warnf(ptr+"/"+diag.Escape(k), "%s has no member %q; it is ignored%s", what, k, hint)
	}
}

// otherFormatNames pairs the member names that differ between v1 and v3,
// to help with boards that mix the two.
var otherFormatNames = map[string]string{
	"events": "triggers", "triggers": "events",
	"visualDetails": "visual", "visual": "visualDetails",
	"drawConnection": "draw", "draw": "drawConnection",
	"trigger": "when", "when": "trigger",
}

// sortedKeys returns a map's keys in a fixed order (Go maps have none).
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// normalizeName is the original's normalisation of trigger, action and
// priority names: upper-case, runs of white space become "_", and every
// other character that is not a letter, digit or "_" is dropped, so
// "on land" is ON_LAND.
func normalizeName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
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
	if space {
		b.WriteByte('_')
	}
	return b.String()
}
