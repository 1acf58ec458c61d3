package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// peer is where a session's messages go: the client's WebSocket, or (in
// a cluster) the node that holds the client's WebSocket.
type peer interface {
	write(frame []byte) error
	ping(ctx context.Context) error
	// close ends the connection, telling the client why.
	close(code websocket.StatusCode, reason string)
	closeNow()
}

// wsPeer is a client's WebSocket; a write it does not take within
// timeout closes it.
type wsPeer struct {
	ws      *websocket.Conn
	timeout time.Duration
}

func (p wsPeer) write(frame []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	return p.ws.Write(ctx, websocket.MessageText, frame)
}
func (p wsPeer) ping(ctx context.Context) error { return p.ws.Ping(ctx) }
func (p wsPeer) close(code websocket.StatusCode, reason string) {
	p.ws.Close(code, reason)
}
func (p wsPeer) closeNow() { p.ws.CloseNow() }

// session is one client watching a room: a seat's player or a spectator
// (seat -1).
type session struct {
	peer peer
	// seat is the seat whose view the session is sent and whose commands
	// it plays (-1: it watches); held are the seats its secret plays:
	// several when players share one device, which switches between
	// them (touched only by the room).
	seat    int
	held    []int
	out     chan outMsg
	logSent int // log records already sent (touched only by the room)
	sumVer  int // the room's summary version last sent (room only)
	once    sync.Once
	done    chan struct{}
	reason  string
	// onClose, if set, runs once the session is closed: it ends the
	// work of its connection.
	onClose func()

	// In a cluster: id names the session between nodes; moved tells a
	// session of this node that its match's owner stopped; link is the
	// session's way to its match (set by its reader, and by the watcher
	// that moves it to the match's next owner); lastLog is the log length
	// its client was last sent.
	id      string
	moved   chan struct{}
	linkMu  sync.Mutex
	link    link
	lastLog int
	// view is the seat the client last switched to, for a session that
	// follows its match to another node (under linkMu).
	view *int
}

func newSession(p peer, seat int) *session {
	return &session{peer: p, seat: seat, out: make(chan outMsg, outSize), done: make(chan struct{}), sumVer: -1,
		moved: make(chan struct{}, 1)}
}

// relayed reports whether the session's client is another node's: its
// acknowledgements are answered to that node's request rather than sent
// with the state, which might be lost if the client moves meanwhile.
func (s *session) relayed() bool {
	_, ok := s.peer.(*remotePeer)
	return ok
}

// relink gives the session a new way to its match.
func (s *session) relink(l link) {
	s.linkMu.Lock()
	s.link = l
	s.linkMu.Unlock()
}

// awaitRelink asks the session's watcher to move it from the link that
// failed to the match's next owner, and waits until it has (nil if it
// could not).
func (s *session) awaitRelink(ctx context.Context, failed link) link {
	select {
	case s.moved <- struct{}{}:
	default:
	}
	deadline := time.NewTimer(time.Minute)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if l := s.currentLink(); l != failed {
			return l
		}
		select {
		case <-tick.C:
		case <-s.done:
			return nil
		case <-ctx.Done():
			return nil
		case <-deadline.C:
			return nil
		}
	}
}

func (s *session) currentLink() link {
	s.linkMu.Lock()
	defer s.linkMu.Unlock()
	return s.link
}

// noteLog remembers the log length a frame for the client says, so that
// a session moved to another owner asks only for the rest.
func (s *session) noteLog(frame []byte) {
	var one struct {
		Type string `json:"type"`
		Log  int    `json:"log"`
	}
	if len(frame) > 0 && frame[0] == '[' {
		var many []json.RawMessage
		json.Unmarshal(frame, &many)
		for _, m := range many {
			s.noteLog(m)
		}
		return
	}
	if json.Unmarshal(frame, &one) == nil && one.Type == "state" && one.Log > 0 {
		s.linkMu.Lock()
		s.lastLog = one.Log
		s.linkMu.Unlock()
	}
}

// outSize bounds the messages queued for one connection. A client that
// cannot keep up is disconnected; when it reconnects it is sent what it
// missed.
const outSize = 64

