// Package server hosts board games — party boards and rule books — for
// friends playing in their browsers: a lobby of matches, one actor
// goroutine per match that owns it (driven by commands, not ticks),
// WebSocket connections that carry commands in and each player's view out,
// and a SQLite store to which every accepted command is written, with its
// state hash, before it is acknowledged. On start, unfinished matches are
// rebuilt by replaying their commands, and every hash is checked on the
// way. It also answers the rule editor: what rules and boards are made of,
// a game's source, and the validation of a game held in the page.
package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/web"
)

// Options configure a server.
type Options struct {
	// DB is the SQLite database file.
	DB string
	// BoardsDir, if set, is a folder whose board files are offered too.
	BoardsDir string
	// Log receives what the server reports (rebuilt matches, broken
	// ones); nil discards it.
	Log io.Writer
}

// Server is the Tabula server. Create it with New, serve Handler, and Close
// it when done.
type Server struct {
	store   *store.Store
	library *library
	logger  *log.Logger
	ctx     context.Context
	cancel  context.CancelFunc

	mu     sync.Mutex
	rooms  map[string]*room
	closed bool
}

// New opens the database, loads the boards and rebuilds every unfinished
// match by replaying its commands.
func New(opts Options) (*Server, error) {
	st, err := store.Open(opts.DB)
	if err != nil {
		return nil, err
	}
	out := opts.Log
	if out == nil {
		out = io.Discard
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &Server{store: st, library: newLibrary(), logger: log.New(out, "", log.LstdFlags), ctx: ctx, cancel: cancel, rooms: map[string]*room{}}
	if err := srv.library.loadBundled(); err != nil {
		srv.Close()
		return nil, err
	}
	if opts.BoardsDir != "" {
		problems, err := srv.library.loadDir(opts.BoardsDir)
		if err != nil {
			srv.Close()
			return nil, err
		}
		for _, d := range problems.Errors() {
			srv.logf("skipping board: %s", d)
		}
	}
	if err := srv.library.loadUploads(ctx, st); err != nil {
		srv.Close()
		return nil, err
	}
	if err := srv.recover(ctx); err != nil {
		srv.Close()
		return nil, err
	}
	return srv, nil
}

// Close stops every match and closes the database.
func (srv *Server) Close() error {
	srv.cancel()
	srv.mu.Lock()
	rooms := srv.rooms
	srv.rooms = map[string]*room{}
	srv.closed = true
	srv.mu.Unlock()
	// Every room finishes what it is doing (storing a command included)
	// before the store closes.
	for _, r := range rooms {
		close(r.quit)
	}
	for _, r := range rooms {
		<-r.done
	}
	return srv.store.Close()
}

func (srv *Server) logf(format string, args ...any) { srv.logger.Printf(format, args...) }

// recover rebuilds every match that was being played.
func (srv *Server) recover(ctx context.Context) error {
	recs, err := srv.store.Matches(ctx)
	if err != nil {
		return err
	}
	rebuilt, broken := 0, 0
	for _, rec := range recs {
		if rec.Status != store.Playing {
			continue
		}
		r, err := srv.room(ctx, rec.ID)
		if err != nil {
			return err
		}
		if r.rec.Status == store.Broken {
			broken++
		} else {
			rebuilt++
		}
	}
	if rebuilt+broken > 0 {
		srv.logf("rebuilt %d unfinished match(es) from their commands; %d could not be trusted", rebuilt, broken)
	}
	return nil
}

// room returns the actor of a match, loading and rebuilding it on first
// use.
func (srv *Server) room(ctx context.Context, id string) (*room, error) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.closed {
		return nil, errClosing
	}
	if r, ok := srv.rooms[id]; ok {
		return r, nil
	}
	rec, err := srv.store.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	def, list := compileGame(rec.Game, rec.BoardName, rec.BoardData)
	r := newRoom(srv, rec, def)
	if def == nil {
		r.markBroken(ctx, fmt.Errorf("its board no longer loads:\n%s", list.String()))
	} else if rec.Status == store.Playing || rec.Status == store.Finished {
		if err := r.rebuild(ctx); err != nil {
			r.markBroken(ctx, err)
		}
	}
	srv.rooms[id] = r
	go r.run()
	return r, nil
}

