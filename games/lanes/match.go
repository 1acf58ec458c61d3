package lanes

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
)

// Match is a lanes match: the engine's match and the game's state.
type Match struct {
	E   *engine.Match
	S   *State
	Def *Def
}

// ActionKind is what a player does on their turn.
type ActionKind uint8

// The actions.
const (
	Pass ActionKind = iota
	Deploy
	Move
	Attack
	Play
)

var actionNames = [...]string{"pass", "deploy", "move", "attack", "play"}

// String returns the action's name.
func (k ActionKind) String() string { return actionNames[k] }

// Action is one player's command.
type Action struct {
	Kind ActionKind
	// Drone is the kind deployed (Deploy).
	Drone *DroneDef
	// ID is the drone that moves or attacks (Move, Attack).
	ID engine.EntityID
	// Lane is where a drone is deployed (Deploy), where it moves (Move),
	// or the lane a card targets (Play with LANE targeting).
	Lane int
	// Target is the drone or ship section attacked (Attack), or the drone
	// a card targets (Play with DRONE targeting).
	Target engine.EntityID
	// Card is the index in the hand of the card played (Play).
	Card int
	// To is where a card's moves go (Play with SINGLE_MOVE, MULTI_MOVE).
	To int
	// Drones are the drones a multi-move card moves, in order (Play).
	Drones []engine.EntityID
}

// NewMatch starts a match of a game between two players: the decks are
// shuffled, the first player is drawn, and round 1 begins.
func NewMatch(def *Def, seed uint64, names [2]string) (*Match, error) {
	m := newMatch(def, seed, names)
	for p := range m.S.Players {
		pl := &m.S.Players[p]
		pl.Deck = slices.Clone(def.deck)
		m.E.RNG.Stream("shuffle").Shuffle(len(pl.Deck), func(i, j int) { pl.Deck[i], pl.Deck[j] = pl.Deck[j], pl.Deck[i] })
	}
	first := engine.PlayerID(m.E.RNG.Stream("first").IntN(2))
	return m, m.E.Run(first, call(idRoundStart, noArgs{}))
}

// newMatch returns a match with empty boards and full ship sections.
func newMatch(def *Def, seed uint64, names [2]string) *Match {
	s := &State{Def: def, First: 0, Turn: 0, FirstPasser: engine.NoPlayer, Winner: engine.NoPlayer,
		Drones: make([]Drone, 0, 32), scratch: make([]engine.EntityID, 0, 16)}
	for p := range s.Players {
		pl := &s.Players[p]
		pl.Name = names[p]
		for i, sd := range def.Rules.Sections {
			pl.Sections[i] = Section{Def: sd, Hull: sd.Hull, Shields: sd.Shields}
		}
	}
	e := engine.NewMatch(def.rules, s, seed, names[:])
	return &Match{E: e, S: s, Def: def}
}

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.S.Phase == PhaseOver }

// Do plays a player's action: checks it, runs it (a multi-move as one
// chain per move), then closes the turn and, when both players have passed
// the action phase, starts the next round. A rejected action changes
// nothing.
func (m *Match) Do(p engine.PlayerID, a Action) error {
	if err := m.Check(p, a); err != nil {
		return err
	}
	s := m.S
	switch a.Kind {
	case Deploy:
		if err := m.E.Run(p, call(idDeploy, deployArgs{Kind: a.Drone.index, Lane: a.Lane})); err != nil {
			return err
		}
	case Move:
		if err := m.E.Run(p, call(idMove, moveArgs{Drone: a.ID, To: a.Lane})); err != nil {
			return err
		}
	case Attack:
		if err := m.E.Run(p, call(idAttack, attackArgs{Attacker: a.ID, Target: a.Target})); err != nil {
			return err
		}
	case Play:
		card := m.Def.Cards[s.Players[p].Hand[a.Card]]
		args := cardArgs{Hand: a.Card, Lane: m.cardLane(card, a), Target: a.Target, To: a.To, Drones: a.Drones}
		if err := m.E.Run(p, call(idStartCard, args)); err != nil {
			return err
		}
		if card.moves > 0 {
			for range len(a.Drones) - 1 {
				if err := m.E.Run(p, card.calls[0]); err != nil {
					return err
				}
			}
			if err := m.E.Run(p, call(idFinishCard, noArgs{})); err != nil {
				return err
			}
		}
	}
	if err := m.E.Run(p, call(idEndTurn, endTurnArgs{Pass: a.Kind == Pass})); err != nil {
		return err
	}
	if s.NeedRound {
		first := s.FirstPasser
		if first == engine.NoPlayer {
			first = s.First
		}
		return m.E.Run(first, call(idRoundStart, noArgs{}))
	}
	return nil
}

