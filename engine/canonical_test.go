package engine

import (
	"encoding/binary"
	"testing"
)

// TestCanonicalEncodings: the encodings stored hashes were made with stay
// as they are.
func TestCanonicalEncodings(t *testing.T) {
	if got := string(AppendDecimals([]byte("x"), 3, -1, int(Bit(true)), int(Bit(false)))); got != "x3,-1,1,0," {
		t.Errorf("AppendDecimals = %q", got)
	}
	b := AppendVarints(nil, -2, 300, Bit(true))
	var got []int64
	for len(b) > 0 {
		v, n := binary.Varint(b)
		got = append(got, v)
		b = b[n:]
	}
	if len(got) != 3 || got[0] != -2 || got[1] != 300 || got[2] != 1 {
		t.Errorf("AppendVarints decodes to %v", got)
	}
}
