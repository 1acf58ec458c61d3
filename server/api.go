package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/usertext"
	"github.com/tabulagames/tabula/web"
)

func (srv *Server) routes(mux *http.ServeMux) {
	mux.Handle("GET /", web.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "up"})
	})
	mux.HandleFunc("GET /readyz", srv.ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(srv.metrics.reg, promhttp.HandlerOpts{}))

	mux.HandleFunc("GET /api/boards", srv.listGames)
	mux.HandleFunc("GET /api/boards/{id}", srv.getGame)
	mux.HandleFunc("GET /api/boards/{id}/preview", srv.gamePreview)
	mux.HandleFunc("POST /api/boards", srv.saveGame)
	mux.HandleFunc("PATCH /api/boards/{id}", srv.renameGame)
	mux.HandleFunc("DELETE /api/boards/{id}", srv.deleteGame)
	mux.HandleFunc("GET /api/games/{id}", srv.gameSource)
	mux.HandleFunc("POST /api/validate", srv.validate)
	mux.HandleFunc("POST /api/simulate", srv.simulate)
	mux.HandleFunc("GET /api/catalog/{pack}", srv.catalog)
	mux.HandleFunc("POST /api/catalog/{pack}/render/{name}", srv.render)

	mux.HandleFunc("GET /api/matches", srv.listMatches)
	mux.HandleFunc("POST /api/matches", srv.createMatch)
	mux.HandleFunc("GET /api/matches/{id}", srv.withRoom(srv.getMatch))
	mux.HandleFunc("GET /api/matches/{id}/board", srv.withRoom(srv.matchBoard))
	mux.HandleFunc("POST /api/matches/{id}/join", srv.withRoom(srv.joinMatch))
	mux.HandleFunc("POST /api/matches/{id}/bots", srv.withRoom(srv.addBots))
	mux.HandleFunc("POST /api/matches/{id}/start", srv.withRoom(srv.startMatch))
	mux.HandleFunc("POST /api/matches/{id}/leave", srv.withRoom(srv.leaveMatch))
	mux.HandleFunc("POST /api/matches/{id}/seats/{seat}", srv.withRoom(srv.changeSeat))
	mux.HandleFunc("POST /api/matches/{id}/rematch", srv.withRoom(srv.rematch))
	mux.HandleFunc("POST /api/matches/{id}/settings", srv.withRoom(srv.chatSettings))
	mux.HandleFunc("POST /api/drafts", srv.saveDraft)
	mux.HandleFunc("GET /api/matches/{id}/replay", srv.withRoom(srv.replay))
	mux.HandleFunc("GET /api/matches/{id}/replay/{n}", srv.withRoom(srv.replayStep))
	mux.HandleFunc("GET /api/matches/{id}/ws", srv.serveWS)
}

// ready answers whether the store answers.
func (srv *Server) ready(w http.ResponseWriter, req *http.Request) {
	ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
	defer cancel()
	if err := srv.store.Ping(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, "the store does not answer: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// withRoom finds the match of the path (loading it if needed) and hands
// it to h.
func (srv *Server) withRoom(h func(http.ResponseWriter, *http.Request, *room)) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		id := req.PathValue("id")
		if len(id) > 64 {
			writeError(w, http.StatusNotFound, "no match %q", id[:64])
			return
		}
		if srv.forward(w, req, id) {
			return
		}
		r, err := srv.room(req.Context(), id)
		var oe *ownedElsewhere
		if errors.As(err, &oe) && srv.forward(w, req, id) {
			return
		}
		if err != nil {
			err = notFoundOr(err, id)
			var re *errRefused
			if errors.As(err, &re) {
				writeError(w, re.status, "%s", re.msg)
			} else {
				writeError(w, http.StatusServiceUnavailable, "%v", err)
			}
			return
		}
		h(w, req, r)
	}
}

// --- the library ---

func (srv *Server) listGames(w http.ResponseWriter, req *http.Request) {
	writeJSON(w, http.StatusOK, srv.library.list())
}

// boardMsg is a game as the page draws it: what the library says of it
// and its pack's drawing.
type boardMsg struct {
	Info    GameInfo        `json:"info"`
	Drawing json.RawMessage `json:"drawing"`
}

