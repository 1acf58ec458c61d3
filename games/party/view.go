package party

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
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
			Name: p.Name, Seat: p.Seat, Space: def.Board.Spaces[p.Space].ID, SpaceName: def.titles[p.Space],
			Start: def.Board.Spaces[p.Start].ID, State: p.State, StateText: stateText(p.State),
			TurnsTaken: p.TurnsTaken, Stats: stats, StatList: list, Effects: append([]ActiveEffect{}, p.Effects...), EffectTexts: effects,
			Reversed: p.Reversed, Prompts: p.Prompts,
		})
	}
	if pr := s.Prompt; pr != nil {
		pv := &PromptView{Text: pr.Text, Segments: pr.Segments, To: pr.To, Everyone: pr.Everyone, Space: def.Board.Spaces[pr.Space].ID,
			SpaceName: def.titles[pr.Space], Pending: []int{}}
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

// AppendView appends the JSON of what the seat sees, byte for byte what
// encoding/json writes for View(seat), without building the view: the
// server calls it after every change for every seat watched
// (game.ViewAppender).
func (m *Match) AppendView(b []byte, seat int) []byte {
	s, def := m.s, m.def
	b = append(b, `{"you":`...)
	b = strconv.AppendInt(b, int64(seat), 10)
	b = append(b, `,"phase":`...)
	b = game.AppendString(b, s.Phase)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(s.Round()), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(s.Turn), 10)
	b = append(b, `,"current":`...)
	b = strconv.AppendInt(b, int64(s.Current), 10)
	b = append(b, `,"remainingMoves":`...)
	b = strconv.AppendInt(b, int64(s.RemainingMoves), 10)
	b = append(b, `,"lastRoll":`...)
	b = game.AppendInts(b, nonNil(s.LastRoll))
	b = append(b, `,"over":`...)
	b = game.AppendBool(b, s.Over)
	b = append(b, `,"winners":`...)
	b = game.AppendInts(b, nonNil(s.Winners))
	if s.EndReason != "" {
		b = append(b, `,"endReason":`...)
		b = game.AppendString(b, m.reasonWords(s.EndReason))
	}
	b = append(b, `,"players":`...)
	if len(s.Players) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range s.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = m.appendPlayer(b, &s.Players[i])
		}
		b = append(b, ']')
	}
	if pr := s.Prompt; pr != nil {
		b = append(b, `,"prompt":{"text":`...)
		b = game.AppendString(b, pr.Text)
		b = append(b, `,"segments":`...)
		if pr.Segments == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, sg := range pr.Segments {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"text":`...)
				b = game.AppendString(b, sg.Text)
				if sg.Color != "" {
					b = append(b, `,"color":`...)
					b = game.AppendString(b, sg.Color)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, `,"to":`...)
		b = game.AppendInts(b, pr.To)
		b = append(b, `,"pending":[`...)
		n := 0
		m.eachWait(func(w Wait) {
			if w.Kind == KindAck {
				if n > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(w.Player), 10)
				n++
			}
		})
		b = append(b, `],"everyone":`...)
		b = game.AppendBool(b, pr.Everyone)
		b = append(b, `,"space":`...)
		b = game.AppendString(b, def.Board.Spaces[pr.Space].ID)
		b = append(b, `,"spaceName":`...)
		b = game.AppendString(b, def.titles[pr.Space])
		b = append(b, '}')
	}
	b = append(b, `,"waits":[`...)
	n := 0
	m.eachWait(func(w Wait) {
		if n > 0 {
			b = append(b, ',')
		}
		b = appendWait(b, &w)
		n++
	})
	b = append(b, `],"yourWaits":[`...)
	n = 0
	choosing := false
	m.eachWait(func(w Wait) {
		if w.Player != seat {
			return
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = appendWait(b, &w)
		n++
		choosing = choosing || w.Kind == KindChoosePath
	})
	b = append(b, `],"events":[`...)
	n = 0
	m.e.Index.Each(func(t *engine.Instance) {
		if st := m.e.TriggerStatus(t.ID); st != engine.Ready {
			ref := t.Def.Data.(eventRef)
			if n > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"space":`...)
			b = game.AppendString(b, def.Board.Spaces[ref.Space].ID)
			b = append(b, `,"index":`...)
			b = strconv.AppendInt(b, int64(ref.Event), 10)
			b = append(b, `,"state":`...)
			b = game.AppendString(b, eventState(st))
			b = append(b, '}')
			n++
		}
	})
	b = append(b, `],"choices":[`...)
	if choosing {
		// One list of ways for every path the viewer is asked to choose,
		// as view does.
		m.eachWait(func(w Wait) {
			if w.Player != seat || w.Kind != KindChoosePath {
				return
			}
			for _, to := range m.ways() {
				if b[len(b)-1] != '[' {
					b = append(b, ',')
				}
				b = game.AppendString(b, def.Board.Spaces[to].ID)
			}
		})
	}
	b = append(b, `],"hash":`...)
	b = game.AppendString(b, m.Hash())
	b = append(b, `,"commands":`...)
	b = strconv.AppendInt(b, int64(m.commands), 10)
	b = append(b, `,"log":`...)
	b = strconv.AppendInt(b, int64(m.LogLen()), 10)
	if m.compat != "" {
		gamePhase, turnPhase := m.originalPhases()
		b = append(b, `,"compat":`...)
		b = game.AppendString(b, m.compat)
		if gamePhase != "" {
			b = append(b, `,"gamePhase":`...)
			b = game.AppendString(b, gamePhase)
		}
		if turnPhase != "" {
			b = append(b, `,"turnPhase":`...)
			b = game.AppendString(b, turnPhase)
		}
	}
	return append(b, '}')
}

