package rulebook

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/internal/celcost"
)

// Definition is a checked game file ready to play: its rules compiled to
// engine triggers, its board indexed. It is built once and shared by its
// matches; nothing in it changes.
type Definition struct {
	// File is the game as written.
	File *File
	// places lays out what a match counts per tile (tally.go).
	places *tilePlaces
	pack   *Pack
	rules  *engine.Rules
	// parts are the compiled rules, in order: a preset gives one per
	// hand-written rule it stands for.
	parts []*part
	byID  map[string]int
	// next and prev are each tile's successors (as listed, without
	// duplicates) and predecessors (in board order).
	next, prev [][]int
	// props are the players' property names, in the order of
	// Player.Props.
	props     []string
	propIndex map[string]int
	tileProps []map[string]int
	// cardProps are each deck's cards' properties, every name any card
	// has present (0 if the card does not say).
	cardProps [][]map[string]int
	deckIndex map[string]int
	start     int
	// minPlayers and maxPlayers bound the number of players.
	minPlayers, maxPlayers int
	// scores is set when the game keeps a score (see scored); scoreName
	// is what it calls it, if it names it.
	scores    bool
	scoreName string
	// events are the descriptions of the events the game declares.
	events map[string]string
}

// part is one compiled hand-written rule.
type part struct {
	name string
	// rule is the index of the file's rule it comes from; preset is the
	// preset's name, if it comes from one.
	rule   int
	preset string
	on     string
	// conditional is set when a condition or a filter may stop the rule.
	conditional bool
	trig        *engine.Trigger
	acts        []*act
}

// act is one compiled action.
type act struct {
	info     *ActionInfo
	part     *part
	player   string
	where    *expr
	priority int
	vals     map[string]value
}

// value is a compiled field: a literal (int or string; a tile literal is
// its index) or an expression.
type value struct {
	lit any
	e   *expr
}

// The most tiles, players, deck cards, events, rules and actions a game
// may have, and the most properties its players, its tiles and its cards
// may each have: every tile and every card holds every property name of
// its kind, and a condition may go through them all.
const (
	maxTiles   = 10_000
	maxPlayers = 16
	maxCards   = 10_000
	// maxScoreName bounds the characters of players.scoreName.
	maxScoreName = 40
	maxEvents    = 10_000
	maxRules     = 10_000
	maxActions   = 20_000
	maxProps     = 50
)

// counts refuses, before the file is decoded into the game's own values,
// more tiles, cards, events, rules and actions than a game may have: each
// costs memory however briefly it is written ({} is three bytes). It
// reports whether the counts are within bounds.
func counts(rep *diag.Reporter, root map[string]any) bool {
	ok := true
	within := func(ptr string, n, most int, what string) {
		if n > most {
			rep.Errorf(ptr, "a game has at most %d %s, not %d", most, what, n)
			ok = false
		}
	}
	list := func(v any) []any { l, _ := v.([]any); return l }
	board, _ := root["board"].(map[string]any)
	within("/board/tiles", len(list(board["tiles"])), maxTiles, "tiles")
	within("/events", len(list(root["events"])), maxEvents, "events")
	within("/rules", len(list(root["rules"])), maxRules, "rules")
	cards, actions := len(list(root["decks"])), 0
	for _, d := range list(root["decks"]) {
		deck, _ := d.(map[string]any)
		cards += len(list(deck["cards"]))
	}
	for _, r := range list(root["rules"]) {
		rule, _ := r.(map[string]any)
		actions += len(list(rule["then"]))
	}
	within("/decks", cards, maxCards, "cards in its decks")
	within("/rules", actions, maxActions, "actions in its rules")
	return ok
}

// checker checks a file and compiles it, reporting problems with pointers
// (and positions when it has the file's bytes).
type checker struct {
	pack *Pack
	rep  *diag.Reporter
	f    *File
	d    *Definition
	// events are the game's events by name, names in order.
	events     map[string]EventInfo
	eventNames []string
	// kinds, colours, cards and allProps are what the file mentions, for
	// literals and suggestions.
	kinds, colours, cards, tileIDs, allProps names
	// playerProps are the players' property names (Definition.props).
	playerProps names
	// preset is set while the rules of a preset are compiled: problems are
	// reported at the preset rule.
	preset, presetPtr string
	// compiled are the expressions compiled so far, by type and text.
	compiled map[exprKey]compiledExpr
}

type exprKey struct {
	src string
	typ *cel.Type
}

type compiledExpr struct {
	e     *expr
	probs []problem
}

