// Package cluster lets several servers share one store: each match is
// owned by exactly one node at a time, and nodes talk to each other over
// NATS.
//
// Ownership is a lease: a key per match in a JetStream key-value bucket
// (tabula_leases), created by the node that takes the match and holding
// its name. The bucket keeps one value per key and forgets a value once it
// is older than the lease time, so a lease nobody renews expires by
// itself; the owner renews its leases (a compare-and-set update of the
// key) three times per lease time. A lease that comes to an end without
// being released (taken over after a stall, or never renewed because the
// node lost NATS) is reported on Lost, and the server stops the match at
// once.
//
// The revision of the create that started an ownership is its fence:
// revisions only grow, so a new owner's fence is always higher than the
// last one's. The store refuses every write that carries a fence lower
// than the match's (store.ErrFenced), so a former owner that has not yet
// noticed it lost a match (a process paused for longer than the lease
// time) can never write over the new owner's commands.
//
// Nodes also send each other messages, addressed by node name: requests
// with a reply (Handle, Request) and one-way messages (Subscribe,
// Publish). The server uses them to forward a player's commands to the
// node that owns the match and the views back.
package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultLeaseTTL is how long a lease lasts without renewal when Options
// does not say: long enough that a busy node or a short network hiccup
// keeps its matches, short enough that players of a crashed node wait
// only seconds.
const DefaultLeaseTTL = 10 * time.Second

// DefaultBucket is the key-value bucket holding the leases.
const DefaultBucket = "tabula_leases"

// Options configure a node joining a cluster.
type Options struct {
	// URL is the NATS server (or a comma-separated list of a NATS
	// cluster's servers), as nats.Connect takes it.
	URL string
	// Name names this node: unique among the live nodes, and the same
	// across a node's restarts (a restarted node takes its former leases
	// back at once instead of waiting for them to expire). Letters,
	// digits, '-' and '_'.
	Name string
	// LeaseTTL is how long a lease lasts without renewal (default
	// DefaultLeaseTTL). Every node of a cluster must use the same one: it
	// is the bucket's, set by the first node that creates the bucket.
	LeaseTTL time.Duration
	// Bucket is the key-value bucket of the leases (default
	// DefaultBucket).
	Bucket string
	// Replicas is how many NATS servers keep the bucket (default 1; 3 on
	// a NATS cluster, so that the leases survive the loss of a server).
	Replicas int
	// NATS are more options for the connection (credentials, TLS).
	NATS []nats.Option
	// MaxHandling bounds the requests this node answers at once
	// (DefaultMaxHandling); MaxPending the messages waiting for one of
	// its subscribers (DefaultMaxPending).
	MaxHandling int
	MaxPending  int
	// OnError, if set, is told what NATS refused or dropped: a
	// permission refused (a node asking for another's subjects), or
	// messages dropped for a subject whose handler fell behind
	// (nats.ErrSlowConsumer).
	OnError func(subject string, err error)
}

