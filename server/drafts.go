package server

import (
	"context"
	"net/http"
	"path"
	"time"

	"github.com/tabulagames/tabula/diag"
)

// Drafts are games being made in the editor that their author plays
// without publishing them: the game is checked and stored (matches are
// played on stored games), but it joins no library, so the lobby does not
// list it. A match is made of it by its hash (createReq.Draft). A draft
// counts against its author's quota of saved bytes for a day; one no
// match was made on leaves the store after a day.

// saveDraft checks a game and stores it for a match of it:
// POST /api/drafts?name=FILE with the game as the body, as POST
// /api/boards takes it. It answers 201 {draft, board, diagnostics}, or
// 422 with every problem.
func (srv *Server) saveDraft(w http.ResponseWriter, req *http.Request) {
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
	err := srv.library.saveDraft(req.Context(), c, srv.clientAddr(req), time.Now())
	if srv.saveFailed(w, err) {
		return
	}
	writeJSON(w, http.StatusCreated, struct {
		Draft       string            `json:"draft"`
		Board       GameInfo          `json:"board"`
		Diagnostics []diag.Diagnostic `json:"diagnostics"`
	}{c.hash, draftInfo(c), diags})
}

// draft returns a stored game, by its hash, as a game to create a match
// of.
func (srv *Server) draft(ctx context.Context, hash string) (*libEntry, bool) {
	if len(hash) != 64 {
		return nil, false
	}
	c, err := srv.defs.get(ctx, hash, "")
	if err != nil {
		return nil, false
	}
	return &libEntry{info: draftInfo(c), pinned: c}, true
}

func draftInfo(c *compiled) GameInfo {
	info := GameInfo{Info: c.info, Source: "draft", File: path.Base(c.file), Hash: c.hash}
	if info.Name == "" {
		info.Name = "Draft"
	}
	return info
}