// compile compiles an expression once however many times the file
// writes it, and at most celcost.MaxConditions different ones: compiling
// one costs far more than reading it (a tenth of a millisecond).
func (c *checker) compile(src string, typ *cel.Type) (*expr, []problem) {
	k := exprKey{src, typ}
	if x, ok := c.compiled[k]; ok {
		return x.e, x.probs
	}
	if c.compiled == nil {
		c.compiled = map[exprKey]compiledExpr{}
	}
	if len(c.compiled) == celcost.MaxConditions {
		return nil, []problem{{msg: fmt.Sprintf("a rule book holds at most %d different conditions and expressions", celcost.MaxConditions)}}
	}
	e, probs := compileWith(src, typ, c.didYouMean)
	c.compiled[k] = compiledExpr{e, probs}
	return e, probs
}

func newChecker(p *Pack, rep *diag.Reporter, f *File) *checker {
	return &checker{pack: p, rep: rep, f: f, events: map[string]EventInfo{}}
}

// names are distinct names in the order they were first met, with a set
// to look them up: a file may mention thousands.
type names struct {
	list []string
	set  map[string]bool
}

// add adds a name, unless it is empty or already there.
func (n *names) add(s string) {
	if s == "" || n.set[s] {
		return
	}
	if n.set == nil {
		n.set = map[string]bool{}
	}
	n.set[s] = true
	n.list = append(n.list, s)
}

// has reports whether the name is there.
func (n *names) has(s string) bool { return n.set[s] }

// didYouMean suggests the closest name, within the reporter's budget.
func (c *checker) didYouMean(word string, candidates []string) string {
	return c.rep.DidYouMean(word, candidates)
}

// listed joins names for a message, or gives "" once the reporter keeps
// no more messages: a list of every name of a large file, built for each
// of its problems, would cost the square of its size.
func (c *checker) listed(names []string) string {
	if c.rep.Full() {
		return ""
	}
	return diag.JoinNames(names)
}

func (c *checker) errorf(ptr, format string, args ...any) {
	if c.preset != "" {
		c.rep.Errorf(c.presetPtr, "preset %s: %s", c.preset, fmt.Sprintf(format, args...))
		return
	}
	c.rep.Errorf(ptr, format, args...)
}

func (c *checker) warnf(ptr, format string, args ...any) {
	if c.preset != "" {
		return // the preset's own wording is not the designer's to fix
	}
	c.rep.Warnf(ptr, format, args...)
}

// atString reports problems of an expression at their character.
func (c *checker) atString(ptr string, problems []problem, what string) {
	for _, p := range problems {
		msg := what + ": " + p.msg
		if c.preset == "" {
			c.rep.AtString(diag.Error, ptr, p.offset, msg)
			continue
		}
		c.errorf(ptr, "%s", msg)
	}
}

// check runs every check and returns the definition, which is complete
// only when nothing was reported as an error.
func (c *checker) check() *Definition {
	f := c.f
	c.d = &Definition{File: f, pack: c.pack, byID: map[string]int{}, propIndex: map[string]int{}, deckIndex: map[string]int{}, events: map[string]string{}}
	if f.Game != "rulebook" {
		c.errorf("/game", `"game" must be "rulebook"`)
	}
	c.board()
	c.players()
	c.decks()
	c.declaredEvents()
	types := engine.NewTypes(c.eventNames...)
	c.d.rules = &engine.Rules{Types: types, Effects: c.pack.effects, Policy: engine.PriorityAgenda, Guard: engine.NoGuard, BudgetPerInput: true}
	c.d.buildPlaces()
	if len(f.Rules) == 0 {
		c.errorf("/rules", "a game needs rules: start with {\"preset\": \"Turn\"}")
	}
	// Properties that actions set exist before any rule reads them.
	for i, r := range f.Rules {
		for j, a := range r.Then {
			if name, ok := stringOf(a.Fields["prop"]); ok && strings.TrimSpace(name) != "" {
				c.prop(diag.Pointer("rules", i, "then", j, "prop"), name)
			}
		}
	}
	for i := range f.Rules {
		if c.rep.Stopped() {
			return c.d
		}
		c.rule(i)
	}
	c.propRefs()
	c.propLabels()
	c.d.scores = c.scored()
	if c.rep.ErrorCount() == 0 && !c.rep.Stopped() {
		c.analyse()
	}
	return c.d
}

// propLabels checks that the labels of players' properties name
// properties the players have.
func (c *checker) propLabels() {
	for _, name := range slices.Sorted(maps.Keys(c.f.Players.PropLabels)) {
		if _, ok := c.d.propIndex[name]; !ok {
			c.errorf(diag.Pointer("players", "propLabels", name), "players have no property %q to label%s", name, c.didYouMean(name, c.d.props))
		}
	}
}

