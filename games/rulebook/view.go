package rulebook

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// View is what a player or a spectator sees of a match, ready to be sent as
// JSON to a page. A rule book hides nothing but sealed bids, which the
// engine keeps out of the match until all are in; You and what you are
// asked are what differ between viewers.
type View struct {
	// You is the viewer's seat, or -1 for a spectator.
	You       int       `json:"you"`
	Turn      int       `json:"turn"`
	Round     int       `json:"round"`
	Current   int       `json:"current"`
	Roll      int       `json:"roll"`
	Dice      []int     `json:"dice"`
	Card      *CardView `json:"card,omitempty"`
	Over      bool      `json:"over"`
	Winners   []int     `json:"winners"`
	EndReason string    `json:"endReason,omitempty"`
	// Scores is set when the game keeps a score (players' Score), and
	// ScoreName is what it calls it ("money"), if it names it.
	Scores    bool         `json:"scores"`
	ScoreName string       `json:"scoreName,omitempty"`
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

// PlayerView is one player as a page shows them: Tile and Props by the
// file's names, TileName and PropList as players read them.
type PlayerView struct {
	Name     string         `json:"name"`
	Seat     int            `json:"seat"`
	Tile     string         `json:"tile"`
	TileName string         `json:"tileName"`
	Score    int            `json:"score"`
	Active   bool           `json:"active"`
	Turns    int            `json:"turns"`
	Props    map[string]int `json:"props"`
	PropList []PropView     `json:"propList"`
}

// PropView is one of a player's properties: its name in the file, its
// label for players and its value, in the order the game declares them.
type PropView struct {
	Prop  string `json:"prop"`
	Label string `json:"label"`
	Value int    `json:"value"`
}

// CardView is the card drawn last, with its deck by name and as players
// call it ("" for the only deck of a game).
type CardView struct {
	Deck     string `json:"deck"`
	DeckName string `json:"deckName,omitempty"`
	Name     string `json:"name"`
	Colour   string `json:"colour,omitempty"`
	Tile     string `json:"tile,omitempty"`
}

// View returns the View of the given seat (or game.Spectator).
func (m *Match) View(seat int) any { return m.view(seat) }

func (m *Match) view(seat int) View {
	s := m.state
	v := View{You: seat, Turn: s.Turn, Round: s.Round, Current: s.Current, Roll: s.Roll, Dice: slices.Clone(s.Dice),
		Over: s.Over, Winners: slices.Clone(s.Winners), EndReason: s.endWords, Owners: map[string]int{},
		Scores: m.def.scores, ScoreName: m.def.scoreName,
		Waits: m.Waits(), YourWaits: []Wait{}, Hash: m.Hash(), Commands: m.commands, Log: m.LogLen()}
	if m.err != nil {
		v.Error = m.err.Error()
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
		d := &m.def.File.Decks[s.Card.Deck]
		c := &d.Cards[s.Card.Card]
		v.Card = &CardView{Deck: d.Name, DeckName: m.def.deckTitle(s.Card.Deck), Name: c.Name, Colour: c.Colour, Tile: c.Tile}
	}
	for i, p := range s.Players {
		cp := s.celPlayer(i)
		props := make([]PropView, len(m.def.props))
		for j, k := range m.def.props {
			props[j] = PropView{Prop: k, Label: m.def.propLabel(k), Value: p.Props[j]}
		}
		v.Players = append(v.Players, PlayerView{Name: p.Name, Seat: i, Tile: cp.Tile, TileName: s.tileLabel(p.Tile), Score: p.Score,
			Active: p.Active, Turns: p.Turns, Props: cp.Props, PropList: props})
	}
	for t, o := range s.Owners {
		if o >= 0 {
			v.Owners[s.tileID(t)] = o
		}
	}
	return v
}

// Log returns the readable log from record from on. Every viewer reads the
// same: a rule book's only secret, a sealed bid, is not in the log until
// every bid is in. Entries are at the tile (At) where the page animates
// them; rule firings and the engine's bookkeeping have no Text, only a
// Detail.
//
// A rule book's whole game is one chain of rules setting each other off,
// so the engine's depth grows turn after turn; an entry's Depth is counted
// from the START_TURN event of its turn instead, as players read it.
func (m *Match) Log(viewer, from int) []game.Entry {
	base := m.turnDepth(from)
	return engine.Transcribe(m.eng, from, func(seq int, r engine.Record) (game.Entry, bool) {
		e, ok := m.entry(seq, r)
		if r.Kind == engine.RecEvent && e.Type == "START_TURN" {
			base = int(r.Depth)
		}
		e.Depth = max(0, e.Depth-base)
		return e, ok
	})
}

// turnDepth is the depth of the last START_TURN event recorded before
// record from.
func (m *Match) turnDepth(from int) int {
	recs := m.eng.Records()
	for i := min(from, len(recs)) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind == engine.RecEvent && m.def.rules.Types.Name(m.eng.Events[r.Event].Type) == "START_TURN" {
			return int(r.Depth)
		}
	}
	return 0
}

