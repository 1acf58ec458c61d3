// Package server hosts games for people playing in their browsers: a
// lobby of matches, one actor goroutine per match that owns it (driven by
// commands, not ticks), WebSocket connections that carry commands in and
// each player's view out, and a store to which every accepted command is
// written, with its state hash, before it is acknowledged.
//
// It knows no game: it reaches every pack through the game interface
// (package game), given to it as a list of packs. Matches that nobody
// watches leave memory and are rebuilt from the store when someone comes
// back, replaying their commands and checking every hash on the way; bots
// and turn timers of unfinished matches resume after a restart. It also
// answers the game editor: what a pack's files are made of, a game's
// source, and the validation of a game held in the page.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// Options configure a server. Zero limits take their defaults.
type Options struct {
	// DB is the database: the path of a SQLite file, or a postgres:// URL.
	DB string
	// Store, if set, is used instead of opening DB (tests, clusters).
	Store store.Store
	// Packs are the game packs the server hosts.
	Packs game.Packs
	// Bundled, if set, holds the games offered to everybody (pack/*.json
	// and pack/*.zip); cmd/tabula gives the examples.
	Bundled BundledGames
	// BoardsDir, if set, is a folder whose game files are offered too.
	BoardsDir string
	// Logger receives the server's structured log; nil discards it.
	Logger *slog.Logger
	// Addr is the address the server listens on; it names the host the
	// server answers to besides the loopback names.
	Addr string
	// AllowedHosts are more host names the server answers to (the names
	// it is reached by, behind a proxy); "*" allows any.
	AllowedHosts []string
	// AllowedOrigins are other origins whose pages may change things
	// here (https://example.org).
	AllowedOrigins []string
	// TrustedProxies are the reverse proxies (addresses or CIDR
	// prefixes) whose X-Forwarded-For tells the client's address; without
	// them every client is its connection's address, and the header is
	// never read.
	TrustedProxies []string
	// Limits bound what clients may cost.
	Limits Limits
	// IdleAfter is how long a match nobody watches stays in memory
	// (default 30 s); AbandonAfter how long a match nobody touches stays
	// open before it is closed as abandoned (default 7 days; negative:
	// never).
	IdleAfter    time.Duration
	AbandonAfter time.Duration
	// Node names this server in a cluster; Cluster, if set, coordinates
	// the ownership of matches between nodes.
	Node    string
	Cluster Cluster
	// Bots, if set, plays a bot of a level for a seat, thinking at most
	// budget; it reports false to leave the decision to the pack's own
	// bot. BotLevels are the levels it knows.
	Bots      func(m game.Match, seat int, level string, r *rng.Stream, budget time.Duration) (json.RawMessage, bool)
	BotLevels []string
}

// Limits bound what one client or one input may cost. Each has a flag in
// `tabula serve`.
type Limits struct {
	// Body is the largest JSON request body, in bytes (64 KiB).
	Body int64
	// Upload is the largest game file or archive uploaded or validated
	// (2 MiB).
	Upload int64
	// JSONDepth is the deepest nesting of an uploaded game file (64).
	JSONDepth int
	// Message is the largest WebSocket message (8 KiB).
	Message int64
	// Rate and Burst limit each connection's messages per second (20,
	// burst 40).
	Rate  float64
	Burst int
	// Connections is the most connections to one match (64).
	Connections int
	// Creates is the most matches one address may make per minute, by
	// any route (creating, a rematch) (30); CreatesAll the most all
	// addresses together may make (600).
	Creates    int
	CreatesAll int
	// Matches is the most matches in memory at once (10000): past it,
	// creating or opening a match that is not in memory is refused until
	// some leave.
	Matches int
	// Uploads is the most uploads, validations and renames of saved games
	// one address may make per minute (60).
	Uploads int
	// SavedGames and SavedBytes bound the saved games (and the bytes of
	// their files) one address may keep (20, 20 MiB); SavedGamesAll and
	// SavedBytesAll what the library keeps in all (2000, 1 GiB).
	SavedGames    int
	SavedBytes    int64
	SavedGamesAll int
	SavedBytesAll int64
	// SavedExpire is how long a saved game nobody plays stays in the
	// library (30 days; negative: for ever).
	SavedExpire time.Duration
	// GameCache bounds the compiled games kept in memory for reuse, by
	// the size of their files (8 MiB: a compiled game takes up to ten
	// times its file); games of matches in memory stay as long as their
	// matches.
	GameCache int64
	// Compiles is the most game files checked at once (one less than the
	// CPUs, at least 1); others wait their turn.
	Compiles int
	// PingEvery is how often idle connections are pinged; a connection
	// that does not answer within PingTimeout is closed (30 s, 20 s).
	PingEvery   time.Duration
	PingTimeout time.Duration
	// BotTime is how long a bot may think over one decision (2 s);
	// BotThreads how many bots may think at once, all matches together
	// (one less than the CPUs, at least 1), so that people's commands
	// never wait behind bots.
	BotTime    time.Duration
	BotThreads int
	// HeaderTime is how long a request's headers may take to arrive
	// (10 s); RequestTime a whole request, body included, and its
	// answer (60 s); KeepAlive how long a quiet connection is kept
	// between requests (60 s); MessageTime how long a WebSocket message,
	// once begun, may take to arrive (10 s).
	HeaderTime  time.Duration
	RequestTime time.Duration
	KeepAlive   time.Duration
	MessageTime time.Duration
	// ConnsPerAddr is the most connections one address may hold (64), and
	// Conns the most in all (8192); SocketsPerAddr the most WebSockets
	// one client may hold, all matches together (32).
	ConnsPerAddr   int
	Conns          int
	SocketsPerAddr int
	// Simulation bounds the simulations the editor asks for.
	Simulation SimLimits
}