// propLabel is what players call a property: its label, or its name in
// words.
func (d *Definition) propLabel(name string) string {
	if l := d.File.Players.PropLabels[name]; l != "" {
		return l
	}
	return strings.ToLower(game.Readable(name))
}

// deckTitle is what players call a deck in "Draw a … card": its title, or
// nothing for the only deck of a game, or its name in words.
func (d *Definition) deckTitle(i int) string {
	dk := &d.File.Decks[i]
	switch {
	case dk.Title != "":
		return dk.Title
	case len(d.File.Decks) == 1:
		return ""
	}
	return game.Readable(dk.Name)
}

// scored reports whether the game keeps a score: it names it, players
// start with one, or its rules change it, pay, sell, or read it (Chutes and
// Ladders keeps none).
func (c *checker) scored() bool {
	if c.d.scoreName != "" || c.f.Players.Start.Score != 0 {
		return true
	}
	reads := func(e *expr) bool { return e != nil && strings.Contains(e.src, "score") }
	for _, p := range c.d.parts {
		if cond, ok := p.trig.Condition.(condition); ok && reads(cond.e) {
			return true
		}
		for _, a := range p.acts {
			switch a.info.Name {
			case actScore, actPay, actBuy, actAuction:
				return true
			case actEndGame:
				if a.vals["winner"].lit == "highest-score" {
					return true
				}
			}
			if reads(a.where) {
				return true
			}
			for _, v := range a.vals {
				if reads(v.e) {
					return true
				}
			}
		}
	}
	return false
}

func (c *checker) board() {
	tiles := c.f.Board.Tiles
	d := c.d
	if len(tiles) == 0 {
		c.errorf("/board/tiles", "the board needs at least one tile")
		return
	}
	for i, t := range tiles {
		if c.rep.Stopped() {
			return
		}
		ptr := diag.Pointer("board", "tiles", i)
		switch _, dup := d.byID[t.ID]; {
		case strings.TrimSpace(t.ID) == "":
			c.errorf(ptr+"/id", "a tile needs an id")
		case dup:
			c.errorf(ptr+"/id", "two tiles have the id %q", t.ID)
		default:
			d.byID[t.ID] = i
		}
		c.tileIDs.add(t.ID)
		c.kinds.add(t.Kind)
		c.colours.add(t.Colour)
	}
	d.next = make([][]int, len(tiles))
	d.prev = make([][]int, len(tiles))
	d.tileProps = make([]map[string]int, len(tiles))
	var props names
	for _, t := range tiles {
		for k := range t.Props {
			props.add(k)
		}
	}
	tileProps := props.list
	slices.Sort(tileProps)
	if len(tileProps) > maxProps {
		c.errorf("/board/tiles", "the tiles have %d properties; the most a game may give them is %d", len(tileProps), maxProps)
		return
	}
	for i, t := range tiles {
		if c.rep.Stopped() {
			return
		}
		ptr := diag.Pointer("board", "tiles", i)
		for j, n := range t.Next {
			if to, ok := c.tile(ptr+"/next/"+strconv.Itoa(j), n, "an arrow"); ok {
				if slices.Contains(d.next[i], to) {
					c.warnf(ptr+"/next/"+strconv.Itoa(j), "the arrow to %q is listed twice", n)
					continue
				}
				d.next[i] = append(d.next[i], to)
			}
		}
		if t.Jump != "" {
			c.tile(ptr+"/jump", t.Jump, "the jump target")
		}
		props := make(map[string]int, len(tileProps))
		for _, k := range tileProps {
			props[k] = t.Props[k]
		}
		d.tileProps[i] = props
	}
	for i := range tiles {
		for _, j := range d.next[i] {
			if !slices.Contains(d.prev[j], i) {
				d.prev[j] = append(d.prev[j], i)
			}
		}
	}
	for j := range d.prev {
		slices.Sort(d.prev[j])
	}
	for _, k := range tileProps {
		c.allProps.add(k)
	}
	c.jumpCircles()
}

// jumpCircles reports jumps that lead back to where they started, which
// would send a player round and round: each circle once, at its first
// tile. Each tile has at most one jump, so following every tile's jumps
// once, marking where each walk went, finds them all in linear time.
func (c *checker) jumpCircles() {
	tiles := c.f.Board.Tiles
	walk := make([]int, len(tiles)) // 0: not walked yet; else the walk (1-based) that reached the tile
	for i := range tiles {
		if walk[i] != 0 {
			continue
		}
		var path []int
		j, ok := i, true
		for ok && walk[j] == 0 {
			walk[j] = i + 1
			path = append(path, j)
			j, ok = c.d.byID[tiles[j].Jump]
		}
		if !ok || walk[j] != i+1 {
			continue // the walk left the board, or joined an earlier walk
		}
		circle := path[slices.Index(path, j):]
		first := slices.Min(circle)
		at := slices.Index(circle, first)
		circle = append(circle[at:], circle[:at]...)
		if c.rep.Full() {
			c.errorf("", "")
			continue
		}
		ids := make([]string, len(circle)+1)
		for k, t := range circle {
			ids[k] = tiles[t].ID
		}
		ids[len(circle)] = tiles[first].ID
		c.errorf(diag.Pointer("board", "tiles", first, "jump"), "the jumps go round in a circle: %s", strings.Join(ids, " → "))
	}
}

