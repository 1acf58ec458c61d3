package party

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/party/code"
)

// Definition is a board ready to play: its events turned into triggers,
// its graph indexed. It is built once per board and shared by its matches.
type Definition struct {
	Board *Board
	pack  *Pack
	// next and prev are each space's successors (in listed order, without
	// duplicates) and predecessors (in board order).
	next, prev [][]int
	// nextLabels and prevLabels are the names of those spaces (wayTitles), the
	// options of a choice at a fork; they are shared, never changed.
	nextLabels, prevLabels [][]string
	// nextLegal and prevLegal are the commands of those choices, made
	// once: Legal returns them (game.Match's callers never change them).
	nextLegal, prevLegal [][]game.Command
	byID                 map[string]int
	triggers             []placed
	// labels and titles are the spaces' labels (spaceLabel) and names for
	// players (spaceTitle), and fired the details of their events' firings
	// in the log: made once, as the log and the view tell them after every
	// command.
	labels, titles []string
	fired          [][]string
	// win says which spaces win the game on reaching them.
	win []bool
	// heard says which event types the board's events listen for at each
	// space (heardAt).
	heard []uint64
	// tally lays out what a match counts per space and seat (tally.go).
	tally *tallyLayouts
}

type placed struct {
	def   *engine.Trigger
	space int
}

// eventRef says which board event a trigger stands for.
type eventRef struct {
	Space, Event int
	// arg is the action's text argument (a prompt's message, a stat's
	// name, a state, an effect's kind) boxed once per board, so that
	// events carrying it as their Data allocate nothing.
	arg any
}

// Compile prepares a loaded board for play with the pack's rules. It fails
// only on boards that bypassed validation (a dangling connection, a CODE
// condition that does not compile).
func (p *Pack) Compile(b *Board) (*Definition, error) {
	d := &Definition{Board: b, pack: p, byID: make(map[string]int, len(b.Spaces)), win: make([]bool, len(b.Spaces)), tally: newTallyLayouts(b)}
	if len(b.Spaces) == 0 {
		return nil, fmt.Errorf("%s: the board has no spaces", b.File)
	}
	if len(b.Spaces) >= playerEntity+spaceEntity*1000 {
		return nil, fmt.Errorf("%s: too many spaces", b.File)
	}
	for i, sp := range b.Spaces {
		if _, dup := d.byID[sp.ID]; dup {
			return nil, fmt.Errorf("%s: duplicate space id %q", b.File, sp.ID)
		}
		d.byID[sp.ID] = i
	}
	d.next = make([][]int, len(b.Spaces))
	d.prev = make([][]int, len(b.Spaces))
	for i, sp := range b.Spaces {
		for _, c := range sp.Connections {
			j, ok := d.byID[c.Target]
			if !ok {
				return nil, fmt.Errorf("%s: space %q connects to unknown space %q", b.File, sp.ID, c.Target)
			}
			if !slices.Contains(d.next[i], j) {
				d.next[i] = append(d.next[i], j)
			}
		}
	}
	for i := range b.Spaces {
		for _, j := range d.next[i] {
			if !slices.Contains(d.prev[j], i) {
				d.prev[j] = append(d.prev[j], i)
			}
		}
	}
	for j := range d.prev {
		slices.Sort(d.prev[j])
	}
	d.labels, d.titles = make([]string, len(b.Spaces)), make([]string, len(b.Spaces))
	d.fired = make([][]string, len(b.Spaces))
	for i := range b.Spaces {
		sp := &b.Spaces[i]
		d.labels[i], d.titles[i] = spaceLabel(sp), spaceTitle(sp)
		for j := range sp.Events {
			d.fired[i] = append(d.fired[i], "↳ "+d.labels[i]+" · "+sp.Events[j].Trigger+" → "+describeAction(&sp.Events[j].Action))
		}
	}
	labels := func(ways [][]int) [][]string {
		out := make([][]string, len(ways))
		for i, w := range ways {
			out[i] = wayTitles(b.Spaces, w)
		}
		return out
	}
	d.nextLabels, d.prevLabels = labels(d.next), labels(d.prev)
	d.nextLegal, d.prevLegal = wayCommands(d.nextLabels), wayCommands(d.prevLabels)
	for _, w := range b.Rules.Win {
		for _, id := range w.SpaceIDs {
			i, ok := d.byID[id]
			if !ok {
				return nil, fmt.Errorf("%s: win condition names unknown space %q", b.File, id)
			}
			d.win[i] = true
		}
	}
	for i, sp := range b.Spaces {
		for j, ev := range sp.Events {
			if ev.Inactive {
				continue
			}
			t, err := d.trigger(i, j, &ev)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", b.File, ev.Pointer, err)
			}
			d.triggers = append(d.triggers, placed{def: t, space: i})
		}
	}
	d.tally.placeTriggers(d)
	d.heard = heardAt(d)
	return d, nil
}

