package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/tabulagames/tabula/cluster"
)

// ttl is the lease time of the tests: short, so that takeovers are quick,
// and well above NATS's quarter of a second of expiry precision.
const ttl = time.Second

// The tests' NATS servers are locked as a real one is: they let in only
// the nodes they know, each with its own key.
var (
	testNodes = []string{"a", "b", "c", "x", "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"}
	testCreds []cluster.Credential
	testSeeds = map[string][]byte{}
)

func init() {
	for _, name := range testNodes {
		c, seed, err := cluster.NewCredential(name)
		if err != nil {
			panic(err)
		}
		testCreds = append(testCreds, c)
		testSeeds[name] = seed
	}
}

// embed starts a NATS server for one test.
func embed(t testing.TB) string {
	t.Helper()
	return embedWith(t, cluster.EmbedOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir()})
}

func embedWith(t testing.TB, opts cluster.EmbedOptions) string {
	t.Helper()
	if opts.Nodes == nil {
		opts.Nodes = testCreds
	}
	url, stop, err := cluster.Embed(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

// keyOf signs in as a test node.
func keyOf(t testing.TB, name string) nats.Option {
	t.Helper()
	opt, err := cluster.SeedOption(testSeeds[name])
	if err != nil {
		t.Fatal(err)
	}
	return opt
}

// withKey gives a node's options its key, if it is a test node.
func withKey(t testing.TB, opts cluster.Options) cluster.Options {
	if _, ok := testSeeds[opts.Name]; ok {
		opts.NATS = append([]nats.Option{keyOf(t, opts.Name)}, opts.NATS...)
	}
	return opts
}

// join adds a node to the test's cluster; it leaves at the test's end.
func join(t testing.TB, url, name string, opts ...nats.Option) *cluster.Node {
	t.Helper()
	return joinWith(t, cluster.Options{URL: url, Name: name, LeaseTTL: ttl, NATS: opts})
}

func joinWith(t testing.TB, opts cluster.Options) *cluster.Node {
	t.Helper()
	n, err := cluster.Join(context.Background(), withKey(t, opts))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func acquire(t testing.TB, n *cluster.Node, id string, within time.Duration) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	fence, err := n.Acquire(ctx, id)
	if err != nil {
		t.Fatalf("%s taking %s: %v", n.Name(), id, err)
	}
	return fence
}

// lost waits for a node to report a lost match.
func lost(t testing.TB, n *cluster.Node, within time.Duration) string {
	t.Helper()
	select {
	case id := <-n.Lost():
		return id
	case <-time.After(within):
		t.Fatalf("%s reported no lost lease within %v", n.Name(), within)
		return ""
	}
}

func noLoss(t testing.TB, n *cluster.Node) {
	t.Helper()
	select {
	case id := <-n.Lost():
		t.Fatalf("%s lost %s", n.Name(), id)
	default:
	}
}

// Of nodes racing for a match, exactly one owns it, every node agrees
// which, and the owner asking again gets the same fence.
func TestOneOwnerAmongNodes(t *testing.T) {
	for _, size := range []int{2, 3} {
		t.Run(fmt.Sprint(size, " nodes"), func(t *testing.T) {
			url := embed(t)
			var nodes []*cluster.Node
			for i := range size {
				nodes = append(nodes, join(t, url, fmt.Sprint("n", i)))
			}
			fences := make([]int64, size)
			errs := make([]error, size)
			var wg sync.WaitGroup
			for i, n := range nodes {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), ttl/2)
					defer cancel()
					fences[i], errs[i] = n.Acquire(ctx, "m1")
				})
			}
			wg.Wait()
			winner := -1
			for i, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Fatalf("%s and %s both own the match", nodes[winner].Name(), nodes[i].Name())
				case err == nil:
					winner = i
				case !errors.Is(err, context.DeadlineExceeded):
					t.Fatalf("%s: %v", nodes[i].Name(), err)
				}
			}
			if winner < 0 {
				t.Fatal("no node owns the match")
			}
			for _, n := range nodes {
				if owner, ok := n.Owner(context.Background(), "m1"); !ok || owner != nodes[winner].Name() {
					t.Errorf("%s sees the owner as %q, %v", n.Name(), owner, ok)
				}
				if may := n.MayOwn(context.Background(), "m1"); may != (n == nodes[winner]) {
					t.Errorf("%s may own the match: %v", n.Name(), may)
				}
			}
			if again := acquire(t, nodes[winner], "m1", time.Second); again != fences[winner] {
				t.Errorf("the owner's fence changed from %d to %d", fences[winner], again)
			}
			// Renewals keep the lease well past its time, and its fence.
			time.Sleep(2 * ttl)
			if again := acquire(t, nodes[winner], "m1", time.Second); again != fences[winner] {
				t.Errorf("after renewals the fence changed from %d to %d", fences[winner], again)
			}
			for _, n := range nodes {
				noLoss(t, n)
				if n != nodes[winner] && n.MayOwn(context.Background(), "m1") {
					t.Errorf("%s may own a renewed match", n.Name())
				}
			}
		})
	}
}