// tile resolves a tile id written at ptr, reporting an unknown one.
func (c *checker) tile(ptr, id, what string) (int, bool) {
	if i, ok := c.d.byID[id]; ok {
		return i, true
	}
	c.errorf(ptr, "%s names %q, which is not the id of any tile%s", what, id, c.didYouMean(id, c.tileIDs.list))
	return 0, false
}

func (c *checker) players() {
	p := &c.f.Players
	d := c.d
	d.minPlayers, d.maxPlayers = p.Min, p.Max
	if d.minPlayers == 0 {
		d.minPlayers = 2
	}
	if d.maxPlayers == 0 {
		d.maxPlayers = max(6, d.minPlayers)
	}
	switch {
	case d.minPlayers < 1:
		c.errorf("/players/min", "at least one player must play")
	case d.maxPlayers > maxPlayers:
		c.errorf("/players/max", "at most %d players may play", maxPlayers)
	case d.maxPlayers < d.minPlayers:
		c.errorf("/players/max", "max (%d) is below min (%d)", d.maxPlayers, d.minPlayers)
	}
	if p.Start.Tile != "" {
		d.start, _ = c.tile("/players/start/tile", p.Start.Tile, "the starting tile")
	}
	switch n := utf8.RuneCountInString(p.ScoreName); {
	case p.ScoreName != "" && strings.TrimSpace(p.ScoreName) == "":
		c.errorf("/players/scoreName", "a score's name is a word, such as money or points, not only spaces")
	case n > maxScoreName:
		c.errorf("/players/scoreName", "a score's name has at most %d characters, not %d", maxScoreName, n)
	default:
		d.scoreName = strings.TrimSpace(p.ScoreName)
	}
	for _, k := range sortedKeys(p.Start.Props) {
		c.prop("/players/start/props", k)
	}
}

// prop adds a player property name, set or read at ptr.
func (c *checker) prop(ptr, name string) {
	if _, ok := c.d.propIndex[name]; ok {
		return
	}
	if len(c.d.props) == maxProps {
		c.errorf(ptr, "players have at most %d properties; %q would be one more", maxProps, name)
		return
	}
	c.d.propIndex[name] = len(c.d.props)
	c.d.props = append(c.d.props, name)
	c.playerProps.add(name)
	c.allProps.add(name)
}

func (c *checker) decks() {
	for i, dk := range c.f.Decks {
		if c.rep.Stopped() {
			return
		}
		ptr := diag.Pointer("decks", i)
		switch _, dup := c.d.deckIndex[dk.Name]; {
		case strings.TrimSpace(dk.Name) == "":
			c.errorf(ptr+"/name", "a deck needs a name")
		case dup:
			c.errorf(ptr+"/name", "two decks are called %q", dk.Name)
		default:
			c.d.deckIndex[dk.Name] = i
		}
		if len(dk.Cards) == 0 {
			c.errorf(ptr+"/cards", "a deck needs at least one card")
		}
		total := 0
		for j, card := range dk.Cards {
			cp := ptr + "/cards/" + strconv.Itoa(j)
			if strings.TrimSpace(card.Name) == "" {
				c.errorf(cp+"/name", "a card needs a name")
			}
			if card.Tile != "" {
				c.tile(cp+"/tile", card.Tile, "the card")
			}
			if card.Count < 0 {
				c.errorf(cp+"/count", "a count cannot be negative")
			}
			total += max(card.Count, 1)
			c.cards.add(card.Name)
			c.colours.add(card.Colour)
			for _, k := range sortedKeys(card.Props) {
				c.allProps.add(k)
			}
		}
		if total > maxCards {
			c.errorf(ptr+"/cards", "a deck holds at most %d cards, not %d", maxCards, total)
		}
	}
	// Every card has every property any card has (0 if it does not say):
	// the cards and their properties are bounded, and so is what that
	// costs.
	var props names
	kinds := 0
	for _, dk := range c.f.Decks {
		kinds += len(dk.Cards)
		for _, card := range dk.Cards {
			for k := range card.Props {
				props.add(k)
			}
		}
	}
	switch {
	case kinds > maxCards:
		c.errorf("/decks", "the decks list %d cards together; the most is %d", kinds, maxCards)
		return
	case len(props.list) > maxProps:
		c.errorf("/decks", "the cards have %d properties; the most a game may give them is %d", len(props.list), maxProps)
		return
	}
	slices.Sort(props.list)
	for _, dk := range c.f.Decks {
		cards := make([]map[string]int, len(dk.Cards))
		for j, card := range dk.Cards {
			cards[j] = make(map[string]int, len(props.list))
			for _, k := range props.list {
				cards[j][k] = card.Props[k]
			}
		}
		c.d.cardProps = append(c.d.cardProps, cards)
	}
}

