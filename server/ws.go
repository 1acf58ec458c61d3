package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// session is one WebSocket connection to a room: a seat's player (with
// that seat's token) or a spectator (seat -1).
type session struct {
	ws      *websocket.Conn
	seat    int
	out     chan []byte
	logSent int // log records already sent (touched only by the room)
	once    sync.Once
	done    chan struct{}
}

// outSize bounds the messages queued for one connection. A client that
// cannot keep up is disconnected; when it reconnects it is sent the whole
// state again.
const outSize = 64

// maxCommand is the largest command message accepted; larger ones are
// rejected with a reason (and beyond readLimit the connection is closed).
const (
	maxCommand = 1024
	readLimit  = 64 << 10
)

// clientMsg is what a client sends.
type clientMsg struct {
	Type string `json:"type"`
	ID   int    `json:"id"`
	Kind string `json:"kind"`
	// Value is a choice's index (or a scripted roll, refused by the
	// server: dice are rolled by the match); Space chooses a path by the
	// space clicked.
	Value  int    `json:"value"`
	Space  string `json:"space"`
	Player *int   `json:"player"`
}

// The commands that roll the dice and choose a way, in every pack.
const (
	kindRoll       = "roll"
	kindChoosePath = "choose-path"
)

// replyMsg acknowledges or rejects a client's command.
type replyMsg struct {
	Type   string `json:"type"`
	ID     int    `json:"id"`
	Reason string `json:"reason,omitempty"`
}

func (s *session) send(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	select {
	case s.out <- data:
	default:
		// The client is too slow; drop it rather than block the room.
		go s.ws.Close(websocket.StatusPolicyViolation, "too slow: reconnect to get the current state")
		s.close()
	}
}

func (s *session) close() {
	s.once.Do(func() { close(s.done) })
}

func (s *session) writer(ctx context.Context) {
	for {
		select {
		case msg := <-s.out:
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := s.ws.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				s.close()
				return
			}
		case <-s.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

// serveWS connects a client to a match: with ?token= a seat's player,
// without one a spectator.
func (srv *Server) serveWS(w http.ResponseWriter, req *http.Request, r *room) {
	token := req.URL.Query().Get("token")
	seat := -1
	if token != "" {
		if err := r.do(req.Context(), func() { seat = r.seatOf(token) }); err != nil {
			return
		}
		if seat < 0 {
			http.Error(w, "this token does not play any seat of the match", http.StatusForbidden)
			return
		}
	}
	ws, err := websocket.Accept(w, req, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(readLimit)
	ctx, cancel := context.WithCancel(srv.ctx)
	defer cancel()
	s := &session{ws: ws, seat: seat, out: make(chan []byte, outSize), done: make(chan struct{})}
	go s.writer(ctx)
	if err := r.do(ctx, func() {
		r.sessions[s] = struct{}{}
		r.broadcast() // everybody sees who is online
	}); err != nil {
		ws.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	defer r.do(context.Background(), func() {
		delete(r.sessions, s)
		r.broadcast()
	})
	defer s.close()
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) && ctx.Err() == nil {
				ws.Close(websocket.StatusPolicyViolation, closeReason(err))
			}
			return
		}
		reply := srv.handleMessage(ctx, r, s, data)
		s.send(reply)
		select {
		case <-s.done:
			return
		default:
		}
	}
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
	if len(data) > maxCommand {
		return replyMsg{Type: "rejected", Reason: fmt.Sprintf("message too large: %d bytes, the limit is %d", len(data), maxCommand)}
	}
	var msg clientMsg
	if err := json.Unmarshal(data, &msg); err != nil {
		return replyMsg{Type: "rejected", Reason: "not a JSON message: " + err.Error()}
	}
	if msg.Type != "command" {
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf("unknown message type %q; send {\"type\":\"command\",\"kind\":…}", msg.Type)}
	}
	if msg.Player != nil && *msg.Player != s.seat {
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf("you play seat %d and cannot command seat %d", s.seat, *msg.Player)}
	}
	if msg.Kind == kindRoll && msg.Value != 0 {
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: "the dice are rolled by the server; send a roll without a value"}
	}
	var err error
	if derr := r.do(ctx, func() {
		cmd := Command{Kind: msg.Kind, Value: msg.Value}
		if msg.Kind == kindChoosePath && msg.Space != "" && r.game != nil {
			i, ok := r.game.ChoiceFor(msg.Space)
			if !ok {
				err = fmt.Errorf("space %q is not one of the ways you can go", msg.Space)
				return
			}
			cmd.Value = i
		}
		err = r.command(ctx, s.seat, cmd)
	}); derr != nil {
		err = derr
	}
	if err != nil {
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: err.Error()}
	}
	return replyMsg{Type: "ack", ID: msg.ID}
}
