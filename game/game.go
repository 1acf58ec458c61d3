// Package game is the one interface between Tabula's game packs and
// everything above them: the server and its page, the command line, bots,
// the simulator and the scenario runner reach a game only through it.
//
// A Pack reads game files into Definitions; a Definition starts Matches; a
// Match applies a seat's command, given as the pack's own JSON, lists the
// commands each seat may play now, shows each seat (or a spectator) what
// it may see, and tells its readable log, its state hash and its outcome.
//
// Every Match is a deterministic state machine: the same definition, setup
// and commands give the same log and the same hashes on every machine. A
// Match is not safe for use by two goroutines at once; a Definition is,
// and many matches share one.
//
// docs/packs.md explains how to add a pack; gametest holds the smallest
// complete pack and the checks every pack passes.
package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine/rng"
)

// Pack is one kind of game: the party board game, the drone lane card
// game, d20 skirmishes, rule books.
type Pack interface {
	// Name is the pack's name as game files, scenario files and stored
	// matches write it ("party").
	Name() string
	// Detect reports whether a source is one of this pack's games. It
	// only sniffs (the main file's "game" member, a folder's manifest):
	// it is cheap and never fails.
	Detect(src *Source) bool
	// Load reads, checks and compiles the game at src: it returns the
	// definition, or nil and every problem found (with file, line, column
	// and JSON pointer). Warnings may come with a definition.
	Load(src *Source) (Definition, diag.List)
	// Schemas are the pack's published JSON Schemas, by the name `tabula
	// schema NAME` prints them under.
	Schemas() []Schema
}

// Packs are the packs a program knows, in the order Detect tries them.
type Packs []Pack

// Named returns the pack of that name, or nil.
func (ps Packs) Named(name string) Pack {
	for _, p := range ps {
		if p.Name() == name {
			return p
		}
	}
	return nil
}

// Names returns the packs' names, in order.
func (ps Packs) Names() []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name()
	}
	return out
}

// Detect returns the pack whose game src is.
func (ps Packs) Detect(src *Source) (Pack, error) {
	for _, p := range ps {
		if p.Detect(src) {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s: not a game file Tabula knows: a game file names its pack in \"game\" (%s), "+
		"or is a party board (\"spaces\", or \"type\": \"game\")", src.Name(), strings.Join(ps.Names(), ", "))
}

// Load detects the pack of src (or takes the one named, if name is not
// "") and loads the game with it. Problems, an unknown pack included, are
// diagnostics.
func (ps Packs) Load(src *Source, name string) (Pack, Definition, diag.List) {
	var p Pack
	if name != "" {
		if p = ps.Named(name); p == nil {
			return nil, nil, diag.List{{File: src.Name(), Severity: diag.Error,
				Message: fmt.Sprintf("no game pack %q%s", name, diag.DidYouMean(name, ps.Names()))}}
		}
	} else {
		var err error
		if p, err = ps.Detect(src); err != nil {
			return nil, nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: strings.TrimPrefix(err.Error(), src.Name()+": ")}}
		}
	}
	def, list := p.Load(src)
	return p, def, list
}

// Schema is a published JSON Schema.
type Schema struct {
	Name string
	Data []byte
}

// Cataloger is a Pack that tells the game editor what its files are made
// of (actions, triggers, presets with their fields).
type Cataloger interface {
	// Catalog is what every file of the pack may use, ready for JSON.
	Catalog() any
}

// Validator is a Pack whose files are not all games on their own (a
// skirmish's combatant files): Validate checks any of its files, where
// Load refuses those that cannot be played.
type Validator interface {
	Validate(src *Source) diag.List
}

// Previewer is a Definition with a picture of itself for the lobby, such
// as a party bundle's preview.png.
type Previewer interface {
	// Preview is the picture's bytes and media type ("image/png"); nil if
	// the game has none.
	Preview() ([]byte, string)
}

// Converter is a Pack that writes the games it loaded in its other
// formats, such as an old file format in the current one.
type Converter interface {
	// Formats lists the formats Convert writes, such as "v3".
	Formats() []string
	// Convert writes a definition the pack loaded in a format: the bytes
	// of one file, or of a zip archive (IsZip tells) for a game of
	// several files. Loading them again gives the same game.
	Convert(def Definition, format string) ([]byte, error)
}

// Outliner is a Pack that tells its editor more about a file being edited
// than whether it is valid, and fills in its catalog's templates.
type Outliner interface {
	// Outline describes the file for the editor (a rule book's events,
	// with the predicates each offers), ready for JSON; nil if there is
	// nothing to say. It works on invalid files too, as far as it can.
	Outline(src *Source) any
	// Render fills in the catalog's template of that name (a predicate)
	// with its arguments, giving text for the file (a CEL condition).
	Render(name string, args map[string]string) (string, error)
}