// outMsg is a message queued for a connection, with the acknowledgement
// that goes with it in one frame if acked: a command's state and its
// acknowledgement arrive together.
type outMsg struct {
	data  []byte
	ack   int
	acked bool
}

// send queues a message without ever blocking the room: a client too slow
// to take it is disconnected.
func (s *session) send(msg []byte) { s.queue(outMsg{data: msg}) }

// sendAck queues a state message and the acknowledgement of the command
// id, to go in one frame.
func (s *session) sendAck(state []byte, id int) { s.queue(outMsg{data: state, ack: id, acked: true}) }

func (s *session) queue(m outMsg) {
	select {
	case <-s.done:
	case s.out <- m:
	default:
		s.closeWith("too slow: reconnect to get the current state")
		// Its writer may be stuck writing to it: closing the connection
		// frees it.
		go s.peer.closeNow()
	}
}

// closeWith closes the connection, telling the client why (if reason is
// set).
func (s *session) closeWith(reason string) {
	s.once.Do(func() {
		s.reason = reason
		close(s.done)
		if s.onClose != nil {
			s.onClose()
		}
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
	var batch []outMsg
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
			if err := s.write(batch); err != nil {
				s.closeWith("")
				s.peer.closeNow()
				return
			}
			clear(batch) // the messages are not kept for a quiet connection
			// A connection just written to needs no ping: with thousands
			// of connections, pinging busy ones costs as much as a share
			// of their commands.
			ping.Reset(limits.PingEvery)
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, limits.PingTimeout)
			err := s.peer.ping(pctx)
			cancel()
			if err != nil {
				s.closeWith("")
				s.peer.close(websocket.StatusPolicyViolation, "no answer to ping")
				return
			}
		case <-s.done:
			code := websocket.StatusNormalClosure
			if s.reason == reasonRestart || s.reason == reasonMoved {
				code = websocket.StatusServiceRestart
			}
			s.peer.close(code, s.reason)
			return
		case <-ctx.Done():
			s.peer.close(websocket.StatusServiceRestart, reasonRestart)
			return
		}
	}
}

// write sends a batch of messages as one frame: a lone message as it is,
// others joined in a buffer borrowed for the write, so that a quiet
// connection keeps none.
func (s *session) write(batch []outMsg) error {
	if len(batch) == 1 && !batch[0].acked {
		return s.peer.write(batch[0].data)
	}
	buf := frames.Get().(*[]byte)
	*buf = joinMessages((*buf)[:0], batch)
	err := s.peer.write(*buf)
	if cap(*buf) <= 1<<20 { // a huge one is left to the collector
		frames.Put(buf)
	}
	return err
}

var frames = sync.Pool{New: func() any { return new([]byte) }}

// The reasons a connection closes that a client reconnects after.
const (
	reasonRestart = "server restarting"
	reasonMoved   = "the match moved to another server"
)

// joinMessages appends to b the messages as one frame: the message itself
// if there is one without an acknowledgement, else a JSON array of them
// (messages that are arrays already are spliced in).
func joinMessages(b []byte, msgs []outMsg) []byte {
	if len(msgs) == 1 && !msgs[0].acked {
		return append(b, msgs[0].data...)
	}
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		d := m.data
		if len(d) > 1 && d[0] == '[' {
			d = d[1 : len(d)-1]
		}
		b = append(b, d...)
		if m.acked {
			b = append(b, `,{"type":"ack","id":`...)
			b = strconv.AppendInt(b, int64(m.ack), 10)
			b = append(b, '}')
		}
	}
	return append(b, ']')
}

// clientMsg is what a client sends, with an id the reply names: a
// command (Data), a chat message (Text, and Name for someone watching,
// Seat for one of a device's players), or a switch to another of the
// device's seats (Seat, and Log, how much of that seat's log it keeps).
type clientMsg struct {
	Type string          `json:"type"`
	ID   int             `json:"id"`
	Data json.RawMessage `json:"data,omitempty"`
	Text string          `json:"text,omitempty"`
	Name string          `json:"name,omitempty"`
	Seat *int            `json:"seat,omitempty"`
	Log  int             `json:"log,omitempty"`
}

