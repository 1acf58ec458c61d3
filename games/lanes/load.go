package lanes

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
)

//go:embed lanes-1.schema.json
var schemaJSON []byte

// SchemaName is the name of the published schema (tabula schema lanes).
const SchemaName = "lanes"

// detect reports whether a file's contents are a lanes game file: a JSON
// object whose "game" is "lanes".
func detect(data []byte) bool {
	var head struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err == nil {
		return head.Game == "lanes"
	}
	// Not valid JSON: claim it if it says so, so that the syntax error is
	// reported with its position.
	return gameField.Match(data)
}

var gameField = regexp.MustCompile(`"game"\s*:\s*"lanes"`)

// The longest strings a game file may hold, in characters: names (of
// drones, cards, abilities, trigger types, and everything else that names
// something), and text (descriptions).
const (
	maxName = 100
	maxText = 2000
)

// stringLimits bound every string of a game file, as the schema does too.
var stringLimits = diag.StringLimits{Key: maxName, Default: maxName, Members: map[string]int{
	"description": maxText, "howToPlay": maxText, "notes": maxText, "$schema": maxText,
}}

// The most trigger types, drones, cards, abilities and effects a game
// file may have: each costs memory however briefly it is written.
const (
	maxTriggerTypes = 1000
	maxDrones       = 10_000
	maxCards        = 10_000
	maxAbilities    = 20_000
	maxEffects      = 40_000
	maxDeckCount    = 100
)

// compileSchemas compiles the schema of game files and that of a
// scenario's definitions (#/$defs/extension).
func compileSchemas() (full, ext *diag.Schema) {
	full = diag.MustCompileSchema("https://tabula.invalid/lanes-1.schema.json", schemaJSON)
	full.Special = triggerNameFailure
	ext = full.MustDef("extension")
	// Drones and cards are checked one at a time: a file of thousands of
	// bad ones would otherwise cost the validator hundreds of bytes per
	// byte of the file.
	full = full.Split(
		diag.Part{Items: "/properties/drones/items", Array: "/drones", Def: "drone"},
		diag.Part{Items: "/properties/cards/items", Array: "/cards", Def: "card"},
	)
	return full, ext
}

// triggerNameFailure words a trigger name that is neither built in (the
// schema's enum) nor the file's own (its pattern).
func triggerNameFailure(e *jsonschema.ValidationError) (string, bool) {
	if _, ok := e.ErrorKind.(*kind.AnyOf); ok {
		for _, c := range e.Causes {
			if en, ok := c.ErrorKind.(*kind.Enum); ok {
				return diag.SchemaMessage(en) + "; or declare it in triggerTypes", true
			}
		}
	}
	return "", false
}

// reporter receives the problems found in game data.
type reporter interface {
	Errorf(pointer, format string, args ...any)
	Warnf(pointer, format string, args ...any)
}

// load reads a lanes game file (see read).
func (p *Pack) load(file string, data []byte) (*Definition, diag.List) {
	return p.read(context.Background(), file, data)
}

// read reads a lanes game file: JSON syntax, the JSON Schema, strings
// and counts within their limits, then the checks the schema cannot
// express (names that must exist, owners and scopes that suit their
// trigger, effects that suit their place). It returns the game, or nil and
// every problem found, each at its place. It stops early, with an error,
// when ctx ends.
func (p *Pack) read(ctx context.Context, file string, data []byte) (*Definition, diag.List) {
	r := diag.NewReporter(file, data).WithContext(ctx)
	doc, ok := r.DecodeJSON(data)
	if !ok {
		return nil, r.List
	}
	p.full.Check(r, doc)
	// The checks beyond the schema run even when it failed, so that every
	// problem is reported at once; where the schema already complained,
	// they stay silent.
	q := newQuiet(r)
	diag.CheckStrings(q, doc, stringLimits)
	if !counts(q, doc) {
		r.List.Sort()
		return nil, r.List
	}
	var f fileData
	if err := json.Unmarshal(data, &f); err != nil {
		if r.ErrorCount() == 0 {
			r.Errorf("", "%v", err)
		}
		r.List.Sort()
		return nil, r.List
	}
	setPointers("", f.TriggerTypes, f.Drones, f.Cards)
	def := p.build(&f, file, q)
	r.List.Sort()
	if r.List.HasErrors() {
		return nil, r.List
	}
	return def, r.List
}