// Definition is a checked, compiled game ready to play. It is immutable
// and shared by every match started from it.
type Definition interface {
	// Info describes the game for the lobby and the command line.
	Info() Info
	// Drawing is the board (or table) as the page draws it, ready for
	// JSON; nil if the pack's page needs none.
	Drawing() any
	// Start begins a match. Players are the seats' names in seat order;
	// their number must be within Info's limits (InfoFor's, in a
	// compatibility mode).
	Start(s Setup) (Match, error)
}

// Compatible is a Definition that can also be played as an earlier version
// of its game played it, quirks included, in named compatibility modes
// (Setup.Compat): a designer sees how a board behaved there.
type Compatible interface {
	// CompatInfo is Info for matches played in a mode, whose limits may
	// differ; an unknown mode is an error naming the modes there are.
	CompatInfo(mode string) (Info, error)
}

// InfoFor describes a game as played in a compatibility mode: Info for
// the default mode (""), else the definition's CompatInfo. A game without
// compatibility modes refuses any other.
func InfoFor(d Definition, mode string) (Info, error) {
	if mode == "" {
		return d.Info(), nil
	}
	c, ok := d.(Compatible)
	if !ok {
		return Info{}, fmt.Errorf("compat %q: %s has no compatibility modes; leave compat out", mode, d.Info().Name)
	}
	return c.CompatInfo(mode)
}

// Info describes a game.
type Info struct {
	// Pack is the pack's name.
	Pack string `json:"game"`
	Name string `json:"name"`
	// Description says in a sentence or two what the game is, for players
	// choosing one in the lobby. A designer's notes are not in it: they
	// stay in the file.
	Description string `json:"description"`
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers int `json:"minPlayers"`
	MaxPlayers int `json:"maxPlayers"`
	// Roles name the seats when the game gives them names of its own (a
	// skirmish's sides), in seat order; nil otherwise.
	Roles []string `json:"roles,omitempty"`
	// DefaultMaxRounds is the round limit of a match started without one
	// (0: none).
	DefaultMaxRounds int `json:"defaultMaxRounds"`
	// Size says how big the game is in its own unit ("24 spaces").
	Size string `json:"size,omitempty"`
	// HowToPlay tells players, briefly, how the game is played: the goal,
	// a turn, what ends it. "" if the file says nothing: pages then show
	// the description alone.
	HowToPlay string `json:"howToPlay,omitempty"`
}

// CheckPlayers reports a number of players outside a game's limits.
func (i Info) CheckPlayers(n int) error {
	if n >= i.MinPlayers && n <= i.MaxPlayers {
		return nil
	}
	return &PlayersError{Name: i.Name, Min: i.MinPlayers, Max: i.MaxPlayers, Got: n}
}

// PlayersError is a match started with a number of players its game does
// not allow.
type PlayersError struct {
	Name          string
	Min, Max, Got int
}

func (e *PlayersError) Error() string {
	name := e.Name
	if name == "" {
		name = "this game"
	}
	if e.Min == e.Max {
		return name + " is for " + itoa(e.Min) + " players, not " + itoa(e.Got)
	}
	return name + " is for " + itoa(e.Min) + " to " + itoa(e.Max) + " players, not " + itoa(e.Got)
}

// Setup is how a match starts.
type Setup struct {
	// Players are the seats' names, in seat order.
	Players []string
	// Seed seeds every random number of the match.
	Seed uint64
	// MaxRounds ends a match that has not ended by then, with no winner
	// (0: the game's default).
	MaxRounds int
	// Dice are scripted die results, used in order before random ones
	// (scenario files, `tabula play --rolls`, tests). A server never sets
	// them: commands never carry dice.
	Dice []int
	// AutoAck acknowledges every message for its players as soon as it is
	// shown, in games whose players acknowledge messages (a match
	// setting); other games ignore it.
	AutoAck bool
	// Compat plays the match in a compatibility mode of its game (see
	// Compatible): "original" plays a party board as the original game
	// did. Empty, the default, plays the game's own rules. A match is
	// stored with it, so that a replay plays the same way.
	Compat string
}

// Spectator is the seat of a viewer who plays no seat.
const Spectator = -1