// appendPlayer appends a PlayerView's JSON.
func (m *Match) appendPlayer(b []byte, p *Player) []byte {
	sp := m.def.Board.Spaces
	b = append(b, `{"name":`...)
	b = game.AppendString(b, p.Name)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(p.Seat), 10)
	b = append(b, `,"space":`...)
	b = game.AppendString(b, sp[p.Space].ID)
	b = append(b, `,"spaceName":`...)
	b = game.AppendString(b, m.def.titles[p.Space])
	b = append(b, `,"start":`...)
	b = game.AppendString(b, sp[p.Start].ID)
	b = append(b, `,"state":`...)
	b = game.AppendString(b, p.State)
	b = append(b, `,"stateText":`...)
	b = game.AppendString(b, stateText(p.State))
	b = append(b, `,"turnsTaken":`...)
	b = strconv.AppendInt(b, int64(p.TurnsTaken), 10)
	b = append(b, `,"stats":{`...)
	// Sorted, as encoding/json writes a map and view sorts the list; a
	// few stats sort on the stack.
	var small [16]string
	keys := appendSortedKeys(small[:0], p.Stats)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = game.AppendString(b, k)
		b = append(b, ':')
		b = game.AppendFloat(b, p.Stats[k].Display)
	}
	b = append(b, `},"statList":`...)
	if len(keys) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"stat":`...)
			b = game.AppendString(b, k)
			b = append(b, `,"label":`...)
			b = game.AppendString(b, statLabel(k))
			b = append(b, `,"value":`...)
			b = game.AppendFloat(b, p.Stats[k].Display)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"effects":[`...)
	for i, e := range p.Effects {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"kind":`...)
		b = game.AppendString(b, e.Kind)
		b = append(b, `,"id":`...)
		b = game.AppendString(b, e.ID)
		b = append(b, `,"left":`...)
		b = strconv.AppendInt(b, int64(e.Left), 10)
		b = append(b, '}')
	}
	b = append(b, `],"effectTexts":`...)
	if len(p.Effects) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range p.Effects {
			if i > 0 {
				b = append(b, ',')
			}
			b = game.AppendString(b, effectWords(e.Kind, e.Left))
		}
		b = append(b, ']')
	}
	b = append(b, `,"reversed":`...)
	b = game.AppendBool(b, p.Reversed)
	b = append(b, `,"prompts":`...)
	b = strconv.AppendInt(b, int64(p.Prompts), 10)
	return append(b, '}')
}

// appendWait appends a Wait's JSON.
func appendWait(b []byte, w *Wait) []byte {
	b = append(b, `{"player":`...)
	b = strconv.AppendInt(b, int64(w.Player), 10)
	b = append(b, `,"kind":`...)
	b = game.AppendString(b, w.Kind)
	b = append(b, `,"prompt":`...)
	b = game.AppendString(b, w.Prompt)
	b = append(b, `,"options":`...)
	if w.Options == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, o := range w.Options {
		if i > 0 {
			b = append(b, ',')
		}
		b = game.AppendString(b, o)
	}
	return append(b, "]}"...)
}

// nonNil is ns, or an empty slice for nil: the view writes [] for none.
func nonNil(ns []int) []int {
	if ns == nil {
		return []int{}
	}
	return ns
}

// eachWait calls f with each of Waits, in order, without building them.
func (m *Match) eachWait(f func(w Wait)) {
	s, e := m.s, m.e
	switch {
	case s.Over:
	case e.IsWaiting():
		asked, answered := e.Asked()
		for i := range asked {
			if !answered[i] {
				d := &asked[i]
				f(Wait{Player: int(d.Player), Kind: d.Kind, Prompt: d.Prompt, Options: d.Options})
			}
		}
	case s.Phase == PhaseRoll:
		f(Wait{Player: s.Current, Kind: KindRoll, Prompt: "Roll the dice"})
	}
}

// SharedLog reports that every viewer reads the same log: a party game
// has no secrets (game.SharedLog).
func (m *Match) SharedLog() bool { return true }
