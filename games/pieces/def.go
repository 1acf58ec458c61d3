package pieces

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Definition is a compiled game of pieces: its board, each player's start,
// path and goal, its dice and its rules. It is immutable and shared by
// every match started from it.
type Definition struct {
	pack *Pack
	// Engine is Trouble or MultiPiece.
	Engine      string
	Name        string
	Description string
	// HowToPlay tells players how the game is played, if the file says.
	HowToPlay string
	// MinPlayers and MaxPlayers bound the seats; seat i plays the board's
	// player i+1 (its start offset, zones and colour).
	MinPlayers, MaxPlayers int
	Spaces                 []Space
	byID                   map[string]int
	// Pieces is how many pieces each player has.
	Pieces int
	Dice   Dice
	// RollAgain are the rolls after which the player rolls again;
	// EnterOn the rolls that bring a piece out of its start (nil: any).
	RollAgain, EnterOn []int
	rollAgain, enterOn []bool
	// Capture says whether a piece landing on an opponent's sends it back
	// to its start (never on a safe space).
	Capture bool
	safe    []bool
	// sheltered marks the spaces where no piece is captured: safe spaces,
	// goals and starts.
	sheltered []bool
	// Share says whether pieces may share a space: in a multi-piece game
	// they may; in Trouble a space holds one piece, so a player's own
	// piece blocks it (and an opponent's too, when it cannot be captured).
	Share bool
	// Placings plays on after the first player gets every piece home,
	// until every place is decided; otherwise the game ends there.
	Placings bool
	// Trouble's geometry: the ring's length, the lanes' length and each
	// player's start on the ring.
	Track, Lane int
	Offsets     []int
	// Render is the board's rendering settings, as written.
	Render map[string]any

	geo []geo
	// startZone marks every player's start spaces, which no piece moves
	// onto; anyGoal every goal space, which only its owners move onto.
	startZone, anyGoal []bool
	triggers           []placed
	// listens holds, per space, the moments its triggers listen to.
	listens []uint8
	// commands holds the JSON of every move command, piece by piece and
	// space by space, when there are not too many (see command).
	commands [][]byte
	// seatNames name the seats in tallies: "seat 1"…
	seatNames []string
	// layouts lay out the places a match counts, by number of players
	// (tally.go).
	layouts [][]game.Place
}

// maxCommands bounds the move commands a definition keeps written out.
const maxCommands = 4096

// writeCommands writes out the move commands, once, if there are few.
func (d *Definition) writeCommands() {
	if d.Pieces*len(d.Spaces) > maxCommands {
		return
	}
	d.commands = make([][]byte, d.Pieces*len(d.Spaces))
	for k := range d.Pieces {
		for s := range d.Spaces {
			d.commands[k*len(d.Spaces)+s] = d.writeCommand(k, s)
		}
	}
}

// command returns the JSON of the command moving piece number k+1 to a
// space: {"piece":2,"to":"t14"}.
func (d *Definition) command(k, space int) json.RawMessage {
	if d.commands != nil {
		return d.commands[k*len(d.Spaces)+space]
	}
	return d.writeCommand(k, space)
}

func (d *Definition) writeCommand(k, space int) json.RawMessage {
	to, _ := json.Marshal(d.Spaces[space].ID)
	b := make([]byte, 0, 16+len(to))
	b = append(b, `{"piece":`...)
	b = strconv.AppendInt(b, int64(k+1), 10)
	b = append(b, `,"to":`...)
	b = append(b, to...)
	return append(b, '}')
}

// Dice are the dice a game rolls: Count dice of Sides sides, added up.
type Dice struct {
	Count, Sides int
}

// String says the dice in words: "one die of 6 sides", "2 dice of 6
// sides".
func (d Dice) String() string {
	if d.Count == 1 {
		return "one die of " + strconv.Itoa(d.Sides) + " sides"
	}
	return fmt.Sprintf("%d dice of %d sides", d.Count, d.Sides)
}

