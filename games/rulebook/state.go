package rulebook

import (
	"github.com/tabulagames/tabula/engine"
)

// State is the state of a rule book match. Only actions change it.
type State struct {
	def *Definition
	// Players are in seat order.
	Players []Player
	// Owners holds each tile's owner's seat, -1 for nobody.
	Owners []int
	// Current is the seat of the current player.
	Current int
	// Turn counts the turns begun (START_TURN events); Round starts at 1
	// and goes up when the turn passes back to an earlier seat.
	Turn, Round int
	// Roll is the last roll's total and Dice its faces.
	Roll int
	Dice []int
	// Card is the last card drawn (Deck -1 before the first draw).
	Card CardRef
	// Decks are the decks' draw and discard piles, as in the file.
	Decks []DeckState
	// Over is set when the game has ended; Winners are the seats that won
	// and EndReason says why it ended.
	Over      bool
	Winners   []int
	EndReason string
	// MaxRounds ends the match when a turn of a later round would begin
	// (0: no limit); it is set by whoever starts the match.
	MaxRounds int
	// Script holds scripted die faces, used before random ones; Scripted
	// counts those used.
	Script   []int
	Scripted int

	// endWords says why the game ended in the players' words (EndReason
	// is the engine's, which stored matches hash). It follows from what the
	// hash holds: how the game ended and who won.
	endWords string
	// drawn counts the cards drawn so far. It is not hashed: a match
	// compares it before and after a command, to tell whether the command
	// revealed a card (Match.Undoable).
	drawn int
}

// Player is one player of a match.
type Player struct {
	Name   string
	Seat   int
	Tile   int // index into the board's tiles
	Score  int
	Active bool
	Turns  int
	// Props are the player's properties, in the order of the
	// definition's property names.
	Props []int
}

// CardRef names a card of a deck by index.
type CardRef struct {
	Deck, Card int
}

// DeckState is a deck's piles: Draw (the top is the last) and Discard.
type DeckState struct {
	Draw, Discard []int
}

// Entity ids: a player is their seat + 1.
func playerEntity(seat int) engine.EntityID { return engine.EntityID(seat + 1) }
func seatOf(id engine.EntityID) int         { return int(id) - 1 }

// EntityName names the players for the log.
func (s *State) EntityName(id engine.EntityID) string {
	if i := seatOf(id); i >= 0 && i < len(s.Players) {
		return s.Players[i].Name
	}
	return ""
}

// Definition returns the game the match plays.
func (s *State) Definition() *Definition { return s.def }

func (s *State) tileID(i int) string { return s.def.File.Board.Tiles[i].ID }

func (s *State) activeCount() int {
	n := 0
	for _, p := range s.Players {
		if p.Active {
			n++
		}
	}
	return n
}

// Prop returns a player's property (0 if the game has no such property).
func (s *State) Prop(seat int, name string) int {
	if i, ok := s.def.propIndex[name]; ok {
		return s.Players[seat].Props[i]
	}
	return 0
}

func (s *State) owned(seat int) int {
	n := 0
	for _, o := range s.Owners {
		if o == seat {
			n++
		}
	}
	return n
}

func (s *State) celPlayer(seat int) *celPlayer {
	p := &s.Players[seat]
	props := make(map[string]int, len(p.Props))
	for i, name := range s.def.props {
		props[name] = p.Props[i]
	}
	return &celPlayer{Seat: seat, Name: p.Name, Score: p.Score, Tile: s.tileID(p.Tile), Active: p.Active,
		Turns: p.Turns, Owned: s.owned(seat), Props: props}
}

func (s *State) celTile(i int) *celTile {
	t := &s.def.File.Board.Tiles[i]
	out := &celTile{ID: t.ID, Name: t.Name, Kind: t.Kind, Colour: t.Colour, Index: i, Price: t.Price, Rent: t.Rent,
		Jump: t.Jump, Owner: s.Owners[i], Last: len(s.def.next[i]) == 0, Props: s.def.tileProps[i]}
	if out.Owner >= 0 && t.Colour != "" {
		out.SetOwned = true
		for j, u := range s.def.File.Board.Tiles {
			if u.Colour == t.Colour && s.Owners[j] != out.Owner {
				out.SetOwned = false
				break
			}
		}
	}
	return out
}

func (s *State) celCard() *celCard {
	out := &celCard{Move: 1, Props: map[string]int{}}
	if s.Card.Deck < 0 {
		if len(s.def.cardProps) > 0 && len(s.def.cardProps[0]) > 0 {
			for k := range s.def.cardProps[0][0] {
				out.Props[k] = 0
			}
		}
		return out
	}
	d := &s.def.File.Decks[s.Card.Deck]
	c := &d.Cards[s.Card.Card]
	out.Name, out.Deck, out.Colour, out.Tile = c.Name, d.Name, c.Colour, c.Tile
	if c.Move != 0 {
		out.Move = c.Move
	}
	out.Props = s.def.cardProps[s.Card.Deck][s.Card.Card]
	return out
}

// AppendCanonical encodes the state for the match's hash: every field that
// matters, in a fixed order.
func (s *State) AppendCanonical(b []byte) []byte {
	b = engine.AppendDecimals(b, s.Current, s.Turn, s.Round, s.Roll, int(engine.Bit(s.Over)), s.MaxRounds, s.Card.Deck, s.Card.Card, s.Scripted, -1)
	b = engine.AppendDecimals(b, s.Dice...)
	b = engine.AppendDecimals(b, -1)
	b = engine.AppendDecimals(b, s.Winners...)
	b = append(b, s.EndReason...)
	b = append(b, 0)
	b = engine.AppendDecimals(b, s.Owners...)
	b = engine.AppendDecimals(b, -1)
	b = engine.AppendDecimals(b, s.Script...)
	for _, d := range s.Decks {
		b = engine.AppendDecimals(b, -2)
		b = engine.AppendDecimals(b, d.Draw...)
		b = engine.AppendDecimals(b, -1)
		b = engine.AppendDecimals(b, d.Discard...)
	}
	for i := range s.Players {
		p := &s.Players[i]
		b = append(b, p.Name...)
		b = append(b, 0)
		b = engine.AppendDecimals(b, p.Seat, p.Tile, p.Score, int(engine.Bit(p.Active)), p.Turns)
		b = engine.AppendDecimals(b, p.Props...)
		b = engine.AppendDecimals(b, -3)
	}
	return b
}