// A node that stops renewing (its process paused) loses its lease after
// the lease time; another takes the match with a higher fence; the
// paused node reports the loss as soon as it runs again.
func TestStalledOwnerIsTakenOver(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	fa := acquire(t, a, "m1", time.Second)
	resume := a.Stall()
	start := time.Now()
	fb := acquire(t, b, "m1", 3*ttl)
	took := time.Since(start)
	if fb <= fa {
		t.Errorf("the new owner's fence %d is not above the old one's %d", fb, fa)
	}
	if took < ttl/2 {
		t.Errorf("b took the match after %v, before the stalled lease could expire", took)
	}
	t.Logf("takeover after %v (lease time %v)", took, ttl)
	resume()
	if id := lost(t, a, ttl); id != "m1" {
		t.Errorf("a lost %q", id)
	}
	if a.MayOwn(context.Background(), "m1") {
		t.Error("the former owner may still own the match")
	}
	if owner, _ := a.Owner(context.Background(), "m1"); owner != "b" {
		t.Errorf("owner %q", owner)
	}
	// Its release after the loss does not touch b's lease.
	a.Release("m1")
	if owner, _ := b.Owner(context.Background(), "m1"); owner != "b" {
		t.Errorf("owner after the old owner's release: %q", owner)
	}
	noLoss(t, b)
}

