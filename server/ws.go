package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// session is one WebSocket connection to a room: a seat's player or a
// spectator (seat -1).
type session struct {
	ws      *websocket.Conn
	seat    int
	out     chan []byte
	logSent int // log records already sent (touched only by the room)
	sumVer  int // the room's summary version last sent (room only)
	once    sync.Once
	done    chan struct{}
	reason  string
}

// outSize bounds the messages queued for one connection. A client that
// cannot keep up is disconnected; when it reconnects it is sent what it
// missed.
const outSize = 64

// send queues a message without ever blocking the room: a client too slow
// to take it is disconnected.
func (s *session) send(msg []byte) {
	select {
	case <-s.done:
	case s.out <- msg:
	default:
		s.closeWith("too slow: reconnect to get the current state")
	}
}

// closeWith closes the connection, telling the client why (if reason is
// set).
func (s *session) closeWith(reason string) {
	s.once.Do(func() {
		s.reason = reason
		close(s.done)
	})
}

// writer sends the queued messages, pings the client when the connection
// is quiet, and closes it when the session ends or the client stops
// answering.
func (s *session) writer(ctx context.Context, limits Limits) {
	ping := time.NewTicker(limits.PingEvery)
	defer ping.Stop()
	for {
		select {
		case msg := <-s.out:
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := s.ws.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				s.closeWith("")
				s.ws.CloseNow()
				return
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, limits.PingTimeout)
			err := s.ws.Ping(pctx)
			cancel()
			if err != nil {
				s.closeWith("")
				s.ws.Close(websocket.StatusPolicyViolation, "no answer to ping")
				return
			}
		case <-s.done:
			code := websocket.StatusNormalClosure
			if s.reason == "server restarting" {
				code = websocket.StatusServiceRestart
			}
			s.ws.Close(code, s.reason)
			return
		case <-ctx.Done():
			s.ws.Close(websocket.StatusServiceRestart, "server restarting")
			return
		}
	}
}

// clientMsg is what a client sends: a command, with an id the reply
// names.
type clientMsg struct {
	Type string          `json:"type"`
	ID   int             `json:"id"`
	Data json.RawMessage `json:"data"`
}

// replyMsg acknowledges or rejects a client's command.
type replyMsg struct {
	Type   string `json:"type"`
	ID     int    `json:"id"`
	Reason string `json:"reason,omitempty"`
}

// serveWS connects a client to a match: with ?token= a seat's player,
// with ?invite= (or to a public match) a spectator; ?log=N says how much
// of the log the client has already.
func (srv *Server) serveWS(w http.ResponseWriter, req *http.Request, r *room) {
	q := req.URL.Query()
	var rt rights
	if err := r.do(req.Context(), func() {
		rt = r.rightsOf(q.Get("token"), q.Get("owner"), q.Get("invite"))
	}); err != nil {
		writeError(w, http.StatusServiceUnavailable, "%v", err)
		return
	}
	switch {
	case q.Get("token") != "" && rt.seat < 0:
		writeError(w, http.StatusForbidden, "this token does not play any seat of the match")
		return
	case !rt.read:
		writeError(w, http.StatusForbidden, "%v", errNoRight)
		return
	case int(r.conns.Add(1)) > srv.limits.Connections:
		r.conns.Add(-1)
		srv.metrics.rejected.WithLabelValues("connections").Inc()
		writeError(w, http.StatusServiceUnavailable, "this match has %d connections already, the most it takes", srv.limits.Connections)
		return
	}
	defer r.conns.Add(-1)
	known, _ := strconv.Atoi(q.Get("log"))
	// Accept checks that the page asking is the server's own (Origin).
	ws, err := websocket.Accept(w, req, &websocket.AcceptOptions{OriginPatterns: srv.opts.AllowedOrigins})
	if err != nil {
		return
	}
	ws.SetReadLimit(srv.limits.Message)
	srv.metrics.connections.Inc()
	defer srv.metrics.connections.Dec()
	ctx, cancel := context.WithCancel(srv.ctx)
	defer cancel()
	s := &session{ws: ws, seat: rt.seat, out: make(chan []byte, outSize), done: make(chan struct{}), sumVer: -1}
	go s.writer(ctx, srv.limits)
	if err := r.do(ctx, func() {
		if r.m != nil {
			s.logSent = min(max(known, 0), r.m.LogLen())
		}
		r.sessions[s] = struct{}{}
		r.changed() // everybody sees who is online
	}); err != nil {
		s.closeWith("server restarting")
		return
	}
	defer r.post(func() {
		delete(r.sessions, s)
		r.changed()
	})
	defer s.closeWith("")
	go func() {
		<-s.done
		cancel()
	}()
	rate := newBucket(srv.limits.Rate, srv.limits.Burst)
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) && ctx.Err() == nil {
				s.closeWith(closeReason(err))
			}
			return
		}
		if !rate.take(time.Now()) {
			srv.metrics.rejected.WithLabelValues("rate").Inc()
			var head struct {
				ID int `json:"id"`
			}
			json.Unmarshal(data, &head) // to name the message refused, if it says its id
			s.send(encodeReply(replyMsg{Type: "rejected", ID: head.ID, Reason: fmt.Sprintf("too many messages: at most %g a second; try again", srv.limits.Rate)}))
			continue
		}
		s.send(encodeReply(srv.handleMessage(ctx, r, s, data)))
	}
}

func encodeReply(m replyMsg) []byte {
	b, _ := json.Marshal(m)
	return b
}

func closeReason(err error) string {
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return msg
}

// handleMessage checks one client message and, if it is a command, passes
// it to the room; it returns the acknowledgement or the reason for
// refusing.
func (srv *Server) handleMessage(ctx context.Context, r *room, s *session, data []byte) replyMsg {
	var msg clientMsg
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil || dec.More() {
		srv.metrics.rejected.WithLabelValues("malformed").Inc()
		reason := "not a JSON message"
		if err != nil {
			reason += ": " + err.Error()
		}
		return replyMsg{Type: "rejected", Reason: reason}
	}
	if msg.Type != "command" {
		srv.metrics.rejected.WithLabelValues("malformed").Inc()
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf(`unknown message type %q; send {"type":"command","id":N,"data":{…}}`, msg.Type)}
	}
	if len(msg.Data) > game.MaxCommand {
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf("a command has at most %d bytes", game.MaxCommand)}
	}
	var err error
	if derr := r.do(ctx, func() { err = r.command(ctx, s.seat, msg.Data) }); derr != nil {
		err = derr
	}
	if err != nil {
		if !engine.IsRejected(err) {
			srv.metrics.rejected.WithLabelValues("error").Inc()
		}
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: reasonText(err)}
	}
	return replyMsg{Type: "ack", ID: msg.ID}
}

// reasonText is an error as a player reads it: a rule's refusal without
// the engine's "rejected: " prefix.
func reasonText(err error) string {
	var re *engine.RejectError
	if errors.As(err, &re) {
		return re.Reason
	}
	return err.Error()
}