// counts refuses, before the file is decoded into the game's own values,
// more trigger types, drones, cards, abilities and effects than a game
// may have. It reports whether the counts are within bounds.
func counts(r reporter, doc any) bool {
	ok := true
	within := func(ptr string, n, most int, what string) {
		if n > most {
			r.Errorf(ptr, "a game has at most %d %s, not %d", most, what, n)
			ok = false
		}
	}
	list := func(v any) []any { l, _ := v.([]any); return l }
	member := func(v any, name string) any { m, _ := v.(map[string]any); return m[name] }
	within("/triggerTypes", len(list(member(doc, "triggerTypes"))), maxTriggerTypes, "trigger types")
	within("/drones", len(list(member(doc, "drones"))), maxDrones, "drones")
	within("/cards", len(list(member(doc, "cards"))), maxCards, "cards")
	abilities, effects := 0, 0
	for _, d := range list(member(doc, "drones")) {
		for _, ab := range list(member(d, "abilities")) {
			abilities++
			effects += len(list(member(ab, "effects"))) + len(list(member(ab, "conditionalEffects")))
		}
	}
	for _, c := range list(member(doc, "cards")) {
		effects += len(list(member(c, "effects")))
	}
	within("/drones", abilities, maxAbilities, "abilities")
	within("", effects, maxEffects, "effects")
	return ok
}

// quiet passes diagnostics on, except those at or below a place that
// already has one, or at the object of a member that has one (the schema
// reports a missing or unknown member at the member). It looks a place up
// by its pointer and the pointer's parents, so that its cost does not
// grow with the diagnostics already found.
type quiet struct {
	*diag.Reporter
	at, parents map[string]bool // the places with a diagnostic, and the objects of those
}

// newQuiet is quiet about the places r has diagnostics at now.
func newQuiet(r *diag.Reporter) *quiet {
	q := &quiet{Reporter: r, at: map[string]bool{}, parents: map[string]bool{}}
	for _, d := range r.List {
		if d.More > 0 {
			continue
		}
		q.at[d.Pointer] = true
		if i := strings.LastIndexByte(d.Pointer, '/'); i >= 0 {
			q.parents[d.Pointer[:i]] = true
		}
	}
	return q
}

func (q *quiet) covered(ptr string) bool {
	if q.parents[ptr] {
		return true
	}
	for p := ptr; ; p = p[:strings.LastIndexByte(p, '/')] {
		if q.at[p] {
			return true
		}
		if p == "" {
			return false
		}
	}
}

// Errorf reports an error unless its place already has one.
func (q *quiet) Errorf(ptr, format string, args ...any) {
	if ptr == "" && format == "" || !q.covered(ptr) {
		q.Reporter.Errorf(ptr, format, args...)
	}
}

// Warnf reports a warning unless its place already has an error.
func (q *quiet) Warnf(ptr, format string, args ...any) {
	if !q.covered(ptr) {
		q.Reporter.Warnf(ptr, format, args...)
	}
}

// builder checks a decoded game file and compiles it.
type builder struct {
	def    *Definition
	fx     *effectSet
	r      reporter
	errs   int
	types  *engine.Types
	extras map[string]*TriggerType
	// drones and cards are the file's by name and by id (the first of a
	// name); droneNames, tokenNames, triggers, cardIDs and subTypes list
	// names for messages and suggestions.
	drones                                              map[string]*DroneDef
	cards                                               map[string]*CardDef
	subTypeSet                                          map[string]bool
	droneNames, tokenNames, triggers, cardIDs, subTypes []string
}

func (b *builder) errorf(ptr, format string, args ...any) {
	b.errs++
	b.r.Errorf(ptr, format, args...)
}

