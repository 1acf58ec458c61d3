package lanes

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Match is a lanes match: the engine's match and the game's state.
type Match struct {
	def *Definition
	e   *engine.Match
	s   *State
	// undoable says whether the last command may be taken back.
	undoable bool
}

// actionKind is what a player does on their turn.
type actionKind uint8

// The actions.
const (
	actPass actionKind = iota
	actDeploy
	actMove
	actAttack
	actPlay
)

var actionNames = [...]string{"pass", "deploy", "move", "attack", "play"}

// action is a command with its names resolved: what the rules check and
// the effects run.
type action struct {
	kind actionKind
	// drone is the kind deployed (deploy).
	drone *DroneDef
	// id is the drone that moves or attacks (move, attack).
	id engine.EntityID
	// lane is where a drone is deployed (deploy), where it moves (move),
	// or the lane a card targets (play with LANE targeting).
	lane int
	// target is the drone or ship section attacked (attack), or the drone
	// a card targets (play with DRONE targeting).
	target engine.EntityID
	// card is the index in the hand of the card played (play).
	card int
	// to is where a card's moves go (play with SINGLE_MOVE, MULTI_MOVE).
	to int
	// drones are the drones a multi-move card moves, in order (play).
	drones []engine.EntityID
}

// Start begins a match between two players: the decks are shuffled, the
// first player is drawn, and round 1 begins. Setup.Dice is not used: the
// game has no dice (its random numbers are the shuffles, the first player
// and the drones a MARK_RANDOM_ENEMY picks, all drawn from the seed).
func (d *Definition) Start(setup game.Setup) (game.Match, error) {
	m, err := d.NewMatch(setup)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// NewMatch is Start with the match's own type.
func (d *Definition) NewMatch(setup game.Setup) (*Match, error) {
	if err := d.Info().CheckPlayers(len(setup.Players)); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(setup.Players); err != nil {
		return nil, err
	}
	if setup.MaxRounds < 0 {
		return nil, fmt.Errorf("a round limit is 0 (the game's own) or more, not %d", setup.MaxRounds)
	}
	m := d.newMatch(setup.Seed, [2]string{setup.Players[0], setup.Players[1]})
	if setup.MaxRounds > 0 {
		m.s.MaxRounds = setup.MaxRounds
	}
	for p := range m.s.Players {
		pl := &m.s.Players[p]
		pl.Deck = slices.Clone(d.decks[p])
		m.e.RNG.Stream("shuffle").Shuffle(len(pl.Deck), func(i, j int) { pl.Deck[i], pl.Deck[j] = pl.Deck[j], pl.Deck[i] })
	}
	first := engine.PlayerID(m.e.RNG.Stream("first").IntN(2))
	return m, m.e.Run(first, d.pack.fx.roundStart.Call(noArgs{}))
}

// newMatch returns a match with empty boards and full ship sections.
func (d *Definition) newMatch(seed uint64, names [2]string) *Match {
	s := &State{def: d, MaxRounds: d.Rules.MaxRounds, First: 0, Turn: 0, FirstPasser: engine.NoPlayer, Winner: engine.NoPlayer,
		Drones: make([]Drone, 0, 32), scratch: make([]engine.EntityID, 0, 16)}
	for p := range s.Players {
		pl := &s.Players[p]
		pl.Name = names[p]
		for i, sd := range d.Rules.Sections {
			pl.Sections[i] = Section{Def: sd, Hull: sd.Hull, Shields: sd.Shields}
		}
	}
	e := engine.NewMatch(d.rules, s, seed, names[:])
	return &Match{def: d, e: e, s: s}
}

// Definition returns the game the match plays.
func (m *Match) Definition() *Definition { return m.def }

// State returns the match's state, for tests and tools: read it, and
// change it only as a scenario's setup does (then call Engine().Touch()).
func (m *Match) State() *State { return m.s }

// Engine returns the engine's match, for tests and tools.
func (m *Match) Engine() *engine.Match { return m.e }

// over reports whether the game has ended.
func (m *Match) over() bool { return m.s.Phase == PhaseOver }

// do plays a player's action: checks it, runs it (a multi-move as one
// chain per move), then closes the turn and, when both players have passed
// the action phase, starts the next round. A rejected action changes
// nothing.
func (m *Match) do(p engine.PlayerID, a action) error {
	if r := m.check(p, a); r != nil {
		return r.reject()
	}
	before := m.hidden()
	err := m.act(p, a)
	// A card played from a hand shows it to the other player, and a card
	// drawn shows it to its player: neither is taken back, nor anything
	// that drew a random number (a reshuffle, a drone marked at random)
	// or ended the game.
	m.undoable = err == nil && a.kind != actPlay && m.hidden() == before && !m.over()
	return err
}

// Undoable reports whether the last command may be taken back
// (game.Undoer): a deployment, a move, an attack or a pass may, unless
// what it set off (abilities, the end of the round) drew a card or a
// random number or ended the game; a card played never may.
func (m *Match) Undoable() bool { return m.undoable }

// secrets is what a command must leave alone to be taken back: the
// random numbers drawn, and how many cards each deck and hand holds
// (cards move only from deck to hand, when drawn, and from hand to
// discard pile, when played).
type secrets struct {
	draws       uint64
	decks, hand [2]int
}

func (m *Match) hidden() secrets {
	x := secrets{draws: m.e.RNG.Draws()}
	for p := range m.s.Players {
		x.decks[p], x.hand[p] = len(m.s.Players[p].Deck), len(m.s.Players[p].Hand)
	}
	return x
}

// act runs a player's action once it is checked.
func (m *Match) act(p engine.PlayerID, a action) error {
	s, fx := m.s, m.def.pack.fx
	switch a.kind {
	case actDeploy:
		if err := m.e.Run(p, fx.deploy.Call(deployArgs{Kind: a.drone.index, Lane: a.lane})); err != nil {
			return err
		}
	case actMove:
		if err := m.e.Run(p, fx.move.Call(moveArgs{Drone: a.id, To: a.lane})); err != nil {
			return err
		}
	case actAttack:
		if err := m.e.Run(p, fx.attack.Call(attackArgs{Attacker: a.id, Target: a.target})); err != nil {
			return err
		}
	case actPlay:
		card := m.def.Cards[s.Players[p].Hand[a.card]]
		args := cardArgs{Hand: a.card, Lane: m.cardLane(card, a), Target: a.target, To: a.to, Drones: a.drones}
		if err := m.e.Run(p, fx.startCard.Call(args)); err != nil {
			return err
		}
		if card.moves > 0 {
			for range len(a.drones) - 1 {
				if err := m.e.Run(p, card.calls[0]); err != nil {
					return err
				}
			}
			if err := m.e.Run(p, fx.finishCard.Call(noArgs{})); err != nil {
				return err
			}
		}
	}
	if err := m.e.Run(p, fx.endTurn.Call(endTurnArgs{Pass: a.kind == actPass})); err != nil {
		return err
	}
	if s.NeedRound {
		first := s.FirstPasser
		if first == engine.NoPlayer {
			first = s.First
		}
		return m.e.Run(first, fx.roundStart.Call(noArgs{}))
	}
	return nil
}

// cardLane is the lane a card is played into: its target lane, the lane
// of its target drone, or the lane its drones move from.
func (m *Match) cardLane(card *CardDef, a action) int {
	switch card.Targeting.Type {
	case "LANE":
		return a.lane
	case "DRONE":
		if d := m.s.live(a.target); d != nil {
			return d.Lane
		}
	case "DRONES":
		if len(a.drones) > 0 {
			if d := m.s.live(a.drones[0]); d != nil {
				return d.Lane
			}
		}
	}
	return 0
}

// check reports why a player may not take an action now, or nil if they
// may.
func (m *Match) check(p engine.PlayerID, a action) *refusal {
	s := m.s
	switch {
	case p != 0 && p != 1:
		return refuse("no player %d", p)
	case s.Phase == PhaseOver:
		return refuse("the game is over")
	case p != s.Turn:
		return refuse("it is %s's turn", s.Players[s.Turn].Name)
	}
	pl := &s.Players[p]
	switch a.kind {
	case actPass:
		return nil
	case actDeploy:
		if s.Phase != PhaseDeployment {
			return refuse("drones are deployed in the deployment phase")
		}
		k := a.drone
		switch {
		case k == nil || !slices.Contains(m.def.squads[p], k):
			return refuse("that drone is not in the squad")
		case a.lane < 1 || a.lane > Lanes:
			return refuse("there is no lane %d", a.lane)
		case k.Limit > 0 && s.countKind(p, k, 0) >= k.Limit:
			return refuse("%s allows at most %d on the board", k.Name, k.Limit)
		case k.MaxPerLane > 0 && s.countKind(p, k, a.lane) >= k.MaxPerLane:
			return refuse("%s allows at most %d per lane", k.Name, k.MaxPerLane)
		case s.onBoard(p) >= s.Stats(p).CPULimit:
			return refuse("the CPU limit (%d drones) is reached", s.Stats(p).CPULimit)
		case k.Class > pl.Budget+pl.Energy:
			return refuse("%s costs %d; the budget has %d and energy %d", k.Name, k.Class, pl.Budget, pl.Energy)
		}
		return nil
	}
	if s.Phase != PhaseAction {
		return refuse("it is the deployment phase: deploy a drone or pass")
	}
	switch a.kind {
	case actMove:
		d, err := m.ownReady(p, a.id)
		if err != nil {
			return err
		}
		if a.lane != d.Lane-1 && a.lane != d.Lane+1 || a.lane < 1 || a.lane > Lanes {
			return refuse("%s can move only to an adjacent lane", d.Label)
		}
		return nil
	case actAttack:
		d, err := m.ownReady(p, a.id)
		if err != nil {
			return err
		}
		if d.Attack() <= 0 {
			return refuse("%s has no attack", d.Label)
		}
		if q, lane, ok := s.section(a.target); ok {
			if q == p || lane != d.Lane {
				return refuse("%s can attack only the enemy section in its lane", d.Label)
			}
			if s.Players[q].Sections[lane-1].Hull == 0 {
				return refuse("%s is destroyed: there is nothing left to attack", s.EntityName(a.target))
			}
			for _, id := range s.Players[q].Lanes[lane-1] {
				if !s.Drone(id).Kind.Passive {
					return refuse("%s guards the section: attack it first", s.Drone(id).Label)
				}
			}
			return nil
		}
		t := s.live(a.target)
		if t == nil || t.Owner == p || t.Lane != d.Lane {
			return refuse("%s can attack only an enemy drone in its lane", d.Label)
		}
		return nil
	case actPlay:
		return m.checkCard(p, a)
	}
	return refuse("unknown action")
}

// ownReady returns a player's drone that may act.
func (m *Match) ownReady(p engine.PlayerID, id engine.EntityID) (*Drone, *refusal) {
	d := m.s.live(id)
	switch {
	case d == nil || d.Owner != p:
		return nil, refuse("that is not one of your drones")
	case d.Exhausted:
		return nil, refuse("%s is exhausted", d.Label)
	case d.Kind.Inert:
		return nil, refuse("%s is inert: it cannot move or attack", d.Label)
	}
	return d, nil
}

func (m *Match) checkCard(p engine.PlayerID, a action) *refusal {
	s := m.s
	pl := &s.Players[p]
	if a.card < 0 || a.card >= len(pl.Hand) {
		return refuse("there is no card %d in the hand", a.card)
	}
	card := m.def.Cards[pl.Hand[a.card]]
	if card.Cost > pl.Energy {
		return refuse("%s costs %d energy; you have %d", card.Name, card.Cost, pl.Energy)
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
	adjacent := func(from int) bool { return a.to >= 1 && a.to <= Lanes && (a.to == from-1 || a.to == from+1) }
	switch card.Targeting.Type {
	case "LANE":
		if a.lane < 1 || a.lane > Lanes {
			return refuse("%s needs a lane (1-%d)", card.Name, Lanes)
		}
		for _, c := range card.calls {
			if t, ok := c.Args.(tokenArgs); ok {
				owner := p
				if t.TargetOwner == "OPPONENT" {
					owner = 1 - p
				}
				if k := m.def.Drone(t.TokenName); k.MaxPerLane > 0 && s.countKind(owner, k, a.lane) >= k.MaxPerLane {
					return refuse("lane %d already has a %s", a.lane, k.Name)
				}
			}
		}
	case "DRONE":
		d := s.live(a.target)
		if d == nil || !affine(d) {
			return refuse("%s needs %s drone as its target", card.Name, anAffinity(card.Targeting.Affinity))
		}
		for _, c := range card.calls {
			if _, ok := c.Args.(singleMoveArgs); ok {
				if d.Kind.Inert {
					return refuse("%s is inert: it cannot be moved", d.Label)
				}
				if !adjacent(d.Lane) {
					return refuse("%s moves its target to an adjacent lane", card.Name)
				}
			}
		}
	case "DRONES":
		if len(a.drones) == 0 || len(a.drones) > card.moves {
			return refuse("%s moves 1 to %d drones", card.Name, card.moves)
		}
		lane := 0
		for i, id := range a.drones {
			d := s.live(id)
			switch {
			case d == nil || !affine(d):
				return refuse("%s moves %s drones", card.Name, affinityText(card.Targeting.Affinity))
			case d.Kind.Inert:
				return refuse("%s is inert: it cannot be moved", d.Label)
			case slices.Contains(a.drones[:i], id):
				return refuse("%s is selected twice", d.Label)
			case lane != 0 && d.Lane != lane:
				return refuse("%s moves drones from one lane", card.Name)
			}
			lane = d.Lane
		}
		if !adjacent(lane) {
			return refuse("%s moves drones to an adjacent lane", card.Name)
		}
	}
	return nil
}

// refusal is why the rules refuse an action, put into words only when
// asked: legal tries every candidate action, and nobody reads why most of
// them are refused.
type refusal struct {
	format string
	args   []any
}

func refuse(format string, args ...any) *refusal { return &refusal{format, args} }

// reject is the refusal as the match's error.
func (r *refusal) reject() error {
	return &engine.RejectError{Reason: fmt.Sprintf(r.format, r.args...)}
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

// anAffinity is affinityText with its article: "an enemy".
func anAffinity(a string) string {
	switch a {
	case "FRIENDLY":
		return "a friendly"
	case "ENEMY":
		return "an enemy"
	}
	return "any"
}

// legal returns the actions a player may take now (none when it is not
// their turn): every deployment, move, attack and card with its targets,
// and passing. A multi-move card is offered with the first drones of each
// lane, up to its count.
func (m *Match) legal(p engine.PlayerID) []action {
	s := m.s
	if s.Phase == PhaseOver || p != s.Turn {
		return nil
	}
	var out []action
	try := func(a action) {
		if m.check(p, a) == nil {
			out = append(out, a)
		}
	}
	if s.Phase == PhaseDeployment {
		for _, k := range m.def.squads[p] {
			for lane := 1; lane <= Lanes; lane++ {
				try(action{kind: actDeploy, drone: k, lane: lane})
			}
		}
		return append(out, action{kind: actPass})
	}
	pl := &s.Players[p]
	for lane := range pl.Lanes {
		for _, id := range pl.Lanes[lane] {
			for _, to := range []int{lane, lane + 2} {
				try(action{kind: actMove, id: id, lane: to})
			}
			try(action{kind: actAttack, id: id, target: SectionID(1-p, lane+1)})
			for _, t := range s.Players[1-p].Lanes[lane] {
				try(action{kind: actAttack, id: id, target: t})
			}
		}
	}
	var seen []int
	for i, ci := range pl.Hand {
		if slices.Contains(seen, ci) {
			continue // the same card twice offers the same choices
		}
		seen = append(seen, ci)
		card := m.def.Cards[ci]
		switch card.Targeting.Type {
		case "NONE":
			try(action{kind: actPlay, card: i})
		case "LANE":
			for lane := 1; lane <= Lanes; lane++ {
				try(action{kind: actPlay, card: i, lane: lane})
			}
		case "DRONE":
			for q := range s.Players {
				for _, ids := range s.Players[q].Lanes {
					for _, id := range ids {
						if !hasMove(card) {
							try(action{kind: actPlay, card: i, target: id})
							continue
						}
						d := s.Drone(id)
						for _, to := range []int{d.Lane - 1, d.Lane + 1} {
							try(action{kind: actPlay, card: i, target: id, to: to})
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
					try(action{kind: actPlay, card: i, drones: pick, to: to})
				}
			}
		}
	}
	return append(out, action{kind: actPass})
}

func hasMove(card *CardDef) bool {
	for _, c := range card.calls {
		if _, ok := c.Args.(singleMoveArgs); ok {
			return true
		}
	}
	return false
}

// describe says what an action does, in the players' words, for menus.
func (m *Match) describe(p engine.PlayerID, a action) string {
	s := m.s
	name := func(id engine.EntityID) string { return s.EntityName(id) }
	switch a.kind {
	case actDeploy:
		return fmt.Sprintf("Deploy %s to lane %d (cost %d)", a.drone.Name, a.lane, a.drone.Class)
	case actMove:
		return fmt.Sprintf("Move %s to lane %d", name(a.id), a.lane)
	case actAttack:
		return fmt.Sprintf("Attack %s with %s (%d damage)", name(a.target), name(a.id), s.Drone(a.id).Attack())
	case actPlay:
		card := m.def.Cards[s.Players[p].Hand[a.card]]
		txt := fmt.Sprintf("Play %s (%d energy)", card.Name, card.Cost)
		switch card.Targeting.Type {
		case "LANE":
			txt += fmt.Sprintf(" into lane %d", a.lane)
		case "DRONE":
			txt += " on " + name(a.target)
		case "DRONES":
			for i, id := range a.drones {
				if i == 0 {
					txt += " moving "
				} else {
					txt += ", "
				}
				txt += name(id)
			}
		}
		if a.to > 0 {
			txt += fmt.Sprintf(" to lane %d", a.to)
		}
		return txt
	}
	return "Pass"
}