// cardLane is the lane a card is played into: its target lane, the lane
// of its target drone, or the lane its drones move from (PRD §7.3).
func (m *Match) cardLane(card *CardDef, a Action) int {
	switch card.Targeting.Type {
	case "LANE":
		return a.Lane
	case "DRONE":
		if d := m.S.live(a.Target); d != nil {
			return d.Lane
		}
	case "DRONES":
		if len(a.Drones) > 0 {
			if d := m.S.live(a.Drones[0]); d != nil {
				return d.Lane
			}
		}
	}
	return 0
}

// Check reports whether a player may take an action now; the error is an
// engine.RejectError saying why not.
func (m *Match) Check(p engine.PlayerID, a Action) error {
	s := m.S
	switch {
	case p != 0 && p != 1:
		return engine.Rejectf("no player %d", p)
	case s.Phase == PhaseOver:
		return engine.Rejectf("the game is over")
	case p != s.Turn:
		return engine.Rejectf("it is %s's turn", s.Players[s.Turn].Name)
	}
	pl := &s.Players[p]
	switch a.Kind {
	case Pass:
		return nil
	case Deploy:
		if s.Phase != PhaseDeployment {
			return engine.Rejectf("drones are deployed in the deployment phase")
		}
		k := a.Drone
		switch {
		case k == nil || !slices.Contains(m.Def.squad, k):
			return engine.Rejectf("that drone is not in the squad")
		case a.Lane < 1 || a.Lane > Lanes:
			return engine.Rejectf("there is no lane %d", a.Lane)
		case k.Limit > 0 && s.countKind(p, k, 0) >= k.Limit:
			return engine.Rejectf("%s allows at most %d on the board", k.Name, k.Limit)
		case k.MaxPerLane > 0 && s.countKind(p, k, a.Lane) >= k.MaxPerLane:
			return engine.Rejectf("%s allows at most %d per lane", k.Name, k.MaxPerLane)
		case s.onBoard(p) >= s.Stats(p).CPULimit:
			return engine.Rejectf("the CPU limit (%d drones) is reached", s.Stats(p).CPULimit)
		case k.Class > pl.Budget+pl.Energy:
			return engine.Rejectf("%s costs %d; the budget has %d and energy %d", k.Name, k.Class, pl.Budget, pl.Energy)
		}
		return nil
	}
	if s.Phase != PhaseAction {
		return engine.Rejectf("it is the deployment phase: deploy a drone or pass")
	}
	switch a.Kind {
	case Move:
		d, err := m.ownReady(p, a.ID)
		if err != nil {
			return err
		}
		if a.Lane != d.Lane-1 && a.Lane != d.Lane+1 || a.Lane < 1 || a.Lane > Lanes {
			return engine.Rejectf("%s can move only to an adjacent lane", d.Label)
		}
		return nil
	case Attack:
		d, err := m.ownReady(p, a.ID)
		if err != nil {
			return err
		}
		if d.Attack() <= 0 {
			return engine.Rejectf("%s has no attack", d.Label)
		}
		if q, lane, ok := s.section(a.Target); ok {
			if q == p || lane != d.Lane {
				return engine.Rejectf("%s can attack only the enemy section in its lane", d.Label)
			}
			if s.Players[q].Sections[lane-1].Hull == 0 {
				return engine.Rejectf("%s is destroyed: there is nothing left to attack", s.EntityName(a.Target))
			}
			for _, id := range s.Players[q].Lanes[lane-1] {
				if !s.Drone(id).Kind.Passive {
					return engine.Rejectf("%s guards the section: attack it first", s.Drone(id).Label)
				}
			}
			return nil
		}
		t := s.live(a.Target)
		if t == nil || t.Owner == p || t.Lane != d.Lane {
			return engine.Rejectf("%s can attack only an enemy drone in its lane", d.Label)
		}
		return nil
	case Play:
		return m.checkCard(p, a)
	}
	return engine.Rejectf("unknown action")
}