// Handler returns the server's HTTP handler: the page and its API.
func (srv *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /", web.Handler())
	mux.HandleFunc("GET /api/boards", srv.listBoards)
	mux.HandleFunc("GET /api/boards/{id}", srv.getBoard)
	mux.HandleFunc("POST /api/boards", srv.uploadBoard)
	mux.HandleFunc("GET /api/games/{id}", srv.gameSource)
	mux.HandleFunc("POST /api/validate", srv.validate)
	mux.HandleFunc("GET /api/catalog/rulebook", srv.rulebookCatalog)
	mux.HandleFunc("POST /api/catalog/rulebook/predicates/{name}", srv.renderPredicate)
	mux.HandleFunc("GET /api/catalog/party", srv.partyCatalog)
	mux.HandleFunc("GET /api/matches", srv.listMatches)
	mux.HandleFunc("POST /api/matches", srv.createMatch)
	mux.HandleFunc("GET /api/matches/{id}", srv.withRoom(srv.getMatch))
	mux.HandleFunc("GET /api/matches/{id}/board", srv.withRoom(srv.matchBoard))
	mux.HandleFunc("POST /api/matches/{id}/join", srv.withRoom(srv.joinMatch))
	mux.HandleFunc("POST /api/matches/{id}/bots", srv.withRoom(srv.addBots))
	mux.HandleFunc("POST /api/matches/{id}/start", srv.withRoom(srv.startMatch))
	mux.HandleFunc("GET /api/matches/{id}/replay", srv.withRoom(srv.replay))
	mux.HandleFunc("GET /api/matches/{id}/ws", srv.withRoom(srv.serveWS))
	return mux
}

// --- helpers ---

type apiError struct {
	Error       string            `json:"error"`
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...)})
}

// readJSON decodes a small JSON request body.
func readJSON(w http.ResponseWriter, req *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, req.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "bad request body: %v", err)
		return false
	}
	return true
}

func (srv *Server) withRoom(h func(http.ResponseWriter, *http.Request, *room)) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		r, err := srv.room(req.Context(), req.PathValue("id"))
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, "no match %q", req.PathValue("id"))
			return
		}
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		h(w, req, r)
	}
}

func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newID() string {
	var b [5]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// --- boards ---

func (srv *Server) listBoards(w http.ResponseWriter, req *http.Request) {
	writeJSON(w, http.StatusOK, srv.library.list())
}

// BoardDrawing is a board as the page draws it.
type BoardDrawing struct {
	Info   BoardInfo      `json:"info"`
	Spaces []SpaceDrawing `json:"spaces"`
	Render map[string]any `json:"render"`
}

// SpaceDrawing is a space as the page draws it.
type SpaceDrawing struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Type        string           `json:"type"`
	Visual      party.Visual     `json:"visual"`
	Connections []ConnectionDraw `json:"connections"`
	Events      []EventText      `json:"events"`
}

// ConnectionDraw is an arrow.
type ConnectionDraw struct {
	Target string `json:"target"`
	Draw   bool   `json:"draw"`
}

// EventText describes a space's event for tooltips.
type EventText struct {
	Trigger  string `json:"trigger"`
	Action   string `json:"action"`
	Priority string `json:"priority"`
}

func drawing(info BoardInfo, def *party.Definition) BoardDrawing {
	b := def.Board
	d := BoardDrawing{Info: info, Render: b.Render, Spaces: []SpaceDrawing{}}
	if d.Render == nil {
		d.Render = map[string]any{}
	}
	for _, sp := range b.Spaces {
		sd := SpaceDrawing{ID: sp.ID, Name: sp.Name, Type: sp.Type, Visual: sp.Visual, Connections: []ConnectionDraw{}, Events: []EventText{}}
		for _, c := range sp.Connections {
			sd.Connections = append(sd.Connections, ConnectionDraw{Target: c.Target, Draw: c.Draw})
		}
		for _, ev := range sp.Events {
			sd.Events = append(sd.Events, EventText{Trigger: ev.Trigger, Action: ev.Action.Type, Priority: ev.Priority.String()})
		}
		d.Spaces = append(d.Spaces, sd)
	}
	return d
}

