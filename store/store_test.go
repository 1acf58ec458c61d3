package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/store/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Stop()
	os.Exit(code)
}

// backends runs a test against every database: the same tests for
// SQLite and PostgreSQL.
func backends(t *testing.T, test func(t *testing.T, open func() store.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "t.db")
		test(t, func() store.Store { return mustOpen(t, path) })
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.Postgres(t)
		test(t, func() store.Store { return mustOpen(t, url) })
	})
}

func mustOpen(t testing.TB, dsn string) store.Store {
	t.Helper()
	s, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var ctx = context.Background()

func game(data string) store.Game {
	return store.Game{Hash: store.HashSecret(data), Pack: "nim", Name: "g.json", Data: []byte(data), Created: time.Now()}
}

func newMatch(id string, g store.Game, created time.Time) store.Match {
	return store.Match{ID: id, Pack: g.Pack, GameHash: g.Hash, BoardID: "b", BoardName: "Board", Seed: 1<<63 + 5, MaxRounds: 100,
		Seats: []store.Seat{{Name: "Ann", Token: "t1"}, {Name: "Bot", Bot: true, Level: "mcts"}}, Owner: "o", Invite: "i",
		Settings: store.Settings{TurnLimit: time.Minute, Compat: "original"}, Status: store.Lobby, Created: created}
}

func TestMatchesAndCommandsSurviveReopening(t *testing.T) {
	backends(t, func(t *testing.T, open func() store.Store) {
		s := open()
		g := game(`{"game":"nim"}`)
		if err := s.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		m := newMatch("m1", g, time.Now())
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				c := store.Command{Seq: i, Player: i % 2, Data: []byte(fmt.Sprintf(`{"n":%d}`, i)), Hash: fmt.Sprint("h", i)}
				if i%10 == 9 {
					c.Data, c.Undo = nil, true
				}
				if err := s.Append(ctx, "m1", c, 0); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if err := s.Append(ctx, "m1", store.Command{Seq: 7, Data: []byte(`{}`), Hash: "dup"}, 0); err == nil {
			t.Error("a taken sequence number was accepted")
		}
		m.Status, m.Result, m.Commands = store.Finished, "Ann won", 50
		if err := s.UpdateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		s.Close()

		s = open()
		defer s.Close()
		got, err := s.Match(ctx, "m1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Seed != m.Seed || got.Status != store.Finished || got.Result != "Ann won" || got.Commands != 50 || len(got.Seats) != 2 ||
			!got.Seats[1].Bot || got.Seats[1].Level != "mcts" || got.Settings.TurnLimit != time.Minute || got.Settings.Compat != "original" ||
			got.GameHash != g.Hash {
			t.Errorf("reopened match: %+v", got)
		}
		cmds, err := s.Commands(ctx, "m1")
		if err != nil || len(cmds) != 50 || cmds[49].Hash != "h49" || string(cmds[3].Data) != `{"n":3}` || cmds[3].Undo {
			t.Errorf("commands: %d, %v", len(cmds), err)
		}
		if len(cmds) == 50 && (!cmds[19].Undo || cmds[19].Data != nil || cmds[19].Player != 1 || cmds[19].Hash != "h19") {
			t.Errorf("an undo reads back as %+v", cmds[19])
		}
		if _, err := s.Match(ctx, "nope"); err != store.ErrNotFound {
			t.Errorf("missing match: %v", err)
		}
		back, err := s.Game(ctx, g.Hash)
		if err != nil || string(back.Data) != string(g.Data) {
			t.Errorf("game: %v", err)
		}
	})
}

// A node whose lease was taken over can no longer write: the new owner
// raised the fence, and every append or update carrying the old one is
// refused, while the new owner's go through.
func TestFencedWritesAreRefused(t *testing.T) {
	backends(t, func(t *testing.T, open func() store.Store) {
		s := open()
		defer s.Close()
		g := game(`{}`)
		s.SaveGame(ctx, g)
		m := newMatch("m", g, time.Now())
		m.Fence = 3
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, "m", store.Command{Seq: 0, Data: []byte(`{}`), Hash: "a"}, 3); err != nil {
			t.Fatal(err)
		}
		if err := s.Fence(ctx, "m", 7); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, "m", store.Command{Seq: 1, Data: []byte(`{}`), Hash: "old"}, 3); !errors.Is(err, store.ErrFenced) {
			t.Fatalf("an append of the old owner: %v", err)
		}
		if err := s.UpdateMatch(ctx, m); !errors.Is(err, store.ErrFenced) {
			t.Fatalf("an update of the old owner: %v", err)
		}
		if err := s.Fence(ctx, "m", 5); !errors.Is(err, store.ErrFenced) {
			t.Fatalf("lowering the fence: %v", err)
		}
		if err := s.Append(ctx, "m", store.Command{Seq: 1, Data: []byte(`{}`), Hash: "new"}, 7); err != nil {
			t.Fatal(err)
		}
		cmds, _ := s.Commands(ctx, "m")
		if len(cmds) != 2 || cmds[1].Hash != "new" {
			t.Fatalf("commands: %+v", cmds)
		}
	})
}

