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
// the message being read, or whom the match waits for. What the seat may
// play is listed by the terminal, from Legal.
func (m *Match) Text(seat int) string {
	s := m.s
	var b strings.Builder
	if s.Over {
		fmt.Fprintf(&b, "Game over after %d %s: %s.", s.LastRound, plural(s.LastRound, "round"), m.reasonWords(s.EndReason))
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
			notes = append(notes, fmt.Sprintf("%s %s", statLabel(k), formatNumber(p.Stats[k].Display)))
		}
		for _, e := range p.Effects {
			notes = append(notes, effectWords(e.Kind, e.Left))
		}
		mark := " "
		if i == seat {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s %-12s on %-20s %-15s %s\n", mark, p.Name, spaceTitle(&m.def.Board.Spaces[p.Space]), stateText(p.State), strings.Join(notes, ", "))
	}
	if s.Over {
		return b.String()
	}
	if _, asked := m.e.WaitingFor(engine.PlayerID(seat)); asked || (!m.e.IsWaiting() && s.Phase == PhaseRoll && s.Current == seat) {
		return b.String() // the terminal lists what the seat may play
	}
	if pr := s.Prompt; pr != nil {
		// A message the seat reads without acknowledging it.
		fmt.Fprintf(&b, "%s: %s\n", spaceTitle(&m.def.Board.Spaces[pr.Space]), pr.Text)
	}
	fmt.Fprintf(&b, "Waiting for %s.\n", m.waitingText())
	return b.String()
}
