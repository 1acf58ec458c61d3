package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/cluster"
)

// Cluster coordinates several servers sharing one store: each match is
// owned by one node at a time, through a lease whose revision fences the
// owner's writes, and nodes send each other messages. Package cluster
// implements it with NATS JetStream.
type Cluster interface {
	// Name is this node's name.
	Name() string
	// Acquire makes this node the owner of a match, waiting while another
	// node's lease is alive, and returns the lease's revision: the fence
	// every write of the match then carries.
	Acquire(ctx context.Context, matchID string) (int64, error)
	// MayOwn reports whether this node may take the match now (no other
	// node holds a live lease on it).
	MayOwn(ctx context.Context, matchID string) bool
	// Owner names the node that owns a match, if one does.
	Owner(ctx context.Context, matchID string) (node string, ok bool)
	// Release gives a match's lease up (the match left memory).
	Release(matchID string)
	// Lost tells the matches whose lease this node lost: it must stop
	// them at once, without writing.
	Lost() <-chan string
	// Handle answers requests to this node on a subject.
	Handle(subject string, fn func(data []byte) ([]byte, error)) error
	// Request asks another node and waits for its answer.
	Request(ctx context.Context, node, subject string, data []byte) ([]byte, error)
	// Publish sends a message to another node; Subscribe receives this
	// node's, in the order they were sent.
	Publish(node, subject string, data []byte) error
	Subscribe(subject string, fn func(data []byte)) error
	// Close leaves the cluster.
	Close() error
}

// errOwnerGone is a match whose owner no longer answers: its lease will
// expire, and another node (perhaps this one) will take it.
var errOwnerGone = errors.New("the match's server is gone")

// The subjects of the messages between nodes.
const (
	subjHTTP    = "http"    // an API request for a match this node owns
	subjConnect = "connect" // may this client connect?
	subjAttach  = "attach"  // a client of another node watches a match here
	subjCommand = "command" // a command of such a client
	subjDetach  = "detach"  // such a client left
	subjFrames  = "frames"  // what the owner sends such a client
	subjPing    = "ping"    // are you there?
)

// joinCluster answers the other nodes' requests and relays what owners
// send this node's clients; it stops the matches whose lease is lost.
func (srv *Server) joinCluster() error {
	c := srv.opts.Cluster
	srv.relays = map[string]*session{}
	srv.remotes = map[string]*session{}
	inner := http.NewServeMux()
	srv.routes(inner)
	srv.inner = inner
	for subj, fn := range map[string]func([]byte) ([]byte, error){
		subjHTTP: srv.answerHTTP, subjConnect: srv.answerConnect, subjAttach: srv.answerAttach,
		subjCommand: srv.answerCommand, subjDetach: srv.answerDetach,
		subjPing: func([]byte) ([]byte, error) { return []byte("{}"), nil },
	} {
		if err := c.Handle(subj, fn); err != nil {
			return err
		}
	}
	if err := c.Subscribe(subjFrames, srv.relayFrame); err != nil {
		return err
	}
	srv.wg.Add(1)
	go func() {
		defer srv.wg.Done()
		for {
			select {
			case <-srv.ctx.Done():
				return
			case id, ok := <-c.Lost():
				if !ok {
					return
				}
				if r := srv.liveRoom(id); r != nil {
					srv.log.Warn("lease lost: the match moves to another server", "match", id)
					r.post(func() { r.stopping, r.moved = true, true })
				}
			}
		}
	}()
	return nil
}

// BusError is told what the cluster's bus refused or dropped (give it
// as cluster.Options.OnError). It is logged; if messages for this node's
// clients were dropped (their node fell far behind), those clients are
// disconnected, to reconnect and be sent what they missed.
func (srv *Server) BusError(subject string, err error) {
	srv.log.Warn("the cluster's bus", "subject", subject, "err", err)
	if !errors.Is(err, cluster.ErrDropped) || !strings.HasSuffix(subject, "."+subjFrames) {
		return
	}
	srv.relayMu.Lock()
	relayed := make([]*session, 0, len(srv.relays))
	for _, s := range srv.relays {
		relayed = append(relayed, s)
	}
	srv.relayMu.Unlock()
	for _, s := range relayed {
		s.closeWith("too slow: reconnect to get the current state")
	}
}