// didYouMean suggests the closest name, within the reporter's budget for
// the file if it has one.
func (b *builder) didYouMean(word string, candidates []string) string {
	if s, ok := b.r.(diag.Suggester); ok {
		return s.DidYouMean(word, candidates)
	}
	return diag.DidYouMean(word, candidates)
}

// listed joins names for a message, or gives "" once the reporter keeps
// no more messages (a list of every name of a large file, built for each
// of its problems, would cost the square of its size).
func (b *builder) listed(names []string) string {
	if f, ok := b.r.(interface{ Full() bool }); ok && f.Full() {
		return ""
	}
	return diag.JoinNames(names)
}

// stopped reports whether the reporter's context has ended.
func (b *builder) stopped() bool {
	s, ok := b.r.(interface{ Stopped() bool })
	return ok && s.Stopped()
}

// build checks everything the schema cannot and compiles the abilities
// into triggers. It returns nil if it found errors.
func (p *Pack) build(f *fileData, file string, r reporter) *Definition {
	def := &Definition{File: file, Name: f.Name, Description: f.Description, HowToPlay: f.HowToPlay, Rules: f.Rules,
		TriggerTypes: f.TriggerTypes, Drones: f.Drones, Cards: f.Cards, pack: p}
	b := &builder{def: def, fx: p.fx, r: r, extras: map[string]*TriggerType{}}
	b.triggerTypes()
	b.checkDrones()
	b.checkCards()
	b.rules()
	for _, d := range def.Drones {
		if b.stopped() {
			return nil
		}
		for i, ab := range d.Abilities {
			if t := b.ability(d, ab, fmt.Sprintf("%s/abilities/%d", d.ptr, i)); t != nil {
				d.triggers = append(d.triggers, t)
			}
		}
	}
	for _, c := range def.Cards {
		if b.stopped() {
			return nil
		}
		b.cardEffects(c)
	}
	if b.errs > 0 {
		return nil
	}
	def.rules = &engine.Rules{Types: b.types, Effects: p.fx.reg, Policy: engine.DepthFirst, Guard: engine.PerPair}
	return def
}

func (b *builder) triggerTypes() {
	internal := append(slices.Clone(internalEvents), "REPEAT")
	for _, t := range b.def.TriggerTypes {
		switch {
		case b.extras[t.Name] != nil:
			b.errorf(t.ptr+"/name", "trigger type %s is declared twice (first at %s)", t.Name, b.extras[t.Name].ptr)
			continue
		case slices.Contains(internal, t.Name):
			b.errorf(t.ptr+"/name", "%s is the name of one of the game's own events; choose another", t.Name)
			continue
		}
		if _, ok := builtinTrigger(t.Name); ok {
			b.errorf(t.ptr+"/name", "%s is a built-in trigger type; declare only new ones", t.Name)
			continue
		}
		b.extras[t.Name] = t
	}
	b.types = newTypes(b.def.TriggerTypes)
	for _, t := range builtinTriggers {
		b.triggers = append(b.triggers, t.name)
	}
	for _, t := range b.def.TriggerTypes {
		b.triggers = append(b.triggers, t.Name)
	}
	for _, t := range b.def.TriggerTypes {
		id, _ := b.types.Lookup(t.Name)
		if st, ok := parseModStat(t.FiredBy.StatRaised); ok {
			b.def.raised[st] = append(b.def.raised[st], id)
		}
		if st, ok := parseModStat(t.FiredBy.StatLowered); ok {
			b.def.lower[st] = append(b.def.lower[st], id)
		}
	}
}

func (b *builder) checkDrones() {
	b.drones = map[string]*DroneDef{}
	for i, d := range b.def.Drones {
		d.index = i
		if first, dup := b.drones[d.Name]; dup {
			b.errorf(d.ptr+"/name", "a drone named %q is already defined at %s", d.Name, first.ptr)
		} else {
			b.drones[d.Name] = d
		}
		if d.Token {
			b.tokenNames = append(b.tokenNames, d.Name)
		} else {
			b.droneNames = append(b.droneNames, d.Name)
		}
		d.Inert = slices.Contains(d.Keywords, "INERT")
		d.Passive = slices.Contains(d.Keywords, "PASSIVE")
		if d.Token && len(d.Abilities) == 0 && !d.Inert {
			b.r.Warnf(d.ptr, "token %q has no abilities and is not INERT", d.Name)
		}
	}
}

