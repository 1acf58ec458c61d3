package party

import "github.com/tabulagames/tabula/engine"

// Catalog is what a party board's events are made of, for the editor's
// forms: triggers, actions with their payload fields, priorities, and the
// states an event may start in.
type Catalog struct {
	Triggers        []Option        `json:"triggers"`
	Actions         []CatalogAction `json:"actions"`
	Priorities      []string        `json:"priorities"`
	DefaultPriority string          `json:"defaultPriority"`
	// PriorityOrder says which way priorities run: "highest-first" (a
	// CRITICAL event runs before a VERY_LOW one). Rule books run the other
	// way: there lower numbers run first.
	PriorityOrder string `json:"priorityOrder"`
	// PriorityDoc says the same in words.
	PriorityDoc string `json:"priorityDoc"`
	// States are an event's states in a board file.
	States []string `json:"states"`
}

// Option is a value with its meaning.
type Option struct {
	Value string `json:"value"`
	Doc   string `json:"doc"`
}

// CatalogAction is an action of a party board's event and its payload.
type CatalogAction struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Fields []FormField `json:"fields"`
}

// FormField is one member of a payload, in the shape every pack's editor
// forms share. Types: text, number, int, choice, bool (true or false),
// space (a space's id) and effect ({"type", "args": [id, turns]}).
type FormField struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Doc      string   `json:"doc"`
	Default  any      `json:"default,omitempty"`
	Required bool     `json:"required,omitempty"`
	Values   []string `json:"values,omitempty"`
	// Min and Max bound a number (int, number) or an effect's turns: the
	// loader refuses a value outside them. nil: no bound.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
}

// within returns a field with a range.
func within(f FormField, lo, hi float64) FormField {
	f.Min, f.Max = &lo, &hi
	return f
}

// Catalog returns the pack's catalog, a Catalog: every trigger and action
// (with the payload each reads, as docs/boards.md describes them), the
// priorities (listed from the lowest), the default one, and which way they
// run.
func (p *Pack) Catalog() any {
	message := FormField{Name: "message", Type: "text", Required: true, Doc: "the text to show; placeholders such as {{CURRENT_PLAYER_NAME}} and {{RANDOM_WORD}} are drawn when it is shown"}
	stat := FormField{Name: "statId", Type: "text", Required: true, Doc: "the stat, such as drinks"}
	mode := FormField{Name: "mode", Type: "choice", Default: "both", Values: statModes, Doc: "which of the stat's values change: both, the true one or the displayed one"}
	return Catalog{
		Triggers: []Option{
			{OnEnter, "each time the player enters the space (also passing through)"},
			{OnLand, "when a move ends on the space"},
			{OnExit, "when a step leaves the space"},
			{Code, "when its condition (CEL, the trigger's payload) holds, checked after the roll, each step and each action"},
		},
		Actions: []CatalogAction{
			{PromptAllPlayers, "Show a message to everybody; the current player acknowledges it, the others read it as a notice (every player acknowledges it with everyoneAcknowledges).",
				[]FormField{message, {Name: "everyoneAcknowledges", Type: "bool", Default: false, Doc: "every player must acknowledge the message, not only the current player"}}},
			{PromptCurrentPlayer, "Show a message to the current player.", []FormField{message}},
			{SetPlayerState, "Set the player's state; the game ends when everybody has COMPLETED_GAME.",
				[]FormField{{Name: "state", Type: "choice", Required: true, Values: PlayerStates, Doc: "the new state"}}},
			{DisplacePlayer, "Move on (positive) or back along the path taken (negative).",
				[]FormField{within(FormField{Name: "steps", Type: "int", Required: true, Doc: "how many steps; negative to go back"}, -MaxDisplace, MaxDisplace)}},
			{ApplyEffect, "Put an effect on the player for some turns.",
				[]FormField{within(FormField{Name: "effect", Type: "effect", Required: true, Values: EffectTypes, Doc: "the effect, its id and its number of turns"}, 0, MaxEffectTurns)}},
			{SetPlayerSpace, "Teleport the player to a space.",
				[]FormField{{Name: "spaceId", Type: "space", Required: true, Doc: "the space to go to"}}},
			{ForceStop, "End the move here.", []FormField{}},
			{SwapPlaces, "Swap spaces with a player (by name or seat), or a random other one.",
				[]FormField{{Name: "targetPlayerId", Type: "text", Doc: "whom to swap with; empty for a random other player"}}},
			{SetStat, "Set a stat of the player.",
				[]FormField{stat, within(FormField{Name: "value", Type: "number", Required: true, Doc: "the new value"}, -MaxStat, MaxStat), mode}},
			{ChangeStat, "Add to a stat of the player.",
				[]FormField{stat, within(FormField{Name: "delta", Type: "number", Required: true, Doc: "how much to add (negative: take away)"}, -MaxStat, MaxStat), mode}},
		},
		Priorities:      engine.PriorityNames,
		DefaultPriority: engine.Mid.String(),
		PriorityOrder:   "highest-first",
		PriorityDoc:     "Events that fire together run highest priority first (CRITICAL before VERY_LOW), ties in board order.",
		States:          []string{"READY", "INACTIVE"},
	}
}
