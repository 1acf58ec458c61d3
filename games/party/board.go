// Package party is the party board game pack: boards of spaces joined by
// one-way connections, whose events ("when a player lands here, prompt
// everybody to drink") are triggers resolved by the engine's priority
// agenda. It reads the original game's board formats (v1, v2, v3 and the
// bundle, a folder or a zip archive), validates them, and plays them with
// the intended semantics of the original: ON_EXIT once when a step leaves
// a space, ON_ENTER once per entry, ON_LAND once when a move ends there,
// skip-turn effects that work.
package party

import (
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/party/code"
)

// Board is a party board loaded from any supported format. It is immutable
// once loaded and shared by every match played on it.
type Board struct {
	// File is where the board was loaded from; Format is "v1", "v2",
	// "v3" or "bundle".
	File   string
	Format string
	// SpacesFile is the file the Pointer of every space and event refers
	// to: File, or the topology file of a bundle.
	SpacesFile string

	Name   string
	Author string
	// Description says what the board is, for players; HowToPlay how it
	// is played (the goal, a turn, what ends it); Notes are the
	// designer's, never shown to players.
	Description string
	HowToPlay   string
	Notes       string
	Version     string
	Tags        []string

	// EngineType is the game engine the board asks for ("turn-based" is
	// the only one supported); EngineConfig is its configuration as
	// written.
	EngineType   string
	EngineConfig map[string]any
	// Render is the board's renderConfig (v1) or board.rendering (v3),
	// as written: colours, arrow sizes, background, space defaults.
	Render map[string]any

	Rules GameRules

	// Preview is a bundle's preview.png (nil if none): the lobby shows it.
	Preview []byte

	// Spaces are in board order, which breaks ties between events of equal
	// priority.
	Spaces []Space
}

// GameRules are the board's gameRules (v1) or rules (v3).
type GameRules struct {
	// MinPlayers and MaxPlayers bound the number of players (0: unset).
	MinPlayers, MaxPlayers int
	// RecommendedMin and RecommendedMax are advice only (0: unset).
	RecommendedMin, RecommendedMax int
	Start                          StartingPositions
	// MaxTurns ends the game after that many rounds (0: unlimited).
	MaxTurns int
	Dice     Dice
	// Win lists the ways to win; any one ends the game.
	Win []WinCondition
}

// StartingPositions say where players start.
type StartingPositions struct {
	Mode         string   // single, spread, random, custom
	SpaceIDs     []string // candidates; empty: spaces typed "start", else the first space
	Distribution string   // round-robin or sequential (spread only)
}

// Dice is how a turn's move is rolled: Count dice of Sides sides, summed.
type Dice struct {
	Count, Sides int
}

// The ranges of a board's numbers. Within them a match plays without
// breaking: a roll, a turn's walk and a stat stay bounded. The loader and
// the board schema report a number outside its range at its pointer.
const (
	// MaxDice and MaxSides bound the dice of a roll (at least one die of
	// at least one side).
	MaxDice  = 10
	MaxSides = 100
	// MaxDisplace bounds DISPLACE_PLAYER's steps, either way.
	MaxDisplace = 100
	// MaxEffectTurns bounds the turns of an effect (from 0).
	MaxEffectTurns = 100
	// MaxStat bounds SET_STAT's value and CHANGE_STAT's delta, either way.
	MaxStat = 1e9
	// MaxTurnLimit bounds a board's maxTurns (from 0: no limit).
	MaxTurnLimit = 100_000
)

// WinCondition is one way to win.
type WinCondition struct {
	// Type is "reach-end" (the first player on one of SpaceIDs wins and the
	// game ends) or "reach-space" (the same, with one space).
	Type     string
	SpaceIDs []string
}

// Space is one space of the board.
type Space struct {
	// ID is the space's id as a string: integer ids are compared as
	// strings, as the original's board lookup does.
	ID          string
	Name        string
	Type        string
	Visual      Visual
	Connections []Connection
	Events      []Event
	// Pointer is the JSON pointer of the space in its file.
	Pointer string
}

// Visual is how a space is drawn.
type Visual struct {
	X, Y, Size   float64
	Color        string
	TextColor    string
	BorderColor  string
	BorderWidth  float64
	Font         string
	TextAlign    string
	TextBaseline string
}

// Connection is a one-way edge to another space.
type Connection struct {
	Target string
	// Draw says whether the page draws the arrow.
	Draw bool
}

// The trigger types of board events.
const (
	OnEnter = "ON_ENTER"
	OnLand  = "ON_LAND"
	OnExit  = "ON_EXIT"
	Code    = "CODE"
)