// Match is one game being played.
type Match interface {
	// Apply plays a seat's command, given as the pack's JSON. A command
	// that breaks the rules (out of turn, not a legal choice, malformed)
	// is rejected with an engine.RejectError and changes nothing; any
	// other error means the match cannot go on.
	Apply(seat int, cmd json.RawMessage) error
	// Waiting returns the seats the match waits for, in order; none once
	// it is over.
	Waiting() []int
	// Legal returns every command the seat may play now (none when the
	// match does not wait for it), each of which Apply accepts. The slice
	// may be shared with other calls and other matches: callers never
	// change it.
	Legal(seat int) []Command
	// View is what a seat, or a Spectator, sees now, ready for JSON:
	// other seats' hidden information (hands, decks, sealed answers) is
	// not in it. Its strings that players read are under keys WordKey
	// accepts ("name", "text", "stateText"…), in the players' words; the
	// rest (ids, kinds, states) are for pages to compute with.
	View(seat int) any
	// Log returns the readable log as a seat (or a Spectator) may see it,
	// from log record from on. Records hidden from the viewer are left
	// out or told without their secret ("Bob draws a card").
	Log(viewer, from int) []Entry
	// LogLen is the number of log records so far: the from of the next
	// call to Log that should return only new entries.
	LogLen() int
	// Hash is the state hash: equal states, equal hashes.
	Hash() string
	// Outcome says whether and how the match ended.
	Outcome() Outcome
}

// Command is one command a seat may play.
type Command struct {
	// Data is the command in the pack's JSON, as Apply takes it.
	Data json.RawMessage `json:"data"`
	// Text says what it does, in the players' words ("Roll the dice",
	// "Deploy Odin to lane 2").
	Text string `json:"text"`
}

// Outcome is whether and how a match ended.
type Outcome struct {
	Over bool `json:"over"`
	// Winners are the winning seats (none for a draw or a match stopped
	// by its round limit).
	Winners []int `json:"winners"`
	// Reason says how it ended ("Ann reached the finish", "round limit").
	Reason string `json:"reason,omitempty"`
	// Rounds is how many rounds have been played (begun), in the game's
	// own sense of a round.
	Rounds int `json:"rounds"`
}

// Entry is one line of a match's readable log, with what a page needs to
// animate it.
type Entry struct {
	// Seq is the log record the entry tells.
	Seq int `json:"seq"`
	// Chain is the command (or automatic step) that caused it; Depth how
	// deep in a cascade of triggers it happened (0: the command itself).
	Chain int `json:"chain"`
	Depth int `json:"depth"`
	// Kind is the engine's kind of record: event, fired, blocked,
	// skipped, cancelled, ask, answer, note or error.
	Kind string `json:"kind"`
	// Type is the event's type (ROLLED, ON_ENTER, DAMAGE…), if any.
	Type string `json:"type,omitempty"`
	// Seat is the seat concerned, or -1.
	Seat int `json:"seat"`
	// Text tells it in the players' words; "" when players need not see
	// it (the page shows it only in its details view).
	Text string `json:"text"`
	// Detail tells it in the engine's words, for designers debugging a
	// game: the trigger, the event, the effect.
	Detail string `json:"detail,omitempty"`
	// At is where it happened (a space, a tile, a lane, a square) in the
	// pack's own naming; Subject is who or what acted or reacted; Target
	// is whom it was done to; Amount how much (damage, steps, money).
	At      string `json:"at,omitempty"`
	Subject string `json:"subject,omitempty"`
	Target  string `json:"target,omitempty"`
	Amount  int    `json:"amount,omitempty"`
	// Data is anything more the pack's page shows (a roll's modifiers),
	// ready for JSON.
	Data any `json:"data,omitempty"`
}

// Botter is a Match with a bot of its own pack: the quick default bot of
// the server and the command line. Matches without one are played by a
// random choice among the legal commands.
type Botter interface {
	// BotCommand returns what a bot in the seat plays now, drawing any
	// randomness from r (the bot's own stream, never the match's), or
	// false if the match does not wait for the seat.
	BotCommand(seat int, r *rng.Stream) (json.RawMessage, bool)
}

// BotCommand returns what the default bot of a match plays for a seat: the
// pack's own bot if it has one, else a random legal command (drawing from
// r only when there is a choice).
func BotCommand(m Match, seat int, r *rng.Stream) (json.RawMessage, bool) {
	if b, ok := m.(Botter); ok {
		return b.BotCommand(seat, r)
	}
	legal := m.Legal(seat)
	switch len(legal) {
	case 0:
		return nil, false
	case 1:
		return legal[0].Data, true
	}
	return legal[r.IntN(len(legal))].Data, true
}

// Timed is a Match some of whose decisions must be taken quickly (a
// reaction in the middle of someone else's turn, such as an opportunity
// attack): a seat that lets the time run out is played by its bot for that
// decision.
type Timed interface {
	// TimeLimit is how long the seat may take over what it is asked now;
	// 0 leaves it to the match's own turn limit, if any.
	TimeLimit(seat int) time.Duration
}

