package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
	_ "modernc.org/sqlite"             // the database/sql driver "sqlite"
)

// Version is the schema version this Tabula writes. Version 0 is the
// schema of the first servers (each match held its own copy of its game;
// secrets were stored as they are); version 1 had no table chat and did
// not say why a bot played a person's command; version 2 had no undos in
// its command log (no column commands.undo); version 3 kept no more of a
// library entry than its names and owner (version 4 adds what the lobby
// shows of it, who saved it, its size and its last use). Open migrates
// them all.
const Version = 4

// schema is the current schema; {BLOB} is the dialect's type of bytes.
const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
	hash    TEXT PRIMARY KEY,
	pack    TEXT NOT NULL,
	name    TEXT NOT NULL,
	data    {BLOB} NOT NULL,
	created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS library (
	id        TEXT PRIMARY KEY,
	game_hash TEXT NOT NULL REFERENCES games(hash),
	pack      TEXT NOT NULL,
	name      TEXT NOT NULL,
	file      TEXT NOT NULL,
	owner     TEXT NOT NULL,
	created   TEXT NOT NULL,
	info      TEXT NOT NULL DEFAULT '',
	client    TEXT NOT NULL DEFAULT '',
	size      BIGINT NOT NULL DEFAULT 0,
	used      TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS matches (
	id         TEXT PRIMARY KEY,
	pack       TEXT NOT NULL,
	game_hash  TEXT NOT NULL REFERENCES games(hash),
	board_id   TEXT NOT NULL,
	board_name TEXT NOT NULL,
	seed       BIGINT NOT NULL,
	max_rounds INTEGER NOT NULL,
	seats      TEXT NOT NULL,
	owner      TEXT NOT NULL,
	invite     TEXT NOT NULL,
	public     INTEGER NOT NULL,
	settings   TEXT NOT NULL,
	status     TEXT NOT NULL,
	result     TEXT NOT NULL,
	error      TEXT NOT NULL,
	commands   INTEGER NOT NULL,
	fence      BIGINT NOT NULL,
	created    TEXT NOT NULL,
	updated    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_created ON matches(created, id);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches(status, created);
CREATE TABLE IF NOT EXISTS commands (
	match_id TEXT NOT NULL REFERENCES matches(id),
	seq      INTEGER NOT NULL,
	player   INTEGER NOT NULL,
	command  TEXT NOT NULL,
	hash     TEXT NOT NULL,
	reason   TEXT NOT NULL DEFAULT '',
	undo     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS chat (
	match_id TEXT NOT NULL REFERENCES matches(id),
	seq      INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	name     TEXT NOT NULL,
	text     TEXT NOT NULL,
	created  TEXT NOT NULL,
	PRIMARY KEY (match_id, seq)
);
`

func (d dialect) schema() string { return strings.ReplaceAll(schema, "{BLOB}", d.blob()) }

// openSQLite opens a SQLite file. WAL mode with synchronous=NORMAL makes a
// committed transaction survive the process dying; only losing power
// could lose the last ones.
func openSQLite(path string) (Store, error) {
	fail := func(err error) error {
		return fmt.Errorf("the database %s cannot be used: %w", path, err)
	}
	info, statErr := os.Stat(path)
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fail(err)
	}
	// One connection writes at a time anyway; several let readers (the
	// lobby) go on during a write.
	sqldb.SetMaxOpenConns(8)
	if statErr == nil && info.Size() > 0 {
		// A damaged file is refused before anything is written to it.
		var result string
		if err := sqldb.QueryRow("PRAGMA quick_check").Scan(&result); err != nil {
			sqldb.Close()
			return nil, fail(fmt.Errorf("it is damaged or not a Tabula database (%v); restore a backup", err))
		}
		if result != "ok" {
			sqldb.Close()
			return nil, fail(fmt.Errorf("it is damaged (%s); restore a backup", firstLine(result)))
		}
	}
	s := newDB(sqldb, dialect{}, path)
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, fail(err)
	}
	return s, nil
}

// openPostgres opens a PostgreSQL database.
func openPostgres(url string) (Store, error) {
	name := redact(url)
	sqldb, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("the database %s cannot be used: %w", name, err)
	}
	sqldb.SetMaxOpenConns(16)
	s := newDB(sqldb, dialect{postgres: true}, name)
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, fmt.Errorf("the database %s cannot be used: %w", name, err)
	}
	return s, nil
}

// redact removes the password from a database URL, for messages.
func redact(url string) string {
	at := strings.LastIndex(url, "@")
	scheme := strings.Index(url, "://")
	if at < 0 || scheme < 0 {
		return url
	}
	userinfo := url[scheme+3 : at]
	if user, _, ok := strings.Cut(userinfo, ":"); ok {
		return url[:scheme+3] + user + ":…" + url[at:]
	}
	return url
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// migrate brings the database to the current schema: it creates a new one,
// migrates one of version 0, and refuses one from a newer Tabula.
func (s *db) migrate() error {
	v0, err := s.isVersion0()
	if err != nil {
		return err
	}
	if v0 {
		return s.migrate0()
	}
	if _, err := s.sql.Exec(s.dialect.schema()); err != nil {
		return err
	}
	var v string
	err = s.sql.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&v)
	switch {
	case err == sql.ErrNoRows:
		_, err = s.sql.Exec(s.dialect.q(`INSERT INTO meta(key, value) VALUES('schema', ?)`), fmt.Sprint(Version))
		return err
	case err != nil:
		return err
	}
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil {
		return fmt.Errorf("its schema version %q is not a number", v)
	}
	if n > Version {
		return fmt.Errorf("it was written by a newer Tabula (schema version %d; this one reads up to %d): run that version, or a newer one", n, Version)
	}
	// Each migration takes the database one version further.
	for ; n < Version; n++ {
		if err := s.migrateFrom(n); err != nil {
			return err
		}
	}
	return nil
}

// migrations are the columns each version added: from version 1 to 2,
// the reason a bot played a command for a person (none, for the old
// ones); from 2 to 3, whether the record is an undo (none was); from 3 to
// 4, what the library shows of an entry, who saved it, its size and its
// last use (the server fills in what an entry shows the first time it
// loads it). The chat table, new in version 2, the schema above made
// already.
var migrations = map[int][]string{
	1: {`ALTER TABLE commands ADD COLUMN reason TEXT NOT NULL DEFAULT ''`},
	2: {`ALTER TABLE commands ADD COLUMN undo INTEGER NOT NULL DEFAULT 0`},
	3: {`ALTER TABLE library ADD COLUMN info TEXT NOT NULL DEFAULT ''`, `ALTER TABLE library ADD COLUMN client TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE library ADD COLUMN size BIGINT NOT NULL DEFAULT 0`, `ALTER TABLE library ADD COLUMN used TEXT NOT NULL DEFAULT ''`},
}

// migrateFrom moves a database of version n to version n+1, in one
// transaction.
func (s *db) migrateFrom(n int) error {
	tx, err := s.sql.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range migrations[n] {
		if _, err := tx.Exec(stmt); err != nil {
			// Another server sharing the database may have migrated it
			// meanwhile (PostgreSQL made this one wait for it).
			tx.Rollback()
			var now int
			if s.sql.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&now) == nil && now > n {
				return nil
			}
			return fmt.Errorf("migrating from version %d: %w", n, err)
		}
	}
	if _, err := tx.Exec(s.dialect.q(`UPDATE meta SET value = ? WHERE key = 'schema'`), fmt.Sprint(n+1)); err != nil {
		return err
	}
	return tx.Commit()
}

// isVersion0 reports whether the database has the first servers' schema:
// a matches table holding each match's game, and no meta table.
func (s *db) isVersion0() (bool, error) {
	if s.dialect.postgres {
		return false, nil // no PostgreSQL database was ever of version 0
	}
	var n int
	err := s.sql.QueryRow(`SELECT COUNT(*) FROM pragma_table_info('matches') WHERE name = 'board_data'`).Scan(&n)
	return n > 0, err
}

// hashSecret is how secrets are stored: their SHA-256, so that reading the
// database does not give them away.
func hashSecret(secret string) string {
	if secret == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// HashSecret returns the form in which a secret (a seat's token, an
// owner's) is stored and compared.
func HashSecret(secret string) string { return hashSecret(secret) }

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// migrate0 moves a version 0 database to the current schema in one
// transaction: every match's game is stored once in games, the uploads
// join the library, secrets are replaced by their hashes, and matches
// gain their new columns. Matches of version 0 were open to anyone who
// had their link, so they stay public.
func (s *db) migrate0() error {
	tx, err := s.sql.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`ALTER TABLE matches RENAME TO matches_v0`); err != nil {
		return err
	}
	if _, err := tx.Exec(s.dialect.schema()); err != nil {
		return err
	}
	now := stamp(time.Now())
	saveGame := func(pack, name string, data []byte) (string, error) {
		h := contentHash(data)
		_, err := tx.Exec(`INSERT INTO games(hash, pack, name, data, created) VALUES(?,?,?,?,?) ON CONFLICT DO NOTHING`, h, pack, name, data, now)
		return h, err
	}
	// The uploads (boards) become library entries.
	rows, err := tx.Query(`SELECT id, name, source, data, created FROM boards`)
	if err != nil {
		return err
	}
	type board struct {
		id, name, source, created string
		data                      []byte
	}
	var boards []board
	for rows.Next() {
		var b board
		if err := rows.Scan(&b.id, &b.name, &b.source, &b.data, &b.created); err != nil {
			rows.Close()
			return err
		}
		boards = append(boards, b)
	}
	rows.Close()
	for _, b := range boards {
		h, err := saveGame("", b.source, b.data)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO library(id, game_hash, pack, name, file, owner, created) VALUES(?,?,?,?,?,?,?)`,
			b.id, h, "", b.name, b.source, "", b.created); err != nil {
			return err
		}
	}
	rows, err = tx.Query(`SELECT id, game, board_id, board_name, board_data, seed, max_rounds, seats, owner, status, result, error, created, updated FROM matches_v0`)
	if err != nil {
		return err
	}
	type old struct {
		id, game, boardID, boardName, seats, owner, status, result, errText, created, updated string
		data                                                                                  []byte
		seed                                                                                  int64
		maxRounds                                                                             int
	}
	var olds []old
	for rows.Next() {
		var o old
		if err := rows.Scan(&o.id, &o.game, &o.boardID, &o.boardName, &o.data, &o.seed, &o.maxRounds, &o.seats, &o.owner,
			&o.status, &o.result, &o.errText, &o.created, &o.updated); err != nil {
			rows.Close()
			return err
		}
		olds = append(olds, o)
	}
	rows.Close()
	for _, o := range olds {
		h, err := saveGame(o.game, o.boardName, o.data)
		if err != nil {
			return err
		}
		var seats []Seat
		if err := json.Unmarshal([]byte(o.seats), &seats); err != nil {
			return fmt.Errorf("match %s: seats: %w", o.id, err)
		}
		for i := range seats {
			seats[i].Token = hashSecret(seats[i].Token)
		}
		seatJSON, _ := json.Marshal(seats)
		settings, _ := json.Marshal(Settings{Public: true})
		var n int
		if err := tx.QueryRow(`SELECT COUNT(*) FROM commands WHERE match_id = ?`, o.id).Scan(&n); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO matches(id, pack, game_hash, board_id, board_name, seed, max_rounds, seats, owner, invite, public, settings,
			status, result, error, commands, fence, created, updated) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			o.id, o.game, h, o.boardID, o.boardName, o.seed, o.maxRounds, string(seatJSON), hashSecret(o.owner), "", 1, string(settings),
			o.status, o.result, o.errText, n, 0, o.created, o.updated); err != nil {
			return err
		}
	}
	// The commands refer to matches_v0; SQLite moved the reference with
	// the rename, so the table is rebuilt to refer to matches again.
	stmts := []string{
		`ALTER TABLE commands RENAME TO commands_v0`,
		`CREATE TABLE commands (
			match_id TEXT NOT NULL REFERENCES matches(id),
			seq      INTEGER NOT NULL,
			player   INTEGER NOT NULL,
			command  TEXT NOT NULL,
			hash     TEXT NOT NULL,
			reason   TEXT NOT NULL DEFAULT '',
			undo     INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (match_id, seq))`,
		`INSERT INTO commands(match_id, seq, player, command, hash) SELECT match_id, seq, player, command, hash FROM commands_v0`,
		`DROP TABLE commands_v0`,
		`DROP TABLE matches_v0`,
		`DROP TABLE boards`,
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("migrating from version 0: %w", err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES('schema', ?)`, fmt.Sprint(Version)); err != nil {
		return err
	}
	return tx.Commit()
}
