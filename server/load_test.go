package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	_ "net/http/pprof" // the load server's profiles, at /debug/pprof/
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/examples"
)

// The load benchmarks drive a real server, in a process of its own, over
// loopback WebSockets: many matches of the original default board, two
// people each, every command sent by a client and acknowledged by the
// server once stored. The server runs in this test binary started again
// with TABULA_LOAD_SERVER set (see runLoadServer), so that its CPU time
// and allocations are its own.

// runLoadServer serves until its standard input closes, printing its
// address; it also answers /debug/stats (its CPU time and allocations so
// far) and /debug/pprof/.
func runLoadServer() {
	db := os.Getenv("TABULA_LOAD_DB")
	srv, err := New(Options{DB: db, Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"},
		BoardsDir: os.Getenv("TABULA_LOAD_BOARDS"),
		Limits:    Limits{Creates: 1 << 30, Rate: 1 << 20, Burst: 1 << 20, Connections: 1 << 20}, AbandonAfter: -1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.Handle("/", srv.Handler())
	mux.Handle("/debug/pprof/", http.DefaultServeMux)
	mux.HandleFunc("/debug/stats", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(readStats())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("ADDR %s\n", ln.Addr())
	go http.Serve(ln, mux)
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	os.Exit(0)
}

// procStats are a process's CPU time and allocations so far.
type procStats struct {
	CPU     time.Duration
	Mallocs uint64
	Bytes   uint64
	RSS     uint64
}

func readStats() procStats {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return procStats{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), Mallocs: ms.Mallocs, Bytes: ms.TotalAlloc,
		RSS: uint64(ru.Maxrss) * 1024}
}

// loadServer is a server process under load.
type loadServer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	base  string
}

func startLoadServer(tb testing.TB) *loadServer {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TABULA_LOAD_SERVER=1", "TABULA_LOAD_DB="+filepath.Join(tb.TempDir(), "load.db"))
	if dir := sharedFixture("v1"); dir != "" {
		os.Setenv("TABULA_LOAD_BOARDS", dir)
		cmd.Env = append(cmd.Env, "TABULA_LOAD_BOARDS="+dir)
	}
	if cpus := os.Getenv("TABULA_LOAD_CPUS"); cpus != "" {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+cpus)
	}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "ADDR ") {
		tb.Fatalf("the load server did not start: %q", sc.Text())
	}
	ls := &loadServer{cmd: cmd, stdin: stdin, base: "http://" + strings.TrimPrefix(sc.Text(), "ADDR ")}
	tb.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	return ls
}

// profile saves the server's CPU profile of the next seconds to the file
// TABULA_LOAD_PROFILE names (TABULA_LOAD_PROFILE_SECONDS, default 5), if
// set; the channel closes when it is saved.
func (ls *loadServer) profile(tb testing.TB) chan struct{} {
	done := make(chan struct{})
	path := os.Getenv("TABULA_LOAD_PROFILE")
	if path == "" {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		res, err := http.Get(ls.base + "/debug/pprof/profile?seconds=" + strconv.Itoa(envInt("TABULA_LOAD_PROFILE_SECONDS", 5)))
		if err != nil {
			tb.Error(err)
			return
		}
		defer res.Body.Close()
		f, err := os.Create(path)
		if err != nil {
			tb.Error(err)
			return
		}
		io.Copy(f, res.Body)
		f.Close()
	}()
	return done
}

// saveAllocs saves the server's allocation profile so far to path, if the
// path is set (not ".before" alone).
func (ls *loadServer) saveAllocs(path string) {
	if path == "" || path == ".before" {
		return
	}
	res, err := http.Get(ls.base + "/debug/pprof/allocs")
	if err != nil {
		return
	}
	defer res.Body.Close()
	f, err := os.Create(path)
	if err != nil {
		return
	}
	io.Copy(f, res.Body)
	f.Close()
}

func (ls *loadServer) stats(tb testing.TB) procStats {
	res, err := http.Get(ls.base + "/debug/stats")
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	var s procStats
	json.NewDecoder(res.Body).Decode(&s)
	return s
}

// loadMatch is one match of the load: its two players' connections.
type loadMatch struct {
	id      string
	players [2]*loadPlayer
}

// loadPlayer is one player's connection, reading its messages.
type loadPlayer struct {
	ws     *websocket.Conn
	mu     sync.Mutex
	legal  json.RawMessage // the first legal command, or nil
	over   bool
	acks   chan struct{}
	moved  chan struct{} // a state arrived
	nextID int
}

func (p *loadPlayer) read() {
	for {
		_, data, err := p.ws.Read(context.Background())
		if err != nil {
			close(p.moved)
			return
		}
		if data[0] == '[' {
			var msgs []json.RawMessage
			json.Unmarshal(data, &msgs)
			for _, m := range msgs {
				p.take(m)
			}
			continue
		}
		p.take(data)
	}
}

