package rng

// Clone returns a copy of the streams: every stream of the copy goes on
// from where the original's stands, and draws from one never move the
// other. A match's copy (for a bot's look ahead) rolls the same dice as
// the match would.
func (s *Streams) Clone() *Streams {
	c := &Streams{seed: s.seed, streams: make([]*Stream, len(s.streams))}
	all := make([]Stream, len(s.streams))
	for i, st := range s.streams {
		all[i] = *st
		c.streams[i] = &all[i]
	}
	return c
}
