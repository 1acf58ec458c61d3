package server

import "github.com/tabulagames/tabula/games/rulebook"

// TileBoard is a rule book's board as the page draws it: its tiles at
// their coordinates, their arrows and jumps.
type TileBoard struct {
	Info  BoardInfo  `json:"info"`
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

// tileDrawing is a rule book's board for the page.
func tileDrawing(info BoardInfo, f *rulebook.File) TileBoard {
	d := TileBoard{Info: info, Tiles: []TileView{}}
	for _, t := range f.Board.Tiles {
		next := t.Next
		if next == nil {
			next = []string{}
		}
		d.Tiles = append(d.Tiles, TileView{ID: t.ID, Name: t.Name, Kind: t.Kind, X: t.X, Y: t.Y, Next: next,
			Jump: t.Jump, Price: t.Price, Rent: t.Rent, Colour: t.Colour})
	}
	return d
}