// Errors of the cluster.
var (
	// ErrClosed is returned by a node that has left the cluster.
	ErrClosed = errors.New("this node has left the cluster")
	// ErrNodeGone is returned by a request to a node that does not
	// answer: it stopped, lost NATS, or never joined.
	ErrNodeGone = errors.New("the node is not in the cluster")
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Node is this server's place in a cluster: the leases it holds, its
// renewals and its messages.
type Node struct {
	name   string
	run    string
	ttl    time.Duration
	bucket string
	nc     *nats.Conn
	kv     jetstream.KeyValue
	lost   *lostQueue
	stop   chan struct{}
	done   chan struct{}
	paused chan chan struct{} // tests: a stall of the renewals
	// handling holds a place for each request being answered.
	handling chan struct{}
	onError  func(subject string, err error)
	// maxPending bounds each subscription's queue.
	maxPending int

	mu        sync.Mutex
	leases    map[string]*lease
	acquiring map[string]chan struct{}
	closed    bool
}

// lease is a match this node owns. fence is the revision of the create
// that started the ownership (it never changes while the ownership
// lasts); rev is the key's latest revision, which renewals compare and
// set; renewed is when the last successful renewal (or the create) was
// sent: the lease lasts at least until renewed + the lease time.
type lease struct {
	mu       sync.Mutex
	key      string
	fence    uint64
	rev      uint64
	renewed  time.Time
	released bool
}

// Join connects this node to the cluster: it connects to NATS, makes sure
// the leases' bucket exists and starts renewing the leases it will hold.
func Join(ctx context.Context, opts Options) (*Node, error) {
	if !validName.MatchString(opts.Name) {
		return nil, fmt.Errorf("cluster: node name %q: use letters, digits, '-' and '_' (it names the node's subjects)", opts.Name)
	}
	if opts.LeaseTTL < 0 || opts.LeaseTTL > 0 && opts.LeaseTTL < 300*time.Millisecond {
		return nil, fmt.Errorf("cluster: lease time %v: use at least 300ms (NATS expires keys at a quarter of a second's precision)", opts.LeaseTTL)
	}
	if opts.Bucket == "" {
		opts.Bucket = DefaultBucket
	}
	nopts := append([]nats.Option{
		nats.Name("tabula " + opts.Name),
		// A node never gives up on NATS: while it is away its leases
		// end by the clock, and when it is back it serves again.
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		// Its replies come on subjects of its own, which a locked bus
		// lets only this node read.
		nats.CustomInboxPrefix(inboxPrefix(opts.Name)),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			if opts.OnError != nil {
				subject := ""
				if sub != nil {
					subject = sub.Subject
				}
				opts.OnError(subject, err)
			}
		}),
	}, opts.NATS...)
	nc, err := nats.Connect(opts.URL, nopts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connecting to NATS at %s: %w", opts.URL, err)
	}
	kv, ttl, err := openBucket(ctx, nc, opts)
	if err != nil {
		nc.Close()
		return nil, err
	}
	n := &Node{
		name:       opts.Name,
		run:        newRun(),
		ttl:        ttl,
		bucket:     opts.Bucket,
		nc:         nc,
		kv:         kv,
		lost:       newLostQueue(),
		stop:       make(chan struct{}),
		done:       make(chan struct{}),
		paused:     make(chan chan struct{}),
		handling:   make(chan struct{}, cmp.Or(opts.MaxHandling, DefaultMaxHandling)),
		onError:    opts.OnError,
		maxPending: cmp.Or(opts.MaxPending, DefaultMaxPending),
		leases:     map[string]*lease{},
		acquiring:  map[string]chan struct{}{},
	}
	go n.renew()
	return n, nil
}

// Name returns the node's name.
func (n *Node) Name() string { return n.name }

// LeaseTTL returns how long a lease lasts without renewal (the bucket's).
func (n *Node) LeaseTTL() time.Duration { return n.ttl }

// Lost delivers the id of every match whose lease this node lost without
// releasing it: another node took it over, or it could not be renewed in
// time. The server stops such a match at once (its writes are refused by
// now anyway). The channel is closed by Close.
func (n *Node) Lost() <-chan string { return n.lost.out }

// Close releases every lease (other nodes may take the matches at once),
// stops the renewals and closes the connection. The server calls it after
// its rooms stopped.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	held := make([]*lease, 0, len(n.leases))
	for id, l := range n.leases {
		held = append(held, l)
		delete(n.leases, id)
	}
	n.mu.Unlock()
	close(n.stop)
	<-n.done
	for _, l := range held {
		n.release(l)
	}
	n.lost.close()
	return n.nc.Drain()
}

// holding returns this node's lease of a match, if it holds one.
func (n *Node) holding(matchID string) *lease {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.leases[matchID]
}

// opTimeout bounds one operation on the bucket that has no context of its
// own (a renewal, a release): a third of the lease time, so that a
// renewal that hangs is retried before the lease ends.
func (n *Node) opTimeout() time.Duration { return n.ttl / 3 }
