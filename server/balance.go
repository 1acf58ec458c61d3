package server

// Balance as you edit: POST /api/simulate plays a draft of a game many
// times with bots (package sim) and answers what the simulation says —
// the seats' win rates, the games' length, what each place did — and,
// given the report of a version the designer pinned, which figures moved
// and whether each move is beyond the noise.
//
// Simulations are the server's least urgent work. They run within a
// budget (a number of games or a slice of CPU time, whichever comes
// first), on a few workers (one less than the CPUs, so that matches always
// have one), each on a thread of its own whose operating-system priority
// is lowered (and which, on a single CPU, yields every millisecond); each
// client address has
// one simulation at a time (a newer request takes the place of the older,
// which stops) and a rate; a simulation stops when its page goes away.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// SimLimits bound the simulations the editor asks for (POST
// /api/simulate). Zero fields take their defaults.
type SimLimits struct {
	// Games is the most games one simulation plays (1000).
	Games int
	// CPU is the most CPU time one simulation may use (1 s). Wall is the
	// most time it may take once it runs (5 s): on a busy machine, where
	// its low priority gets it little of the CPU, it stops early rather
	// than keep the page waiting.
	CPU  time.Duration
	Wall time.Duration
	// Workers is how many simulations run at once in the whole server (0:
	// one less than the CPUs, at least one); Queue how many more may wait
	// for a worker (16) before the server answers that it is busy.
	Workers int
	Queue   int
	// Every and Burst limit each client address: a simulation every
	// Every (2 s) on average, Burst (5) at once.
	Every time.Duration
	Burst int
}

// DefaultSimLimits are the simulation limits of a server started without
// any.
var DefaultSimLimits = SimLimits{Games: 1000, CPU: time.Second, Wall: 5 * time.Second, Queue: 16, Every: 2 * time.Second, Burst: 5}

func (l SimLimits) withDefaults() SimLimits {
	d := DefaultSimLimits
	d.Workers = max(1, runtime.GOMAXPROCS(0)-1)
	if l.Games > 0 {
		d.Games = l.Games
	}
	if l.CPU > 0 {
		d.CPU = l.CPU
	}
	if l.Wall > 0 {
		d.Wall = l.Wall
	}
	if l.Workers > 0 {
		d.Workers = l.Workers
	}
	if l.Queue > 0 {
		d.Queue = l.Queue
	}
	if l.Every > 0 {
		d.Every = l.Every
	}
	if l.Burst > 0 {
		d.Burst = l.Burst
	}
	return d
}

// simSeed is the master seed of every simulation: a draft and its pinned
// version play the same dice, so that a difference between them comes
// from the change more than from chance.
const simSeed = 1

// Errors that stop a simulation, as its context's cause.
var (
	errSuperseded = errors.New("a newer simulation from this client took its place")
	errCPUBudget  = errors.New("the simulation used its CPU budget")
	errWallBudget = errors.New("the simulation ran out of time")
)

// balancer runs the server's simulations.
type balancer struct {
	limits SimLimits
	// slots holds a token per simulation running; waiting counts those
	// waiting for one.
	slots   chan struct{}
	waiting atomic.Int32

	mu      sync.Mutex
	rates   map[string]*bucket
	current map[string]*simTicket

	runs    *prometheus.CounterVec
	running prometheus.Gauge
	queued  prometheus.Gauge
	games   prometheus.Counter
}

// simTicket is a client's simulation, which a newer one may stop.
type simTicket struct{ stop context.CancelCauseFunc }

func newBalancer(l SimLimits, m *metrics) *balancer {
	l = l.withDefaults()
	b := &balancer{limits: l, slots: make(chan struct{}, l.Workers),
		rates: map[string]*bucket{}, current: map[string]*simTicket{},
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tabula_simulations_total",
			Help: "Simulations asked for by the editor, by how they ended (done, cpu, time: budget reached; superseded, gone: stopped; limited, busy, invalid: refused)."}, []string{"end"}),
		running: prometheus.NewGauge(prometheus.GaugeOpts{Name: "tabula_simulations_running", Help: "Simulations running."}),
		queued:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "tabula_simulations_waiting", Help: "Simulations waiting for a worker."}),
		games:   prometheus.NewCounter(prometheus.CounterOpts{Name: "tabula_simulation_games_total", Help: "Games played by simulations."}),
	}
	m.reg.MustRegister(b.runs, b.running, b.queued, b.games)
	return b
}

