package server

import (
	"fmt"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/rulebook"
)

// The game packs a server hosts, as the store's "game" field names them.
const (
	gameParty    = "party"
	gameRulebook = "rulebook"
)

// Command is a player's command as the server stores it: a roll, a choice,
// an acknowledgement, a purchase, a bid. Both packs' commands have this
// shape, so stored matches read the same whatever their game.
type Command struct {
	Player int    `json:"player"`
	Kind   string `json:"kind"`
	Value  int    `json:"value,omitempty"`
}

// game is one match being played, whatever its pack: what a room needs
// from it. Each is a deterministic state machine; the room owns it.
type game interface {
	// Apply plays a command; engine.IsRejected errors change nothing,
	// others break the match.
	Apply(cmd Command) error
	// Waits are the seats the match waits for, in order.
	Waits() []int
	// BotCommand is what a bot in the seat does now, if it is asked.
	BotCommand(seat int, r *rng.Stream) (Command, bool)
	// Hash is the state hash, stored with every command.
	Hash() string
	// Over reports whether the game has ended.
	Over() bool
	// Result says how a finished match ended, naming its winners.
	Result() string
	// View is what a seat (or -1, a spectator) sees, ready for JSON.
	View(seat int) any
	// Entries are the readable log from record from on, ready for JSON;
	// LogLen is the number of records so far.
	Entries(from int) any
	LogLen() int
	// Commands is the number of commands played.
	Commands() int
	// ChoiceFor answers a choice of way by the space clicked.
	ChoiceFor(space string) (int, bool)
}

// definition is a checked game file ready to play: a party board or a
// rule book.
type definition interface {
	// Game is the pack: "party" or "rulebook".
	Game() string
	// Describe fills in what the library says about the game.
	Describe(info *BoardInfo)
	// Start begins a match with the players in seat order.
	Start(players []string, seed uint64, maxRounds int) (game, error)
	// DefaultMaxRounds is the round limit of a match created without one.
	DefaultMaxRounds() int
	// Drawing is the board as the page draws it.
	Drawing(info BoardInfo) any
}

// detectGame tells which pack a game file is for: "rulebook" for a file
// whose "game" says so, "party" for a party board, "" for neither.
func detectGame(file string, data []byte) string {
	switch {
	case rulebook.Detect(file, data):
		return gameRulebook
	case party.Detect(file, data):
		return gameParty
	}
	return ""
}

// compileGame checks and compiles a game file of the given pack ("" to
// detect it), returning every problem found; the definition is nil when
// there are errors.
func compileGame(game, file string, data []byte) (definition, diag.List) {
	if game == "" {
		game = detectGame(file, data)
	}
	switch game {
	case gameParty:
		b, list := party.Parse(file, data)
		if b == nil || list.HasErrors() {
			return nil, list
		}
		def, err := party.Compile(b)
		if err != nil {
			return nil, append(list, diag.Diagnostic{File: file, Severity: diag.Error, Message: err.Error()})
		}
		return partyDef{def}, list
	case gameRulebook:
		def, list := rulebook.Parse(file, data)
		if def == nil {
			return nil, list
		}
		return rulebookDef{def}, list
	case "":
		return nil, diag.List{{File: file, Severity: diag.Error,
			Message: `not a game file Tabula knows: a party board has "spaces" (v1) or "type": "game" (v3), a rule book has "game": "rulebook"`}}
	}
	return nil, diag.List{{File: file, Severity: diag.Error, Message: fmt.Sprintf("this server does not host %q games", game)}}
}

// resultText says how a match ended: the reason and who won (unless the
// reason says so already: "Ann won").
func resultText(reason string, winners []int, players []string) string {
	if strings.HasSuffix(reason, " won") {
		return reason
	}
	var names []string
	for _, w := range winners {
		if w >= 0 && w < len(players) {
			names = append(names, players[w])
		}
	}
	if len(names) == 0 {
		return reason + "; no winner"
	}
	return reason + "; " + strings.Join(names, ", ") + " won"
}

// --- party boards ---

type partyDef struct{ def *party.Definition }

func (d partyDef) Game() string { return gameParty }

func (d partyDef) Describe(info *BoardInfo) {
	b := d.def.Board
	info.Name, info.Description, info.Spaces = b.Name, b.Description, len(b.Spaces)
	info.MinPlayers, info.MaxPlayers = b.Rules.MinPlayers, b.Rules.MaxPlayers
}