// ownedElsewhere is a match another live node owns: it is reached there.
type ownedElsewhere struct{ node string }

func (e *ownedElsewhere) Error() string { return "the match is owned by server " + e.node }

// acquire takes a match's lease for this node, waiting while a gone
// owner's lease runs out, but not while a live node owns it (another node
// may take a match between the moment this one looked and the moment it
// asks): then the match is reached there.
func (srv *Server) acquire(ctx context.Context, id string) (int64, error) {
	c := srv.opts.Cluster
	for {
		actx, cancel := context.WithTimeout(ctx, time.Second)
		fence, err := c.Acquire(actx, id)
		cancel()
		if err == nil {
			return fence, nil
		}
		if ctx.Err() != nil {
			return 0, err
		}
		if owner, ok := c.Owner(ctx, id); ok && owner != c.Name() {
			if _, err := srv.request(ctx, owner, subjPing, struct{}{}); err == nil {
				return 0, &ownedElsewhere{owner}
			}
		}
	}
}

// remoteOwner names the node that owns a match, if it is another one and
// the match is not in memory here.
func (srv *Server) remoteOwner(ctx context.Context, id string) (string, bool) {
	c := srv.opts.Cluster
	if c == nil || srv.liveRoom(id) != nil {
		return "", false
	}
	owner, ok := c.Owner(ctx, id)
	if !ok || owner == c.Name() {
		return "", false
	}
	return owner, true
}

// request asks a match's owner, telling a gone owner apart.
func (srv *Server) request(ctx context.Context, owner, subj string, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := srv.opts.Cluster.Request(ctx, owner, subj, data)
	var remote *cluster.RemoteError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &remote):
		return nil, err
	}
	// The owner did not answer: gone, cut off, or stopped.
	return nil, fmt.Errorf("%w: %v", errOwnerGone, err)
}

// --- API requests for matches owned elsewhere ---

// httpMsg is an API request or its answer, between nodes. A request
// carries the address of the client that sent it (as the node that took
// it tells clients apart), so that the owner counts it against that
// client's limits.
type httpMsg struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Host   string      `json:"host,omitempty"`
	Header http.Header `json:"header,omitempty"`
	Body   []byte      `json:"body,omitempty"`
	Status int         `json:"status,omitempty"`
	Client string      `json:"client,omitempty"`
}

// forward answers an API request about a match owned by another node by
// asking that node; it reports false if the match is not owned elsewhere.
func (srv *Server) forward(w http.ResponseWriter, req *http.Request, id string) bool {
	owner, ok := srv.remoteOwner(req.Context(), id)
	if !ok {
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, srv.limits.Body))
	if err != nil {
		tooLarge(w, err, srv.limits.Body)
		return true
	}
	h := http.Header{}
	for _, k := range []string{"Content-Type", "Origin", "Sec-Fetch-Site"} {
		if v := req.Header.Get(k); v != "" {
			h.Set(k, v)
		}
	}
	out, err := srv.request(req.Context(), owner, subjHTTP, httpMsg{Method: req.Method, URL: req.URL.RequestURI(), Host: req.Host,
		Header: h, Body: body, Client: srv.clientAddr(req)})
	if errors.Is(err, errOwnerGone) {
		return false // the match will be this node's, once the lease expires
	}
	if err != nil {
		writeError(w, http.StatusBadGateway, "%v", err)
		return true
	}
	var ans httpMsg
	if err := json.Unmarshal(out, &ans); err != nil {
		writeError(w, http.StatusBadGateway, "a bad answer from the match's server: %v", err)
		return true
	}
	if ans.Status < 200 || ans.Status > 599 {
		writeError(w, http.StatusBadGateway, "a bad answer from the match's server: status %d", ans.Status)
		return true
	}
	// The answer is data, never headers: every route forwarded answers
	// JSON, and the guard's headers (its Content-Security-Policy above
	// all) stand whatever the other node says.
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(ans.Status)
	w.Write(ans.Body)
	return true
}