// ownReady returns a player's drone that may act.
func (m *Match) ownReady(p engine.PlayerID, id engine.EntityID) (*Drone, error) {
	d := m.S.live(id)
	switch {
	case d == nil || d.Owner != p:
		return nil, engine.Rejectf("that is not one of your drones")
	case d.Exhausted:
		return nil, engine.Rejectf("%s is exhausted", d.Label)
	case d.Kind.Inert:
		return nil, engine.Rejectf("%s is inert: it cannot move or attack", d.Label)
	}
	return d, nil
}

func (m *Match) checkCard(p engine.PlayerID, a Action) error {
	s := m.S
	pl := &s.Players[p]
	if a.Card < 0 || a.Card >= len(pl.Hand) {
		return engine.Rejectf("there is no card %d in the hand", a.Card)
	}
	card := m.Def.Cards[pl.Hand[a.Card]]
	if card.Cost > pl.Energy {
		return engine.Rejectf("%s costs %d energy; you have %d", card.Name, card.Cost, pl.Energy)
	}
	affine := func(d *Drone) bool {
		switch card.Targeting.Affinity {
		case "FRIENDLY":
			return d.Owner == p
		case "ENEMY":
			return d.Owner != p
		}
		return true
	}
	adjacent := func(from int) bool { return a.To >= 1 && a.To <= Lanes && (a.To == from-1 || a.To == from+1) }
	switch card.Targeting.Type {
	case "LANE":
		if a.Lane < 1 || a.Lane > Lanes {
			return engine.Rejectf("%s needs a lane (1-%d)", card.Name, Lanes)
		}
		for _, c := range card.calls {
			if t, ok := c.Args.(tokenArgs); ok {
				owner := p
				if t.TargetOwner == "OPPONENT" {
					owner = 1 - p
				}
				if k := m.Def.Drone(t.TokenName); k.MaxPerLane > 0 && s.countKind(owner, k, a.Lane) >= k.MaxPerLane {
					return engine.Rejectf("lane %d already has a %s", a.Lane, k.Name)
				}
			}
		}
	case "DRONE":
		d := s.live(a.Target)
		if d == nil || !affine(d) {
			return engine.Rejectf("%s needs a %s drone as its target", card.Name, affinityText(card.Targeting.Affinity))
		}
		for _, c := range card.calls {
			if _, ok := c.Args.(singleMoveArgs); ok {
				if d.Kind.Inert {
					return engine.Rejectf("%s is inert: it cannot be moved", d.Label)
				}
				if !adjacent(d.Lane) {
					return engine.Rejectf("%s moves its target to an adjacent lane", card.Name)
				}
			}
		}
	case "DRONES":
		if len(a.Drones) == 0 || len(a.Drones) > card.moves {
			return engine.Rejectf("%s moves 1 to %d drones", card.Name, card.moves)
		}
		lane := 0
		for i, id := range a.Drones {
			d := s.live(id)
			switch {
			case d == nil || !affine(d):
				return engine.Rejectf("%s moves %s drones", card.Name, affinityText(card.Targeting.Affinity))
			case d.Kind.Inert:
				return engine.Rejectf("%s is inert: it cannot be moved", d.Label)
			case slices.Contains(a.Drones[:i], id):
				return engine.Rejectf("%s is selected twice", d.Label)
			case lane != 0 && d.Lane != lane:
				return engine.Rejectf("%s moves drones from one lane", card.Name)
			}
			lane = d.Lane
		}
		if !adjacent(lane) {
			return engine.Rejectf("%s moves drones to an adjacent lane", card.Name)
		}
	}
	return nil
}

func affinityText(a string) string {
	switch a {
	case "FRIENDLY":
		return "friendly"
	case "ENEMY":
		return "enemy"
	}
	return "any"
}