func (d partyDef) Start(players []string, seed uint64, maxRounds int) (game, error) {
	g, err := party.NewGame(d.def, players, party.Options{Seed: seed, MaxRounds: maxRounds})
	if err != nil {
		return nil, err
	}
	return partyGame{g}, nil
}

func (d partyDef) DefaultMaxRounds() int { return party.DefaultMaxRounds }

func (d partyDef) Drawing(info BoardInfo) any { return drawing(info, d.def) }

type partyGame struct{ g *party.Game }

func (p partyGame) Apply(cmd Command) error {
	return p.g.Apply(party.Command{Player: cmd.Player, Kind: cmd.Kind, Value: cmd.Value})
}

func (p partyGame) Waits() []int {
	var out []int
	for _, w := range p.g.Waits() {
		out = append(out, w.Player)
	}
	return out
}

func (p partyGame) BotCommand(seat int, r *rng.Stream) (Command, bool) {
	c, ok := p.g.BotCommand(seat, r)
	return Command{Player: c.Player, Kind: c.Kind, Value: c.Value}, ok
}

func (p partyGame) Hash() string { return p.g.Hash() }
func (p partyGame) Over() bool   { return p.g.Over() }

func (p partyGame) Result() string {
	return resultText(p.g.State.EndReason, p.g.State.Winners, p.g.Players)
}

func (p partyGame) View(seat int) any {
	v := p.g.View(seat)
	return &v
}

func (p partyGame) Entries(from int) any               { return p.g.Entries(from) }
func (p partyGame) LogLen() int                        { return len(p.g.Match.Records()) }
func (p partyGame) Commands() int                      { return len(p.g.Commands) }
func (p partyGame) ChoiceFor(space string) (int, bool) { return p.g.ChoiceFor(space) }

// --- rule books ---

type rulebookDef struct{ def *rulebook.Definition }

func (d rulebookDef) Game() string { return gameRulebook }

func (d rulebookDef) Describe(info *BoardInfo) {
	f := d.def.File
	info.Name, info.Description, info.Spaces = f.Name, f.Description, len(f.Board.Tiles)
	info.MinPlayers, info.MaxPlayers = d.def.MinPlayers, d.def.MaxPlayers
}

func (d rulebookDef) Start(players []string, seed uint64, maxRounds int) (game, error) {
	g, err := rulebook.NewGame(d.def, players, rulebook.Options{Seed: seed, MaxRounds: maxRounds})
	if err != nil {
		return nil, err
	}
	return &rulebookGame{g: g}, nil
}

func (d rulebookDef) DefaultMaxRounds() int { return rulebook.DefaultMaxRounds }

func (d rulebookDef) Drawing(info BoardInfo) any { return tileDrawing(info, d.def.File) }

// rulebookGame keeps the state hash of the current state, which every
// viewer and the store ask for.
type rulebookGame struct {
	g    *rulebook.Game
	hash string
}

func (r *rulebookGame) Apply(cmd Command) error {
	r.hash = ""
	return r.g.Apply(rulebook.Command{Player: cmd.Player, Kind: cmd.Kind, Value: cmd.Value})
}

func (r *rulebookGame) Waits() []int {
	var out []int
	for _, w := range r.g.Waits() {
		out = append(out, w.Player)
	}
	return out
}

func (r *rulebookGame) BotCommand(seat int, s *rng.Stream) (Command, bool) {
	c, ok := r.g.BotCommand(seat, s)
	return Command{Player: c.Player, Kind: c.Kind, Value: c.Value}, ok
}

func (r *rulebookGame) Hash() string {
	if r.hash == "" {
		r.hash = r.g.Hash()
	}
	return r.hash
}

func (r *rulebookGame) Over() bool { return r.g.Over() }

func (r *rulebookGame) Result() string {
	return resultText(r.g.State.EndReason, r.g.State.Winners, r.g.Players)
}

func (r *rulebookGame) View(seat int) any {
	v := r.g.View(seat)
	return &v
}

func (r *rulebookGame) Entries(from int) any { return r.g.Entries(from) }
func (r *rulebookGame) LogLen() int          { return len(r.g.Match.Records()) }
func (r *rulebookGame) Commands() int        { return len(r.g.Commands) }

// ChoiceFor finds nothing: a rule book's choices are answered by their
// option's number.
func (r *rulebookGame) ChoiceFor(string) (int, bool) { return 0, false }