// answerHTTP runs an API request another node forwarded, on the routes
// alone (the node that took it checked the host).
func (srv *Server) answerHTTP(data []byte) ([]byte, error) {
	var m httpMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(srv.ctx, m.Method, m.URL, bytes.NewReader(m.Body))
	if err != nil {
		return nil, err
	}
	req.Host, req.Header = m.Host, m.Header
	if req.Header == nil {
		req.Header = http.Header{}
	}
	// The client is the one the asking node saw (a port makes it an
	// address like any other).
	req.RemoteAddr = net.JoinHostPort(m.Client, "0")
	rec := httptest.NewRecorder()
	srv.serveInner(rec, req)
	return json.Marshal(httpMsg{Status: rec.Code, Body: rec.Body.Bytes()})
}

// serveInner runs a forwarded request on the routes, recovering from a
// panic as the guard does for a request of this node's clients.
func (srv *Server) serveInner(w http.ResponseWriter, req *http.Request) {
	rw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	defer srv.recoverRequest(rw, req)
	srv.inner.ServeHTTP(rw, req)
}

// --- clients of this node watching a match owned elsewhere ---

// attachMsg introduces a client of one node to a match's owner.
type attachMsg struct {
	Match   string  `json:"match"`
	Node    string  `json:"node"`
	Session string  `json:"session"`
	Query   wsQuery `json:"query"`
	Command *clientMsg
}

// connectAnswer is an owner's answer to a client's node: refused, or
// attached (with the seat).
type connectAnswer struct {
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	Seat   int    `json:"seat"`
	// Reply is a command's answer, and Send whether it must still be sent
	// (it went with the state otherwise).
	Reply *replyMsg `json:"reply,omitempty"`
	Send  bool      `json:"send,omitempty"`
}

func (a connectAnswer) err() error {
	if a.Error == "" {
		return nil
	}
	return &errRefused{status: a.Status, msg: a.Error}
}

func (srv *Server) remoteMayConnect(ctx context.Context, owner, id string, q wsQuery) error {
	out, err := srv.request(ctx, owner, subjConnect, attachMsg{Match: id, Query: q})
	if err != nil {
		if errors.Is(err, errOwnerGone) {
			return nil // the attach will find the new owner
		}
		return err
	}
	var a connectAnswer
	if err := json.Unmarshal(out, &a); err != nil {
		return err
	}
	return a.err()
}

// answerConnect tells another node whether its client may connect.
func (srv *Server) answerConnect(data []byte) ([]byte, error) {
	var m attachMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	var a connectAnswer
	if err := refuse(&a, srv.mayConnect(srv.ctx, m.Match, m.Query)); err != nil {
		return nil, err
	}
	return json.Marshal(a)
}

// refuse writes into a the refusal err is: one to pass on to the asking
// node's client, or this node shutting down, after which the asking node
// waits for the match's next owner. It returns err when err is neither (a
// failure the request itself reports), and nil otherwise.
func refuse(a *connectAnswer, err error) error {
	var re *errRefused
	switch {
	case errors.As(err, &re):
		a.Status, a.Error = re.status, re.msg
	case errors.Is(err, errClosing):
		a.Status, a.Error = http.StatusServiceUnavailable, err.Error()
	default:
		return err
	}
	return nil
}

