package cluster

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// leaseKey is a match's key in the bucket: its id when the id is a valid
// key, else the id in base64 (ids come from the store, where older
// servers may have made them of any characters).
func leaseKey(matchID string) string {
	if validName.MatchString(matchID) {
		return "m." + matchID
	}
	return "x." + base64.RawURLEncoding.EncodeToString([]byte(matchID))
}

// A lease's value is the owner's name and its run ("a/5f3c…"): the run
// tells this process's leases from those of a former run of the same
// node, which it takes back at once after a restart.
func (n *Node) value() []byte { return []byte(n.name + "/" + n.run) }

func ownerOf(value []byte) string {
	node, _, _ := strings.Cut(string(value), "/")
	return node
}

// Acquire makes this node the owner of a match and returns the fence its
// writes carry: the revision of the create that started the ownership.
// If the node owns the match already it returns the same fence. While
// another node holds a live lease it waits until that lease is released
// or expires, as long as ctx allows.
func (n *Node) Acquire(ctx context.Context, matchID string) (int64, error) {
	for {
		n.mu.Lock()
		if n.closed {
			n.mu.Unlock()
			return 0, ErrClosed
		}
		if l := n.leases[matchID]; l != nil {
			n.mu.Unlock()
			return int64(l.fence), nil
		}
		if busy := n.acquiring[matchID]; busy != nil {
			// Another call of this node is taking it: its fence is ours.
			n.mu.Unlock()
			select {
			case <-busy:
				continue
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
		mine := make(chan struct{})
		n.acquiring[matchID] = mine
		n.mu.Unlock()

		fence, err := n.take(ctx, matchID)
		n.mu.Lock()
		delete(n.acquiring, matchID)
		n.mu.Unlock()
		close(mine)
		return fence, err
	}
}

// take creates a match's key, waiting for the lease of another node to
// end first.
func (n *Node) take(ctx context.Context, matchID string) (int64, error) {
	key := leaseKey(matchID)
	poll := 20 * time.Millisecond
	for {
		sent := time.Now()
		rev, err := n.kv.Create(ctx, key, n.value())
		if err == nil {
			l := &lease{key: key, fence: rev, rev: rev, renewed: sent}
			n.mu.Lock()
			closed := n.closed
			if !closed {
				n.leases[matchID] = l
			}
			n.mu.Unlock()
			if closed {
				n.release(l)
				return 0, ErrClosed
			}
			return int64(rev), nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return 0, fmt.Errorf("cluster: taking match %s: %w", matchID, err)
		}
		expired, err := n.waitFree(ctx, key, poll)
		if err != nil {
			return 0, fmt.Errorf("cluster: waiting for match %s: %w", matchID, err)
		}
		if expired {
			// The lease ran out by the clock, or was renewed meanwhile,
			// or NATS has not removed it yet (it expires keys a quarter
			// of a second at a time, and clocks differ): look again, a
			// little later each time.
			poll = min(2*poll, n.ttl/4)
		}
	}
}

// waitFree waits until a match's key may be created: it was deleted,
// it expired, or it is this node's own (a former run's, or a release of
// this run still under way), which it deletes. It reports whether it
// stopped waiting because the lease should have expired by the clock,
// not less than poll from now.
func (n *Node) waitFree(ctx context.Context, key string, poll time.Duration) (bool, error) {
	// Every write of the key is also a message on its subject: listening
	// before looking leaves no gap in which a release could go unseen (NATS
	// handles a connection's subscription and request in order). It costs
	// the server one subscription, where a watcher would cost a consumer.
	writes := make(chan *nats.Msg, 8)
	sub, err := n.nc.ChanSubscribe("$KV."+n.bucket+"."+key, writes)
	if err != nil {
		return false, err
	}
	defer sub.Unsubscribe()
	e, err := n.kv.Get(ctx, key)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return false, nil
	case err != nil:
		return false, err
	case ownerOf(e.Value()) == n.name:
		// Ours: a former run of this node (its process is gone: two live
		// processes never share a name), or a release of this run that
		// has not landed yet. Delete it if nothing changed it since, and
		// create it again, with a new fence.
		err := n.kv.Delete(ctx, key, jetstream.LastRevision(e.Revision()))
		if err != nil && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return false, err
		}
		return false, nil
	}
	// Held by another node until its last renewal is a lease time old.
	t := time.NewTimer(max(time.Until(e.Created().Add(n.ttl)), poll))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-n.stop:
			return false, ErrClosed
		case <-t.C:
			return true, nil
		case m := <-writes:
			if op := m.Header.Get("KV-Operation"); op == "DEL" || op == "PURGE" {
				return false, nil // released
			}
			// A renewal: the lease lasts longer, which the next look
			// after the timer will see.
		}
	}
}

// MayOwn reports whether this node may take a match now: it holds its
// lease, or no other node holds a live one. It says no when it cannot
// tell (NATS unreachable).
func (n *Node) MayOwn(ctx context.Context, matchID string) bool {
	node, err := n.owner(ctx, matchID)
	return err == nil && (node == "" || node == n.name)
}

// Owner returns the node holding a match's lease; ok is false if no node
// holds it, or if NATS cannot be asked.
func (n *Node) Owner(ctx context.Context, matchID string) (node string, ok bool) {
	node, err := n.owner(ctx, matchID)
	return node, err == nil && node != ""
}