func (b *builder) checkCards() {
	b.cards = map[string]*CardDef{}
	b.subTypeSet = map[string]bool{}
	for i, c := range b.def.Cards {
		c.index = i
		if first, dup := b.cards[c.ID]; dup {
			b.errorf(c.ptr+"/id", "a card with id %q is already defined at %s", c.ID, first.ptr)
		} else {
			b.cards[c.ID] = c
		}
		b.cardIDs = append(b.cardIDs, c.ID)
		if c.SubType != "" && !b.subTypeSet[c.SubType] {
			b.subTypeSet[c.SubType] = true
			b.subTypes = append(b.subTypes, c.SubType)
		}
	}
	names := map[string]int{}
	for _, c := range b.def.Cards {
		names[c.Name]++
	}
	for _, c := range b.def.Cards {
		c.key = c.Name
		if names[c.Name] > 1 || c.Name == "" {
			c.key = c.ID
		}
	}
}

func (b *builder) rules() {
	rules := &b.def.Rules
	sections := map[string]bool{}
	for i, s := range rules.Sections {
		ptr := fmt.Sprintf("/rules/sections/%d", i)
		if sections[s.Name] {
			b.errorf(ptr+"/name", "two sections are named %q", s.Name)
		}
		sections[s.Name] = true
		if t := s.Thresholds; t.Critical > t.Damaged || t.Damaged >= s.Hull {
			b.errorf(ptr+"/thresholds", "thresholds must satisfy critical <= damaged < hull (here %d, %d, %d)", t.Critical, t.Damaged, s.Hull)
		}
	}
	var total ShipStats
	for _, s := range rules.Sections {
		total = total.add(s.Stats.Healthy)
	}
	if total.HandLimit == 0 {
		b.r.Warnf("/rules/sections", "no section gives a hand limit: players never draw cards")
	}
	if total.CPULimit == 0 {
		b.r.Warnf("/rules/sections", "no section gives a CPU limit: players can never deploy")
	}
	squads, squadPtr := perSeat(rules.Squad, rules.Squads, "/rules/squad", "/rules/squads")
	decks, deckPtr := perSeat(rules.Deck, rules.Decks, "/rules/deck", "/rules/decks")
	switch {
	case rules.Squad != nil && rules.Squads != nil:
		b.errorf("/rules/squads", "give either squad (both players') or squads (one per player), not both")
	case rules.Squad == nil && rules.Squads == nil:
		b.errorf("/rules", "say which drones the players may deploy: squad (both players') or squads (one per player)")
	case squads == nil:
		b.errorf("/rules/squads", "squads holds two squads, the first seat's and the second's, not %d", len(rules.Squads))
	}
	switch {
	case rules.Deck != nil && rules.Decks != nil:
		b.errorf("/rules/decks", "give either deck (both players') or decks (one per player), not both")
	case rules.Deck == nil && rules.Decks == nil:
		b.errorf("/rules", "say what the players' decks hold: deck (both players') or decks (one per player)")
	case decks == nil:
		b.errorf("/rules/decks", "decks holds two decks, the first seat's and the second's, not %d", len(rules.Decks))
	}
	for seat, squad := range squads {
		b.def.squads[seat] = b.squad(squad, squadPtr(seat))
	}
	for seat, deck := range decks {
		b.def.decks[seat] = b.deck(deck, deckPtr(seat))
	}
}

// perSeat returns what both players share (one), or each player's (two,
// which must be two), with the JSON pointer of each seat's; nil if two
// is not two.
func perSeat[T any](one []T, two [][]T, onePtr, twoPtr string) ([][]T, func(seat int) string) {
	if two == nil {
		return [][]T{one, one}, func(int) string { return onePtr }
	}
	if len(two) != 2 {
		return nil, nil
	}
	return two, func(seat int) string { return twoPtr + "/" + itoa(seat) }
}