func (c *checker) declaredEvents() {
	for _, e := range builtinEvents {
		c.events[e.Name] = e
		c.eventNames = append(c.eventNames, e.Name)
	}
	for i, e := range c.f.Events {
		ptr := diag.Pointer("events", i, "name")
		old, dup := c.events[e.Name]
		switch {
		case !eventName.MatchString(e.Name):
			c.errorf(ptr, "an event name is written in capitals, digits and _ (like BONUS_ROUND), not %q", e.Name)
		case dup && !old.Custom:
			c.errorf(ptr, "%s is a built-in event; declare only your own", e.Name)
		case dup:
			c.errorf(ptr, "the event %s is declared twice", e.Name)
		default:
			c.events[e.Name] = customEvent(e)
			c.eventNames = append(c.eventNames, e.Name)
			c.d.events[e.Name] = e.Description
		}
	}
}

var eventName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// ruleMembers are the members of rules.
var ruleMembers = []string{"name", "description", "preset", "when", "if", "then"}

func (c *checker) rule(i int) {
	r := &c.f.Rules[i]
	ptr := diag.Pointer("rules", i)
	if r.Preset != "" {
		c.presetRule(i, r, ptr)
		return
	}
	for _, k := range sortedKeys(r.Params) {
		c.errorf(ptr+"/"+diag.Escape(k), "a rule has no member %q%s", k, c.didYouMean(k, ruleMembers))
	}
	name := r.Name
	if name == "" {
		name = "rules/" + strconv.Itoa(i)
	}
	c.hand(r, ptr, name, i)
}

// presetRule checks a preset's parameters and compiles the rules it stands
// for.
func (c *checker) presetRule(i int, r *Rule, ptr string) {
	info := presetInfo(r.Preset)
	if info == nil {
		c.errorf(ptr+"/preset", "unknown preset %q%s; the presets are %s", r.Preset, c.didYouMean(r.Preset, presetNames()), strings.Join(presetNames(), ", "))
		return
	}
	bad := false
	for _, k := range sortedKeys(r.Params) {
		if !slices.ContainsFunc(info.Params, func(f Field) bool { return f.Name == k }) {
			var names []string
			for _, f := range info.Params {
				names = append(names, f.Name)
			}
			hint := c.didYouMean(k, names)
			if len(names) == 0 {
				hint = "; it takes none"
			} else if hint == "" {
				hint = "; it takes " + strings.Join(names, ", ")
			}
			c.errorf(ptr+"/"+diag.Escape(k), "the preset %s has no parameter %q%s", r.Preset, k, hint)
			bad = true
		}
	}
	for _, f := range info.Params {
		raw, ok := r.Params[f.Name]
		if !ok {
			if f.Required {
				c.errorf(ptr, "the preset %s needs %q (%s)", r.Preset, f.Name, f.Doc)
				bad = true
			}
			continue
		}
		if !c.literalParam(ptr+"/"+diag.Escape(f.Name), f, raw) {
			bad = true
		}
	}
	if bad {
		return
	}
	rules, err := info.Expand(r.Params)
	if err != nil {
		c.errorf(ptr, "%v", err)
		return
	}
	c.preset, c.presetPtr = r.Preset, ptr
	defer func() { c.preset, c.presetPtr = "", "" }()
	prefix := info.Name
	if r.Name != "" {
		prefix = r.Name
	}
	for j := range rules {
		name := prefix + strings.TrimPrefix(rules[j].Name, info.Name)
		c.hand(&rules[j], ptr, name, i)
	}
}

