package skirmish

import (
	"fmt"
	"strconv"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// View is what a seat (or a spectator) sees of a fight. A skirmish hides
// nothing: every seat sees the same map and creatures; only what the seat
// may do now (the squares it can reach, the reaction it is asked for) is
// its own.
type View struct {
	// Seat is the viewer's seat (-1 for a spectator) and Side the side it
	// plays ("" for a spectator).
	Seat int    `json:"seat"`
	Side string `json:"side,omitempty"`
	// Name is the encounter's.
	Name string  `json:"name"`
	Map  MapView `json:"map"`
	// Sides are the seats: each side's name and who plays it.
	Sides      []SideView      `json:"sides"`
	Combatants []CombatantView `json:"combatants"`
	Round      int             `json:"round"`
	// Turn is the combatant whose turn it is, with what it has left; nil
	// before the fight and once it is over.
	Turn *TurnView `json:"turn"`
	// Reachable are the squares the combatant whose turn it is can move
	// to, when the viewer plays it and the match waits for a command.
	Reachable []Reach `json:"reachable,omitempty"`
	// Reaction is the reaction the viewer is asked for, if any.
	Reaction *ReactionView `json:"reaction,omitempty"`
	// Waiting are the seats the match waits for.
	Waiting []int        `json:"waiting"`
	Outcome game.Outcome `json:"outcome"`
	Hash    string       `json:"hash"`
}

// SideView is a side and who plays it.
type SideView struct {
	Name   string `json:"name"`
	Player string `json:"player"`
}

// CombatantView is a combatant as everyone sees it: Key is its id, which
// commands use; Name what players call it ("Goblin 1"), CreatureName the
// kind of creature it is ("Goblin").
type CombatantView struct {
	Key          string `json:"key"`
	Name         string `json:"name"`
	CreatureName string `json:"creatureName"`
	// Side is the side's name, Seat its seat.
	Side  string `json:"side"`
	Seat  int    `json:"seat"`
	At    Cell   `json:"at"`
	Alive bool   `json:"alive"`
	HP    int    `json:"hp"`
	MaxHP int    `json:"maxHp"`
	// TempHP are temporary hit points, which damage takes first.
	TempHP     int             `json:"tempHp"`
	AC         int             `json:"ac"`
	Speed      int             `json:"speed"`
	Initiative int             `json:"initiative"`
	Conditions []ConditionView `json:"conditions"`
	// Reactions is the reactions it has left (an opportunity attack
	// needs one).
	Reactions int `json:"reactions"`
	// Turn is true for the combatant whose turn it is.
	Turn bool `json:"turn"`
}

// ConditionView is a condition on a combatant: ID is its name in files
// ("adaptive-armour"); Title what players call it ("Adaptive armour") and
// Description what it does, for a page to show on hover or tap.
type ConditionView struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Duration is permanent, rounds, until-long-rest or on-condition;
	// RoundsLeft the turns of its bearer it still lasts (for rounds).
	// DurationText says it in players' words ("2 more turns").
	Duration     string `json:"duration"`
	RoundsLeft   int    `json:"roundsLeft,omitempty"`
	DurationText string `json:"durationText"`
	// Save is the saving throw that may end it at the start of its
	// bearer's turns ("wis DC 12"); SaveText says it in players' words
	// ("a Wisdom save, DC 12, ends it").
	Save     string `json:"save,omitempty"`
	SaveText string `json:"saveText,omitempty"`
	// Level is a level (a battle trance at 2); Parent the condition that
	// owns this one.
	Level  int    `json:"level,omitempty"`
	Parent string `json:"parent,omitempty"`
}

// TurnView is the combatant whose turn it is and what it has left.
type TurnView struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	Economy
}

// ReactionView is a reaction a side is asked for.
type ReactionView struct {
	// Who may react; Mover is the creature leaving its reach (their
	// keys, and their names for players).
	Who       string `json:"who"`
	Mover     string `json:"mover"`
	WhoName   string `json:"whoName"`
	MoverName string `json:"moverName"`
	Prompt    string `json:"prompt"`
	// Options are the answers, in the order Legal lists them: take it,
	// let it go.
	Options []string `json:"options"`
}

