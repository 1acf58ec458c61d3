package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/cluster"
	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/server"
)

func newServe(ps game.Packs) *cobra.Command {
	var addr, db, boards, logFormat, logLevel string
	var hosts, origins []string
	var l server.Limits
	var idle, abandon, lease time.Duration
	var playouts int
	var natsURL, natsEmbed, natsDir, node string
	c := &cobra.Command{
		Use:   "serve",
		Short: "Host games for friends in the browser",
		Long: `Serve starts the Tabula server: open the printed address, create a match,
share its link with your friends and play. Every bundled game of every pack is
offered (party boards, rule books, lane games, skirmishes), with the games of
--boards DIR and those players save. Matches are kept in a SQLite file (--db
FILE) or a PostgreSQL database (--db postgres://…); a restarted server picks up
every unfinished match where it was, bots and turn timers included.

The server answers only to its own host names: the loopback names and the
address it listens on (--allowed-hosts adds the names it is reached by). Each
--limit-* flag bounds what one client or one input may cost. SIGTERM or Ctrl+C
stops it gracefully: connections are told "server restarting", commands in
flight are stored.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("serve takes no arguments (did you mean --boards %s?)", args[0])
			}
			logger, err := newLogger(c, logFormat, logLevel)
			if err != nil {
				return usageError("serve: %v", err)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("cannot listen on %s: %v (choose another address with --addr)", addr, err)
			}
			bots, err := bot.ByLevel(bot.Options{Playouts: playouts})
			if err != nil {
				return usageError("serve: %v", err)
			}
			var cl server.Cluster
			if natsEmbed != "" {
				url, stopNATS, err := cluster.Embed(cluster.EmbedOptions{Addr: natsEmbed, StoreDir: natsDir})
				if err != nil {
					return fmt.Errorf("serve: --nats-embed: %v", err)
				}
				defer stopNATS()
				logger.Info("embedded NATS server", "url", url)
				if natsURL == "" {
					natsURL = url
				}
			}
			if natsURL != "" {
				if node == "" {
					h, _ := os.Hostname()
					node = strings.NewReplacer(".", "-", ":", "-").Replace(h + "-" + addrPort(addr))
				}
				n, err := cluster.Join(c.Context(), cluster.Options{URL: natsURL, Name: node, LeaseTTL: lease})
				if err != nil {
					return fmt.Errorf("serve: --cluster: %v", err)
				}
				cl = n
				logger.Info("joined the cluster", "node", node, "nats", natsURL)
			}
			srv, err := server.New(server.Options{
				Bots: bots, BotLevels: bot.Levels,
				DB: db, Packs: ps, Bundled: server.BundledGames{FS: examples.Games, Default: "default"}, BoardsDir: boards,
				Logger: logger, Addr: ln.Addr().String(), AllowedHosts: hosts, AllowedOrigins: origins, Limits: l,
				IdleAfter: idle, AbandonAfter: abandon, Cluster: cl, Node: node,
			})
			if err != nil {
				ln.Close()
				return err
			}
			hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
			ctx, stop := signal.NotifyContext(c.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			stopped := make(chan struct{})
			go func() {
				defer close(stopped)
				<-ctx.Done()
				logger.Info("stopping")
				shut, cancel := context.WithTimeout(context.Background(), 4*time.Second)
				defer cancel()
				srv.Shutdown(shut)
				hs.Shutdown(shut)
			}()
			where := db
			if strings.Contains(db, "://") {
				where = "the PostgreSQL database given"
			}
			fmt.Fprintf(c.OutOrStdout(), "Tabula is serving at http://%s/ (matches are kept in %s). Press Ctrl+C to stop.\n", ln.Addr(), where)
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			stop()
			<-stopped
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.StringVar(&db, "db", "tabula.db", "SQLite database file, or a postgres:// URL")
	f.StringVar(&boards, "boards", "", "a folder of game files to offer besides the bundled ones")
	f.StringSliceVar(&hosts, "allowed-hosts", nil, `more host names the server answers to ("*": any)`)
	f.StringSliceVar(&origins, "allowed-origins", nil, "other sites whose pages may use the API (https://example.org)")
	f.StringVar(&logFormat, "log-format", "text", "log format: text or json")
	f.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn or error")
	f.DurationVar(&idle, "idle-after", 30*time.Second, "how long a match nobody watches stays in memory")
	f.DurationVar(&abandon, "abandon-after", 7*24*time.Hour, "close matches nobody touched for this long (negative: never)")
	d := server.DefaultLimits
	f.Int64Var(&l.Body, "limit-body", d.Body, "largest JSON request body, in bytes")
	f.Int64Var(&l.Upload, "limit-upload", d.Upload, "largest game file or archive uploaded, in bytes")
	f.IntVar(&l.JSONDepth, "limit-json-depth", d.JSONDepth, "deepest nesting of an uploaded game file")
	f.Int64Var(&l.Message, "limit-message", d.Message, "largest WebSocket message, in bytes")
	f.Float64Var(&l.Rate, "limit-rate", d.Rate, "WebSocket messages a second per connection")
	f.IntVar(&l.Burst, "limit-burst", d.Burst, "WebSocket messages a connection may send at once")
	f.IntVar(&l.Connections, "limit-connections", d.Connections, "connections per match")
	f.IntVar(&l.Creates, "limit-creates", d.Creates, "matches one address may create a minute")
	f.IntVar(&l.Uploads, "limit-uploads", d.Uploads, "uploads and validations one address may make a minute")
	f.DurationVar(&l.PingEvery, "ping-every", d.PingEvery, "how often quiet connections are pinged")
	f.DurationVar(&l.PingTimeout, "ping-timeout", d.PingTimeout, "how long a ping may go unanswered before the connection is closed")
	f.DurationVar(&l.BotTime, "bot-time", d.BotTime, "the most a bot may think over one decision")
	ds := server.DefaultSimLimits
	f.IntVar(&l.Simulation.Games, "simulate-games", ds.Games, "the most games the editor's simulation of a draft plays")
	f.DurationVar(&l.Simulation.CPU, "simulate-cpu", ds.CPU, "the most CPU time the editor's simulation of a draft uses")
	f.IntVar(&l.Simulation.Workers, "simulate-workers", 0, "simulations run at once (0: one less than the CPUs, at least one)")
	f.DurationVar(&l.Simulation.Every, "simulate-every", ds.Every, "one address may ask for a simulation this often on average (a few at once)")
	f.IntVar(&playouts, "bot-playouts", 0, "playouts of a strong (MCTS) bot per decision, within --bot-time (0: what the game advises, else 1000)")
	f.StringVar(&natsURL, "cluster", "", "join a cluster of servers through this NATS server (nats://HOST:PORT); use a PostgreSQL --db shared by the nodes")
	f.StringVar(&natsEmbed, "nats-embed", "", "start a NATS server with JetStream inside this process, listening on HOST:PORT (joined unless --cluster names another)")
	f.StringVar(&natsDir, "nats-dir", "", "where the embedded NATS server keeps its data (default: a temporary folder)")
	f.StringVar(&node, "node", "", "this server's name in the cluster: unique, and the same across restarts (default: host name and port)")
	f.DurationVar(&lease, "lease", 0, "how long a match's lease lasts without renewal (default 10s; the same on every node)")
	return c
}

// newLogger makes the server's structured log, on standard error.
func newLogger(c *cobra.Command, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(c.ErrOrStderr(), opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(c.ErrOrStderr(), opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: use text or json", format)
}

// addrPort is the port of a listen address, for a node's default name.
func addrPort(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "0"
	}
	return port
}