// squad checks a squad at ptr and returns its drones.
func (b *builder) squad(names []string, ptr string) []*DroneDef {
	var out []*DroneDef
	seen := map[string]bool{}
	for i, name := range names {
		ptr := ptr + "/" + itoa(i)
		d := b.drones[name]
		switch {
		case d == nil:
			b.errorf(ptr, "no drone named %q%s", name, b.didYouMean(name, b.droneNames))
		case d.Token:
			b.errorf(ptr, "%s is a token: tokens are created by cards, not deployed", name)
		case seen[name]:
			b.r.Warnf(ptr, "%s is in the squad twice", name)
		default:
			out = append(out, d)
		}
		seen[name] = true
	}
	return out
}

// deck checks a deck at ptr and returns its cards, as card indexes.
func (b *builder) deck(entries []DeckEntry, ptr string) []int {
	var out []int
	for i, e := range entries {
		ptr := ptr + "/" + itoa(i)
		c := b.cards[e.Card]
		if c == nil {
			b.errorf(ptr+"/card", "no card with id %q%s", e.Card, b.didYouMean(e.Card, b.cardIDs))
			continue
		}
		switch {
		case e.Count < 0 || e.Count > maxDeckCount:
			b.errorf(ptr+"/count", "a deck holds 0 to %d copies of a card, not %d", maxDeckCount, e.Count)
			continue
		case c.MaxInDeck > 0 && e.Count > c.MaxInDeck:
			b.errorf(ptr+"/count", "a deck holds at most %d of %s", c.MaxInDeck, c.ID)
		}
		for range e.Count {
			out = append(out, c.index)
		}
	}
	return out
}

// playerOwners and laneOwners map the owners of player and lane triggers
// onto the engine's relations.
var (
	playerOwners = map[string]engine.Relation{"": engine.Controller, "CONTROLLER": engine.Controller, "OPPONENT": engine.Opponent, "ANY": engine.Any}
	laneOwners   = map[string]engine.Relation{"LANE_OWNER": engine.Controller, "LANE_ENEMY": engine.Opponent, "ANY": engine.Any}
)

// abilityInfo is what the log says about an ability when it fires.
type abilityInfo struct {
	Drone       string
	Ability     string
	Trigger     string
	Description string
}

