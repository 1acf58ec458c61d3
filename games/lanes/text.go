package lanes

import (
	"fmt"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// WithMaxRounds returns a copy of the game whose matches end after n
// rounds.
func (d *Def) WithMaxRounds(n int) *Def {
	c := *d
	c.Rules.MaxRounds = n
	return &c
}

// Board renders the match for a player at the terminal: both sides lane by
// lane, the player's hand, and whose turn it is.
func (m *Match) Board(viewer engine.PlayerID) string {
	s := m.S
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d, %s phase", s.Round, s.Phase)
	if s.Phase != PhaseOver {
		fmt.Fprintf(&b, ": %s's turn", s.Players[s.Turn].Name)
	}
	b.WriteByte('\n')
	lose := s.damageToLose()
	for _, p := range [2]engine.PlayerID{1 - viewer, viewer} {
		pl := &s.Players[p]
		st := s.Stats(p)
		fmt.Fprintf(&b, "%s: energy %d/%d, budget %d, CPU %d/%d, hand %d, deck %d, threat %d, ship damage %d/%d",
			pl.Name, pl.Energy, st.MaxEnergy, pl.Budget, s.onBoard(p), st.CPULimit, len(pl.Hand), len(pl.Deck), pl.Threat, s.ShipDamage(p), lose)
		if s.Passed[p] {
			b.WriteString(" (passed)")
		}
		b.WriteByte('\n')
		for lane := 1; lane <= Lanes; lane++ {
			sec := &pl.Sections[lane-1]
			fmt.Fprintf(&b, "  lane %d  %-18s hull %2d shields %d (%s) |", lane, sec.Def.Name, sec.Hull, sec.Shields, sec.StatusName())
			for _, id := range pl.Lanes[lane-1] {
				b.WriteString(" ")
				b.WriteString(m.droneText(s.Drone(id)))
			}
			b.WriteByte('\n')
		}
	}
	pl := &s.Players[viewer]
	b.WriteString("Hand:")
	for _, ci := range pl.Hand {
		c := m.Def.Cards[ci]
		fmt.Fprintf(&b, " [%s %d]", c.Name, c.Cost)
	}
	b.WriteByte('\n')
	return b.String()
}

// droneText is a drone in a line: "Odin 2/3/3" (attack, hull, shields)
// with its state.
func (m *Match) droneText(d *Drone) string {
	txt := fmt.Sprintf("%s %d/%d/%d", d.Label, d.Attack(), d.Hull, d.Shields)
	var flags []string
	if d.Exhausted {
		flags = append(flags, "exhausted")
	}
	if d.Marked {
		flags = append(flags, "marked")
	}
	if len(flags) > 0 {
		txt += " (" + strings.Join(flags, ", ") + ")"
	}
	return "[" + txt + "]"
}

// Result says how the game ended.
func (m *Match) Result() string {
	s := m.S
	switch {
	case s.Phase != PhaseOver:
		return "the game is not over"
	case s.Winner == engine.NoPlayer:
		return fmt.Sprintf("draw after %d rounds (ship damage %d each)", s.Round, s.ShipDamage(0))
	}
	return fmt.Sprintf("%s wins in round %d (ship damage %s %d, %s %d)", s.Players[s.Winner].Name, s.Round,
		s.Players[0].Name, s.ShipDamage(0), s.Players[1].Name, s.ShipDamage(1))
}
