package server

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/tabulagames/tabula/cluster"
	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/store/storetest"
)

// testBus is a NATS server with JetStream in the test process, locked as
// `tabula serve --nats-embed` locks it: only the nodes named get in, each
// with its key.
type testBus struct {
	url  string
	keys string // the folder of the nodes' keys (NAME.nk)
}

// natsForTest starts a bus for the named nodes.
func natsForTest(t testing.TB, nodes ...string) *testBus {
	t.Helper()
	b := &testBus{keys: t.TempDir()}
	creds, _, err := cluster.NodeKeys(b.keys, nodes)
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := cluster.Embed(cluster.EmbedOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Nodes: creds})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	b.url = url
	return b
}

// args are the flags of `tabula serve` that join the bus as a node.
func (b *testBus) args(node string) []string {
	return []string{"--cluster", b.url, "--nats-nkey", filepath.Join(b.keys, node+".nk"), "--node", node}
}

// join joins the bus as a node, telling srv (once made) what the bus
// refuses or drops.
func (b *testBus) join(t testing.TB, node string, ttl time.Duration, srv *atomic.Pointer[Server]) *cluster.Node {
	t.Helper()
	seed, err := os.ReadFile(filepath.Join(b.keys, node+".nk"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := cluster.SeedOption([]byte(strings.TrimSpace(string(seed))))
	if err != nil {
		t.Fatal(err)
	}
	n, err := cluster.Join(context.Background(), cluster.Options{URL: b.url, Name: node, LeaseTTL: ttl, NATS: []nats.Option{key},
		OnError: func(subject string, err error) {
			if s := srv.Load(); s != nil {
				s.BusError(subject, err)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// newNode starts a server that joins a cluster on a shared store.
func newNode(t *testing.T, name string, bus *testBus, db string) *testServer {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var made atomic.Pointer[Server]
	n := bus.join(t, name, time.Second, &made)
	ts := newTestServer(t, Options{Store: st, Cluster: n, Node: name, Logger: testLogger()})
	made.Store(ts.srv)
	return ts
}

// Players connected to different nodes play one match, owned by one node;
// API requests to any node reach it.
func TestClusterNodesShareMatches(t *testing.T) {
	bus := natsForTest(t, "a", "b", "c")
	db := storetest.Postgres(t)
	a, b, c := newNode(t, "a", bus, db), newNode(t, "b", bus, db), newNode(t, "c", bus, db)
	tb := a.newTable("twenty-one", 2, nil, false, false, map[string]any{"public": true})
	// Ann joins through b, Bob through c, the owner starts through c.
	var ann, bob joined
	if st := b.call("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": "Ann", "invite": tb.Invite}, &ann); st != http.StatusOK {
		t.Fatalf("join on b: %d", st)
	}
	if st := c.call("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": "Bob", "invite": tb.Invite}, &bob); st != http.StatusOK {
		t.Fatalf("join on c: %d", st)
	}
	if st := c.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil); st != http.StatusOK {
		t.Fatalf("start on c: %d", st)
	}
	owner, ok := a.opt.Cluster.Owner(context.Background(), tb.ID)
	if !ok {
		t.Fatal("nobody owns the match")
	}
	annC, bobC := b.dial(tb.ID, q("token", ann.Token)), c.dial(tb.ID, q("token", bob.Token))
	watcher := a.dial(tb.ID, "")
	playToEnd(t, annC, bobC)
	watcher.waitFor("the end", func(stateIn) bool { return watcher.match.Status == "finished" })
	for _, n := range []*testServer{a, b, c} {
		if s := n.summary(tb.ID, ""); s.Status != "finished" {
			t.Errorf("node %s says the match is %s", n.opt.Node, s.Status)
		}
	}
	t.Logf("owned by %s", owner)
}

// When the owner leaves, another node takes the match; players connected
// to other nodes keep their sockets and play on.
func TestClusterOwnerLeaves(t *testing.T) {
	bus := natsForTest(t, "a", "b", "c")
	db := storetest.Postgres(t)
	nodes := map[string]*testServer{}
	for _, name := range []string{"a", "b", "c"} {
		nodes[name] = newNode(t, name, bus, db)
	}
	a := nodes["a"]
	tb := a.newTable("sixty", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"public": true})
	owner, _ := a.opt.Cluster.Owner(context.Background(), tb.ID)
	var others []*testServer
	for name, n := range nodes {
		if name != owner {
			others = append(others, n)
		}
	}
	t.Logf("owner %s; Ann on %s, Bob on %s", owner, others[0].opt.Node, others[1].opt.Node)
	annC := others[0].dial(tb.ID, q("token", tb.tokens[0]))
	bobC := others[1].dial(tb.ID, q("token", tb.tokens[1]))
	for i := 0; i < 10; i++ {
		for _, cl := range []*client{annC, bobC} {
			cl.drain()
			if len(cl.last.Legal) > 0 {
				if r := cl.command(cl.last.Legal[0].Data); r["type"] != "ack" {
					t.Fatalf("refused: %v", r)
				}
			}
		}
	}
	before := annC.last.Hash
	nodes[owner].close() // the owner leaves
	start := time.Now()
	for i := 0; i < 20 && os.Getenv("TABULA_TEST_LOG") != ""; i++ {
		o, ok := others[0].opt.Cluster.Owner(context.Background(), tb.ID)
		t.Logf("%v: owner %q %v", time.Since(start), o, ok)
		time.Sleep(150 * time.Millisecond)
	}
	playToEnd(t, annC, bobC)
	t.Logf("the match went on after the owner left (hash %s before), finished %v later", before, time.Since(start))
	if s := others[0].summary(tb.ID, ""); s.Status != "finished" {
		t.Fatalf("the match is %s (%s)", s.Status, s.Error)
	}
}