// DefaultLimits are the limits of a server started without any.
var DefaultLimits = Limits{
	Body: 64 << 10, Upload: 2 << 20, JSONDepth: 64, Message: 8 << 10, Rate: 20, Burst: 40, Connections: 64,
	Creates: 30, CreatesAll: 600, Matches: 10000, Uploads: 60,
	SavedGames: 20, SavedBytes: 20 << 20, SavedGamesAll: 2000, SavedBytesAll: 1 << 30, SavedExpire: 30 * 24 * time.Hour,
	GameCache: 8 << 20, Compiles: max(1, runtime.GOMAXPROCS(0)-1),
	PingEvery: 30 * time.Second, PingTimeout: 20 * time.Second, BotTime: 2 * time.Second, BotThreads: max(1, runtime.GOMAXPROCS(0)-1),
	HeaderTime: 10 * time.Second, RequestTime: 60 * time.Second, KeepAlive: 60 * time.Second, MessageTime: 10 * time.Second,
	ConnsPerAddr: 64, Conns: 8192, SocketsPerAddr: 32,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Body > 0 {
		d.Body = l.Body
	}
	if l.Upload > 0 {
		d.Upload = l.Upload
	}
	if l.JSONDepth > 0 {
		d.JSONDepth = l.JSONDepth
	}
	if l.Message > 0 {
		d.Message = l.Message
	}
	if l.Rate > 0 {
		d.Rate = l.Rate
	}
	if l.Burst > 0 {
		d.Burst = l.Burst
	}
	if l.Connections > 0 {
		d.Connections = l.Connections
	}
	if l.Creates > 0 {
		d.Creates = l.Creates
	}
	if l.Uploads > 0 {
		d.Uploads = l.Uploads
	}
	if l.PingEvery > 0 {
		d.PingEvery = l.PingEvery
	}
	if l.PingTimeout > 0 {
		d.PingTimeout = l.PingTimeout
	}
	if l.BotTime > 0 {
		d.BotTime = l.BotTime
	}
	for _, p := range []struct{ v, d *int }{{&l.CreatesAll, &d.CreatesAll}, {&l.Matches, &d.Matches}, {&l.SavedGames, &d.SavedGames},
		{&l.SavedGamesAll, &d.SavedGamesAll}, {&l.Compiles, &d.Compiles}, {&l.BotThreads, &d.BotThreads},
		{&l.ConnsPerAddr, &d.ConnsPerAddr}, {&l.Conns, &d.Conns}, {&l.SocketsPerAddr, &d.SocketsPerAddr}} {
		if *p.v > 0 {
			*p.d = *p.v
		}
	}
	for _, p := range []struct{ v, d *int64 }{{&l.SavedBytes, &d.SavedBytes}, {&l.SavedBytesAll, &d.SavedBytesAll}, {&l.GameCache, &d.GameCache}} {
		if *p.v > 0 {
			*p.d = *p.v
		}
	}
	for _, p := range []struct{ v, d *time.Duration }{{&l.HeaderTime, &d.HeaderTime}, {&l.RequestTime, &d.RequestTime},
		{&l.KeepAlive, &d.KeepAlive}, {&l.MessageTime, &d.MessageTime}} {
		if *p.v > 0 {
			*p.d = *p.v
		}
	}
	if l.SavedExpire != 0 {
		d.SavedExpire = l.SavedExpire
	}
	d.Simulation = l.Simulation.withDefaults()
	return d
}