// ability checks one ability and compiles it into a trigger.
func (b *builder) ability(d *DroneDef, ab *Ability, ptr string) *engine.Trigger {
	before := b.errs
	info, ok := builtinTrigger(ab.Trigger)
	if !ok {
		x := b.extras[ab.Trigger]
		if x == nil {
			b.errorf(ptr+"/trigger", "unknown trigger %s%s; the trigger types are %s, or one declared in triggerTypes",
				ab.Trigger, b.didYouMean(ab.Trigger, b.triggers), b.listed(b.triggers))
			return nil
		}
		info = triggerInfo{name: x.Name, cat: categoryNames[x.Category], droneSubject: true}
	}
	typ, _ := b.types.Lookup(ab.Trigger)
	t := &engine.Trigger{Name: d.Name + ": " + ab.Name, On: []engine.EventType{typ}, Priority: engine.Mid}

	owner, scope := ab.TriggerOwner, ab.TriggerScope
	switch info.cat {
	case catSelf:
		t.Owner, t.Scope = engine.Self, engine.Anywhere
		if owner != "" {
			b.errorf(ptr+"/triggerOwner", "%s is a self trigger: it fires for this drone's own actions, so it takes no triggerOwner; remove it", ab.Trigger)
		}
		if scope != "" && scope != "SELF" {
			b.errorf(ptr+"/triggerScope", "%s is a self trigger: its scope can only be SELF", ab.Trigger)
		}
	case catController:
		rel, ok := playerOwners[owner]
		if !ok {
			b.errorf(ptr+"/triggerOwner", "%s is a player trigger: its owner is CONTROLLER, OPPONENT or ANY, not %s", ab.Trigger, owner)
		}
		t.Owner = rel
		switch scope {
		case "", "ANY_LANE":
			t.Scope = engine.Anywhere
		case "SAME_LANE":
			t.Scope = engine.Here
		default:
			b.errorf(ptr+"/triggerScope", "%s is a player trigger: its scope is SAME_LANE or ANY_LANE, not %s", ab.Trigger, scope)
		}
	case catLane:
		// A lane trigger listens in its drone's lane to the other drones
		// there: LANE_OWNER and LANE_ENEMY are the engine's Controller and
		// Opponent relations (the controller is the player whose board the
		// drone sits on) with Others set.
		rel, ok := laneOwners[owner]
		switch {
		case owner == "":
			b.errorf(ptr, "%s is a lane trigger: say whose drones set it off with triggerOwner LANE_OWNER, LANE_ENEMY or ANY", ab.Trigger)
		case !ok:
			b.errorf(ptr+"/triggerOwner", "%s is a lane trigger: its owner is LANE_OWNER, LANE_ENEMY or ANY, not %s", ab.Trigger, owner)
		}
		t.Owner, t.Others, t.Scope = rel, true, engine.Here
		if scope != "" && scope != "SAME_LANE" {
			b.errorf(ptr+"/triggerScope", "%s is a lane trigger: it listens in the drone's own lane, so its scope can only be SAME_LANE", ab.Trigger)
		}
	}

	f := &abilityFilter{actionOnly: info.actionOnly}
	if tf := ab.TriggerFilter; tf != nil {
		if (tf.CardType != "" || tf.CardSubType != "") && ab.Trigger != "ON_CARD_PLAY" {
			b.errorf(ptr+"/triggerFilter", "cardType and cardSubType filter ON_CARD_PLAY only")
		}
		f.cardType, f.cardSubType = tf.CardType, tf.CardSubType
		if tf.CardSubType != "" && !b.subTypeSet[tf.CardSubType] {
			b.r.Warnf(ptr+"/triggerFilter/cardSubType", "no card has subType %q%s", tf.CardSubType, b.didYouMean(tf.CardSubType, b.subTypes))
		}
		if tf.DroneStatFilter != nil {
			if !info.droneSubject {
				b.errorf(ptr+"/triggerFilter/droneStatFilter", "%s events are not about a drone, so droneStatFilter cannot apply", ab.Trigger)
			}
			f.stat = tf.DroneStatFilter
		}
	}

	var calls []engine.EffectCall
	var descs []string
	for i, raw := range ab.Effects {
		if c, ok := b.effect(raw, fmt.Sprintf("%s/effects/%d", ptr, i), effectPlace{info: &info}); ok {
			calls = append(calls, c)
			descs = append(descs, describe(c))
		}
	}
	if len(ab.Effects) == 0 && len(ab.ConditionalEffects) == 0 {
		b.errorf(ptr+"/effects", "the ability does nothing: give it effects or conditionalEffects")
	}
	divisor := ab.ScalingDivisor
	switch {
	case divisor > 0 && !info.amount && b.extras[ab.Trigger] == nil:
		b.errorf(ptr+"/scalingDivisor", "%s events carry no amount to scale by; scalingDivisor applies to ON_CARD_DRAWN, ON_ENERGY_GAINED and declared stat types", ab.Trigger)
	case divisor == 0 && info.amount:
		divisor = 1 // once per card drawn, per energy gained
	}
	if divisor > 0 && len(calls) > 0 {
		f.divisor = divisor
		descs = []string{strings.Join(descs, ", ") + " " + perText(ab.Trigger, divisor)}
		calls = []engine.EffectCall{b.fx.repeat.Call(repeatArgs{Divisor: divisor, Calls: calls})}
	}
	var conds []string
	for i, ce := range ab.ConditionalEffects {
		cptr := fmt.Sprintf("%s/conditionalEffects/%d", ptr, i)
		if ab.Trigger != "ON_ATTACK" {
			b.errorf(cptr, "conditionalEffects look at an attack's result: they need trigger ON_ATTACK")
			continue
		}
		if c, ok := b.effect(ce.GrantedEffect, cptr+"/grantedEffect", effectPlace{info: &info}); ok {
			calls = append(calls, b.fx.conditional.Call(conditionalArgs{Condition: ce.Condition, Call: c}))
			descs = append(descs, fmt.Sprintf("if %s: %s", conditionText[ce.Condition], describe(c)))
			conds = append(conds, ce.Condition)
		}
	}
	if len(ab.Effects) == 0 {
		f.conds = conds // without other effects, the ability fires only when a condition holds
	}
	if ab.GrantsGoAgain {
		calls = append(calls, b.fx.goAgain.Call(noArgs{}))
		descs = append(descs, "go again")
	}
	if ab.DestroyAfterTrigger {
		t.Once = true
		calls = append(calls, b.fx.destroy.Call(scopeArgs{Scope: "SELF"}))
		descs = append(descs, "then it is destroyed")
	}
	if b.errs > before {
		return nil
	}
	t.Effects = calls
	if f.needed() {
		t.Filter = f
	}
	t.Data = &abilityInfo{Drone: d.Name, Ability: ab.Name, Trigger: ab.Trigger, Description: strings.Join(descs, "; ")}
	return t
}