// literalParam checks a preset parameter's value.
func (c *checker) literalParam(ptr string, f Field, raw json.RawMessage) bool {
	n := c.rep.ErrorCount()
	switch f.Type {
	case TypeCount:
		var v any
		json.Unmarshal(raw, &v)
		if x, ok := v.(float64); !ok || x != float64(int(x)) {
			c.errorf(ptr, "must be a whole number, not %s", diag.JSONKind(v))
		} else {
			c.inRange(ptr, f, int(x))
		}
	case TypeInt:
		c.value(ptr, f, raw)
	default:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			var v any
			json.Unmarshal(raw, &v)
			c.errorf(ptr, "must be a string, not %s", diag.JSONKind(v))
			break
		}
		switch f.Type {
		case TypeCondition:
			if s != "" {
				if _, probs := c.compile(s, cel.BoolType); probs != nil {
					c.atString(ptr, probs, "condition")
				}
			}
		case TypeTile:
			if s != "" {
				c.tile(ptr, s, "the parameter")
			}
		case TypeDeck:
			c.deck(ptr, s)
		case TypeKind:
			if s != "" && !c.kinds.has(s) {
				c.warnf(ptr, "no tile is of the kind %q, so this never applies%s", s, c.didYouMean(s, c.kinds.list))
			}
		}
	}
	return c.rep.ErrorCount() == n
}

func (c *checker) deck(ptr, name string) (int, bool) {
	if i, ok := c.d.deckIndex[name]; ok {
		return i, true
	}
	var names []string
	for _, d := range c.f.Decks {
		names = append(names, d.Name)
	}
	if len(names) == 0 {
		c.errorf(ptr, "there is no deck %q: the game has no decks", name)
	} else {
		c.errorf(ptr, "there is no deck %q%s; the decks are %s", name, c.didYouMean(name, names), c.listed(names))
	}
	return 0, false
}

// hand checks and compiles a hand-written rule.
func (c *checker) hand(r *Rule, ptr, name string, index int) {
	p := &part{name: name, rule: index, preset: c.preset, on: r.When.Event}
	w := &r.When
	info, ok := c.events[w.Event]
	switch {
	case w.Event == "":
		c.errorf(ptr+"/when", "a rule needs \"when\": {\"event\": …}")
	case !ok:
		c.errorf(ptr+"/when/event", "unknown event %q%s", w.Event, c.didYouMean(w.Event, c.eventNames))
	}
	t := &engine.Trigger{Name: name, Data: p}
	if ok {
		typ, _ := c.d.rules.Types.Lookup(w.Event)
		t.On = []engine.EventType{typ}
		c.filters(ptr+"/when", w, info, t, p)
	}
	if r.If != "" {
		p.conditional = true
		if e, probs := c.compile(r.If, cel.BoolType); probs != nil {
			c.atString(ptr+"/if", probs, "condition")
		} else {
			t.Condition = condition{e}
		}
	}
	if len(r.Then) == 0 {
		c.errorf(ptr+"/then", "a rule needs \"then\": a list of at least one action, [{\"action\": …}]")
	}
	for j := range r.Then {
		if a := c.action(ptr+"/then/"+strconv.Itoa(j), &r.Then[j], p); a != nil {
			p.acts = append(p.acts, a)
			call := c.pack.actions[a.info.Name].Call(a)
			t.Effects = append(t.Effects, call.At(engine.Priority(-a.priority)))
		}
	}
	p.trig = t
	c.d.parts = append(c.d.parts, p)
}

// filters checks a rule's "when" filters and sets them on the trigger.
func (c *checker) filters(ptr string, w *When, info EventInfo, t *engine.Trigger, p *part) {
	f := &whenFilter{tile: -1}
	check := func(name, val string, known *names, what string) {
		// known is nil for the tile and the deck, checked below.
		if val == "" {
			return
		}
		p.conditional = true
		if !slices.Contains(info.Filters, name) {
			list := "it has none"
			if len(info.Filters) > 0 {
				list = "its filters are " + strings.Join(info.Filters, ", ")
			}
			c.errorf(ptr+"/"+name, "%s has no %s to filter on; %s", w.Event, name, list)
			return
		}
		if what != "" && !known.has(val) {
			c.warnf(ptr+"/"+name, "no %s is %q, so this rule never fires%s", what, val, c.didYouMean(val, known.list))
		}
	}
	check("tile", w.Tile, nil, "")
	check("kind", w.Kind, &c.kinds, "tile's kind")
	check("colour", w.Colour, &c.colours, "colour")
	check("card", w.Card, &c.cards, "card")
	check("deck", w.Deck, nil, "")
	check("prop", w.Prop, &c.playerProps, "property")
	if w.Tile != "" && slices.Contains(info.Filters, "tile") {
		// A filter rather than the index's location scope: reactions to
		// one event must be queued in the order of the rules.
		f.tile, _ = c.tile(ptr+"/tile", w.Tile, "the filter")
	}
	if w.Deck != "" && slices.Contains(info.Filters, "deck") {
		c.deck(ptr+"/deck", w.Deck)
	}
	f.kind, f.colour, f.card, f.deck, f.prop = w.Kind, w.Colour, w.Card, w.Deck, w.Prop
	if f.tile >= 0 || f.kind != "" || f.colour != "" || f.card != "" || f.deck != "" || f.prop != "" {
		t.Filter = f
	}
}

