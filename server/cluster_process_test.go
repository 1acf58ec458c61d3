package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/rulebook"
	"github.com/tabulagames/tabula/store/storetest"
)

// startNodes starts `tabula serve` nodes of one cluster on a shared
// PostgreSQL store, with NATS in the test process.
func startNodes(t *testing.T, names ...string) map[string]*serverProcess {
	t.Helper()
	bin := buildTabula(t)
	db := storetest.Postgres(t)
	bus := natsForTest(t, names...)
	nodes := map[string]*serverProcess{}
	for _, name := range names {
		nodes[name] = startServer(t, bin, db, append(bus.args(name), "--lease", "2s", "--log-level", logLevel())...)
	}
	return nodes
}

// checkReplay replays a finished match's commands on a single node's game
// and checks every hash the cluster stored.
func checkReplay(t *testing.T, base, id string, def game.Definition) {
	t.Helper()
	var rp Replay
	res, err := http.Get(base + "/api/matches/" + id + "/replay")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(&rp); err != nil {
		t.Fatal(err)
	}
	if rp.Match.Status != "finished" {
		t.Fatalf("match %s is %s (%s)", id, rp.Match.Status, rp.Match.Error)
	}
	seed, _ := strconv.ParseUint(rp.Seed, 10, 64)
	m, err := def.Start(game.Setup{Players: rp.Players, Seed: seed, MaxRounds: rp.Match.MaxRounds})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range rp.Commands {
		if err := m.Apply(c.Player, c.Command); err != nil {
			t.Fatalf("match %s: command %d is refused on a single node: %v", id, i, err)
		}
		if m.Hash() != c.Hash {
			t.Fatalf("match %s: command %d gives hash %s on a single node, %s in the cluster", id, i, m.Hash(), c.Hash)
		}
	}
	if !m.Outcome().Over {
		t.Fatalf("match %s: the single node's replay is not over", id)
	}
}

func loadChutes(t *testing.T) game.Definition {
	t.Helper()
	src, err := game.Open("../examples/rulebook/chutes-and-ladders.json", game.Limits{})
	must(t, err)
	def, list := rulebook.NewPack().Load(src)
	if def == nil {
		t.Fatal(list)
	}
	return def
}

// Three nodes; 50 matches, each played by two people connected to the
// nodes that do not own it; the owner of half of them is killed with
// SIGKILL in the middle: every match finishes, and each stored hash is what
// a single node's replay of the commands gives.
func TestClusterSurvivesAKilledOwner(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping a cluster of processes in -short mode")
	}
	nodes := startNodes(t, "a", "b", "c")
	def := loadChutes(t)
	type table struct {
		id      string
		clients []*client
	}
	var tables []table
	for i := range envInt("TABULA_CLUSTER_MATCHES", 50) {
		// Matches created and started through a are owned by a, the
		// others by b.
		own := nodes["a"]
		players := []*serverProcess{nodes["b"], nodes["c"]}
		if i%2 == 1 {
			own = nodes["b"]
			players = []*serverProcess{nodes["c"], nodes["c"]}
		}
		var m created
		postJSON(t, own.base+"/api/matches", map[string]any{"board": "chutes-and-ladders", "seats": 2, "public": true}, &m)
		tb := table{id: m.ID}
		for j, name := range []string{"Ann", "Bob"} {
			var jn joined
			postJSON(t, own.base+"/api/matches/"+m.ID+"/join", map[string]any{"name": name, "invite": m.Invite}, &jn)
			tb.clients = append(tb.clients, dial(t, players[j].base, m.ID, q("token", jn.Token)))
		}
		postJSON(t, own.base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
		tables = append(tables, tb)
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(tables))
	for _, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					errs <- fmt.Sprint(p)
				}
			}()
			playFor(tb.clients, 2*time.Minute)
		}()
	}
	time.Sleep(400 * time.Millisecond)
	killed := time.Now()
	nodes["a"].cmd.Process.Signal(syscall.SIGKILL)
	<-nodes["a"].exited
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if t.Failed() {
		for _, n := range []string{"b", "c"} {
			t.Logf("node %s's log:\n%.5000s", n, nodes[n].stderr.String())
		}
	}
	t.Logf("every match finished %v after node a was killed", time.Since(killed).Round(time.Millisecond))
	for _, tb := range tables {
		checkReplay(t, nodes["c"].base, tb.id, def)
	}
}

// playFor plays a match with its clients (the first legal command each
// is offered) until it is over; it panics (with the reason) if it does not
// end in time.
func playFor(clients []*client, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		played := false
		for _, c := range clients {
			c.drain()
			if c.match.Status == "finished" {
				return
			}
			if len(c.last.Legal) > 0 {
				c.command(c.last.Legal[0].Data)
				played = true
			}
		}
		if !played {
			time.Sleep(20 * time.Millisecond)
		}
	}
	var b strings.Builder
	for _, c := range clients {
		c.drain()
		fmt.Fprintf(&b, "\n  hash %s legal %d last %.200s", c.last.Hash, len(c.last.Legal), c.raw[len(c.raw)-1])
	}
	panic("a match did not end in time: " + clients[0].match.ID + " " + clients[0].match.Status + b.String())
}

