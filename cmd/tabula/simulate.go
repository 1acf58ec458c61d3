package main

import (
	"encoding/json"
	"errors"
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

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// simulateOptions are the flags of `tabula simulate`.
type simulateOptions struct {
	games, workers, maxRounds, maxCommands int
	players                                string
	seed                                   uint64
	rotate, asJSON                         bool
	html, bots, compat                     string
}

// levelBot plays a bot of a level through the simulator.
type levelBot struct{ b bot.Bot }

func (l levelBot) Command(m game.Match, seat int, r *rng.Stream) (json.RawMessage, bool) {
	return bot.Command(l.b, m, seat, r, 0)
}

// simBots reads --bots: one level for every player, or one per player in
// order ("" leaves the game's own bot).
func simBots(arg string, players int) (func(int) sim.Bot, error) {
	if arg == "" {
		return nil, nil
	}
	levels := strings.Split(arg, ",")
	if len(levels) != 1 && len(levels) != players {
		return nil, fmt.Errorf("give one level for every player, or one for each of the %d players, not %d", players, len(levels))
	}
	bots := make([]sim.Bot, len(levels))
	for i, l := range levels {
		l = strings.TrimSpace(l)
		if l == "" || l == "pack" {
			bots[i] = sim.PackBot{}
			continue
		}
		b, err := bot.New(l, bot.Options{})
		if err != nil {
			return nil, err
		}
		bots[i] = levelBot{b}
	}
	return func(player int) sim.Bot { return bots[player%len(bots)] }, nil
}

func newSimulate(ps game.Packs) *cobra.Command {
	var o simulateOptions
	c := &cobra.Command{
		Use:   "simulate FILE [AFTER]",
		Short: "Play many bot games of any game and report how it plays",
		Long: `Simulate plays a game many times with bots in every seat and reports how long
games last (commands and rounds), the win rate of each player (and, with
--rotate, of each seat) with its 95% Wilson interval, how many games hit the
round limit and why, and where things happen: what each space, tile, square,
card, drone, creature and seat did, drawn on the game's board in the --html
page (a heat map) where it has one.

--players is a number of players, named P1, P2, …, or their names separated
by commas. Games run in parallel on --workers goroutines; game i has its own
seed derived from --seed, so the report is the same whatever the number of
workers: only its timing differs. --json prints the report as JSON; --html
also writes it as one self-contained page. Ctrl+C stops early and reports the
games played.

With two files (simulate before.json after.json), both versions are played
with the same players and seeds, and the report gives each figure of both,
the difference, and whether it is beyond the noise (the two 95% intervals do
not overlap); --html draws both heat maps side by side. See docs/simulate.md.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 && len(args) != 2 {
				return usageError("simulate: give one game file, or two versions of a game to compare\n%s", c.UsageString())
			}
			return simulate(c, ps, args, o)
		},
	}
	f := c.Flags()
	f.IntVar(&o.games, "games", 1000, "number of games to play")
	f.StringVar(&o.players, "players", "", `number of players (named P1, P2, …) or comma-separated names (default: the game's minimum)`)
	f.Uint64Var(&o.seed, "seed", 1, "master seed: every game's seed is derived from it")
	f.IntVar(&o.workers, "workers", 0, "games played at once (0: one per CPU)")
	f.IntVar(&o.maxRounds, "max-rounds", 0, "stop a game that has not ended after this many rounds (0: the game's own limit)")
	f.IntVar(&o.maxCommands, "max-commands", sim.DefaultMaxCommands, "count a game still going after this many commands as failed")
	f.BoolVar(&o.rotate, "rotate", false, "move the players one seat on from game to game")
	f.StringVar(&o.bots, "bots", "", "the bots' levels: one for everybody, or one per player in order (random, greedy, mcts; pack: the game's own)")
	f.StringVar(&o.compat, "compat", "", `play in a compatibility mode of the game ("original": a party board as the original game played it)`)
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	f.StringVar(&o.html, "html", "", "also write the report as a self-contained HTML page to this file")
	return c
}

func simulate(c *cobra.Command, ps game.Packs, paths []string, o simulateOptions) error {
	out, errOut := c.OutOrStdout(), c.ErrOrStderr()
	switch {
	case o.games < 1:
		return usageError("simulate: --games must be at least 1, not %d", o.games)
	case o.workers < 0:
		return usageError("simulate: --workers must be 0 (one per CPU) or more, not %d", o.workers)
	case o.maxRounds < 0:
		return usageError("simulate: --max-rounds must be 0 (the game's own limit) or more, not %d", o.maxRounds)
	case o.maxCommands < 1:
		return usageError("simulate: --max-commands must be at least 1, not %d", o.maxCommands)
	}
	var defs []game.Definition
	for _, path := range paths {
		_, def, _, err := load(ps, path)
		var de *diagError
		if errors.As(err, &de) {
			de.list.Print(errOut)
			return failed
		}
		if err != nil {
			return usageError("simulate: %v", err)
		}
		defs = append(defs, def)
	}
	var players []string
	for i, def := range defs {
		info, err := game.InfoFor(def, o.compat)
		if err != nil {
			return usageError("simulate: --compat: %v", err)
		}
		if i == 0 {
			if players, err = playerNames(o.players, info); err != nil {
				return usageError("simulate: --players: %v", err)
			}
		}
		if err := info.CheckPlayers(len(players)); err != nil {
			return usageError("simulate: %s: %v: change --players", paths[i], err)
		}
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	bots, err := simBots(o.bots, len(players))
	if err != nil {
		return usageError("simulate: --bots: %v", err)
	}
	cfg := sim.Config{Games: o.games, Players: players, Seed: o.seed, Workers: o.workers, MaxRounds: o.maxRounds,
		MaxCommands: o.maxCommands, Rotate: o.rotate, Bots: bots, Compat: o.compat}
	var bar *progressbar.ProgressBar
	if isTerminal(errOut) {
		bar = progressbar.NewOptions(o.games*len(defs),
			progressbar.OptionSetWriter(errOut),
			progressbar.OptionSetDescription("simulating"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("games"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	var reports []*sim.Report
	for i, def := range defs {
		if bar != nil {
			offset := i * o.games
			cfg.Progress = func(done int) { bar.Set(offset + done) }
		}
		r, err := sim.Run(ctx, def, cfg)
		if err != nil {
			if bar != nil {
				bar.Finish()
			}
			if len(defs) > 1 {
				return usageError("simulate: %s: %v", paths[i], err)
			}
			return usageError("simulate: %v", err)
		}
		if r.Interrupted {
			fmt.Fprintf(errOut, "tabula: interrupted: reporting the first %d of %d games\n", r.Games, r.Requested)
		}
		reports = append(reports, r)
		if r.Interrupted {
			break
		}
	}
	if bar != nil {
		bar.Finish()
	}
	if len(defs) == 2 {
		if len(reports) < 2 {
			return fmt.Errorf("simulate: interrupted before the second version was played")
		}
		return writeComparison(out, paths, reports, o)
	}
	return writeReport(out, reports[0], o)
}

// report is what simulate writes: a report or a comparison.
type report interface {
	WriteText(io.Writer) error
	WriteHTML(io.Writer) error
}

// writeReport writes r as text or JSON, and as a page with --html.
func writeReport(out io.Writer, r report, o simulateOptions) error {
	if o.html != "" {
		if err := writeFile(o.html, r.WriteHTML); err != nil {
			return err
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if err := r.WriteText(out); err != nil {
		return err
	}
	if o.html != "" {
		fmt.Fprintf(out, "\nReport written to %s\n", o.html)
	}
	return nil
}

// writeComparison reports two versions played with the same seeds.
func writeComparison(out io.Writer, paths []string, reports []*sim.Report, o simulateOptions) error {
	cmp, err := sim.CompareReports(reports[0], reports[1])
	if err != nil {
		return err
	}
	cmp.Files = paths
	return writeReport(out, cmp, o)
}

// writeFile writes a file with write, reporting failures with its name.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// playerNames reads --players: a number of players, or their names; by
// default, the game's minimum number.
func playerNames(arg string, info game.Info) ([]string, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		arg = strconv.Itoa(max(1, info.MinPlayers))
	}
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

// isTerminal reports whether w is a terminal, where a progress bar belongs.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
