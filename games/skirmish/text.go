package skirmish

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// Text draws the fight for a terminal (game.Texter): the map with a letter
// per creature, the creatures, and whose turn it is. What the seat may
// play is listed by the terminal, from Legal.
func (m *Match) Text(seat int) string {
	g := m.State
	var b strings.Builder
	b.WriteString(m.board())
	switch d, asked := m.reaction(); {
	case g.Over && g.Winner == engine.NoPlayer:
		fmt.Fprintf(&b, "A draw after %d rounds: %s.\n", m.Outcome().Rounds, g.Reason)
	case g.Over:
		fmt.Fprintf(&b, "%s win in round %d.\n", m.sideLabel(g.Winner), g.Round)
	case asked && int(d.Player) == seat:
		fmt.Fprintf(&b, "%s.\n", d.Prompt)
	case asked:
		fmt.Fprintf(&b, "Waiting for %s: %s.\n", m.sideLabel(d.Player), d.Prompt)
	case g.Current() != nil:
		f := g.Current()
		fmt.Fprintf(&b, "%s's turn (%s), round %d: %s.\n", f.Name, m.sideLabel(f.Side), g.Round, economy(f))
	}
	return b.String()
}

// board draws the map and lists the combatants.
func (m *Match) board() string {
	g := m.State
	symbol := func(i int) byte { return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[i%52] }
	var b strings.Builder
	b.WriteString(g.Def.Grid.Render(func(c Cell) byte {
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
		fmt.Fprintf(&b, "  %c %-12s %-8s %s AC %d", symbol(i), f.Name, g.Def.Sides[f.Side], state, f.AC.Score())
		var cs []string
		for _, s := range g.book.Of(f.ID) {
			if g.book.Get(s.Parent) == nil { // a part of another is told with it
				cs = append(cs, s.Def.Title)
			}
		}
		if len(cs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(cs, ", "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// economy says what a combatant has left this turn: "action, 30 ft".
func economy(f *Combatant) string {
	var parts []string
	if f.Economy.Actions > 0 {
		parts = append(parts, "action")
	}
	parts = append(parts, fmt.Sprintf("%d ft", f.Economy.Movement))
	return strings.Join(parts, ", ")
}

// ParseHelp lists the commands ParseCommand reads.
const ParseHelp = `commands:
  attack TARGET [WEAPON]   attack (a)          move X Y      walk there (m)
  shove TARGET             push 5 ft away      dash          double your movement
  disengage                walk away safely    dodge         be hard to hit
  end                      end your turn (e)   help          this text
asked for a reaction:
  yes                      make the opportunity attack (y)
  no                       let the creature go (n)`

// ParseCommand reads a command typed in the terminal in the pack's words
// (game.Parser): "attack goblin", "attack goblin shortbow", "move 4 2",
// "shove goblin", "dash", "disengage", "dodge", "end", and "yes" or "no"
// to a reaction. The combatant is the one whose turn it is.
func (m *Match) ParseCommand(seat int, line string) (json.RawMessage, error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return nil, errors.New("type a command (help lists them)")
	}
	verb := strings.ToLower(words[0])
	if verb == "help" || verb == "?" || verb == "h" {
		return nil, errors.New(ParseHelp)
	}
	if d, ok := m.reaction(); ok {
		if int(d.Player) != seat {
			return nil, fmt.Errorf("waiting for %s to answer: %s", m.sideLabel(d.Player), d.Prompt)
		}
		switch verb {
		case "y", "yes", "a", "attack", "take":
			return commandJSON(Command{Do: "reaction", Take: new(true)}), nil
		case "n", "no", "let", "pass", "skip":
			return commandJSON(Command{Do: "reaction", Take: new(false)}), nil
		}
		return nil, fmt.Errorf("%s: yes (attack) or no (let it go)", d.Prompt)
	}
	cmd := Command{}
	if f := m.State.Current(); f != nil {
		cmd.Who = f.Key
	}
	switch verb {
	case "a", "attack", "shove":
		if len(words) < 2 {
			return nil, fmt.Errorf("%s whom?", verb)
		}
		cmd.Do, cmd.Target = "attack", words[1]
		if verb == "shove" {
			cmd.Do = "shove"
		}
		cmd.Weapon = strings.Join(words[2:], " ")
	case "m", "move":
		if len(words) != 3 {
			return nil, errors.New("move X Y: the column and the row")
		}
		x, err1 := strconv.Atoi(words[1])
		y, err2 := strconv.Atoi(words[2])
		if err1 != nil || err2 != nil {
			return nil, errors.New("move X Y: the column and the row, as numbers")
		}
		cmd.Do, cmd.To = "move", &Cell{x, y}
	case "e", "end", "pass":
		cmd.Do = "end"
	case "dash", "disengage", "dodge":
		cmd.Do = verb
	case "rest":
		cmd = Command{Do: "rest"}
	default:
		return nil, fmt.Errorf("no command %q (help lists them)", words[0])
	}
	return commandJSON(cmd), nil
}
