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
