package store

import "database/sql"

// SQL returns the database under a store, for tests that make it look
// like an older one.
func SQL(s Store) *sql.DB { return s.(*db).sql }
