package cluster_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/tabulagames/tabula/cluster"
	"github.com/tabulagames/tabula/server"
	"github.com/tabulagames/tabula/store"
)

// The server's view of a node.
var _ server.Cluster = (*cluster.Node)(nil)

// load does what the server does when a node loads a match: take the
// lease and raise the stored fence to it.
func load(t *testing.T, n *cluster.Node, s store.Store, id string) int64 {
	t.Helper()
	ctx := context.Background()
	rec, err := s.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	fence := acquire(t, n, id, 3*ttl)
	if fence != rec.Fence {
		if err := s.Fence(ctx, id, fence); err != nil {
			t.Fatalf("%s raising the fence: %v", n.Name(), err)
		}
	}
	return fence
}

// After a takeover, the stalled former owner's writes are refused by the
// store and the new owner's go through: the two can never both write a
// match's commands.
func TestFormerOwnerCannotWrite(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(filepath.Join(t.TempDir(), "tabula.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := store.Game{Hash: store.HashSecret("{}"), Pack: "nim", Name: "g.json", Data: []byte("{}"), Created: time.Now()}
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	m := store.Match{ID: "m1", Pack: "nim", GameHash: g.Hash, BoardName: "Nim", Seats: []store.Seat{{Name: "Ann"}, {Name: "Bob"}},
		Status: store.Playing, Created: time.Now()}
	if err := s.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")

	fa := load(t, a, s, "m1")
	if err := s.Append(ctx, "m1", store.Command{Seq: 0, Data: []byte(`{}`), Hash: "a0"}, fa); err != nil {
		t.Fatal(err)
	}
	resume := a.Stall()
	fb := load(t, b, s, "m1")
	// a wakes up and writes before it has noticed.
	err = s.Append(ctx, "m1", store.Command{Seq: 1, Data: []byte(`{}`), Hash: "a1"}, fa)
	if !errors.Is(err, store.ErrFenced) {
		t.Errorf("the former owner's append: %v", err)
	}
	rec, _ := s.Match(ctx, "m1")
	rec.Fence = fa
	rec.Status = store.Finished
	if err := s.UpdateMatch(ctx, rec); !errors.Is(err, store.ErrFenced) {
		t.Errorf("the former owner's update: %v", err)
	}
	if err := s.Append(ctx, "m1", store.Command{Seq: 1, Data: []byte(`{}`), Hash: "b1"}, fb); err != nil {
		t.Errorf("the new owner's append: %v", err)
	}
	resume()
	if id := lost(t, a, ttl); id != "m1" {
		t.Errorf("a lost %q", id)
	}
	cmds, err := s.Commands(ctx, "m1")
	if err != nil || len(cmds) != 2 || cmds[0].Hash != "a0" || cmds[1].Hash != "b1" {
		t.Errorf("commands %+v, %v", cmds, err)
	}
}
