package rng

import (
	"hash/fnv"
	"testing"
)

func TestFNVIsHashFNV(t *testing.T) {
	for _, name := range []string{"", "dice", "placeholders", "shuffle", "ünïcode"} {
		h := fnv.New64a()
		h.Write([]byte(name))
		if got, want := fnv64a(name), h.Sum64(); got != want {
			t.Errorf("fnv64a(%q) = %x, want %x", name, got, want)
		}
	}
}

// TestResetIsNew: streams reset to a seed draw what new ones do, and
// their state encodes the same.
func TestResetIsNew(t *testing.T) {
	fresh := New(42)
	reused := New(1)
	reused.Stream("dice").Uint64()
	reused.Stream("swap").IntN(5)
	reused.Reset(42)
	for _, name := range []string{"dice", "placeholders", "dice"} {
		if a, b := fresh.Stream(name).IntN(1000), reused.Stream(name).IntN(1000); a != b {
			t.Errorf("%s: %d after Reset, want %d", name, b, a)
		}
	}
	if string(fresh.AppendState(nil)) != string(reused.AppendState(nil)) {
		t.Error("the state of reset streams differs from new ones'")
	}
}

// TestDrawsCountsEveryStream: Draws moves with a draw from any stream,
// a shuffle included, and not with a stream merely named.
func TestDrawsCountsEveryStream(t *testing.T) {
	s := New(7)
	s.Stream("dice")
	if n := s.Draws(); n != 0 {
		t.Fatalf("%d draws before any", n)
	}
	s.Stream("dice").IntN(6)
	before := s.Draws()
	s.Stream("shuffle").Shuffle(3, func(int, int) {})
	if s.Draws() <= before {
		t.Errorf("a shuffle left Draws at %d", s.Draws())
	}
	before = s.Draws()
	s.Stream("shuffle").Shuffle(1, func(int, int) {}) // one card: nothing to draw
	if s.Draws() != before || s.Clone().Draws() != before {
		t.Errorf("Draws %d (copy %d), want %d", s.Draws(), s.Clone().Draws(), before)
	}
}
