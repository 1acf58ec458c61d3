package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// serverProcess is a real `tabula serve` process.
type serverProcess struct {
	cmd    *exec.Cmd
	base   string
	stderr *lockedBuffer
	exited chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// buildTabula compiles the command line once per test process.
func buildTabula(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tabula-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "tabula")
		out, err := exec.Command("go", "build", "-o", builtBin, "../cmd/tabula").CombinedOutput()
		if err != nil {
			buildErr = err
			builtBin = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, builtBin)
	}
	return builtBin
}

var servingAt = regexp.MustCompile(`serving at (http://[^/ ]+)/`)

func startServer(t testing.TB, bin, db string, args ...string) *serverProcess {
	t.Helper()
	// Every test client comes from the loopback address: the caps per
	// address would be the whole server's.
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db,
		"--limit-conns-per-addr", "100000", "--limit-sockets-per-addr", "100000"}, args...)...)
	stdout, _ := cmd.StdoutPipe()
	p := &serverProcess{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
	})
	lines := bufio.NewScanner(stdout)
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if m := servingAt.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case p.base = <-found:
		return p
	case <-p.exited:
		t.Fatalf("the server exited: %s", p.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not start: %s", p.stderr.String())
	}
	return nil
}

func postJSON(t testing.TB, url string, body, out any) {
	t.Helper()
	postJSONWith(t, http.DefaultClient, url, body, out)
}

// postJSONWith posts body as JSON with the client, fails on an error
// status, and decodes the answer into out (if not nil).
func postJSONWith(t testing.TB, client *http.Client, url string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := client.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("POST %s: %d %s", url, res.StatusCode, data)
	}
	if out != nil {
		json.Unmarshal(data, out)
	}
}

func getSummary(t *testing.T, url string) Summary {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s Summary
	json.NewDecoder(res.Body).Decode(&s)
	return s
}

// SIGTERM while bots play: the server stops within five seconds, telling
// its clients, and loses no stored command; started again, it resumes the
// bots, which finish the match.
func TestSigtermDuringBotPlay(t *testing.T) {
	bin := buildTabula(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "tabula.db")
	// A Monopoly-like game in which nobody goes bankrupt: the bots play
	// on to the round limit, long enough to be stopped in the middle.
	boards := filepath.Join(dir, "boards")
	os.Mkdir(boards, 0o755)
	data, err := os.ReadFile("../examples/rulebook/monopoly.json")
	must(t, err)
	var rich map[string]any
	must(t, json.Unmarshal(data, &rich))
	rich["name"] = "Rich Monopoly"
	rich["players"].(map[string]any)["start"].(map[string]any)["score"] = 1_000_000_000
	for _, r := range rich["rules"].([]any) {
		if rule := r.(map[string]any); rule["preset"] == "TurnLimit" {
			rule["rounds"] = 100_000 // the match's own limit ends it
		}
	}
	data, _ = json.Marshal(rich)
	must(t, os.WriteFile(filepath.Join(boards, "rich.json"), data, 0o644))
	srv := startServer(t, bin, db, "--boards", boards)
	var m created
	postJSON(t, srv.base+"/api/matches", map[string]any{"board": "dir-rich", "seats": 6, "public": true, "maxRounds": 5000}, &m)
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/bots", map[string]any{"owner": m.Owner}, nil)
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	watcher := dial(t, srv.base, m.ID, "")
	time.Sleep(300 * time.Millisecond)
	before := getSummary(t, srv.base+"/api/matches/"+m.ID)
	if before.Status != "playing" {
		t.Fatalf("the bots should still be playing: %s after %d commands", before.Status, before.Commands)
	}
	start := time.Now()
	srv.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-srv.exited:
	case <-time.After(5 * time.Second):
		t.Fatalf("the server did not stop within 5 s of SIGTERM:\n%s", srv.stderr.String())
	}
	t.Logf("stopped %v after SIGTERM", time.Since(start))
	closed := false
	for range 10000 {
		if _, ok := <-watcher.msgs; !ok {
			closed = true
			break
		}
	}
	if !closed {
		t.Error("the watcher's connection was not closed")
	}
	again := startServer(t, bin, db)
	after := getSummary(t, again.base+"/api/matches/"+m.ID)
	if after.Commands < before.Commands {
		t.Fatalf("commands were lost: %d before SIGTERM, %d after", before.Commands, after.Commands)
	}
	deadline := time.Now().Add(60 * time.Second)
	for after.Status == "playing" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		after = getSummary(t, again.base+"/api/matches/"+m.ID)
	}
	if after.Status != "finished" {
		t.Fatalf("after the restart the match is %s (%s)", after.Status, after.Error)
	}
	t.Logf("%d commands before SIGTERM, %d at the end: %s", before.Commands, after.Commands, after.Result)
}

// SIGKILL right after a command was acknowledged: the next server goes on
// from that command, with the same state hash.
func TestKilledServerLosesNothingAcknowledged(t *testing.T) {
	bin := buildTabula(t)
	db := filepath.Join(t.TempDir(), "tabula.db")
	srv := startServer(t, bin, db)
	var m created
	postJSON(t, srv.base+"/api/matches", map[string]any{"board": "chutes-and-ladders", "seats": 2}, &m)
	var ann, bob joined
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/join", map[string]any{"name": "Ann", "invite": m.Invite}, &ann)
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/join", map[string]any{"name": "Bob", "invite": m.Invite}, &bob)
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	a := dial(t, srv.base, m.ID, q("token", ann.Token))
	b := dial(t, srv.base, m.ID, q("token", bob.Token))
	var hash string
	for moves := 0; moves < 9; {
		for _, c := range []*client{a, b} {
			c.drain()
			if len(c.last.Legal) > 0 {
				if r := c.command(c.last.Legal[0].Data); r["type"] != "ack" {
					t.Fatalf("refused: %v", r)
				}
				hash = c.last.Hash
				moves++
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.exited
	again := startServer(t, bin, db)
	c := dial(t, again.base, m.ID, q("token", ann.Token))
	c.waitFor("the rebuilt match", func(s stateIn) bool { return s.Hash != "" })
	if c.last.Hash != hash {
		t.Fatalf("after SIGKILL and a restart the state hash is %s, the last acknowledged command left %s", c.last.Hash, hash)
	}
}