// replyMsg acknowledges or rejects a client's command.
type replyMsg struct {
	Type   string `json:"type"`
	ID     int    `json:"id"`
	Reason string `json:"reason,omitempty"`
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

// wsQuery are what a client says when it connects: its secrets and how
// much of the log it has.
type wsQuery struct {
	Token  string `json:"token"`
	Owner  string `json:"owner"`
	Invite string `json:"invite"`
	Log    int    `json:"log"`
	// Seat is the seat, among those the token plays, whose view the
	// client wants (-1: none, as someone watching); the token's first
	// seat if unset.
	Seat *int `json:"seat,omitempty"`
}

// errRefused is a connection the match refuses; the client is answered
// with status and the error's text.
type errRefused struct {
	status int
	msg    string
}

func (e *errRefused) Error() string { return e.msg }

// link is a connection's way to its match: the room in this process, or
// its owner elsewhere in the cluster.
type link interface {
	// command plays a client's command; send reports whether its reply
	// must still be sent (it went with the state otherwise).
	command(ctx context.Context, msg clientMsg) (reply replyMsg, send bool, err error)
	// detach takes the connection out of the match.
	detach()
}

// serveWS connects a client to a match: with ?token= a seat's player,
// with ?invite= (or to a public match) a spectator; ?log=N says how much
// of the log the client has already. In a cluster, a match owned by
// another node is reached through it: the socket stays here.
func (srv *Server) serveWS(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	known, _ := strconv.Atoi(q.Get("log"))
	wq := wsQuery{Token: q.Get("token"), Owner: q.Get("owner"), Invite: q.Get("invite"), Log: max(known, 0)}
	if v, err := strconv.Atoi(q.Get("seat")); err == nil {
		wq.Seat = &v
	}
	id := req.PathValue("id")
	// The client's sockets are counted before anything else is done for
	// it (loading the match).
	release, err := srv.holdSocket(req)
	if err != nil {
		writeRefusal(w, err)
		return
	}
	defer release()
	// Rights are checked before the socket is accepted, so that a refusal
	// is an HTTP answer with a reason.
	if err := srv.mayConnect(req.Context(), id, wq); err != nil {
		var re *errRefused
		if errors.As(err, &re) {
			writeError(w, re.status, "%s", re.msg)
		} else {
			writeError(w, http.StatusServiceUnavailable, "%v", err)
		}
		return
	}
	// (Accepting it lifts the deadlines of the request: net/http clears
	// them when a handler takes its connection over.)
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
	s := newSession(wsPeer{ws, srv.limits.PingTimeout}, -1)
	s.onClose = cancel
	go s.writer(ctx, srv.limits)
	defer s.closeWith("")
	l, err := srv.attach(ctx, id, wq, s)
	if err != nil {
		s.closeWith(closeReason(err))
		return
	}
	s.relink(l)
	defer func() { s.currentLink().detach() }()
	rate := newBucket(srv.limits.Rate, srv.limits.Burst)
	chat := newChatGate(srv, srv.clientAddr(req))
	var buf bytes.Buffer
	for {
		// Reads need no context: closing the connection (the writer does,
		// when the session or the server ends) ends them.
		data, err := readMessage(ctx, ws, &buf, srv.limits.MessageTime)
		if err != nil {
			reason := ""
			select {
			case <-s.done: // closeWith set the reason before closing done
				reason = s.reason
			default:
			}
			srv.log.Debug("a client's connection ended", "match", id, "err", err, "reason", reason)
			var ce websocket.CloseError
			if !errors.As(err, &ce) && ctx.Err() == nil {
				s.closeWith(closeReason(err))
			}
			return
		}
		msg, reply, ok := srv.parseMessage(data, rate)
		if ok && msg.Type == "chat" {
			reply, ok = chat.check(&msg)
		}
		if ok {
			var send bool
			l := s.currentLink()
			reply, send, err = l.command(ctx, msg)
			if errors.Is(err, errOwnerGone) {
				// The match's owner is gone: the session's watcher finds
				// its next owner (this node, perhaps); the command is
				// played there.
				if next := s.awaitRelink(ctx, l); next != nil {
					reply, send, err = next.command(ctx, msg)
				}
			}
			if err != nil {
				reply, send = replyMsg{Type: "rejected", ID: msg.ID, Reason: reasonText(err)}, true
			}
			if msg.Type == "seat" && reply.Type == "ack" {
				s.linkMu.Lock()
				s.view = msg.Seat
				s.linkMu.Unlock()
			}
			if !send {
				continue
			}
		}
		s.send(encodeReply(reply))
	}
}

// parseMessage checks a client message: within its connection's rate, a
// command in JSON. It returns the message, or the reply refusing it.
func (srv *Server) parseMessage(data []byte, rate *bucket) (clientMsg, replyMsg, bool) {
	var msg clientMsg
	if !rate.take(time.Now()) {
		srv.metrics.rejected.WithLabelValues("rate").Inc()
		json.Unmarshal(data, &msg) // to name the message refused, if it says its id
		return msg, replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf("too many messages: at most %g a second; try again", srv.limits.Rate)}, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil || dec.More() {
		srv.metrics.rejected.WithLabelValues("malformed").Inc()
		reason := "not a JSON message"
		if err != nil {
			reason += ": " + err.Error()
		}
		return msg, replyMsg{Type: "rejected", Reason: reason}, false
	}
	switch msg.Type {
	case "command":
	case "chat", "seat", "undo":
		return msg, replyMsg{}, true
	default:
		srv.metrics.rejected.WithLabelValues("malformed").Inc()
		return msg, replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf(`unknown message type %q; send {"type":"command","id":N,"data":{…}}, {"type":"undo","id":N} (take back your last move), {"type":"chat","id":N,"text":"…"} or {"type":"seat","id":N,"seat":S}`, msg.Type)}, false
	}
	if len(msg.Data) > game.MaxCommand {
		return msg, replyMsg{Type: "rejected", ID: msg.ID, Reason: fmt.Sprintf("a command has at most %d bytes", game.MaxCommand)}, false
	}
	return msg, replyMsg{}, true
}

