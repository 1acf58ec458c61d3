package cluster

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbedOptions configure a NATS server run inside this process.
type EmbedOptions struct {
	// Addr is where it listens for nodes, host:port (default
	// 127.0.0.1:4222; no host: the loopback address; port 0 picks a
	// free port).
	Addr string
	// StoreDir is where JetStream keeps the leases' bucket. Keep it
	// across restarts; empty: a temporary directory, removed by stop.
	StoreDir string
	// ServerName names the NATS server (default "tabula").
	ServerName string
	// Nodes are the nodes allowed in, each with its credential; nothing
	// else gets in, and each node may use only its own subjects. At least
	// one is needed.
	Nodes []Credential
	// Bucket is the leases' bucket the nodes use (default
	// DefaultBucket): the one their permissions name.
	Bucket string
	// TLS, if set, encrypts every connection (with ClientAuth set to
	// tls.RequireAndVerifyClientCert, nodes need certificates too). It is
	// required to listen beyond the loopback address: the nodes' messages
	// carry players' secrets.
	TLS *tls.Config
}

// Embed starts a NATS server with JetStream in this process, for a
// server that runs its own (one machine, or the first of several) and for
// tests. It returns the URL nodes join with and a function that stops it.
func Embed(opts EmbedOptions) (url string, stop func(), err error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:4222"
	}
	host, portText, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("cluster: NATS address %q: %w (write host:port)", opts.Addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if opts.TLS == nil && !isLoopback(host) {
		return "", nil, fmt.Errorf("cluster: NATS address %q: listening beyond the loopback address needs TLS (the nodes' messages carry players' secrets): give a certificate and its key, or listen on 127.0.0.1", opts.Addr)
	}
	if opts.Bucket == "" {
		opts.Bucket = DefaultBucket
	}
	if len(opts.Nodes) == 0 {
		return "", nil, errors.New("cluster: the embedded NATS server needs the credentials of the nodes that may join it")
	}
	users, nkeyUsers, err := users(opts.Nodes, opts.Bucket)
	if err != nil {
		return "", nil, err
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return "", nil, fmt.Errorf("cluster: NATS address %q: the port must be a number from 0 to 65535", opts.Addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	dir, temp := opts.StoreDir, false
	if dir == "" {
		if dir, err = os.MkdirTemp("", "tabula-nats-"); err != nil {
			return "", nil, fmt.Errorf("cluster: a directory for NATS: %w", err)
		}
		temp = true
	}
	if opts.ServerName == "" {
		opts.ServerName = "tabula"
	}
	ns, err := server.NewServer(&server.Options{
		ServerName: opts.ServerName,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   dir,
		NoLog:      true,
		NoSigs:     true,
		// A node whose machine vanished (no connection closed) is
		// noticed within about 15s rather than minutes: until then
		// requests to it wait for their deadline instead of failing at
		// once.
		PingInterval: 5 * time.Second,
		MaxPingsOut:  2,
		// Only the nodes, each with its own permissions. No system
		// account is set: with one, the server would add a user of its
		// own for clients without credentials.
		Users:     users,
		Nkeys:     nkeyUsers,
		TLSConfig: opts.TLS,
		// A node that does not sign in within a second is dropped.
		AuthTimeout: 2,
	})
	if err == nil {
		go ns.Start()
		if !ns.ReadyForConnections(10 * time.Second) {
			ns.Shutdown()
			err = fmt.Errorf("it did not accept connections on %s within 10s", opts.Addr)
		}
	}
	if err != nil {
		if temp {
			os.RemoveAll(dir)
		}
		return "", nil, fmt.Errorf("cluster: starting NATS: %w", err)
	}
	stop = sync.OnceFunc(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
		if temp {
			os.RemoveAll(dir)
		}
	})
	url = ns.ClientURL()
	if opts.TLS != nil {
		url = strings.Replace(url, "nats://", "tls://", 1)
	}
	return url, stop, nil
}

// isLoopback reports whether a host is the loopback address or name.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