// Event is one event of a space: when its trigger fires, its action runs.
type Event struct {
	// Trigger is ON_ENTER, ON_LAND, ON_EXIT or CODE.
	Trigger string
	// Code is a CODE trigger's condition (CEL; see docs/boards.md), and
	// Condition the same compiled when the board was loaded.
	Code      string
	Condition *code.Condition
	// Action is what the event does.
	Action Action
	// Priority orders events that fire together, higher first; ties go in
	// board order.
	Priority engine.Priority
	// Inactive events never fire (state "INACTIVE" in the file).
	Inactive bool
	// Pointer is the JSON pointer of the event in its file.
	Pointer string
}

// The action types of board events.
const (
	PromptAllPlayers    = "PROMPT_ALL_PLAYERS"
	PromptCurrentPlayer = "PROMPT_CURRENT_PLAYER"
	SetPlayerState      = "SET_PLAYER_STATE"
	DisplacePlayer      = "DISPLACE_PLAYER"
	ApplyEffect         = "APPLY_EFFECT"
	SetPlayerSpace      = "SET_PLAYER_SPACE"
	ForceStop           = "FORCE_STOP"
	SwapPlaces          = "SWAP_PLACES"
	SetStat             = "SET_STAT"
	ChangeStat          = "CHANGE_STAT"
)

// ActionTypes lists every action type a board may use.
var ActionTypes = []string{
	PromptAllPlayers, PromptCurrentPlayer, SetPlayerState, DisplacePlayer, ApplyEffect,
	SetPlayerSpace, ForceStop, SwapPlaces, SetStat, ChangeStat,
}

// TriggerTypes lists every trigger type a board may use.
var TriggerTypes = []string{OnEnter, OnLand, OnExit, Code}

// Action is an event's action with its arguments, already checked: Args is
// one of PromptArgs, StateArgs, DisplaceArgs, EffectArgs, TeleportArgs,
// ForceStopArgs, SwapArgs, SetStatArgs, ChangeStatArgs, matching Type.
type Action struct {
	Type string
	Args any
}

// PromptArgs is the payload of PROMPT_ALL_PLAYERS and PROMPT_CURRENT_PLAYER.
// The message may hold placeholders such as {{RANDOM_WORD}}.
type PromptArgs struct {
	Message string
	// Everyone has every player acknowledge a prompt to everybody
	// (everyoneAcknowledges); without it, the current player does and the
	// others read it as a notice.
	Everyone bool
}

// StateArgs is the payload of SET_PLAYER_STATE.
type StateArgs struct {
	State string
}

// DisplaceArgs is the payload of DISPLACE_PLAYER: positive steps add moves
// to walk, negative steps go back along the movement history.
type DisplaceArgs struct {
	Steps int
}

// EffectArgs is the payload of APPLY_EFFECT.
type EffectArgs struct {
	Effect PlayerEffect
}

// PlayerEffect is an effect that stays on a player for some turns.
type PlayerEffect struct {
	// Type is the effect as written (SkipTurnsEffect, SkipTurnEffect,
	// RepeatTurnsEffect, DoubleTurnEffect, ChangeDirectionEffect).
	Type string
	// Kind is the effect's meaning: SkipTurns, RepeatTurns, DoubleTurn or
	// ChangeDirection (SkipTurnEffect is SkipTurns).
	Kind string
	// ID is the effect's id as written (may be empty).
	ID string
	// Turns is how many turns are skipped, repeated or reversed.
	Turns int
}

// The kinds of player effects.
const (
	SkipTurns       = "SkipTurns"
	RepeatTurns     = "RepeatTurns"
	DoubleTurn      = "DoubleTurn"
	ChangeDirection = "ChangeDirection"
)

// TeleportArgs is the payload of SET_PLAYER_SPACE.
type TeleportArgs struct {
	SpaceID string
}

// ForceStopArgs is the (empty) payload of FORCE_STOP.
type ForceStopArgs struct{}

// SwapArgs is the payload of SWAP_PLACES: swap with the named player (by
// name or seat number), or with a random other player when empty.
type SwapArgs struct {
	Target string
}

// SetStatArgs is the payload of SET_STAT.
type SetStatArgs struct {
	Stat  string
	Value float64
	// Mode is "both" (default), "true" or "display": which of the stat's
	// true and displayed values change.
	Mode string
}

// ChangeStatArgs is the payload of CHANGE_STAT.
type ChangeStatArgs struct {
	Stat  string
	Delta float64
	Mode  string
}

// The player states.
const (
	Spectating    = "SPECTATING"
	Playing       = "PLAYING"
	CompletedGame = "COMPLETED_GAME"
	Disconnected  = "DISCONNECTED"
	SkippingTurn  = "SKIPPING_TURN"
	Waiting       = "WAITING"
	Eliminated    = "ELIMINATED"
)

// PlayerStates lists every player state.
var PlayerStates = []string{Spectating, Playing, CompletedGame, Disconnected, SkippingTurn, Waiting, Eliminated}

// SpaceIndex returns the index of the space with the given id.
func (b *Board) SpaceIndex(id string) (int, bool) {
	for i := range b.Spaces {
		if b.Spaces[i].ID == id {
			return i, true
		}
	}
	return -1, false
}