// allSeats are the seat numbers 0, 1, 2, …: the addressees of prompts are
// slices of it, shared and never changed.
var allSeats = func() []int {
	out := make([]int, MaxSeats)
	for i := range out {
		out[i] = i
	}
	return out
}()

// seatList returns the seats of a match of n players, 0…n-1.
func seatList(n int) []int {
	if n <= len(allSeats) {
		return allSeats[:n:n]
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// EventOf returns the board event a trigger of this definition stands for:
// the index of its space and its index among that space's events. It is
// how a tool that reads the log (a simulator, a page) learns which event
// fired.
func (d *Definition) EventOf(t *engine.Trigger) (space, event int, ok bool) {
	ref, ok := t.Data.(eventRef)
	if !ok {
		return 0, 0, false
	}
	return ref.Space, ref.Event, true
}

// trigger turns one board event into an engine trigger.
func (d *Definition) trigger(space, index int, ev *Event) (*engine.Trigger, error) {
	call, err := d.pack.fx.call(ev.Action)
	if err != nil {
		return nil, err
	}
	if tp, ok := ev.Action.Args.(TeleportArgs); ok {
		if _, known := d.byID[tp.SpaceID]; !known {
			return nil, fmt.Errorf("SET_PLAYER_SPACE to unknown space %q", tp.SpaceID)
		}
	}
	t := &engine.Trigger{
		Name:     fmt.Sprintf("%s on %s", ev.Trigger, d.Board.Spaces[space].ID),
		Scope:    engine.Here,
		Priority: cmp.Or(ev.Priority, engine.Mid),
		Effects:  []engine.EffectCall{call},
		Data:     eventRef{Space: space, Event: index, arg: textArg(ev.Action.Args)},
	}
	switch ev.Trigger {
	case OnEnter:
		t.On = []engine.EventType{evEnter}
	case OnLand:
		t.On = []engine.EventType{evLand}
	case OnExit:
		t.On = []engine.EventType{evExit}
	case Code:
		cond := ev.Condition
		var problems []code.Problem
		if cond == nil {
			cond, problems = code.Compile(ev.Code)
		}
		if cond == nil {
			msg := "CODE condition does not compile"
			for _, p := range problems {
				if !p.Warning {
					msg += ": " + p.Message
					break
				}
			}
			return nil, fmt.Errorf("%s", msg)
		}
		t.On = d.pack.codeTypes
		t.Scope = engine.Anywhere
		t.Condition = codeCondition{cond: cond, space: space}
	default:
		return nil, fmt.Errorf("unknown trigger %q", ev.Trigger)
	}
	return t, nil
}

// textArg returns the text argument of an action, boxed, or nil.
func textArg(args any) any {
	switch a := args.(type) {
	case PromptArgs:
		return a.Message
	case SetStatArgs:
		return a.Stat
	case ChangeStatArgs:
		return a.Stat
	case StateArgs:
		return a.State
	case EffectArgs:
		return a.Effect.Kind
	}
	return nil
}

// payload returns v as the Data of an event: the firing board event's
// boxed text argument when v is that text, v itself otherwise.
func payload(c *engine.Ctx, v string) any {
	if t := c.Trigger(); t != nil {
		if ref, ok := t.Def.Data.(eventRef); ok {
			if arg, ok := ref.arg.(string); ok && arg == v {
				return ref.arg
			}
		}
	}
	return v
}

// codeCondition evaluates a CODE trigger's condition over the current
// player, the event's space and the game.
type codeCondition struct {
	cond  *code.Condition
	space int
}

func (c codeCondition) Holds(state any, _ *engine.Event, _ *engine.Instance) (bool, error) {
	s := state.(*State)
	p := s.player()
	sp := &s.board.Spaces[c.space]
	vars := code.Vars{
		Player: &code.Player{
			Nickname: p.Name, State: p.State, CurrentSpaceID: s.board.Spaces[p.Space].ID,
			TurnsTaken: p.TurnsTaken, Seat: p.Seat, Stats: statValues(p.Stats),
		},
		Space: &code.Space{ID: sp.ID, Name: sp.Name, Type: sp.Type},
		Game:  &code.Game{RemainingMoves: s.RemainingMoves, TurnNumber: s.Round(), PlayerCount: len(s.Players)},
	}
	return c.cond.Eval(&vars)
}

func statValues(stats map[string]Stat) map[string]float64 {
	out := make(map[string]float64, len(stats))
	for k, v := range stats {
		out[k] = v.Value
	}
	return out
}

// wayCommands makes the choose-path commands of each space's ways, named
// by their labels.
func wayCommands(labels [][]string) [][]game.Command {
	out := make([][]game.Command, len(labels))
	for i, names := range labels {
		for j, name := range names {
			out[i] = append(out[i], game.Command{Data: Command{Kind: KindChoosePath, Value: j}.json(), Text: "Go to " + name})
		}
		out[i] = slices.Clip(out[i])
	}
	return out
}
