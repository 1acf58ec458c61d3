package rulebook

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// View is what a player or a spectator sees of a match, ready to be sent as
// JSON to a page. A rule book has no secrets; You and what you are asked
// are what differ between viewers.
type View struct {
	// You is the viewer's seat, or -1 for a spectator.
	You       int          `json:"you"`
	Turn      int          `json:"turn"`
	Round     int          `json:"round"`
	Current   int          `json:"current"`
	Roll      int          `json:"roll"`
	Dice      []int        `json:"dice"`
	Card      *CardView    `json:"card,omitempty"`
	Over      bool         `json:"over"`
	Winners   []int        `json:"winners"`
	EndReason string       `json:"endReason,omitempty"`
	Error     string       `json:"error,omitempty"`
	Players   []PlayerView `json:"players"`
	// Owners gives each owned tile's owner's seat, by tile id.
	Owners    map[string]int `json:"owners"`
	Waits     []Wait         `json:"waits"`
	YourWaits []Wait         `json:"yourWaits"`
	Hash      string         `json:"hash"`
	Commands  int            `json:"commands"`
	Log       int            `json:"log"` // the number of log records so far
}

// PlayerView is one player as a page shows them.
type PlayerView struct {
	Name   string         `json:"name"`
	Seat   int            `json:"seat"`
	Tile   string         `json:"tile"`
	Score  int            `json:"score"`
	Active bool           `json:"active"`
	Turns  int            `json:"turns"`
	Props  map[string]int `json:"props"`
}

// CardView is the card drawn last.
type CardView struct {
	Deck   string `json:"deck"`
	Name   string `json:"name"`
	Colour string `json:"colour,omitempty"`
	Tile   string `json:"tile,omitempty"`
}