// readMessage reads the next message into buf (reused from message to
// message) and returns its bytes, valid until the next call. The message
// may be long in coming, but once begun it must arrive within limit, or
// the connection is closed.
func readMessage(ctx context.Context, ws *websocket.Conn, buf *bytes.Buffer, limit time.Duration) ([]byte, error) {
	mc := newMessageContext(ctx)
	_, rd, err := ws.Reader(mc.ctx)
	if err != nil {
		mc.done()
		return nil, err
	}
	mc.begun(limit)
	buf.Reset()
	_, err = buf.ReadFrom(rd)
	if late := mc.done(); err != nil {
		if late {
			err = errSlowMessage
		}
		return nil, err
	}
	if buf.Cap() > 1<<20 {
		*buf = bytes.Buffer{}
	}
	return buf.Bytes(), nil
}

// mayConnect checks that a client may connect to a match: the match
// exists, the secrets read it (a seat's token plays a seat), and the
// match has room for one more connection.
func (srv *Server) mayConnect(ctx context.Context, id string, q wsQuery) error {
	if owner, ok := srv.remoteOwner(ctx, id); ok {
		return srv.remoteMayConnect(ctx, owner, id, q)
	}
	r, err := srv.room(ctx, id)
	var oe *ownedElsewhere
	if errors.As(err, &oe) {
		return srv.remoteMayConnect(ctx, oe.node, id, q)
	}
	if err != nil {
		return notFoundOr(err, id)
	}
	var rt rights
	if err := r.do(ctx, func() { rt = r.rightsOf(q.Token, q.Owner, q.Invite) }); err != nil {
		return err
	}
	return srv.checkRights(r, q, rt)
}

