package party

import (
	"fmt"
	"slices"
	"strconv"
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
}

// PlayerView is one player as the page shows them.
type PlayerView struct {
	Name       string             `json:"name"`
	Seat       int                `json:"seat"`
	Space      string             `json:"space"`
	Start      string             `json:"start"`
	State      string             `json:"state"`
	TurnsTaken int                `json:"turnsTaken"`
	Stats      map[string]float64 `json:"stats"`
	Effects    []ActiveEffect     `json:"effects"`
	Reversed   bool               `json:"reversed"`
	Prompts    int                `json:"prompts"`
}

// PromptView is a prompt waiting to be acknowledged.
type PromptView struct {
	Text     string    `json:"text"`
	Segments []Segment `json:"segments"`
	To       []int     `json:"to"`
	Pending  []int     `json:"pending"`
	Space    string    `json:"space"`
}

// EventView is the state of one board event.
type EventView struct {
	Space string `json:"space"`
	Index int    `json:"index"`
	State string `json:"state"`
}

// View returns what the given seat (or -1, a spectator) sees.
func (g *Game) View(seat int) View {
	s := g.State
	v := View{
		You: seat, Phase: s.Phase, Round: s.Round(), Turn: s.Turn, Current: s.Current,
		RemainingMoves: s.RemainingMoves, LastRoll: slices.Clone(s.LastRoll), Over: s.Over,
		Winners: slices.Clone(s.Winners), EndReason: s.EndReason, Hash: g.Hash(),
		Commands: len(g.Commands), Log: len(g.Match.Records()),
		Waits: g.Waits(), YourWaits: []Wait{}, Events: []EventView{}, Choices: []string{},
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
		for k, st := range p.Stats {
			stats[k] = st.Display
		}
		v.Players = append(v.Players, PlayerView{
			Name: p.Name, Seat: p.Seat, Space: g.Def.Board.Spaces[p.Space].ID, Start: g.Def.Board.Spaces[p.Start].ID, State: p.State,
			TurnsTaken: p.TurnsTaken, Stats: stats, Effects: append([]ActiveEffect{}, p.Effects...),
			Reversed: p.Reversed, Prompts: p.Prompts,
		})
	}
	if pr := s.Prompt; pr != nil {
		pv := &PromptView{Text: pr.Text, Segments: pr.Segments, To: pr.To, Space: g.Def.Board.Spaces[pr.Space].ID, Pending: []int{}}
		for _, w := range v.Waits {
			if w.Kind == KindAck {
				pv.Pending = append(pv.Pending, w.Player)
			}
		}
		v.Prompt = pv
	}
	g.Match.Index.Each(func(t *engine.Instance) {
		if st := g.Match.TriggerStatus(t.ID); st != engine.Ready {
			ref := t.Def.Data.(eventRef)
			v.Events = append(v.Events, EventView{Space: g.Def.Board.Spaces[ref.Space].ID, Index: ref.Event, State: eventState(st)})
		}
	})
	for _, w := range v.YourWaits {
		if w.Kind == KindChoosePath {
			for _, to := range g.ways() {
				v.Choices = append(v.Choices, g.Def.Board.Spaces[to].ID)
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

// ways are the spaces the current player may step to.
func (g *Game) ways() []int {
	p := g.State.player()
	if p.Reversed {
		return g.Def.prev[p.Space]
	}
	return g.Def.next[p.Space]
}

// ChoiceFor returns the option index of a space in the current fork
// choice, so that a page can answer by clicking the space.
func (g *Game) ChoiceFor(spaceID string) (int, bool) {
	for i, to := range g.ways() {
		if g.Def.Board.Spaces[to].ID == spaceID {
			return i, true
		}
	}
	return 0, false
}

// Entry is one line of the readable action log, with what the page needs
// to animate it: the chain and depth of trigger cascades, the player, the
// space.
type Entry struct {
	Seq    int    `json:"seq"`
	Chain  int    `json:"chain"`
	Depth  int    `json:"depth"`
	Kind   string `json:"kind"`
	Type   string `json:"type,omitempty"`
	Player int    `json:"player"`
	Space  string `json:"space,omitempty"`
	Amount int    `json:"amount,omitempty"`
	Text   string `json:"text"`
}

// Entries returns the action log from record from on.
func (g *Game) Entries(from int) []Entry { return engine.Transcribe(g.Match, from, g.entry) }

func (g *Game) entry(seq int, r engine.Record) (Entry, bool) {
	e := Entry{Seq: seq, Chain: int(r.Chain), Depth: int(r.Depth), Kind: r.Kind.String(), Player: -1}
	spaceName := func(i int) string { return spaceLabel(&g.Def.Board.Spaces[i]) }
	switch r.Kind {
	case engine.RecEvent:
		ev := &g.Match.Events[r.Event]
		e.Type = types.Name(ev.Type)
		e.Player = int(ev.Player)
		e.Amount = ev.Amount
		name := ""
		if ev.Player != engine.NoPlayer {
			name = g.Players[ev.Player]
		}
		loc := ""
		if ev.Location != engine.NoLocation {
			e.Space = g.Def.Board.Spaces[ev.Location].ID
			loc = spaceName(int(ev.Location))
		}
		switch ev.Type {
		case evGameStart:
			e.Text = fmt.Sprintf("The game starts with %d players", ev.Amount)
		case evTurnStart:
			e.Text = fmt.Sprintf("Turn %d: %s's turn", ev.Amount, name)
		case evTurnSkip:
			e.Text = name + " skips this turn"
			if st, _ := ev.Data.(string); st != "" && st != SkippingTurn {
				e.Text += " (" + strings.ToLower(strings.ReplaceAll(st, "_", " ")) + ")"
			}
		case evRolled:
			e.Text = fmt.Sprintf("%s rolls %d", name, ev.Amount)
		case evExit:
			e.Text = name + " leaves " + loc
		case evEnter:
			e.Text = name + " enters " + loc
		case evLand:
			e.Text = name + " lands on " + loc
		case evBlocked:
			e.Text = name + " cannot go further from " + loc
		case evPrompted:
			e.Text = fmt.Sprintf("%s: %q", loc, ev.Data)
		case evState:
			e.Text = fmt.Sprintf("%s is now %s", name, ev.Data)
		case evDisplaced:
			if ev.Amount < 0 {
				e.Text = fmt.Sprintf("%s goes back %d", name, -ev.Amount)
			} else {
				e.Text = fmt.Sprintf("%s moves %d more", name, ev.Amount)
			}
		case evTeleported:
			e.Text = name + " is sent to " + loc
		case evEffect:
			e.Text = fmt.Sprintf("%s: %s for %d turn(s)", name, ev.Data, ev.Amount)
		case evStopped:
			e.Text = name + " stops"
		case evSwapped:
			e.Text = name + " swaps places with " + g.Match.EntityName(ev.Target)
		case evStat:
			if ch, ok := ev.Data.(StatChange); ok {
				e.Text = fmt.Sprintf("%s's %s: %s", name, ch.Stat, formatNumber(ch.Display))
			}
		case evTurnEnd:
			return e, false
		case evGameOver:
			e.Text = "Game over: " + fmt.Sprint(ev.Data)
			if ws := g.State.Winners; len(ws) > 0 {
				var names []string
				for _, w := range ws {
					names = append(names, g.Players[w])
				}
				e.Text += ". Winner: " + strings.Join(names, ", ")
			}
		default:
			e.Text = e.Type
		}
	case engine.RecFired:
		f := g.firing(seq, r)
		ev := &g.Def.Board.Spaces[f.Space].Events[f.Event]
		e.Player = f.Player
		e.Space = g.Def.Board.Spaces[f.Space].ID
		e.Type = f.Trigger
		e.Text = fmt.Sprintf("%s · %s → %s", spaceName(f.Space), f.Trigger, describeAction(&ev.Action))
	case engine.RecAsk:
		e.Player = int(r.Player)
		e.Text = "Waiting for " + g.Players[r.Player] + ": " + r.Text
	case engine.RecAnswer:
		e.Player = int(r.Player)
		if r.Text == KindAck {
			e.Text = g.Players[r.Player] + " acknowledges"
		} else {
			e.Text = fmt.Sprintf("%s chooses option %d", g.Players[r.Player], r.Choice+1)
		}
	case engine.RecNote, engine.RecError:
		e.Text = r.Text
	default:
		return e, false
	}
	return e, true
}

// describeAction says what an action does, briefly.
func describeAction(a *Action) string {
	switch args := a.Args.(type) {
	case PromptArgs:
		msg := args.Message
		if r := []rune(msg); len(r) > 40 {
			msg = string(r[:40]) + "…"
		}
		return fmt.Sprintf("%s %q", a.Type, msg)
	case StateArgs:
		return a.Type + " " + args.State
	case DisplaceArgs:
		return a.Type + " " + strconv.Itoa(args.Steps)
	case EffectArgs:
		return fmt.Sprintf("%s %s(%d)", a.Type, args.Effect.Kind, args.Effect.Turns)
	case TeleportArgs:
		return a.Type + " " + args.SpaceID
	case SetStatArgs:
		return fmt.Sprintf("%s %s=%s", a.Type, args.Stat, formatNumber(args.Value))
	case ChangeStatArgs:
		return fmt.Sprintf("%s %s%+g", a.Type, args.Stat, args.Delta)
	}
	return a.Type
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