// A lease taken from under a running owner (an operator deleting the key
// and another node taking the match) is reported lost at the owner's
// next renewal, long before its lease time would have run out.
func TestLeaseTakenFromUnderTheOwner(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	acquire(t, a, "m1", time.Second)
	// Another node's credentials may delete a lease's key, as any node
	// may take a match whose owner is gone.
	nc, err := nats.Connect(url, keyOf(t, "x"), nats.CustomInboxPrefix("_INBOX.x"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(context.Background(), cluster.DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	if err := kv.Delete(context.Background(), "m.m1"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	acquire(t, b, "m1", ttl/4)
	if id := lost(t, a, ttl/2); id != "m1" {
		t.Errorf("a lost %q", id)
	}
	t.Logf("reported lost after %v", time.Since(start))
	if owner, _ := a.Owner(context.Background(), "m1"); owner != "b" {
		t.Errorf("owner %q", owner)
	}
}

// A released match is free at once: a node waiting for it gets it without
// waiting for the lease time.
func TestReleaseHandsOverAtOnce(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	fa := acquire(t, a, "m1", time.Second)
	got := make(chan int64, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		if fence, err := b.Acquire(ctx, "m1"); err == nil {
			got <- fence
		}
	}()
	time.Sleep(ttl / 2) // b is waiting
	start := time.Now()
	a.Release("m1")
	select {
	case fb := <-got:
		if fb <= fa {
			t.Errorf("fence %d after %d", fb, fa)
		}
		t.Logf("handed over %v after the release", time.Since(start))
	case <-time.After(ttl / 3):
		t.Fatal("b did not get the released match at once")
	}
	noLoss(t, a)
}

// A hundred matches raced for by three nodes are each owned once, and
// the matches of a node that leaves are free for the others at once.
func TestManyMatchesSpreadOverNodes(t *testing.T) {
	url := embed(t)
	// A longer lease time: three hundred acquisitions at once must not
	// starve the renewals even on a small machine under the race
	// detector.
	const ttl = 5 * time.Second
	var nodes []*cluster.Node
	for _, name := range []string{"a", "b", "c"} {
		nodes = append(nodes, joinWith(t, cluster.Options{URL: url, Name: name, LeaseTTL: ttl}))
	}
	const matches = 100
	owners := make([][]string, matches)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range matches {
		for _, n := range nodes {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), ttl/2)
				defer cancel()
				if _, err := n.Acquire(ctx, fmt.Sprint("m", i)); err == nil {
					mu.Lock()
					owners[i] = append(owners[i], n.Name())
					mu.Unlock()
				} else if !errors.Is(err, context.DeadlineExceeded) {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	count := map[string]int{}
	for i, o := range owners {
		if len(o) != 1 {
			t.Fatalf("match m%d is owned by %v", i, o)
		}
		count[o[0]]++
		if owner, _ := nodes[(i+1)%3].Owner(context.Background(), fmt.Sprint("m", i)); owner != o[0] {
			t.Errorf("m%d: owner %q, acquired by %s", i, owner, o[0])
		}
	}
	t.Logf("matches per node: %v", count)

	leaving := nodes[0]
	leaving.Close()
	start := time.Now()
	for i, o := range owners {
		if o[0] == leaving.Name() {
			n := nodes[1+i%2]
			ctx, cancel := context.WithTimeout(context.Background(), ttl/4)
			_, err := n.Acquire(ctx, fmt.Sprint("m", i))
			cancel()
			if err != nil {
				owner, ok := n.Owner(context.Background(), fmt.Sprint("m", i))
				t.Fatalf("%s taking m%d of a node that left: %v (owner %q, %v, after %v)", n.Name(), i, err, owner, ok, time.Since(start))
			}
		}
	}
	t.Logf("%d matches of a leaving node taken over in %v", count[leaving.Name()], time.Since(start))
	for _, n := range nodes[1:] {
		noLoss(t, n)
	}
	if _, err := leaving.Acquire(context.Background(), "m0"); !errors.Is(err, cluster.ErrClosed) {
		t.Errorf("acquiring after leaving: %v", err)
	}
	// A node that leaves stops waiting for matches.
	acquire(t, nodes[2], "w", time.Second)
	waiting := make(chan error)
	go func() { _, err := nodes[1].Acquire(context.Background(), "w"); waiting <- err }()
	time.Sleep(50 * time.Millisecond)
	nodes[1].Close()
	select {
	case err := <-waiting:
		if !errors.Is(err, cluster.ErrClosed) {
			t.Errorf("waiting while leaving: %v", err)
		}
	case <-time.After(time.Second):
		t.Error("a node that left still waits for a match")
	}
}

// A node that crashed holding leases is taken over after the lease time;
// restarted under the same name, it takes its own leases back at once.
func TestCrashAndRestart(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	f1 := acquire(t, a, "m1", time.Second)
	f2 := acquire(t, a, "m2", time.Second)
	a.Crash()

	a2 := join(t, url, "a")
	if !a2.MayOwn(context.Background(), "m1") || b.MayOwn(context.Background(), "m1") {
		t.Error("a restarted node may own its former matches, no other node may yet")
	}
	start := time.Now()
	if f := acquire(t, a2, "m1", ttl/4); f <= f1 {
		t.Errorf("fence %d after %d", f, f1)
	}
	t.Logf("restarted node took its match back in %v", time.Since(start))

	start = time.Now()
	if f := acquire(t, b, "m2", 3*ttl); f <= f2 {
		t.Errorf("fence %d after %d", f, f2)
	}
	if took := time.Since(start); took < ttl/2 {
		t.Errorf("the crashed node's lease ended after %v only", took)
	} else {
		t.Logf("crashed node's match taken over after %v", took)
	}
}

// If NATS loses the bucket (a new NATS, a wiped disk), the fences of new
// owners still go up.
func TestFencesGoUpWhenTheBucketIsLost(t *testing.T) {
	url, stop, err := cluster.Embed(cluster.EmbedOptions{Addr: "127.0.0.1:0", Nodes: testCreds})
	if err != nil {
		t.Fatal(err)
	}
	a := join(t, url, "a")
	f1 := acquire(t, a, "m1", time.Second)
	a.Close()
	stop()

	b := join(t, embed(t), "b")
	if f2 := acquire(t, b, "m1", time.Second); f2 <= f1 {
		t.Errorf("fence %d from a new NATS, %d before", f2, f1)
	}
}

// Joining checks its options, and every node must agree on the lease
// time.
func TestJoinErrors(t *testing.T) {
	url := embed(t)
	join(t, url, "a")
	for _, c := range []struct {
		opts cluster.Options
		want string
	}{
		{cluster.Options{URL: url, Name: "a.b", LeaseTTL: ttl}, "node name"},
		{cluster.Options{URL: url, Name: "", LeaseTTL: ttl}, "node name"},
		{cluster.Options{URL: url, Name: "b", LeaseTTL: 100 * time.Millisecond}, "at least 300ms"},
		{cluster.Options{URL: url, Name: "b", LeaseTTL: 2 * ttl}, "same lease time"},
		{cluster.Options{URL: "nats://127.0.0.1:1", Name: "b"}, "connecting to NATS"},
	} {
		n, err := cluster.Join(context.Background(), withKey(t, c.opts))
		if err == nil {
			n.Close()
			t.Errorf("%+v: joined", c.opts)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opts, err, c.want)
		}
	}
	// Without a lease time a node takes the cluster's.
	n, err := cluster.Join(context.Background(), withKey(t, cluster.Options{URL: url, Name: "b"}))
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if n.LeaseTTL() != ttl {
		t.Errorf("lease time %v", n.LeaseTTL())
	}
}

// Match ids the store may hold that are not valid keys are leased all
// the same, each its own.
func TestAnyMatchID(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	for _, id := range []string{"a.b", "with space", "ünïcode", "m.x", "*", ">"} {
		acquire(t, a, id, time.Second)
		if b.MayOwn(context.Background(), id) {
			t.Errorf("%q: b may own a's match", id)
		}
	}
	if !b.MayOwn(context.Background(), "x") {
		t.Error("b may not own a free match")
	}
}

// proxy stands between a node and NATS, to cut the node off.
type proxy struct {
	ln     net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	cutOff bool
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	addr := strings.TrimPrefix(target, "nats://")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			if p.cutOff {
				p.mu.Unlock()
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				p.mu.Unlock()
				c.Close()
				continue
			}
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

func (p *proxy) url() string { return "nats://" + p.ln.Addr().String() }

// cut closes the connections through the proxy and refuses new ones.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutOff = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) heal() {
	p.mu.Lock()
	p.cutOff = false
	p.mu.Unlock()
}

// A node cut off from NATS gives its matches up by the clock, before
// another node can take them; others' requests to it fail at once; once
// back it answers again and may take matches.
func TestNodeCutOffFromNATS(t *testing.T) {
	url := embed(t)
	p := newProxy(t, url)
	a := join(t, p.url(), "a", nats.IgnoreDiscoveredServers())
	b := join(t, url, "b")
	if err := a.Handle("ping", func([]byte) ([]byte, error) { return []byte("pong"), nil }); err != nil {
		t.Fatal(err)
	}
	fa := acquire(t, a, "m1", time.Second)
	p.cut()

	aLost := make(chan time.Time, 1)
	go func() {
		select {
		case id := <-a.Lost():
			if id != "m1" {
				t.Errorf("a lost %q", id)
			}
		case <-time.After(2 * ttl):
			t.Error("a cut off from NATS kept its lease")
		}
		aLost <- time.Now()
	}()
	cutAt := time.Now()
	time.Sleep(50 * time.Millisecond) // NATS closes a's connection
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := b.Request(ctx, "a", "ping", nil)
	if !errors.Is(err, cluster.ErrNodeGone) {
		t.Errorf("asking a cut-off node: %v", err)
	} else if took := time.Since(start); took > ttl/4 {
		t.Errorf("asking a cut-off node failed after %v", took)
	}
	fb := acquire(t, b, "m1", 3*ttl)
	bTook := time.Now()
	if fb <= fa {
		t.Errorf("fence %d after %d", fb, fa)
	}
	lostAt := <-aLost
	t.Logf("a gave the match up %v after being cut off, b took it after %v", lostAt.Sub(cutAt), bTook.Sub(cutAt))
	if lostAt.After(bTook) {
		t.Errorf("a gave its match up %v after b took it", lostAt.Sub(bTook))
	}

	p.heal()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		out, err := b.Request(ctx, "a", "ping", nil)
		cancel()
		if err == nil && string(out) == "pong" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a does not answer after NATS is back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	acquire(t, a, "m2", time.Second)
	if a.MayOwn(context.Background(), "m1") {
		t.Error("a may own the match b took")
	}
}
