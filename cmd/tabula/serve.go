package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/server"
)

func init() { commands = append(commands, newServe) }

func newServe() *cobra.Command {
	var addr, db, boards string
	c := &cobra.Command{
		Use:   "serve",
		Short: "Host party board games for friends in the browser",
		Long: `Serve starts the Tabula server: open the printed address, create a match,
share its link with your friends and play. Matches are kept in a SQLite file;
a restarted server picks up every unfinished match where it was.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("serve takes no arguments (did you mean --boards %s?)", args[0])
			}
			srv, err := server.New(server.Options{DB: db, BoardsDir: boards, Log: c.ErrOrStderr()})
			if err != nil {
				return err
			}
			defer srv.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("cannot listen on %s: %v (choose another address with --addr)", addr, err)
			}
			hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
			ctx, stop := signal.NotifyContext(c.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			go func() {
				<-ctx.Done()
				shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				hs.Shutdown(shut)
			}()
			fmt.Fprintf(c.OutOrStdout(), "Tabula is serving at http://%s/ (matches are kept in %s). Press Ctrl+C to stop.\n", ln.Addr(), db)
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	c.Flags().StringVar(&db, "db", "tabula.db", "SQLite database file")
	c.Flags().StringVar(&boards, "boards", "", "a folder of board files to offer besides the bundled ones")
	return c
}
