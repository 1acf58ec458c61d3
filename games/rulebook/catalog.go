package rulebook

import (
	"fmt"
	"slices"
	"strings"
)

// FieldType is the kind of value a field of an action, a preset or a
// predicate holds. It decides how the field is checked and how an editor
// offers it (a number box, a tile picker, a CEL text box…).
type FieldType string

// The field types.
const (
	// TypeInt is a whole number, or a CEL expression that gives one
	// ("roll", "tile.rent * 2").
	TypeInt FieldType = "int"
	// TypeCount is a whole number written as such (no expression).
	TypeCount FieldType = "count"
	// TypeTile is a tile's id, or a CEL expression that gives one
	// ("tile.jump", "card.tile").
	TypeTile FieldType = "tile"
	// TypeColour is a colour of the board or of a card, or a CEL
	// expression that gives one ("card.colour").
	TypeColour FieldType = "colour"
	// TypeKind is a tile kind ("chute", "property").
	TypeKind FieldType = "kind"
	// TypeText is free text.
	TypeText FieldType = "text"
	// TypeEvent is an event name: a built-in one or one the file declares.
	TypeEvent FieldType = "event"
	// TypeDeck is the name of one of the file's decks.
	TypeDeck FieldType = "deck"
	// TypeCard is the name of a card.
	TypeCard FieldType = "card"
	// TypeProp is the name of a player property (a counter each player
	// has, such as "stuck" or "doubles").
	TypeProp FieldType = "prop"
	// TypeCondition is a CEL expression that gives true or false.
	TypeCondition FieldType = "condition"
	// TypeChoice is one of the field's Values.
	TypeChoice FieldType = "choice"
)

// Field describes one field of an action, a preset or a predicate.
type Field struct {
	Name string    `json:"name"`
	Type FieldType `json:"type"`
	Doc  string    `json:"doc"`
	// Default is the value of an omitted field (nil: none).
	Default any `json:"default,omitempty"`
	// Required fields have no default.
	Required bool `json:"required,omitempty"`
	// Values are the choices of a TypeChoice field.
	Values []string `json:"values,omitempty"`
	// Min and Max bound a number (TypeInt, TypeCount): a number written
	// outside them is an error, and a number an expression gives outside
	// them is brought back into them when the action runs. nil: no bound.
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
}

// The ranges of the numbers of actions and presets: what a match can play
// without breaking (a walk, a roll and money all stay within bounds).
const (
	// maxDice and maxSides bound a roll.
	maxDice  = 100
	maxSides = 1000
	// maxSteps bounds a walk, so that a huge number cannot hang a match.
	maxSteps = 10_000
	// maxAmount bounds an amount of money or points, and a property.
	maxAmount = 1_000_000_000
	// maxPriority bounds priorities, both ways.
	maxPriority = 1000
	// maxRoundLimit bounds the TurnLimit preset's rounds.
	maxRoundLimit = 100_000
)

// between returns the bounds of a range, for a Field's Min and Max.
func between(lo, hi int) (min, max *int) { return &lo, &hi }

// ranged returns a field with a range.
func ranged(f Field, lo, hi int) Field {
	f.Min, f.Max = between(lo, hi)
	return f
}

// outside reports whether n is outside a field's range.
func (f Field) outside(n int) bool {
	return (f.Min != nil && n < *f.Min) || (f.Max != nil && n > *f.Max)
}

// clamp brings n into a field's range.
func (f Field) clamp(n int) int {
	if f.Min != nil {
		n = max(n, *f.Min)
	}
	if f.Max != nil {
		n = min(n, *f.Max)
	}
	return n
}

// rangeText says a field's range: "from 1 to 100".
func (f Field) rangeText() string {
	switch {
	case f.Min != nil && f.Max != nil:
		return fmt.Sprintf("from %d to %d", *f.Min, *f.Max)
	case f.Min != nil:
		return fmt.Sprintf("at least %d", *f.Min)
	case f.Max != nil:
		return fmt.Sprintf("at most %d", *f.Max)
	}
	return "any number"
}

