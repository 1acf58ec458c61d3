package rng

import "testing"

// A clone draws what the original would, and neither moves the other.
func TestCloneGoesOnAlike(t *testing.T) {
	s := New(42)
	s.Stream("dice").IntN(6)
	s.Stream("shuffle").Uint64()
	c := s.Clone()
	for _, name := range []string{"dice", "shuffle", "new"} {
		for range 5 {
			if a, b := s.Stream(name).Uint64(), c.Stream(name).Uint64(); a != b {
				t.Fatalf("stream %s: the clone drew %d, the original %d", name, b, a)
			}
		}
	}
	c.Stream("dice").Uint64()
	if s.Stream("dice").Draws() == c.Stream("dice").Draws() {
		t.Error("drawing from the clone moved the original")
	}
	if string(s.AppendState(nil)) == string(c.AppendState(nil)) {
		t.Error("the states should differ by one draw")
	}
}