func (p *loadPlayer) take(data []byte) {
	var head struct {
		Type  string `json:"type"`
		Legal []struct {
			Data json.RawMessage `json:"data"`
		} `json:"legal"`
		Match *struct {
			Status string `json:"status"`
		} `json:"match"`
		Reason string `json:"reason"`
	}
	json.Unmarshal(data, &head)
	switch head.Type {
	case "ack", "rejected":
		p.acks <- struct{}{}
	case "state":
		p.mu.Lock()
		p.legal = nil
		if len(head.Legal) > 0 {
			p.legal = head.Legal[0].Data
		}
		if head.Match != nil && head.Match.Status != "playing" && head.Match.Status != "lobby" {
			p.over = true
		}
		p.mu.Unlock()
		select {
		case p.moved <- struct{}{}:
		default:
		}
	}
}

// newLoadMatches creates n matches of the board with two people each,
// connected and started.
func newLoadMatches(tb testing.TB, base, board string, n int) []*loadMatch {
	tb.Helper()
	out := make([]*loadMatch, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	for i := range out {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = newLoadMatch(tb, base, board)
		}()
	}
	wg.Wait()
	return out
}

func newLoadMatch(tb testing.TB, base, board string, playerBases ...string) *loadMatch {
	var m created
	postJSON(tb, base+"/api/matches", map[string]any{"board": board, "seats": 2, "maxRounds": 10000}, &m)
	lm := &loadMatch{id: m.ID}
	for i, name := range []string{"Ann", "Bob"} {
		var j joined
		postJSON(tb, base+"/api/matches/"+m.ID+"/join", map[string]any{"name": name, "invite": m.Invite}, &j)
		pb := base
		if i < len(playerBases) {
			pb = playerBases[i]
		}
		url := strings.Replace(pb, "http", "ws", 1) + "/api/matches/" + m.ID + "/ws?token=" + j.Token
		ws, _, err := websocket.Dial(context.Background(), url, nil)
		if err != nil {
			tb.Fatal(err)
		}
		ws.SetReadLimit(1 << 24)
		p := &loadPlayer{ws: ws, acks: make(chan struct{}, 16), moved: make(chan struct{}, 1)}
		lm.players[i] = p
		go p.read()
	}
	postJSON(tb, base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	return lm
}

// next waits until one of the match's players may play, and returns them
// with their command; ok is false when the match is over.
func (lm *loadMatch) next() (*loadPlayer, json.RawMessage, bool) {
	for {
		for _, p := range lm.players {
			p.mu.Lock()
			cmd, over := p.legal, p.over
			p.mu.Unlock()
			if over {
				return nil, nil, false
			}
			if cmd != nil {
				return p, cmd, true
			}
		}
		select {
		case <-lm.players[0].moved:
		case <-lm.players[1].moved:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// play sends a command and waits for its acknowledgement.
func (p *loadPlayer) play(cmd json.RawMessage) {
	p.mu.Lock()
	p.legal = nil // until the next state says what is legal
	p.nextID++
	id := p.nextID
	p.mu.Unlock()
	msg := append(append([]byte(`{"type":"command","id":`+strconv.Itoa(id)+`,"data":`), cmd...), '}')
	p.ws.Write(context.Background(), websocket.MessageText, msg)
	<-p.acks
}

func (lm *loadMatch) close() {
	for _, p := range lm.players {
		p.ws.CloseNow()
	}
}

// BenchmarkServerCommand measures what one command costs the server
// (closed loop: each match's players play as soon as they may): its CPU
// time and allocations per command, with commands of many matches at
// once. The matches are of the original default board; a match that ends
// is replaced by a new one, and its setup is not counted.
//
//	go test ./server -run '^$' -bench ServerCommand -benchtime 20000x
func BenchmarkServerCommand(b *testing.B) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		b.Skip()
	}
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("matches=%d", n), func(b *testing.B) {
			benchCommands(b, n)
		})
	}
}