// allow takes one of the client's simulations from its rate, or says how
// long until the next one.
func (b *balancer) allow(addr string, now time.Time) (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	rate := float64(time.Second) / float64(b.limits.Every)
	bk, ok := b.rates[addr]
	if !ok {
		if len(b.rates) >= 4096 {
			b.prune(now)
		}
		bk = newBucket(rate, b.limits.Burst)
		b.rates[addr] = bk
	}
	if bk.take(now) {
		return 0, true
	}
	return time.Duration((1 - bk.tokens) / rate * float64(time.Second)), false
}

// prune forgets the clients whose rate is full again.
func (b *balancer) prune(now time.Time) {
	full := time.Duration(b.limits.Burst) * b.limits.Every
	for a, bk := range b.rates {
		if now.Sub(bk.last) >= full {
			delete(b.rates, a)
		}
	}
}

// supersede makes t the client's simulation, stopping the one it had.
func (b *balancer) supersede(addr string, t *simTicket) {
	b.mu.Lock()
	old := b.current[addr]
	b.current[addr] = t
	b.mu.Unlock()
	if old != nil {
		old.stop(errSuperseded)
	}
}

// finish forgets t, unless a newer simulation of the client took its place.
func (b *balancer) finish(addr string, t *simTicket) {
	b.mu.Lock()
	if b.current[addr] == t {
		delete(b.current, addr)
	}
	b.mu.Unlock()
}

// SimBudget is what one simulation may use.
type SimBudget struct {
	Games      int     `json:"games"`
	CPUSeconds float64 `json:"cpuSeconds"`
}

// Balance is what POST /api/simulate answers.
type Balance struct {
	// Report is the simulation's (package sim's JSON report).
	Report *sim.Report `json:"report"`
	// Budget is what it could use; Stopped says why it played fewer games
	// than the budget's: "cpu" (its CPU time), "time" (the server was too
	// busy to give it its CPU time in time).
	Budget  SimBudget `json:"budget"`
	Stopped string    `json:"stopped,omitempty"`
	// Changes are the figures that differ from those of the report the
	// request gave as "against" (package sim's comparison: beyond the
	// noise when the 95% intervals do not overlap), absent without one.
	// Against says why there are none when the two cannot be compared.
	Changes []sim.Change `json:"changes,omitempty"`
	Against string       `json:"against,omitempty"`
}

