package cluster_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/tabulagames/tabula/cluster"
)

// violations collects what NATS refused a connection.
type violations struct {
	mu   sync.Mutex
	seen []string
}

func (v *violations) handler(_ *nats.Conn, _ *nats.Subscription, err error) {
	v.mu.Lock()
	v.seen = append(v.seen, err.Error())
	v.mu.Unlock()
}

// refused waits until NATS refused what names subject.
func (v *violations) refused(t *testing.T, what, subject string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		v.mu.Lock()
		for _, s := range v.seen {
			if strings.Contains(s, "Permissions Violation") && strings.Contains(s, `"`+subject+`"`) {
				v.mu.Unlock()
				return
			}
		}
		v.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%s (%s) was not refused; NATS said: %q", what, subject, v.seen)
}

// The bus is locked: a client without credentials (or with a key the
// server does not know) cannot connect, and a node's credentials reach
// only its own subjects: it cannot read another node's requests or
// replies, answer in its name, nor delete, purge or change the leases'
// bucket.
func TestTheBusIsLocked(t *testing.T) {
	url := embed(t)
	a, c := join(t, url, "a"), join(t, url, "c")
	must(t, a.Handle("ping", func([]byte) ([]byte, error) { return []byte("a"), nil }))
	acquire(t, a, "m1", time.Second)

	if nc, err := nats.Connect(url); err == nil {
		nc.Close()
		t.Error("a client without credentials connected")
	}
	_, stranger, _ := cluster.NewCredential("z")
	opt, _ := cluster.SeedOption(stranger)
	if nc, err := nats.Connect(url, opt); err == nil {
		nc.Close()
		t.Error("a client with a key the server does not know connected")
	}
	if nc, err := nats.Connect(url, nats.UserInfo("a", "guess")); err == nil {
		nc.Close()
		t.Error("a client with a guessed password connected")
	}
	// Nor does a node join under another's name.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if n, err := cluster.Join(ctx, cluster.Options{URL: url, Name: "a", NATS: []nats.Option{keyOf(t, "b")}}); err == nil {
		n.Close()
		t.Error("node b joined as a")
	}

	// Node b's credentials, used by hand.
	var v violations
	nc, err := nats.Connect(url, keyOf(t, "b"), nats.CustomInboxPrefix("_INBOX.b"), nats.ErrorHandler(v.handler))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	stolen := make(chan *nats.Msg, 10)
	nc.ChanSubscribe("tabula.node.a.>", stolen)
	nc.ChanSubscribe("_INBOX.a.>", stolen)
	nc.ChanSubscribe(">", stolen)
	nc.Flush()
	v.refused(t, "reading node a's requests", "tabula.node.a.>")
	v.refused(t, "reading node a's replies", "_INBOX.a.>")
	v.refused(t, "reading everything", ">")
	// A request to a still reaches a, and b sees nothing of it.
	out, err := c.Request(context.Background(), "a", "ping", []byte("secret"))
	if err != nil || string(out) != "a" {
		t.Errorf("c asking a: %q %v", out, err)
	}
	select {
	case m := <-stolen:
		t.Errorf("b read %s", m.Subject)
	case <-time.After(100 * time.Millisecond):
	}
	for _, subject := range []string{
		"_INBOX.a.forged",                          // a reply in a's name
		"$JS.API.STREAM.DELETE.KV_tabula_leases",   // the bucket deleted
		"$JS.API.STREAM.PURGE.KV_tabula_leases",    // every lease purged
		"$JS.API.STREAM.UPDATE.KV_tabula_leases",   // the bucket changed
		"$JS.API.CONSUMER.CREATE.KV_tabula_leases", // a consumer of its own
		"$KV.tabula_leases.other",                  // a key that is no lease
		"tabula.elsewhere",                         // anything else
	} {
		nc.Publish(subject, []byte("{}"))
		nc.Flush()
		v.refused(t, "publishing", subject)
	}
	// The leases are intact.
	if owner, ok := c.Owner(context.Background(), "m1"); !ok || owner != "a" {
		t.Errorf("m1 is owned by %q after b's attempts", owner)
	}
	js, _ := jetstream.New(nc)
	if _, err := js.KeyValue(context.Background(), cluster.DefaultBucket); err != nil {
		t.Errorf("the bucket after b's attempts: %v", err)
	}
}

// A node may sign in with a password instead of an nkey.
func TestANodeWithAPassword(t *testing.T) {
	url := embedWith(t, cluster.EmbedOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(),
		Nodes: []cluster.Credential{{Node: "p", Password: "correct horse battery staple"}, testCreds[0]}})
	p := joinWith(t, cluster.Options{URL: url, Name: "p", LeaseTTL: ttl, NATS: []nats.Option{nats.UserInfo("p", "correct horse battery staple")}})
	acquire(t, p, "m1", time.Second)
	if _, err := cluster.Join(context.Background(), cluster.Options{URL: url, Name: "p", NATS: []nats.Option{nats.UserInfo("p", "wrong")}}); err == nil {
		t.Error("a wrong password joined")
	}
}