func (srv *Server) checkRights(r *room, q wsQuery, rt rights) error {
	switch {
	case q.Token != "" && rt.seat < 0:
		return &errRefused{http.StatusForbidden, "this token does not play any seat of the match"}
	case !rt.read:
		return &errRefused{http.StatusForbidden, errNoRight.Error()}
	case int(r.conns.Load()) >= srv.limits.Connections:
		srv.metrics.rejected.WithLabelValues("connections").Inc()
		return &errRefused{http.StatusServiceUnavailable, fmt.Sprintf("this match has %d connections already, the most it takes", srv.limits.Connections)}
	}
	return nil
}

// attach puts a session into its match: the room here, or the match's
// owner elsewhere.
func (srv *Server) attach(ctx context.Context, id string, q wsQuery, s *session) (link, error) {
	if owner, ok := srv.remoteOwner(ctx, id); ok {
		return srv.attachRemote(ctx, owner, id, q, s)
	}
	r, err := srv.room(ctx, id)
	var oe *ownedElsewhere
	if errors.As(err, &oe) {
		return srv.attachRemote(ctx, oe.node, id, q, s)
	}
	if err != nil {
		return nil, err
	}
	if err := r.attachLocal(ctx, q, s); err != nil {
		return nil, err
	}
	return &localLink{r: r, s: s}, nil
}

// attachLocal puts a session into the room, with the seat its secrets
// play, and sends it the state.
func (r *room) attachLocal(ctx context.Context, q wsQuery, s *session) error {
	var err error
	if derr := r.do(ctx, func() {
		rt := r.rightsOf(q.Token, q.Owner, q.Invite)
		if err = r.srv.checkRights(r, q, rt); err != nil {
			return
		}
		s.held, s.seat = rt.seats, rt.seat
		if q.Seat != nil && (*q.Seat == game.Spectator || slices.Contains(rt.seats, *q.Seat)) {
			s.seat = *q.Seat
		}
		r.conns.Add(1)
		if r.m != nil {
			s.logSent = min(q.Log, r.m.LogLen())
		}
		r.sessions[s] = struct{}{}
		r.changed() // everybody sees who is online
		r.sendChat(s)
	}); derr != nil {
		return derr
	}
	return err
}

// localLink is a session in a room of this process.
type localLink struct {
	r    *room
	s    *session
	once sync.Once
}

func (l *localLink) command(ctx context.Context, msg clientMsg) (replyMsg, bool, error) {
	r, s := l.r, l.s
	switch msg.Type {
	case "chat", "seat":
		var err error
		if derr := r.do(ctx, func() {
			if msg.Type == "chat" {
				err = r.say(ctx, s, msg)
			} else {
				err = r.switchSeat(s, msg)
			}
		}); derr != nil {
			err = derr
		}
		if err != nil {
			return replyMsg{Type: "rejected", ID: msg.ID, Reason: reasonText(err)}, true, nil
		}
		return replyMsg{Type: "ack", ID: msg.ID}, true, nil
	}
	// A command that makes the match fail (a panic, which breaks it)
	// leaves this error: it is refused, not acknowledged.
	err := errors.New("the match failed")
	acked := false
	if derr := r.do(ctx, func() {
		// The acknowledgement goes out with the state the command caused,
		// in one frame.
		r.ackTo, r.ackID = s, msg.ID
		if msg.Type == "undo" {
			err = r.takeBack(ctx, s.undoSeat(msg))
		} else {
			err = r.command(ctx, s.seat, msg.Data)
		}
		acked = r.ackTo == nil
		r.ackTo = nil
	}); derr != nil {
		err = derr
	}
	if err != nil {
		if !engine.IsRejected(err) {
			r.srv.metrics.rejected.WithLabelValues("error").Inc()
		}
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: reasonText(err)}, true, nil
	}
	return replyMsg{Type: "ack", ID: msg.ID}, !acked, nil
}

func (l *localLink) detach() {
	l.once.Do(func() {
		r, s := l.r, l.s
		r.post(func() {
			if _, ok := r.sessions[s]; ok {
				delete(r.sessions, s)
				r.conns.Add(-1)
				r.changed()
			}
		})
	})
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