// attachRemote puts a session of this node into a match another node
// owns: the owner sends the session's messages here (subject frames), and
// the session's commands go there.
func (srv *Server) attachRemote(ctx context.Context, owner, id string, q wsQuery, s *session) (link, error) {
	// Each attachment has an id of its own: frames of an owner the session
	// has left are not passed on.
	lid := newSecret()
	srv.relayMu.Lock()
	srv.relays[lid] = s
	srv.relayMu.Unlock()
	out, err := srv.request(ctx, owner, subjAttach, attachMsg{Match: id, Node: srv.opts.Cluster.Name(), Session: lid, Query: q})
	if err == nil {
		var a connectAnswer
		if err = json.Unmarshal(out, &a); err == nil {
			err = a.err()
		}
		s.seat = a.Seat
	}
	if err != nil {
		srv.dropRelay(lid)
		var re *errRefused
		if errors.As(err, &re) && re.status == http.StatusServiceUnavailable {
			err = fmt.Errorf("%w: %v", errOwnerGone, err) // it is shutting down
		}
		if errors.Is(err, errOwnerGone) {
			// Wait for the lease to expire: the match comes here, or to
			// the node that takes it.
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return srv.attach(ctx, id, q, s)
		}
		return nil, err
	}
	l := &remoteLink{srv: srv, owner: owner, match: id, s: s, q: q, id: lid}
	go l.watch(ctx)
	return l, nil
}

func (srv *Server) dropRelay(id string) {
	srv.relayMu.Lock()
	delete(srv.relays, id)
	srv.relayMu.Unlock()
}

// frameMsg is a message of an owner for a client of another node, or the
// end of the client's session there.
type frameMsg struct {
	Session string          `json:"s"`
	Frame   json.RawMessage `json:"f,omitempty"`
	Close   string          `json:"close,omitempty"`
	Closed  bool            `json:"closed,omitempty"`
}

// relayFrame passes an owner's message on to this node's client.
func (srv *Server) relayFrame(data []byte) {
	var f frameMsg
	if err := json.Unmarshal(data, &f); err != nil {
		return
	}
	srv.relayMu.Lock()
	s := srv.relays[f.Session]
	srv.relayMu.Unlock()
	if s == nil {
		return
	}
	s.noteLog(f.Frame)
	if f.Closed {
		if f.Close == reasonRestart || f.Close == reasonMoved {
			// The owner stops: the session's watcher finds the match's
			// next owner; the client notices nothing.
			select {
			case s.moved <- struct{}{}:
			default:
			}
			return
		}
		srv.log.Debug("the match's server closed a client's session", "session", f.Session, "reason", f.Close)
		s.closeWith(f.Close)
		return
	}
	s.send(f.Frame)
}

// remoteLink is a session of this node in a match owned elsewhere.
type remoteLink struct {
	srv   *Server
	owner string
	match string
	id    string // the attachment's id
	s     *session
	q     wsQuery
	mu    sync.Mutex
	gone  bool
}

func (l *remoteLink) command(ctx context.Context, msg clientMsg) (replyMsg, bool, error) {
	out, err := l.srv.request(ctx, l.owner, subjCommand, attachMsg{Match: l.match, Session: l.id, Command: &msg})
	if err != nil {
		return replyMsg{}, false, err
	}
	var a connectAnswer
	if err := json.Unmarshal(out, &a); err != nil {
		return replyMsg{}, false, err
	}
	if err := a.err(); err != nil {
		return replyMsg{}, false, fmt.Errorf("%w: %v", errOwnerGone, err)
	}
	return *a.Reply, a.Send, nil
}

func (l *remoteLink) detach() {
	l.mu.Lock()
	gone := l.gone
	l.gone = true
	l.mu.Unlock()
	if gone {
		return
	}
	l.srv.dropRelay(l.id)
	l.srv.request(context.Background(), l.owner, subjDetach, attachMsg{Match: l.match, Session: l.id})
}

// watch follows the match's owner while the session lasts: when the owner
// stops (it says so, or its lease ends), the session is attached to the
// match's next owner, and its client is sent the state again from where it
// was.
func (l *remoteLink) watch(ctx context.Context) {
	c := l.srv.opts.Cluster
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.s.done:
			return
		case <-l.s.moved:
		case <-tick.C:
			l.mu.Lock()
			gone := l.gone
			l.mu.Unlock()
			if gone {
				return
			}
			if owner, ok := c.Owner(ctx, l.match); ok && owner == l.owner {
				continue
			}
			// Nobody owns it, or another node does: make sure, as an
			// answer may be lost or late.
			time.Sleep(100 * time.Millisecond)
			if owner, ok := c.Owner(ctx, l.match); ok && owner == l.owner {
				continue
			}
		}
		l.mu.Lock()
		gone := l.gone
		l.gone = true
		l.mu.Unlock()
		if gone {
			return
		}
		l.srv.dropRelay(l.id)
		q := l.q
		l.s.linkMu.Lock()
		q.Log = max(q.Log, l.s.lastLog)
		if l.s.view != nil {
			q.Seat = l.s.view
		}
		l.s.linkMu.Unlock()
		next, err := l.srv.attach(ctx, l.match, q, l.s)
		if err != nil {
			l.srv.log.Warn("a client could not follow its match to its next server", "match", l.match, "err", err)
			l.s.closeWith(reasonMoved)
			return
		}
		l.srv.log.Debug("a client follows its match to its next server", "match", l.match, "from", l.owner)
		l.s.relink(next)
		return
	}
}