// commonMembers are the members every action has.
var commonMembers = []string{"action", "priority", "player", "where"}

// action checks and compiles one action.
func (c *checker) action(ptr string, a *Action, p *part) *act {
	info := actionInfo(a.Action)
	if info == nil {
		if a.Action == "" {
			c.errorf(ptr, "an action needs \"action\": one of %s", strings.Join(actionNames(), ", "))
		} else {
			c.errorf(ptr+"/action", "unknown action %q%s", a.Action, c.didYouMean(a.Action, actionNames()))
		}
		return nil
	}
	out := &act{info: info, part: p, player: a.Player, priority: a.Priority, vals: map[string]value{}}
	if out.player == "" {
		out.player = info.Player
	} else if !slices.Contains(selectorNames(), a.Player) {
		c.errorf(ptr+"/player", "unknown player %q%s; whose queue: %s", a.Player, c.didYouMean(a.Player, selectorNames()), strings.Join(selectorNames(), ", "))
	}
	c.inRange(ptr+"/priority", priorityField, a.Priority)
	if a.Where != "" {
		if e, probs := c.compile(a.Where, cel.BoolType); probs != nil {
			c.atString(ptr+"/where", probs, "condition")
		} else {
			out.where = e
		}
	}
	var names []string
	for _, f := range info.Fields {
		names = append(names, f.Name)
	}
	for _, k := range sortedKeys(a.Fields) {
		if !slices.Contains(names, k) {
			hint := c.didYouMean(k, append(names, commonMembers...))
			if hint == "" && len(names) > 0 {
				hint = "; its fields are " + strings.Join(names, ", ")
			}
			c.errorf(ptr+"/"+diag.Escape(k), "%s has no field %q%s", info.Name, k, hint)
		}
	}
	for _, f := range info.Fields {
		raw, ok := a.Fields[f.Name]
		if !ok {
			if f.Required {
				c.errorf(ptr, "%s needs %q (%s)", info.Name, f.Name, f.Doc)
				continue
			}
			raw, _ = json.Marshal(f.Default)
		}
		if v, ok := c.value(ptr+"/"+diag.Escape(f.Name), f, raw); ok {
			out.vals[f.Name] = v
		}
	}
	if info.Name == actEmit {
		if v, ok := out.vals["event"]; ok {
			if e, known := c.events[v.lit.(string)]; known && !e.Emittable {
				c.errorf(ptr+"/event", "%s is announced by the game itself; EMIT may announce %s", e.Name, c.listed(c.emittable()))
			}
		}
	}
	return out
}

func (c *checker) emittable() []string {
	var out []string
	for _, n := range c.eventNames {
		if c.events[n].Emittable {
			out = append(out, n)
		}
	}
	return out
}

// bareWord matches a value that is meant as a name rather than CEL.
var bareWord = regexp.MustCompile(`^[\p{L}\p{N}_ -]+$`)

// value checks and compiles a field's value.
func (c *checker) value(ptr string, f Field, raw json.RawMessage) (value, bool) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	dec.Decode(&v)
	s, isStr := v.(string)
	n := c.rep.ErrorCount()
	fail := func(format string, args ...any) (value, bool) {
		c.errorf(ptr, format, args...)
		return value{}, false
	}
	switch f.Type {
	case TypeInt, TypeCount:
		if num, ok := v.(json.Number); ok {
			i, err := strconv.Atoi(num.String())
			if err != nil {
				return fail("must be a whole number, not %s", num)
			}
			if !c.inRange(ptr, f, i) {
				return value{}, false
			}
			return value{lit: i}, true
		}
		if !isStr || f.Type == TypeCount {
			return fail("must be a whole number or a CEL expression giving one, not %s", diag.JSONKind(v))
		}
		return c.exprValue(ptr, s, cel.IntType, n)
	}
	if !isStr {
		return fail("must be a string, not %s", diag.JSONKind(v))
	}
	switch f.Type {
	case TypeTile:
		if i, ok := c.d.byID[s]; ok {
			return value{lit: i}, true
		}
		if bareWord.MatchString(s) && !isVariable(s) {
			return fail("%q is not the id of any tile%s (write a CEL expression such as tile.jump for a computed tile)", s, c.didYouMean(s, c.tileIDs.list))
		}
		return c.exprValue(ptr, s, cel.StringType, n)
	case TypeColour:
		if c.colours.has(s) {
			return value{lit: s}, true
		}
		if bareWord.MatchString(s) && !isVariable(s) {
			return fail("no tile or card has the colour %q%s", s, c.didYouMean(s, c.colours.list))
		}
		return c.exprValue(ptr, s, cel.StringType, n)
	case TypeEvent:
		if _, ok := c.events[s]; !ok {
			return fail("unknown event %q%s", s, c.didYouMean(s, c.eventNames))
		}
	case TypeDeck:
		if _, ok := c.deck(ptr, s); !ok {
			return value{}, false
		}
	case TypeProp:
		if strings.TrimSpace(s) == "" {
			return fail("a property needs a name")
		}
		c.prop(ptr, s)
	case TypeChoice:
		if !slices.Contains(f.Values, s) {
			return fail("must be one of %s, not %q%s", strings.Join(f.Values, ", "), s, c.didYouMean(s, f.Values))
		}
	case TypeCondition:
		return c.exprValue(ptr, s, cel.BoolType, n)
	}
	return value{lit: s}, true
}