// EventInfo describes an event type.
type EventInfo struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
	// Fields are what the event carries, among player, other, tile,
	// amount, card, deck and prop; conditions read them as event.FIELD.
	Fields []string `json:"fields"`
	// Filters are the members a rule's "when" may add for this event
	// (tile, kind, colour, card, deck, prop).
	Filters []string `json:"filters"`
	// Emittable events may be announced by the EMIT action.
	Emittable bool `json:"emittable"`
	// Custom is set for the events a game file declares.
	Custom bool `json:"custom,omitempty"`
}

// ActionInfo describes an action: what it does, its fields, the events it
// emits and the decision it may ask for.
type ActionInfo struct {
	Name   string  `json:"name"`
	Doc    string  `json:"doc"`
	Fields []Field `json:"fields"`
	// Player is the default of the action's "player" member: whose queue
	// the action goes to.
	Player string `json:"player"`
	// Emits are the events the action may emit (EMIT emits the one it
	// names).
	Emits []string `json:"emits"`
	// Asks is the kind of decision the action may ask its player for, or
	// "" if it never asks.
	Asks string `json:"asks,omitempty"`
}

// PresetInfo describes a preset rule: a named building block that stands
// for one or more hand-written rules (see Expand).
type PresetInfo struct {
	Name   string  `json:"name"`
	Doc    string  `json:"doc"`
	Params []Field `json:"params"`
	// Origin says where the preset comes from (a rule of the original
	// editor, a game).
	Origin string `json:"origin"`

	expand func(p presetArgs) []Rule
}

// PredicateInfo describes a ready-made condition an editor can offer for
// the events that carry what it needs, and turn into CEL.
type PredicateInfo struct {
	Name   string  `json:"name"`
	Doc    string  `json:"doc"`
	Params []Field `json:"params"`
	// CEL is the condition with {param} where each parameter goes.
	CEL string `json:"cel"`
	// Needs are the event fields the predicate reads ("tile", "card"…);
	// it makes sense for the events that carry all of them.
	Needs []string `json:"needs"`
}

// VariableInfo describes a variable that conditions and expressions read.
type VariableInfo struct {
	Name   string  `json:"name"`
	Type   string  `json:"type"`
	Doc    string  `json:"doc"`
	Fields []Field `json:"fields,omitempty"`
}

// Choice is one value of a choice with its meaning.
type Choice struct {
	Value string `json:"value"`
	Doc   string `json:"doc"`
}

// CatalogInfo is everything a rule can be made of, as data: the events, the
// actions with their fields, the preset rules with their parameters, the
// predicates for conditions, the variables of CEL, the player selectors of
// the "player" member of actions, and the priorities' meaning.
type CatalogInfo struct {
	Events     []EventInfo     `json:"events"`
	Actions    []ActionInfo    `json:"actions"`
	Presets    []PresetInfo    `json:"presets"`
	Predicates []PredicateInfo `json:"predicates"`
	Variables  []VariableInfo  `json:"variables"`
	Selectors  []Choice        `json:"selectors"`
	// DefaultPriority is the priority of an action that gives none.
	DefaultPriority int `json:"defaultPriority"`
	// PriorityOrder says which way priorities run: "lowest-first" (an
	// action at 1 runs before one at 5). Party boards run the other way:
	// there the highest priority runs first.
	PriorityOrder string `json:"priorityOrder"`
	// PriorityDoc says the same in words.
	PriorityDoc string `json:"priorityDoc"`
}

// Catalog returns everything a rule can be made of. The value is a copy:
// changing it changes nothing else.
func Catalog() CatalogInfo {
	c := CatalogInfo{
		Events:          slices.Clone(builtinEvents),
		Predicates:      slices.Clone(predicates),
		Variables:       slices.Clone(variables),
		Selectors:       slices.Clone(selectors),
		DefaultPriority: DefaultPriority,
		PriorityOrder:   "lowest-first",
		PriorityDoc:     "Queued actions run lowest priority number first (1 before 5), equal numbers in the order they were queued.",
	}
	for _, a := range actions {
		c.Actions = append(c.Actions, *a)
	}
	for _, p := range presets {
		c.Presets = append(c.Presets, *p)
	}
	return c
}

