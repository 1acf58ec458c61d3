package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// The edge: what a connection may cost before any route sees it. Every
// phase of a connection has a deadline (its headers, its body, its
// answer, a WebSocket's messages, a quiet keep-alive), and connections
// are counted per client address and in all.

// HTTPServer returns the http.Server to serve the server's handler with:
// the deadlines of Limits on every phase of a request. Serve it on
// Listener(ln), which caps connections.
func (srv *Server) HTTPServer() *http.Server {
	l := srv.limits
	return &http.Server{
		Handler: srv.Handler(),
		// A request's headers, then the whole request (its body
		// included), must arrive in time: a client trickling a body a
		// byte at a time loses its connection when RequestTime is up.
		ReadHeaderTimeout: l.HeaderTime,
		ReadTimeout:       l.RequestTime,
		// The answer must be sent in time: a client that does not read
		// it does not hold its connection.
		WriteTimeout:   l.RequestTime,
		IdleTimeout:    l.KeepAlive,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       nil,
	}
}

// Listener wraps a listener so that it never holds more connections than
// the limits allow: at most ConnsPerAddr from one address (a trusted
// proxy's are counted in all only), at most Conns in all. A connection
// past a limit is answered 503 and closed at once.
func (srv *Server) Listener(ln net.Listener) net.Listener {
	return &capListener{Listener: ln, srv: srv, held: newHoldLimit(srv.limits.ConnsPerAddr, srv.limits.Conns)}
}

// capListener is a listener counting its connections.
type capListener struct {
	net.Listener
	srv  *Server
	held *holdLimit
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := hostOf(c.RemoteAddr().String())
		key := addr
		if l.srv.proxies.trusted(addr) {
			key = "" // counted in all only: its clients are told apart later
		}
		if err := l.held.acquire(key); err != nil {
			l.srv.metrics.rejected.WithLabelValues("connections").Inc()
			go refuseConn(c, err)
			continue
		}
		return &capConn{Conn: c, release: sync.OnceFunc(func() { l.held.release(key) })}, nil
	}
}

// refuseConn answers a connection over a limit with a 503 saying which,
// without waiting for its request, and closes it.
func refuseConn(c net.Conn, why error) {
	msg := fmt.Sprintf(`{"error": %q}`, why.Error())
	c.SetWriteDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg)
	c.Close()
}

// capConn is a counted connection: closing it (also after a WebSocket
// took it over) gives its place back.
type capConn struct {
	net.Conn
	release func()
}

func (c *capConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// hostOf is an address without its port.
func hostOf(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// --- client addresses ---

// proxyList are the reverse proxies whose X-Forwarded-For is believed.
type proxyList []netip.Prefix

// parseProxies reads --trusted-proxies: addresses or CIDR prefixes.
func parseProxies(list []string) (proxyList, error) {
	var out proxyList
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: write an address (10.0.0.2) or a prefix (10.0.0.0/8)", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// trusted reports whether an address is one of the trusted proxies.
func (p proxyList) trusted(addr string) bool {
	if len(p) == 0 {
		return false
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, pre := range p {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address of the client a request comes from, without
// its port: the connection's, unless that is a trusted proxy, in which
// case the last address of X-Forwarded-For that is not a trusted proxy
// itself (proxies append what they saw; anything before is the client's
// own say). With no proxy trusted, X-Forwarded-For is never read: a
// client cannot choose its address.
func (srv *Server) clientAddr(req *http.Request) string {
	addr := hostOf(req.RemoteAddr)
	if !srv.proxies.trusted(addr) {
		return addr
	}
	hops := strings.Split(strings.Join(req.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if hop == "" {
			continue
		}
		a, err := netip.ParseAddr(hostOf(hop))
		if err != nil {
			break // not an address: what comes before cannot be trusted
		}
		addr = a.Unmap().String()
		if !srv.proxies.trusted(addr) {
			return addr
		}
	}
	return addr
}

// --- WebSockets ---

// sockets counts a client address's WebSockets, for the limit per client.
func (srv *Server) holdSocket(req *http.Request) (release func(), err error) {
	addr := srv.clientAddr(req)
	if err := srv.sockets.acquire(addr); err != nil {
		srv.metrics.rejected.WithLabelValues("connections").Inc()
		return nil, &errRefused{http.StatusTooManyRequests, err.Error()}
	}
	return sync.OnceFunc(func() { srv.sockets.release(addr) }), nil
}

// messageContext bounds the reading of one WebSocket message once it has
// begun: a client that starts a message must finish it within
// MessageTime, or its connection is closed. Waiting for a message to
// begin has no deadline: pings tell a quiet client from a gone one.
type messageContext struct {
	ctx    context.Context
	cancel context.CancelFunc
	timer  *time.Timer
}

func newMessageContext(parent context.Context) *messageContext {
	ctx, cancel := context.WithCancel(parent)
	return &messageContext{ctx: ctx, cancel: cancel}
}

// begun starts the message's clock.
func (m *messageContext) begun(d time.Duration) {
	m.timer = time.AfterFunc(d, m.cancel)
}

// done stops it; it reports whether the message was late.
func (m *messageContext) done() bool {
	late := false
	if m.timer != nil {
		late = !m.timer.Stop()
	}
	m.cancel()
	return late
}

var errSlowMessage = errors.New("a message took too long to arrive")