func (m *Match) entry(seq int, r engine.Record) (game.Entry, bool) {
	e := game.Entry{Seq: seq, Chain: int(r.Chain), Depth: int(r.Depth), Kind: r.Kind.String(), Seat: -1}
	switch r.Kind {
	case engine.RecEvent:
		ev := &m.eng.Events[r.Event]
		e.Type = m.def.rules.Types.Name(ev.Type)
		e.Seat, e.Amount = int(ev.Player), ev.Amount
		if ev.Player != engine.NoPlayer {
			e.Subject = m.players[ev.Player]
		}
		if ev.Target != engine.System {
			e.Target = m.players[seatOf(ev.Target)]
		}
		if ev.Location != engine.NoLocation {
			e.At = m.state.tileID(int(ev.Location))
		}
		if d, ok := ev.Data.(*eventData); ok && (d.Dice != nil || d.Card != "") {
			e.Data = d
		}
		e.Text = m.eventText(ev, e.Type)
		e.Detail = m.eventDetail(ev, e.Type)
	case engine.RecFired, engine.RecBlocked, engine.RecSkipped, engine.RecCancelled:
		name := m.eng.TriggerName(r.Trigger)
		if t := m.eng.Index.Get(r.Trigger); t != nil {
			if p, ok := t.Def.Data.(*part); ok {
				name = p.name
			}
		}
		e.Subject, e.Detail = name, "rule "+name
		if r.Event != engine.NoEvent {
			ev := &m.eng.Events[r.Event]
			e.Type = m.def.rules.Types.Name(ev.Type)
			e.Seat = int(ev.Player)
			if ev.Location != engine.NoLocation {
				e.At = m.state.tileID(int(ev.Location))
			}
			e.Detail += " on " + e.Type
		}
		if r.Kind != engine.RecFired {
			e.Detail += ": " + r.Kind.String()
			if r.Text != "" {
				e.Detail += " (" + r.Text + ")"
			}
		}
	case engine.RecAsk:
		e.Seat, e.Subject = int(r.Player), m.players[r.Player]
		e.Detail = m.players[r.Player] + " is asked " + r.Text
	case engine.RecAnswer:
		e.Seat, e.Subject = int(r.Player), m.players[r.Player]
		e.Text = m.words[seq]
		e.Detail = fmt.Sprintf("%s answers %s (option %d)", m.players[r.Player], r.Text, r.Choice+1)
	case engine.RecNote:
		e.Text = r.Text
	case engine.RecError:
		e.Text = "The game stopped on an error"
		e.Detail = r.Text
	}
	return e, true
}

// eventText says what an event means to the players ("" for the game's
// bookkeeping: the end of a turn, the change of the current player, the
// score changes that settle a payment or a purchase already told, an event
// the game declares without describing it).
func (m *Match) eventText(ev *engine.Event, typ string) string {
	s := m.state
	name := ""
	if ev.Player != engine.NoPlayer {
		name = m.players[ev.Player]
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
		return "The game starts: " + strings.Join(m.players, ", ")
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
		switch {
		case d.settles:
			return ""
		case m.def.scoreName != "":
			return fmt.Sprintf("%s's %s: %+d (now %d)", name, m.def.scoreName, ev.Amount, d.Total)
		case ev.Amount < 0:
			return fmt.Sprintf("%s loses %d (now %d)", name, -ev.Amount, d.Total)
		}
		return fmt.Sprintf("%s gains %d (now %d)", name, ev.Amount, d.Total)
	case Paid:
		to := "the bank"
		if ev.Target != engine.System {
			to = m.players[seatOf(ev.Target)]
		}
		return fmt.Sprintf("%s pays %d to %s", name, ev.Amount, to)
	case PropChanged:
		return fmt.Sprintf("%s's %s: %+d (now %d)", name, m.def.propLabel(d.Prop), ev.Amount, d.Total)
	case PlayerRemoved:
		return name + " is out"
	case PlayerWon:
		return name + " wins"
	case GameOver:
		return "Game over: " + d.words
	}
	// An event the game declares, told by its description, if any.
	doc := m.def.events[typ]
	switch {
	case doc == "":
		return ""
	case name != "":
		return name + ": " + doc
	}
	return capital(doc)
}

