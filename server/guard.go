package server

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/store"
)

// What a client may send and from where: host names, origins, bodies,
// rates, and the secrets that give rights over a match.

// hostCheck answers only the host names the server serves, so that a page
// of another site cannot reach it through a name it rebinds to this
// machine's address.
type hostCheck struct {
	any   bool
	names map[string]bool
	ips   bool // any IP address of this machine
}

func newHostCheck(addr string, allowed []string) hostCheck {
	h := hostCheck{names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "*" {
			h.any = true
		}
		if a != "" {
			h.names[hostOnly(a)] = true
		}
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		ip := net.ParseIP(host)
		switch {
		case host == "" || (ip != nil && ip.IsUnspecified()):
			// Listening on every interface: the machine's own addresses
			// are its names (an address cannot be rebound).
			h.ips = true
		default:
			h.names[strings.ToLower(host)] = true
		}
	}
	return h
}

func (h hostCheck) allowed(hostport string) bool {
	if h.any {
		return true
	}
	host := strings.ToLower(hostOnly(hostport))
	if h.names[host] || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if !h.ips {
		return false
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// sameOrigin refuses a request that changes something if a page of
// another site sent it: its Origin must be the server's own (or allowed),
// and a browser's Sec-Fetch-Site must not say cross-site. Clients that
// are not browsers send neither and pass.
func (srv *Server) sameOrigin(req *http.Request) error {
	if o := req.Header.Get("Origin"); o != "" && o != "null" {
		u, err := url.Parse(o)
		if err != nil {
			return fmt.Errorf("a request from the page %q is refused", o)
		}
		if strings.EqualFold(u.Host, req.Host) || slices.Contains(srv.opts.AllowedOrigins, o) {
			return nil
		}
		return fmt.Errorf("a request from another site (%s) is refused; start the server with --allowed-origins %s to allow it", o, o)
	} else if o == "null" {
		return errors.New("a request from an opaque origin is refused")
	}
	switch req.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return nil
	}
	return errors.New("a cross-site request is refused")
}

// isJSON reports whether a request says its body is JSON.
func isJSON(req *http.Request) bool {
	mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// changing checks a request that changes something: same origin, and a
// JSON body. It answers the refusal itself and reports false.
func (srv *Server) changing(w http.ResponseWriter, req *http.Request) bool {
	if err := srv.sameOrigin(req); err != nil {
		srv.metrics.rejected.WithLabelValues("cross-site").Inc()
		writeError(w, http.StatusForbidden, "%v", err)
		return false
	}
	if req.ContentLength != 0 && !isJSON(req) {
		writeError(w, http.StatusUnsupportedMediaType, "send the request body as JSON, with Content-Type: application/json")
		return false
	}
	return true
}

// readJSON decodes a JSON request body of at most the body limit into v:
// one object, no unknown member, nothing after it.
func (srv *Server) readJSON(w http.ResponseWriter, req *http.Request, v any) bool {
	data, err := io.ReadAll(http.MaxBytesReader(w, req.Body, srv.limits.Body))
	if err != nil {
		tooLarge(w, err, srv.limits.Body)
		return false
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "bad request body: %v", err)
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		writeError(w, http.StatusBadRequest, "bad request body: there is more after its JSON object")
		return false
	}
	return true
}

// tooLarge answers a body that went past its limit (413, naming it), or
// another read error.
func tooLarge(w http.ResponseWriter, err error, limit int64) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeError(w, http.StatusRequestEntityTooLarge, "the request is too large: the limit is %d bytes", limit)
		return
	}
	writeError(w, http.StatusBadRequest, "reading the request: %v", err)
}

// apiError is what a failed request is answered.
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

// --- secrets ---

// newSecret returns a new unguessable secret: 128 bits from crypto/rand.
func newSecret() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// secretIs reports whether a secret given by a client is the one whose
// hash is stored, in constant time.
func secretIs(given, storedHash string) bool {
	if given == "" || storedHash == "" {
		return false
	}
	h := store.HashSecret(given)
	return subtle.ConstantTimeCompare([]byte(h), []byte(storedHash)) == 1
}

// --- rates ---

// bucket is a token bucket: rate tokens a second, at most burst.
type bucket struct {
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newBucket(rate float64, burst int) *bucket {
	return &bucket{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

func (b *bucket) take(now time.Time) bool {
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// jsonDepth returns how deeply a JSON text nests, counting brackets
// outside strings, stopping early once past limit: linear, and cheap
// enough to run before decoding anything.
func jsonDepth(data []byte, limit int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
