package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPlay) }

func newPlay() *cobra.Command {
	var o playOptions
	var players, rolls, choices string
	c := &cobra.Command{
		Use:   "play FILE",
		Short: "Play a game in the terminal, or watch bots play it",
		Long: `Play runs a game in the terminal. Each human player is asked for their
moves; players named in --bots (or all, with --bots all) are played by bots.
--rolls and --choices script dice and choices in order; after they run out,
dice are random (from --seed) and bots choose.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("play: give one game file\n%s", c.UsageString())
			}
			var err error
			if players != "" {
				for _, p := range strings.Split(players, ",") {
					if p = strings.TrimSpace(p); p != "" {
						o.Players = append(o.Players, p)
					}
				}
			}
			if o.Rolls, err = parseInts(rolls); err != nil {
				return usageError("play: --rolls: %v", err)
			}
			if o.Choices, err = parseInts(choices); err != nil {
				return usageError("play: --choices: %v", err)
			}
			o.SeedSet = c.Flags().Changed("seed")
			p, err := detect(args[0])
			if err != nil {
				return usageError("play: %v", err)
			}
			if p.Play == nil {
				return usageError("play: %s games cannot be played in the terminal yet", p.Name)
			}
			return p.Play(args[0], o, c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	f := c.Flags()
	f.StringVar(&players, "players", "", "comma-separated player names, in seat order")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the match's random numbers")
	f.StringVar(&o.Bots, "bots", "", `players played by bots: "all" or comma-separated names`)
	f.StringVar(&rolls, "rolls", "", "scripted dice, in order (e.g. 3,1,4)")
	f.StringVar(&choices, "choices", "", "scripted choices, in order (0-based option numbers)")
	f.StringVar(&o.Log, "log", "", "write the match's log as JSON lines to this file")
	f.BoolVar(&o.Yes, "yes", false, "acknowledge every prompt at once")
	f.IntVar(&o.MaxRounds, "max-rounds", 0, "stop after this many rounds (0: the game's own limit)")
	return c
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
