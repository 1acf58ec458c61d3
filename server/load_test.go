package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
		BoardsDir: os.Getenv("TABULA_LOAD_BOARDS"), IdleAfter: time.Duration(envInt("TABULA_LOAD_IDLE", 30)) * time.Second,
		Limits: Limits{Creates: 1 << 30, CreatesAll: 1 << 30, Rate: 1 << 20, Burst: 1 << 20, Connections: 1 << 20,
			ConnsPerAddr: 1 << 20, Conns: 1 << 20, SocketsPerAddr: 1 << 20, Matches: 1 << 20}, AbandonAfter: -1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.Handle("/", srv.Handler())
	mux.Handle("/debug/pprof/", http.DefaultServeMux)
	mux.HandleFunc("/debug/stats", func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Query().Has("gc") {
			runtime.GC() // to read the heap that is live
		}
		st := readStats()
		srv.mu.Lock()
		st.Rooms = len(srv.rooms)
		for _, r := range srv.rooms {
			st.Online += int(r.online.Load())
		}
		srv.mu.Unlock()
		json.NewEncoder(w).Encode(st)
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

// procStats are a process's CPU time and allocations so far, its memory
// (the most resident so far, resident now, the live heap) and the
// matches it holds in memory.
type procStats struct {
	CPU     time.Duration
	Mallocs uint64
	Bytes   uint64
	RSS     uint64
	RSSNow  uint64
	Heap    uint64
	Rooms   int
	Online  int // connections to the matches in memory
}

func readStats() procStats {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := procStats{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), Mallocs: ms.Mallocs, Bytes: ms.TotalAlloc,
		RSS: uint64(ru.Maxrss) * 1024, Heap: ms.HeapInuse}
	if data, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(data)); len(f) > 1 {
			pages, _ := strconv.ParseUint(f[1], 10, 64)
			st.RSSNow = pages * uint64(os.Getpagesize())
		}
	}
	return st
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
	if idle := os.Getenv("TABULA_LOAD_IDLE"); idle != "" {
		cmd.Env = append(cmd.Env, "TABULA_LOAD_IDLE="+idle)
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

func (ls *loadServer) stats(tb testing.TB) procStats { return ls.statsOf(tb, "") }

// liveStats are the server's stats after a garbage collection.
func (ls *loadServer) liveStats(tb testing.TB) procStats { return ls.statsOf(tb, "?gc") }

func (ls *loadServer) statsOf(tb testing.TB, query string) procStats {
	res, err := http.Get(ls.base + "/debug/stats" + query)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	var s procStats
	json.NewDecoder(res.Body).Decode(&s)
	return s
}

// loadMatch is one match of the load: its players' connections (nil for
// a seat a bot plays).
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
	closed chan struct{} // the connection ended
	nextID int
}

// read takes the server's messages. The load generator shares the
// machine with the server, so it reads them cheaply: it looks for the
// few things it needs where the server writes them rather than decoding
// the messages.
func (p *loadPlayer) read() {
	for {
		_, data, err := p.ws.Read(context.Background())
		if err != nil {
			why := err.Error()
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				why = ce.Reason
			}
			closedBy.Store(why, true)
			closes.Add(1)
			close(p.closed)
			return
		}
		if data[0] == '[' {
			forEachElement(data, p.take)
			continue
		}
		p.take(data)
	}
}

// closes counts the load's connections that ended, and closedBy their
// reasons, to tell of connections the server closed.
var (
	closes   atomic.Int64
	closedBy sync.Map
	replaced atomic.Int64
)

var (
	ackPrefix      = []byte(`{"type":"ack"`)
	rejectedPrefix = []byte(`{"type":"rejected"`)
	statePrefix    = []byte(`{"type":"state"`)
	legalKey       = []byte(`"legal":[`)
	matchKey       = []byte(`,"match":{`)
	statusKey      = []byte(`"status":"`)
)

