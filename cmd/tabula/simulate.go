package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/party/sim"
)

func init() { commands = append(commands, newSimulate) }

// simulateOptions are the flags of `tabula simulate`.
type simulateOptions struct {
	games, workers, maxRounds int
	players                   string
	seed                      uint64
	asJSON                    bool
	html                      string
}

func newSimulate() *cobra.Command {
	var o simulateOptions
	c := &cobra.Command{
		Use:   "simulate FILE",
		Short: "Play many bot games of a party board and report how it plays",
		Long: `Simulate plays a party board many times with bots in every seat and reports
how long games last (turns and rounds), the win rate of each seat with its
95% Wilson interval, how often each space is landed on and entered and how
often its events fire, each player's prompts and stats (drinks), and the
board actions applied. Bots roll, take a random path at forks and
acknowledge every prompt.

--players is a number of players, named P1, P2, …, or their names separated
by commas (--players Ann,Bob,Cy). Games run in parallel on --workers
goroutines; game i has its own seed derived from --seed, so the report is
the same whatever the number of workers: only its timing differs. A game
that has not ended after --max-rounds rounds is stopped and counted as such.

--json prints the report as a JSON document (wall-clock figures under
"timing"); --html also writes a self-contained page with the board drawn as
a heatmap of landings. Ctrl+C stops early and reports the games played.
See docs/simulate.md.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("simulate: give one board file\n%s", c.UsageString())
			}
			return simulate(c, args[0], o)
		},
	}
	f := c.Flags()
	f.IntVar(&o.games, "games", 1000, "number of games to play")
	f.StringVar(&o.players, "players", "4", `number of players (named P1, P2, …) or comma-separated names`)
	f.Uint64Var(&o.seed, "seed", 1, "master seed: every game's seed is derived from it")
	f.IntVar(&o.workers, "workers", 0, "games played at once (0: one per CPU)")
	f.IntVar(&o.maxRounds, "max-rounds", party.DefaultMaxRounds, "stop a game that has not ended after this many rounds")
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	f.StringVar(&o.html, "html", "", "also write the report as a self-contained HTML page to this file")
	return c
}

func simulate(c *cobra.Command, path string, o simulateOptions) error {
	out, errOut := c.OutOrStdout(), c.ErrOrStderr()
	if o.games < 1 {
		return usageError("simulate: --games must be at least 1, not %d", o.games)
	}
	if o.workers < 0 {
		return usageError("simulate: --workers must be 0 (one per CPU) or more, not %d", o.workers)
	}
	if o.maxRounds < 1 {
		return usageError("simulate: --max-rounds must be at least 1, not %d: a simulation needs a round cap", o.maxRounds)
	}
	players, err := playerNames(o.players)
	if err != nil {
		return usageError("simulate: --players: %v", err)
	}
	p, err := detect(path)
	if err != nil {
		return usageError("simulate: %v", err)
	}
	if p != partyPack {
		return usageError("simulate: %s: only party boards can be simulated, not %s games", path, p.Name)
	}
	board, list := party.Load(path)
	list.Print(errOut) // warnings too: "nothing ends this game" explains a run that hits the cap
	if list.HasErrors() {
		return failed
	}
	if r := board.Rules; (r.MinPlayers > 0 && len(players) < r.MinPlayers) || (r.MaxPlayers > 0 && len(players) > r.MaxPlayers) {
		return usageError("simulate: %s is for %s players, not %d: change --players", path, playerRange(r.MinPlayers, r.MaxPlayers), len(players))
	}
	def, err := party.Compile(board)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	cfg := sim.Config{Games: o.games, Players: players, Seed: o.seed, Workers: o.workers, MaxRounds: o.maxRounds}
	var bar *progressbar.ProgressBar
	if isTerminal(errOut) {
		bar = progressbar.NewOptions(o.games,
			progressbar.OptionSetWriter(errOut),
			progressbar.OptionSetDescription("simulating"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("games"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
		cfg.Progress = func(done int) { bar.Set(done) }
	}
	s, err := sim.Run(ctx, def, cfg)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return usageError("simulate: %v", err)
	}
	if s.Interrupted {
		fmt.Fprintf(errOut, "tabula: interrupted: reporting the first %d of %d games\n", s.Games, s.Requested)
	}
	if o.html != "" {
		if err := writeHTMLReport(o.html, s, board); err != nil {
			return err
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	if err := s.WriteText(out); err != nil {
		return err
	}
	if o.html != "" {
		fmt.Fprintf(out, "\nReport written to %s\n", o.html)
	}
	return nil
}

func writeHTMLReport(path string, s *sim.Summary, b *party.Board) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("cannot write the HTML report: %v", err)
	}
	if err := s.WriteHTML(f, b); err != nil {
		f.Close()
		return fmt.Errorf("cannot write the HTML report %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write the HTML report %s: %v", path, err)
	}
	return nil
}

// playerNames reads --players: a number of players, or their names.
func playerNames(arg string) ([]string, error) {
	arg = strings.TrimSpace(arg)
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 1 || n > 64 {
			return nil, fmt.Errorf("give between 1 and 64 players, not %d", n)
		}
		names := make([]string, n)
		for i := range names {
			names[i] = "P" + strconv.Itoa(i+1)
		}
		return names, nil
	}
	var names []string
	seen := map[string]bool{}
	for _, name := range strings.Split(arg, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("%q has an empty name: give a number of players or names separated by commas", arg)
		}
		if seen[name] {
			return nil, fmt.Errorf("two players are called %q", name)
		}
		seen[name] = true
		names = append(names, name)
	}
	if len(names) > 64 {
		return nil, fmt.Errorf("give at most 64 players, not %d", len(names))
	}
	return names, nil
}

func playerRange(lo, hi int) string {
	switch {
	case lo > 0 && hi > 0:
		return fmt.Sprintf("%d to %d", lo, hi)
	case lo > 0:
		return fmt.Sprintf("at least %d", lo)
	}
	return fmt.Sprintf("at most %d", hi)
}

// isTerminal reports whether w is a terminal, where a progress bar belongs.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
