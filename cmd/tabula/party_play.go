package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/games/party"
)

func init() {
	partyPack.Play = playParty
	partyPack.Scenario = party.RunScenario
}

// playParty plays a party board in the terminal: humans press Enter to roll,
// type a number to choose a way at a fork, and acknowledge prompts; bots
// (and --yes) do it at once.
func playParty(path string, o playOptions, in io.Reader, out, errOut io.Writer) error {
	b, list := party.Load(path)
	list.Print(errOut)
	if b == nil || list.HasErrors() {
		return failed
	}
	def, err := party.Compile(b)
	if err != nil {
		return err
	}
	players := o.Players
	if len(players) == 0 {
		players = []string{"Player 1", "Player 2"}
	}
	if r := b.Rules; (r.MinPlayers > 0 && len(players) < r.MinPlayers) || (r.MaxPlayers > 0 && len(players) > r.MaxPlayers) {
		fmt.Fprintf(errOut, "note: %s is meant for %d to %d players; playing with %d\n", b.Name, r.MinPlayers, r.MaxPlayers, len(players))
	}
	maxRounds := o.MaxRounds
	if maxRounds == 0 {
		maxRounds = party.DefaultMaxRounds
	}
	g, err := party.NewGame(def, players, party.Options{Seed: o.Seed, MaxRounds: maxRounds})
	if err != nil {
		return usageError("play: %v", err)
	}
	var logFile *os.File
	if o.Log != "" {
		if logFile, err = os.Create(o.Log); err != nil {
			return err
		}
		defer logFile.Close()
	}
	script := party.Script{Rolls: o.Rolls, Choices: o.Choices}
	bots := rng.New(o.Seed).Stream("bots")
	lines := newLineReader(in)
	fmt.Fprintf(out, "%s — %d spaces; %s\n", b.Name, len(b.Spaces), strings.Join(players, ", "))
	shown := 0
	show := func() {
		for _, e := range g.Entries(shown) {
			if e.Kind == "ask" || e.Kind == "answer" || e.Text == "" {
				continue
			}
			fmt.Fprintf(out, "%s%s\n", strings.Repeat("  ", e.Depth), e.Text)
		}
		shown = len(g.Match.Records())
	}
	err = func() error {
		for !g.Over() {
			show()
			w := g.Waits()[0]
			human := !o.IsBot(players[w.Player])
			var cmd party.Command
			switch {
			case w.Kind == party.KindRoll && script.HasRoll(), w.Kind == party.KindChoosePath && (len(script.Choices) > 0 || !human):
				cmd, err = script.Next(g, w, bots)
				if err != nil {
					return err
				}
			case w.Kind == party.KindAck && (o.Yes || !human):
				cmd = party.Command{Player: w.Player, Kind: party.KindAck}
			case !human:
				cmd, _ = g.BotCommand(w.Player, bots)
			default:
				if cmd, err = askHuman(g, w, lines, out); err != nil {
					return err
				}
			}
			if err := g.Apply(cmd); err != nil {
				fmt.Fprintf(out, "%v\n", err)
			}
		}
		show()
		return nil
	}()
	if logFile != nil {
		if lerr := g.WriteLog(logFile, 0); lerr != nil && err == nil {
			err = lerr
		}
	}
	if err != nil {
		return err
	}
	printResult(g, out)
	return nil
}

// askHuman asks the player at the terminal for their move.
func askHuman(g *party.Game, w party.Wait, lines *lineReader, out io.Writer) (party.Command, error) {
	name := g.Players[w.Player]
	for {
		switch w.Kind {
		case party.KindRoll:
			fmt.Fprintf(out, "%s, press Enter to roll: ", name)
		case party.KindAck:
			fmt.Fprintf(out, "[%s] %s\n  (Enter to continue) ", name, w.Prompt)
		case party.KindChoosePath:
			fmt.Fprintf(out, "%s, which way?\n", name)
			for i, opt := range w.Options {
				fmt.Fprintf(out, "  %d) %s\n", i+1, opt)
			}
			fmt.Fprintf(out, "Choose 1-%d: ", len(w.Options))
		}
		line, err := lines.Line()
		if err == io.EOF {
			return party.Command{}, fmt.Errorf("the input ended before the game did (use --bots all to let bots play)")
		}
		if err != nil {
			return party.Command{}, err
		}
		if w.Kind != party.KindChoosePath {
			return party.Command{Player: w.Player, Kind: w.Kind}, nil
		}
		n, err := strconv.Atoi(line)
		if err == nil && n >= 1 && n <= len(w.Options) {
			return party.Command{Player: w.Player, Kind: w.Kind, Value: n - 1}, nil
		}
		fmt.Fprintf(out, "Type a number from 1 to %d.\n", len(w.Options))
	}
}

func printResult(g *party.Game, out io.Writer) {
	s := g.State
	fmt.Fprintln(out)
	fmt.Fprintf(out, "Result: %s.", s.EndReason)
	if len(s.Winners) == 0 {
		fmt.Fprintln(out, " No winner.")
	} else {
		var names []string
		for _, w := range s.Winners {
			names = append(names, g.Players[w])
		}
		fmt.Fprintf(out, " Winner: %s.\n", strings.Join(names, ", "))
	}
	for _, p := range g.View(-1).Players {
		var stats []string
		for _, k := range slices.Sorted(maps.Keys(p.Stats)) {
			stats = append(stats, fmt.Sprintf("%s %g", k, p.Stats[k]))
		}
		fmt.Fprintf(out, "  %-12s on %-6s %-15s %s\n", p.Name, p.Space, p.State, strings.Join(stats, ", "))
	}
	fmt.Fprintf(out, "Rounds: %d, commands: %d, state hash: %s\n", s.LastRound, len(g.Commands), g.Hash())
}
