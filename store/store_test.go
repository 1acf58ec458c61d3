package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestMatchesAndCommandsSurviveReopening(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	ctx := context.Background()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := Match{ID: "m1", Game: "party", BoardID: "default", BoardName: "Default", BoardData: []byte(`{"spaces":[]}`),
		Seed: 1<<63 + 5, MaxRounds: 100, Seats: []Seat{{Name: "Ann", Token: "t1"}, {Name: "Bot", Bot: true}},
		Status: Lobby, Created: time.Now()}
	if err := s.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if err := s.Append(ctx, "m1", Command{Seq: i, Player: i % 2, Data: []byte(fmt.Sprintf(`{"n":%d}`, i)), Hash: fmt.Sprint("h", i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := s.Append(ctx, "m1", Command{Seq: 7, Data: []byte(`{}`), Hash: "dup"}); err == nil {
		t.Error("a taken sequence number was accepted")
	}
	m.Status, m.Result = Finished, "Ann won"
	if err := s.UpdateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Match(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Seed != m.Seed || got.Status != Finished || got.Result != "Ann won" || got.Commands != 50 || len(got.Seats) != 2 || !got.Seats[1].Bot {
		t.Errorf("reopened match: %+v", got)
	}
	cmds, err := s.Commands(ctx, "m1")
	if err != nil || len(cmds) != 50 || cmds[49].Hash != "h49" || string(cmds[3].Data) != `{"n":3}` {
		t.Errorf("commands: %d, %v", len(cmds), err)
	}
	if _, err := s.Match(ctx, "nope"); err != ErrNotFound {
		t.Errorf("missing match: %v", err)
	}
}
