package engine

import (
	"encoding/binary"
	"strconv"
)

// The canonical encodings of numbers for state hashes (Match.Hash and the
// states that implement Canonical). A state keeps the encoding it was
// first hashed with: stored matches are checked against their hashes when
// they are replayed.

// AppendVarints appends each value as a signed varint (encoding/binary),
// the encoding Match.Hash uses for its own numbers.
func AppendVarints(b []byte, vs ...int64) []byte {
	for _, v := range vs {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// AppendDecimals appends each value in decimal followed by a comma.
func AppendDecimals(b []byte, vs ...int) []byte {
	for _, v := range vs {
		b = strconv.AppendInt(b, int64(v), 10)
		b = append(b, ',')
	}
	return b
}

// Bit is 1 for true and 0 for false: a flag encoded among numbers.
func Bit(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
