package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tabulagames/tabula/store"
)

// Under load, SQLite's write-ahead log stays a few megabytes long: it is
// copied into the database file by a checkpointer of its own, beside the
// writer, and starts over; and many matches appending at once share
// commits. Every command is there afterwards.
func TestSQLiteWALStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40,000 commands")
	}
	path := filepath.Join(t.TempDir(), "wal.db")
	s := mustOpen(t, path)
	g := game(`{"pile":21}`)
	must(t, s.SaveGame(ctx, g))
	const matches, each = 200, 200
	for m := range matches {
		must(t, s.CreateMatch(ctx, newMatch(fmt.Sprintf("m%03d", m), g, time.Now())))
	}
	var most int64
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > most {
				most = fi.Size()
			}
		}
	}()
	var wg sync.WaitGroup
	for m := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range each {
				// A command as big as a party game's, with its hash.
				cmd := store.Command{Seq: seq, Data: []byte(`{"kind":"choosePath","space":"space-` + fmt.Sprint(seq) + `"}`),
					Hash: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
				if err := s.Append(ctx, fmt.Sprintf("m%03d", m), cmd, 0); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-watched
	st, ok := store.StatsOf(s)
	if !ok {
		t.Fatal("no stats")
	}
	t.Logf("%d commands in %d commits (%.1f each), %d checkpoints, the log at most %.1f MB", st.Appends, st.Commits,
		float64(st.Appends)/float64(st.Commits), st.Checkpoints, float64(most)/(1<<20))
	if st.Appends != matches*each {
		t.Errorf("%d appends counted, not %d", st.Appends, matches*each)
	}
	if st.Checkpoints == 0 {
		t.Error("no checkpoint was made")
	}
	if most > 32<<20 {
		t.Errorf("the write-ahead log grew to %d MB: it is not kept short", most>>20)
	}
	if per := float64(st.Appends) / float64(st.Commits); per < 8 {
		t.Errorf("%d matches appending at once share commits by %.1f: the group commit does not group", matches, per)
	}
	must(t, s.Close())
	s = mustOpen(t, path)
	defer s.Close()
	for _, m := range []int{0, matches - 1} {
		cmds, err := s.Commands(ctx, fmt.Sprintf("m%03d", m))
		must(t, err)
		if len(cmds) != each {
			t.Errorf("match %d has %d commands after reopening, not %d", m, len(cmds), each)
		}
	}
}
