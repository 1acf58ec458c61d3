package party

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// Text draws the match for a terminal, as the seat sees it: the round and
// whose turn it is, where every player stands with their state and stats,
// and what the seat is asked (the prompt to acknowledge, the ways of a
// fork, numbered as ParseCommand reads them), or whom the match waits for.
func (m *Match) Text(seat int) string {
	s := m.s
	var b strings.Builder
	if s.Over {
		fmt.Fprintf(&b, "Game over after %d %s: %s.", s.LastRound, plural(s.LastRound, "round"), s.EndReason)
		if len(s.Winners) == 0 {
			b.WriteString(" No winner.\n")
		} else {
			var names []string
			for _, w := range s.Winners {
				names = append(names, s.Players[w].Name)
			}
			fmt.Fprintf(&b, " Winner: %s.\n", strings.Join(names, ", "))
		}
	} else {
		fmt.Fprintf(&b, "Round %d · %s's turn", s.Round(), s.player().Name)
		if m.compat != "" {
			fmt.Fprintf(&b, " · %s rules", m.compat)
		}
		if len(s.LastRoll) > 0 {
			total := 0
			for _, v := range s.LastRoll {
				total += v
			}
			fmt.Fprintf(&b, " · last roll %d", total)
		}
		b.WriteByte('\n')
	}
	for i := range s.Players {
		p := &s.Players[i]
		var notes []string
		for _, k := range slices.Sorted(maps.Keys(p.Stats)) {
			notes = append(notes, fmt.Sprintf("%s %s", k, formatNumber(p.Stats[k].Display)))
		}
		for _, e := range p.Effects {
			notes = append(notes, effectWords(e.Kind, e.Left))
		}
		mark := " "
		if i == seat {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s %-12s on %-20s %-15s %s\n", mark, p.Name, spaceLabel(&m.def.Board.Spaces[p.Space]), p.State, strings.Join(notes, ", "))
	}
	if s.Over {
		return b.String()
	}
	d, asked := m.e.WaitingFor(engine.PlayerID(seat))
	switch {
	case asked && d.Kind == KindAck:
		fmt.Fprintf(&b, "[%s] %s\n  (Enter to continue)\n", s.Players[seat].Name, d.Prompt)
	case asked:
		fmt.Fprintf(&b, "%s, which way?\n", s.Players[seat].Name)
		names := m.wayNames()
		for i, name := range names {
			fmt.Fprintf(&b, "  %d) %s\n", i+1, name)
		}
		fmt.Fprintf(&b, "Choose 1-%d.\n", len(names))
	case !m.e.IsWaiting() && s.Phase == PhaseRoll && s.Current == seat:
		fmt.Fprintf(&b, "%s, press Enter to roll.\n", s.Players[seat].Name)
	default:
		if pr := s.Prompt; pr != nil {
			// A message the seat reads without acknowledging it.
			fmt.Fprintf(&b, "%s: %s\n", spaceTitle(&m.def.Board.Spaces[pr.Space]), pr.Text)
		}
		fmt.Fprintf(&b, "Waiting for %s.\n", m.waitingText())
	}
	return b.String()
}