func (p *loadPlayer) take(data []byte) {
	switch {
	case bytes.HasPrefix(data, ackPrefix), bytes.HasPrefix(data, rejectedPrefix):
		p.acks <- struct{}{}
	case bytes.HasPrefix(data, statePrefix):
		// The legal commands come last but for the deadline, and the
		// summary (when it changed) first: see room.stateFor.
		var legal json.RawMessage
		if i := bytes.LastIndex(data, legalKey); i >= 0 {
			rest := data[i+len(legalKey):]
			if len(rest) > 0 && rest[0] == '{' {
				first := rest[:jsonValueEnd(rest)]
				if j := bytes.Index(first, []byte(`"data":`)); j >= 0 {
					v := first[j+len(`"data":`):]
					legal = json.RawMessage(bytes.Clone(v[:jsonValueEnd(v)]))
				}
			}
		}
		over := false
		if i := bytes.Index(data, matchKey); i >= 0 && i < 40 {
			if j := bytes.Index(data[i:], statusKey); j >= 0 {
				st := data[i+j+len(statusKey):]
				over = !bytes.HasPrefix(st, []byte(`playing"`)) && !bytes.HasPrefix(st, []byte(`lobby"`))
			}
		}
		p.mu.Lock()
		p.legal = legal
		if over {
			p.over = true
		}
		p.mu.Unlock()
		select {
		case p.moved <- struct{}{}:
		default:
		}
	}
}

// jsonValueEnd returns the length of the JSON value data begins with (an
// object, array, string or literal), by counting brackets outside
// strings.
func jsonValueEnd(data []byte) int {
	depth, inString, escaped := 0, false, false
	for i, c := range data {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
				if depth == 0 {
					return i + 1
				}
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case depth == 0 && (c == ',' || c == ' '):
			return i
		}
	}
	return len(data)
}

// forEachElement calls f with each element of a JSON array.
func forEachElement(data []byte, f func([]byte)) {
	rest := data[1:]
	for len(rest) > 0 && rest[0] != ']' {
		n := jsonValueEnd(rest)
		f(rest[:n])
		rest = rest[n:]
		if len(rest) > 0 && rest[0] == ',' {
			rest = rest[1:]
		}
	}
}

// newLoadMatches creates n matches of the board with two people each (or
// one person and the server's bot, if withBot), connected and started.
func newLoadMatches(tb testing.TB, base, board string, n int, withBot bool) []*loadMatch {
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
			out[i] = newLoadTable(tb, base, board, withBot)
		}()
	}
	wg.Wait()
	return out
}

func newLoadMatch(tb testing.TB, base, board string, playerBases ...string) *loadMatch {
	return newLoadTable(tb, base, board, false, playerBases...)
}

// loadClient makes the load's requests, keeping connections open for the
// next ones.
var loadClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

func loadPost(tb testing.TB, url string, body, out any) {
	tb.Helper()
	postJSONWith(tb, loadClient, url, body, out)
}