// libraryGame finds the library game of the path, compiled (a saved one
// through the cache), unless lacks says what it lacks; it answers
// failures itself.
func (srv *Server) libraryGame(w http.ResponseWriter, req *http.Request, lacks func(*libEntry) string) (*libEntry, *compiled, bool) {
	e, ok := srv.library.get(req.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no game %q", req.PathValue("id"))
		return nil, nil, false
	}
	if why := lacks(e); why != "" {
		writeError(w, http.StatusNotFound, "game %q %s", req.PathValue("id"), why)
		return nil, nil, false
	}
	c, err := srv.library.compiled(req.Context(), e)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "the game does not load: %v", err)
		return nil, nil, false
	}
	return e, c, true
}

func (srv *Server) getGame(w http.ResponseWriter, req *http.Request) {
	e, c, ok := srv.libraryGame(w, req, func(*libEntry) string { return "" })
	if ok {
		writeJSON(w, http.StatusOK, boardMsg{Info: e.info, Drawing: c.drawing})
	}
}

// gamePreview answers a library game's picture, which the lobby shows
// beside it.
func (srv *Server) gamePreview(w http.ResponseWriter, req *http.Request) {
	_, c, ok := srv.libraryGame(w, req, func(e *libEntry) string {
		if e.info.Preview == "" {
			return "has no picture"
		}
		return ""
	})
	if !ok {
		return
	}
	var data []byte
	media := ""
	if p, ok := c.def.(game.Previewer); ok {
		data, media = p.Preview()
	}
	if data == nil {
		writeError(w, http.StatusNotFound, "game %q has no picture", req.PathValue("id"))
		return
	}
	// The picture comes from whoever uploaded the game: it is served as
	// the image it was checked to be, and nothing else.
	h := w.Header()
	h.Set("Content-Type", media)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=3600")
	w.Write(data)
}

// readGame reads a game file sent by a client, within the upload limit:
// the request body (JSON, or a zip archive), or the multipart form's
// "file". It answers failures itself.
func (srv *Server) readGame(w http.ResponseWriter, req *http.Request) (*game.Source, bool) {
	if ok, _ := srv.uploads.allow(srv.clientAddr(req), time.Now()); !ok {
		srv.metrics.rejected.WithLabelValues("rate").Inc()
		writeError(w, http.StatusTooManyRequests, "too many uploads: at most %d a minute", srv.limits.Uploads)
		return nil, false
	}
	name := path.Base(req.URL.Query().Get("name"))
	// Multipart framing adds a little to the file itself.
	body := http.MaxBytesReader(w, req.Body, srv.limits.Upload+16<<10)
	var data []byte
	var err error
	mt, params, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	switch mt {
	case "multipart/form-data":
		data, name, err = readFilePart(multipart.NewReader(body, params["boundary"]), srv.limits.Upload)
	case "application/json", "application/zip", "application/octet-stream", "text/plain", "":
		data, err = io.ReadAll(io.LimitReader(body, srv.limits.Upload+1))
	default:
		writeError(w, http.StatusUnsupportedMediaType, "send a game file as JSON, a zip archive, or a form's \"file\"")
		return nil, false
	}
	if err == nil && int64(len(data)) > srv.limits.Upload {
		err = &http.MaxBytesError{Limit: srv.limits.Upload}
	}
	if err != nil {
		tooLarge(w, err, srv.limits.Upload)
		return nil, false
	}
	if name == "" || name == "." || name == "/" {
		name = "game.json"
		if game.IsZip(data) {
			name = "game.zip"
		}
	}
	src, err := game.FromBytes(name, data, srv.sourceLimits())
	if err == nil {
		src.WithContext(req.Context())
	}
	if err != nil {
		var le *game.LimitError
		if errors.As(err, &le) {
			writeError(w, http.StatusRequestEntityTooLarge, "%v", err)
		} else {
			writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the game is not valid",
				Diagnostics: []diag.Diagnostic{{File: name, Severity: diag.Error, Message: err.Error()}}})
		}
		return nil, false
	}
	return src, true
}

// readFilePart reads the part "file" of a multipart form, at most limit
// bytes, and its file name.
func readFilePart(mr *multipart.Reader, limit int64) ([]byte, string, error) {
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil, "", errors.New("send the game as the form field \"file\"")
		}
		if err != nil {
			return nil, "", err
		}
		if p.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(p, limit+1))
		if err == nil && int64(len(data)) > limit {
			err = &http.MaxBytesError{Limit: limit}
		}
		return data, path.Base(p.FileName()), err
	}
}

