package server

import (
	"io"
	"net/http"
	"path"
	"slices"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/rulebook"
)

// What the rule editor asks the server: what rules and boards are made of,
// a library game's source, and whether a game held in the page is valid.

// RulebookCatalog is rulebook.Catalog() with, for each built-in event, the
// names of the predicates that make sense for it.
type RulebookCatalog struct {
	rulebook.CatalogInfo
	PredicatesFor map[string][]string `json:"predicatesFor"`
}

func (srv *Server) rulebookCatalog(w http.ResponseWriter, req *http.Request) {
	c := RulebookCatalog{CatalogInfo: rulebook.Catalog(), PredicatesFor: map[string][]string{}}
	for _, ev := range c.Events {
		c.PredicatesFor[ev.Name] = predicateNames(ev)
	}
	writeJSON(w, http.StatusOK, c)
}

func predicateNames(ev rulebook.EventInfo) []string {
	out := []string{}
	for _, p := range rulebook.PredicatesFor(ev) {
		out = append(out, p.Name)
	}
	return out
}

// renderPredicate turns a predicate and its arguments into CEL.
func (srv *Server) renderPredicate(w http.ResponseWriter, req *http.Request) {
	name := req.PathValue("name")
	i := slices.IndexFunc(rulebook.Catalog().Predicates, func(p rulebook.PredicateInfo) bool { return p.Name == name })
	if i < 0 {
		writeError(w, http.StatusNotFound, "no predicate %q%s", name, diag.DidYouMean(name, predicateList()))
		return
	}
	var args map[string]string
	if !readJSON(w, req, &args) {
		return
	}
	cel, err := rulebook.Catalog().Predicates[i].Render(args)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		CEL string `json:"cel"`
	}{cel})
}

func predicateList() []string {
	var out []string
	for _, p := range rulebook.Catalog().Predicates {
		out = append(out, p.Name)
	}
	return out
}

// PartyCatalog is what a party board's events are made of, for the
// editor's forms: triggers, actions with their payload fields, priorities.
type PartyCatalog struct {
	Triggers        []Option      `json:"triggers"`
	Actions         []PartyAction `json:"actions"`
	Priorities      []string      `json:"priorities"`
	DefaultPriority string        `json:"defaultPriority"`
	// States are an event's states in a board file.
	States []string `json:"states"`
}

// Option is a value with its meaning.
type Option struct {
	Value string `json:"value"`
	Doc   string `json:"doc"`
}

// PartyAction is an action of a party board's event and its payload.
type PartyAction struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Fields []FormField `json:"fields"`
}

// FormField is one member of a payload: the shape of rulebook.Field, so
// that one form serves both. Types: text, number, int, choice, space (a
// space's id) and effect ({"type", "args": [id, turns]}).
type FormField struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Doc      string   `json:"doc"`
	Default  any      `json:"default,omitempty"`
	Required bool     `json:"required,omitempty"`
	Values   []string `json:"values,omitempty"`
}

