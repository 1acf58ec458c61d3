// Package store keeps the server's games and matches: every game file a
// match is played on (stored once, by the hash of its contents), the
// library of saved games, the lobby's matches with their seats, and every
// accepted command with the state hash it produced. A match is its game,
// its seed and its commands; a server rebuilds it by replaying them and
// checks every hash on the way.
//
// Two databases implement Store with one schema and one set of
// migrations: SQLite (modernc.org/sqlite, pure Go: a file, the default)
// and PostgreSQL (pgx), chosen by Open from its argument. Every write goes
// through one writer goroutine, which commits many matches' commands in
// one transaction (group commit): a busy server pays one commit for many
// commands. An append returns only once its transaction is committed: a
// command acknowledged to a player survives the process being killed.
//
// Each match carries a fence: the lease revision of the node that owns it
// in a cluster (0 on a single server). Writes carry the writer's fence and
// are refused once another owner has raised it (ErrFenced), so a stalled
// former owner can never write after a new one took over.
package store

import (
	"context"
	"errors"
	"time"
)

// Store is an open database.
type Store interface {
	// SaveGame stores a game file under its content hash (nothing happens
	// if it is there already).
	SaveGame(ctx context.Context, g Game) error
	// Game returns a stored game file.
	Game(ctx context.Context, hash string) (Game, error)
	// SaveEntry adds a game to the library, or replaces the entry with
	// its id.
	SaveEntry(ctx context.Context, e Entry) error
	// Entries lists the library, oldest first, without the games' data.
	Entries(ctx context.Context) ([]Entry, error)
	// DeleteEntry removes a library entry (its game stays, for the
	// matches played on it).
	DeleteEntry(ctx context.Context, id string) error
	// DeleteGame removes a stored game that no match and no library
	// entry refers to; it does nothing (and reports nothing) otherwise.
	DeleteGame(ctx context.Context, hash string) error
	// DeleteUnusedGames removes the games stored before a time that no
	// match and no library entry refers to (drafts nobody played), and
	// returns their hashes.
	DeleteUnusedGames(ctx context.Context, before time.Time) ([]string, error)
	// CreateMatch stores a new match; its game must be stored.
	CreateMatch(ctx context.Context, m Match) error
	// UpdateMatch changes a match's seats, settings, status, result,
	// error and count of commands. It is refused with ErrFenced if the
	// match's fence is not m.Fence.
	UpdateMatch(ctx context.Context, m Match) error
	// Match returns one match.
	Match(ctx context.Context, id string) (Match, error)
	// Matches lists matches as the query asks, from the summary columns
	// only (never a game's data).
	Matches(ctx context.Context, q Query) ([]Match, error)
	// Append stores a match's next command and returns once it is
	// committed. It is refused if the sequence number is taken, or with
	// ErrFenced if fence is not the match's.
	Append(ctx context.Context, matchID string, c Command, fence int64) error
	// Commands returns a match's commands in order.
	Commands(ctx context.Context, matchID string) ([]Command, error)
	// AddChat stores a message of a match's table chat; its Seq must be
	// the match's next. It is refused with ErrFenced if fence is not the
	// match's.
	AddChat(ctx context.Context, matchID string, m ChatMessage, fence int64) error
	// Chat returns the last (at most limit) messages of a match's chat,
	// oldest first.
	Chat(ctx context.Context, matchID string, limit int) ([]ChatMessage, error)
	// Fence raises a match's fence to a new owner's lease revision; a
	// fence lower than the match's is refused with ErrFenced.
	Fence(ctx context.Context, matchID string, fence int64) error
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// Close waits for pending writes and closes the database.
	Close() error
}

// Errors of a store.
var (
	// ErrNotFound is returned for a match, game or entry that does not
	// exist.
	ErrNotFound = errors.New("not found")
	// ErrClosed is returned by writes once the store is closing.
	ErrClosed = errors.New("the store is closed")
	// ErrFenced is returned for a write from an owner whose lease another
	// node has taken over.
	ErrFenced = errors.New("another node owns this match now")
)

// Game is a stored game file: the bytes a pack loads it from (one file,
// or a zip archive of several), stored once and shared by its matches.
type Game struct {
	// Hash is the SHA-256 of Data, in hex.
	Hash string
	// Pack is the pack that loads it ("party"), if known.
	Pack string
	// Name is the file's name (diagnostics name it so).
	Name    string
	Data    []byte
	Created time.Time
}

// Entry is a game of the library that players saved or uploaded.
type Entry struct {
	ID       string
	GameHash string
	Pack     string
	// Name is the game's name; File the name of the file it came from.
	Name string
	File string
	// Owner is the hash of the secret of whoever saved it: they may
	// rename and delete it.
	Owner   string
	Created time.Time
	// Info is what the library shows of the game (the server's JSON),
	// kept so that listing the library needs no game loaded; empty for
	// entries saved before it was kept.
	Info []byte
	// Client is the hash of the address that saved it, Size the bytes
	// of its game: what counts against the saver's quota.
	Client string
	Size   int64
	// Used is when a match was last made on it (zero: never).
	Used time.Time
}

