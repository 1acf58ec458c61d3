package lanes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Command is a player's command, as JSON and as the typed API takes it.
// Drones and cards are named as players see them, never by an internal
// id:
//
//	{"do": "deploy", "drone": "Odin", "lane": 2}      a drone of the squad into a lane
//	{"do": "move", "drone": "Odin", "lane": 3}        a drone (by its label) to an adjacent lane
//	{"do": "attack", "drone": "Odin", "target": "Loki"}   an enemy drone, or the enemy
//	                                                  ship section ("Bridge") in the lane
//	{"do": "play", "card": "Laser Blast", "target": "Loki"}   a card of the hand (its first copy),
//	                                                  with "lane", "target", "to" or
//	                                                  "drones" as its targeting needs
//	{"do": "pass"}
//
// A drone's label is its kind's name, numbered from the second drone of a
// kind on ("Odin 2"), as the view and the log name it. A card is named by
// its name, or by its id where two cards share a name.
type Command struct {
	Do     string   `json:"do"`
	Drone  string   `json:"drone,omitempty"`
	Card   string   `json:"card,omitempty"`
	Lane   int      `json:"lane,omitempty"`
	Target string   `json:"target,omitempty"`
	To     int      `json:"to,omitempty"`
	Drones []string `json:"drones,omitempty"`
}

// Apply plays a seat's command given as JSON.
func (m *Match) Apply(seat int, data json.RawMessage) error {
	var c Command
	if err := game.DecodeCommand(data, &c); err != nil {
		return engine.Rejectf(`a lanes command is {"do": "deploy", "drone": "Odin", "lane": 2} and the like: %v`, err)
	}
	return m.Play(seat, c)
}

// Play plays a seat's command: it names its drones and cards, the rules
// check it, and it runs. A command the rules refuse is an
// engine.RejectError and changes nothing.
func (m *Match) Play(seat int, c Command) error {
	a, err := m.resolve(seat, c)
	if err != nil {
		return err
	}
	return m.do(engine.PlayerID(seat), a)
}

// resolve turns a command's names into an action.
func (m *Match) resolve(seat int, c Command) (action, error) {
	s := m.s
	switch {
	case seat != 0 && seat != 1:
		return action{}, engine.Rejectf("no seat %d: a lanes match has seats 0 and 1", seat)
	case s.Phase == PhaseOver:
		return action{}, engine.Rejectf("the game is over")
	case engine.PlayerID(seat) != s.Turn:
		return action{}, engine.Rejectf("it is %s's turn", s.Players[s.Turn].Name)
	}
	p := engine.PlayerID(seat)
	switch c.Do {
	case "pass":
		if c.Drone != "" || c.Card != "" || c.Target != "" || c.Lane != 0 || c.To != 0 || c.Drones != nil {
			return action{}, engine.Rejectf(`pass takes nothing more: {"do": "pass"}`)
		}
		return action{kind: actPass}, nil
	case "deploy":
		k := m.def.Drone(c.Drone)
		if k == nil {
			return action{}, engine.Rejectf("no drone %q%s", c.Drone, diag.DidYouMean(c.Drone, m.kindNames()))
		}
		return action{kind: actDeploy, drone: k, lane: c.Lane}, nil
	case "move", "attack":
		d, err := m.droneNamed(c.Drone)
		if err != nil {
			return action{}, err
		}
		if c.Do == "move" {
			return action{kind: actMove, id: d.ID, lane: c.Lane}, nil
		}
		t, err := m.attackTarget(p, c.Target)
		return action{kind: actAttack, id: d.ID, target: t}, err
	case "play":
		i := slices.IndexFunc(s.Players[p].Hand, func(ci int) bool { return m.def.Cards[ci].named(c.Card) })
		if i < 0 {
			return action{}, engine.Rejectf("there is no %q in %s's hand", c.Card, s.Players[p].Name)
		}
		a := action{kind: actPlay, card: i, lane: c.Lane, to: c.To}
		if c.Target != "" {
			d, err := m.droneNamed(c.Target)
			if err != nil {
				return action{}, err
			}
			a.target = d.ID
		}
		for _, n := range c.Drones {
			d, err := m.droneNamed(n)
			if err != nil {
				return action{}, err
			}
			a.drones = append(a.drones, d.ID)
		}
		return a, nil
	}
	return action{}, engine.Rejectf(`"do" is deploy, move, attack, play or pass, not %q`, c.Do)
}

// named reports whether a command names the card: by its name or its id.
func (c *CardDef) named(name string) bool { return c.Name == name || c.ID == name }

// droneNamed returns the drone of a label: a drone on the board, else one
// destroyed (which the rules then refuse by name).
func (m *Match) droneNamed(label string) (*Drone, error) {
	s := m.s
	var gone *Drone
	for i := range s.Drones {
		if d := &s.Drones[i]; d.Label == label {
			if !d.Destroyed {
				return d, nil
			}
			gone = d
		}
	}
	if gone != nil {
		return gone, nil
	}
	var labels []string
	for i := range s.Drones {
		if !s.Drones[i].Destroyed {
			labels = append(labels, s.Drones[i].Label)
		}
	}
	return nil, engine.Rejectf("no drone %q on the board%s", label, diag.DidYouMean(label, labels))
}