// Tallier is a Match that counts what each of its pieces did, for the
// simulator's report (per drone and card, per character, per space).
type Tallier interface {
	// Tally returns the counts so far, in a stable order.
	Tally() []Tally
}

// Tally is what one piece of a game did in a match.
type Tally struct {
	// Name names the piece as the game file does ("Odin", "goblin");
	// pieces of the same name are added up across matches.
	Name string `json:"name"`
	// Kind is what it is ("drone", "card", "character", "space").
	Kind string `json:"kind"`
	// Seat is the seat it belongs to, or -1.
	Seat int `json:"seat"`
	// Firings counts its triggers' firings (or its uses: a card played);
	// Damage the damage it dealt; Kills what it destroyed or knocked out.
	Firings int `json:"firings"`
	Damage  int `json:"damage"`
	Kills   int `json:"kills"`
}

// Recorder is a Match that writes its whole log as JSON lines (every
// record of the engine with the pack's details), for `tabula play --log`.
// Matches without one have their readable log written instead.
type Recorder interface {
	// WriteLog writes the records from record from on, one JSON object a
	// line.
	WriteLog(w io.Writer, from int) error
}

// Cloner is a Match that copies itself cheaply and exactly: the copy
// plays on to the same hashes as the original would. Bots that search
// (MCTS) play their playouts on copies; matches without Clone are copied
// by replaying their commands.
type Cloner interface {
	Clone() Match
}

// Evaluator is a Match that says how well a seat is doing, for bots that
// look ahead: higher is better for the seat, in the game's own terms (hull
// and drones, hit points, money and properties). It should be cheap.
type Evaluator interface {
	// Evaluate scores the position for the seat, typically in [-1, 1].
	Evaluate(seat int) float64
}

// Determinizer is a Match with hidden information (hands, decks) that
// can make a copy in which what a seat cannot see is drawn again at
// random, consistently with everything that seat has seen (the cards
// played, how many each hand holds): the copy a searching bot may look
// into without cheating.
type Determinizer interface {
	// Determinize returns such a copy for the seat, drawing from r.
	Determinize(seat int, r *rng.Stream) Match
}

// Secretive is a Match whose seats see what the others may not (a hand
// of cards): a device that several players share (pass-and-play) hides
// the table between two of them while a seat's view holds a secret.
// Matches that are not Secretive show every seat what the others see.
type Secretive interface {
	// Secret reports whether the seat's view now shows something other
	// seats may not see.
	Secret(seat int) bool
}

// SearchAdvisor is a Match that tells bots which search plays its game
// well at a reasonable cost, for when they are not told otherwise: a lane
// game's playouts to the end are hundreds of random commands that say
// little, a skirmish's are better cut after a few. Package bot takes the
// advice for every setting its options leave at zero.
type SearchAdvisor interface {
	SearchAdvice() SearchAdvice
}

// SearchAdvice is how a game is best searched (package bot's Options
// have the same names and say more).
type SearchAdvice struct {
	// Iterations is the number of MCTS iterations (playouts) a decision.
	Iterations int
	// Depth cuts each playout after that many commands and scores it with
	// the match's Evaluator (0: to the end).
	Depth int
	// Leaves scores each new node with the Evaluator, without a playout.
	Leaves bool
	// Exploration is UCB1's constant for scores between 0 and 1.
	Exploration float64
}

// Texter is a Match that draws itself as text for the terminal.
type Texter interface {
	// Text is what the seat sees, as lines for a terminal.
	Text(seat int) string
}

// Parser is a Match that reads commands typed in the terminal in its own
// words ("attack goblin", "deploy Odin 2").
type Parser interface {
	// ParseCommand turns a typed line into the pack's JSON, or says why it
	// cannot.
	ParseCommand(seat int, line string) (json.RawMessage, error)
}

func itoa(n int) string { return strconv.Itoa(n) }

// MaxCommand is the largest command, in bytes, that DecodeCommand reads.
const MaxCommand = 4096

// DecodeCommand decodes a command's JSON into v: one JSON object, no member
// v does not have, nothing after it, at most MaxCommand bytes. Packs use it
// in Apply; its errors say what is wrong for a RejectError.
func DecodeCommand(data []byte, v any) error {
	if len(data) > MaxCommand {
		return fmt.Errorf("a command has at most %d bytes, not %d", MaxCommand, len(data))
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return errors.New("a command is a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("there is more after the command's JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("there is more after the command's JSON object")
	}
	return nil
}