// Space is one space of the board.
type Space struct {
	// ID is the file's id of the space, which commands use; Name what
	// players call it (spaceName gives a readable default).
	ID, Name, Type          string
	X, Y, Size              float64
	Color, TextColor, Shape string
	// Next are the spaces its connections lead to, with whether each is
	// drawn; Prev the spaces whose connections lead here.
	Next []int
	Draw []bool
	Prev []int
	Safe bool
	// Triggers fire for the pieces that move here.
	Triggers []trigger
}

// trigger is one of a space's triggers.
type trigger struct {
	When     string
	Action   Action
	Priority engine.Priority
}

// placed is the engine trigger of a space's trigger.
type placed struct {
	space, index int
	def          *engine.Trigger
}

// geo is one player's geometry on the board.
type geo struct {
	// Start is the start space of each of the player's pieces.
	Start []int
	// Path is a Trouble player's way round: progress k is Path[k], from
	// the player's start on the ring to the end of its lane.
	Path []int
	// at maps a space to its progress on Path (Trouble), or -1.
	at []int
	// goal marks the spaces where the player's pieces are home: the
	// Trouble lane, the home zone.
	goal []bool
	// dist is the steps from each space to the nearest goal space; far
	// the longest of them.
	dist []int
	far  int
	// Colour is the colour of the player's start, for the page.
	Colour string
}

// DefaultMaxRounds is the round limit of a match started without one: far
// beyond any real game, so that only a game that cannot end stops there.
const DefaultMaxRounds = 1000

// Info describes the game for the lobby and the command line.
func (d *Definition) Info() game.Info {
	return game.Info{Pack: "pieces", Name: d.Name, Description: d.Description, HowToPlay: d.HowToPlay, MinPlayers: d.MinPlayers, MaxPlayers: d.MaxPlayers,
		DefaultMaxRounds: DefaultMaxRounds, Size: fmt.Sprintf("%d spaces, %d pieces each", len(d.Spaces), d.Pieces)}
}

// SpaceID returns the id of a space (by index).
func (d *Definition) SpaceID(i int) string { return d.Spaces[i].ID }

// Space returns the index of the space with the given id, or -1.
func (d *Definition) Space(id string) int {
	if i, ok := d.byID[id]; ok {
		return i
	}
	return -1
}

// Start begins a match.
func (d *Definition) Start(s game.Setup) (game.Match, error) {
	return d.NewMatch(s)
}

// NewMatch is Start with the match's own type.
func (d *Definition) NewMatch(s game.Setup) (*Match, error) {
	if err := d.Info().CheckPlayers(len(s.Players)); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(s.Players); err != nil {
		return nil, err
	}
	for _, v := range s.Dice {
		if v < 1 || v > d.Dice.Sides {
			return nil, fmt.Errorf("a scripted die of %d: the game rolls %s, so a die shows 1 to %d", v, d.Dice, d.Dice.Sides)
		}
	}
	st := &State{Players: s.Players, Pieces: make([]int, len(s.Players)*d.Pieces), Moving: -1, Roller: -1,
		MaxRounds: s.MaxRounds, Script: append([]int(nil), s.Dice...), Round: 1}
	if st.MaxRounds == 0 {
		st.MaxRounds = DefaultMaxRounds
	}
	for seat := range s.Players {
		copy(st.Pieces[seat*d.Pieces:], d.geo[seat].Start)
	}
	m := d.newMatch(st, s.Seed)
	if err := m.run(d.pack.fx.start.Call(struct{}{})); err != nil {
		return nil, err
	}
	return m, nil
}

// newMatch builds a match on a state, with its engine match, its
// triggers and its dice stream, and nothing run yet.
func (d *Definition) newMatch(st *State, seed uint64) *Match {
	m := &Match{def: d, s: st, seats: len(st.Players), movesKey: -1}
	rules := d.pack.plain
	if len(d.triggers) > 0 {
		rules = d.pack.rules
	}
	m.e = engine.NewMatch(rules, m, seed, st.Players)
	for _, t := range d.triggers {
		m.e.Index.Add(t.def, engine.System, engine.NoPlayer, engine.LocationID(t.space), int64(t.space))
	}
	m.dice = m.e.RNG.Stream("dice")
	m.tally = make([]int, m.seats*tallySeat+len(d.Spaces)*tallySpace)
	m.recount()
	return m
}

