package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// db is the Store of both databases: the same schema and queries, written
// with ? placeholders and rewritten for PostgreSQL by the dialect.
type db struct {
	sql     *sql.DB
	dialect dialect
	name    string // how errors name the database (its file, or its host)
	appends chan writeReq
	done    chan struct{}
	insStmt *sql.Stmt // the writer's prepared insert of a command

	// closing guards appends: queue holds it for reading while it
	// queues, Close for writing while it closes the queue.
	closing sync.RWMutex
	closed  bool
}

// dialect is what differs between SQLite and PostgreSQL.
type dialect struct {
	postgres bool
}

// q rewrites a query's ? placeholders as $1, $2… for PostgreSQL.
func (d dialect) q(query string) string {
	if !d.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// blob is the type of a column of bytes.
func (d dialect) blob() string {
	if d.postgres {
		return "BYTEA"
	}
	return "BLOB"
}

// Open opens (creating and migrating if needed) the database named by
// dsn: a postgres:// or postgresql:// URL for PostgreSQL, else the path of
// a SQLite file. A database written by a newer Tabula, or a damaged one, is
// refused with an error that names it.
func Open(dsn string) (Store, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return openPostgres(dsn)
	}
	return openSQLite(dsn)
}

func newDB(sqldb *sql.DB, d dialect, name string) *db {
	s := &db{sql: sqldb, dialect: d, name: name, appends: make(chan writeReq, 4096), done: make(chan struct{})}
	go s.writer()
	return s
}

func (s *db) Close() error {
	s.closing.Lock()
	if s.closed {
		s.closing.Unlock()
		return nil
	}
	s.closed = true
	close(s.appends)
	s.closing.Unlock()
	<-s.done
	if s.insStmt != nil {
		s.insStmt.Close()
	}
	return s.sql.Close()
}

func (s *db) Ping(ctx context.Context) error {
	if err := s.sql.PingContext(ctx); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	return nil
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseStamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// --- games and the library ---

func (s *db) SaveGame(ctx context.Context, g Game) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(s.dialect.q(`INSERT INTO games(hash, pack, name, data, created) VALUES(?,?,?,?,?) ON CONFLICT DO NOTHING`),
			g.Hash, g.Pack, g.Name, g.Data, stamp(g.Created))
		return err
	})
}

func (s *db) Game(ctx context.Context, hash string) (Game, error) {
	g := Game{Hash: hash}
	var created string
	err := s.sql.QueryRowContext(ctx, s.dialect.q(`SELECT pack, name, data, created FROM games WHERE hash = ?`), hash).
		Scan(&g.Pack, &g.Name, &g.Data, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return g, ErrNotFound
	}
	g.Created = parseStamp(created)
	return g, err
}

func (s *db) SaveEntry(ctx context.Context, e Entry) error {
	used := ""
	if !e.Used.IsZero() {
		used = stamp(e.Used)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(s.dialect.q(`INSERT INTO library(id, game_hash, pack, name, file, owner, created, info, client, size, used) VALUES(?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET game_hash = excluded.game_hash, pack = excluded.pack, name = excluded.name, file = excluded.file, owner = excluded.owner,
			info = excluded.info, client = excluded.client, size = excluded.size, used = excluded.used`),
			e.ID, e.GameHash, e.Pack, e.Name, e.File, e.Owner, stamp(e.Created), string(e.Info), e.Client, e.Size, used)
		return err
	})
}

func (s *db) Entries(ctx context.Context) ([]Entry, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT id, game_hash, pack, name, file, owner, created, info, client, size, used FROM library ORDER BY created, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var created, info, used string
		if err := rows.Scan(&e.ID, &e.GameHash, &e.Pack, &e.Name, &e.File, &e.Owner, &created, &info, &e.Client, &e.Size, &used); err != nil {
			return nil, err
		}
		e.Created = parseStamp(created)
		if info != "" {
			e.Info = []byte(info)
		}
		if used != "" {
			e.Used = parseStamp(used)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (s *db) DeleteUnusedGames(ctx context.Context, before time.Time) ([]string, error) {
	var gone []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		gone = gone[:0]
		rows, err := tx.Query(s.dialect.q(`SELECT hash FROM games WHERE created < ?
			AND NOT EXISTS (SELECT 1 FROM matches WHERE game_hash = games.hash) AND NOT EXISTS (SELECT 1 FROM library WHERE game_hash = games.hash)`), stamp(before))
		if err != nil {
			return err
		}
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return err
			}
			gone = append(gone, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, h := range gone {
			if _, err := tx.Exec(s.dialect.q(`DELETE FROM games WHERE hash = ?`), h); err != nil {
				return err
			}
		}
		return nil
	})
	return gone, err
}

