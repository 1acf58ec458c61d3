package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"
)

// serverProcess is a real `tabula serve` process.
type serverProcess struct {
	cmd  *exec.Cmd
	base string
}

// buildTabula compiles the command line once per test.
func buildTabula(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tabula")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/tabula").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var servingAt = regexp.MustCompile(`serving at (http://[^/ ]+)/`)

func startServer(t *testing.T, bin, db string) *serverProcess {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
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
	case base := <-found:
		return &serverProcess{cmd: cmd, base: base}
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not start: %s", stderr.String())
	}
	return nil
}

func postJSON(t *testing.T, url string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
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

// TestKilledServerLosesNothingAcknowledged kills a real server process with
// SIGKILL in the middle of a match, right after a command was
// acknowledged, and starts another on the same database: the match goes on
// from that command with the same state hash, to its end.
func TestKilledServerLosesNothingAcknowledged(t *testing.T) {
	start := time.Now()
	bin := buildTabula(t)
	t.Logf("built in %v", time.Since(start))
	db := filepath.Join(t.TempDir(), "tabula.db")
	srv := startServer(t, bin, db)
	t.Logf("started in %v", time.Since(start))

	var m created
	postJSON(t, srv.base+"/api/matches", map[string]any{"board": "default", "seats": 2}, &m)
	var ann, bob joined
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/join", map[string]any{"name": "Ann"}, &ann)
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/join", map[string]any{"name": "Bob"}, &bob)
	postJSON(t, srv.base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)

	play := func(base string, moves int) (string, int) {
		a, b := dial(t, base, m.ID, ann.Token), dial(t, base, m.ID, bob.Token)
		a.next("state")
		b.next("state")
		last := a
		for i := 0; i < moves; {
			a.drain()
			b.drain()
			switch {
			case a.playTurn():
				last = a
				i++
			case b.playTurn():
				last = b
				i++
			case a.last.View != nil && a.last.View.Over:
				return a.last.View.Hash, a.last.View.Commands
			}
		}
		// The last move was acknowledged, and its player was sent the
		// state before the acknowledgement: that state must survive.
		return last.last.View.Hash, last.last.View.Commands
	}
	hash, commands := play(srv.base, 9)
	t.Logf("played in %v", time.Since(start))
	if commands < 9 {
		t.Fatalf("only %d commands played", commands)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()

	again := startServer(t, bin, db)
	t.Logf("restarted in %v", time.Since(start))
	c := dial(t, again.base, m.ID, ann.Token)
	c.next("state")
	if c.last.View.Hash != hash || c.last.View.Commands != commands {
		t.Fatalf("after SIGKILL and restart: hash %s after %d commands, want %s after %d",
			c.last.View.Hash, c.last.View.Commands, hash, commands)
	}
	final, _ := play(again.base, 1000)
	t.Logf("finished in %v", time.Since(start))
	if final == "" {
		t.Fatal("the match did not go on")
	}
	var sum Summary
	res, err := http.Get(again.base + "/api/matches/" + m.ID)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&sum)
	res.Body.Close()
	if sum.Status != "finished" {
		t.Errorf("after restart the match ended as %q (%s)", sum.Status, sum.Error)
	}
}