// Drawing is the board as the page draws it, a BoardDrawing.
func (d *Definition) Drawing() any {
	out := BoardDrawing{Engine: d.Engine, Pieces: d.Pieces, Render: d.Render, Spaces: make([]SpaceDrawing, len(d.Spaces))}
	if out.Render == nil {
		out.Render = map[string]any{}
	}
	owner := make([]int, len(d.Spaces))
	role := make([]string, len(d.Spaces))
	for i := range owner {
		owner[i] = -1
	}
	for p := range d.geo {
		g := &d.geo[p]
		pd := PlayerDrawing{Colour: g.Colour, Start: []string{}, Goal: []string{}}
		for _, s := range g.Start {
			pd.Start = append(pd.Start, d.Spaces[s].ID)
			owner[s], role[s] = p, "start"
		}
		for s, in := range g.goal {
			if in {
				pd.Goal = append(pd.Goal, d.Spaces[s].ID)
				owner[s], role[s] = p, "goal"
			}
		}
		out.Players = append(out.Players, pd)
	}
	for i, s := range d.Spaces {
		sd := SpaceDrawing{ID: s.ID, Name: d.spaceName(i), Type: s.Type, X: s.X, Y: s.Y, Size: s.Size, Color: s.Color,
			TextColor: s.TextColor, Shape: s.Shape, Safe: d.safe[i], Owner: owner[i], Role: role[i],
			Connections: []ConnectionDrawing{}, Triggers: []TriggerDrawing{}}
		for j, t := range s.Next {
			sd.Connections = append(sd.Connections, ConnectionDrawing{Target: d.Spaces[t].ID, Draw: s.Draw[j]})
		}
		for _, t := range s.Triggers {
			sd.Triggers = append(sd.Triggers, TriggerDrawing{When: t.When, Action: t.Action.Type, Priority: t.Priority.String()})
		}
		out.Spaces[i] = sd
	}
	return out
}

// BoardDrawing is a board as the page draws it.
type BoardDrawing struct {
	Engine string         `json:"engine"`
	Pieces int            `json:"pieces"`
	Spaces []SpaceDrawing `json:"spaces"`
	// Players are the board's players, in seat order: their colour, start
	// and goal spaces.
	Players []PlayerDrawing `json:"players"`
	Render  map[string]any  `json:"render"`
}

// SpaceDrawing is a space as the page draws it.
type SpaceDrawing struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Type      string  `json:"type"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Size      float64 `json:"size"`
	Color     string  `json:"color,omitempty"`
	TextColor string  `json:"textColor,omitempty"`
	Shape     string  `json:"shape,omitempty"`
	Safe      bool    `json:"safe,omitempty"`
	// Owner is the seat whose start or goal the space is (-1: nobody's),
	// and Role which ("start", "goal" or "").
	Owner       int                 `json:"owner"`
	Role        string              `json:"role,omitempty"`
	Connections []ConnectionDrawing `json:"connections"`
	Triggers    []TriggerDrawing    `json:"triggers"`
}

// ConnectionDrawing is an arrow.
type ConnectionDrawing struct {
	Target string `json:"target"`
	Draw   bool   `json:"draw"`
}

// TriggerDrawing describes a space's trigger for its tooltip.
type TriggerDrawing struct {
	When     string `json:"when"`
	Action   string `json:"action"`
	Priority string `json:"priority"`
}

// PlayerDrawing is one of the board's players.
type PlayerDrawing struct {
	Colour string   `json:"colour,omitempty"`
	Start  []string `json:"start"`
	Goal   []string `json:"goal"`
}

// spaceName names a space for players: its name, or a readable one made
// from its id.
func (d *Definition) spaceName(i int) string {
	if sp := &d.Spaces[i]; sp.Name != "" {
		return sp.Name
	}
	return game.Readable(d.Spaces[i].ID)
}
