package rulebook

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// File is a rule book game file as written: what an editor loads, changes
// and saves. Decode reads one without judging it; Parse and Load also
// check it and make it playable; Format writes it back.
type File struct {
	// Schema is the file's "$schema", kept so that editors keep offering
	// completion.
	Schema string `json:"$schema,omitempty"`
	Game   string `json:"game"`
	Name   string `json:"name,omitempty"`
	// Description says what the game is, for players; HowToPlay how it is
	// played (the goal, a turn, what ends it); Notes are the designer's,
	// never shown to players.
	Description string        `json:"description,omitempty"`
	HowToPlay   string        `json:"howToPlay,omitempty"`
	Notes       string        `json:"notes,omitempty"`
	Players     Players       `json:"players,omitzero"`
	Board       Board         `json:"board"`
	Decks       []Deck        `json:"decks,omitempty"`
	Events      []CustomEvent `json:"events,omitempty"`
	Rules       []Rule        `json:"rules"`
}

// Players says how many may play and how each starts.
type Players struct {
	// Min and Max bound the number of players (defaults 2 and 6).
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// ScoreName is what the game calls its players' score ("money",
	// "points"), for the log and the page; "" if it names none.
	ScoreName string `json:"scoreName,omitempty"`
	// PropLabels are what players call the players' properties, by name
	// ("stuck": "turns stuck"); a property without one is called by its
	// name, in words.
	PropLabels map[string]string `json:"propLabels,omitempty"`
	Start      PlayerStart       `json:"start,omitzero"`
}

// PlayerStart is every player's starting state.
type PlayerStart struct {
	// Tile is where players start (default: the first tile).
	Tile  string `json:"tile,omitempty"`
	Score int    `json:"score,omitempty"`
	// Props are the players' properties (counters) and their starting
	// values; actions may add more.
	Props map[string]int `json:"props,omitempty"`
}

// Board is a directed graph of tiles.
type Board struct {
	Tiles []Tile `json:"tiles"`
}

// Tile is one tile of the board.
type Tile struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	Kind string `json:"kind,omitempty"`
	// X and Y place the tile for drawing.
	X float64 `json:"x,omitempty"`
	Y float64 `json:"y,omitempty"`
	// Next are the tiles a walk may go on to, in order (the first is the
	// main path); none: the board ends here.
	Next   []string `json:"next,omitempty"`
	Price  int      `json:"price,omitempty"`
	Rent   int      `json:"rent,omitempty"`
	Colour string   `json:"colour,omitempty"`
	// Jump is where a chute or a ladder leads.
	Jump  string         `json:"jump,omitempty"`
	Props map[string]int `json:"props,omitempty"`
}

// Deck is a named deck of cards. Rules name it by Name; players read its
// Title ("Chance"), if it has one.
type Deck struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	Cards []Card `json:"cards"`
}

// Card is one kind of card of a deck.
type Card struct {
	Name   string `json:"name"`
	Colour string `json:"colour,omitempty"`
	// Tile is where the card sends the player, if anywhere.
	Tile string `json:"tile,omitempty"`
	// Move is the card's number (how many tiles of its colour); 0 counts
	// as 1.
	Move int `json:"move,omitempty"`
	// Count is how many copies the deck holds (0 counts as 1).
	Count int            `json:"count,omitempty"`
	Props map[string]int `json:"props,omitempty"`
}

// CustomEvent is an event a game declares for its rules to EMIT.
type CustomEvent struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Rule is one rule: a preset with its parameters, or a hand-written rule.
type Rule struct {
	Name        string
	Description string
	// Preset names a preset rule; Params are its parameters. For a
	// hand-written rule, Params holds any members the format does not
	// know (they are reported, and kept so that nothing is lost).
	Preset string
	Params map[string]json.RawMessage
	// When, If and Then are a hand-written rule's event, condition and
	// actions.
	When When
	If   string
	Then []Action
}