// capital starts a sentence.
func capital(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// eventDetail tells an event in the engine's words: its type and what it
// carries.
func (m *Match) eventDetail(ev *engine.Event, typ string) string {
	var parts []string
	if ev.Player != engine.NoPlayer {
		parts = append(parts, m.players[ev.Player])
	}
	if ev.Target != engine.System {
		parts = append(parts, "other "+m.players[seatOf(ev.Target)])
	}
	if ev.Location != engine.NoLocation {
		parts = append(parts, "tile "+m.state.tileID(int(ev.Location)))
	}
	if ev.Amount != 0 {
		parts = append(parts, "amount "+strconv.Itoa(ev.Amount))
	}
	if d, ok := ev.Data.(*eventData); ok {
		if d.Card != "" {
			parts = append(parts, "card "+d.Card+" of "+d.Deck)
		}
		if d.Prop != "" {
			parts = append(parts, "prop "+d.Prop)
		}
		if d.Prop != "" || typ == ScoreChanged {
			parts = append(parts, "total "+strconv.Itoa(d.Total))
		}
	}
	if len(parts) == 0 {
		return typ
	}
	return typ + ": " + strings.Join(parts, ", ")
}

func joinInts(vs []int, sep string) string {
	var out []string
	for _, v := range vs {
		out = append(out, strconv.Itoa(v))
	}
	return strings.Join(out, sep)
}

// logLines returns the lines of the readable log that players see, for
// scenario files.
func (m *Match) logLines() []string {
	var out []string
	for _, e := range m.Log(game.Spectator, 0) {
		if e.Text != "" {
			out = append(out, e.Text)
		}
	}
	return out
}

// Trace returns every rule that fired, in order, as "RULE on EVENT
// (player[, tile])".
func (m *Match) Trace() []string {
	var out []string
	for _, r := range m.eng.Records() {
		if r.Kind != engine.RecFired {
			continue
		}
		p := m.eng.Index.Get(r.Trigger).Def.Data.(*part)
		ev := &m.eng.Events[r.Event]
		line := p.name + " on " + m.def.rules.Types.Name(ev.Type)
		var who []string
		if ev.Player != engine.NoPlayer {
			who = append(who, m.players[ev.Player])
		}
		if ev.Location != engine.NoLocation {
			who = append(who, m.state.tileID(int(ev.Location)))
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
func (m *Match) WriteLog(w io.Writer, from int) error {
	e := m.eng
	return e.WriteJSONLWith(w, from, func(b []byte, _ int, r *engine.Record) []byte {
		switch r.Kind {
		case engine.RecFired:
			p := e.Index.Get(r.Trigger).Def.Data.(*part)
			b = appendString(append(b, `,"rule":`...), p.name)
			b = fmt.Appendf(b, `,"ruleIndex":%d`, p.rule)
			if p.preset != "" {
				b = appendString(append(b, `,"preset":`...), p.preset)
			}
		case engine.RecEvent:
			if ev := &e.Events[r.Event]; ev.Location != engine.NoLocation {
				b = appendString(append(b, `,"tile":`...), m.state.tileID(int(ev.Location)))
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

// TileBoard is a rule book's board as the page draws it: its tiles at
// their coordinates, their arrows and jumps.
type TileBoard struct {
	Tiles []TileView `json:"tiles"`
}

// TileView is a tile as the page draws it.
type TileView struct {
	ID     string   `json:"id"`
	Name   string   `json:"name,omitempty"`
	Kind   string   `json:"kind,omitempty"`
	X      float64  `json:"x"`
	Y      float64  `json:"y"`
	Next   []string `json:"next"`
	Jump   string   `json:"jump,omitempty"`
	Price  int      `json:"price,omitempty"`
	Rent   int      `json:"rent,omitempty"`
	Colour string   `json:"colour,omitempty"`
}

// Drawing returns the TileBoard.
func (d *Definition) Drawing() any {
	b := TileBoard{Tiles: []TileView{}}
	for _, t := range d.File.Board.Tiles {
		next := t.Next
		if next == nil {
			next = []string{}
		}
		name := t.Name
		if _, err := strconv.Atoi(t.ID); name == "" && err != nil {
			name = game.Readable(t.ID) // a numbered tile shows its number
		}
		b.Tiles = append(b.Tiles, TileView{ID: t.ID, Name: name, Kind: t.Kind, X: t.X, Y: t.Y, Next: next,
			Jump: t.Jump, Price: t.Price, Rent: t.Rent, Colour: t.Colour})
	}
	return b
}