// inRange reports a number outside its field's range.
func (c *checker) inRange(ptr string, f Field, n int) bool {
	if !f.outside(n) {
		return true
	}
	c.errorf(ptr, "%s must be %s (%s), not %d", f.Name, f.rangeText(), f.Doc, n)
	return false
}

func (c *checker) exprValue(ptr, src string, typ *cel.Type, n int) (value, bool) {
	e, probs := c.compile(src, typ)
	if probs != nil {
		c.atString(ptr, probs, "expression")
		return value{}, false
	}
	return value{e: e}, c.rep.ErrorCount() == n
}

// isVariable reports whether a bare word is one of CEL's variables.
func isVariable(s string) bool {
	for _, v := range variables {
		if v.Name == s {
			return true
		}
	}
	return false
}

// propRef finds the properties expressions read by name.
var propRef = regexp.MustCompile(`props\s*\[\s*'([^']*)'\s*\]|props\s*\[\s*"([^"]*)"\s*\]|props\.([A-Za-z_][A-Za-z0-9_]*)`)

// propRefs warns about properties that nothing has: reading one stops the
// game with an error.
func (c *checker) propRefs() {
	check := func(ptr, src string) {
		for _, m := range propRef.FindAllStringSubmatch(src, -1) {
			name := m[1] + m[2] + m[3]
			if !c.allProps.has(name) {
				c.warnf(ptr, "no player, tile or card has the property %q%s; reading it stops the game (declare player properties in players.start.props)",
					name, c.didYouMean(name, c.allProps.list))
			}
		}
	}
	for i, r := range c.f.Rules {
		ptr := diag.Pointer("rules", i)
		if r.Preset != "" {
			if s, ok := stringOf(r.Params["if"]); ok {
				check(ptr+"/if", s)
			}
			continue
		}
		check(ptr+"/if", r.If)
		for j, a := range r.Then {
			ap := ptr + "/then/" + strconv.Itoa(j)
			check(ap+"/where", a.Where)
			for _, k := range sortedKeys(a.Fields) {
				if s, ok := stringOf(a.Fields[k]); ok {
					check(ap+"/"+diag.Escape(k), s)
				}
			}
		}
	}
}

func stringOf(raw json.RawMessage) (string, bool) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil && raw != nil
}

// whenFilter is the static part of a rule's "when".
type whenFilter struct {
	tile                           int // -1: any
	kind, colour, card, deck, prop string
}

// Match implements engine.Filter.
func (f *whenFilter) Match(state any, ev *engine.Event, _ *engine.Instance) bool {
	s := state.(*State)
	if f.tile >= 0 && int(ev.Location) != f.tile {
		return false
	}
	if f.kind != "" || f.colour != "" {
		if ev.Location == engine.NoLocation {
			return false
		}
		t := &s.def.File.Board.Tiles[ev.Location]
		if (f.kind != "" && t.Kind != f.kind) || (f.colour != "" && t.Colour != f.colour) {
			return false
		}
	}
	if f.card != "" || f.deck != "" || f.prop != "" {
		d, ok := ev.Data.(*eventData)
		if !ok || (f.card != "" && d.Card != f.card) || (f.deck != "" && d.Deck != f.deck) || (f.prop != "" && d.Prop != f.prop) {
			return false
		}
	}
	return true
}

// condition is a rule's "if".
type condition struct{ e *expr }

// Holds implements engine.Condition.
func (c condition) Holds(state any, ev *engine.Event, _ *engine.Instance) (bool, error) {
	return c.e.bool(newScope(state.(*State), ev))
}