// simulate plays the draft sent (the game as the body, as for
// /api/validate, or a multipart form: "file" and, to compare with, the
// pinned version's report as "against") with bots in ?players= seats,
// within the server's budget.
func (srv *Server) simulate(w http.ResponseWriter, req *http.Request) {
	b := srv.balance
	if err := srv.sameOrigin(req); err != nil {
		writeError(w, http.StatusForbidden, "%v", err)
		return
	}
	addr := srv.clientAddr(req)
	if wait, ok := b.allow(addr, time.Now()); !ok {
		b.runs.WithLabelValues("limited").Inc()
		secs := max(1, int(math.Ceil(wait.Seconds())))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeJSON(w, http.StatusTooManyRequests, simRefusal{Error: fmt.Sprintf("too many simulations: one every %v from one address; the next in %d s",
			b.limits.Every, secs), RetryAfter: secs})
		return
	}
	c, against, players, ok := srv.readDraft(w, req)
	if !ok {
		b.runs.WithLabelValues("invalid").Inc()
		return
	}

	ctx, stop := context.WithCancelCause(req.Context())
	defer stop(nil)
	unhook := context.AfterFunc(srv.ctx, func() { stop(errClosing) })
	defer unhook()
	t := &simTicket{stop: stop}
	b.supersede(addr, t)
	defer b.finish(addr, t)

	if int(b.waiting.Add(1)) > b.limits.Queue {
		b.waiting.Add(-1)
		b.runs.WithLabelValues("busy").Inc()
		w.Header().Set("Retry-After", "2")
		writeJSON(w, http.StatusServiceUnavailable, simRefusal{Error: "the simulator is busy; try again in a moment", RetryAfter: 2})
		return
	}
	b.queued.Inc()
	select {
	case b.slots <- struct{}{}:
	case <-ctx.Done():
	}
	b.waiting.Add(-1)
	b.queued.Dec()
	if ctx.Err() != nil {
		b.stopped(w, ctx)
		return
	}
	defer func() { <-b.slots }()
	b.running.Inc()
	defer b.running.Dec()

	names := make([]string, players)
	for i := range names {
		names[i] = "Seat " + strconv.Itoa(i+1)
		if i < len(c.info.Roles) && c.info.Roles[i] != "" {
			names[i] += " (" + c.info.Roles[i] + ")"
		}
	}
	run, cut := context.WithCancelCause(ctx)
	defer cut(nil)
	wall := time.AfterFunc(b.limits.Wall, func() { cut(errWallBudget) })
	defer wall.Stop()
	p := &simPace{budget: b.limits.CPU, stop: func() { cut(errCPUBudget) }}
	r, err := sim.Run(run, c.def, sim.Config{Games: b.limits.Games, Workers: 1, Players: names, Seed: simSeed, BeforeGame: p.beforeGame})
	if err != nil {
		b.runs.WithLabelValues("invalid").Inc()
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the game cannot be simulated: " + err.Error(),
			Diagnostics: []diag.Diagnostic{{File: c.file, Severity: diag.Error, Message: err.Error()}}})
		return
	}
	b.games.Add(float64(r.Games))
	if ctx.Err() != nil { // superseded, gone, or the server is closing
		b.stopped(w, ctx)
		return
	}
	out := Balance{Report: r, Budget: SimBudget{Games: b.limits.Games, CPUSeconds: b.limits.CPU.Seconds()}}
	switch context.Cause(run) {
	case errCPUBudget:
		out.Stopped = "cpu"
	case errWallBudget:
		out.Stopped = "time"
	}
	if !r.Interrupted {
		out.Stopped = ""
	}
	b.runs.WithLabelValues(cmp.Or(out.Stopped, "done")).Inc()
	if against != nil {
		out.Changes, out.Against = moved(against, r)
	}
	writeJSON(w, http.StatusOK, out)
}

// simRefusal answers a simulation refused for now.
type simRefusal struct {
	Error      string `json:"error"`
	RetryAfter int    `json:"retryAfter,omitempty"`
	Superseded bool   `json:"superseded,omitempty"`
}

// stopped answers a simulation stopped before its end: a newer one took
// its place (409), the server is closing (503); a client that went away
// reads nothing.
func (b *balancer) stopped(w http.ResponseWriter, ctx context.Context) {
	switch context.Cause(ctx) {
	case errSuperseded:
		b.runs.WithLabelValues("superseded").Inc()
		writeJSON(w, http.StatusConflict, simRefusal{Error: errSuperseded.Error(), Superseded: true})
	case errClosing:
		b.runs.WithLabelValues("gone").Inc()
		writeError(w, http.StatusServiceUnavailable, "%v", errClosing)
	default:
		b.runs.WithLabelValues("gone").Inc()
	}
}