func (srv *Server) getBoard(w http.ResponseWriter, req *http.Request) {
	e, ok := srv.library.get(req.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no board %q", req.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, e.def.Drawing(e.info))
}

// maxUpload bounds an uploaded board file.
const maxUpload = 2 << 20

// uploadBoard validates an uploaded board (the request body, or a
// multipart "file") and adds it to the library if it is valid. Invalid
// boards are answered with every diagnostic, line and pointer included.
func (srv *Server) uploadBoard(w http.ResponseWriter, req *http.Request) {
	name := req.URL.Query().Get("name")
	var body io.Reader = http.MaxBytesReader(w, req.Body, maxUpload)
	if strings.HasPrefix(req.Header.Get("Content-Type"), "multipart/form-data") {
		if err := req.ParseMultipartForm(maxUpload); err != nil {
			writeError(w, http.StatusBadRequest, "upload: %v", err)
			return
		}
		f, fh, err := req.FormFile("file")
		if err != nil {
			writeError(w, http.StatusBadRequest, "upload: send the board as the form field \"file\"")
			return
		}
		defer f.Close()
		body, name = f, fh.Filename
	}
	data, err := io.ReadAll(body)
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "upload: %v (the limit is %d bytes)", err, maxUpload)
		return
	}
	if name == "" {
		name = "upload.json"
	}
	e, list, err := srv.library.upload(req.Context(), srv.store, name, data)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	diags := []diag.Diagnostic(list)
	if diags == nil {
		diags = []diag.Diagnostic{}
	}
	if e == nil {
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the board is not valid", Diagnostics: diags})
		return
	}
	writeJSON(w, http.StatusCreated, struct {
		Board       BoardInfo         `json:"board"`
		Diagnostics []diag.Diagnostic `json:"diagnostics"`
	}{e.info, diags})
}

// --- matches ---

func (srv *Server) listMatches(w http.ResponseWriter, req *http.Request) {
	recs, err := srv.store.Matches(req.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	out := []Summary{}
	srv.mu.Lock()
	rooms := maps.Clone(srv.rooms) // other requests add rooms meanwhile
	srv.mu.Unlock()
	for _, rec := range recs {
		sum := summarize(rec, nil)
		if r, ok := rooms[rec.ID]; ok {
			r.do(req.Context(), func() { sum = r.summary() })
		}
		out = append(out, sum)
	}
	writeJSON(w, http.StatusOK, out)
}

type createReq struct {
	Board     string `json:"board"`
	Seats     int    `json:"seats"`
	MaxRounds int    `json:"maxRounds"`
}

func (srv *Server) createMatch(w http.ResponseWriter, req *http.Request) {
	var cr createReq
	if !readJSON(w, req, &cr) {
		return
	}
	if cr.Board == "" {
		cr.Board = "default"
	}
	e, ok := srv.library.get(cr.Board)
	if !ok {
		writeError(w, http.StatusBadRequest, "no board %q", cr.Board)
		return
	}
	if cr.Seats == 0 {
		cr.Seats = max(2, e.info.MinPlayers)
	}
	if cr.Seats < 1 || cr.Seats > 12 {
		writeError(w, http.StatusBadRequest, "a match has 1 to 12 seats, not %d", cr.Seats)
		return
	}
	if e.def.Game() == gameRulebook && (cr.Seats < e.info.MinPlayers || cr.Seats > e.info.MaxPlayers) {
		writeError(w, http.StatusBadRequest, "%s is for %d to %d players, not %d seats", e.info.Name, e.info.MinPlayers, e.info.MaxPlayers, cr.Seats)
		return
	}
	if cr.MaxRounds == 0 {
		cr.MaxRounds = e.def.DefaultMaxRounds()
	}
	if cr.MaxRounds < 1 || cr.MaxRounds > 10000 {
		writeError(w, http.StatusBadRequest, "maxRounds must be between 1 and 10000")
		return
	}
	rec := store.Match{
		ID: newID(), Game: e.def.Game(), BoardID: e.info.ID, BoardName: e.info.Name, BoardData: e.data,
		Seed: newSeed(), MaxRounds: cr.MaxRounds, Seats: make([]store.Seat, cr.Seats), Owner: newToken(),
		Status: store.Lobby, Created: time.Now(),
	}
	if err := srv.store.CreateMatch(req.Context(), rec); err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusCreated, struct {
		ID    string `json:"id"`
		Owner string `json:"owner"`
		URL   string `json:"url"`
	}{rec.ID, rec.Owner, "/m/" + rec.ID})
}