// View returns what the given seat (or -1, a spectator) sees.
func (g *Game) View(seat int) View {
	s := g.State
	v := View{You: seat, Turn: s.Turn, Round: s.Round, Current: s.Current, Roll: s.Roll, Dice: slices.Clone(s.Dice),
		Over: s.Over, Winners: slices.Clone(s.Winners), EndReason: s.EndReason, Owners: map[string]int{},
		Waits: g.Waits(), YourWaits: []Wait{}, Hash: g.Hash(), Commands: len(g.Commands), Log: len(g.Match.Records())}
	if g.err != nil {
		v.Error = g.err.Error()
	}
	if v.Dice == nil {
		v.Dice = []int{}
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
	if s.Card.Deck >= 0 {
		d := &g.Def.File.Decks[s.Card.Deck]
		c := &d.Cards[s.Card.Card]
		v.Card = &CardView{Deck: d.Name, Name: c.Name, Colour: c.Colour, Tile: c.Tile}
	}
	for i, p := range s.Players {
		cp := s.celPlayer(i)
		v.Players = append(v.Players, PlayerView{Name: p.Name, Seat: i, Tile: cp.Tile, Score: p.Score, Active: p.Active, Turns: p.Turns, Props: cp.Props})
	}
	for t, o := range s.Owners {
		if o >= 0 {
			v.Owners[s.tileID(t)] = o
		}
	}
	return v
}

// Entry is one line of the readable action log, with what a page needs to
// animate it.
type Entry struct {
	Seq    int    `json:"seq"`
	Depth  int    `json:"depth"`
	Kind   string `json:"kind"`
	Type   string `json:"type,omitempty"`
	Player int    `json:"player"`
	Tile   string `json:"tile,omitempty"`
	Amount int    `json:"amount,omitempty"`
	Rule   string `json:"rule,omitempty"`
	Text   string `json:"text"`
}

// Entries returns the action log from record from on.
func (g *Game) Entries(from int) []Entry { return engine.Transcribe(g.Match, from, g.entry) }

func (g *Game) entry(seq int, r engine.Record) (Entry, bool) {
	e := Entry{Seq: seq, Depth: int(r.Depth), Kind: r.Kind.String(), Player: -1}
	m := g.Match
	switch r.Kind {
	case engine.RecEvent:
		ev := &m.Events[r.Event]
		e.Type = g.Def.rules.Types.Name(ev.Type)
		e.Player = int(ev.Player)
		e.Amount = ev.Amount
		if ev.Location != engine.NoLocation {
			e.Tile = g.State.tileID(int(ev.Location))
		}
		e.Text = g.eventText(ev, e.Type)
		if e.Text == "" {
			return e, false
		}
	case engine.RecFired:
		p := m.Index.Get(r.Trigger).Def.Data.(*part)
		ev := &m.Events[r.Event]
		e.Player = int(ev.Player)
		e.Rule = p.name
		e.Type = g.Def.rules.Types.Name(ev.Type)
		e.Text = "rule " + p.name
	case engine.RecAsk:
		e.Player = int(r.Player)
		e.Text = "Waiting for " + g.Players[r.Player] + ": " + r.Text
	case engine.RecAnswer:
		e.Player = int(r.Player)
		e.Text = fmt.Sprintf("%s answers %s (option %d)", g.Players[r.Player], r.Text, r.Choice+1)
		if r.Text == KindRoll || r.Text == KindDraw {
			return e, false
		}
	case engine.RecNote, engine.RecError:
		e.Text = r.Text
	default:
		return e, false
	}
	return e, true
}

// eventText says what an event means ("" for events not worth a line).
func (g *Game) eventText(ev *engine.Event, typ string) string {
	s := g.State
	name := ""
	if ev.Player != engine.NoPlayer {
		name = g.Players[ev.Player]
	}
	tile := ""
	if ev.Location != engine.NoLocation {
		tile = s.tileLabel(int(ev.Location))
	}
	d, _ := ev.Data.(*eventData)
	if d == nil {
		d = &eventData{}
	}
	switch typ {
	case StartGame:
		return "The game starts: " + strings.Join(g.Players, ", ")
	case StartTurn:
		return fmt.Sprintf("Turn %d: %s", ev.Amount, name)
	case EndTurn, CurrentPlayerChanged:
		return ""
	case DiceRolled:
		if len(d.Dice) > 1 {
			return fmt.Sprintf("%s rolls %s = %d", name, joinInts(d.Dice, "+"), ev.Amount)
		}
		return fmt.Sprintf("%s rolls %d", name, ev.Amount)
	case CardDrawn:
		return fmt.Sprintf("%s draws %s", name, d.Card)
	case TilePassed:
		return name + " passes " + tile
	case TileLanded:
		return name + " lands on " + tile
	case TileBought:
		return fmt.Sprintf("%s buys %s for %d", name, tile, ev.Amount)
	case BuyDeclined:
		return name + " does not buy " + tile
	case ScoreChanged:
		return fmt.Sprintf("%s's score: %+d (now %d)", name, ev.Amount, d.Total)
	case Paid:
		to := "the bank"
		if ev.Target != engine.System {
			to = g.Players[seatOf(ev.Target)]
		}
		return fmt.Sprintf("%s pays %d to %s", name, ev.Amount, to)
	case PropChanged:
		return fmt.Sprintf("%s's %s: %+d (now %d)", name, d.Prop, ev.Amount, d.Total)
	case PlayerRemoved:
		return name + " is out"
	case PlayerWon:
		return name + " wins"
	case GameOver:
		return "Game over: " + d.Reason
	}
	if name != "" {
		return typ + " (" + name + ")"
	}
	return typ
}

func joinInts(vs []int, sep string) string {
	var out []string
	for _, v := range vs {
		out = append(out, strconv.Itoa(v))
	}
	return strings.Join(out, sep)
}

// Log returns the readable action log as lines of text.
func (g *Game) Log() []string {
	var out []string
	for _, e := range g.Entries(0) {
		if e.Kind != "fired" {
			out = append(out, e.Text)
		}
	}
	return out
}

// Trace returns every rule that fired, in order, as "RULE on EVENT
// (player[, tile])".
func (g *Game) Trace() []string {
	var out []string
	m := g.Match
	for _, r := range m.Records() {
		if r.Kind != engine.RecFired {
			continue
		}
		p := m.Index.Get(r.Trigger).Def.Data.(*part)
		ev := &m.Events[r.Event]
		line := p.name + " on " + g.Def.rules.Types.Name(ev.Type)
		var who []string
		if ev.Player != engine.NoPlayer {
			who = append(who, g.Players[ev.Player])
		}
		if ev.Location != engine.NoLocation {
			who = append(who, g.State.tileID(int(ev.Location)))
		}
		if len(who) > 0 {
			line += " (" + strings.Join(who, ", ") + ")"
		}
		out = append(out, line)
	}
	return out
}

// WriteLog writes the match's log from record from on as JSON lines: the
// engine's records, where each firing also names its rule ("rule", and
// "ruleIndex", its place in the file's rules, and "preset") and each event
// at a tile gives the tile's id ("tile").
func (g *Game) WriteLog(w io.Writer, from int) error {
	m := g.Match
	return m.WriteJSONLWith(w, from, func(b []byte, _ int, r *engine.Record) []byte {
		switch r.Kind {
		case engine.RecFired:
			p := m.Index.Get(r.Trigger).Def.Data.(*part)
			b = appendString(append(b, `,"rule":`...), p.name)
			b = fmt.Appendf(b, `,"ruleIndex":%d`, p.rule)
			if p.preset != "" {
				b = appendString(append(b, `,"preset":`...), p.preset)
			}
		case engine.RecEvent:
			if ev := &m.Events[r.Event]; ev.Location != engine.NoLocation {
				b = appendString(append(b, `,"tile":`...), g.State.tileID(int(ev.Location)))
			}
		}
		return b
	})
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	js, _ := marshal(s)
	return append(b, js...)
}