// readDraft reads and compiles the draft of a simulation request, the
// pinned report it is to be compared with (nil if none) and the number of
// players. It answers failures itself.
func (srv *Server) readDraft(w http.ResponseWriter, req *http.Request) (*compiled, *sim.Report, int, bool) {
	limit := srv.limits.Upload
	body := http.MaxBytesReader(w, req.Body, 2*limit+32<<10)
	name := path.Base(req.URL.Query().Get("name"))
	var data, pinned []byte
	var err error
	mt, params, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		mr := multipart.NewReader(body, params["boundary"])
		for err == nil {
			var p *multipart.Part
			if p, err = mr.NextPart(); err != nil {
				break
			}
			switch p.FormName() {
			case "file":
				data, err = readAtMost(p, limit)
				if fn := path.Base(p.FileName()); fn != "." && fn != "/" && fn != "" {
					name = fn
				}
			case "against":
				pinned, err = readAtMost(p, limit)
			}
		}
		if err == io.EOF {
			err = nil
		}
	} else {
		data, err = readAtMost(body, limit)
	}
	if err != nil {
		tooLarge(w, err, limit)
		return nil, nil, 0, false
	}
	if len(data) == 0 {
		writeError(w, http.StatusBadRequest, "send the game to simulate as the body, or as the form's \"file\"")
		return nil, nil, 0, false
	}
	var against *sim.Report
	if len(pinned) > 0 {
		against = new(sim.Report)
		if err := json.Unmarshal(pinned, against); err != nil {
			writeError(w, http.StatusBadRequest, "\"against\" is not a simulation's report: %v", err)
			return nil, nil, 0, false
		}
	}
	if name == "" || name == "." || name == "/" {
		name = "game.json"
		if game.IsZip(data) {
			name = "game.zip"
		}
	}
	src, err := game.FromBytes(name, data, srv.sourceLimits())
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the game is not valid",
			Diagnostics: []diag.Diagnostic{{File: name, Severity: diag.Error, Message: err.Error()}}})
		return nil, nil, 0, false
	}
	src.WithContext(req.Context())
	c, list := srv.compileSent(req.Context(), src, "")
	if c == nil {
		diags := []diag.Diagnostic(list)
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the game is not valid: fix its problems to simulate it", Diagnostics: diags})
		return nil, nil, 0, false
	}
	players := max(c.info.MinPlayers, min(2, c.info.MaxPlayers))
	if s := req.URL.Query().Get("players"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || c.info.CheckPlayers(n) != nil {
			writeError(w, http.StatusBadRequest, "players=%s: %s plays with %d to %d players", s, c.info.Name, c.info.MinPlayers, c.info.MaxPlayers)
			return nil, nil, 0, false
		}
		players = n
	}
	return c, against, players, true
}

// readAtMost reads r whole if it holds at most limit bytes.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = &http.MaxBytesError{Limit: limit}
	}
	return data, err
}

// simPace runs on the simulation's one worker, before each game: the first
// time, it ties the worker to its thread (which ends with it) and lowers
// the thread's priority; then, every millisecond, it stops the run once
// the thread used its CPU budget, and on a single CPU yields to the
// server's other work.
type simPace struct {
	budget time.Duration
	stop   func()
	locked bool
	start  time.Duration
	last   time.Time
}

func (p *simPace) beforeGame() {
	now := time.Now()
	if !p.locked {
		// Never unlocked: the thread, its priority lowered, ends with the
		// worker's goroutine instead of running other goroutines.
		runtime.LockOSThread()
		lowerThreadPriority()
		p.locked, p.start, p.last = true, threadCPU(), now
		return
	}
	if now.Sub(p.last) < time.Millisecond {
		return
	}
	p.last = now
	if threadCPU()-p.start >= p.budget {
		p.stop()
		return
	}
	// With one CPU the worker holds the only processor: let the server's
	// goroutines run. With more, they have a processor of their own (the
	// workers are fewer than the CPUs), and yielding would only cost the
	// simulation a switch of threads.
	if runtime.GOMAXPROCS(0) == 1 {
		runtime.Gosched()
	}
}

// moved lists the figures of the draft's report that differ from the
// pinned version's, or says why the two cannot be compared.
func moved(pinned, draft *sim.Report) ([]sim.Change, string) {
	c, err := sim.CompareReports(pinned, draft)
	if err != nil {
		return nil, "the pinned version was simulated with other players: pin this version again to compare with it"
	}
	out := []sim.Change{}
	for _, ch := range c.Changes {
		if ch.Difference != 0 || ch.Beyond {
			out = append(out, ch)
		}
	}
	return out, ""
}