// Seat is a place at a match's table.
type Seat struct {
	Name string `json:"name"`
	// Token is the hash of the seat's secret: whoever holds the secret
	// plays the seat.
	Token string `json:"token,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
	// Level is the bot's level ("random", "greedy", "mcts"; "" the
	// pack's own bot).
	Level string `json:"level,omitempty"`
	// From is the hash of the address the seat's player joined from, so
	// that one the owner removes stays away.
	From string `json:"from,omitempty"`
	// Handed says why a bot plays a person's seat: HandedLeft (they
	// left) or HandedOwner (the match's owner handed it over); "" for a
	// seat played by whoever took it.
	Handed string `json:"handed,omitempty"`
	// Muted is set when the match's owner muted the seat's player in the
	// table's chat.
	Muted bool `json:"muted,omitempty"`
}

// Why a bot plays a person's seat (Seat.Handed), or played one command
// for them (Command.Reason).
const (
	// HandedLeft: the player left the match.
	HandedLeft = "left"
	// HandedOwner: the match's owner handed the seat to a bot.
	HandedOwner = "owner"
	// ReasonTimeout: the player's time for a decision ran out.
	ReasonTimeout = "timeout"
)

// Settings are a match's settings, chosen at creation.
type Settings struct {
	// TurnLimit, if not 0, is how long a seat may take over a decision
	// before its bot plays it.
	TurnLimit time.Duration `json:"turnLimit,omitempty"`
	// Public matches are listed in the lobby and open to anyone;
	// private ones only to those given the invitation link.
	Public bool `json:"public,omitempty"`
	// AutoAck acknowledges prompts for everybody.
	AutoAck bool `json:"autoAck,omitempty"`
	// Compat is the compatibility mode the match plays in
	// (game.Setup.Compat); empty for the game's own rules, which matches
	// stored without it play by.
	Compat string `json:"compat,omitempty"`
	// Rematch is the match this one replays with the same seats.
	Rematch string `json:"rematch,omitempty"`
	// Next is the rematch of this one, once made.
	Next string `json:"next,omitempty"`
	// SpectatorChat lets those who watch write in the table's chat (the
	// players always may).
	SpectatorChat bool `json:"spectatorChat,omitempty"`
	// Removed are the players the owner removed from the table, who may
	// not join it again (nor its rematches).
	Removed []Removed `json:"removed,omitempty"`
}

// Removed is a player the owner of a match removed: their name and the
// hash of the address they had joined from.
type Removed struct {
	Name string `json:"name"`
	From string `json:"from,omitempty"`
}

// Match is a match's record: everything needed to rebuild it besides its
// commands.
type Match struct {
	ID string
	// Pack is the game pack ("party").
	Pack string
	// GameHash is the stored game it is played on; BoardID the library
	// entry it was created from; BoardName the game's name.
	GameHash  string
	BoardID   string
	BoardName string
	Seed      uint64
	MaxRounds int
	Seats     []Seat
	// Owner is the hash of the secret of whoever created the match: it
	// lets them fill seats with bots, start, remove players.
	Owner string
	// Invite is the hash of the secret of the match's invitation link.
	Invite   string
	Settings Settings
	// Status is "lobby", "playing", "finished", "broken" or
	// "abandoned".
	Status string
	// Result describes how a finished match ended; Error why a broken one
	// cannot go on.
	Result string
	Error  string
	// Commands is the number of commands stored, as of the match's last
	// update (appends do not count them, to stay cheap: a server updates
	// the match when it leaves memory, ends, or changes otherwise).
	Commands int
	// Fence is the lease revision of the match's owner (0 on a single
	// server).
	Fence   int64
	Created time.Time
	Updated time.Time
}

// The statuses of a match.
const (
	Lobby     = "lobby"
	Playing   = "playing"
	Finished  = "finished"
	Broken    = "broken"
	Abandoned = "abandoned"
)

// Query selects matches to list.
type Query struct {
	// Status and Pack filter, if set.
	Status string
	Pack   string
	// PublicOnly leaves out private matches.
	PublicOnly bool
	// Before lists matches created before this match (by creation time,
	// then id), for the next page.
	Before string
	// Limit is the page's size (default 50, at most 500).
	Limit int
	// IDs, if set, lists only these matches.
	IDs []string
	// UpdatedBefore lists matches not updated since (abandoned matches).
	UpdatedBefore time.Time
}

// Command is one record of a match's command log: an accepted command,
// or an undo, with the state hash after it.
type Command struct {
	Seq    int
	Player int
	Data   []byte // the command, as the pack's JSON (nil for an undo)
	Hash   string
	// Reason is set when a bot played the command for a person: why
	// (ReasonTimeout, HandedLeft, HandedOwner). It is never part of the
	// match's state: a replay shows it beside the command.
	Reason string
	// Undo records that the seat Player took back the last command still
	// standing (see game.Replay); Hash is then the hash from before it.
	Undo bool
}

// ChatMessage is a message of a match's table chat. It is kept beside the
// match, never in its commands or state.
type ChatMessage struct {
	// Seq numbers a match's messages from 0.
	Seq int `json:"seq"`
	// Seat is the writer's seat, or -1 for someone watching.
	Seat int `json:"seat"`
	// Name is the writer's name as the table knew it then.
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}