// perText says how a scaled ability repeats: "per 2 energy gained
// (rounded down)".
func perText(trigger string, divisor int) string {
	unit, units := "point", "points"
	switch trigger {
	case "ON_CARD_DRAWN":
		unit, units = "card drawn", "cards drawn"
	case "ON_ENERGY_GAINED":
		unit, units = "energy gained", "energy gained"
	}
	if divisor == 1 {
		return "per " + unit
	}
	return fmt.Sprintf("per %d %s (rounded down)", divisor, units)
}

var conditionText = map[string]string{
	"ON_SHIP_SECTION_HULL_DAMAGE": "the attack damaged a ship section's hull",
	"ON_SHIP_SECTION_DAMAGE":      "the attack damaged a ship section",
	"ON_DRONE_HULL_DAMAGE":        "the attack damaged a drone's hull",
	"ON_TARGET_DESTROYED":         "the attack destroyed its target",
}

// effectPlace says where an effect is: in an ability (info set) or a card.
type effectPlace struct {
	info *triggerInfo
	card *CardDef
}

// effect checks one effect object and decodes it into a call.
func (b *builder) effect(raw json.RawMessage, ptr string, at effectPlace) (engine.EffectCall, bool) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		b.errorf(ptr, "an effect is an object with a type: %v", err)
		return engine.EffectCall{}, false
	}
	var name string
	json.Unmarshal(fields["type"], &name)
	where, ok := dataEffects[name]
	if !ok {
		b.errorf(ptr+"/type", "unknown effect %s%s", name, b.didYouMean(name, b.fx.names))
		return engine.EffectCall{}, false
	}
	if at.card == nil && !strings.Contains(where, "a") {
		b.errorf(ptr+"/type", "%s is a card effect: it moves the drones a card targets", name)
		return engine.EffectCall{}, false
	}
	if at.card != nil && !strings.Contains(where, "c") {
		b.errorf(ptr+"/type", "%s is an ability effect: cards cannot use it", name)
		return engine.EffectCall{}, false
	}
	delete(fields, "type")
	args, _ := json.Marshal(fields)
	c, err := b.fx.reg.Decode(name, args)
	if err != nil {
		b.errorf(ptr, "%v", err)
		return engine.EffectCall{}, false
	}
	before := b.errs
	switch a := c.Args.(type) {
	case valueScopeArgs:
		a.Scope = b.scope(name, a.Scope, ptr, at)
		c.Args = a
	case scopeArgs:
		a.Scope = b.scope(name, a.Scope, ptr, at)
		c.Args = a
	case modifyArgs:
		a.Scope = b.scope(name, a.Scope, ptr, at)
		c.Args = a
	case markArgs:
		if a.Scope == "" {
			a.Scope = "SAME_LANE"
		}
		if a.Filter == "" {
			a.Filter = "NOT_MARKED"
		}
		c.Args = a
	case tokenArgs:
		k := b.drones[a.TokenName]
		switch {
		case k == nil:
			b.errorf(ptr+"/tokenName", "no drone named %q%s", a.TokenName, b.didYouMean(a.TokenName, b.tokenNames))
		case !k.Token:
			b.errorf(ptr+"/tokenName", "%s is not a token (\"token\": true): cards create only tokens", a.TokenName)
		}
		if at.card != nil && at.card.Targeting.Type != "LANE" && at.card.Targeting.Type != "DRONE" {
			b.errorf(ptr, "CREATE_TOKENS places tokens in the card's lane: the card must target a LANE")
		}
	case singleMoveArgs:
		if at.card.Targeting.Type != "DRONE" {
			b.errorf(ptr, "SINGLE_MOVE moves the card's target: the card's targeting must be DRONE")
		}
	case multiMoveArgs:
		if at.card.Targeting.Type != "DRONES" {
			b.errorf(ptr, "MULTI_MOVE moves the drones the card selects: the card's targeting must be DRONES")
		}
		if len(at.card.Effects) != 1 {
			b.errorf(ptr, "MULTI_MOVE must be its card's only effect: each move is resolved on its own")
		}
	}
	return c, b.errs == before
}