// When is the event a rule reacts to and its optional filters.
type When struct {
	Event  string `json:"event"`
	Tile   string `json:"tile,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Colour string `json:"colour,omitempty"`
	Card   string `json:"card,omitempty"`
	Deck   string `json:"deck,omitempty"`
	Prop   string `json:"prop,omitempty"`
}

// Action is one action of a rule's "then".
type Action struct {
	Action   string
	Priority int
	// Player is whose queue the action goes to ("" for the action's
	// default); Where filters several players.
	Player string
	Where  string
	// Fields are the action's own fields, as JSON.
	Fields map[string]json.RawMessage
}

// Decode reads a game file without judging it: members of the wrong type
// are left empty, unknown members of rules and actions are kept. It fails
// only on JSON that does not parse. Parse reports the problems.
func Decode(data []byte) (*File, error) {
	if err := json.Unmarshal(data, new(any)); err != nil {
		return nil, err
	}
	f := &File{}
	json.Unmarshal(data, f) // best effort: Parse reports type errors
	return f, nil
}

// Format writes the file as indented JSON, members in a fixed order, so
// that load → edit → save keeps everything and diffs stay small.
func Format(f *File) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// members writes an object's members in order; values are JSON or Go
// values to encode.
type members struct {
	b bytes.Buffer
	n int
}

func (m *members) add(name string, v any) {
	js, ok := v.(json.RawMessage)
	if !ok {
		js, _ = marshal(v)
	}
	if m.n == 0 {
		m.b.WriteByte('{')
	} else {
		m.b.WriteByte(',')
	}
	m.n++
	k, _ := marshal(name)
	m.b.Write(k)
	m.b.WriteByte(':')
	m.b.Write(js)
}

func (m *members) done() []byte {
	if m.n == 0 {
		return []byte("{}")
	}
	m.b.WriteByte('}')
	return m.b.Bytes()
}

// marshal encodes without escaping <, > and &, which conditions use.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// sortedKeys returns a map's keys in a fixed order (Go maps have none).
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// ordered returns a map's keys: first those of known, in that order, then
// the others sorted.
func ordered(m map[string]json.RawMessage, known []Field) []string {
	var out []string
	for _, f := range known {
		if _, ok := m[f.Name]; ok {
			out = append(out, f.Name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// MarshalJSON writes a preset rule as {"preset", its parameters, "name",
// "description"} and a hand-written one as {"name", "description",
// "when", "if", "then"}.
func (r Rule) MarshalJSON() ([]byte, error) {
	var m members
	if r.Preset != "" {
		m.add("preset", r.Preset)
		var params []Field
		if p := presetInfo(r.Preset); p != nil {
			params = p.Params
		}
		for _, k := range ordered(r.Params, params) {
			m.add(k, r.Params[k])
		}
	}
	if r.Name != "" {
		m.add("name", r.Name)
	}
	if r.Description != "" {
		m.add("description", r.Description)
	}
	if r.Preset == "" {
		m.add("when", r.When)
		if r.If != "" {
			m.add("if", r.If)
		}
		then := r.Then
		if then == nil {
			then = []Action{}
		}
		m.add("then", then)
		for _, k := range ordered(r.Params, nil) {
			m.add(k, r.Params[k])
		}
	}
	return m.done(), nil
}

// object is a JSON object whose members are taken out one by one; what is
// left is what the format does not know.
type object map[string]json.RawMessage

// take decodes a member into v (leaving v as it is if the member has the
// wrong type) and removes it.
func (o object) take(name string, v any) {
	if raw, ok := o[name]; ok {
		json.Unmarshal(raw, v)
		delete(o, name)
	}
}

// UnmarshalJSON reads a rule, leaving members of the wrong type empty.
func (r *Rule) UnmarshalJSON(data []byte) error {
	*r = Rule{}
	var m object
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	m.take("preset", &r.Preset)
	m.take("name", &r.Name)
	m.take("description", &r.Description)
	if r.Preset == "" {
		var when json.RawMessage
		m.take("when", &when)
		r.When.decode(when)
		m.take("if", &r.If)
		var items []json.RawMessage
		m.take("then", &items)
		for _, it := range items {
			var a Action
			a.UnmarshalJSON(it)
			r.Then = append(r.Then, a)
		}
	}
	if len(m) > 0 {
		r.Params = m
	}
	return nil
}

// decode reads a "when" member by member, so that one of the wrong type
// does not lose the others.
func (w *When) decode(raw json.RawMessage) {
	var m map[string]json.RawMessage
	json.Unmarshal(raw, &m)
	for k, v := range m {
		var s string
		json.Unmarshal(v, &s)
		switch k {
		case "event":
			w.Event = s
		case "tile":
			w.Tile = s
		case "kind":
			w.Kind = s
		case "colour":
			w.Colour = s
		case "card":
			w.Card = s
		case "deck":
			w.Deck = s
		case "prop":
			w.Prop = s
		}
	}
}

// MarshalJSON writes {"action", its fields, "player", "where",
// "priority"}.
func (a Action) MarshalJSON() ([]byte, error) {
	var m members
	m.add("action", a.Action)
	var fields []Field
	if info := actionInfo(a.Action); info != nil {
		fields = info.Fields
	}
	for _, k := range ordered(a.Fields, fields) {
		m.add(k, a.Fields[k])
	}
	if a.Player != "" {
		m.add("player", a.Player)
	}
	if a.Where != "" {
		m.add("where", a.Where)
	}
	m.add("priority", a.Priority)
	return m.done(), nil
}

// UnmarshalJSON reads an action, leaving members of the wrong type empty;
// a missing priority is DefaultPriority.
func (a *Action) UnmarshalJSON(data []byte) error {
	*a = Action{Priority: DefaultPriority}
	var m object
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	m.take("action", &a.Action)
	m.take("priority", &a.Priority)
	m.take("player", &a.Player)
	m.take("where", &a.Where)
	a.Fields = m
	if a.Fields == nil {
		a.Fields = map[string]json.RawMessage{}
	}
	return nil
}
