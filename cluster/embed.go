package cluster

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbedOptions configure a NATS server run inside this process.
type EmbedOptions struct {
	// Addr is where it listens for nodes, host:port (default
	// 127.0.0.1:4222; port 0 picks a free port).
	Addr string
	// StoreDir is where JetStream keeps the leases' bucket. Keep it
	// across restarts; empty: a temporary directory, removed by stop.
	StoreDir string
	// ServerName names the NATS server (default "tabula").
	ServerName string
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
	return ns.ClientURL(), stop, nil
}