var durationNames = map[status.DurationKind]string{status.Permanent: "permanent", status.Rounds: "rounds",
	status.UntilLongRest: "until-long-rest", status.OnCondition: "on-condition"}

// View is what the seat (or game.Spectator) sees now.
func (m *Match) View(seat int) any {
	g := m.State
	v := &View{Seat: seat, Name: m.def.Name, Map: m.def.mapView(), Round: g.Round, Waiting: m.Waiting(),
		Outcome: m.Outcome(), Hash: m.Hash(), Combatants: make([]CombatantView, 0, len(g.Fighters))}
	if v.Waiting == nil {
		v.Waiting = []int{}
	}
	if seat >= 0 && seat < len(m.def.Sides) {
		v.Side = m.def.Sides[seat]
	} else {
		v.Seat = game.Spectator
	}
	for i, s := range m.def.Sides {
		v.Sides = append(v.Sides, SideView{Name: s, Player: m.Engine.PlayerName(engine.PlayerID(i))})
	}
	cur := g.Current()
	if g.Over {
		cur = nil
	}
	for _, f := range g.Fighters {
		c := CombatantView{Key: f.Key, Name: f.Name, CreatureName: f.Creature.Name, Side: m.def.Sides[f.Side], Seat: int(f.Side), At: f.Pos,
			Alive: f.Alive, HP: f.HP, MaxHP: f.MaxHP.Score(), TempHP: f.TempHP, AC: f.AC.Score(), Speed: f.Speed.Score(),
			Initiative: f.Initiative, Reactions: f.Economy.Reactions, Turn: f == cur, Conditions: []ConditionView{}}
		for _, s := range g.book.Of(f.ID) {
			cv := ConditionView{ID: s.Def.Name, Title: s.Def.Title, Description: s.Def.Description,
				Duration: durationNames[s.Duration.Kind], DurationText: durationText(s), Level: s.Stacks}
			if cv.Title == "" {
				cv.Title = game.Readable(s.Def.Name)
			}
			if s.Duration.Kind == status.Rounds {
				cv.RoundsLeft = s.Remaining
			}
			if s.Save.DC > 0 {
				cv.Save = s.Save.Ability + " DC " + strconv.Itoa(s.Save.DC)
				cv.SaveText = fmt.Sprintf("a %s save, DC %d, at the start of its turn ends it", abilityWords[s.Save.Ability], s.Save.DC)
			}
			if p := g.book.Get(s.Parent); p != nil {
				cv.Parent = p.Def.Name
			}
			c.Conditions = append(c.Conditions, cv)
		}
		v.Combatants = append(v.Combatants, c)
	}
	reaction, asked := m.reaction()
	if cur != nil {
		v.Turn = &TurnView{Key: cur.Key, Name: cur.Name, Economy: cur.Economy}
		if !asked && int(cur.Side) == seat {
			v.Reachable = g.reachable(cur)
		}
	}
	if asked && int(reaction.Player) == seat {
		rv := &ReactionView{Prompt: reaction.Prompt, Options: reaction.Options}
		if r := m.reactor(); r != nil {
			rv.Who, rv.WhoName = r.Key, r.Name
		}
		if mover := g.Current(); mover != nil {
			rv.Mover, rv.MoverName = mover.Key, mover.Name
		}
		v.Reaction = rv
	}
	return v
}

// abilityWords name the abilities for players.
var abilityWords = map[string]string{"str": "Strength", "dex": "Dexterity", "con": "Constitution",
	"int": "Intelligence", "wis": "Wisdom", "cha": "Charisma"}

// durationText says how long a condition lasts, in players' words.
func durationText(s *status.Status) string {
	switch s.Duration.Kind {
	case status.Rounds:
		if s.Remaining == 1 {
			return "for 1 more turn"
		}
		return fmt.Sprintf("for %d more turns", s.Remaining)
	case status.UntilLongRest:
		return "until a long rest"
	case status.OnCondition:
		return "until something ends it"
	}
	return "for the whole fight"
}
