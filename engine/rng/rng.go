// Package rng provides the seeded random numbers of a match: named streams
// (dice, shuffle, placeholders, …) that are derived from one master seed and
// whose state is part of the match.
//
// Each stream is a PCG source from math/rand/v2. The bounded-integer and
// shuffle helpers are written here rather than taken from rand.Rand, because
// the standard library promises a stable sequence only for its sources, not
// for its derived methods; a replay recorded today must give the same dice
// with any future Go release.
package rng

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// Streams is the set of named random streams of one match. The zero value is
// not usable; create one with New.
type Streams struct {
	seed    uint64
	streams []*Stream // in creation order; looked up linearly (a match has a handful)
	spare   []*Stream // streams of before a Reset, to be used again
}

// New returns the streams of a match played with the given master seed.
func New(seed uint64) *Streams {
	return &Streams{seed: seed}
}

// Seed returns the master seed.
func (s *Streams) Seed() uint64 { return s.seed }

// Stream returns the stream with the given name, creating it on first use.
// A stream's sequence depends only on the master seed and its name, so adding
// draws to one stream never shifts another.
func (s *Streams) Stream(name string) *Stream {
	for _, st := range s.streams {
		if st.name == name {
			return st
		}
	}
	var st *Stream
	if n := len(s.spare); n > 0 {
		st, s.spare = s.spare[n-1], s.spare[:n-1]
		*st = Stream{name: name}
	} else {
		st = &Stream{name: name}
	}
	st.src.Seed(s.seed, fnv64a(name))
	s.streams = append(s.streams, st)
	return st
}

// Reset makes the streams those of a new match with the given master seed,
// as New would, keeping their memory.
func (s *Streams) Reset(seed uint64) {
	s.seed = seed
	s.spare = append(s.spare, s.streams...)
	clear(s.streams)
	s.streams = s.streams[:0]
}

// Draws returns how many 64-bit values all the streams have produced
// together: a command after which it is unchanged drew nothing random
// (what a pack checks before it lets a player take the command back).
func (s *Streams) Draws() uint64 {
	var n uint64
	for _, st := range s.streams {
		n += st.draws
	}
	return n
}

// fnv64a is the 64-bit FNV-1a hash of a name (hash/fnv's New64a, without
// its allocations).
func fnv64a(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

// AppendState appends a canonical encoding of every stream's state (sorted by
// name) to b. It is used for the match's state hash.
func (s *Streams) AppendState(b []byte) []byte {
	sorted := slices.Clone(s.streams)
	slices.SortFunc(sorted, func(a, b *Stream) int { return strings.Compare(a.name, b.name) })
	b = binary.BigEndian.AppendUint64(b, s.seed)
	for _, st := range sorted {
		b = append(b, st.name...)
		b = append(b, 0)
		state, _ := st.src.MarshalBinary() // cannot fail for PCG
		b = append(b, state...)
		b = binary.BigEndian.AppendUint64(b, st.draws)
	}
	return b
}

// Stream is one named sequence of random numbers.
type Stream struct {
	name  string
	src   rand.PCG
	draws uint64
}

// Name returns the stream's name.
func (st *Stream) Name() string { return st.name }

// Draws returns how many 64-bit values the stream has produced.
func (st *Stream) Draws() uint64 { return st.draws }

// Uint64 returns the next 64 random bits.
func (st *Stream) Uint64() uint64 {
	st.draws++
	return st.src.Uint64()
}

// IntN returns a uniform integer in [0, n). It panics if n <= 0, like
// math/rand/v2, because that is a programming error, not bad input.
//
// It uses Lemire's multiply-and-reject method, which is unbiased and needs
// one draw almost always.
func (st *Stream) IntN(n int) int {
	if n <= 0 {
		panic("rng: IntN with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(st.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(st.Uint64(), bound)
		}
	}
	return int(hi)
}

// Between returns a uniform integer in [lo, hi], both inclusive. If hi < lo
// the two are swapped.
func (st *Stream) Between(lo, hi int) int {
	if hi < lo {
		lo, hi = hi, lo
	}
	return lo + st.IntN(hi-lo+1)
}

// Float64 returns a uniform float in [0, 1) built from 53 random bits.
func (st *Stream) Float64() float64 {
	return float64(st.Uint64()>>11) / (1 << 53)
}

// Shuffle puts n elements in a uniformly random order with the Fisher–Yates
// algorithm; swap exchanges elements i and j.
func (st *Stream) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, st.IntN(i+1))
	}
}