// Listing reads summaries page by page, newest first, filtered, and a
// game is stored once however many matches use it.
func TestListingIsPagedAndFiltered(t *testing.T) {
	backends(t, func(t *testing.T, open func() store.Store) {
		s := open()
		defer s.Close()
		g := game(`{"big":"` + strings.Repeat("x", 1<<20) + `"}`)
		s.SaveGame(ctx, g)
		s.SaveGame(ctx, g)
		base := time.Now().Add(-time.Hour)
		for i := range 30 {
			m := newMatch(fmt.Sprintf("m%02d", i), g, base.Add(time.Duration(i)*time.Second))
			m.Settings.Public = i%3 != 0
			if i%2 == 1 {
				m.Status = store.Playing
			}
			if err := s.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		var ids []string
		before := ""
		for {
			page, err := s.Matches(ctx, store.Query{Limit: 7, Before: before})
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			for _, m := range page {
				ids = append(ids, m.ID)
			}
			before = page[len(page)-1].ID
		}
		if len(ids) != 30 || ids[0] != "m29" || ids[29] != "m00" || !slices.IsSortedFunc(ids, func(a, b string) int { return strings.Compare(b, a) }) {
			t.Fatalf("pages: %v", ids)
		}
		playing, _ := s.Matches(ctx, store.Query{Status: store.Playing, PublicOnly: true})
		for _, m := range playing {
			if m.Status != store.Playing || !m.Settings.Public {
				t.Fatalf("filtered listing has %+v", m)
			}
		}
		if len(playing) != 10 {
			t.Fatalf("%d public playing matches, want 10", len(playing))
		}
		some, _ := s.Matches(ctx, store.Query{IDs: []string{"m03", "m04"}})
		if len(some) != 2 {
			t.Fatalf("by id: %d", len(some))
		}
	})
}

// A match's chat and the reasons bots played for people are kept beside
// its commands, survive reopening, come back oldest first (the last ones
// when asked for fewer), and a fenced owner cannot write them.
func TestChatAndReasonsAreKept(t *testing.T) {
	backends(t, func(t *testing.T, open func() store.Store) {
		s := open()
		g := game(`{"chat":1}`)
		s.SaveGame(ctx, g)
		m := newMatch("c1", g, time.Now())
		m.Seats[0].Handed, m.Seats[0].Muted = store.HandedOwner, true
		m.Settings.SpectatorChat = true
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, "c1", store.Command{Seq: 0, Data: []byte(`{}`), Hash: "a", Reason: store.ReasonTimeout}, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, "c1", store.Command{Seq: 1, Data: []byte(`{}`), Hash: "b"}, 0); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		for i, text := range []string{"hi", "<b>bold</b>", "gg"} {
			if err := s.AddChat(ctx, "c1", store.ChatMessage{Seq: i, Seat: i - 1, Name: "Ann", Text: text, At: at}, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddChat(ctx, "c1", store.ChatMessage{Seq: 1, Name: "Ann", Text: "again"}, 0); err == nil {
			t.Error("a taken chat number was accepted")
		}
		if err := s.AddChat(ctx, "c1", store.ChatMessage{Seq: 3, Name: "Ann", Text: "late"}, 9); !errors.Is(err, store.ErrFenced) {
			t.Errorf("a fenced chat message: %v", err)
		}
		s.Close()

		s = open()
		defer s.Close()
		cmds, _ := s.Commands(ctx, "c1")
		if len(cmds) != 2 || cmds[0].Reason != store.ReasonTimeout || cmds[1].Reason != "" {
			t.Errorf("commands: %+v", cmds)
		}
		chat, err := s.Chat(ctx, "c1", 100)
		if err != nil || len(chat) != 3 || chat[1].Text != "<b>bold</b>" || chat[0].Seat != -1 || !chat[2].At.Equal(at) {
			t.Errorf("chat: %+v, %v", chat, err)
		}
		last, _ := s.Chat(ctx, "c1", 2)
		if len(last) != 2 || last[0].Seq != 1 || last[1].Seq != 2 {
			t.Errorf("the last two: %+v", last)
		}
		got, _ := s.Match(ctx, "c1")
		if got.Seats[0].Handed != store.HandedOwner || !got.Seats[0].Muted || !got.Settings.SpectatorChat {
			t.Errorf("seats and settings: %+v %+v", got.Seats, got.Settings)
		}
	})
}

// A database of schema version 1 (written before the table chat) is
// migrated: its commands are all there, with no reason, new ones take
// one, and its matches can chat.
func TestVersion1IsMigrated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	copyFile(t, "../server/testdata/old-v1.db", path)
	s := mustOpen(t, path)
	cmds, err := s.Commands(ctx, "5eea785cdbb3")
	if err != nil || len(cmds) != 40 || cmds[0].Reason != "" {
		t.Fatalf("commands: %d, %v", len(cmds), err)
	}
	if err := s.Append(ctx, "07057a371085", store.Command{Seq: 7, Data: []byte(`{}`), Hash: "h", Reason: store.HandedLeft}, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.AddChat(ctx, "07057a371085", store.ChatMessage{Seq: 0, Name: "Ann", Text: "still here"}, 0); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = mustOpen(t, path) // opening it again migrates nothing twice
	defer s.Close()
	cmds, _ = s.Commands(ctx, "07057a371085")
	if len(cmds) != 8 || cmds[7].Reason != store.HandedLeft {
		t.Errorf("the new command: %+v", cmds[len(cmds)-1])
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	db.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&v)
	if v != fmt.Sprint(store.Version) {
		t.Errorf("schema version %s after migrating", v)
	}
}

// A database written by the first servers (schema version 0) is migrated:
// its matches, commands, uploads and games are all there, and its secrets
// are stored hashed.
func TestVersion0IsMigrated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	copyFile(t, "../server/testdata/old-v0.db", path)
	s := mustOpen(t, path)
	defer s.Close()
	ms, err := s.Matches(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 5 {
		t.Fatalf("%d matches, want 5", len(ms))
	}
	m, err := s.Match(ctx, "fdb639ec22")
	if err != nil {
		t.Fatal(err)
	}
	if m.Pack != "party" || m.Status != store.Playing || m.Commands != 12 || !m.Settings.Public ||
		m.Seats[0].Token != store.HashSecret("f04cd6d679561b0c1a23dfe325f0927e") || m.Owner == "" {
		t.Fatalf("migrated match: %+v", m)
	}
	g, err := s.Game(ctx, m.GameHash)
	if err != nil || !strings.Contains(string(g.Data), "spaces") {
		t.Fatalf("its game: %v", err)
	}
	cmds, _ := s.Commands(ctx, m.ID)
	if len(cmds) != 12 || string(cmds[0].Data) != `{"player":0,"kind":"roll"}` {
		t.Fatalf("commands: %+v", cmds)
	}
	entries, _ := s.Entries(ctx)
	if len(entries) != 1 || entries[0].ID != "up-5ebb21f822b1" || entries[0].Name != "Designated Driver" {
		t.Fatalf("library: %+v", entries)
	}
	// New commands still go in.
	if err := s.Append(ctx, m.ID, store.Command{Seq: 12, Data: []byte(`{}`), Hash: "h"}, 0); err != nil {
		t.Fatal(err)
	}
}

// A database of schema version 2 (written by that version's server) is
// migrated: its library entry is there, with nothing yet of what it
// shows, and takes the columns of version 4.
func TestVersion2LibraryIsMigrated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	copyFile(t, "../server/testdata/old-v2.db", path)
	s := mustOpen(t, path)
	defer s.Close()
	entries, err := s.Entries(ctx)
	if err != nil || len(entries) != 1 || entries[0].Name != "Saved before" || entries[0].Info != nil || !entries[0].Used.IsZero() {
		t.Fatalf("library: %+v %v", entries, err)
	}
	e := entries[0]
	e.Info, e.Client, e.Size, e.Used = []byte(`{"name":"Saved before"}`), "c", 123, time.Now()
	if err := s.SaveEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	entries, _ = s.Entries(ctx)
	if got := entries[0]; string(got.Info) != string(e.Info) || got.Client != "c" || got.Size != 123 || got.Used.IsZero() {
		t.Fatalf("after saving: %+v", got)
	}
	if m, err := s.Match(ctx, "v2match"); err != nil || m.Seats[0].Name != "Ann" {
		t.Fatalf("its match: %+v %v", m, err)
	}
}

// A game is deleted only once nothing refers to it: no match, no library
// entry.
func TestGamesAreDeletedOnceUnused(t *testing.T) {
	backends(t, func(t *testing.T, open func() store.Store) {
		s := open()
		defer s.Close()
		played, saved, loose := game(`{"played": 1}`), game(`{"saved": 1}`), game(`{"loose": 1}`)
		for _, g := range []store.Game{played, saved, loose} {
			must(t, s.SaveGame(ctx, g))
		}
		must(t, s.CreateMatch(ctx, newMatch("m1", played, time.Now())))
		must(t, s.SaveEntry(ctx, store.Entry{ID: "e1", GameHash: saved.Hash, Pack: "nim", Name: "S", File: "s.json", Created: time.Now(), Size: 11}))
		for _, g := range []store.Game{played, saved, loose} {
			must(t, s.DeleteGame(ctx, g.Hash))
		}
		for g, kept := range map[string]bool{played.Hash: true, saved.Hash: true, loose.Hash: false} {
			if _, err := s.Game(ctx, g); (err == nil) != kept {
				t.Errorf("game %s…: kept %v, want %v", g[:6], err == nil, kept)
			}
		}
		must(t, s.DeleteEntry(ctx, "e1"))
		must(t, s.DeleteGame(ctx, saved.Hash))
		if _, err := s.Game(ctx, saved.Hash); err == nil {
			t.Error("a game whose entry was deleted stays")
		}
		// Games nobody refers to, stored before a time, go at once.
		old, fresh := game(`{"draft": 1}`), game(`{"draft": 2}`)
		old.Created = time.Now().Add(-2 * time.Hour)
		must(t, s.SaveGame(ctx, old))
		must(t, s.SaveGame(ctx, fresh))
		gone, err := s.DeleteUnusedGames(ctx, time.Now().Add(-time.Hour))
		if err != nil || len(gone) != 1 || gone[0] != old.Hash {
			t.Errorf("deleting the unused games of more than an hour ago: %v %v", gone, err)
		}
		for g, kept := range map[string]bool{old.Hash: false, fresh.Hash: true, played.Hash: true} {
			if _, err := s.Game(ctx, g); (err == nil) != kept {
				t.Errorf("game %s…: kept %v, want %v", g[:6], err == nil, kept)
			}
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A database of version 2, whose command log had no undos, is migrated:
// its commands are all there, none an undo, and undos go in after them.
// The file was written by the server of version 2; the same is checked on
// both databases by taking the column away again.
func TestVersion2IsMigrated(t *testing.T) {
	check := func(t *testing.T, s store.Store, id string, n int) {
		t.Helper()
		cmds, err := s.Commands(ctx, id)
		if err != nil || len(cmds) != n {
			t.Fatalf("%d commands, %v; want %d", len(cmds), err, n)
		}
		for _, c := range cmds {
			if c.Undo || len(c.Data) == 0 {
				t.Fatalf("command %d reads as %+v", c.Seq, c)
			}
		}
		if err := s.Append(ctx, id, store.Command{Seq: n, Player: 0, Hash: cmds[n-2].Hash, Undo: true}, 0); err != nil {
			t.Fatal(err)
		}
		if cmds, _ := s.Commands(ctx, id); len(cmds) != n+1 || !cmds[n].Undo {
			t.Fatalf("the undo appended reads as %+v", cmds[len(cmds)-1])
		}
	}
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "v2.db")
		copyFile(t, "../server/testdata/v2.db", path)
		s := mustOpen(t, path)
		defer s.Close()
		check(t, s, "2f194b1b324d", 11)
	})
	backends(t, func(t *testing.T, open func() store.Store) {
		s := open()
		g := game(`{"game":"nim"}`)
		s.SaveGame(ctx, g)
		s.CreateMatch(ctx, newMatch("m1", g, time.Now()))
		for i := range 3 {
			s.Append(ctx, "m1", store.Command{Seq: i, Data: []byte(`{"take":1}`), Hash: fmt.Sprint("h", i)}, 0)
		}
		s.Close()
		downgrade(t, open)
		s = open()
		defer s.Close()
		check(t, s, "m1", 3)
	})
}

// downgrade makes a database one of version 2 again: without the column
// undo, nor the library's columns of version 4.
func downgrade(t *testing.T, open func() store.Store) {
	t.Helper()
	s := open()
	db := store.SQL(s)
	for _, q := range []string{`ALTER TABLE commands DROP COLUMN undo`, `ALTER TABLE library DROP COLUMN info`, `ALTER TABLE library DROP COLUMN client`,
		`ALTER TABLE library DROP COLUMN size`, `ALTER TABLE library DROP COLUMN used`, `UPDATE meta SET value = '2' WHERE key = 'schema'`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
}

// Damaged databases and those of a newer Tabula are refused with a
// message naming the file; nothing is written to them.
func TestBadDatabasesAreRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	s := mustOpen(t, good)
	g := game(`{}`)
	s.SaveGame(ctx, g)
	for i := range 200 {
		s.CreateMatch(ctx, newMatch(fmt.Sprint("m", i), g, time.Now()))
	}
	s.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.db")
	os.WriteFile(truncated, data[:len(data)/2], 0o644)
	flipped := filepath.Join(dir, "flipped.db")
	bad := slices.Clone(data)
	for i := 4096 + 100; i < len(bad); i += 4096 { // a byte in every page but the header
		bad[i] ^= 0xff
	}
	os.WriteFile(flipped, bad, 0o644)
	notDB := filepath.Join(dir, "notes.db")
	os.WriteFile(notDB, []byte("these are my notes, not a database"), 0o644)

	newer := filepath.Join(dir, "newer.db")
	copyFile(t, good, newer)
	s = mustOpen(t, newer)
	s.Close()
	setVersion(t, newer, store.Version+1)

	for _, c := range []struct{ path, want string }{
		{truncated, "damaged"},
		{flipped, "damaged"},
		{notDB, "not a Tabula database"},
		{newer, "newer Tabula"},
	} {
		before, _ := os.ReadFile(c.path)
		s, err := store.Open(c.path)
		if err == nil {
			s.Close()
			t.Errorf("%s was opened", filepath.Base(c.path))
			continue
		}
		if !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want its name and %q", filepath.Base(c.path), err, c.want)
		}
		if after, _ := os.ReadFile(c.path); string(after) != string(before) {
			t.Errorf("%s was changed", filepath.Base(c.path))
		}
	}
}

// setVersion writes a schema version into a SQLite database, as a newer
// Tabula would.
func setVersion(t *testing.T, path string, v int) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE meta SET value = ? WHERE key = 'schema'`, fmt.Sprint(v)); err != nil {
		t.Fatal(err)
	}
}