// The embedded server refuses to start unlocked, or listening beyond the
// loopback address without TLS; with TLS, nodes that do not trust its
// certificate cannot connect, and those that do can.
func TestEmbedNeedsCredentialsAndTLS(t *testing.T) {
	for _, c := range []struct {
		opts cluster.EmbedOptions
		want string
	}{
		{cluster.EmbedOptions{Addr: "127.0.0.1:0"}, "needs the credentials"},
		{cluster.EmbedOptions{Addr: "0.0.0.0:0", Nodes: testCreds}, "needs TLS"},
		{cluster.EmbedOptions{Addr: "127.0.0.1:0", Nodes: []cluster.Credential{{Node: "a"}}}, "an nkey or a password"},
		{cluster.EmbedOptions{Addr: "127.0.0.1:0", Nodes: []cluster.Credential{{Node: "a.b", Password: "x"}}}, "node name"},
	} {
		if _, stop, err := cluster.Embed(c.opts); err == nil {
			stop()
			t.Errorf("%+v: started", c.opts)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opts, err, c.want)
		}
	}
	dir := t.TempDir()
	certFile, keyFile := selfSigned(t, dir)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	must(t, err)
	url := embedWith(t, cluster.EmbedOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), TLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	if !strings.HasPrefix(url, "tls://") {
		t.Errorf("the URL of a server with TLS: %s", url)
	}
	if _, err := cluster.Join(context.Background(), withKey(t, cluster.Options{URL: url, Name: "b"})); err == nil {
		t.Error("a node that does not trust the certificate joined")
	}
	a := joinWith(t, cluster.Options{URL: url, Name: "a", LeaseTTL: ttl, NATS: []nats.Option{nats.RootCAs(certFile)}})
	acquire(t, a, "m1", time.Second)
}

// Credentials kept in a folder: a node without a key gets one (its seed
// readable by its owner only), kept across restarts; a node whose public
// key alone is there is let in with it.
func TestNodeKeys(t *testing.T) {
	dir := t.TempDir()
	creds, seeds, err := cluster.NodeKeys(dir, []string{"web1", "web2"})
	must(t, err)
	if len(creds) != 2 || len(seeds) != 2 || !strings.HasPrefix(creds[0].Nkey, "U") {
		t.Fatalf("%+v", creds)
	}
	info, err := os.Stat(filepath.Join(dir, "web2.nk"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("web2's seed file: %v %v", info.Mode(), err)
	}
	again, _, err := cluster.NodeKeys(dir, []string{"web1", "web2"})
	must(t, err)
	if again[1].Nkey != creds[1].Nkey {
		t.Error("a node's key changed across restarts")
	}
	// web3's seed is kept on web3: its public key alone is here.
	web3, _, _ := cluster.NewCredential("web3")
	must(t, os.WriteFile(filepath.Join(dir, "web3.pub"), []byte(web3.Nkey+"\n"), 0o644))
	withPub, seeds, err := cluster.NodeKeys(dir, []string{"web1", "web3"})
	must(t, err)
	if withPub[1].Nkey != web3.Nkey || seeds["web3"] != nil {
		t.Errorf("web3: %+v, seed %q", withPub[1], seeds["web3"])
	}
	must(t, os.WriteFile(filepath.Join(dir, "bad.nk"), []byte("not a seed"), 0o600))
	if _, _, err := cluster.NodeKeys(dir, []string{"bad"}); err == nil || !strings.Contains(err.Error(), "bad.nk") {
		t.Errorf("a bad seed file: %v", err)
	}
}

// A panic in a handler is the request's error; the node goes on.
func TestAPanickingHandler(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	must(t, a.Handle("boom", func([]byte) ([]byte, error) { panic("a bug") }))
	must(t, a.Handle("ping", func([]byte) ([]byte, error) { return []byte("pong"), nil }))
	_, err := b.Request(context.Background(), "a", "boom", nil)
	var re *cluster.RemoteError
	if !errors.As(err, &re) || !strings.Contains(re.Message, "a bug") {
		t.Errorf("a panicking handler: %v", err)
	}
	if out, err := b.Request(context.Background(), "a", "ping", nil); err != nil || string(out) != "pong" {
		t.Errorf("after the panic: %q %v", out, err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tabula-nats"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	must(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	must(t, err)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	must(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644))
	must(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
	return certFile, keyFile
}

// The queues between nodes are bounded: a node answers at most
// MaxHandling requests at once (the others are told at once that it is
// busy), and at most MaxPending messages wait for a subscriber (the others
// are dropped, and OnError is told).
func TestQueuesBetweenNodesAreBounded(t *testing.T) {
	url := embed(t)
	var mu sync.Mutex
	var told []error
	a := joinWith(t, cluster.Options{URL: url, Name: "a", LeaseTTL: ttl, MaxHandling: 3, MaxPending: 10,
		OnError: func(_ string, err error) { mu.Lock(); told = append(told, err); mu.Unlock() }})
	b := join(t, url, "b")
	release := make(chan struct{})
	must(t, a.Handle("slow", func([]byte) ([]byte, error) { <-release; return []byte("done"), nil }))
	results := make(chan error, 4)
	for range 3 {
		go func() {
			_, err := b.Request(context.Background(), "a", "slow", nil)
			results <- err
		}()
	}
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	_, err := b.Request(context.Background(), "a", "slow", nil)
	var re *cluster.RemoteError
	if !errors.As(err, &re) || re.Message != cluster.ErrBusy.Error() || time.Since(start) > time.Second {
		t.Errorf("a fourth request to a node answering three: %v after %v", err, time.Since(start))
	}
	close(release)
	for range 3 {
		if err := <-results; err != nil {
			t.Errorf("a request answered: %v", err)
		}
	}

	stuck := make(chan struct{})
	must(t, a.Subscribe("frames", func([]byte) { <-stuck }))
	for range 50 {
		must(t, b.Publish("a", "frames", []byte("x")))
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		mu.Lock()
		dropped := slices.ContainsFunc(told, func(err error) bool { return errors.Is(err, cluster.ErrDropped) })
		mu.Unlock()
		if dropped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("50 messages for a stuck subscriber of 10: nothing dropped (told %v)", told)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(stuck)
}