func (srv *Server) getMatch(w http.ResponseWriter, req *http.Request, r *room) {
	var sum Summary
	if err := r.do(req.Context(), func() { sum = r.summary() }); err != nil {
		writeError(w, http.StatusServiceUnavailable, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, sum)
}

func (srv *Server) matchBoard(w http.ResponseWriter, req *http.Request, r *room) {
	var d any
	ok := false
	r.do(req.Context(), func() {
		if r.def != nil {
			d = r.def.Drawing(r.boardInfo())
			ok = true
		}
	})
	if !ok {
		writeError(w, http.StatusConflict, "the match's board does not load")
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (srv *Server) joinMatch(w http.ResponseWriter, req *http.Request, r *room) {
	var jr struct {
		Name string `json:"name"`
	}
	if !readJSON(w, req, &jr) {
		return
	}
	var seat int
	var token string
	var err error
	if derr := r.do(req.Context(), func() { seat, token, err = r.join(req.Context(), jr.Name) }); derr != nil {
		err = derr
	}
	if err != nil {
		writeError(w, http.StatusConflict, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}{seat, token})
}

type ownerReq struct {
	Owner string `json:"owner"`
}

func (srv *Server) addBots(w http.ResponseWriter, req *http.Request, r *room) {
	srv.ownerAction(w, req, r, r.fillWithBots)
}

func (srv *Server) startMatch(w http.ResponseWriter, req *http.Request, r *room) {
	srv.ownerAction(w, req, r, r.start)
}

func (srv *Server) ownerAction(w http.ResponseWriter, req *http.Request, r *room, act func(context.Context, string) error) {
	var or ownerReq
	if !readJSON(w, req, &or) {
		return
	}
	var err error
	if derr := r.do(req.Context(), func() { err = act(req.Context(), or.Owner) }); derr != nil {
		err = derr
	}
	switch {
	case errors.Is(err, errNotOwner):
		writeError(w, http.StatusForbidden, "%v", err)
	case err != nil:
		writeError(w, http.StatusConflict, "%v", err)
	default:
		var sum Summary
		r.do(req.Context(), func() { sum = r.summary() })
		writeJSON(w, http.StatusOK, sum)
	}
}

// Replay is everything needed to watch a match again or rebuild it: its
// seed, players and commands with their hashes, the action log, the final
// view and the board (of the match's game: see match.game).
type Replay struct {
	Match    Summary         `json:"match"`
	Seed     string          `json:"seed"`
	Players  []string        `json:"players"`
	Commands []ReplayCommand `json:"commands"`
	Entries  any             `json:"entries"`
	Final    any             `json:"final"`
	Board    any             `json:"board"`
}

// ReplayCommand is one stored command.
type ReplayCommand struct {
	Seq     int             `json:"seq"`
	Player  int             `json:"player"`
	Command json.RawMessage `json:"command"`
	Hash    string          `json:"hash"`
}

func (srv *Server) replay(w http.ResponseWriter, req *http.Request, r *room) {
	cmds, err := srv.store.Commands(req.Context(), r.id)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	var rp Replay
	r.do(req.Context(), func() {
		rp = Replay{Match: r.summary(), Seed: fmt.Sprint(r.rec.Seed), Players: r.names(), Commands: []ReplayCommand{}, Entries: []any{}}
		if r.game != nil {
			rp.Entries = r.game.Entries(0)
			rp.Final = r.game.View(-1)
		}
		if r.def != nil {
			rp.Board = r.def.Drawing(r.boardInfo())
		}
	})
	for _, c := range cmds {
		rp.Commands = append(rp.Commands, ReplayCommand{Seq: c.Seq, Player: c.Player, Command: c.Data, Hash: c.Hash})
	}
	writeJSON(w, http.StatusOK, rp)
}
