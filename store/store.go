// Package store keeps the server's matches in an embedded SQLite database
// (modernc.org/sqlite, pure Go): the lobby's matches with their seats, the
// board each is played on, and every accepted command with the state hash
// it produced. A match is its seed and its commands; a restarted server
// rebuilds it by replaying them and checks every hash on the way.
//
// Every write goes through one writer goroutine, so writers never wait on
// each other's locks, and it commits many matches' commands in one
// transaction (group commit): a busy server pays one disk sync for many
// commands. An append returns only once its transaction is committed: a
// command acknowledged to a player survives the process being killed.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// Store is an open database.
type Store struct {
	db      *sql.DB
	appends chan writeReq
	done    chan struct{}

	// closing guards appends: Append holds it for reading while it queues,
	// Close for writing while it closes the queue.
	closing sync.RWMutex
	closed  bool
}

// ErrClosed is returned by Append once the store is closing.
var ErrClosed = errors.New("the store is closed")

// ErrNotFound is returned for a match or board that does not exist.
var ErrNotFound = errors.New("not found")

const schema = `
CREATE TABLE IF NOT EXISTS boards (
	id      TEXT PRIMARY KEY,
	name    TEXT NOT NULL,
	source  TEXT NOT NULL,
	data    BLOB NOT NULL,
	created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
	id         TEXT PRIMARY KEY,
	game       TEXT NOT NULL,
	board_id   TEXT NOT NULL,
	board_name TEXT NOT NULL,
	board_data BLOB NOT NULL,
	seed       INTEGER NOT NULL,
	max_rounds INTEGER NOT NULL,
	seats      TEXT NOT NULL,
	owner      TEXT NOT NULL,
	status     TEXT NOT NULL,
	result     TEXT NOT NULL DEFAULT '',
	error      TEXT NOT NULL DEFAULT '',
	created    TEXT NOT NULL,
	updated    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (
	match_id TEXT NOT NULL REFERENCES matches(id),
	seq      INTEGER NOT NULL,
	player   INTEGER NOT NULL,
	command  TEXT NOT NULL,
	hash     TEXT NOT NULL,
	PRIMARY KEY (match_id, seq)
);
`

// Open opens (creating if needed) the database at path. WAL mode with
// synchronous=NORMAL makes a committed transaction survive the process
// dying; only losing power could lose the last ones.
func Open(path string) (*Store, error) {
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &Store{db: db, appends: make(chan writeReq, 1024), done: make(chan struct{})}
	go s.writer()
	return s, nil
}

// Close waits for pending appends and closes the database.
func (s *Store) Close() error {
	s.closing.Lock()
	if s.closed {
		s.closing.Unlock()
		return nil
	}
	s.closed = true
	close(s.appends)
	s.closing.Unlock()
	<-s.done
	return s.db.Close()
}

// Board is a board in the server's library (an upload).
type Board struct {
	ID      string
	Name    string
	Source  string // the uploaded file's name
	Data    []byte
	Created time.Time
}

// SaveBoard adds a board to the library (or replaces the one with its id).
func (s *Store) SaveBoard(ctx context.Context, b Board) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT OR REPLACE INTO boards(id, name, source, data, created) VALUES(?,?,?,?,?)`,
			b.ID, b.Name, b.Source, b.Data, b.Created.UTC().Format(time.RFC3339Nano))
		return err
	})
}

// Boards lists the library, oldest first.
func (s *Store) Boards(ctx context.Context) ([]Board, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, source, data, created FROM boards ORDER BY created, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Board
	for rows.Next() {
		var b Board
		var created string
		if err := rows.Scan(&b.ID, &b.Name, &b.Source, &b.Data, &created); err != nil {
			return nil, err
		}
		b.Created, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, b)
	}
	return out, rows.Err()
}

// Seat is a place at a match's table.
type Seat struct {
	Name string `json:"name"`
	// Token is the seat's secret: whoever holds it plays the seat.
	Token string `json:"token"`
	Bot   bool   `json:"bot,omitempty"`
}

// Match is a match's record: everything needed to rebuild it besides its
// commands.
type Match struct {
	ID        string
	Game      string // the game pack ("party")
	BoardID   string
	BoardName string
	BoardData []byte
	Seed      uint64
	MaxRounds int
	Seats     []Seat
	// Owner is the secret of whoever created the match: it lets them fill
	// seats with bots and start.
	Owner string
	// Status is "lobby", "playing", "finished" or "broken".
	Status string
	// Result describes how a finished match ended; Error why a broken one
	// cannot go on.
	Result  string
	Error   string
	Created time.Time
	Updated time.Time
	// Commands is the number of commands stored.
	Commands int
}

// The statuses of a match.
const (
	Lobby    = "lobby"
	Playing  = "playing"
	Finished = "finished"
	Broken   = "broken"
)

// CreateMatch stores a new match.
func (s *Store) CreateMatch(ctx context.Context, m Match) error {
	seats, err := json.Marshal(m.Seats)
	if err != nil {
		return err
	}
	now := m.Created.UTC().Format(time.RFC3339Nano)
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO matches(id, game, board_id, board_name, board_data, seed, max_rounds, seats, owner, status, result, error, created, updated)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			m.ID, m.Game, m.BoardID, m.BoardName, m.BoardData, int64(m.Seed), m.MaxRounds, string(seats), m.Owner, m.Status, m.Result, m.Error, now, now)
		return err
	})
}

// UpdateMatch changes a match's seats, status, result and error.
func (s *Store) UpdateMatch(ctx context.Context, m Match) error {
	seats, err := json.Marshal(m.Seats)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE matches SET seats=?, status=?, result=?, error=?, updated=? WHERE id=?`,
			string(seats), m.Status, m.Result, m.Error, time.Now().UTC().Format(time.RFC3339Nano), m.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