// partyActions describes the payload of every action of party.ActionTypes
// (docs/boards.md, "Actions"); a test checks that none is missing.
var partyActions = func() []PartyAction {
	message := FormField{Name: "message", Type: "text", Required: true, Doc: "the text to show; placeholders such as {{CURRENT_PLAYER_NAME}} and {{RANDOM_WORD}} are drawn when it is shown"}
	stat := FormField{Name: "statId", Type: "text", Required: true, Doc: "the stat, such as drinks"}
	mode := FormField{Name: "mode", Type: "choice", Default: "both", Values: []string{"both", "true", "display"}, Doc: "which of the stat's values change: both, the true one or the displayed one"}
	return []PartyAction{
		{party.PromptAllPlayers, "Show a message to everybody; each acknowledges it.", []FormField{message}},
		{party.PromptCurrentPlayer, "Show a message to the current player.", []FormField{message}},
		{party.SetPlayerState, "Set the player's state; the game ends when everybody has COMPLETED_GAME.",
			[]FormField{{Name: "state", Type: "choice", Required: true, Values: party.PlayerStates, Doc: "the new state"}}},
		{party.DisplacePlayer, "Move on (positive) or back along the path taken (negative).",
			[]FormField{{Name: "steps", Type: "int", Required: true, Doc: "how many steps; negative to go back"}}},
		{party.ApplyEffect, "Put an effect on the player for some turns.",
			[]FormField{{Name: "effect", Type: "effect", Required: true, Values: party.EffectTypes, Doc: "the effect, its id and its number of turns"}}},
		{party.SetPlayerSpace, "Teleport the player to a space.",
			[]FormField{{Name: "spaceId", Type: "space", Required: true, Doc: "the space to go to"}}},
		{party.ForceStop, "End the move here.", []FormField{}},
		{party.SwapPlaces, "Swap spaces with a player (by name or seat), or a random other one.",
			[]FormField{{Name: "targetPlayerId", Type: "text", Doc: "whom to swap with; empty for a random other player"}}},
		{party.SetStat, "Set a stat of the player.",
			[]FormField{stat, {Name: "value", Type: "number", Required: true, Doc: "the new value"}, mode}},
		{party.ChangeStat, "Add to a stat of the player.",
			[]FormField{stat, {Name: "delta", Type: "number", Required: true, Doc: "how much to add (negative: take away)"}, mode}},
	}
}()

var partyTriggers = []Option{
	{party.OnEnter, "each time the player enters the space (also passing through)"},
	{party.OnLand, "when a move ends on the space"},
	{party.OnExit, "when a step leaves the space"},
	{party.Code, "when its condition (CEL, the trigger's payload) holds, checked after the roll, each step and each action"},
}

func (srv *Server) partyCatalog(w http.ResponseWriter, req *http.Request) {
	writeJSON(w, http.StatusOK, PartyCatalog{Triggers: partyTriggers, Actions: partyActions,
		Priorities: engine.PriorityNames, DefaultPriority: engine.Mid.String(), States: []string{"READY", "INACTIVE"}})
}

// GameSource is a library game's file, for editing.
type GameSource struct {
	Board BoardInfo `json:"board"`
	// File is the file's name; Source its text.
	File   string `json:"file"`
	Source string `json:"source"`
}

func (srv *Server) gameSource(w http.ResponseWriter, req *http.Request) {
	e, ok := srv.library.get(req.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no game %q", req.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, GameSource{Board: e.info, File: path.Base(e.file), Source: string(e.data)})
}

// Validation is what POST /api/validate answers: the game's pack, whether
// it is valid, every problem with its line, column and pointer, and for a
// rule book its events (built-in and declared) with the predicates each
// offers.
type Validation struct {
	Game        string            `json:"game"`
	Valid       bool              `json:"valid"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Board       *BoardInfo        `json:"board,omitempty"`
	Events      []EventPredicates `json:"events,omitempty"`
}

// EventPredicates is an event with the names of its predicates.
type EventPredicates struct {
	rulebook.EventInfo
	Predicates []string `json:"predicates"`
}

// validate checks a game file sent as the request body (?name= names it
// in the diagnostics) without keeping it.
func (srv *Server) validate(w http.ResponseWriter, req *http.Request) {
	name := req.URL.Query().Get("name")
	if name == "" {
		name = "game.json"
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxUpload))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "validate: %v (the limit is %d bytes)", err, maxUpload)
		return
	}
	def, list := compileGame("", name, data)
	v := Validation{Game: detectGame(name, data), Valid: def != nil, Diagnostics: list}
	if v.Diagnostics == nil {
		v.Diagnostics = []diag.Diagnostic{}
	}
	if def != nil {
		info := BoardInfo{Game: def.Game()}
		def.Describe(&info)
		v.Board = &info
	}
	if v.Game == gameRulebook {
		if f, err := rulebook.Decode(data); err == nil {
			for _, ev := range rulebook.EventsOf(f) {
				v.Events = append(v.Events, EventPredicates{EventInfo: ev, Predicates: predicateNames(ev)})
			}
		}
	}
	writeJSON(w, http.StatusOK, v)
}
