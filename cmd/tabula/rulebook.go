package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/games/rulebook"
)

// rulebookPack is the rule book: games made of "when X, if Y, then Z"
// rules (files with "game": "rulebook").
var rulebookPack = &pack{
	Name:     "rulebook",
	Detect:   rulebook.Detect,
	Validate: rulebook.Validate,
	Play:     playRulebook,
	Scenario: rulebook.RunScenario,
	Schemas:  map[string][]byte{"rulebook": rulebook.Schema()},
}

func init() { register(rulebookPack) }

// playRulebook plays a rule book in the terminal: bots answer for the
// players --bots names, the others are asked; the readable log is printed
// as the game goes.
func playRulebook(path string, o playOptions, in io.Reader, out, errOut io.Writer) error {
	def, list := rulebook.Load(path)
	list.Print(errOut)
	if def == nil {
		return failed
	}
	players := o.Players
	if len(players) == 0 {
		for i := range def.MinPlayers {
			players = append(players, "Player "+strconv.Itoa(i+1))
		}
	}
	maxRounds := o.MaxRounds
	if maxRounds == 0 {
		maxRounds = rulebook.DefaultMaxRounds
	}
	g, err := rulebook.NewGame(def, players, rulebook.Options{Seed: o.Seed, Dice: o.Rolls, MaxRounds: maxRounds})
	if g == nil {
		return usageError("play: %v", err)
	}
	bots := rng.New(o.Seed).Stream("bots")
	lines := newLineReader(in)
	choices := o.Choices
	shown := 0
	show := func() {
		for _, e := range g.Entries(shown) {
			// Rule firings, questions, answers and the tiles a walk
			// passes are in --log; the terminal tells the story.
			if e.Kind != "fired" && e.Kind != "ask" && e.Kind != "answer" && e.Type != rulebook.TilePassed {
				fmt.Fprintln(out, e.Text)
			}
		}
		shown = len(g.Match.Records())
	}
	for err == nil {
		show()
		ws := g.Waits()
		if g.Over() || len(ws) == 0 {
			break
		}
		w := ws[0]
		var cmd rulebook.Command
		switch name := g.Players[w.Player]; {
		case o.IsBot(name):
			cmd, _ = g.BotCommand(w.Player, bots)
		case len(w.Options) > 0 && len(choices) > 0:
			cmd = rulebook.Command{Player: w.Player, Kind: w.Kind, Value: choices[0]}
			choices = choices[1:]
		case len(w.Options) == 0 && o.Yes:
			cmd = rulebook.Command{Player: w.Player, Kind: w.Kind}
		default:
			var quit bool
			if cmd, quit, err = askRulebookHuman(g, w, lines, out); quit || err != nil {
				show()
				fmt.Fprintln(out, "Stopped.")
				return writeRulebookLog(g, o.Log, err)
			}
		}
		err = g.Apply(cmd)
		if err != nil && g.Err() == nil {
			// A refused answer (a scripted choice out of range): say why
			// and ask again.
			fmt.Fprintln(errOut, err)
			err = nil
		}
	}
	show()
	if err != nil {
		fmt.Fprintln(errOut, "tabula:", err)
		if logErr := writeRulebookLog(g, o.Log, nil); logErr != nil {
			return logErr
		}
		return failed
	}
	s := g.State
	if s.Over {
		fmt.Fprintf(out, "After %d turns: %s.\n", s.Turn, s.EndReason)
	}
	for _, p := range g.View(-1).Players {
		status := ""
		if !p.Active {
			status = " (out)"
		}
		fmt.Fprintf(out, "  %s: score %d on %s%s\n", p.Name, p.Score, p.Tile, status)
	}
	fmt.Fprintf(out, "State hash %s\n", g.Hash())
	return writeRulebookLog(g, o.Log, nil)
}

// askHuman asks a player in the terminal until they give an answer the
// decision accepts, or quit.
func askRulebookHuman(g *rulebook.Game, w rulebook.Wait, lines *lineReader, out io.Writer) (rulebook.Command, bool, error) {
	cmd := rulebook.Command{Player: w.Player, Kind: w.Kind}
	name := g.Players[w.Player]
	for {
		if len(w.Options) == 0 {
			fmt.Fprintf(out, "%s: %s — press Enter (q to quit) ", name, w.Prompt)
		} else {
			fmt.Fprintf(out, "%s: %s\n", name, w.Prompt)
			for i, opt := range w.Options {
				fmt.Fprintf(out, "  %d) %s\n", i+1, opt)
			}
			fmt.Fprintf(out, "Choose 1-%d (q to quit): ", len(w.Options))
		}
		line, err := lines.Line()
		if err == io.EOF {
			return cmd, false, fmt.Errorf("the input ended before the game did")
		}
		if err != nil {
			return cmd, false, err
		}
		if line == "q" || line == "quit" {
			return cmd, true, nil
		}
		if len(w.Options) == 0 {
			return cmd, false, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(line))
		if err == nil && n >= 1 && n <= len(w.Options) {
			cmd.Value = n - 1
			return cmd, false, nil
		}
		fmt.Fprintf(out, "Please type a number from 1 to %d.\n", len(w.Options))
	}
}

// writeRulebookLog writes the match's log as JSON lines when --log asks
// for it, and returns err (or the error of writing).
func writeRulebookLog(g *rulebook.Game, path string, err error) error {
	if path == "" {
		return err
	}
	f, ferr := os.Create(path)
	if ferr != nil {
		return fmt.Errorf("--log: %v", ferr)
	}
	werr := g.WriteLog(f, 0)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("--log: %v", werr)
	}
	return err
}
