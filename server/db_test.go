package server

import (
	"database/sql"
	"testing"
)

// rawDB opens the server's database directly, to tamper with it in tests.
type rawDB struct{ db *sql.DB }

func openForTest(path string) (*rawDB, error) {
	db, err := sql.Open("sqlite", "file:"+path)
	return &rawDB{db}, err
}

func (r *rawDB) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := r.db.Exec(q, args...); err != nil {
		t.Fatal(err)
	}
}

func (r *rawDB) close() { r.db.Close() }
