package rulebook

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Text draws the match for a terminal as the seat (or a spectator) sees
// it: the turn, the last roll and card, each player's score, tile,
// properties (those not at zero) and tiles owned, and whom the match
// waits for. What the seat may play is listed by the terminal, from
// Legal, numbered as ParseCommand reads them.
func (m *Match) Text(seat int) string {
	s := m.state
	var b strings.Builder
	if s.Turn == 0 {
		b.WriteString("The game has not begun")
	} else {
		fmt.Fprintf(&b, "Turn %d, round %d: %s's turn", s.Turn, s.Round, m.players[s.Current])
	}
	if len(s.Dice) > 1 {
		fmt.Fprintf(&b, "; last roll %s = %d", joinInts(s.Dice, "+"), s.Roll)
	} else if len(s.Dice) == 1 {
		fmt.Fprintf(&b, "; last roll %d", s.Roll)
	}
	if s.Card.Deck >= 0 {
		d := &m.def.File.Decks[s.Card.Deck]
		fmt.Fprintf(&b, "; last card %s", d.Cards[s.Card.Card].Name)
	}
	b.WriteString("\n")
	for i, p := range s.Players {
		fmt.Fprintf(&b, "  %s", p.Name)
		if i == seat {
			b.WriteString(" (you)")
		}
		if !p.Active {
			b.WriteString(": out\n")
			continue
		}
		switch d := m.def; {
		case !d.scores:
			fmt.Fprintf(&b, ": on %s", s.tileLabel(p.Tile))
		case d.scoreName != "":
			fmt.Fprintf(&b, ": %d %s, on %s", p.Score, d.scoreName, s.tileLabel(p.Tile))
		default:
			fmt.Fprintf(&b, ": %d on %s", p.Score, s.tileLabel(p.Tile))
		}
		if n := s.owned(i); n > 0 {
			fmt.Fprintf(&b, ", owns %d", n)
		}
		for j, k := range m.def.props {
			if p.Props[j] != 0 {
				fmt.Fprintf(&b, ", %s %d", m.def.propLabel(k), p.Props[j])
			}
		}
		b.WriteString("\n")
	}
	switch {
	case s.Over:
		fmt.Fprintf(&b, "Game over: %s.\n", s.endWords)
		return b.String()
	case m.err != nil:
		fmt.Fprintf(&b, "The match stopped: %v\n", m.err)
		return b.String()
	}
	if w, ok := m.firstWait(seat); ok {
		if len(w.Options) > 0 {
			fmt.Fprintf(&b, "%s\n", w.Prompt) // the question; the terminal lists the answers
		}
		return b.String()
	}
	var names []string
	for _, i := range m.Waiting() {
		names = append(names, m.players[i])
	}
	fmt.Fprintf(&b, "Waiting for %s.\n", strings.Join(names, ", "))
	return b.String()
}

// ParseCommand reads a line typed in the terminal as the seat's answer to
// its first decision. A decision without options takes an empty line (or
// its kind, "roll", "draw"); one with options takes an option's number as
// Text shows it, the option's words, its first word ("buy", "pass") or its
// last ones ("40" for "Bid 40", "Gumdrop Pass" for "Go to Gumdrop Pass"),
// as long as they name one option only.
func (m *Match) ParseCommand(seat int, line string) (json.RawMessage, error) {
	w, ok := m.firstWait(seat)
	if !ok {
		if m.state.Over {
			return nil, fmt.Errorf("the game is over")
		}
		var names []string
		for _, i := range m.Waiting() {
			names = append(names, m.players[i])
		}
		return nil, fmt.Errorf("you are not asked anything; waiting for %s", strings.Join(names, ", "))
	}
	typed := strings.ToLower(strings.Join(strings.Fields(line), " "))
	if len(w.Options) == 0 {
		verb, _, _ := strings.Cut(strings.ToLower(w.Prompt), " ")
		switch typed {
		case "", w.Kind, verb, "y", "yes", "ok":
			return commandJSON(Command{Kind: w.Kind}), nil
		}
		return nil, fmt.Errorf("press Enter to answer %q", w.Prompt)
	}
	if n, err := strconv.Atoi(typed); err == nil && n >= 1 && n <= len(w.Options) {
		return commandJSON(Command{Kind: w.Kind, Value: n - 1}), nil
	}
	found := -1
	for i, opt := range w.Options {
		if !answers(strings.ToLower(opt), typed) {
			continue
		}
		if found >= 0 {
			return nil, fmt.Errorf("%q could be %q or %q: type its number, 1 to %d", line, w.Options[found], opt, len(w.Options))
		}
		found = i
	}
	if found < 0 {
		return nil, fmt.Errorf("type a number from 1 to %d, or one of %s", len(w.Options), quoteAll(w.Options))
	}
	return commandJSON(Command{Kind: w.Kind, Value: found}), nil
}

// answers reports whether typed words name an option: all its words, its
// first word, or its last ones.
func answers(option, typed string) bool {
	if typed == "" {
		return false
	}
	words := strings.Fields(option)
	if len(words) == 0 {
		return false
	}
	if typed == option || typed == words[0] {
		return true
	}
	for k := 1; k < len(words); k++ {
		if typed == strings.Join(words[k:], " ") {
			return true
		}
	}
	return false
}

func quoteAll(xs []string) string {
	var out []string
	for _, x := range xs {
		out = append(out, strconv.Quote(x))
	}
	return strings.Join(out, ", ")
}
