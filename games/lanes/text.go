package lanes

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Text draws the match for a seat at the terminal: both sides lane by lane
// (the viewer's own at the bottom), the viewer's hand, and whose turn it
// is. A spectator sees seat 0 at the bottom and no hand.
func (m *Match) Text(seat int) string {
	s := m.s
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d, %s phase", s.Round, s.Phase)
	if s.Phase != PhaseOver {
		fmt.Fprintf(&b, ": %s's turn", s.Players[s.Turn].Name)
	}
	b.WriteByte('\n')
	viewer := engine.PlayerID(0)
	if seat == 1 {
		viewer = 1
	}
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
				b.WriteString(droneText(s.Drone(id)))
			}
			b.WriteByte('\n')
		}
	}
	if seat == 0 || seat == 1 {
		b.WriteString("Hand:")
		for _, ci := range s.Players[seat].Hand {
			c := m.def.Cards[ci]
			fmt.Fprintf(&b, " [%s %d]", c.Name, c.Cost)
		}
		b.WriteByte('\n')
	}
	if o := m.Outcome(); o.Over {
		fmt.Fprintf(&b, "Game over after %d rounds: %s\n", o.Rounds, o.Reason)
	}
	return b.String()
}

// droneText is a drone in a line: "Odin 2/3/3" (attack, hull, shields)
// with its state.
func droneText(d *Drone) string {
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

// ParseCommand reads a command typed at the terminal: the number of one of
// Legal's commands (from 1), "p" or "pass", a command in the game's JSON,
// or one in words, names in any case:
//
//	deploy Odin 2              a drone of the squad into lane 2
//	move Odin 2 3              the drone labelled "Odin 2" to lane 3
//	attack Odin Bridge         the enemy section, or an enemy drone
//	play Laser Blast Loki      a card, then what it targets: a lane,
//	play Tractor Beam Loki 3   a drone (and the lane it is moved to),
//	play Reposition Odin, Thor 3   or drones and the lane they move to
func (m *Match) ParseCommand(seat int, line string) (json.RawMessage, error) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "{") {
		var c Command
		if err := game.DecodeCommand([]byte(line), &c); err != nil {
			return nil, err
		}
		return json.RawMessage(line), nil
	}
	if n, err := strconv.Atoi(line); err == nil {
		legal := m.Legal(seat)
		if n < 1 || n > len(legal) {
			return nil, fmt.Errorf("%d is not one of the %d commands", n, len(legal))
		}
		return legal[n-1].Data, nil
	}
	verb, rest, _ := strings.Cut(line, " ")
	words := strings.Fields(rest)
	var c Command
	var err error
	switch strings.ToLower(verb) {
	case "p", "pass":
		c.Do = "pass"
	case "deploy", "move":
		c.Do = strings.ToLower(verb)
		var name string
		if name, c.Lane, err = nameAndNumber(words); err != nil {
			return nil, err
		}
		if c.Do == "deploy" {
			c.Drone, err = m.match("drone kind", name, m.kindNames())
		} else {
			c.Drone, err = m.match("drone", name, m.labels())
		}
	case "attack":
		c.Do = "attack"
		c.Drone, c.Target, err = m.splitNames(words, m.labels(), append(m.labels(), m.sectionNames(seat)...))
	case "play":
		c, err = m.parsePlay(seat, words)
	default:
		return nil, fmt.Errorf("%q: type a command's number, pass, deploy, move, attack or play", verb)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(c)
}

// parsePlay reads "play CARD [TARGETS]".
func (m *Match) parsePlay(seat int, words []string) (Command, error) {
	c := Command{Do: "play"}
	if seat != 0 && seat != 1 {
		return c, errors.New("a spectator has no cards")
	}
	var card *CardDef
	for k := len(words); k >= 1 && card == nil; k-- {
		name := strings.Join(words[:k], " ")
		for _, ci := range m.s.Players[seat].Hand {
			if cd := m.def.Cards[ci]; strings.EqualFold(cd.Name, name) || strings.EqualFold(cd.ID, name) {
				card, words = cd, words[k:]
				break
			}
		}
	}
	if card == nil {
		return c, fmt.Errorf("no card of that name in the hand")
	}
	c.Card = card.key
	var err error
	switch card.Targeting.Type {
	case "NONE":
		if len(words) > 0 {
			return c, fmt.Errorf("%s takes no target", card.Name)
		}
	case "LANE":
		_, c.Lane, err = nameAndNumber(append([]string{""}, words...))
	case "DRONE":
		name := strings.Join(words, " ")
		if hasMove(card) {
			name, c.To, err = nameAndNumber(words)
		}
		if err == nil {
			c.Target, err = m.match("drone", name, m.labels())
		}
	case "DRONES":
		var names string
		if names, c.To, err = nameAndNumber(words); err != nil {
			return c, err
		}
		for _, n := range strings.Split(names, ",") {
			label, err := m.match("drone", strings.TrimSpace(n), m.labels())
			if err != nil {
				return c, err
			}
			c.Drones = append(c.Drones, label)
		}
	}
	return c, err
}

// nameAndNumber splits "Odin 2 3" into "Odin 2" and 3 (a lane), allowing
// "to" before the number.
func nameAndNumber(words []string) (string, int, error) {
	if len(words) == 0 {
		return "", 0, errors.New("say which lane (1-3)")
	}
	n, err := strconv.Atoi(words[len(words)-1])
	if err != nil {
		return "", 0, fmt.Errorf("%q is not a lane: end with the lane's number (1-3)", words[len(words)-1])
	}
	words = words[:len(words)-1]
	if len(words) > 0 && strings.EqualFold(words[len(words)-1], "to") {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " "), n, nil
}

// splitNames splits words into a name of firsts and a name of seconds.
func (m *Match) splitNames(words, firsts, seconds []string) (string, string, error) {
	for k := 1; k < len(words); k++ {
		a, errA := m.match("drone", strings.Join(words[:k], " "), firsts)
		b, errB := m.match("target", strings.Join(words[k:], " "), seconds)
		if errA == nil && errB == nil {
			return a, b, nil
		}
	}
	return "", "", errors.New("say which drone attacks and what: attack Odin Bridge")
}

// match returns the name among names that equals name, in any case.
func (m *Match) match(what, name string, names []string) (string, error) {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n, nil
		}
	}
	return "", fmt.Errorf("no %s %q", what, name)
}

// labels are the labels of the drones on the board.
func (m *Match) labels() []string {
	var out []string
	for i := range m.s.Drones {
		if !m.s.Drones[i].Destroyed {
			out = append(out, m.s.Drones[i].Label)
		}
	}
	return out
}

// sectionNames are the names of the sections of the seat's opponent.
func (m *Match) sectionNames(seat int) []string {
	var out []string
	if seat == 0 || seat == 1 {
		for _, sec := range m.s.Players[1-seat].Sections {
			out = append(out, sec.Def.Name)
		}
	}
	return out
}
