package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/games/party"
)

// loadBoard is a ring of twelve spaces that never ends, with prompts for
// everybody and for the current player on the way, so a load test's
// matches run as long as it needs: a mix of rolls and acknowledgements.
func loadBoard() string {
	var spaces []string
	for i := 1; i <= 12; i++ {
		events := ""
		switch i % 4 {
		case 1:
			events = `{"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "{{CURRENT_PLAYER_NAME}}: {{RANDOM_WORD}}!"}}}`
		case 3:
			events = `{"trigger": {"type": "ON_ENTER"}, "action": {"type": "CHANGE_STAT", "payload": {"statId": "drinks", "delta": 1}}}`
		}
		spaces = append(spaces, fmt.Sprintf(`{"id": %d, "name": "S%d", "visualDetails": {"x": %d, "y": 0},
			"connections": [{"targetId": %d}], "events": [%s]}`, i, i, i*80, i%12+1, events))
	}
	return `{"metadata": {"name": "Load ring"}, "spaces": [` + strings.Join(spaces, ",") + `]}`
}

// loadClient plays one seat as fast as the server lets it: whenever its
// view asks it for something it sends the command, and it times each
// command from sending to the acknowledgement.
type loadClient struct {
	ws      *websocket.Conn
	pending atomic.Int64 // the send time of the command in flight, or 0
	id      int
}

// loadView is the part of a view a load client reads.
type loadView struct {
	YourWaits []party.Wait `json:"yourWaits"`
}

// BenchmarkServe drives N concurrent matches, two bots each, over loopback
// WebSockets against one server with its SQLite store, and reports
// commands per second and the p50 and p99 latency of a command (sent →
// stored → acknowledged). b.N is the total number of commands; run it with
// a fixed count, e.g. -benchtime 20000x.
func BenchmarkServe(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("matches=%d", n), func(b *testing.B) { benchServe(b, n) })
	}
}

func benchServe(b *testing.B, matches int) {
	srv, err := New(Options{DB: filepath.Join(b.TempDir(), "load.db")})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() { hs.CloseClientConnections(); hs.Close(); srv.Close() }()
	post := func(path string, body, out any) {
		data, _ := json.Marshal(body)
		res, err := http.Post(hs.URL+path, "application/json", strings.NewReader(string(data)))
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			b.Fatalf("POST %s: %d", path, res.StatusCode)
		}
		if out != nil {
			json.NewDecoder(res.Body).Decode(out)
		}
	}
	var up struct{ Board BoardInfo }
	post("/api/boards?name=ring.json", json.RawMessage(loadBoard()), &up)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		done      atomic.Int64
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
		wg        sync.WaitGroup
		target    = int64(b.N)
		finished  = make(chan struct{})
		once      sync.Once
	)
	record := func(d time.Duration) {
		mu.Lock()
		latencies = append(latencies, d)
		mu.Unlock()
		if done.Add(1) >= target {
			once.Do(func() { close(finished) })
		}
	}
	setupStart := time.Now()
	var clients []*loadClient
	var starts []func()
	for range matches {
		var m created
		post("/api/matches", map[string]any{"board": up.Board.ID, "seats": 2, "maxRounds": 10000}, &m)
		for _, name := range []string{"A", "B"} {
			var j joined
			post("/api/matches/"+m.ID+"/join", map[string]any{"name": name}, &j)
			url := strings.Replace(hs.URL, "http", "ws", 1) + "/api/matches/" + m.ID + "/ws?token=" + j.Token
			ws, _, err := websocket.Dial(ctx, url, nil)
			if err != nil {
				b.Fatal(err)
			}
			ws.SetReadLimit(16 << 20)
			clients = append(clients, &loadClient{ws: ws})
		}
		id, owner := m.ID, m.Owner
		starts = append(starts, func() { post("/api/matches/"+id+"/start", map[string]any{"owner": owner}, nil) })
	}
	// Every match starts, and waits for its first roll; the clients only
	// begin to read and play once the clock runs.
	for _, start := range starts {
		start()
	}
	b.Logf("set up %d matches in %v", matches, time.Since(setupStart))
	b.ResetTimer()
	begin := time.Now()
	for _, c := range clients {
		wg.Go(func() { c.play(ctx, record) })
	}
	select {
	case <-finished:
	case <-time.After(10 * time.Minute):
		b.Fatalf("only %d of %d commands in ten minutes", done.Load(), target)
	}
	elapsed := time.Since(begin)
	b.StopTimer()
	cancel()
	for _, c := range clients {
		c.ws.CloseNow()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		if len(latencies) == 0 {
			return 0
		}
		return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(done.Load())/elapsed.Seconds(), "cmds/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// play reads the client's messages and answers every request of its view.
// The server sends the new state before the acknowledgement, so the state
// seen last is acted on once the command in flight is acknowledged.
func (c *loadClient) play(ctx context.Context, record func(time.Duration)) {
	var latest *loadView
	act := func() bool {
		if latest == nil || len(latest.YourWaits) == 0 || c.pending.Load() != 0 {
			return true
		}
		w := latest.YourWaits[0]
		latest = nil
		c.id++
		cmd := map[string]any{"type": "command", "id": c.id, "kind": w.Kind}
		if w.Kind == party.KindChoosePath {
			cmd["value"] = 0
		}
		out, _ := json.Marshal(cmd)
		c.pending.Store(time.Now().UnixNano())
		return c.ws.Write(ctx, websocket.MessageText, out) == nil
	}
	for {
		_, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		var msg struct {
			Type string    `json:"type"`
			View *loadView `json:"view"`
		}
		if err := json.Unmarshal(data, &msg); err != nil {
			return
		}
		switch msg.Type {
		case "ack", "rejected":
			if t := c.pending.Swap(0); t != 0 && msg.Type == "ack" {
				record(time.Duration(time.Now().UnixNano() - t))
			}
		case "state":
			latest = msg.View
		}
		if !act() {
			return
		}
	}
}
