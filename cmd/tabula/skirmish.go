package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish"
)

func init() {
	register(&pack{
		Name:     "skirmish",
		Detect:   func(_ string, data []byte) bool { return data != nil && skirmish.Detect(data) },
		Validate: skirmish.Validate,
		Play:     playSkirmish,
		Scenario: skirmish.RunScenario,
		Schemas:  map[string][]byte{"skirmish": skirmish.Schema},
	})
}

// maxSkirmishCommands stops a fight that would not end (it cannot, with a
// round limit, but a bad encounter should not hang the terminal).
const maxSkirmishCommands = 100_000

// playSkirmish plays an encounter in the terminal. Each side is a player:
// the sides named in --bots are played by bots (--bots all: every side);
// without --bots the first side is yours and the others are bots.
func playSkirmish(path string, o playOptions, in io.Reader, out, errOut io.Writer) error {
	enc, diags := skirmish.LoadEncounter(path)
	diags.Warnings().Print(errOut)
	if enc == nil {
		diags.Errors().Print(errOut)
		return failed
	}
	if len(o.Players) > 0 && !slices.Equal(o.Players, enc.Sides) {
		return usageError("play: the players of a skirmish are the encounter's sides: %s", strings.Join(enc.Sides, ", "))
	}
	if len(o.Choices) > 0 {
		return usageError("play: a skirmish asks no choices; --choices does not apply")
	}
	if o.MaxRounds > 0 {
		e := *enc
		e.MaxRounds = o.MaxRounds
		enc = &e
	}
	bot := func(side engine.PlayerID) bool {
		if o.Bots == "" {
			return side != 0
		}
		return o.IsBot(enc.Sides[side])
	}
	m, err := skirmish.NewMatch(enc, o.Seed, o.Rolls)
	if err != nil {
		return err
	}
	g := m.Game
	fmt.Fprintf(out, "%s (seed %d)\n", enc.Name, o.Seed)
	for i, s := range enc.Sides {
		who := "you"
		if bot(engine.PlayerID(i)) {
			who = "a bot"
		}
		fmt.Fprintf(out, "  %s: %s\n", s, who)
	}
	printed := 0
	flush := func() {
		for _, l := range m.Lines(printed) {
			fmt.Fprintln(out, "  "+l)
		}
		printed = len(m.Records())
	}
	flush()
	lines := newLineReader(in)
	shown := -1 // the turn whose board was last shown
	for n := 0; !g.Over; n++ {
		if n >= maxSkirmishCommands {
			return fmt.Errorf("the fight did not end after %d commands", n)
		}
		f := g.Current()
		if bot(f.Side) {
			if err := m.Do(m.BotCommand()); err != nil {
				if !engine.IsRejected(err) {
					return err
				}
				if err := m.Do(skirmish.Command{Do: "end", Who: f.Key}); err != nil {
					return err
				}
			}
			flush()
			continue
		}
		if turn := g.Round*1000 + g.Turn; turn != shown {
			shown = turn
			fmt.Fprint(out, board(m))
		}
		fmt.Fprintf(out, "%s's turn (%s), round %d: %s. > ", f.Key, enc.Sides[f.Side], g.Round, economy(f))
		line, err := lines.Line()
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(out)
			return fmt.Errorf("the input ended before the fight did")
		}
		if err != nil {
			return err
		}
		if w := strings.ToLower(strings.TrimSpace(line)); w == "map" || w == "look" {
			fmt.Fprint(out, board(m))
			continue
		}
		cmd, msg := parseSkirmish(line, f)
		if msg != "" {
			fmt.Fprintln(out, msg)
			if msg == "bye" {
				return nil
			}
			continue
		}
		if err := m.Do(cmd); err != nil {
			if !engine.IsRejected(err) {
				return err
			}
			fmt.Fprintln(out, strings.TrimPrefix(err.Error(), "rejected: "))
			continue
		}
		flush()
	}
	fmt.Fprint(out, board(m))
	if g.Winner == engine.NoPlayer {
		fmt.Fprintf(out, "A draw after %d rounds.\n", g.Round)
	} else {
		fmt.Fprintf(out, "%s win in round %d.\n", enc.Sides[g.Winner], g.Round)
	}
	if o.Log != "" {
		fh, err := os.Create(o.Log)
		if err != nil {
			return err
		}
		if err := m.WriteJSONL(fh, 0); err != nil {
			fh.Close()
			return err
		}
		return fh.Close()
	}
	return nil
}

const skirmishHelp = `commands:
  attack TARGET [WEAPON]   attack (a)          move X Y      walk there (m)
  shove TARGET             push 5 ft away      dash          double your movement
  disengage                walk away safely    dodge         be hard to hit
  end                      end your turn (e)   map           show the board
  help                     this text           quit          stop playing`

// parseSkirmish reads a command typed in the terminal. It returns the
// command, or a message to show instead.
func parseSkirmish(line string, f *skirmish.Combatant) (skirmish.Command, string) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return skirmish.Command{}, "type a command (help lists them)"
	}
	cmd := skirmish.Command{Who: f.Key}
	verb := strings.ToLower(words[0])
	switch verb {
	case "a", "attack", "shove":
		if len(words) < 2 {
			return cmd, verb + " whom?"
		}
		cmd.Do, cmd.Target = "attack", words[1]
		if verb == "shove" {
			cmd.Do = "shove"
		}
		cmd.Weapon = strings.Join(words[2:], " ")
	case "m", "move":
		if len(words) != 3 {
			return cmd, "move X Y: the column and the row"
		}
		x, err1 := strconv.Atoi(words[1])
		y, err2 := strconv.Atoi(words[2])
		if err1 != nil || err2 != nil {
			return cmd, "move X Y: the column and the row, as numbers"
		}
		cmd.Do, cmd.To = "move", &skirmish.Cell{x, y}
	case "e", "end", "pass":
		cmd.Do = "end"
	case "dash", "disengage", "dodge":
		cmd.Do = verb
	case "help", "?", "h":
		return cmd, skirmishHelp
	case "quit", "q", "exit":
		return cmd, "bye"
	default:
		return cmd, fmt.Sprintf("no command %q (help lists them)", words[0])
	}
	return cmd, ""
}

// board draws the map and lists the combatants.
func board(m *skirmish.Match) string {
	g := m.Game
	symbol := func(i int) byte { return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[i%52] }
	var b strings.Builder
	b.WriteString(g.Encounter.Grid.Render(func(c skirmish.Cell) byte {
		if f := g.At(c); f != nil {
			return symbol(int(f.ID - 1))
		}
		return 0
	}))
	for i, f := range g.Fighters {
		state := fmt.Sprintf("HP %d/%d", f.HP, f.MaxHP.Score())
		if !f.Alive {
			state = "down"
		}
		fmt.Fprintf(&b, "  %c %-10s %-8s %s AC %d at %s", symbol(i), f.Key, g.Encounter.Sides[f.Side], state, f.AC.Score(), f.Pos)
		if cs := g.Conditions(f.ID); len(cs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(cs, ", "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func economy(f *skirmish.Combatant) string {
	var parts []string
	if f.Economy.Actions > 0 {
		parts = append(parts, "action")
	}
	parts = append(parts, fmt.Sprintf("%d ft", f.Economy.Movement))
	return strings.Join(parts, ", ")
}