// Server is the Tabula server. Create it with New, serve Handler, and
// Close it (or Shutdown, to tell clients) when done.
type Server struct {
	opts     Options
	limits   Limits
	store    store.Store
	ownDB    bool
	packs    game.Packs
	log      *slog.Logger
	library  *library
	defs     *defCache
	metrics  *metrics
	hosts    hostCheck
	proxies  proxyList
	creates  *rateLimit
	uploads  *rateLimit
	sockets  *holdLimit
	bots     chan struct{} // a place for each bot thinking at once
	compiles chan struct{} // a place for each game file checked at once
	chats    *rateLimit    // chat messages by address, across connections
	balance  *balancer

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	rooms   map[string]*room
	loading map[string]*loadCall
	closed  bool

	// In a cluster: the routes without the guard, for API requests other
	// nodes forward; this node's sessions in matches owned elsewhere
	// (relays) and other nodes' sessions in matches owned here (remotes),
	// by session id.
	inner    http.Handler
	relayMu  sync.Mutex
	relays   map[string]*session
	remoteMu sync.Mutex
	remotes  map[string]*session
}

// loadCall is a room being loaded; others asking for it wait for it.
type loadCall struct {
	done chan struct{}
	room *room
	err  error
}

// New opens the database, loads the library and resumes the matches that
// were being played by bots or against the clock.
func New(opts Options) (*Server, error) {
	if len(opts.Packs) == 0 {
		return nil, errors.New("server: no game packs to host")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	st, own := opts.Store, false
	if st == nil {
		var err error
		if st, err = store.Open(opts.DB); err != nil {
			return nil, err
		}
		own = true
	}
	if opts.IdleAfter <= 0 {
		opts.IdleAfter = 30 * time.Second
	}
	if opts.AbandonAfter == 0 {
		opts.AbandonAfter = 7 * 24 * time.Hour
	}
	if opts.Node == "" {
		opts.Node = "local"
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &Server{
		opts: opts, limits: opts.Limits.withDefaults(), store: st, ownDB: own, packs: opts.Packs, log: log,
		metrics: newMetrics(), ctx: ctx, cancel: cancel,
		rooms: map[string]*room{}, loading: map[string]*loadCall{},
	}
	srv.hosts = newHostCheck(opts.Addr, opts.AllowedHosts)
	proxies, err := parseProxies(opts.TrustedProxies)
	if err != nil {
		cancel()
		if own {
			st.Close()
		}
		return nil, err
	}
	srv.proxies = proxies
	srv.creates = newRateLimit(srv.limits.Creates, srv.limits.CreatesAll)
	srv.uploads = newRateLimit(srv.limits.Uploads, 0)
	srv.sockets = newHoldLimit(srv.limits.SocketsPerAddr, 0)
	srv.bots = make(chan struct{}, srv.limits.BotThreads)
	srv.compiles = make(chan struct{}, srv.limits.Compiles)
	srv.defs = newDefCache(srv, srv.limits.GameCache)
	srv.chats = newRateLimit(chatPerMinute, 0)
	srv.balance = newBalancer(srv.limits.Simulation, srv.metrics)
	srv.library = newLibrary(srv)
	if opts.Cluster != nil {
		if err := srv.joinCluster(); err != nil {
			srv.Close()
			return nil, err
		}
	}
	if err := srv.library.load(ctx, opts.Bundled, opts.BoardsDir); err != nil {
		srv.Close()
		return nil, err
	}
	if err := srv.resume(ctx); err != nil {
		srv.Close()
		return nil, err
	}
	srv.wg.Add(1)
	go srv.janitor()
	return srv, nil
}

// Metrics returns the server's Prometheus registry (served at /metrics).
func (srv *Server) Metrics() *prometheus.Registry { return srv.metrics.reg }

// Close stops every match and closes the database: each room finishes the
// message it is handling (storing a command included) first.
func (srv *Server) Close() error {
	return srv.Shutdown(context.Background())
}

// Shutdown stops the server gracefully: no new match is loaded, every
// connection is closed with the reason "server restarting" once its room
// has finished what it was doing, and the store is flushed and closed. It
// gives up waiting for rooms when ctx ends.
func (srv *Server) Shutdown(ctx context.Context) error {
	srv.mu.Lock()
	if srv.closed {
		srv.mu.Unlock()
		return nil
	}
	srv.closed = true
	rooms := srv.rooms
	srv.rooms = map[string]*room{}
	srv.mu.Unlock()
	// Rooms finish the message they are handling (a command being stored)
	// before anything is cancelled under them.
	for _, r := range rooms {
		r.stop()
	}
	for _, r := range rooms {
		select {
		case <-r.done:
		case <-ctx.Done():
		}
	}
	srv.cancel()
	srv.wg.Wait()
	if srv.opts.Cluster != nil {
		srv.opts.Cluster.Close()
	}
	if srv.ownDB {
		return srv.store.Close()
	}
	return nil
}

// resume loads the matches that go on by themselves: those in play with
// a bot or a turn limit, so that bots move and timers run after a restart.
func (srv *Server) resume(ctx context.Context) error {
	resumed := 0
	before := ""
	for {
		page, err := srv.store.Matches(ctx, store.Query{Status: store.Playing, Limit: 500, Before: before})
		if err != nil {
			return err
		}
		for _, rec := range page {
			if !goesOnAlone(rec) || !srv.owns(ctx, rec.ID) {
				continue
			}
			if _, err := srv.room(ctx, rec.ID); err != nil {
				srv.log.Error("resuming a match", "match", rec.ID, "err", err)
				continue
			}
			resumed++
		}
		if len(page) < 500 {
			break
		}
		before = page[len(page)-1].ID
	}
	if resumed > 0 {
		srv.log.Info("resumed matches played by bots or against the clock", "matches", resumed)
	}
	return nil
}

// goesOnAlone reports whether a match in play moves without its people:
// a bot plays in it, or its turns are timed.
func goesOnAlone(rec store.Match) bool {
	if rec.Settings.TurnLimit > 0 {
		return true
	}
	for _, s := range rec.Seats {
		if s.Bot {
			return true
		}
	}
	return false
}

// room returns the actor of a match, loading and rebuilding it on first
// use. The load happens outside the server's lock; requests for the same
// match meanwhile wait for that one load.
func (srv *Server) room(ctx context.Context, id string) (*room, error) {
	srv.mu.Lock()
	if srv.closed {
		srv.mu.Unlock()
		return nil, errClosing
	}
	if r, ok := srv.rooms[id]; ok {
		srv.mu.Unlock()
		return r, nil
	}
	if call, ok := srv.loading[id]; ok {
		srv.mu.Unlock()
		select {
		case <-call.done:
			return call.room, call.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := srv.roomForOneMore(); err != nil {
		srv.mu.Unlock()
		return nil, err
	}
	call := &loadCall{done: make(chan struct{})}
	srv.loading[id] = call
	srv.mu.Unlock()

	// The load goes on even if this request is cancelled: others may be
	// waiting for it.
	call.room, call.err = srv.loadRoom(srv.ctx, id)

	srv.mu.Lock()
	delete(srv.loading, id)
	if call.err == nil {
		if srv.closed {
			call.room.stop()
			call.room, call.err = nil, errClosing
		} else {
			srv.rooms[id] = call.room
			srv.metrics.rooms.Set(float64(len(srv.rooms)))
		}
	}
	srv.mu.Unlock()
	close(call.done)
	return call.room, call.err
}

// loadRoom reads a match and starts its room, rebuilding a started match
// by replaying its commands.
func (srv *Server) loadRoom(ctx context.Context, id string) (*room, error) {
	rec, err := srv.store.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	if srv.opts.Cluster != nil {
		fence, err := srv.acquire(ctx, id)
		if err != nil {
			return nil, err
		}
		if fence != rec.Fence {
			if err := srv.store.Fence(ctx, id, fence); err != nil {
				return nil, err
			}
			rec.Fence = fence
		}
	}
	r := newRoom(srv, rec)
	c, err := srv.defs.get(ctx, rec.GameHash, rec.Pack)
	if err != nil {
		r.markBroken(fmt.Errorf("its game no longer loads: %v", err))
	} else {
		r.def = c
		if rec.Status != store.Lobby && !(rec.Status == store.Abandoned && rec.Result == neverStarted) {
			if err := r.rebuild(ctx); err != nil {
				r.markBroken(err)
			}
		}
	}
	srv.wg.Add(1)
	go r.run()
	r.post(r.afterChange)
	return r, nil
}

// owns reports whether this server may own a match: always, on its own.
func (srv *Server) owns(ctx context.Context, id string) bool {
	if srv.opts.Cluster == nil {
		return true
	}
	return srv.opts.Cluster.MayOwn(ctx, id)
}

// forget removes a room that stopped from the server's map.
func (srv *Server) forget(r *room) {
	srv.mu.Lock()
	if srv.rooms[r.id] == r {
		delete(srv.rooms, r.id)
		srv.metrics.rooms.Set(float64(len(srv.rooms)))
	}
	srv.mu.Unlock()
}

// liveRoom returns a match's room if it is in memory, without loading it.
func (srv *Server) liveRoom(id string) *room {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.rooms[id]
}

// janitor evicts idle rooms, closes abandoned matches and forgets old
// rate counters, every few seconds.
func (srv *Server) janitor() {
	defer srv.wg.Done()
	tick := time.NewTicker(min(srv.opts.IdleAfter/2, 5*time.Second))
	defer tick.Stop()
	lastAbandon, lastExpire := time.Time{}, time.Time{}
	for {
		select {
		case <-srv.ctx.Done():
			return
		case now := <-tick.C:
			srv.evictIdle(now)
			srv.creates.prune(now)
			srv.uploads.prune(now)
			srv.chats.prune(now)
			if now.Sub(lastExpire) > time.Hour {
				lastExpire = now
				srv.library.expire(srv.ctx, now)
			}
			if srv.opts.AbandonAfter > 0 && now.Sub(lastAbandon) > min(time.Minute, srv.opts.AbandonAfter/2) {
				lastAbandon = now
				srv.closeAbandoned(now)
			}
		}
	}
}

// evictIdle stops the rooms nobody has used for IdleAfter and that do not
// go on by themselves.
func (srv *Server) evictIdle(now time.Time) {
	srv.mu.Lock()
	var idle []*room
	for _, r := range srv.rooms {
		if r.idleSince(now) > srv.opts.IdleAfter {
			idle = append(idle, r)
		}
	}
	srv.mu.Unlock()
	for _, r := range idle {
		seen := r.lastUsed.Load()
		r.post(func() {
			if r.evictable(seen) {
				r.stopping = true
			}
		})
	}
}

// neverStarted is the result of a match abandoned in its lobby.
const neverStarted = "closed before it started"

// closeAbandoned closes matches nobody has touched for AbandonAfter.
func (srv *Server) closeAbandoned(now time.Time) {
	for _, status := range []string{store.Lobby, store.Playing} {
		recs, err := srv.store.Matches(srv.ctx, store.Query{Status: status, UpdatedBefore: now.Add(-srv.opts.AbandonAfter), Limit: 200})
		if err != nil {
			srv.log.Error("looking for abandoned matches", "err", err)
			return
		}
		for _, rec := range recs {
			if srv.liveRoom(rec.ID) != nil {
				continue
			}
			if rec.Status == store.Lobby {
				rec.Result = neverStarted // nothing to replay
			}
			rec.Status = store.Abandoned
			rec.Error = "nobody played for " + srv.opts.AbandonAfter.String()
			if err := srv.store.UpdateMatch(srv.ctx, rec); err != nil {
				srv.log.Error("closing an abandoned match", "match", rec.ID, "err", err)
				continue
			}
			srv.log.Info("match abandoned", "match", rec.ID)
		}
	}
}

var errClosing = errors.New("the server is shutting down")

// Handler returns the server's HTTP handler: the page and its API.
func (srv *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	srv.routes(mux)
	return srv.guard(mux)
}

// guard wraps every request: the host check, the security headers, the
// request log and metrics, and a recover that answers 500 rather than
// losing the connection.
func (srv *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		start := time.Now()
		rw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			// The path only: queries may carry secrets.
			srv.log.Info("request", "method", req.Method, "path", req.URL.Path, "status", rw.status,
				"ms", float64(time.Since(start).Microseconds())/1000, "bytes", rw.bytes, "addr", srv.clientAddr(req))
		}()
		defer srv.recoverRequest(rw, req)
		if !srv.hosts.allowed(req.Host) {
			writeError(rw, http.StatusMisdirectedRequest, "this server does not answer to the host name %q; start it with --allowed-hosts %s if that is its name",
				hostOnly(req.Host), hostOnly(req.Host))
			return
		}
		h := rw.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "+
			"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'")
		next.ServeHTTP(rw, req)
	})
}

// recoverRequest answers 500 rather than losing the connection if the
// request's handler panicked (deferred; a handler aborting on purpose is
// let through).
func (srv *Server) recoverRequest(rw *statusWriter, req *http.Request) {
	p := recover()
	if p == nil {
		return
	}
	if p == http.ErrAbortHandler {
		panic(p)
	}
	srv.metrics.panics.Inc()
	srv.log.Error("panic in a request", "method", req.Method, "path", req.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	if !rw.wrote {
		writeError(rw, http.StatusInternalServerError, "the server failed; this is a bug, and it was logged")
	}
}

// statusWriter remembers the status and size of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController and the WebSocket upgrade reach the
// connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}