// --- the owner's side: sessions of other nodes' clients ---

// remotePeer is a client of another node: what is written to it is
// published to that node.
type remotePeer struct {
	srv     *Server
	node    string
	session string
}

func (p *remotePeer) write(frame []byte) error {
	data, err := json.Marshal(frameMsg{Session: p.session, Frame: frame})
	if err != nil {
		return err
	}
	return p.srv.opts.Cluster.Publish(p.node, subjFrames, data)
}

// ping is the client's node's business: it pings its own clients.
func (p *remotePeer) ping(context.Context) error { return nil }

func (p *remotePeer) close(_ websocket.StatusCode, reason string) {
	data, _ := json.Marshal(frameMsg{Session: p.session, Closed: true, Close: reason})
	p.srv.opts.Cluster.Publish(p.node, subjFrames, data)
	p.srv.remoteMu.Lock()
	delete(p.srv.remotes, p.session)
	p.srv.remoteMu.Unlock()
}

func (p *remotePeer) closeNow() { p.close(websocket.StatusNormalClosure, "") }

// answerAttach puts another node's client into a match of this node.
func (srv *Server) answerAttach(data []byte) ([]byte, error) {
	var m attachMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	s := newSession(&remotePeer{srv: srv, node: m.Node, session: m.Session}, -1)
	s.id = m.Session
	var a connectAnswer
	r, err := srv.room(srv.ctx, m.Match)
	if err == nil {
		err = r.attachLocal(srv.ctx, m.Query, s)
	}
	if err != nil {
		if err := refuse(&a, err); err != nil {
			return nil, err
		}
		return json.Marshal(a)
	}
	a.Seat = s.seat
	srv.remoteMu.Lock()
	srv.remotes[s.id] = s
	srv.remoteMu.Unlock()
	s.relink(&localLink{r: r, s: s})
	go s.writer(srv.ctx, srv.limits)
	return json.Marshal(a)
}

func (srv *Server) remoteSession(id string) *session {
	srv.remoteMu.Lock()
	defer srv.remoteMu.Unlock()
	return srv.remotes[id]
}

// answerCommand plays a command of another node's client.
func (srv *Server) answerCommand(data []byte) ([]byte, error) {
	var m attachMsg
	if err := json.Unmarshal(data, &m); err != nil || m.Command == nil {
		return nil, fmt.Errorf("a bad command message: %v", err)
	}
	s := srv.remoteSession(m.Session)
	if s == nil || s.currentLink() == nil {
		return json.Marshal(connectAnswer{Status: http.StatusGone, Error: "this session is not attached here"})
	}
	reply, send, err := s.currentLink().command(srv.ctx, *m.Command)
	if err != nil {
		return nil, err
	}
	return json.Marshal(connectAnswer{Seat: s.seat, Reply: &reply, Send: send})
}

// answerDetach takes another node's client out of its match.
func (srv *Server) answerDetach(data []byte) ([]byte, error) {
	var m attachMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if s := srv.remoteSession(m.Session); s != nil {
		srv.remoteMu.Lock()
		delete(srv.remotes, m.Session)
		srv.remoteMu.Unlock()
		if l := s.currentLink(); l != nil {
			l.detach()
		}
		s.closeWith("")
	}
	return []byte("{}"), nil
}
