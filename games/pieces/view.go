package pieces

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tabulagames/tabula/game"
	"strconv"
	"strings"
)

// View is what a seat (or a spectator) sees: every player's pieces, whose
// turn it is, the last roll and, for the seat choosing a move, where each
// of its pieces can go.
type View struct {
	Engine  string       `json:"engine"`
	Players []PlayerView `json:"players"`
	Turn    int          `json:"turn"`
	// Phase is "roll", "move" (the player chooses a piece) or "over".
	Phase string `json:"phase"`
	// Dice are the faces of the last roll, Roll their total and Roller
	// the seat who rolled them (-1: nobody yet).
	Dice   []int `json:"dice"`
	Roll   int   `json:"roll"`
	Roller int   `json:"roller"`
	// Moves are the viewer's choices, when it is choosing a move.
	Moves    []MoveView `json:"moves"`
	Round    int        `json:"round"`
	Over     bool       `json:"over"`
	Winners  []int      `json:"winners"`
	Placings []int      `json:"placings"`
	Reason   string     `json:"reason,omitempty"`
	You      int        `json:"you"`
	Hash     string     `json:"hash"`
}

// PlayerView is one player and their pieces.
type PlayerView struct {
	Seat   int         `json:"seat"`
	Name   string      `json:"name"`
	Colour string      `json:"colour,omitempty"`
	Pieces []PieceView `json:"pieces"`
	// AtStart, Out and Home count the pieces waiting, on their way and
	// home.
	AtStart int `json:"atStart"`
	Out     int `json:"out"`
	Home    int `json:"home"`
	// Place is the player's place once every piece is home (1: first),
	// else 0.
	Place int `json:"place"`
}

// PieceView is one piece: its number (from 1), its space (the file's id,
// and its name for players), and where that is ("start", "board" or
// "home").
type PieceView struct {
	Piece     int    `json:"piece"`
	Space     string `json:"space"`
	SpaceName string `json:"spaceName"`
	Where     string `json:"where"`
}

// MoveView is one move the viewer may make: the piece, from where to
// where, and the opponents' pieces it would send back.
type MoveView struct {
	Piece    int             `json:"piece"`
	From     string          `json:"from"`
	To       string          `json:"to"`
	Path     []string        `json:"path"`
	Enter    bool            `json:"enter,omitempty"`
	Home     bool            `json:"home,omitempty"`
	Captures []CaptureView   `json:"captures"`
	Text     string          `json:"text"`
	Data     json.RawMessage `json:"data"`
}

// CaptureView names a piece a move sends back.
type CaptureView struct {
	Seat  int `json:"seat"`
	Piece int `json:"piece"`
}

// View returns what the seat sees.
func (m *Match) View(seat int) any { return m.view(seat) }

func (m *Match) view(seat int) View {
	s, d := m.s, m.def
	v := View{Engine: d.Engine, Turn: s.Turn, Phase: s.Phase.String(), Dice: append([]int{}, s.Dice...), Roll: s.Roll, Roller: s.Roller,
		Moves: []MoveView{}, Round: s.Round, Over: s.Over(), Winners: m.Outcome().Winners, Placings: append([]int{}, s.Placings...),
		Reason: s.Reason, You: seat, Hash: m.Hash()}
	per := d.Pieces
	for p, name := range s.Players {
		pv := PlayerView{Seat: p, Name: name, Colour: d.geo[p].Colour, Place: s.placed(p)}
		for k := range per {
			sp := s.Pieces[p*per+k]
			where := "board"
			switch {
			case d.startZone[sp]:
				where = "start"
				pv.AtStart++
			case d.geo[p].goal[sp]:
				where = "home"
				pv.Home++
			default:
				pv.Out++
			}
			pv.Pieces = append(pv.Pieces, PieceView{Piece: k + 1, Space: d.Spaces[sp].ID, SpaceName: d.spaceName(sp), Where: where})
		}
		v.Players = append(v.Players, pv)
	}
	if !s.Over() && seat == s.Turn && s.Phase == PhaseMove {
		for _, mv := range m.legalMoves(seat, s.Roll) {
			mvv := MoveView{Piece: mv.piece%per + 1, From: d.Spaces[mv.from].ID, To: d.Spaces[mv.to].ID, Enter: mv.enter,
				Home: d.geo[seat].goal[mv.to] && !d.geo[seat].goal[mv.from], Captures: []CaptureView{},
				Text: m.moveText(mv), Data: m.moveJSON(mv)}
			for _, sp := range m.path(mv) {
				mvv.Path = append(mvv.Path, d.Spaces[sp].ID)
			}
			if mv.captures > 0 {
				for q, sp := range s.Pieces {
					if sp == mv.to && q/per != seat {
						mvv.Captures = append(mvv.Captures, CaptureView{Seat: q / per, Piece: q%per + 1})
					}
				}
			}
			v.Moves = append(v.Moves, mvv)
		}
	}
	return v
}

// Text draws the match for the terminal: each player's pieces, whose turn
// it is and the last roll. What the seat may play is listed by the
// terminal, from Legal.
func (m *Match) Text(seat int) string {
	v := m.view(seat)
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d", v.Round)
	if v.Roller >= 0 {
		fmt.Fprintf(&b, "; %s rolled %d", m.s.Players[v.Roller], v.Roll)
	}
	b.WriteByte('\n')
	for _, p := range v.Players {
		mark := "  "
		if p.Seat == v.Turn && !v.Over {
			mark = "> "
		}
		var out []string
		for _, pc := range p.Pieces {
			if pc.Where == "board" {
				out = append(out, fmt.Sprintf("piece %d on %s", pc.Piece, pc.SpaceName))
			}
		}
		counts := fmt.Sprintf("%d waiting, %d home", p.AtStart, p.Home)
		if len(out) > 0 {
			counts = strings.Join(out, ", ") + "; " + counts
		}
		fmt.Fprintf(&b, "%s%s: %s", mark, p.Name, counts)
		if p.Place > 0 {
			fmt.Fprintf(&b, "; %s", game.Ordinal(p.Place))
		}
		b.WriteByte('\n')
	}
	if v.Over {
		fmt.Fprintf(&b, "Game over: %s\n", v.Reason)
	}
	return b.String()
}

// ParseCommand reads a command typed at the terminal: "roll" (or "r"),
// or a piece's number with, if it can go to several spaces, where ("2",
// "move 2", "2 t14").
func (m *Match) ParseCommand(_ int, line string) (json.RawMessage, error) {
	words := strings.Fields(strings.ToLower(line))
	if len(words) > 0 && (words[0] == "move" || words[0] == "m") {
		words = words[1:]
	}
	switch {
	case len(words) == 1 && (words[0] == "roll" || words[0] == "r"):
		return rollJSON, nil
	case len(words) == 0:
		return nil, errors.New(`type "roll", or the number of the piece to move`)
	}
	n, err := strconv.Atoi(words[0])
	if err != nil || len(words) > 2 {
		return nil, errors.New(`type "roll", or the number of the piece to move (and where, if it can go to several spaces)`)
	}
	cmd := Command{Piece: n}
	if len(words) == 2 {
		// Space ids keep their case: find the one meant.
		for _, sp := range m.def.Spaces {
			if strings.EqualFold(sp.ID, words[1]) {
				cmd.To = sp.ID
			}
		}
		if cmd.To == "" {
			return nil, fmt.Errorf("there is no space %q", words[1])
		}
	}
	return json.Marshal(cmd)
}
