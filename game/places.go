package game

// Placer is a Match that counts where things happen: what each of its
// places (a board's spaces or tiles, a map's squares), each of its pieces
// (cards, drones, creatures) and each seat did in the match. The
// simulator adds the figures up over many games and draws them on the
// board (see Mapper), so that a designer sees which spaces do all the
// work. It is optional, beside Tallier.
type Placer interface {
	// Places returns the match's figures so far. Its layout
	// (Places.Places) is the definition's, the same slice for every match
	// of the definition with as many players; its Counts are the match's
	// own, valid until its next command or restart: a caller copies what
	// it keeps. It should allocate nothing, since a simulation asks for it
	// after every game.
	Places() Places
}

// Places is what every place of a match did.
type Places struct {
	// Places lays the figures out, in the game's order (that of the game
	// file).
	Places []Place
	// Counts holds the figures: the k-th figure of place p is
	// Counts[p.First+k].
	Counts []float64
}

// Place is one place, piece or seat whose figures a match counts.
type Place struct {
	// ID names it as the definition's Drawing does (a space's or a tile's
	// id, a square's "x,y", a card's name): unique among the places of
	// its Kind, and the ID of its shape in the PlaceMap.
	ID string `json:"id"`
	// Name is what players call it ("Take a Drink", "Odin").
	Name string `json:"name"`
	// Kind is what it is: "space", "tile", "square", "card", "drone",
	// "creature", "seat", "event", "action".
	Kind string `json:"kind"`
	// Seat is the seat it belongs to, or -1.
	Seat int `json:"seat"`
	// Figures name what is counted for it ("landings", "firings"): each a
	// count over the match, or for a seat's stat its value at the end.
	Figures []string `json:"-"`
	// First is the index in Places.Counts of its first figure.
	First int `json:"-"`
}

// Mapper is a Definition whose places can be drawn as a map: shapes where
// the definition's Drawing puts them, linked as it links them. Reports
// colour each shape by one of its place's figures (a heat map).
type Mapper interface {
	// PlaceMap returns the map, or nil when the game has no board to
	// draw.
	PlaceMap() *PlaceMap
}

// PlaceMap is the drawing of a game's places of one kind.
type PlaceMap struct {
	// Kind is the Place.Kind of the places drawn: the shape whose ID is a
	// place's ID draws that place.
	Kind   string  `json:"kind"`
	Shapes []Shape `json:"shapes"`
	Links  []Link  `json:"links"`
}

// Shape is where one place is drawn, in the drawing's own units (x to the
// right, y down, as in SVG); the map's extent is that of its shapes.
type Shape struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// X and Y are its centre, W and H its width and height.
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
	// Round draws an ellipse (a circle when W equals H); otherwise a
	// rectangle.
	Round bool `json:"round,omitempty"`
}

// Link is a connection drawn between two shapes: an arrow from From to
// To, with a head at both ends when Both is set.
type Link struct {
	From string `json:"from"`
	To   string `json:"to"`
	Both bool   `json:"both,omitempty"`
}
