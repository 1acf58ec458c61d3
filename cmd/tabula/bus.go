package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/cluster"
)

// busFlags are the flags that lock the cluster's bus: the embedded NATS
// server's nodes, keys and TLS, and how this node signs in to a NATS
// server.
type busFlags struct {
	// The embedded server.
	nodes           []string
	keys            string
	tlsCert, tlsKey string
	tlsClientCA     string
	// Signing in.
	nkey, user, passwordFile, creds string
	ca, cert, key                   string
}

func (b *busFlags) flags(c *cobra.Command) {
	f := c.Flags()
	f.StringSliceVar(&b.nodes, "nats-nodes", nil, "the nodes the embedded NATS server lets in, each with its own key (default: this node only)")
	f.StringVar(&b.keys, "nats-keys", "", "the folder of the nodes' keys (NAME.nk, a seed; NAME.pub, a public key alone); a node without one gets one (default: KEYS in --nats-dir)")
	f.StringVar(&b.tlsCert, "nats-tls-cert", "", "the embedded NATS server's TLS certificate (PEM); needed to listen beyond the loopback address")
	f.StringVar(&b.tlsKey, "nats-tls-key", "", "the embedded NATS server's TLS key (PEM)")
	f.StringVar(&b.tlsClientCA, "nats-tls-client-ca", "", "require the nodes' certificates, signed by this authority (PEM)")
	f.StringVar(&b.nkey, "nats-nkey", "", "sign in to NATS with the nkey seed in this file (the one --nats-embed wrote for this node)")
	f.StringVar(&b.user, "nats-user", "", "sign in to NATS as this user (with --nats-password-file, or $TABULA_NATS_PASSWORD)")
	f.StringVar(&b.passwordFile, "nats-password-file", "", "the file holding --nats-user's password")
	f.StringVar(&b.creds, "nats-creds", "", "sign in to NATS with this credentials file (a NATS server in operator mode)")
	f.StringVar(&b.ca, "nats-ca", "", "trust NATS servers whose certificates this authority signed (PEM)")
	f.StringVar(&b.cert, "nats-cert", "", "this node's TLS certificate for NATS (PEM), with --nats-key")
	f.StringVar(&b.key, "nats-key", "", "this node's TLS key for NATS (PEM)")
}

// joinOptions are how this node signs in, from the flags (nil if none is
// given).
func (b *busFlags) joinOptions() ([]nats.Option, error) {
	var opts []nats.Option
	ways := 0
	if b.nkey != "" {
		data, err := os.ReadFile(b.nkey)
		if err != nil {
			return nil, fmt.Errorf("--nats-nkey: %v", err)
		}
		opt, err := cluster.SeedOption([]byte(strings.TrimSpace(string(data))))
		if err != nil {
			return nil, fmt.Errorf("--nats-nkey %s: %v", b.nkey, err)
		}
		opts, ways = append(opts, opt), ways+1
	}
	if b.user != "" {
		password := os.Getenv("TABULA_NATS_PASSWORD")
		if b.passwordFile != "" {
			data, err := os.ReadFile(b.passwordFile)
			if err != nil {
				return nil, fmt.Errorf("--nats-password-file: %v", err)
			}
			password = strings.TrimSpace(string(data))
		}
		if password == "" {
			return nil, errors.New("--nats-user needs a password: --nats-password-file FILE, or $TABULA_NATS_PASSWORD")
		}
		opts, ways = append(opts, nats.UserInfo(b.user, password)), ways+1
	}
	if b.creds != "" {
		opts, ways = append(opts, nats.UserCredentials(b.creds)), ways+1
	}
	if ways > 1 {
		return nil, errors.New("sign in to NATS one way: --nats-nkey, --nats-user or --nats-creds")
	}
	if b.ca != "" {
		opts = append(opts, nats.RootCAs(b.ca))
	}
	if (b.cert == "") != (b.key == "") {
		return nil, errors.New("--nats-cert and --nats-key go together")
	}
	if b.cert != "" {
		opts = append(opts, nats.ClientCert(b.cert, b.key))
	}
	if ways == 0 && len(opts) > 0 {
		return nil, errors.New("TLS alone does not sign a node in: give --nats-nkey, --nats-user or --nats-creds too")
	}
	return opts, nil
}

// embedNATS starts the embedded NATS server, locked: it lets in the nodes
// of --nats-nodes (this one always), each with its key from the folder of
// keys, made there for a node that has none. It returns the server's URL,
// the function that stops it, how this node trusts it (its TLS
// certificate) and how it signs in to it (its key).
func embedNATS(log *slog.Logger, addr, dir, self string, b busFlags) (url string, stop func(), trust, sign []nats.Option, err error) {
	nodes := b.nodes
	if !slices.Contains(nodes, self) {
		nodes = append([]string{self}, nodes...)
	}
	keys := b.keys
	if keys == "" {
		if dir == "" {
			tmp, err := os.MkdirTemp("", "tabula-nats-keys-")
			if err != nil {
				return "", nil, nil, nil, err
			}
			keys = tmp
			defer func() {
				if stop == nil {
					os.RemoveAll(tmp)
					return
				}
				inner := stop
				stop = func() { inner(); os.RemoveAll(tmp) }
			}()
		} else {
			keys = filepath.Join(dir, "keys")
		}
	}
	before := map[string]bool{}
	for _, n := range nodes {
		if _, err := os.Stat(filepath.Join(keys, n+".nk")); err == nil {
			before[n] = true
		}
	}
	creds, seeds, err := cluster.NodeKeys(keys, nodes)
	if err != nil {
		return "", nil, nil, nil, err
	}
	for _, n := range nodes {
		if !before[n] && seeds[n] != nil && n != self {
			log.Info("made a key for a node: copy it to that node and start it with --nats-nkey", "node", n, "key", filepath.Join(keys, n+".nk"))
		}
	}
	opts := cluster.EmbedOptions{Addr: addr, StoreDir: dir, Nodes: creds}
	if b.tlsCert != "" || b.tlsKey != "" {
		cert, err := tls.LoadX509KeyPair(b.tlsCert, b.tlsKey)
		if err != nil {
			return "", nil, nil, nil, fmt.Errorf("--nats-tls-cert and --nats-tls-key: %v", err)
		}
		opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		if b.tlsClientCA != "" {
			pem, err := os.ReadFile(b.tlsClientCA)
			if err != nil {
				return "", nil, nil, nil, fmt.Errorf("--nats-tls-client-ca: %v", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return "", nil, nil, nil, fmt.Errorf("--nats-tls-client-ca %s: no certificate in it", b.tlsClientCA)
			}
			opts.TLS.ClientCAs, opts.TLS.ClientAuth = pool, tls.RequireAndVerifyClientCert
		}
		// This node trusts the server it runs (unless --nats-ca says
		// whom to trust).
		if b.ca == "" {
			trust = append(trust, nats.RootCAs(b.tlsCert))
		}
	}
	if seed := seeds[self]; seed != nil {
		opt, err := cluster.SeedOption(seed)
		if err != nil {
			return "", nil, nil, nil, err
		}
		sign = append(sign, opt)
	}
	url, stop, err = cluster.Embed(opts)
	if err != nil {
		return "", nil, nil, nil, err
	}
	return url, stop, trust, sign, nil
}
