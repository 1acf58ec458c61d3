package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/lanes"
)

func init() {
	register(&pack{
		Name: "lanes",
		Detect: func(path string, data []byte) bool {
			return data != nil && lanes.Detect(data)
		},
		Validate: validateLanes,
		Play:     playLanes,
		Scenario: lanes.RunScenario,
		Schemas:  map[string][]byte{lanes.SchemaName: lanes.Schema()},
	})
}

func validateLanes(path string) diag.List {
	data, err := os.ReadFile(path)
	if err != nil {
		return diag.List{{File: path, Severity: diag.Error, Message: err.Error()}}
	}
	_, diags := lanes.Load(path, data)
	return diags
}

// maxLanesCommands bounds a game in the terminal; rounds are limited, so
// only a bug reaches it.
const maxLanesCommands = 100_000

// playLanes plays a lanes match in the terminal: each human is shown the
// board and a numbered list of their legal actions; bots choose for
// themselves. The readable log is printed as the game goes.
func playLanes(path string, o playOptions, in io.Reader, out, errOut io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return usageError("play: %v", err)
	}
	def, diags := lanes.Load(path, data)
	if def == nil {
		diags.Print(errOut)
		return failed
	}
	names := [2]string{"A", "B"}
	switch len(o.Players) {
	case 0:
	case 2:
		if o.Players[0] == o.Players[1] {
			return usageError("play: the two players need different names")
		}
		names = [2]string{o.Players[0], o.Players[1]}
	default:
		return usageError("play: a lanes game has two players (--players A,B)")
	}
	if o.MaxRounds > 0 {
		def = def.WithMaxRounds(o.MaxRounds)
	}
	m, err := lanes.NewMatch(def, o.Seed, names)
	if err != nil {
		return err
	}
	var bots [2]*lanes.Bot
	for p, n := range names {
		if o.IsBot(n) {
			bots[p] = lanes.NewBot(o.Seed, engine.PlayerID(p))
		}
	}
	lines := newLineReader(in)
	choices := o.Choices
	shown := 0
	show := func() {
		for _, l := range m.Readable(shown) {
			fmt.Fprintln(out, l)
		}
		shown = len(m.E.Records())
	}
	show()
	for n := 0; !m.Over(); n++ {
		if n >= maxLanesCommands {
			return fmt.Errorf("play: the game did not end after %d commands", n)
		}
		p := m.S.Turn
		var a lanes.Action
		if bots[p] != nil {
			a = bots[p].Choose(m, p)
		} else {
			if a, err = askLanes(m, p, lines, &choices, out); err != nil {
				return err
			}
		}
		if err := m.Do(p, a); err != nil {
			if engine.IsRejected(err) {
				fmt.Fprintln(out, err)
				continue
			}
			return err
		}
		show()
	}
	fmt.Fprintln(out, m.Result())
	if o.Log != "" {
		f, err := os.Create(o.Log)
		if err != nil {
			return err
		}
		if err := m.WriteJSONL(f, 0); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}

// askLanes shows a human the board and their actions and reads a choice:
// an action's number, or "p" to pass. Scripted --choices are used first.
func askLanes(m *lanes.Match, p engine.PlayerID, lines *lineReader, choices *[]int, out io.Writer) (lanes.Action, error) {
	legal := m.Legal(p)
	fmt.Fprint(out, "\n"+m.Board(p))
	for i, a := range legal {
		fmt.Fprintf(out, "  %2d) %s\n", i+1, m.Describe(p, a))
	}
	for {
		fmt.Fprintf(out, "%s, your action (1-%d, p to pass): ", m.S.Players[p].Name, len(legal))
		var text string
		if len(*choices) > 0 {
			text = strconv.Itoa((*choices)[0])
			*choices = (*choices)[1:]
			fmt.Fprintln(out, text)
		} else {
			line, err := lines.Line()
			if errors.Is(err, io.EOF) {
				return lanes.Action{}, fmt.Errorf("play: the input ended before the game did")
			}
			if err != nil {
				return lanes.Action{}, err
			}
			text = line
		}
		text = strings.ToLower(strings.TrimSpace(text))
		if text == "p" || text == "pass" {
			return lanes.Action{Kind: lanes.Pass}, nil
		}
		if i, err := strconv.Atoi(text); err == nil && i >= 1 && i <= len(legal) {
			return legal[i-1], nil
		}
		fmt.Fprintf(out, "%q is not one of the actions\n", text)
	}
}
