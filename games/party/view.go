package party

import (
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// View is what a player or a spectator sees of a match, ready to be sent as
// JSON to the page. A party game has no secrets; You and what you are asked
// are what differ between viewers.
type View struct {
	// You is the viewer's seat, or -1 for a spectator.
	You            int          `json:"you"`
	Phase          string       `json:"phase"`
	Round          int          `json:"round"`
	Turn           int          `json:"turn"`
	Current        int          `json:"current"`
	RemainingMoves int          `json:"remainingMoves"`
	LastRoll       []int        `json:"lastRoll"`
	Over           bool         `json:"over"`
	Winners        []int        `json:"winners"`
	EndReason      string       `json:"endReason,omitempty"`
	Players        []PlayerView `json:"players"`
	Prompt         *PromptView  `json:"prompt,omitempty"`
	// Waits are everything the match waits for (whose turn it is to roll,
	// who must choose or acknowledge); YourWaits are the viewer's.
	Waits     []Wait `json:"waits"`
	YourWaits []Wait `json:"yourWaits"`
	// Events are the states of the board's events that are not READY.
	Events []EventView `json:"events"`
	// Choices are the spaces a viewer choosing a path may click.
	Choices  []string `json:"choices"`
	Hash     string   `json:"hash"`
	Commands int      `json:"commands"`
	Log      int      `json:"log"` // the number of log entries so far
	// Compat is the compatibility mode the match plays in ("original"),
	// if any; GamePhase and TurnPhase then say where the match stands in
	// the original game's own words (IN_GAME, WAITING_FOR_MOVE…).
	Compat    string `json:"compat,omitempty"`
	GamePhase string `json:"gamePhase,omitempty"`
	TurnPhase string `json:"turnPhase,omitempty"`
}

// PlayerView is one player as the page shows them. Space, Start and State
// are ids and the board file's state; SpaceName, StateText, StatList's
// labels and EffectTexts say them in the players' words.
type PlayerView struct {
	Name        string             `json:"name"`
	Seat        int                `json:"seat"`
	Space       string             `json:"space"`
	SpaceName   string             `json:"spaceName"`
	Start       string             `json:"start"`
	State       string             `json:"state"`
	StateText   string             `json:"stateText"`
	TurnsTaken  int                `json:"turnsTaken"`
	Stats       map[string]float64 `json:"stats"`
	StatList    []StatView         `json:"statList"`
	Effects     []ActiveEffect     `json:"effects"`
	EffectTexts []string           `json:"effectTexts"`
	Reversed    bool               `json:"reversed"`
	Prompts     int                `json:"prompts"`
}

// StatView is one of a player's stats: its name in the board file, its
// label for players and its value, in the order of their names.
type StatView struct {
	Stat  string  `json:"stat"`
	Label string  `json:"label"`
	Value float64 `json:"value"`
}

// PromptView is a prompt waiting to be acknowledged.
type PromptView struct {
	Text     string    `json:"text"`
	Segments []Segment `json:"segments"`
	// To are the seats that must acknowledge it, Pending those that have
	// not yet.
	To      []int `json:"to"`
	Pending []int `json:"pending"`
	// Everyone is set when it is addressed to every player: the others
	// read it as a notice.
	Everyone  bool   `json:"everyone"`
	Space     string `json:"space"`
	SpaceName string `json:"spaceName"`
}

// EventView is the state of one board event.
type EventView struct {
	Space string `json:"space"`
	Index int    `json:"index"`
	State string `json:"state"`
}

// View returns what the given seat (or game.Spectator) sees, as a *View.
func (m *Match) View(seat int) any {
	v := m.view(seat)
	return &v
}

func (m *Match) view(seat int) View {
	s, def := m.s, m.def
	v := View{
		You: seat, Phase: s.Phase, Round: s.Round(), Turn: s.Turn, Current: s.Current,
		RemainingMoves: s.RemainingMoves, LastRoll: slices.Clone(s.LastRoll), Over: s.Over,
		Winners: slices.Clone(s.Winners), EndReason: m.reasonWords(s.EndReason), Hash: m.Hash(),
		Commands: m.commands, Log: m.LogLen(),
		Waits: m.Waits(), YourWaits: []Wait{}, Events: []EventView{}, Choices: []string{},
	}
	if m.compat != "" {
		v.Compat = m.compat
		v.GamePhase, v.TurnPhase = m.originalPhases()
	}
	if v.LastRoll == nil {
		v.LastRoll = []int{}
	}
	if v.Winners == nil {
		v.Winners = []int{}
	}
	if v.Waits == nil {
		v.Waits = []Wait{}
	}
	for _, w := range v.Waits {
		if w.Player == seat {
			v.YourWaits = append(v.YourWaits, w)
		}
	}
	for _, p := range s.Players {
		stats := make(map[string]float64, len(p.Stats))
		var list []StatView // in the order of the stats' names
		for k, st := range p.Stats {
			stats[k] = st.Display
			list = append(list, StatView{Stat: k, Label: statLabel(k), Value: st.Display})
		}
		slices.SortFunc(list, func(a, b StatView) int { return strings.Compare(a.Stat, b.Stat) })
		var effects []string
		for _, e := range p.Effects {
			effects = append(effects, effectWords(e.Kind, e.Left))
		}
		v.Players = append(v.Players, PlayerView{
			Name: p.Name, Seat: p.Seat, Space: def.Board.Spaces[p.Space].ID, SpaceName: spaceTitle(&def.Board.Spaces[p.Space]),
			Start: def.Board.Spaces[p.Start].ID, State: p.State, StateText: stateText(p.State),
			TurnsTaken: p.TurnsTaken, Stats: stats, StatList: list, Effects: append([]ActiveEffect{}, p.Effects...), EffectTexts: effects,
			Reversed: p.Reversed, Prompts: p.Prompts,
		})
	}
	if pr := s.Prompt; pr != nil {
		pv := &PromptView{Text: pr.Text, Segments: pr.Segments, To: pr.To, Everyone: pr.Everyone, Space: def.Board.Spaces[pr.Space].ID,
			SpaceName: spaceTitle(&def.Board.Spaces[pr.Space]), Pending: []int{}}
		for _, w := range v.Waits {
			if w.Kind == KindAck {
				pv.Pending = append(pv.Pending, w.Player)
			}
		}
		v.Prompt = pv
	}
	m.e.Index.Each(func(t *engine.Instance) {
		if st := m.e.TriggerStatus(t.ID); st != engine.Ready {
			ref := t.Def.Data.(eventRef)
			v.Events = append(v.Events, EventView{Space: def.Board.Spaces[ref.Space].ID, Index: ref.Event, State: eventState(st)})
		}
	})
	for _, w := range v.YourWaits {
		if w.Kind == KindChoosePath {
			for _, to := range m.ways() {
				v.Choices = append(v.Choices, def.Board.Spaces[to].ID)
			}
		}
	}
	return v
}

// eventState names a trigger's status as board files name an event's
// state.
func eventState(st engine.Status) string {
	switch st {
	case engine.Ready:
		return "READY"
	case engine.Scheduled:
		return "TRIGGERED"
	case engine.Running:
		return "PROCESSING_ACTION"
	case engine.Done:
		return "COMPLETED_ACTION"
	}
	return "INACTIVE"
}

// originalPhases names where the match stands as the original game's
// state machine would: its game phase and turn phase.
func (m *Match) originalPhases() (gamePhase, turnPhase string) {
	s := m.s
	switch s.Phase {
	case PhaseOver:
		return "GAME_ENDED", "CHANGE_TURN"
	case PhaseRoll:
		return "IN_GAME", "WAITING_FOR_MOVE"
	case PhaseEnd:
		return "IN_GAME", "END_TURN"
	case PhaseMove:
		for _, w := range m.Waits() {
			if w.Kind == KindChoosePath {
				return "IN_GAME", "PLAYER_CHOOSING_DESTINATION"
			}
		}
		if m.e.IsWaiting() {
			return "IN_GAME", "PROCESSING_EVENT" // an event's action is under way
		}
		return "IN_GAME", "PROCESSING_MOVE"
	}
	return "IN_GAME", "CHANGE_TURN"
}
