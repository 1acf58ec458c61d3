package server

import "context"

// Cluster coordinates several servers sharing one store: each match is
// owned by one node at a time, through a lease whose revision fences the
// owner's writes.
type Cluster interface {
	// Acquire makes this node the owner of a match, waiting while another
	// node's lease is alive, and returns the lease's revision: the fence
	// every write of the match then carries.
	Acquire(ctx context.Context, matchID string) (int64, error)
	// MayOwn reports whether this node may take the match now (no other
	// node holds a live lease on it).
	MayOwn(ctx context.Context, matchID string) bool
	// Release gives a match's lease up (the match left memory).
	Release(matchID string)
	// Close leaves the cluster.
	Close() error
}