// An owner frozen (SIGSTOP) past its lease loses its match to another node;
// the players go on; when it wakes up, the command it was sent while frozen
// is refused by the store, which the new owner fenced.
func TestClusterFrozenOwnerIsFenced(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping a cluster of processes in -short mode")
	}
	nodes := startNodes(t, "a", "b", "c")
	def := loadChutes(t)
	var m created
	postJSON(t, nodes["a"].base+"/api/matches", map[string]any{"board": "chutes-and-ladders", "seats": 2, "public": true}, &m)
	var ann, bob joined
	postJSON(t, nodes["a"].base+"/api/matches/"+m.ID+"/join", map[string]any{"name": "Ann", "invite": m.Invite}, &ann)
	postJSON(t, nodes["a"].base+"/api/matches/"+m.ID+"/join", map[string]any{"name": "Bob", "invite": m.Invite}, &bob)
	postJSON(t, nodes["a"].base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	a, b := dial(t, nodes["b"].base, m.ID, q("token", ann.Token)), dial(t, nodes["c"].base, m.ID, q("token", bob.Token))
	// Ann also has a tab open on a, the owner.
	annOnA := dial(t, nodes["a"].base, m.ID, q("token", ann.Token))
	for _, c := range []*client{a, b, annOnA} {
		c.waitFor("the first state", func(s stateIn) bool { return s.View != nil })
	}
	turn := annOnA
	if len(turn.last.Legal) == 0 {
		// Bob plays first: Ann waits for her turn in her tab on a.
		b.command(b.last.Legal[0].Data)
		annOnA.waitFor("Ann's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	}
	nodes["a"].cmd.Process.Signal(syscall.SIGSTOP)
	frozen := time.Now()
	// In her tab on a, Ann plays: a is frozen and reads it only when it
	// wakes up, long after another node took the match.
	annOnA.send(map[string]any{"type": "command", "id": 99, "data": annOnA.last.Legal[0].Data})
	// The players play on: their first command waits for a's lease to
	// run out, then goes to the match's next owner.
	playFor([]*client{a, b}, 2*time.Minute)
	t.Logf("the match finished %v after its owner froze", time.Since(frozen).Round(time.Millisecond))
	nodes["a"].cmd.Process.Signal(syscall.SIGCONT)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(nodes["a"].stderr.String(), "another node owns this match now") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(nodes["a"].stderr.String(), "another node owns this match now") {
		t.Errorf("the frozen owner's write was not refused; its log:\n%s", nodes["a"].stderr.String())
	}
	checkReplay(t, nodes["b"].base, m.ID, def)
	_ = context.Background
}

// logLevel is the nodes' log level: TABULA_TEST_LOG's, or warn.
func logLevel() string {
	if l := os.Getenv("TABULA_TEST_LOG"); l == "info" || l == "debug" {
		return l
	}
	return "warn"
}

// The locked set-up of docs/scaling.md, from the command line: the first
// node embeds NATS and makes the other nodes' keys; a node started with
// its key joins and serves the first node's matches; one without a key
// (or with another node's) does not start.
func TestLockedClusterFromTheCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping a cluster of processes in -short mode")
	}
	bin := buildTabula(t)
	db := storetest.Postgres(t)
	dir := t.TempDir()
	web1 := startServer(t, bin, db, "--nats-embed", "127.0.0.1:0", "--nats-dir", dir, "--nats-nodes", "web2", "--node", "web1", "--lease", "2s")
	m := regexp.MustCompile(`msg="embedded NATS server" url=(\S+)`).FindStringSubmatch(web1.stderr.String())
	if m == nil {
		t.Fatalf("the embedded server's URL is not logged: %s", web1.stderr.String())
	}
	url := m[1]
	key := filepath.Join(dir, "keys", "web2.nk")
	if info, err := os.Stat(key); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("web2's key: %v", err)
	}
	web2 := startServer(t, bin, db, "--cluster", url, "--nats-nkey", key, "--node", "web2", "--lease", "2s")
	var tb created
	postJSON(t, web1.base+"/api/matches", map[string]any{"board": "chutes-and-ladders", "seats": 2}, &tb)
	var j joined
	postJSON(t, web2.base+"/api/matches/"+tb.ID+"/join", map[string]any{"name": "Ann", "invite": tb.Invite}, &j)
	if j.Token == "" {
		t.Fatal("joining through web2 gave no token")
	}
	for _, args := range [][]string{
		{"--cluster", url, "--node", "web3"},
		{"--cluster", url, "--node", "web3", "--nats-nkey", key},
	} {
		cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--lease", "2s"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "--cluster") {
			t.Errorf("%v: started, or failed without saying why: %v\n%s", args, err, out)
		}
	}
}