// EventsOf returns the events of a game: the built-in ones and those the
// file declares.
func EventsOf(f *File) []EventInfo {
	out := slices.Clone(builtinEvents)
	for _, e := range f.Events {
		out = append(out, customEvent(e))
	}
	return out
}

func customEvent(e CustomEvent) EventInfo {
	doc := e.Description
	if doc == "" {
		doc = "Declared by the game; emitted by EMIT."
	}
	return EventInfo{Name: e.Name, Doc: doc, Fields: []string{"player", "amount"}, Filters: []string{}, Emittable: true, Custom: true}
}

// PredicatesFor returns the predicates that make sense for an event: those
// whose needs the event carries.
func PredicatesFor(ev EventInfo) []PredicateInfo {
	var out []PredicateInfo
	for _, p := range predicates {
		ok := true
		for _, n := range p.Needs {
			if !slices.Contains(ev.Fields, n) {
				ok = false
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// Render returns the predicate as a CEL condition with the given
// arguments; text arguments are quoted as CEL strings.
func (p PredicateInfo) Render(args map[string]string) (string, error) {
	out := p.CEL
	for _, f := range p.Params {
		v, ok := args[f.Name]
		if !ok {
			return "", fmt.Errorf("predicate %s needs %q", p.Name, f.Name)
		}
		if f.Type == TypeCount || f.Type == TypeInt {
			if _, err := fmt.Sscan(v, new(int)); err != nil {
				return "", fmt.Errorf("predicate %s: %q must be a whole number, not %q", p.Name, f.Name, v)
			}
		} else {
			v = celQuote(v)
		}
		out = strings.ReplaceAll(out, "{"+f.Name+"}", v)
	}
	return out, nil
}

// celQuote writes s as a CEL string literal.
func celQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}

// DefaultPriority is the priority of an action that gives none: the
// original editor's MEDIUM. Lower numbers run first.
const DefaultPriority = 5

// The event fields.
const (
	fPlayer = "player"
	fOther  = "other"
	fTile   = "tile"
	fAmount = "amount"
	fCard   = "card"
	fDeck   = "deck"
	fProp   = "prop"
)

// filtersOf lists the "when" filters an event with these fields accepts.
func filtersOf(fields []string) []string {
	out := []string{}
	if slices.Contains(fields, fTile) {
		out = append(out, "tile", "kind", "colour")
	}
	for _, f := range []string{fCard, fDeck, fProp} {
		if slices.Contains(fields, f) {
			out = append(out, f)
		}
	}
	return out
}

func ev(name, doc string, emittable bool, fields ...string) EventInfo {
	if fields == nil {
		fields = []string{}
	}
	return EventInfo{Name: name, Doc: doc, Fields: fields, Filters: filtersOf(fields), Emittable: emittable}
}

// The built-in events.
const (
	StartGame            = "START_GAME"
	StartTurn            = "START_TURN"
	EndTurn              = "END_TURN"
	CurrentPlayerChanged = "CURRENT_PLAYER_CHANGED"
	DiceRolled           = "DICE_ROLLED"
	CardDrawn            = "CARD_DRAWN"
	TilePassed           = "TILE_PASSED"
	TileLanded           = "TILE_LANDED"
	TileBought           = "TILE_BOUGHT"
	BuyDeclined          = "BUY_DECLINED"
	ScoreChanged         = "SCORE_CHANGED"
	Paid                 = "PAID"
	PropChanged          = "PROP_CHANGED"
	PlayerRemoved        = "PLAYER_REMOVED"
	PlayerWon            = "PLAYER_WON"
	GameOver             = "GAME_OVER"
)

var builtinEvents = []EventInfo{
	ev(StartGame, "The match begins, every player on the starting tile. The game emits it once; a rule on it (the Turn preset's) starts the first turn.", false),
	ev(StartTurn, "A player's turn begins; the amount is the turn's number. EMIT announces it (the Turn preset does); the game counts turns and rounds when it does, and ends a match that reached its round limit.", true, fPlayer, fAmount),
	ev(EndTurn, "A player's turn ends. EMIT announces it; the Turn preset then passes the turn on.", true, fPlayer),
	ev(CurrentPlayerChanged, "SET_CURRENT_PLAYER made another player (or the same one) the current player.", false, fPlayer),
	ev(DiceRolled, "A player rolled; the amount is the total.", false, fPlayer, fAmount),
	ev(CardDrawn, "A player drew a card from a deck.", false, fPlayer, fCard, fDeck),
	ev(TilePassed, "A moving player stepped onto a tile on the way (not the one the move ends on).", false, fPlayer, fTile),
	ev(TileLanded, "A player's move ended on a tile (a walk, a jump or a teleport).", false, fPlayer, fTile),
	ev(TileBought, "A player bought a tile (amount: the price paid).", false, fPlayer, fTile, fAmount),
	ev(BuyDeclined, "A player chose not to buy a tile.", false, fPlayer, fTile),
	ev(ScoreChanged, "A player's score changed by the amount.", false, fPlayer, fAmount),
	ev(Paid, "A player paid the amount to another player (other; -1 for the bank), for the tile if there is one.", false, fPlayer, fOther, fAmount, fTile),
	ev(PropChanged, "A player property changed by the amount.", false, fPlayer, fAmount, fProp),
	ev(PlayerRemoved, "A player is out of the game; their tiles are for sale again.", false, fPlayer),
	ev(PlayerWon, "A player won.", false, fPlayer),
	ev(GameOver, "The game ended; nothing happens after it.", false),
}

// The decision kinds: what actions ask players for, and the kinds of
// commands that answer them.
const (
	KindRoll       = "roll"
	KindDraw       = "draw"
	KindChoosePath = "choose-path"
	KindBuy        = "buy"
	KindBid        = "bid"
)

// The player selectors: whose queue an action goes to.
const (
	SelCurrent = "current"
	SelEvent   = "event"
	SelOther   = "other"
	SelOwner   = "owner"
	SelEach    = "each"
	SelOthers  = "others"
)

var selectors = []Choice{
	{SelCurrent, "the current player (whose turn it is)"},
	{SelEvent, "the player the event is about (the current player if it is about nobody)"},
	{SelOther, "the event's other player (who was paid)"},
	{SelOwner, "the owner of the event's tile (nobody if it has none)"},
	{SelEach, "every player still in the game, in seat order from the current one; their decisions are asked at once"},
	{SelOthers, "every player still in the game but the current one, in seat order"},
}

func selectorNames() []string {
	var out []string
	for _, s := range selectors {
		out = append(out, s.Value)
	}
	return out
}

// The action names.
const (
	actEmit       = "EMIT"
	actSetCurrent = "SET_CURRENT_PLAYER"
	actRoll       = "ROLL_DIE"
	actDraw       = "DRAW_CARD"
	actMove       = "MOVE"
	actMoveTo     = "MOVE_TO"
	actMoveToNext = "MOVE_TO_NEXT"
	actScore      = "CHANGE_SCORE"
	actPay        = "PAY"
	actBuy        = "BUY"
	actAuction    = "AUCTION"
	actChangeProp = "CHANGE_PROP"
	actSetProp    = "SET_PROP"
	actRemove     = "REMOVE_PLAYER"
	actWin        = "WIN"
	actEndGame    = "END_GAME"
	actSay        = "SAY"
)

var actions = actionDefaults([]*ActionInfo{
	{Name: actEmit, Doc: "Announce an event (the original's EventAction): START_TURN, END_TURN or one the game declares. It is about the action's player.",
		Fields: []Field{
			{Name: "event", Type: TypeEvent, Doc: "the event to announce", Required: true},
			ranged(Field{Name: "amount", Type: TypeInt, Doc: "the event's amount", Default: 0}, -maxAmount, maxAmount),
		}},
	{Name: actSetCurrent, Doc: "Make a player the current one (the original's SetMetadataAction(CURRENT_PLAYER)).",
		Fields: []Field{
			{Name: "to", Type: TypeChoice, Doc: "next: the next player still in the game after the current one, in seat order (a new round begins when it wraps around); this: the action's player", Default: "next", Values: []string{"next", "this"}},
		}, Emits: []string{CurrentPlayerChanged}},
	{Name: actRoll, Doc: "Ask the player to roll, then roll the dice; the total is `roll` until the next roll.",
		Fields: []Field{
			ranged(Field{Name: "dice", Type: TypeInt, Doc: "how many dice", Default: 1}, 1, maxDice),
			ranged(Field{Name: "sides", Type: TypeInt, Doc: "the sides of each die", Default: 6}, 1, maxSides),
		}, Emits: []string{DiceRolled}, Asks: KindRoll},
	{Name: actDraw, Doc: "Ask the player to draw, then take the top card of a deck; the discards are shuffled back when it is empty. The card is `card` until the next draw.",
		Fields: []Field{
			{Name: "deck", Type: TypeDeck, Doc: "the deck to draw from", Required: true},
		}, Emits: []string{CardDrawn}, Asks: KindDraw},
	{Name: actMove, Doc: "Walk the player along the board's arrows (backwards for a negative number), one tile at a time; at a fork the player chooses, at a dead end the walk stops.",
		Fields: []Field{
			ranged(Field{Name: "steps", Type: TypeInt, Doc: "how many tiles (negative: backwards)", Default: "roll"}, -maxSteps, maxSteps),
		}, Emits: []string{TilePassed, TileLanded}, Asks: KindChoosePath},
	{Name: actMoveTo, Doc: "Put the player on a tile at once (a chute, a ladder, a card that sends them somewhere). Nothing happens if the tile is \"\".",
		Fields: []Field{
			{Name: "to", Type: TypeTile, Doc: "the tile", Required: true},
		}, Emits: []string{TileLanded}},
	{Name: actMoveToNext, Doc: "Walk the player forward (along the first arrow of each tile) to the next tile of a colour, as many times as asked; with none ahead, to the end of the path.",
		Fields: []Field{
			{Name: "colour", Type: TypeColour, Doc: "the colour to walk to", Required: true},
			ranged(Field{Name: "times", Type: TypeInt, Doc: "how many tiles of that colour", Default: 1}, 1, maxSteps),
		}, Emits: []string{TilePassed, TileLanded}},
	{Name: actScore, Doc: "Add the amount (negative: take it) to the player's score.",
		Fields: []Field{
			ranged(Field{Name: "amount", Type: TypeInt, Doc: "the change", Required: true}, -maxAmount, maxAmount),
		}, Emits: []string{ScoreChanged}},
	{Name: actPay, Doc: "The player pays an amount to others (or to the bank): the payer's score goes down, the payees' up.",
		Fields: []Field{
			ranged(Field{Name: "amount", Type: TypeInt, Doc: "how much each payee gets", Required: true}, 0, maxAmount),
			{Name: "to", Type: TypeChoice, Doc: "who is paid: the owner of the event's tile, the current player, the event's player or other player, every other player, or the bank", Default: SelOwner,
				Values: []string{SelOwner, SelCurrent, SelEvent, SelOther, SelOthers, "bank"}},
		}, Emits: []string{Paid, ScoreChanged}},
	{Name: actBuy, Doc: "Offer the player a tile that nobody owns and that they can afford; if they accept, they pay its price and own it.",
		Fields: []Field{
			{Name: "tile", Type: TypeTile, Doc: "the tile for sale", Default: "tile.id"},
			ranged(Field{Name: "price", Type: TypeInt, Doc: "its price", Default: "tile.price"}, 0, maxAmount),
		}, Emits: []string{TileBought, BuyDeclined, ScoreChanged}, Asks: KindBuy},
	{Name: actAuction, Doc: "Auction a tile nobody owns among the action's players, all bidding at once (a quarter, half, three quarters, once, 1¼ or 1½ times its price, up to what each has); the highest bid buys it, ties going to the first in seat order from the current player.",
		Fields: []Field{
			{Name: "tile", Type: TypeTile, Doc: "the tile for sale", Default: "tile.id"},
		}, Player: SelEach, Emits: []string{TileBought, ScoreChanged}, Asks: KindBid},
	{Name: actChangeProp, Doc: "Add the amount to one of the player's properties (counters such as \"stuck\").",
		Fields: []Field{
			{Name: "prop", Type: TypeProp, Doc: "the property", Required: true},
			ranged(Field{Name: "amount", Type: TypeInt, Doc: "the change", Default: 1}, -maxAmount, maxAmount),
		}, Emits: []string{PropChanged}},
	{Name: actSetProp, Doc: "Set one of the player's properties.",
		Fields: []Field{
			{Name: "prop", Type: TypeProp, Doc: "the property", Required: true},
			ranged(Field{Name: "value", Type: TypeInt, Doc: "the new value", Default: 0}, -maxAmount, maxAmount),
		}, Emits: []string{PropChanged}},
	{Name: actRemove, Doc: "Take the player out of the game (bankrupt): their tiles are for sale again and they play no more turns. When nobody is left the game ends without a winner.",
		Fields: []Field{}, Emits: []string{PlayerRemoved, GameOver}},
	{Name: actWin, Doc: "The player wins and the game ends (several players win together when the action is for several).",
		Fields: []Field{}, Emits: []string{PlayerWon, GameOver}},
	{Name: actEndGame, Doc: "End the game: the player(s) with the highest score still in the game win, or nobody.",
		Fields: []Field{
			{Name: "winner", Type: TypeChoice, Doc: "who wins", Default: "highest-score", Values: []string{"highest-score", "none"}},
		}, Emits: []string{PlayerWon, GameOver}},
	{Name: actSay, Doc: "Write a line in the game's log (for the players; it changes nothing).",
		Fields: []Field{
			{Name: "text", Type: TypeText, Doc: "the line", Required: true},
		}},
})

// actionDefaults gives actions without a default player the current
// player's queue, and a list of the events they emit even when empty.
func actionDefaults(list []*ActionInfo) []*ActionInfo {
	for _, a := range list {
		if a.Player == "" {
			a.Player = SelCurrent
		}
		if a.Emits == nil {
			a.Emits = []string{}
		}
	}
	return list
}

// actionInfo returns the description of a named action, or nil.
func actionInfo(name string) *ActionInfo {
	for _, a := range actions {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// field returns the action's field of that name (a zero Field if none).
func (a *ActionInfo) field(name string) Field {
	for _, f := range a.Fields {
		if f.Name == name {
			return f
		}
	}
	return Field{}
}

func actionNames() []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Name)
	}
	return out
}

// priorityField is the "priority" member of actions.
var priorityField = ranged(Field{Name: "priority", Type: TypeCount, Doc: "when: lower numbers run first (1 before 5; a party board runs its highest first), equal ones in the order they were queued", Default: DefaultPriority}, -maxPriority, maxPriority)

// commonActionFields are the members every action has besides its own.
var commonActionFields = []Field{
	{Name: "action", Type: TypeChoice, Doc: "what to do", Required: true},
	priorityField,
	{Name: "player", Type: TypeChoice, Doc: "whose queue the action goes to (see the selectors)"},
	{Name: "where", Type: TypeCondition, Doc: "for actions of several players: only those for whom this holds (player is each of them in turn)"},
}

var predicates = predicateDefaults([]PredicateInfo{
	{Name: "TileKind", Doc: "the tile is of a kind", Params: []Field{{Name: "kind", Type: TypeKind, Doc: "the kind", Required: true}}, CEL: "tile.kind == {kind}", Needs: []string{fTile}},
	{Name: "TileIs", Doc: "the tile is this one", Params: []Field{{Name: "tile", Type: TypeTile, Doc: "the tile", Required: true}}, CEL: "tile.id == {tile}", Needs: []string{fTile}},
	{Name: "TileColour", Doc: "the tile has a colour", Params: []Field{{Name: "colour", Type: TypeColour, Doc: "the colour", Required: true}}, CEL: "tile.colour == {colour}", Needs: []string{fTile}},
	{Name: "TileForSale", Doc: "nobody owns the tile and it has a price", CEL: "tile.owner < 0 && tile.price > 0", Needs: []string{fTile}},
	{Name: "TileOwnedByOther", Doc: "another player owns the tile", CEL: "tile.owner >= 0 && tile.owner != player.seat", Needs: []string{fTile}},
	{Name: "TileOwnedByPlayer", Doc: "the player owns the tile", CEL: "tile.owner == player.seat", Needs: []string{fTile}},
	{Name: "TileHasJump", Doc: "the tile is a chute or a ladder (it has a jump target)", CEL: "tile.jump != ''", Needs: []string{fTile}},
	{Name: "TileIsLast", Doc: "no arrow leads on from the tile (the end of a finite board)", CEL: "tile.last", Needs: []string{fTile}},
	{Name: "CanAfford", Doc: "the player's score covers the tile's price", CEL: "player.score >= tile.price", Needs: []string{fTile}},
	{Name: "ScoreBelow", Doc: "the player's score is below a number", Params: []Field{{Name: "amount", Type: TypeCount, Doc: "the bound", Required: true}}, CEL: "player.score < {amount}", Needs: []string{fPlayer}},
	{Name: "ScoreAtLeast", Doc: "the player's score is at least a number", Params: []Field{{Name: "amount", Type: TypeCount, Doc: "the bound", Required: true}}, CEL: "player.score >= {amount}", Needs: []string{fPlayer}},
	{Name: "PropAtLeast", Doc: "a property of the player is at least a number", Params: []Field{{Name: "prop", Type: TypeProp, Doc: "the property", Required: true}, {Name: "amount", Type: TypeCount, Doc: "the bound", Required: true}}, CEL: "player.props[{prop}] >= {amount}", Needs: []string{fPlayer}},
	{Name: "PropIs", Doc: "a property of the player is a number", Params: []Field{{Name: "prop", Type: TypeProp, Doc: "the property", Required: true}, {Name: "amount", Type: TypeCount, Doc: "the value", Required: true}}, CEL: "player.props[{prop}] == {amount}", Needs: []string{fPlayer}},
	{Name: "AmountIs", Doc: "the event's amount (the roll's total…) is a number", Params: []Field{{Name: "amount", Type: TypeCount, Doc: "the value", Required: true}}, CEL: "event.amount == {amount}", Needs: []string{fAmount}},
	{Name: "AmountAtLeast", Doc: "the event's amount is at least a number", Params: []Field{{Name: "amount", Type: TypeCount, Doc: "the bound", Required: true}}, CEL: "event.amount >= {amount}", Needs: []string{fAmount}},
	{Name: "CardIs", Doc: "the card drawn is this one", Params: []Field{{Name: "card", Type: TypeCard, Doc: "the card's name", Required: true}}, CEL: "card.name == {card}", Needs: []string{fCard}},
	{Name: "CardColour", Doc: "the card drawn has a colour", Params: []Field{{Name: "colour", Type: TypeColour, Doc: "the colour", Required: true}}, CEL: "card.colour == {colour}", Needs: []string{fCard}},
	{Name: "CardSendsToTile", Doc: "the card drawn sends the player to a tile", CEL: "card.tile != ''", Needs: []string{fCard}},
	{Name: "IsCurrentPlayer", Doc: "the event is about the current player", CEL: "player.seat == current.seat", Needs: []string{fPlayer}},
	{Name: "PlayersAtMost", Doc: "at most this many players are still in the game", Params: []Field{{Name: "count", Type: TypeCount, Doc: "the bound", Required: true}}, CEL: "game.players <= {count}", Needs: []string{}},
	{Name: "RoundAbove", Doc: "the round is past a number", Params: []Field{{Name: "count", Type: TypeCount, Doc: "the bound", Required: true}}, CEL: "game.round > {count}", Needs: []string{}},
})

// predicateDefaults gives predicates without parameters an empty list of
// them.
func predicateDefaults(list []PredicateInfo) []PredicateInfo {
	for i := range list {
		if list[i].Params == nil {
			list[i].Params = []Field{}
		}
	}
	return list
}

var playerFields = []Field{
	{Name: "seat", Type: TypeCount, Doc: "the seat, from 0"},
	{Name: "name", Type: TypeText, Doc: "the name"},
	{Name: "score", Type: TypeCount, Doc: "the score, which the game may name (players.scoreName: money, points)"},
	{Name: "tile", Type: TypeTile, Doc: "the id of the tile they stand on"},
	{Name: "active", Type: TypeCondition, Doc: "still in the game"},
	{Name: "turns", Type: TypeCount, Doc: "turns begun"},
	{Name: "owned", Type: TypeCount, Doc: "how many tiles they own"},
	{Name: "props", Type: TypeProp, Doc: "their properties, a map: player.props['stuck']"},
}

var variables = []VariableInfo{
	{Name: "event", Type: "Event", Doc: "the event the rule reacts to", Fields: []Field{
		{Name: "type", Type: TypeEvent, Doc: "its name"},
		{Name: "player", Type: TypeCount, Doc: "the seat it is about, -1 if none"},
		{Name: "other", Type: TypeCount, Doc: "the other seat (PAID: who was paid), -1 if none"},
		{Name: "tile", Type: TypeTile, Doc: "the tile's id, '' if none"},
		{Name: "amount", Type: TypeCount, Doc: "its number"},
		{Name: "card", Type: TypeCard, Doc: "the card's name, '' if none"},
		{Name: "deck", Type: TypeDeck, Doc: "the deck's name, '' if none"},
		{Name: "prop", Type: TypeProp, Doc: "the property's name, '' if none"},
	}},
	{Name: "player", Type: "Player", Doc: "in a rule's condition, the player the event is about (else the current player); in an action, the player the action is for", Fields: playerFields},
	{Name: "current", Type: "Player", Doc: "the current player", Fields: playerFields},
	{Name: "players", Type: "list(Player)", Doc: "every player in seat order, out of the game or not"},
	{Name: "tile", Type: "Tile", Doc: "the event's tile, or else the tile the player stands on", Fields: []Field{
		{Name: "id", Type: TypeTile, Doc: "its id"},
		{Name: "name", Type: TypeText, Doc: "its name"},
		{Name: "kind", Type: TypeKind, Doc: "its kind"},
		{Name: "colour", Type: TypeColour, Doc: "its colour"},
		{Name: "index", Type: TypeCount, Doc: "its position in the board's list"},
		{Name: "price", Type: TypeCount, Doc: "its price"},
		{Name: "rent", Type: TypeCount, Doc: "its rent"},
		{Name: "jump", Type: TypeTile, Doc: "its jump target, '' if none"},
		{Name: "owner", Type: TypeCount, Doc: "the owner's seat, -1 if nobody owns it"},
		{Name: "last", Type: TypeCondition, Doc: "no arrow leads on from it"},
		{Name: "setOwned", Type: TypeCondition, Doc: "its owner owns every tile of its colour"},
		{Name: "props", Type: TypeProp, Doc: "its own numbers, a map: tile.props['tax']"},
	}},
	{Name: "card", Type: "Card", Doc: "the card drawn last (empty before the first draw)", Fields: []Field{
		{Name: "name", Type: TypeCard, Doc: "its name"},
		{Name: "deck", Type: TypeDeck, Doc: "its deck"},
		{Name: "colour", Type: TypeColour, Doc: "its colour"},
		{Name: "tile", Type: TypeTile, Doc: "the tile it sends to, '' if none"},
		{Name: "move", Type: TypeCount, Doc: "its number (how many tiles of its colour), 1 unless the card says"},
		{Name: "props", Type: TypeProp, Doc: "its own numbers, a map"},
	}},
	{Name: "game", Type: "Game", Doc: "the game", Fields: []Field{
		{Name: "turn", Type: TypeCount, Doc: "turns begun"},
		{Name: "round", Type: TypeCount, Doc: "the round, from 1"},
		{Name: "players", Type: TypeCount, Doc: "players still in the game"},
		{Name: "seats", Type: TypeCount, Doc: "players at the start"},
		{Name: "roll", Type: TypeCount, Doc: "the last roll's total"},
	}},
	{Name: "roll", Type: "int", Doc: "the last roll's total (game.roll)"},
}
