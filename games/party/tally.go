package party

import (
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Where things happen on a board (game.Placer), for the simulator: per
// space its landings, entries and firings; per board event and per action
// type their firings; per seat the prompts addressed to it, the player
// effects it received and its stats at the end.

// Figures of a space, in their order in the counts.
const (
	figLandings = iota
	figEntries
	figFirings
	spaceFigures
)

var (
	spaceFigureNames = []string{"landings", "entries", "firings"}
	firingsOnly      = []string{"firings"}
)

// tallyLayouts are a definition's layouts of places, one per number of
// players, made once and shared by its matches.
type tallyLayouts struct {
	mu sync.Mutex
	by map[int]*tallyLayout
	// stats are the board's stats (SET_STAT, CHANGE_STAT), sorted;
	// effects the player effects it applies, in Effects order; actions
	// the action types its events run, in ActionTypes order.
	stats, effects, actions []string
	// eventAt is the index of each space's first event among the
	// board's events.
	eventAt []int
	events  int
	// triggers are, for each of the definition's triggers in order, its
	// space, its index among the board's events and its action's index
	// among actions.
	triggers []triggerPlace
}

type triggerPlace struct{ space, event, action int }

// tallyLayout is the layout for one number of players.
type tallyLayout struct {
	places  []game.Place
	players int
	// Where each part starts in the counts.
	events, actions, seats, size int
}

var (
	_ game.Placer = (*Match)(nil)
	_ game.Mapper = (*Definition)(nil)
)

// Effects are the player effects counted per seat.
var Effects = []string{SkipTurns, RepeatTurns, DoubleTurn, ChangeDirection}

func newTallyLayouts(b *Board) *tallyLayouts {
	t := &tallyLayouts{by: map[int]*tallyLayout{}, eventAt: make([]int, len(b.Spaces))}
	var effects, actions [64]bool
	for i, sp := range b.Spaces {
		t.eventAt[i] = t.events
		t.events += len(sp.Events)
		for _, ev := range sp.Events {
			switch a := ev.Action.Args.(type) {
			case SetStatArgs:
				t.stats = appendNew(t.stats, a.Stat)
			case ChangeStatArgs:
				t.stats = appendNew(t.stats, a.Stat)
			case EffectArgs:
				if k := slices.Index(Effects, a.Effect.Kind); k >= 0 {
					effects[k] = true
				}
			}
			if k := slices.Index(ActionTypes, ev.Action.Type); k >= 0 && k < len(actions) {
				actions[k] = true
			}
		}
	}
	slices.Sort(t.stats)
	for k, e := range Effects {
		if effects[k] {
			t.effects = append(t.effects, e)
		}
	}
	for k, a := range ActionTypes {
		if k < len(actions) && actions[k] {
			t.actions = append(t.actions, a)
		}
	}
	return t
}

// placeTriggers notes where each of the definition's triggers counts.
func (t *tallyLayouts) placeTriggers(d *Definition) {
	for _, p := range d.triggers {
		ref := p.def.Data.(eventRef)
		t.triggers = append(t.triggers, triggerPlace{space: ref.Space, event: t.eventAt[ref.Space] + ref.Event,
			action: slices.Index(t.actions, d.Board.Spaces[ref.Space].Events[ref.Event].Action.Type)})
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// layout returns the layout of a match of n players.
func (d *Definition) layout(n int) *tallyLayout {
	t := d.tally
	t.mu.Lock()
	defer t.mu.Unlock()
	if l, ok := t.by[n]; ok {
		return l
	}
	b := d.Board
	l := &tallyLayout{players: n}
	at := 0
	add := func(p game.Place, figures []string) {
		p.Figures, p.First = figures, at
		l.places = append(l.places, p)
		at += len(figures)
	}
	for _, sp := range b.Spaces {
		add(game.Place{ID: sp.ID, Name: spaceName(sp), Kind: "space", Seat: -1}, spaceFigureNames)
	}
	l.events = at
	for _, sp := range b.Spaces {
		for k, ev := range sp.Events {
			add(game.Place{ID: sp.ID + "#" + strconv.Itoa(k+1), Name: spaceName(sp) + ": " + ev.Trigger + " " + ev.Action.Type,
				Kind: "event", Seat: -1}, firingsOnly)
		}
	}
	l.actions = at
	for _, a := range t.actions {
		add(game.Place{ID: a, Name: a, Kind: "action", Seat: -1}, firingsOnly)
	}
	l.seats = at
	seatFigures := append([]string{"prompts"}, t.effects...)
	seatFigures = append(seatFigures, t.stats...)
	for s := range n {
		name := "seat " + strconv.Itoa(s+1)
		add(game.Place{ID: name, Name: name, Kind: "seat", Seat: s}, seatFigures)
	}
	l.size = at
	t.by[n] = l
	return l
}

func spaceName(sp Space) string {
	if sp.Name != "" {
		return sp.Name
	}
	return sp.ID
}

// matchTally is a match's counts, laid out by its layout.
type matchTally struct {
	layout *tallyLayout
	counts []float64
	// acks counts the acknowledgements a match with AutoAck made by
	// itself: the commands they would have been.
	acks int
}

// reset starts the counts of a new game of n players.
func (t *matchTally) reset(d *Definition, n int) {
	if t.layout == nil || t.layout.players != n {
		t.layout = d.layout(n)
	}
	if cap(t.counts) < t.layout.size {
		t.counts = make([]float64, t.layout.size)
	}
	t.counts = t.counts[:t.layout.size]
	clear(t.counts)
	t.acks = 0
}

// arrived counts an event of a player's movement on a space.
func (t *matchTally) arrived(typ engine.EventType, space int) {
	if t.layout == nil || space < 0 || space*spaceFigures >= t.layout.events {
		return
	}
	switch typ {
	case evLand:
		t.counts[space*spaceFigures+figLandings]++
	case evEnter:
		t.counts[space*spaceFigures+figEntries]++
	}
}

// effect counts a player effect applied to a seat.
func (t *matchTally) effect(d *Definition, seat int, kind string) {
	if t.layout == nil || seat < 0 || seat >= t.layout.players {
		return
	}
	if k := slices.Index(d.tally.effects, kind); k >= 0 {
		t.counts[t.layout.seats+seat*d.tally.seatFigures()+1+k]++
	}
}

// seatFigures is the number of figures of a seat.
func (t *tallyLayouts) seatFigures() int { return 1 + len(t.effects) + len(t.stats) }

// Places returns where things happened in the match so far
// (game.Placer): the firings are read from the engine's trigger
// instances, the prompts and stats from the players.
func (m *Match) Places() game.Places {
	t := &m.s.tally
	l := t.layout
	if l == nil {
		return game.Places{}
	}
	d := m.def
	for i := range d.Board.Spaces {
		t.counts[i*spaceFigures+figFirings] = 0
	}
	for k := l.actions; k < l.seats; k++ {
		t.counts[k] = 0
	}
	for i, p := range d.triggers {
		inst := m.e.Index.Get(engine.TriggerID(i))
		if inst == nil || inst.Def != p.def {
			continue
		}
		tp := &d.tally.triggers[i]
		f := float64(inst.Fires())
		t.counts[tp.space*spaceFigures+figFirings] += f
		t.counts[l.events+tp.event] = f
		if tp.action >= 0 {
			t.counts[l.actions+tp.action] += f
		}
	}
	per := d.tally.seatFigures()
	for s := range m.s.Players {
		p := &m.s.Players[s]
		at := l.seats + s*per
		t.counts[at] = float64(p.Prompts)
		for k, name := range d.tally.stats {
			v := p.StatValue(name)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				v = 0
			}
			t.counts[at+1+len(d.tally.effects)+k] = v
		}
	}
	return game.Places{Places: l.places, Counts: t.counts}
}

// PlaceMap draws the board's spaces where the board puts them (game.Mapper),
// or on a circle when it gives no coordinates, with its drawn connections.
func (d *Definition) PlaceMap() *game.PlaceMap {
	b := d.Board
	m := &game.PlaceMap{Kind: "space", Shapes: make([]game.Shape, 0, len(b.Spaces)), Links: []game.Link{}}
	placed := false
	for _, sp := range b.Spaces {
		if sp.Visual.X != 0 || sp.Visual.Y != 0 {
			placed = true
		}
	}
	n := len(b.Spaces)
	for i, sp := range b.Spaces {
		r := max(sp.Visual.Size/2, 34)
		x, y := sp.Visual.X, sp.Visual.Y
		if !placed {
			a := 2 * math.Pi * float64(i) / float64(max(n, 1))
			x, y = 400+300*math.Cos(a), 400+300*math.Sin(a)
		}
		m.Shapes = append(m.Shapes, game.Shape{ID: sp.ID, Name: spaceName(sp), X: x, Y: y, W: 2 * r, H: 2 * r, Round: true})
	}
	linked := func(from, to string) bool {
		i, ok := d.byID[from]
		if !ok {
			return false
		}
		for _, c := range b.Spaces[i].Connections {
			if c.Target == to && c.Draw {
				return true
			}
		}
		return false
	}
	for _, sp := range b.Spaces {
		for _, c := range sp.Connections {
			if !c.Draw || c.Target == sp.ID {
				continue
			}
			both := linked(c.Target, sp.ID)
			if both && c.Target < sp.ID {
				continue // drawn once, from the other end
			}
			if slices.ContainsFunc(m.Links, func(l game.Link) bool { return l.From == sp.ID && l.To == c.Target }) {
				continue
			}
			m.Links = append(m.Links, game.Link{From: sp.ID, To: c.Target, Both: both})
		}
	}
	return m
}