// newLoadTable creates a match of the board with two seats, connected and
// started: two people, or (withBot) one person and the server's bot.
func newLoadTable(tb testing.TB, base, board string, withBot bool, playerBases ...string) *loadMatch {
	var m created
	loadPost(tb, base+"/api/matches", map[string]any{"board": board, "seats": 2, "maxRounds": 10000}, &m)
	lm := &loadMatch{id: m.ID}
	names := []string{"Ann", "Bob"}
	if withBot {
		names = names[:1]
	}
	for i, name := range names {
		var j joined
		loadPost(tb, base+"/api/matches/"+m.ID+"/join", map[string]any{"name": name, "invite": m.Invite}, &j)
		pb := base
		if i < len(playerBases) {
			pb = playerBases[i]
		}
		url := strings.Replace(pb, "http", "ws", 1) + "/api/matches/" + m.ID + "/ws?token=" + j.Token
		// Not through loadClient: a connection it keeps for requests must
		// never be one that became a WebSocket.
		ws, _, err := websocket.Dial(context.Background(), url, nil)
		if err != nil {
			tb.Fatal(err)
		}
		ws.SetReadLimit(1 << 24)
		p := &loadPlayer{ws: ws, acks: make(chan struct{}, 16), moved: make(chan struct{}, 1), closed: make(chan struct{})}
		lm.players[i] = p
		go p.read()
	}
	if withBot {
		loadPost(tb, base+"/api/matches/"+m.ID+"/bots", map[string]any{"owner": m.Owner}, nil)
	}
	loadPost(tb, base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
	return lm
}

// next waits until one of the match's players may play, and returns them
// with their command; ok is false when the match is over.
func (lm *loadMatch) next() (*loadPlayer, json.RawMessage, bool) {
	for {
		for _, p := range lm.players {
			if p == nil {
				continue
			}
			p.mu.Lock()
			cmd, over := p.legal, p.over
			p.mu.Unlock()
			select {
			case <-p.closed:
				over = true // the server closed it (too slow a reader)
			default:
			}
			if over {
				return nil, nil, false
			}
			if cmd != nil {
				return p, cmd, true
			}
		}
		var second chan struct{}
		if lm.players[1] != nil {
			second = lm.players[1].moved
		}
		select {
		case <-lm.players[0].moved:
		case <-second:
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
	select {
	case <-p.acks:
	case <-p.closed:
	}
}

func (lm *loadMatch) close() {
	for _, p := range lm.players {
		if p != nil {
			p.ws.CloseNow()
		}
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
	for _, lm := range newLoadMatches(b, ls.base, board, cap(pool), false) {
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

// loadBoard is the board the load plays: TABULA_LOAD_BOARD if set (a
// board of the fixtures is dir-NAME), else the original game's default
// board when the shared fixtures are there (the server offers it from
// --boards as dir-defaultBoard), else the bundled default.
func loadBoard() string {
	if b := os.Getenv("TABULA_LOAD_BOARD"); b != "" {
		return b
	}
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
// server that falls behind is charged for the wait. A match that ends is
// replaced by a new one. It reports the latency percentiles, the server's
// CPU time per command and its memory every interval
// (TABULA_LOAD_INTERVAL seconds, default 60) over TABULA_LOAD_SECONDS
// (default 120). With TABULA_LOAD_BOT set, each match is one person
// against the server's bot, so one connection per match: a process may
// open at most 20,000 files here, which two connections for each of
// 10,000 matches would exceed.
//
//	TABULA_LOAD_RATE=2000 TABULA_LOAD_MATCHES=1000 go test ./server -run '^$' -bench OpenLoop -benchtime 1x -v
func BenchmarkServerOpenLoop(b *testing.B) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		b.Skip()
	}
	rate := envInt("TABULA_LOAD_RATE", 1000)
	n := envInt("TABULA_LOAD_MATCHES", 200)
	seconds := envInt("TABULA_LOAD_SECONDS", 120)
	interval := time.Duration(envInt("TABULA_LOAD_INTERVAL", 60)) * time.Second
	withBot := os.Getenv("TABULA_LOAD_BOT") != ""
	ls := startLoadServer(b)
	board := loadBoard()
	setup := time.Now()
	matches := newLoadMatches(b, ls.base, board, n, withBot)
	var wg sync.WaitGroup
	b.Logf("%d matches ready in %v", n, time.Since(setup).Round(time.Second))
	lat := &latencies{}
	var all latencies
	stop := time.Now().Add(time.Duration(seconds) * time.Second)
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
				if due.After(stop) || time.Now().After(stop) {
					// Commands left waiting at the end are not played;
					// the match stays connected to the end.
					time.Sleep(time.Until(stop))
					break
				}
				time.Sleep(time.Until(due))
				p, cmd, ok := lm.next()
				if !ok {
					lm.close()
					replaced.Add(1)
					lm = newLoadTable(b, ls.base, board, withBot)
					// Making the new match is the load's own time, not a
					// command's.
					due = time.Now()
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
	first := ls.stats(b)
	defer func() { b.Logf("%d matches ended and were replaced", replaced.Load()) }()
	prev := first
	for t := range tick.C {
		cnt, p50, p99, p999 := lat.take()
		s := ls.stats(b)
		cpu := 0.0
		if cnt > 0 {
			cpu = float64(s.CPU-prev.CPU) / float64(cnt) / 1e3
		}
		prev = s
		b.Logf("%3.0fs: %6d commands (%5.0f/s), latency p50 %v p99 %v p999 %v, server %.0f µs CPU/cmd, RSS %d MB (peak %d), heap %d MB, %d matches in memory, %d connections",
			t.Sub(start).Seconds(), cnt, float64(cnt)/interval.Seconds(), p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond),
			p999.Round(10*time.Microsecond), cpu, s.RSSNow>>20, s.RSS>>20, s.Heap>>20, s.Rooms, s.Online)
		if time.Now().After(stop) {
			break
		}
	}
	tick.Stop()
	wg.Wait()
	elapsed := time.Since(start)
	last := ls.stats(b)
	cnt, p50, p99, p999 := all.take()
	b.ReportMetric(float64(cnt)/elapsed.Seconds(), "cmds/s")
	b.ReportMetric(float64(p50.Microseconds())/1e3, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1e3, "p99-ms")
	b.ReportMetric(float64(p999.Microseconds())/1e3, "p999-ms")
	if cnt > 0 {
		b.ReportMetric(float64(last.CPU-first.CPU)/float64(cnt)/1e3, "server-µs/cmd")
	}
	b.ReportMetric(float64(last.RSS>>20), "server-peak-MB")
	if n := closes.Load(); n > 0 {
		var why []string
		closedBy.Range(func(k, _ any) bool { why = append(why, k.(string)); return len(why) < 5 })
		b.Logf("%d connections ended (the load's own included): %q", n, why)
	}
}

// BenchmarkServerMatchMemory creates matches that the server's bots play
// to the end, TABULA_LOAD_CONCURRENT (default 100) at a time, until
// TABULA_LOAD_TOTAL (default 10,000) have finished, and logs the server's
// memory after every thousand: a finished match nobody watches leaves
// memory after IdleAfter (here TABULA_LOAD_IDLE seconds, default 2), so
// the resident memory stays flat however many matches were played.
//
//	go test ./server -run '^$' -bench MatchMemory -benchtime 1x -v
func BenchmarkServerMatchMemory(b *testing.B) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		b.Skip()
	}
	if os.Getenv("TABULA_LOAD_IDLE") == "" {
		os.Setenv("TABULA_LOAD_IDLE", "2")
	}
	total := envInt("TABULA_LOAD_TOTAL", 10000)
	concurrent := envInt("TABULA_LOAD_CONCURRENT", 100)
	ls := startLoadServer(b)
	board := loadBoard()
	var finished, next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	report := make(chan int64, 16)
	for range concurrent {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(total) {
				var m created
				loadPost(b, ls.base+"/api/matches", map[string]any{"board": board, "seats": 2, "maxRounds": 10000}, &m)
				loadPost(b, ls.base+"/api/matches/"+m.ID+"/bots", map[string]any{"owner": m.Owner}, nil)
				loadPost(b, ls.base+"/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil)
				for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
					time.Sleep(wait)
					res, err := loadClient.Get(ls.base + "/api/matches/" + m.ID + "?invite=" + m.Invite)
					if err != nil {
						b.Error(err)
						return
					}
					var sum Summary
					json.NewDecoder(res.Body).Decode(&sum)
					res.Body.Close()
					if sum.Status == "finished" {
						break
					}
					if sum.Status != "playing" {
						b.Errorf("match %s is %q: %s", m.ID, sum.Status, sum.Error)
						return
					}
				}
				if n := finished.Add(1); n%1000 == 0 {
					report <- n
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(report)
	}()
	var last procStats
	for n := range report {
		last = ls.liveStats(b)
		b.Logf("%6d matches finished in %5.1fs: server RSS %4d MB, live heap %4d MB, %5d matches in memory",
			n, time.Since(start).Seconds(), last.RSSNow>>20, last.Heap>>20, last.Rooms)
	}
	time.Sleep(5 * time.Second) // the last ones leave memory
	end := ls.liveStats(b)
	b.Logf("5 s later: server RSS %d MB, live heap %d MB, %d matches in memory", end.RSSNow>>20, end.Heap>>20, end.Rooms)
	b.ReportMetric(float64(total)/time.Since(start).Seconds(), "matches/s")
	b.ReportMetric(float64(end.RSSNow>>20), "server-RSS-MB")
	b.ReportMetric(float64(last.RSS>>20), "server-peak-MB")
	b.ReportMetric(float64(end.Rooms), "matches-in-memory")
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