// attackTarget returns what an attack names: a section of the enemy ship,
// or a drone.
func (m *Match) attackTarget(p engine.PlayerID, name string) (engine.EntityID, error) {
	for lane := 1; lane <= Lanes; lane++ {
		if m.s.Players[1-p].Sections[lane-1].Def.Name == name {
			return SectionID(1-p, lane), nil
		}
	}
	d, err := m.droneNamed(name)
	if err != nil {
		return 0, err
	}
	return d.ID, nil
}

func (m *Match) kindNames() []string {
	var names []string
	for _, k := range m.def.Drones {
		names = append(names, k.Name)
	}
	return names
}

// command names an action's drones and cards: the command that plays it.
func (m *Match) command(p engine.PlayerID, a action) Command {
	s := m.s
	c := Command{Do: actionNames[a.kind], Lane: a.lane, To: a.to}
	switch a.kind {
	case actDeploy:
		c.Drone = a.drone.Name
	case actMove:
		c.Drone = s.Drone(a.id).Label
	case actAttack:
		c.Drone = s.Drone(a.id).Label
		c.Target = m.targetName(a.target)
	case actPlay:
		c.Card = m.def.Cards[s.Players[p].Hand[a.card]].key
		if a.target != 0 {
			c.Target = m.targetName(a.target)
		}
		for _, id := range a.drones {
			c.Drones = append(c.Drones, s.Drone(id).Label)
		}
	}
	return c
}

// targetName names a drone by its label and a section by its name.
func (m *Match) targetName(id engine.EntityID) string {
	if p, lane, ok := m.s.section(id); ok {
		return m.s.Players[p].Sections[lane-1].Def.Name
	}
	return m.s.Drone(id).Label
}

// Legal returns every command the seat may play now, with what each does
// in the players' words; none when it is not the seat's turn.
func (m *Match) Legal(seat int) []game.Command {
	if seat != 0 && seat != 1 {
		return nil
	}
	p := engine.PlayerID(seat)
	acts := m.legal(p)
	out := make([]game.Command, 0, len(acts))
	for _, a := range acts {
		data, _ := json.Marshal(m.command(p, a))
		out = append(out, game.Command{Data: data, Text: m.describe(p, a)})
	}
	return out
}

// Waiting returns the seat whose turn it is; none once the game is over.
func (m *Match) Waiting() []int {
	if m.over() {
		return nil
	}
	return []int{int(m.s.Turn)}
}

// Hash is the state hash.
func (m *Match) Hash() string { return m.e.Hash() }

// LogLen is the number of log records so far.
func (m *Match) LogLen() int { return len(m.e.Records()) }

// Outcome says whether and how the game ended: a ship damaged past the
// victory threshold, or the round limit, where the less damaged ship wins.
func (m *Match) Outcome() game.Outcome {
	s := m.s
	o := game.Outcome{Over: s.Phase == PhaseOver, Winners: []int{}, Rounds: s.Round}
	if !o.Over {
		return o
	}
	if s.Winner != engine.NoPlayer {
		o.Winners = append(o.Winners, int(s.Winner))
	}
	loser := 1 - s.Winner
	switch {
	case s.Winner != engine.NoPlayer && s.ShipDamage(loser) >= s.damageToLose():
		o.Reason = s.Players[s.Winner].Name + " wrecked " + s.Players[loser].Name + "'s ship"
	case s.Winner != engine.NoPlayer:
		o.Reason = "round limit: " + s.Players[s.Winner].Name + "'s ship is less damaged"
	default:
		o.Reason = "round limit: both ships are as damaged"
	}
	return o
}

// Standings rank the two players (game.Ranker): the winner first, else the
// less damaged ship; with each ship's damage against what wrecks it, its
// sections still healthy, and the drones on the board.
func (m *Match) Standings() game.Standings {
	s := m.s
	lose := s.damageToLose()
	st := game.Rank(len(s.Players), func(a, b int) int {
		if s.Phase == PhaseOver && s.Winner != engine.NoPlayer {
			switch engine.PlayerID(a) {
			case s.Winner:
				return -1
			case 1 - s.Winner:
				return 1
			}
		}
		return s.ShipDamage(engine.PlayerID(a)) - s.ShipDamage(engine.PlayerID(b))
	}, func(seat int) []string {
		p := engine.PlayerID(seat)
		intact := 0
		for i := range s.Players[p].Sections {
			if s.Players[p].Sections[i].status() == 0 {
				intact++
			}
		}
		return []string{fmt.Sprintf("%d of %d", s.ShipDamage(p), lose), strconv.Itoa(intact), strconv.Itoa(s.onBoard(p))}
	}, nil)
	st.Figures = []string{"ship damage", "healthy sections", "drones on the board"}
	return st
}