// scope checks an effect's scope, or fills in its default.
func (b *builder) scope(name, scope, ptr string, at effectPlace) string {
	if at.card != nil {
		tt := at.card.Targeting.Type
		if scope == "" {
			switch {
			case tt == "DRONE":
				return "TARGET"
			case tt == "LANE" && name == "DAMAGE":
				return "LANE_ENEMIES"
			}
			b.errorf(ptr, "say which drones %s affects: scope TARGET (with DRONE targeting) or LANE_ENEMIES", name)
			return scope
		}
		switch scope {
		case "SELF", "TRIGGERING_DRONE":
			b.errorf(ptr+"/scope", "%s names a drone whose ability fired; a card has none: use TARGET or LANE_ENEMIES", scope)
		case "TARGET":
			if tt != "DRONE" {
				b.errorf(ptr+"/scope", "scope TARGET needs the card to target a DRONE")
			}
		case "LANE_ENEMIES":
			if tt != "LANE" && tt != "DRONE" {
				b.errorf(ptr+"/scope", "scope LANE_ENEMIES needs the card to target a LANE or a DRONE")
			}
		}
		return scope
	}
	info := at.info
	if scope == "" {
		switch {
		case name == "HEAL_HULL" || name == "MODIFY_STAT" || name == "DESTROY":
			return "SELF"
		case info.cat == catLane:
			return "TRIGGERING_DRONE"
		}
		b.errorf(ptr, "say which drone %s affects: scope SELF, TRIGGERING_DRONE or LANE_ENEMIES", name)
		return scope
	}
	switch scope {
	case "TARGET":
		b.errorf(ptr+"/scope", "scope TARGET is a card's target; an ability has none: use SELF, TRIGGERING_DRONE or LANE_ENEMIES")
	case "TRIGGERING_DRONE":
		if !info.droneSubject {
			b.errorf(ptr+"/scope", "%s events are not about a drone: TRIGGERING_DRONE names nothing", info.name)
		}
	}
	return scope
}

func (b *builder) cardEffects(c *CardDef) {
	if tt := c.Targeting.Type; (tt == "DRONE" || tt == "DRONES") && c.Targeting.Affinity == "" {
		c.Targeting.Affinity = "ANY"
		if tt == "DRONES" {
			c.Targeting.Affinity = "FRIENDLY"
		}
	}
	for i, raw := range c.Effects {
		call, ok := b.effect(raw, fmt.Sprintf("%s/effects/%d", c.ptr, i), effectPlace{card: c})
		if !ok {
			continue
		}
		if a, ok := call.Args.(multiMoveArgs); ok {
			c.moves = a.Count
		}
		c.calls = append(c.calls, call)
	}
	if c.Targeting.Type == "DRONES" && c.moves == 0 {
		b.errorf(c.ptr+"/targeting/type", "DRONES targeting selects drones for a MULTI_MOVE, which this card lacks")
	}
}