// saveGame checks a game sent by a client and, if it is valid, adds it to
// the library (the same game twice is one entry). Invalid games are
// answered with every diagnostic, line and pointer included.
func (srv *Server) saveGame(w http.ResponseWriter, req *http.Request) {
	if err := srv.sameOrigin(req); err != nil {
		writeError(w, http.StatusForbidden, "%v", err)
		return
	}
	src, ok := srv.readGame(w, req)
	if !ok {
		return
	}
	c, list := srv.compileSent(req.Context(), src, req.URL.Query().Get("game"))
	diags := []diag.Diagnostic(list)
	if diags == nil {
		diags = []diag.Diagnostic{}
	}
	if c == nil {
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the game is not valid", Diagnostics: diags})
		return
	}
	name, err := gameName(c.info.Name)
	if err != nil && c.info.Name != "" {
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the game's name cannot be shown in the lobby",
			Diagnostics: append(diags, diag.Diagnostic{File: c.file, Pointer: "/name", Severity: diag.Error, Message: err.Error()})})
		return
	}
	e, secret, err := srv.library.save(req.Context(), c, name, srv.clientAddr(req))
	if srv.saveFailed(w, err) {
		return
	}
	status := http.StatusCreated
	if secret == "" {
		status = http.StatusOK // the library had it already
	}
	writeJSON(w, status, struct {
		Board       GameInfo          `json:"board"`
		Secret      string            `json:"secret,omitempty"`
		Diagnostics []diag.Diagnostic `json:"diagnostics"`
	}{e.info, secret, diags})
}

type entryReq struct {
	Secret string `json:"secret"`
	Name   string `json:"name"`
}

func (srv *Server) renameGame(w http.ResponseWriter, req *http.Request) {
	var er entryReq
	if !srv.changing(w, req) || !srv.readJSON(w, req, &er) {
		return
	}
	// A rename changes what the lobby shows everybody, like an upload.
	if ok, _ := srv.uploads.allow(srv.clientAddr(req), time.Now()); !ok {
		srv.metrics.rejected.WithLabelValues("rate").Inc()
		writeError(w, http.StatusTooManyRequests, "too many uploads and renames: at most %d a minute", srv.limits.Uploads)
		return
	}
	e, err := srv.library.rename(req.Context(), req.PathValue("id"), er.Secret, er.Name)
	if err != nil {
		entryError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e.info)
}

func (srv *Server) deleteGame(w http.ResponseWriter, req *http.Request) {
	var er entryReq
	if !srv.changing(w, req) || !srv.readJSON(w, req, &er) {
		return
	}
	if err := srv.library.remove(req.Context(), req.PathValue("id"), er.Secret); err != nil {
		entryError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func entryError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "no such game")
	case errors.Is(err, errNotSaver):
		writeError(w, http.StatusForbidden, "%v", err)
	default:
		writeError(w, http.StatusBadRequest, "%v", err)
	}
}

// GameSource is a library game's file, for editing.
type GameSource struct {
	Board GameInfo `json:"board"`
	// File is the file's name; Source its text (for a game of one JSON
	// file), or Archive the base64 of its zip (a game of several files).
	File    string `json:"file"`
	Source  string `json:"source,omitempty"`
	Archive []byte `json:"archive,omitempty"`
}

func (srv *Server) gameSource(w http.ResponseWriter, req *http.Request) {
	e, ok := srv.library.get(req.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no game %q", req.PathValue("id"))
		return
	}
	gs := GameSource{Board: e.info, File: e.info.File}
	var data []byte
	if e.pinned != nil {
		data = e.pinned.data
	} else {
		// A saved game's file is read from the store: nothing to compile.
		g, err := srv.store.Game(req.Context(), e.info.Hash)
		if err != nil {
			writeError(w, http.StatusServiceUnavailable, "%v", err)
			return
		}
		data = g.Data
	}
	if game.IsZip(data) {
		gs.Archive = data
	} else {
		gs.Source = string(data)
	}
	writeJSON(w, http.StatusOK, gs)
}