// Legal returns the actions a player may take now (none when it is not
// their turn): every deployment, move, attack and card with its targets,
// and passing. A multi-move card is offered with the first drones of each
// lane, up to its count.
func (m *Match) Legal(p engine.PlayerID) []Action {
	s := m.S
	if s.Phase == PhaseOver || p != s.Turn {
		return nil
	}
	var out []Action
	try := func(a Action) {
		if m.Check(p, a) == nil {
			out = append(out, a)
		}
	}
	if s.Phase == PhaseDeployment {
		for _, k := range m.Def.squad {
			for lane := 1; lane <= Lanes; lane++ {
				try(Action{Kind: Deploy, Drone: k, Lane: lane})
			}
		}
		return append(out, Action{Kind: Pass})
	}
	pl := &s.Players[p]
	for lane := range pl.Lanes {
		for _, id := range pl.Lanes[lane] {
			for _, to := range []int{lane, lane + 2} {
				try(Action{Kind: Move, ID: id, Lane: to})
			}
			try(Action{Kind: Attack, ID: id, Target: SectionID(1-p, lane+1)})
			for _, t := range s.Players[1-p].Lanes[lane] {
				try(Action{Kind: Attack, ID: id, Target: t})
			}
		}
	}
	var seen []int
	for i, ci := range pl.Hand {
		if slices.Contains(seen, ci) {
			continue // the same card twice offers the same choices
		}
		seen = append(seen, ci)
		card := m.Def.Cards[ci]
		switch card.Targeting.Type {
		case "NONE":
			try(Action{Kind: Play, Card: i})
		case "LANE":
			for lane := 1; lane <= Lanes; lane++ {
				try(Action{Kind: Play, Card: i, Lane: lane})
			}
		case "DRONE":
			for q := range s.Players {
				for _, ids := range s.Players[q].Lanes {
					for _, id := range ids {
						if !hasMove(card) {
							try(Action{Kind: Play, Card: i, Target: id})
							continue
						}
						d := s.Drone(id)
						for _, to := range []int{d.Lane - 1, d.Lane + 1} {
							try(Action{Kind: Play, Card: i, Target: id, To: to})
						}
					}
				}
			}
		case "DRONES":
			for lane, ids := range pl.Lanes {
				var pick []engine.EntityID
				for _, id := range ids {
					if !s.Drone(id).Kind.Inert && len(pick) < card.moves {
						pick = append(pick, id)
					}
				}
				if len(pick) == 0 {
					continue
				}
				for _, to := range []int{lane, lane + 2} {
					try(Action{Kind: Play, Card: i, Drones: pick, To: to})
				}
			}
		}
	}
	return append(out, Action{Kind: Pass})
}

func hasMove(card *CardDef) bool {
	for _, c := range card.calls {
		if _, ok := c.Args.(singleMoveArgs); ok {
			return true
		}
	}
	return false
}

// Describe says what an action does, for menus and logs.
func (m *Match) Describe(p engine.PlayerID, a Action) string {
	s := m.S
	name := func(id engine.EntityID) string { return s.EntityName(id) }
	switch a.Kind {
	case Deploy:
		return fmt.Sprintf("deploy %s to lane %d (cost %d)", a.Drone.Name, a.Lane, a.Drone.Class)
	case Move:
		return fmt.Sprintf("move %s to lane %d", name(a.ID), a.Lane)
	case Attack:
		return fmt.Sprintf("attack %s with %s (%d damage)", name(a.Target), name(a.ID), s.Drone(a.ID).Attack())
	case Play:
		card := m.Def.Cards[s.Players[p].Hand[a.Card]]
		txt := fmt.Sprintf("play %s (%d energy)", card.Name, card.Cost)
		switch card.Targeting.Type {
		case "LANE":
			txt += fmt.Sprintf(" into lane %d", a.Lane)
		case "DRONE":
			txt += " on " + name(a.Target)
		case "DRONES":
			for i, id := range a.Drones {
				if i == 0 {
					txt += " moving "
				} else {
					txt += ", "
				}
				txt += name(id)
			}
		}
		if a.To > 0 {
			txt += fmt.Sprintf(" to lane %d", a.To)
		}
		return txt
	}
	return "pass"
}
