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
	"sync/atomic"
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
	var hosts, origins, proxies []string
	var l server.Limits
	var idle, abandon, lease time.Duration
	var playouts int
	var natsURL, natsEmbed, natsDir, node string
	var bus busFlags
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
			// The server, once made, is told what the cluster's bus
			// refused or dropped.
			var made atomic.Pointer[server.Server]
			if natsEmbed != "" || natsURL != "" {
				if node == "" {
					h, _ := os.Hostname()
					node = strings.NewReplacer(".", "-", ":", "-").Replace(h + "-" + addrPort(addr))
				}
				creds, err := bus.joinOptions()
				if err != nil {
					return usageError("serve: %v", err)
				}
				if natsEmbed != "" {
					url, stopNATS, trust, sign, err := embedNATS(logger, natsEmbed, natsDir, node, bus)
					if err != nil {
						return fmt.Errorf("serve: --nats-embed: %v", err)
					}
					defer stopNATS()
					logger.Info("embedded NATS server", "url", url, "nodes", strings.Join(append([]string{node}, bus.nodes...), ","))
					if natsURL == "" {
						natsURL = url
						if creds == nil {
							creds = sign // this node's key from the folder of keys
						}
						creds = append(trust, creds...)
					}
				}
				n, err := cluster.Join(c.Context(), cluster.Options{URL: natsURL, Name: node, LeaseTTL: lease, NATS: creds,
					OnError: func(subject string, err error) {
						if srv := made.Load(); srv != nil {
							srv.BusError(subject, err)
						} else {
							logger.Warn("the cluster's bus", "subject", subject, "err", err)
						}
					}})
				if err != nil {
					return fmt.Errorf("serve: --cluster: %v", err)
				}
				cl = n
				logger.Info("joined the cluster", "node", node, "nats", natsURL)
			}
			srv, err := server.New(server.Options{
				Bots: bots, BotLevels: bot.Levels,
				DB: db, Packs: ps, Bundled: server.BundledGames{FS: examples.Games, Default: "default"}, BoardsDir: boards,
				Logger: logger, Addr: ln.Addr().String(), AllowedHosts: hosts, AllowedOrigins: origins, TrustedProxies: proxies, Limits: l,
				IdleAfter: idle, AbandonAfter: abandon, Cluster: cl, Node: node,
			})
			if err != nil {
				ln.Close()
				return err
			}
			made.Store(srv)
			hs := srv.HTTPServer()
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
			if err := hs.Serve(srv.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
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
	f.StringSliceVar(&proxies, "trusted-proxies", nil, "reverse proxies (addresses or prefixes, 10.0.0.0/8) whose X-Forwarded-For tells clients apart; none by default")
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
	f.IntVar(&l.Creates, "limit-creates", d.Creates, "matches one address may make a minute (creating, a rematch)")
	f.IntVar(&l.CreatesAll, "limit-creates-all", d.CreatesAll, "matches all addresses together may make a minute")
	f.IntVar(&l.Matches, "limit-matches", d.Matches, "matches in memory at once")
	f.IntVar(&l.Uploads, "limit-uploads", d.Uploads, "uploads, validations and renames one address may make a minute")
	f.IntVar(&l.SavedGames, "limit-saved-games", d.SavedGames, "saved games one address may keep")
	f.Int64Var(&l.SavedBytes, "limit-saved-bytes", d.SavedBytes, "bytes of saved games one address may keep")
	f.IntVar(&l.SavedGamesAll, "limit-saved-games-all", d.SavedGamesAll, "saved games the library keeps in all")
	f.Int64Var(&l.SavedBytesAll, "limit-saved-bytes-all", d.SavedBytesAll, "bytes of saved games the library keeps in all")
	f.DurationVar(&l.SavedExpire, "saved-expire", d.SavedExpire, "a saved game nobody made a match on for this long is deleted (negative: never)")
	f.Int64Var(&l.GameCache, "limit-game-cache", d.GameCache, "bytes of game files whose compiled games stay in memory for reuse")
	f.IntVar(&l.Compiles, "limit-compiles", d.Compiles, "game files checked at once")
	f.DurationVar(&l.HeaderTime, "limit-header-time", d.HeaderTime, "the most a request's headers may take to arrive")
	f.DurationVar(&l.RequestTime, "limit-request-time", d.RequestTime, "the most a request (its body included) and its answer may take")
	f.DurationVar(&l.KeepAlive, "keep-alive", d.KeepAlive, "how long a quiet connection is kept between requests")
	f.DurationVar(&l.MessageTime, "limit-message-time", d.MessageTime, "the most a WebSocket message, once begun, may take to arrive")
	f.IntVar(&l.ConnsPerAddr, "limit-conns-per-addr", d.ConnsPerAddr, "connections one address may hold (a trusted proxy's count in all only)")
	f.IntVar(&l.Conns, "limit-conns", d.Conns, "connections in all")
	f.IntVar(&l.SocketsPerAddr, "limit-sockets-per-addr", d.SocketsPerAddr, "WebSockets one client may hold, all matches together")
	f.DurationVar(&l.PingEvery, "ping-every", d.PingEvery, "how often quiet connections are pinged")
	f.DurationVar(&l.PingTimeout, "ping-timeout", d.PingTimeout, "how long a ping may go unanswered before the connection is closed")
	f.DurationVar(&l.BotTime, "bot-time", d.BotTime, "the most a bot may think over one decision")
	f.IntVar(&l.BotThreads, "bot-threads", d.BotThreads, "bots thinking at once, all matches together")
	ds := server.DefaultSimLimits
	f.IntVar(&l.Simulation.Games, "simulate-games", ds.Games, "the most games the editor's simulation of a draft plays")
	f.DurationVar(&l.Simulation.CPU, "simulate-cpu", ds.CPU, "the most CPU time the editor's simulation of a draft uses")
	f.IntVar(&l.Simulation.Workers, "simulate-workers", 0, "simulations run at once (0: one less than the CPUs, at least one)")
	f.DurationVar(&l.Simulation.Every, "simulate-every", ds.Every, "one address may ask for a simulation this often on average (a few at once)")
	f.IntVar(&playouts, "bot-playouts", 0, "playouts of a strong (MCTS) bot per decision, within --bot-time (0: what the game advises, else 1000)")
	f.StringVar(&natsURL, "cluster", "", "join a cluster of servers through this NATS server (nats://HOST:PORT); use a PostgreSQL --db shared by the nodes")
	f.StringVar(&natsEmbed, "nats-embed", "", "start a NATS server with JetStream inside this process, listening on HOST:PORT (no host: 127.0.0.1; beyond the loopback address only with --nats-tls-cert), locked: only --nats-nodes get in (joined unless --cluster names another)")
	f.StringVar(&natsDir, "nats-dir", "", "where the embedded NATS server keeps its data (default: a temporary folder)")
	bus.flags(c)
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