// Validation is what POST /api/validate answers: the game's pack, whether
// it is valid, every problem with its line, column and pointer, and what
// the pack's editor needs to know of the file (a rule book's events).
type Validation struct {
	Game        string            `json:"game"`
	Valid       bool              `json:"valid"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Board       *game.Info        `json:"board,omitempty"`
	Outline     any               `json:"outline,omitempty"`
}

// validate checks a game file sent as the request body (?name= names it
// in the diagnostics) without keeping it.
func (srv *Server) validate(w http.ResponseWriter, req *http.Request) {
	if err := srv.sameOrigin(req); err != nil {
		writeError(w, http.StatusForbidden, "%v", err)
		return
	}
	src, ok := srv.readGame(w, req)
	if !ok {
		return
	}
	v := Validation{Diagnostics: []diag.Diagnostic{}}
	p, err := srv.packs.Detect(src)
	if err == nil {
		v.Game = p.Name()
	}
	c, list := srv.compileSent(req.Context(), src, v.Game)
	if list != nil {
		v.Diagnostics = list
	}
	if c != nil {
		v.Valid = true
		v.Board = &c.info
	}
	if o, ok := p.(game.Outliner); ok && err == nil {
		v.Outline = o.Outline(src)
	}
	writeJSON(w, http.StatusOK, v)
}

func (srv *Server) catalog(w http.ResponseWriter, req *http.Request) {
	p := srv.packs.Named(req.PathValue("pack"))
	c, ok := p.(game.Cataloger)
	if !ok {
		writeError(w, http.StatusNotFound, "no catalog for %q", req.PathValue("pack"))
		return
	}
	writeJSON(w, http.StatusOK, c.Catalog())
}

// render fills in a template of a pack's catalog (a rule book's predicate).
func (srv *Server) render(w http.ResponseWriter, req *http.Request) {
	o, ok := srv.packs.Named(req.PathValue("pack")).(game.Outliner)
	if !ok {
		writeError(w, http.StatusNotFound, "no templates for %q", req.PathValue("pack"))
		return
	}
	var args map[string]string
	if !srv.changing(w, req) || !srv.readJSON(w, req, &args) {
		return
	}
	text, err := o.Render(req.PathValue("name"), args)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Text string `json:"text"`
	}{text})
}

// --- matches ---

// MatchList is a page of the lobby's matches.
type MatchList struct {
	Matches []Summary `json:"matches"`
	// Next is the cursor of the next page ("" at the end).
	Next string `json:"next,omitempty"`
}

// listMatches lists public matches, newest first, a page at a time
// (?status=, ?game=, ?before=, ?limit=). It reads the store's summaries
// and the live rooms' published snapshots; it never waits for a room or
// reads a game file.
func (srv *Server) listMatches(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 100 {
		limit = 30
	}
	recs, err := srv.store.Matches(req.Context(), store.Query{Status: q.Get("status"), Pack: q.Get("game"), PublicOnly: true,
		Before: q.Get("before"), Limit: limit})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	out := MatchList{Matches: make([]Summary, 0, len(recs))}
	for _, rec := range recs {
		if r := srv.liveRoom(rec.ID); r != nil {
			out.Matches = append(out.Matches, r.summary())
			continue
		}
		out.Matches = append(out.Matches, summarize(rec, nil))
	}
	if len(recs) == limit {
		out.Next = recs[len(recs)-1].ID
	}
	writeJSON(w, http.StatusOK, out)
}

type createReq struct {
	Board     string `json:"board"`
	Seats     int    `json:"seats"`
	MaxRounds int    `json:"maxRounds"`
	// Public lists the match in the lobby; otherwise only its invitation
	// link opens it.
	Public bool `json:"public"`
	// TurnLimit is the seconds a person has for a decision (0: none).
	TurnLimit int  `json:"turnLimit"`
	AutoAck   bool `json:"autoAck"`
	// Compat plays the match in a compatibility mode of its game
	// (game.Setup.Compat: "original" plays a party board as the original
	// game did); empty for the game's own rules.
	Compat string `json:"compat"`
	// Name, if set, seats the match's creator in its first seat under
	// that nickname.
	Name string `json:"name"`
	// SpectatorChat lets those who watch write in the table's chat.
	SpectatorChat bool `json:"spectatorChat"`
	// Draft is a game sent to POST /api/drafts (its hash), played
	// without being in the library; Board is then ignored.
	Draft string `json:"draft"`
}

// created is what creating a match answers: its secrets, given once, and
// the creator's seat if they took one.
type created struct {
	ID     string `json:"id"`
	Owner  string `json:"owner"`
	Invite string `json:"invite"`
	URL    string `json:"url"`
	Seat   *int   `json:"seat,omitempty"`
	Token  string `json:"token,omitempty"`
}

func (srv *Server) createMatch(w http.ResponseWriter, req *http.Request) {
	var cr createReq
	if !srv.changing(w, req) || !srv.readJSON(w, req, &cr) {
		return
	}
	if err := srv.mayMake(srv.clientAddr(req)); err != nil {
		writeRefusal(w, err)
		return
	}
	e, ok := srv.library.get(cr.Board)
	if cr.Draft != "" {
		e, ok = srv.draft(req.Context(), cr.Draft)
		if !ok {
			writeError(w, http.StatusBadRequest, "no draft %q: send the game to POST /api/drafts first", cr.Draft)
			return
		}
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "no game %q", cr.Board)
		return
	}
	c, err := srv.library.compiled(req.Context(), e)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "the game does not load: %v", err)
		return
	}
	info, err := game.InfoFor(c.def, cr.Compat)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if cr.Seats == 0 {
		cr.Seats = max(2, info.MinPlayers)
		cr.Seats = min(cr.Seats, info.MaxPlayers)
	}
	if err := info.CheckPlayers(cr.Seats); err != nil {
		writeError(w, http.StatusBadRequest, "%v seats", err)
		return
	}
	if cr.MaxRounds == 0 {
		cr.MaxRounds = info.DefaultMaxRounds
	}
	if cr.MaxRounds < 0 || cr.MaxRounds > 10000 {
		writeError(w, http.StatusBadRequest, "maxRounds must be between 1 and 10000")
		return
	}
	if cr.TurnLimit < 0 || cr.TurnLimit > 24*3600 {
		writeError(w, http.StatusBadRequest, "turnLimit is 0 (none) or up to a day, in seconds")
		return
	}
	rec, sec, err := srv.newMatch(req.Context(), e, c, cr, srv.clientAddr(req))
	var ue *usertext.Error
	if errors.As(err, &ue) {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusCreated, sec)
	srv.log.Info("match created", "match", rec.ID, "game", rec.BoardName, "seats", len(rec.Seats), "public", rec.Settings.Public)
}

// newMatch stores a new match of a library game and returns its secrets.
func (srv *Server) newMatch(ctx context.Context, e *libEntry, c *compiled, cr createReq, client string) (rec store.Match, sec created, err error) {
	if err := srv.library.storeGame(ctx, c); err != nil {
		return store.Match{}, created{}, err
	}
	srv.library.used(ctx, e, time.Now())
	owner, invite := newSecret(), newSecret()
	rec = store.Match{
		ID: newID(), Pack: e.info.Pack, GameHash: c.hash, BoardID: e.info.ID, BoardName: e.info.Name,
		Seed: newSeed(), MaxRounds: cr.MaxRounds, Seats: make([]store.Seat, cr.Seats),
		Owner: store.HashSecret(owner), Invite: store.HashSecret(invite),
		Settings: store.Settings{Public: cr.Public, TurnLimit: time.Duration(cr.TurnLimit) * time.Second, AutoAck: cr.AutoAck, Compat: cr.Compat},
		Status:   store.Lobby, Created: time.Now(),
	}
	rec.Settings.SpectatorChat = cr.SpectatorChat
	sec = created{ID: rec.ID, Owner: owner, Invite: invite, URL: "/m/" + rec.ID + "#invite=" + invite}
	if cr.Name != "" {
		if sec.Token, err = seatCreator(&rec, cr.Name); err != nil {
			return rec, created{}, err
		}
		rec.Seats[0].From = store.HashSecret(client)
		sec.Seat = new(int)
	}
	if err := srv.store.CreateMatch(ctx, rec); err != nil {
		return rec, created{}, err
	}
	return rec, sec, nil
}

// secretsIn are the secrets a request may carry: in the query (GET, the
// WebSocket) or in its JSON body.
type secretsIn struct {
	Token  string `json:"token"`
	Owner  string `json:"owner"`
	Invite string `json:"invite"`
}

func querySecrets(req *http.Request) secretsIn {
	q := req.URL.Query()
	return secretsIn{Token: q.Get("token"), Owner: q.Get("owner"), Invite: q.Get("invite")}
}

// inRoom runs f on the room's goroutine with the rights the secrets give,
// and answers a refusal; it reports whether f ran.
func inRoom(w http.ResponseWriter, req *http.Request, r *room, sec secretsIn, f func(rt rights) error) bool {
	var err error
	if derr := r.do(req.Context(), func() { err = f(r.rightsOf(sec.Token, sec.Owner, sec.Invite)) }); derr != nil {
		err = derr
	}
	switch {
	case err == nil:
		return true
	case errors.Is(err, errNotOwner), errors.Is(err, errNoRight):
		writeError(w, http.StatusForbidden, "%v", err)
	case errors.Is(err, errClosing):
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	case errors.As(err, new(*errRefused)):
		writeRefusal(w, err)
	default:
		writeError(w, http.StatusConflict, "%v", err)
	}
	return false
}

func (srv *Server) getMatch(w http.ResponseWriter, req *http.Request, r *room) {
	var sum Summary
	if inRoom(w, req, r, querySecrets(req), func(rt rights) error {
		if !rt.read {
			return errNoRight
		}
		sum = r.summary()
		return nil
	}) {
		writeJSON(w, http.StatusOK, sum)
	}
}

func (srv *Server) matchBoard(w http.ResponseWriter, req *http.Request, r *room) {
	var msg boardMsg
	if inRoom(w, req, r, querySecrets(req), func(rt rights) error {
		switch {
		case !rt.read:
			return errNoRight
		case r.def == nil:
			return errors.New("the match's game does not load")
		}
		msg = boardMsg{Info: GameInfo{ID: r.rec.BoardID, Info: r.def.info, Hash: r.def.hash, File: path.Base(r.def.file)}, Drawing: r.def.drawing}
		msg.Info.Name = r.rec.BoardName
		return nil
	}) {
		writeJSON(w, http.StatusOK, msg)
	}
}

func (srv *Server) joinMatch(w http.ResponseWriter, req *http.Request, r *room) {
	var jr struct {
		secretsIn
		Name string `json:"name"`
	}
	if !srv.changing(w, req) || !srv.readJSON(w, req, &jr) {
		return
	}
	var seat int
	var token string
	if inRoom(w, req, r, jr.secretsIn, func(rt rights) (err error) {
		seat, token, err = r.join(req.Context(), rt, jr.Name, jr.Token, srv.clientAddr(req))
		return err
	}) {
		writeJSON(w, http.StatusOK, struct {
			Seat  int    `json:"seat"`
			Token string `json:"token"`
		}{seat, token})
	}
}

// ownerAction runs an action of the match's owner and answers the summary.
func (srv *Server) ownerAction(w http.ResponseWriter, req *http.Request, r *room, v any, sec *secretsIn, act func(rt rights) error) {
	if !srv.changing(w, req) || !srv.readJSON(w, req, v) {
		return
	}
	var sum Summary
	if inRoom(w, req, r, *sec, func(rt rights) error {
		if err := act(rt); err != nil {
			return err
		}
		sum = r.summary()
		return nil
	}) {
		writeJSON(w, http.StatusOK, sum)
	}
}

func (srv *Server) addBots(w http.ResponseWriter, req *http.Request, r *room) {
	var br struct {
		secretsIn
		Level string `json:"level"`
	}
	srv.ownerAction(w, req, r, &br, &br.secretsIn, func(rt rights) error {
		if err := srv.checkLevel(br.Level); err != nil {
			return err
		}
		return r.fillWithBots(req.Context(), rt, br.Level)
	})
}

func (srv *Server) startMatch(w http.ResponseWriter, req *http.Request, r *room) {
	var sr secretsIn
	srv.ownerAction(w, req, r, &sr, &sr, func(rt rights) error { return r.start(req.Context(), rt) })
}

// leaveMatch takes the player whose token is given out of the match (of a
// device's players, the one in seat, if given).
func (srv *Server) leaveMatch(w http.ResponseWriter, req *http.Request, r *room) {
	var lr struct {
		secretsIn
		Seat *int `json:"seat"`
	}
	srv.ownerAction(w, req, r, &lr, &lr.secretsIn, func(rt rights) error {
		if rt.seat < 0 {
			return errors.New("this token does not play any seat of the match")
		}
		seat := rt.seat
		if lr.Seat != nil {
			if !slices.Contains(rt.seats, *lr.Seat) {
				return fmt.Errorf("this token does not play seat %d", *lr.Seat+1)
			}
			seat = *lr.Seat
		}
		return r.leaveSeat(req.Context(), seat)
	})
}

// changeSeat lets the owner remove a player, or hand a seat to a bot and
// back.
func (srv *Server) changeSeat(w http.ResponseWriter, req *http.Request, r *room) {
	var cr struct {
		secretsIn
		Remove bool  `json:"remove"`
		Bot    *bool `json:"bot"`
		Mute   *bool `json:"mute"`
	}
	seat, err := strconv.Atoi(req.PathValue("seat"))
	if err != nil {
		writeError(w, http.StatusNotFound, "no seat %q", req.PathValue("seat"))
		return
	}
	srv.ownerAction(w, req, r, &cr, &cr.secretsIn, func(rt rights) error {
		switch {
		case !rt.owner:
			return errNotOwner
		case cr.Remove:
			return r.remove(req.Context(), seat)
		case cr.Bot != nil:
			return r.handOver(req.Context(), rt, seat, *cr.Bot)
		case cr.Mute != nil:
			return r.mute(req.Context(), rt, seat, *cr.Mute)
		}
		return errors.New(`say what to do with the seat: {"remove": true}, {"bot": true|false} or {"mute": true|false}`)
	})
}

// checkLevel checks a bot level's name.
func (srv *Server) checkLevel(level string) error {
	if level == "" || srv.opts.BotLevels == nil {
		return nil
	}
	for _, l := range srv.opts.BotLevels {
		if l == level {
			return nil
		}
	}
	return fmt.Errorf("no bot level %q%s", level, diag.DidYouMean(level, srv.opts.BotLevels))
}

// Replay is what watching a match again needs: its players, the log as a
// spectator sees it and the final view; once it is over, also its seed and
// commands with their hashes (never before: they would tell what is still
// to come, and answers still sealed).
type Replay struct {
	Match    Summary         `json:"match"`
	Seed     string          `json:"seed,omitempty"`
	Players  []string        `json:"players"`
	Commands []ReplayCommand `json:"commands"`
	Entries  []game.Entry    `json:"entries"`
	Final    any             `json:"final"`
	// Chat is the table's chat, oldest first (its last 1000 messages).
	Chat []store.ChatMessage `json:"chat"`
	// Standings rank the seats of a finished match (its end screen).
	Standings *game.Standings `json:"standings,omitempty"`
}

// ReplayCommand is one record of the stored command log: a command, or
// (Undo) the player taking back their last command still standing.
type ReplayCommand struct {
	Seq     int             `json:"seq"`
	Player  int             `json:"player"`
	Command json.RawMessage `json:"command,omitempty"`
	Hash    string          `json:"hash"`
	// Reason is set when a bot played the command for a person: why
	// ("timeout", "left", "owner").
	Reason string `json:"reason,omitempty"`
	Undo   bool   `json:"undo,omitempty"`
}

func (srv *Server) replay(w http.ResponseWriter, req *http.Request, r *room) {
	var rp Replay
	over := false
	if !inRoom(w, req, r, querySecrets(req), func(rt rights) error {
		if !rt.read {
			return errNoRight
		}
		rp = Replay{Match: r.summary(), Players: r.names(), Commands: []ReplayCommand{}, Entries: []game.Entry{}}
		over = r.rec.Status == store.Finished
		if r.m != nil {
			rp.Entries = r.played.withNotes(r.m.Log(game.Spectator, 0), 0, r.m.LogLen(), r.playerName)
			rp.Final = r.m.View(game.Spectator)
			if over {
				st := game.StandingsOf(r.m, len(r.names()))
				rp.Standings = &st
			}
		}
		if over {
			rp.Seed = strconv.FormatUint(r.rec.Seed, 10)
		}
		return nil
	}) {
		return
	}
	if over {
		cmds, err := srv.store.Commands(req.Context(), r.id)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		for _, c := range cmds {
			rp.Commands = append(rp.Commands, ReplayCommand{Seq: c.Seq, Player: c.Player, Command: c.Data, Hash: c.Hash, Reason: c.Reason, Undo: c.Undo})
		}
	}
	chat, err := srv.store.Chat(req.Context(), r.id, 1000)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	rp.Chat = append([]store.ChatMessage{}, chat...)
	writeJSON(w, http.StatusOK, rp)
}

// ReplayStep is a finished match as it stood after its first N commands.
type ReplayStep struct {
	N        int          `json:"n"`
	Commands int          `json:"commands"`
	View     any          `json:"view"`
	Entries  []game.Entry `json:"entries"`
	Hash     string       `json:"hash"`
	// Standings rank the seats at the last step, where the match ended.
	Standings *game.Standings `json:"standings,omitempty"`
}

// replayStep replays a finished match up to command N, for the replay
// viewer (?from= gives the log from that record on).
func (srv *Server) replayStep(w http.ResponseWriter, req *http.Request, r *room) {
	n, err := strconv.Atoi(req.PathValue("n"))
	if err != nil || n < 0 {
		writeError(w, http.StatusBadRequest, "say which command to stop after: a number from 0")
		return
	}
	from, _ := strconv.Atoi(req.URL.Query().Get("from"))
	var c *compiled
	var setup game.Setup
	var name func(int) string
	if !inRoom(w, req, r, querySecrets(req), func(rt rights) error {
		switch {
		case !rt.read:
			return errNoRight
		case r.rec.Status != store.Finished:
			return errors.New("a match can be replayed once it is over")
		case r.def == nil:
			return errors.New("the match's game does not load")
		}
		c, setup = r.def, r.setup()
		names := r.names()
		name = func(seat int) string {
			if seat >= 0 && seat < len(names) {
				return names[seat]
			}
			return fmt.Sprintf("seat %d", seat+1)
		}
		return nil
	}) {
		return
	}
	cmds, err := srv.store.Commands(req.Context(), r.id)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	n = min(n, len(cmds))
	m, p, _, err := replayLog(c.def, setup, cmds[:n], 0, name, nil)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "replaying: %v", err)
		return
	}
	from = max(from, 0)
	step := ReplayStep{N: n, Commands: len(cmds), View: m.View(game.Spectator),
		Entries: p.withNotes(m.Log(game.Spectator, from), from, m.LogLen(), name), Hash: m.Hash()}
	if m.Outcome().Over {
		st := game.StandingsOf(m, len(setup.Players))
		step.Standings = &st
	}
	writeJSON(w, http.StatusOK, step)
}

// rematch makes (once) the match's rematch: the same game, the same
// people in the same seats, started at once. Players keep their secrets:
// each seat of the rematch is played by whoever played it here.
func (srv *Server) rematch(w http.ResponseWriter, req *http.Request, r *room) {
	var rr secretsIn
	if !srv.changing(w, req) || !srv.readJSON(w, req, &rr) {
		return
	}
	var next string
	client := srv.clientAddr(req)
	if !inRoom(w, req, r, rr, func(rt rights) (err error) {
		if rt.seat < 0 && !rt.owner {
			return errors.New("only the players of a match may ask for a rematch")
		}
		if r.rec.Settings.Next == "" {
			// Making it is making a match, like creating one.
			if err := srv.mayMake(client); err != nil {
				return err
			}
		}
		next, err = r.rematch(req.Context())
		return err
	}) {
		return
	}
	writeJSON(w, http.StatusOK, struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}{next, "/m/" + next})
}

// notFoundOr turns a missing match into a refusal saying so.
func notFoundOr(err error, id string) error {
	if errors.Is(err, store.ErrNotFound) {
		return &errRefused{http.StatusNotFound, fmt.Sprintf("no match %q", id)}
	}
	return err
}

// saveFailed answers a request whose game could not be kept, if it could
// not: a client over its quota, or the store's failure. It reports
// whether it answered.
func (srv *Server) saveFailed(w http.ResponseWriter, err error) bool {
	var qe *errQuota
	switch {
	case errors.As(err, &qe):
		srv.metrics.rejected.WithLabelValues("quota").Inc()
		writeError(w, http.StatusInsufficientStorage, "%v", err)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "%v", err)
	default:
		return false
	}
	return true
}