const matchColumns = `m.id, m.game, m.board_id, m.board_name, m.board_data, m.seed, m.max_rounds, m.seats, m.owner, m.status, m.result, m.error, m.created, m.updated,
	(SELECT COUNT(*) FROM commands c WHERE c.match_id = m.id)`

func scanMatch(row interface{ Scan(...any) error }) (Match, error) {
	var m Match
	var seed int64
	var seats, created, updated string
	if err := row.Scan(&m.ID, &m.Game, &m.BoardID, &m.BoardName, &m.BoardData, &seed, &m.MaxRounds, &seats, &m.Owner,
		&m.Status, &m.Result, &m.Error, &created, &updated, &m.Commands); err != nil {
		return m, err
	}
	m.Seed = uint64(seed)
	if err := json.Unmarshal([]byte(seats), &m.Seats); err != nil {
		return m, fmt.Errorf("match %s: seats: %w", m.ID, err)
	}
	m.Created, _ = time.Parse(time.RFC3339Nano, created)
	m.Updated, _ = time.Parse(time.RFC3339Nano, updated)
	return m, nil
}

// Matches lists every match, newest first.
func (s *Store) Matches(ctx context.Context) ([]Match, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+matchColumns+` FROM matches m ORDER BY m.created DESC, m.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Match returns one match.
func (s *Store) Match(ctx context.Context, id string) (Match, error) {
	m, err := scanMatch(s.db.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM matches m WHERE m.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, ErrNotFound
	}
	return m, err
}

// Command is one accepted command of a match and the state hash after it.
type Command struct {
	Seq    int
	Player int
	Data   []byte // the command, as JSON
	Hash   string
}

// Commands returns a match's commands in order.
func (s *Store) Commands(ctx context.Context, matchID string) ([]Command, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, player, command, hash FROM commands WHERE match_id = ? ORDER BY seq`, matchID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Command
	for rows.Next() {
		var c Command
		var data string
		if err := rows.Scan(&c.Seq, &c.Player, &data, &c.Hash); err != nil {
			return nil, err
		}
		c.Data = []byte(data)
		out = append(out, c)
	}
	return out, rows.Err()
}

// writeReq is a write waiting for the writer: a command to append, or
// another write to run in its own transaction.
type writeReq struct {
	match string
	cmd   Command
	exec  func(tx *sql.Tx) error
	done  chan error
}

// Append stores a match's next command and returns once the transaction
// holding it is committed. Commands of many matches share transactions.
// A command whose sequence number is taken is refused.
func (s *Store) Append(ctx context.Context, matchID string, c Command) error {
	return s.queue(ctx, writeReq{match: matchID, cmd: c, done: make(chan error, 1)})
}

// write runs a write other than an append on the writer goroutine.
func (s *Store) write(ctx context.Context, exec func(tx *sql.Tx) error) error {
	return s.queue(ctx, writeReq{exec: exec, done: make(chan error, 1)})
}

func (s *Store) queue(ctx context.Context, req writeReq) error {
	s.closing.RLock()
	if s.closed {
		s.closing.RUnlock()
		return ErrClosed
	}
	select {
	case s.appends <- req:
	case <-ctx.Done():
		s.closing.RUnlock()
		return ctx.Err()
	}
	s.closing.RUnlock()
	// Once queued, the write is committed or fails as a whole; waiting
	// for it even if ctx ends keeps "acknowledged means stored" true.
	return <-req.done
}

// writer runs the queued writes in order, committing consecutive appends
// in batches.
func (s *Store) writer() {
	defer close(s.done)
	const maxBatch = 256
	batch := make([]writeReq, 0, maxBatch)
	for first := range s.appends {
		if first.exec != nil {
			first.done <- s.transact(first.exec)
			continue
		}
		batch = append(batch[:0], first)
		var after *writeReq // a write that ended the batch
	fill:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-s.appends:
				if !ok {
					break fill
				}
				if r.exec != nil {
					after = &r
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		s.commit(batch)
		if after != nil {
			after.done <- s.transact(after.exec)
		}
	}
}

// transact runs one write in its own transaction.
func (s *Store) transact(exec func(tx *sql.Tx) error) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	if err := exec(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// commit writes a batch in one transaction. If the transaction fails, each
// append is retried alone so that one bad command (a taken sequence
// number) does not fail the others.
func (s *Store) commit(batch []writeReq) {
	err := s.insert(batch)
	if err == nil {
		for _, r := range batch {
			r.done <- nil
		}
		return
	}
	if len(batch) == 1 {
		batch[0].done <- err
		return
	}
	for _, r := range batch {
		r.done <- s.insert([]writeReq{r})
	}
}

func (s *Store) insert(batch []writeReq) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	stmt, err := tx.Prepare(`INSERT INTO commands(match_id, seq, player, command, hash) VALUES(?,?,?,?,?)`)
	if err != nil {
		tx.Rollback()
		return err
	}
	for _, r := range batch {
		if _, err := stmt.Exec(r.match, r.cmd.Seq, r.cmd.Player, string(r.cmd.Data), r.cmd.Hash); err != nil {
			stmt.Close()
			tx.Rollback()
			return fmt.Errorf("match %s command %d: %w", r.match, r.cmd.Seq, err)
		}
	}
	stmt.Close()
	return tx.Commit()
}