func (s *db) DeleteGame(ctx context.Context, hash string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(s.dialect.q(`DELETE FROM games WHERE hash = ?
			AND NOT EXISTS (SELECT 1 FROM matches WHERE game_hash = ?) AND NOT EXISTS (SELECT 1 FROM library WHERE game_hash = ?)`), hash, hash, hash)
		return err
	})
}

func (s *db) DeleteEntry(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(s.dialect.q(`DELETE FROM library WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// --- matches ---

func (s *db) CreateMatch(ctx context.Context, m Match) error {
	seats, settings, err := encodeMatch(m)
	if err != nil {
		return err
	}
	now := stamp(m.Created)
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(s.dialect.q(`INSERT INTO matches(id, pack, game_hash, board_id, board_name, seed, max_rounds, seats, owner, invite, public, settings,
			status, result, error, commands, fence, created, updated) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`),
			m.ID, m.Pack, m.GameHash, m.BoardID, m.BoardName, int64(m.Seed), m.MaxRounds, seats, m.Owner, m.Invite, boolInt(m.Settings.Public), settings,
			m.Status, m.Result, m.Error, 0, m.Fence, now, now)
		return err
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func encodeMatch(m Match) (string, string, error) {
	seats, err := json.Marshal(m.Seats)
	if err != nil {
		return "", "", err
	}
	settings, err := json.Marshal(m.Settings)
	return string(seats), string(settings), err
}

func (s *db) UpdateMatch(ctx context.Context, m Match) error {
	seats, settings, err := encodeMatch(m)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(s.dialect.q(`UPDATE matches SET seats=?, public=?, settings=?, status=?, result=?, error=?, commands=?, updated=? WHERE id=? AND fence=?`),
			seats, boolInt(m.Settings.Public), settings, m.Status, m.Result, m.Error, m.Commands, stamp(time.Now()), m.ID, m.Fence)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.whyNot(tx, m.ID)
		}
		return nil
	})
}

// whyNot tells why a write to a match changed no row: it does not exist,
// or another owner fenced it.
func (s *db) whyNot(tx *sql.Tx, id string) error {
	var n int
	if err := tx.QueryRow(s.dialect.q(`SELECT COUNT(*) FROM matches WHERE id = ?`), id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return ErrFenced
}

func (s *db) Fence(ctx context.Context, id string, fence int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(s.dialect.q(`UPDATE matches SET fence=? WHERE id=? AND fence<=?`), fence, id, fence)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.whyNot(tx, id)
		}
		return nil
	})
}

const matchColumns = `id, pack, game_hash, board_id, board_name, seed, max_rounds, seats, owner, invite, settings, status, result, error, commands, fence, created, updated`

func scanMatch(row interface{ Scan(...any) error }) (Match, error) {
	var m Match
	var seed int64
	var seats, settings, created, updated string
	if err := row.Scan(&m.ID, &m.Pack, &m.GameHash, &m.BoardID, &m.BoardName, &seed, &m.MaxRounds, &seats, &m.Owner, &m.Invite,
		&settings, &m.Status, &m.Result, &m.Error, &m.Commands, &m.Fence, &created, &updated); err != nil {
		return m, err
	}
	m.Seed = uint64(seed)
	if err := json.Unmarshal([]byte(seats), &m.Seats); err != nil {
		return m, fmt.Errorf("match %s: seats: %w", m.ID, err)
	}
	if err := json.Unmarshal([]byte(settings), &m.Settings); err != nil {
		return m, fmt.Errorf("match %s: settings: %w", m.ID, err)
	}
	m.Created, m.Updated = parseStamp(created), parseStamp(updated)
	return m, nil
}

func (s *db) Match(ctx context.Context, id string) (Match, error) {
	m, err := scanMatch(s.sql.QueryRowContext(ctx, s.dialect.q(`SELECT `+matchColumns+` FROM matches WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, ErrNotFound
	}
	return m, err
}

func (s *db) Matches(ctx context.Context, q Query) ([]Match, error) {
	var where []string
	var args []any
	if q.Status != "" {
		where, args = append(where, "status = ?"), append(args, q.Status)
	}
	if q.Pack != "" {
		where, args = append(where, "pack = ?"), append(args, q.Pack)
	}
	if q.PublicOnly {
		where = append(where, "public = 1")
	}
	if !q.UpdatedBefore.IsZero() {
		where, args = append(where, "updated < ?"), append(args, stamp(q.UpdatedBefore))
	}
	if len(q.IDs) > 0 {
		where = append(where, "id IN (?"+strings.Repeat(",?", len(q.IDs)-1)+")")
		for _, id := range q.IDs {
			args = append(args, id)
		}
	}
	if q.Before != "" {
		where = append(where, "(created < (SELECT created FROM matches WHERE id = ?) OR (created = (SELECT created FROM matches WHERE id = ?) AND id > ?))")
		args = append(args, q.Before, q.Before, q.Before)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 500)
	query := `SELECT ` + matchColumns + ` FROM matches`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY created DESC, id LIMIT " + strconv.Itoa(limit)
	rows, err := s.sql.QueryContext(ctx, s.dialect.q(query), args...)
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

func (s *db) Commands(ctx context.Context, matchID string) ([]Command, error) {
	rows, err := s.sql.QueryContext(ctx, s.dialect.q(`SELECT seq, player, command, hash, reason, undo FROM commands WHERE match_id = ? ORDER BY seq`), matchID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Command
	for rows.Next() {
		var c Command
		var data string
		var undo int
		if err := rows.Scan(&c.Seq, &c.Player, &data, &c.Hash, &c.Reason, &undo); err != nil {
			return nil, err
		}
		if c.Undo = undo != 0; !c.Undo {
			c.Data = []byte(data)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// --- the writer ---

// writeReq is a write waiting for the writer: a command to append, or
// another write to run in its own transaction.
type writeReq struct {
	match string
	cmd   Command
	fence int64
	exec  func(tx *sql.Tx) error
	done  chan error
}

func (s *db) Append(ctx context.Context, matchID string, c Command, fence int64) error {
	return s.queue(ctx, writeReq{match: matchID, cmd: c, fence: fence, done: make(chan error, 1)})
}

// write runs a write other than an append on the writer goroutine.
func (s *db) write(ctx context.Context, exec func(tx *sql.Tx) error) error {
	return s.queue(ctx, writeReq{exec: exec, done: make(chan error, 1)})
}

func (s *db) queue(ctx context.Context, req writeReq) error {
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
func (s *db) writer() {
	defer close(s.done)
	const maxBatch = 512
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
func (s *db) transact(exec func(tx *sql.Tx) error) error {
	tx, err := s.sql.Begin()
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
// number, a fenced owner) does not fail the others.
func (s *db) commit(batch []writeReq) {
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

func (s *db) insert(batch []writeReq) error {
	tx, err := s.sql.Begin()
	if err != nil {
		return err
	}
	if s.insStmt == nil {
		// Prepared once: compiling the statement for every batch costs
		// more than the batch's inserts.
		if s.insStmt, err = s.sql.Prepare(s.dialect.q(insertCommand)); err != nil {
			tx.Rollback()
			return err
		}
	}
	ins := tx.Stmt(s.insStmt)
	defer ins.Close()
	for _, r := range batch {
		res, err := ins.Exec(r.cmd.Seq, r.cmd.Player, string(r.cmd.Data), r.cmd.Hash, r.cmd.Reason, boolInt(r.cmd.Undo), r.match, r.fence)
		if err == nil {
			if n, _ := res.RowsAffected(); n == 0 {
				// An owner fenced off, or a match that is gone.
				err = s.whyNot(tx, r.match)
			}
		}
		if err != nil {
			// commit retries the batch's appends one by one, so that
			// each gets its own answer.
			tx.Rollback()
			return fmt.Errorf("match %s command %d: %w", r.match, r.cmd.Seq, err)
		}
	}
	return tx.Commit()
}

// insertCommand stores a command if its match's fence is the writer's:
// the check and the insert in one statement, so that an append costs one
// statement.
const insertCommand = `INSERT INTO commands(match_id, seq, player, command, hash, reason, undo)
	SELECT id, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER) FROM matches WHERE id = ? AND fence = ?`

// --- the table's chat ---

// AddChat stores a chat message if the match's fence is the writer's, in
// one statement.
func (s *db) AddChat(ctx context.Context, matchID string, m ChatMessage, fence int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(s.dialect.q(`INSERT INTO chat(match_id, seq, seat, name, text, created)
			SELECT id, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT) FROM matches WHERE id = ? AND fence = ?`),
			m.Seq, m.Seat, m.Name, m.Text, stamp(m.At), matchID, fence)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.whyNot(tx, matchID)
		}
		return nil
	})
}

func (s *db) Chat(ctx context.Context, matchID string, limit int) ([]ChatMessage, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.sql.QueryContext(ctx, s.dialect.q(`SELECT seq, seat, name, text, created FROM chat WHERE match_id = ? ORDER BY seq DESC LIMIT ?`), matchID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChatMessage
	for rows.Next() {
		var m ChatMessage
		var at string
		if err := rows.Scan(&m.Seq, &m.Seat, &m.Name, &m.Text, &at); err != nil {
			return nil, err
		}
		m.At = parseStamp(at)
		out = append(out, m)
	}
	slices.Reverse(out)
	return out, rows.Err()
}
