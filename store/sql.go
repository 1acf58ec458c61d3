package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	// wconn is the writer's own connection (SQLite), on which SQLite
	// never checkpoints: ckpt does, from another.
	wconn *sql.Conn
	ckpt  *checkpointer
	// raw is the writer's insert on the driver's connection (insertRaw).
	raw struct {
		stmt driver.Stmt
		ins  driver.StmtExecContext
		args [8]driver.NamedValue
	}

	appended, commits atomic.Int64

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
	return &db{sql: sqldb, dialect: d, name: name, appends: make(chan writeReq, 4096), done: make(chan struct{})}
}

// start starts the writer, once the database is migrated. With SQLite
// the writer has a connection of its own, which never checkpoints, and a
// checkpointer another.
func (s *db) start() error {
	if !s.dialect.postgres {
		ctx := context.Background()
		w, err := s.sql.Conn(ctx)
		if err != nil {
			return err
		}
		// journal_size_limit truncates the log back to 4 MiB when it
		// starts over, should it have grown past that.
		if _, err := w.ExecContext(ctx, "PRAGMA wal_autocheckpoint=0; PRAGMA journal_size_limit=4194304"); err != nil {
			w.Close()
			return err
		}
		c, err := s.sql.Conn(ctx)
		if err != nil {
			w.Close()
			return err
		}
		s.wconn, s.ckpt = w, newCheckpointer(c)
	}
	go s.writer()
	return nil
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
	if s.raw.stmt != nil {
		s.wconn.Raw(func(any) error { return s.raw.stmt.Close() })
	}
	if s.ckpt != nil {
		s.ckpt.close()
	}
	if s.wconn != nil {
		s.wconn.Close()
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
	at    time.Time // when an append was queued
	exec  func(tx *sql.Tx) error
	done  chan error
}

func (s *db) Append(ctx context.Context, matchID string, c Command, fence int64) error {
	done := doneChans.Get().(chan error)
	err := s.queue(ctx, writeReq{match: matchID, cmd: c, fence: fence, done: done, at: time.Now()})
	// Answered, or never queued: nothing else sends on it.
	doneChans.Put(done)
	return err
}

// doneChans are the channels appends are answered on, kept from append to
// append.
var doneChans = sync.Pool{New: func() any { return make(chan error, 1) }}

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

// maxBatch bounds the appends of one transaction.
const maxBatch = 512

// maxGather bounds how long the writer gathers a batch before it commits:
// what a command's acknowledgement may wait for others to share its
// commit.
const maxGather = 2 * time.Millisecond

// writer runs the queued writes in order, committing consecutive appends
// in batches (group commit). A commit costs about the same whatever it
// holds (most of an append alone is its commit), so the batch grows with
// the load:
//
//   - every append already queued joins it;
//   - the writer lets the goroutines about to append run first
//     (runtime.Gosched) and takes theirs too, for as long as each round
//     brings more: under a closed loop, the matches playing a command;
//   - while appends come less than maxGather/4 apart (the mean of the
//     last ones) from several matches, it waits for about four more, at
//     most maxGather since the first: a server taking a few thousand
//     commands a second from players who each wait for their own shares
//     its commits. (A match's next command waits for its last: a match
//     playing alone would only wait.)
//
// A lone append on a quiet server is committed at once.
func (s *db) writer() {
	defer close(s.done)
	batch := make([]writeReq, 0, maxBatch)
	wait := time.NewTimer(time.Hour)
	wait.Stop()
	var last time.Time    // when the last append was queued
	var gap time.Duration // the mean time between appends, recent ones weighing most
	var recent [8]string  // the matches of the last appends
	var next int
	// gain is the mean number of appends a wait brought lately: waits
	// stop while they bring less than one (players who wait for each
	// commit, all at once, come after it), but for one in probeEvery
	// batches, which tells whether they would bring more again.
	const probeEvery = 32
	gain, batches := 1.0, 0
	arrived := func(r *writeReq) {
		at := r.at
		recent[next] = r.match
		next = (next + 1) % len(recent)
		if !last.IsZero() {
			d := at.Sub(last)
			if d > maxGather {
				d = maxGather
			}
			gap += (d - gap) / 8
		}
		last = at
	}
	for first := range s.appends {
		if first.exec != nil {
			s.held(func() { first.done <- s.transact(first.exec) })
			continue
		}
		batch = append(batch[:0], first)
		start := time.Now()
		var after writeReq // a write that ended the batch
		batch, after = s.gather(batch)
		for after.exec == nil && len(batch) < maxBatch {
			// Let the rooms that are playing a command reach their append.
			runtime.Gosched()
			n := len(batch)
			if batch, after = s.gather(batch); len(batch) == n {
				break
			}
		}
		for i := range batch {
			arrived(&batch[i])
		}
		batches++
		if after.exec == nil && len(batch) < maxBatch && gap > 0 && gap < maxGather/4 && several(recent[:]) &&
			(gain >= 1 || batches%probeEvery == 0) {
			// Appends come often: wait for a few more.
			had, want := len(batch), len(batch)+4
			wait.Reset(min(maxGather-time.Since(start), 4*gap))
		gathering:
			for len(batch) < min(want, maxBatch) {
				select {
				case r, ok := <-s.appends:
					if !ok {
						break gathering
					}
					if r.exec != nil {
						after = r
						break gathering
					}
					batch = append(batch, r)
					arrived(&batch[len(batch)-1])
				case <-wait.C:
					break gathering
				}
			}
			if !wait.Stop() {
				select {
				case <-wait.C:
				default:
				}
			}
			gain += (float64(len(batch)-had) - gain) / 4
		}
		s.held(func() { s.commit(batch) })
		s.appended.Add(int64(len(batch)))
		s.commits.Add(1)
		if s.ckpt != nil {
			s.ckpt.wrote(len(batch))
		}
		if after.exec != nil {
			s.held(func() { after.done <- s.transact(after.exec) })
		}
	}
}

// several reports whether the matches named are more than one.
func several(matches []string) bool {
	for _, m := range matches[1:] {
		if m != matches[0] {
			return true
		}
	}
	return false
}

// held runs a commit while the checkpointer does not hold the writer.
func (s *db) held(commit func()) {
	if s.ckpt == nil {
		commit()
		return
	}
	s.ckpt.hold.Lock()
	defer s.ckpt.hold.Unlock()
	commit()
}

// gather adds the appends queued now to the batch, up to maxBatch; a
// write of another kind ends it and is returned.
func (s *db) gather(batch []writeReq) ([]writeReq, writeReq) {
	for len(batch) < maxBatch {
		select {
		case r, ok := <-s.appends:
			if !ok {
				return batch, writeReq{}
			}
			if r.exec != nil {
				return batch, r
			}
			batch = append(batch, r)
		default:
			return batch, writeReq{}
		}
	}
	return batch, writeReq{}
}

// begin starts a transaction on the writer's connection.
func (s *db) begin() (*sql.Tx, error) {
	if s.wconn != nil {
		return s.wconn.BeginTx(context.Background(), nil)
	}
	return s.sql.Begin()
}

// transact runs one write in its own transaction.
func (s *db) transact(exec func(tx *sql.Tx) error) error {
	tx, err := s.begin()
	if err != nil {
		return err
	}
	if err := exec(tx); err != nil {
		tx.Rollback()
		return err
	}
	err = tx.Commit()
	if s.ckpt != nil {
		s.ckpt.wrote(1)
	}
	return err
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
	if s.wconn != nil {
		return s.insertRaw(batch)
	}
	tx, err := s.begin()
	if err != nil {
		return err
	}
	if s.insStmt == nil {
		// Prepared once: compiling the statement for every batch costs
		// more than the batch's inserts. (Prepared on the pool, not on the
		// writer's connection: a transaction uses the pool's statement as
		// prepared on its connection, but prepares one of a connection's
		// again every time.)
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

// insertRaw stores a batch of appends in one transaction through the
// SQLite driver's connection below database/sql: its statement is prepared
// once on the writer's connection and its arguments are kept from append
// to append, so that an append costs the statement alone.
func (s *db) insertRaw(batch []writeReq) error {
	var refused writeReq // an append that changed no row
	err := s.wconn.Raw(func(dc any) error {
		ctx := context.Background()
		c, ok := dc.(interface {
			driver.ConnBeginTx
			driver.ConnPrepareContext
		})
		if !ok {
			return fmt.Errorf("the SQLite driver's connection (%T) cannot begin transactions", dc)
		}
		if s.raw.stmt == nil {
			st, err := c.PrepareContext(ctx, insertCommand)
			if err != nil {
				return err
			}
			ins, ok := st.(driver.StmtExecContext)
			if !ok {
				st.Close()
				return fmt.Errorf("the SQLite driver's statement (%T) cannot execute", st)
			}
			s.raw.stmt, s.raw.ins = st, ins
			for i := range s.raw.args {
				s.raw.args[i].Ordinal = i + 1
			}
		}
		tx, err := c.BeginTx(ctx, driver.TxOptions{})
		if err != nil {
			return err
		}
		args := s.raw.args[:]
		for _, r := range batch {
			// The command's text as bytes, which the statement casts (an
			// undo has none: the empty text).
			var data any = ""
			if len(r.cmd.Data) > 0 {
				data = []byte(r.cmd.Data)
			}
			args[0].Value, args[1].Value, args[2].Value, args[3].Value = int64(r.cmd.Seq), int64(r.cmd.Player), data, r.cmd.Hash
			args[4].Value, args[5].Value, args[6].Value, args[7].Value = r.cmd.Reason, int64(boolInt(r.cmd.Undo)), r.match, r.fence
			res, err := s.raw.ins.ExecContext(ctx, args)
			if err == nil {
				var n int64
				if n, err = res.RowsAffected(); err == nil && n == 0 {
					refused = r
				}
			}
			if err != nil || refused.done != nil {
				tx.Rollback()
				if err != nil {
					return fmt.Errorf("match %s command %d: %w", r.match, r.cmd.Seq, err)
				}
				return nil
			}
		}
		for i := range args {
			args[i].Value = nil // nothing kept
		}
		return tx.Commit()
	})
	if err == nil && refused.done != nil {
		// An owner fenced off, or a match that is gone.
		err = s.whyNotOn(s.wconn, refused.match)
		err = fmt.Errorf("match %s command %d: %w", refused.match, refused.cmd.Seq, err)
	}
	return err
}

// whyNotOn is whyNot outside a transaction, on a connection.
func (s *db) whyNotOn(c *sql.Conn, id string) error {
	var n int
	if err := c.QueryRowContext(context.Background(), s.dialect.q(`SELECT COUNT(*) FROM matches WHERE id = ?`), id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return ErrFenced
}

// insertCommand stores a command if its match's fence is the writer's:
// the check and the insert in one statement, so that an append costs one
// statement.
const insertCommand = `INSERT INTO commands(match_id, seq, player, command, hash, reason, undo)
	SELECT id, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER) FROM matches WHERE id = ? AND fence = ?`

// Stats are what a store did so far, for benchmarks and operators.
type Stats struct {
	// Appends are the commands stored, Commits the transactions that
	// stored them (Appends/Commits is the mean batch).
	Appends, Commits int64
	// Checkpoints counts SQLite's copies of its write-ahead log into the
	// database file; WALPages is the log's length, in pages, after the
	// last one.
	Checkpoints, WALPages int64
}

// StatsOf returns a store's Stats, if it keeps them.
func StatsOf(s Store) (Stats, bool) {
	d, ok := s.(*db)
	if !ok {
		return Stats{}, false
	}
	st := Stats{Appends: d.appended.Load(), Commits: d.commits.Load()}
	if d.ckpt != nil {
		st.Checkpoints, st.WALPages = d.ckpt.done.Load(), d.ckpt.pages.Load()
	}
	return st, true
}

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