// owner returns the node holding a match's lease, "" if none does.
func (n *Node) owner(ctx context.Context, matchID string) (string, error) {
	if n.holding(matchID) != nil {
		return n.name, nil
	}
	e, err := n.kv.Get(ctx, leaseKey(matchID))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return "", nil
	case err != nil:
		return "", err
	}
	return ownerOf(e.Value()), nil
}

// Release gives a match's lease up, so that another node may take the
// match at once. It does nothing if this node does not hold the lease.
func (n *Node) Release(matchID string) {
	n.mu.Lock()
	l := n.leases[matchID]
	delete(n.leases, matchID)
	n.mu.Unlock()
	if l != nil {
		n.release(l)
	}
}

// release deletes a lease's key if it still holds this run's value. If
// that fails the lease simply expires.
func (n *Node) release(l *lease) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return
	}
	l.released = true
	ctx, cancel := context.WithTimeout(context.Background(), n.opTimeout())
	defer cancel()
	err := n.kv.Delete(ctx, l.key, jetstream.LastRevision(l.rev))
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		if rev, err := n.current(ctx, l); err == nil {
			n.kv.Delete(ctx, l.key, jetstream.LastRevision(rev))
		}
	}
}

// renewers bounds how many renewals are in flight at once.
const renewers = 256

// renew renews every lease three times per lease time until the node
// leaves the cluster, and more often while some renewals fail.
func (n *Node) renew() {
	defer close(n.done)
	t := time.NewTimer(n.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-n.stop:
			return
		case resume := <-n.paused:
			select {
			case <-resume:
			case <-n.stop:
				return
			}
		case <-t.C:
		}
		wait := n.ttl / 3
		if !n.renewAll() {
			wait = n.ttl / 20
		}
		t.Reset(wait)
	}
}

// renewAll renews every lease once; it reports false if some renewal
// failed for a reason that may pass (NATS unreachable).
func (n *Node) renewAll() bool {
	n.mu.Lock()
	held := make(map[string]*lease, len(n.leases))
	for id, l := range n.leases {
		held[id] = l
	}
	n.mu.Unlock()
	if len(held) == 0 {
		return true
	}
	connected := n.nc.IsConnected()
	ctx, cancel := context.WithTimeout(context.Background(), n.opTimeout())
	defer cancel()
	var failing atomic.Bool
	var wg sync.WaitGroup
	slots := make(chan struct{}, renewers)
	for id, l := range held {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if !n.renewOne(ctx, id, l, connected) {
				failing.Store(true)
			}
		}()
	}
	wg.Wait()
	return !failing.Load()
}

// renewOne renews a lease, or gives it up as lost: if its key changed
// hands, or if it could not be renewed and is about to expire. It reports
// false if the renewal failed but the lease lives on.
func (n *Node) renewOne(ctx context.Context, matchID string, l *lease, connected bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return true
	}
	err := errors.New("not connected to NATS")
	if connected {
		sent := time.Now()
		var rev uint64
		rev, err = n.kv.Update(ctx, l.key, n.value(), l.rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			rev, err = n.recover(ctx, l)
		}
		if err == nil {
			l.rev, l.renewed = rev, sent
			return true
		}
	}
	// The key changed hands, or the lease is about to run out: a tenth of
	// the lease time early, so that this node stops the match before any
	// other can take it.
	if errors.Is(err, errLost) || time.Since(l.renewed) >= n.ttl-n.ttl/10 {
		l.released = true
		n.mu.Lock()
		if n.leases[matchID] == l {
			delete(n.leases, matchID)
		}
		n.mu.Unlock()
		n.lost.push(matchID)
		return true
	}
	return false
}

var errLost = errors.New("the lease changed hands")

// current looks at a lease whose key has a revision this node did not
// expect: a renewal went through but its answer was lost. The lease is
// still this run's if the key holds this run's value, and current returns
// the key's revision; anything else (another node's value, no key) means
// the lease is lost.
func (n *Node) current(ctx context.Context, l *lease) (uint64, error) {
	e, err := n.kv.Get(ctx, l.key)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return 0, errLost
	case err != nil:
		return 0, err
	case string(e.Value()) != string(n.value()) || e.Revision() < l.rev:
		return 0, errLost
	}
	return e.Revision(), nil
}

// recover renews a lease from its key's current revision (see current).
func (n *Node) recover(ctx context.Context, l *lease) (uint64, error) {
	rev, err := n.current(ctx, l)
	if err != nil {
		return 0, err
	}
	rev, err = n.kv.Update(ctx, l.key, n.value(), rev)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return 0, errLost
	}
	return rev, err
}

// newRun names one run of a node's process.
func newRun() string { return fmt.Sprintf("%016x", rand.Uint64()) }

// lostQueue hands lost matches to the server in order without ever
// blocking the renewals, however slowly the server reads them.
type lostQueue struct {
	mu    sync.Mutex
	items []string
	wake  chan struct{}
	done  chan struct{}
	out   chan string
}

func newLostQueue() *lostQueue {
	q := &lostQueue{wake: make(chan struct{}, 1), done: make(chan struct{}), out: make(chan string)}
	go q.run()
	return q
}

func (q *lostQueue) push(id string) {
	q.mu.Lock()
	q.items = append(q.items, id)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *lostQueue) close() { close(q.done) }

func (q *lostQueue) run() {
	defer close(q.out)
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.mu.Unlock()
			select {
			case <-q.wake:
				continue
			case <-q.done:
				return
			}
		}
		id := q.items[0]
		q.items = q.items[1:]
		q.mu.Unlock()
		select {
		case q.out <- id:
		case <-q.done:
			return
		}
	}
}