func benchCommands(b *testing.B, n int) {
	ls := startLoadServer(b)
	board := loadBoard()
	// Enough matches for every command, made before the clock starts: a
	// game of the board lasts at least 14 commands.
	pool := make(chan *loadMatch, n+b.N/14+n)
	for _, lm := range newLoadMatches(b, ls.base, board, cap(pool)) {
		pool <- lm
	}
	var done atomic.Int64
	total := int64(b.N)
	// The allocations of the setup are in the profile saved before: the
	// measured ones are the difference (pprof -diff_base).
	ls.saveAllocs(os.Getenv("TABULA_LOAD_ALLOCS") + ".before")
	b.ResetTimer()
	before := ls.stats(b)
	start := time.Now()
	profiled := ls.profile(b)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lm := <-pool
			for done.Load() < total {
				p, cmd, ok := lm.next()
				if !ok {
					lm.close()
					select {
					case lm = <-pool:
						continue
					default:
						return
					}
				}
				p.play(cmd)
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	after := ls.stats(b)
	b.StopTimer()
	<-profiled
	ls.saveAllocs(os.Getenv("TABULA_LOAD_ALLOCS"))
	cmds := float64(done.Load())
	b.ReportMetric(float64(after.CPU-before.CPU)/cmds/1e3, "server-µs/cmd")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/cmds, "server-allocs/cmd")
	b.ReportMetric(cmds/elapsed.Seconds(), "cmds/s")
}

// loadBoard is the board the load plays: the original game's default
// board when the shared fixtures are there (the server offers it from
// --boards as dir-defaultBoard), else the bundled default.
func loadBoard() string {
	if os.Getenv("TABULA_LOAD_BOARDS") != "" {
		return "dir-defaultBoard"
	}
	return "default"
}

// latencies collects acknowledgement latencies.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// take returns the collected latencies' p50, p99 and p999, and empties it.
func (l *latencies) take() (n int, p50, p99, p999 time.Duration) {
	l.mu.Lock()
	d := l.d
	l.d = nil
	l.mu.Unlock()
	if len(d) == 0 {
		return 0, 0, 0, 0
	}
	slices.Sort(d)
	q := func(f float64) time.Duration { return d[min(len(d)-1, int(math.Ceil(f*float64(len(d))))-1)] }
	return len(d), q(0.5), q(0.99), q(0.999)
}

// BenchmarkServerOpenLoop plays commands at a set rate, whether or not
// earlier ones were answered, as real players do: each match's next
// command is due at random times (a Poisson process of rate/matches), and
// its latency runs from when it was due to its acknowledgement, so a
// server that falls behind is charged for the wait. It reports the
// latency percentiles and the server's memory, every interval, over
// TABULA_LOAD_SECONDS (default 30):
//
//	TABULA_LOAD_RATE=2000 TABULA_LOAD_MATCHES=1000 go test ./server -run '^$' -bench OpenLoop -benchtime 1x -v
func BenchmarkServerOpenLoop(b *testing.B) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		b.Skip()
	}
	rate := envInt("TABULA_LOAD_RATE", 1000)
	n := envInt("TABULA_LOAD_MATCHES", 200)
	seconds := envInt("TABULA_LOAD_SECONDS", 30)
	interval := time.Duration(envInt("TABULA_LOAD_INTERVAL", 10)) * time.Second
	ls := startLoadServer(b)
	matches := newLoadMatches(b, ls.base, loadBoard(), n)
	lat := &latencies{}
	var all latencies
	stop := time.Now().Add(time.Duration(seconds) * time.Second)
	var wg sync.WaitGroup
	perMatch := float64(rate) / float64(n)
	for i := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			lm := matches[i]
			due := time.Now()
			for {
				due = due.Add(time.Duration(r.ExpFloat64() / perMatch * float64(time.Second)))
				if due.After(stop) {
					break
				}
				time.Sleep(time.Until(due))
				p, cmd, ok := lm.next()
				if !ok {
					lm.close()
					lm = newLoadMatch(b, ls.base, loadBoard())
					continue
				}
				p.play(cmd)
				d := time.Since(due)
				lat.add(d)
				all.add(d)
			}
			lm.close()
		}()
	}
	tick := time.NewTicker(interval)
	start := time.Now()
	for t := range tick.C {
		cnt, p50, p99, p999 := lat.take()
		s := ls.stats(b)
		b.Logf("%3.0fs: %6d commands (%5.0f/s), latency p50 %v p99 %v p999 %v, server RSS %d MB",
			t.Sub(start).Seconds(), cnt, float64(cnt)/interval.Seconds(), p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond),
			p999.Round(10*time.Microsecond), s.RSS>>20)
		if time.Now().After(stop) {
			break
		}
	}
	tick.Stop()
	wg.Wait()
	cnt, p50, p99, p999 := all.take()
	b.ReportMetric(float64(cnt)/time.Since(start).Seconds(), "cmds/s")
	b.ReportMetric(float64(p50.Microseconds())/1e3, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1e3, "p99-ms")
	b.ReportMetric(float64(p999.Microseconds())/1e3, "p999-ms")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// sharedFixture is a folder of the original game's fixtures, or "".
func sharedFixture(name string) string {
	dir := os.Getenv("TABULA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	p, err := filepath.Abs(filepath.Join(dir, "fixtures", "customjack", name))
	if err != nil {
		return ""
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}
