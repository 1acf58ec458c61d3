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
		// Its writer may be stuck writing to it: closing the connection
		// frees it.
		go s.ws.CloseNow()
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

// maxBatch bounds the messages the writer sends in one frame.
const maxBatch = 32

// writer sends the queued messages — those queued together in one frame,
// as a JSON array, to spare the system calls — pings the client when the
// connection is quiet, and closes it when the session ends or the client
// stops answering. A client that does not read is not waited for: its
// queue fills and send closes it.
func (s *session) writer(ctx context.Context, limits Limits) {
	ping := time.NewTicker(limits.PingEvery)
	defer ping.Stop()
	var batch [][]byte
	var frame []byte
	for {
		select {
		case msg := <-s.out:
			batch = append(batch[:0], msg)
		more:
			for len(batch) < maxBatch {
				select {
				case m := <-s.out:
					batch = append(batch, m)
				default:
					break more
				}
			}
			frame = joinMessages(frame[:0], batch)
			if err := s.ws.Write(context.Background(), websocket.MessageText, frame); err != nil {
				s.closeWith("")
				s.ws.CloseNow()
				return
			}
			if cap(frame) > 1<<20 {
				frame = nil // do not keep a huge buffer for a quiet connection
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

// joinMessages appends to b the messages as one frame: the message itself
// if there is one, else a JSON array of them (messages that are arrays
// already are spliced in).
func joinMessages(b []byte, msgs [][]byte) []byte {
	if len(msgs) == 1 {
		return append(b, msgs[0]...)
	}
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		if len(m) > 1 && m[0] == '[' {
			m = m[1 : len(m)-1]
		}
		b = append(b, m...)
	}
	return append(b, ']')
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
	var buf bytes.Buffer
	for {
		// Reads need no context: closing the connection (the writer does,
		// when the session or the server ends) ends them.
		data, err := readMessage(ws, &buf)
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
		if reply, ok := srv.handleMessage(ctx, r, s, data); ok {
			s.send(encodeReply(reply))
		}
	}
}

// readMessage reads the next message into buf (reused from message to
// message) and returns its bytes, valid until the next call.
func readMessage(ws *websocket.Conn, buf *bytes.Buffer) ([]byte, error) {
	_, rd, err := ws.Reader(context.Background())
	if err != nil {
		return nil, err
	}
	buf.Reset()
	if _, err := buf.ReadFrom(rd); err != nil {
		return nil, err
	}
	if buf.Cap() > 1<<20 {
		*buf = bytes.Buffer{}
	}
	return buf.Bytes(), nil
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
// refusing, unless the acknowledgement went out with the state it caused
// (ok is false then).
func (srv *Server) handleMessage(ctx context.Context, r *room, s *session, data []byte) (_ replyMsg, ok bool) {
	var msg clientMsg
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil || dec.More() {
		srv.metrics.rejected.WithLabelValues("malformed").Inc()
		reason := "not a JSON message"
		if err != nil {
			reason += ": " + err.Error()
		}
		return replyMsg{Type: "rejected", Reason: reason}, true
	}
	if msg.Type != "command" {
		srv.metrics.rejected.WithLabelValues("malformed").Inc()
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf(`unknown message type %q; send {"type":"command","id":N,"data":{…}}`, msg.Type)}, true
	}
	if len(msg.Data) > game.MaxCommand {
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf("a command has at most %d bytes", game.MaxCommand)}, true
	}
	var err error
	acked := false
	if derr := r.do(ctx, func() {
		// The acknowledgement goes out with the state the command caused,
		// in one frame.
		r.ackTo, r.ackID = s, msg.ID
		err = r.command(ctx, s.seat, msg.Data)
		acked = r.ackTo == nil
		r.ackTo = nil
	}); derr != nil {
		err = derr
	}
	if err != nil {
		if !engine.IsRejected(err) {
			srv.metrics.rejected.WithLabelValues("error").Inc()
		}
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: reasonText(err)}, true
	}
	return replyMsg{Type: "ack", ID: msg.ID}, !acked
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
