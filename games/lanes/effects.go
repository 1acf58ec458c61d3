package lanes

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
)

// The arguments of the effects game data may use. Their JSON fields are
// those of the plan's effect objects, less "type".
type (
	// valueArgs: DRAW, GAIN_ENERGY, INCREASE_THREAT.
	valueArgs struct {
		Value int `json:"value"`
	}
	// valueScopeArgs: DAMAGE, HEAL_HULL.
	valueScopeArgs struct {
		Value int    `json:"value"`
		Scope string `json:"scope"`
	}
	// scopeArgs: EXHAUST_DRONE, DESTROY.
	scopeArgs struct {
		Scope string `json:"scope"`
	}
	// modifyArgs: MODIFY_STAT.
	modifyArgs struct {
		Scope string `json:"scope"`
		Mod   struct {
			Stat  string `json:"stat"`
			Value int    `json:"value"`
			Type  string `json:"type"`
		} `json:"mod"`
	}
	// markArgs: MARK_RANDOM_ENEMY.
	markArgs struct {
		Scope  string `json:"scope"`
		Filter string `json:"filter"`
	}
	// tokenArgs: CREATE_TOKENS.
	tokenArgs struct {
		TokenName       string `json:"tokenName"`
		TargetOwner     string `json:"targetOwner"`
		IgnoresCPULimit bool   `json:"ignoresCPULimit"`
	}
	// noArgs: GO_AGAIN.
	noArgs struct{}
	// singleMoveArgs: SINGLE_MOVE.
	singleMoveArgs struct {
		Exhaust bool `json:"exhaust"`
	}
	// multiMoveArgs: MULTI_MOVE.
	multiMoveArgs struct {
		Count   int  `json:"count"`
		Exhaust bool `json:"exhaust"`
	}
)

// The arguments of the effects the game itself uses: commands and the
// wrappers of abilities.
type (
	repeatArgs struct {
		Divisor int
		Calls   []engine.EffectCall
	}
	conditionalArgs struct {
		Condition string
		Call      engine.EffectCall
	}
	deployArgs struct {
		Kind int
		Lane int
	}
	moveArgs struct {
		Drone engine.EntityID
		To    int
	}
	attackArgs struct {
		Attacker, Target engine.EntityID
	}
	cardArgs struct {
		Hand   int
		Lane   int
		Target engine.EntityID
		To     int
		Drones []engine.EntityID
	}
	endTurnArgs struct {
		Pass bool
	}
)

// dataEffects are the effects game data may name, and where: abilities
// (a), cards (c) or both.
var dataEffects = map[string]string{
	"DAMAGE": "ac", "HEAL_HULL": "ac", "MODIFY_STAT": "ac", "EXHAUST_DRONE": "ac", "DRAW": "ac",
	"GAIN_ENERGY": "ac", "DESTROY": "ac", "MARK_RANDOM_ENEMY": "a", "INCREASE_THREAT": "ac",
	"CREATE_TOKENS": "ac", "GO_AGAIN": "ac", "SINGLE_MOVE": "c", "MULTI_MOVE": "c",
}

// effectSet is the one registry of the game's effects, those of game data
// and those of the commands, so that every change of state goes through
// it, with the typed handles of the effects the game calls itself. Each
// pack builds its own; every game it loads shares it.
type effectSet struct {
	reg *engine.Effects
	// names lists the effects game data may name, sorted, for suggestions.
	names []string

	repeat      engine.Effect[repeatArgs]
	conditional engine.Effect[conditionalArgs]
	deploy      engine.Effect[deployArgs]
	move        engine.Effect[moveArgs]
	attack      engine.Effect[attackArgs]
	resolve     engine.Effect[attackArgs]
	startCard   engine.Effect[cardArgs]
	finishCard  engine.Effect[noArgs]
	endTurn     engine.Effect[endTurnArgs]
	roundStart  engine.Effect[noArgs]
	destroy     engine.Effect[scopeArgs]
	goAgain     engine.Effect[noArgs]
}

// newEffectSet registers every effect of the game in a new registry.
func newEffectSet() *effectSet {
	reg := engine.NewEffects()
	fx := &effectSet{reg: reg}
	fx.repeat = engine.Register(reg, "REPEAT", repeat)
	fx.conditional = engine.Register(reg, "CONDITIONAL", conditional)
	fx.deploy = engine.Register(reg, "DEPLOY", deploy)
	fx.move = engine.Register(reg, "MOVE", move)
	fx.attack = engine.Register(reg, "ATTACK", fx.attackEffect)
	fx.resolve = engine.Register(reg, "RESOLVE_ATTACK", resolveAttack)
	fx.startCard = engine.Register(reg, "PLAY_CARD", fx.startCardEffect)
	fx.finishCard = engine.Register(reg, "FINISH_CARD", finishCard)
	fx.endTurn = engine.Register(reg, "END_TURN", endTurn)
	fx.roundStart = engine.Register(reg, "ROUND_START", roundStart)
	fx.destroy = engine.Register(reg, "DESTROY", destroyEffect)
	fx.goAgain = engine.Register(reg, "GO_AGAIN", goAgain)
	engine.Register(reg, "DAMAGE", damage)
	engine.Register(reg, "HEAL_HULL", healHull)
	engine.Register(reg, "MODIFY_STAT", modifyStat)
	engine.Register(reg, "EXHAUST_DRONE", exhaust)
	engine.Register(reg, "DRAW", draw)
	engine.Register(reg, "GAIN_ENERGY", gainEnergy)
	engine.Register(reg, "MARK_RANDOM_ENEMY", markRandomEnemy)
	engine.Register(reg, "INCREASE_THREAT", increaseThreat)
	engine.Register(reg, "CREATE_TOKENS", createTokens)
	engine.Register(reg, "SINGLE_MOVE", singleMove)
	engine.Register(reg, "MULTI_MOVE", multiMove)
	for n := range dataEffects {
		fx.names = append(fx.names, n)
	}
	slices.Sort(fx.names)
	return fx
}

// --- helpers ---

// droneEvent returns an event about a drone, in its lane.
func droneEvent(t engine.EventType, d *Drone) engine.Event {
	ev := engine.NewEvent(t)
	ev.Subject, ev.Player, ev.Location = d.ID, d.Owner, engine.LocationID(d.Lane)
	return ev
}

// controller returns the player an effect works for: the controller of
// the trigger that fired, or the player of the command (the card player).
func controller(c *engine.Ctx) engine.PlayerID {
	if t := c.Trigger(); t != nil {
		return t.Controller
	}
	return c.Actor()
}

// effectLane returns the lane an effect works in: the lane of the drone
// whose trigger fired, or the card's target lane.
func (s *State) effectLane(c *engine.Ctx) int {
	if d := s.Drone(c.Reactor()); d != nil {
		return d.Lane
	}
	return s.Play.Lane
}

// scopeDrones returns the drones an effect's scope names. The slice is
// the state's scratch buffer: a copy, so effects may destroy drones while
// they walk it.
func (s *State) scopeDrones(c *engine.Ctx, scope string) []engine.EntityID {
	out := s.scratch[:0]
	switch scope {
	case "SELF":
		out = append(out, c.Reactor())
	case "TRIGGERING_DRONE":
		if ev := c.Event(); ev != nil {
			out = append(out, ev.Subject)
		}
	case "TARGET":
		out = append(out, s.Play.Target)
	case "LANE_ENEMIES":
		if lane := s.effectLane(c); lane >= 1 {
			out = append(out, s.Players[1-controller(c)].Lanes[lane-1]...)
		}
	}
	s.scratch = out
	return out
}

// damageDrone deals damage to a drone, shields first, and destroys it at 0
// hull. It returns what the shields and hull took. src is who deals it (an
// attacker), or System for the drone whose ability does.
func (s *State) damageDrone(c *engine.Ctx, src, id engine.EntityID, n int) (shields, hull int) {
	d := s.live(id)
	if d == nil || n <= 0 {
		return 0, 0
	}
	shields = min(d.Shields, n)
	d.Shields -= shields
	hull = min(d.Hull, n-shields)
	d.Hull -= hull
	ev := droneEvent(evDamaged, d)
	ev.Source, ev.Amount = src, n
	ev.Data = &damageInfo{Shields: shields, Hull: hull}
	c.Emit(ev)
	if d.Hull <= 0 {
		s.destroy(c, src, d)
	}
	return shields, hull
}

// destroy takes a drone off the board with its triggers; reactions
// already scheduled for it are skipped. src is as for damageDrone.
func (s *State) destroy(c *engine.Ctx, src engine.EntityID, d *Drone) {
	if d.Destroyed {
		return
	}
	d.Destroyed = true
	s.removeFromLane(d)
	c.Index().RemoveReactor(d.ID)
	ev := droneEvent(evDestroyed, d)
	ev.Source = src
	c.Emit(ev)
}

// moveDrone moves a drone to another lane and announces it: the lane it
// left, its own move, the lane it entered.
func (s *State) moveDrone(c *engine.Ctx, id engine.EntityID, to int, exhaust bool) {
	d := s.live(id)
	if d == nil || to < 1 || to > Lanes || to == d.Lane {
		return
	}
	from := d.Lane
	s.removeFromLane(d)
	d.Lane = to
	s.Order++
	s.Players[d.Owner].Lanes[to-1] = append(s.Players[d.Owner].Lanes[to-1], id)
	c.Index().MoveReactor(id, engine.LocationID(to), position(to, s.Order))
	if exhaust {
		d.Exhausted = true
	}
	out := droneEvent(evLaneOut, d)
	out.Location = engine.LocationID(from)
	c.Emit(out)
	mv := droneEvent(evMove, d)
	mv.Amount = from
	c.Emit(mv)
	c.Emit(droneEvent(evLaneIn, d))
}

// drawCards moves up to n cards from a player's deck to their hand,
// shuffling the discard pile into the deck when it runs out, and returns
// how many were drawn.
func (s *State) drawCards(c *engine.Ctx, p engine.PlayerID, n int) int {
	pl := &s.Players[p]
	drawn := 0
	for range n {
		if len(pl.Deck) == 0 {
			if len(pl.Discard) == 0 {
				break
			}
			pl.Deck = append(pl.Deck[:0], pl.Discard...)
			pl.Discard = pl.Discard[:0]
			deck := pl.Deck
			c.Rand("shuffle").Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		}
		pl.Hand = append(pl.Hand, pl.Deck[0])
		pl.Deck = pl.Deck[1:]
		drawn++
	}
	return drawn
}

// --- the effects of game data ---

func damage(c *engine.Ctx, s *State, a valueScopeArgs) error {
	for _, id := range s.scopeDrones(c, a.Scope) {
		s.damageDrone(c, engine.System, id, a.Value)
	}
	return nil
}

func healHull(c *engine.Ctx, s *State, a valueScopeArgs) error {
	for _, id := range s.scopeDrones(c, a.Scope) {
		d := s.live(id)
		if d == nil {
			continue
		}
		if n := min(a.Value, d.Kind.Hull-d.Hull); n > 0 {
			d.Hull += n
			ev := droneEvent(evHealed, d)
			ev.Amount = n
			c.Emit(ev)
		}
	}
	return nil
}

func modifyStat(c *engine.Ctx, s *State, a modifyArgs) error {
	st, ok := parseModStat(a.Mod.Stat)
	if !ok {
		return fmt.Errorf("unknown stat %q", a.Mod.Stat)
	}
	temp := a.Mod.Type == "temporary"
	for _, id := range s.scopeDrones(c, a.Scope) {
		d := s.live(id)
		if d == nil {
			continue
		}
		d.Mods = append(d.Mods, Mod{Stat: st, Value: a.Mod.Value, Temporary: temp})
		if st == StatShields {
			d.Shields = max(0, min(d.Shields+a.Mod.Value, d.MaxShields()))
		}
		ev := droneEvent(evStatChanged, d)
		ev.Amount = a.Mod.Value
		if temp {
			ev.Data = temporaryChange[st]
		} else {
			ev.Data = permanentChange[st]
		}
		c.Emit(ev)
		// The file's own trigger types fired by stat changes (ON_POWER_GAIN).
		fired := s.def.raised[st]
		if a.Mod.Value < 0 {
			fired = s.def.lower[st]
		}
		for _, t := range fired {
			ev.Type, ev.Data = t, nil
			ev.Amount = max(a.Mod.Value, -a.Mod.Value)
			c.Emit(ev)
		}
	}
	return nil
}

func exhaust(c *engine.Ctx, s *State, a scopeArgs) error {
	for _, id := range s.scopeDrones(c, a.Scope) {
		if d := s.live(id); d != nil && !d.Exhausted {
			d.Exhausted = true
			c.Emit(droneEvent(evExhausted, d))
		}
	}
	return nil
}

func draw(c *engine.Ctx, s *State, a valueArgs) error {
	p := controller(c)
	n := s.drawCards(c, p, a.Value)
	if n == 0 {
		c.Note("%s has no cards left to draw", s.Players[p].Name)
		return nil
	}
	s.Players[p].Drawn += n
	ev := engine.NewEvent(evCardDrawn)
	ev.Player, ev.Amount = p, n
	if d := s.Drone(c.Reactor()); d != nil {
		d.Drew += n
		ev.Subject, ev.Location = d.ID, engine.LocationID(d.Lane)
	}
	c.Emit(ev)
	return nil
}

func gainEnergy(c *engine.Ctx, s *State, a valueArgs) error {
	p := controller(c)
	pl := &s.Players[p]
	n := min(a.Value, s.Stats(p).MaxEnergy-pl.Energy)
	if n <= 0 {
		c.Note("%s's energy is full", pl.Name)
		return nil
	}
	pl.Energy += n
	pl.EnergyGained += n
	ev := engine.NewEvent(evEnergyGained)
	ev.Player, ev.Amount = p, n
	if d := s.Drone(c.Reactor()); d != nil {
		d.EnergyGained += n
		ev.Subject, ev.Location = d.ID, engine.LocationID(d.Lane)
	}
	c.Emit(ev)
	return nil
}

func destroyEffect(c *engine.Ctx, s *State, a scopeArgs) error {
	for _, id := range s.scopeDrones(c, a.Scope) {
		if d := s.live(id); d != nil {
			s.destroy(c, engine.System, d)
		}
	}
	return nil
}

func markRandomEnemy(c *engine.Ctx, s *State, a markArgs) error {
	enemy := 1 - controller(c)
	lane := s.effectLane(c)
	cands := s.scratch[:0]
	for l, ids := range s.Players[enemy].Lanes {
		if a.Scope != "ANY_LANE" && l != lane-1 {
			continue
		}
		for _, id := range ids {
			if a.Filter == "ANY" || !s.Drone(id).Marked {
				cands = append(cands, id)
			}
		}
	}
	s.scratch = cands
	if len(cands) == 0 {
		c.Note("no enemy drone to mark")
		return nil
	}
	d := s.Drone(cands[c.Rand("mark").IntN(len(cands))])
	d.Marked = true
	c.Emit(droneEvent(evMarked, d))
	return nil
}

func increaseThreat(c *engine.Ctx, s *State, a valueArgs) error {
	p := controller(c)
	s.Players[p].Threat += a.Value
	ev := engine.NewEvent(evThreat)
	ev.Player, ev.Amount = p, a.Value
	c.Emit(ev)
	return nil
}

func createTokens(c *engine.Ctx, s *State, a tokenArgs) error {
	owner := controller(c)
	if a.TargetOwner == "OPPONENT" {
		owner = 1 - owner
	}
	lane := s.effectLane(c)
	k := s.def.Drone(a.TokenName)
	if k == nil || lane < 1 {
		return fmt.Errorf("no token %q or no lane", a.TokenName)
	}
	if k.MaxPerLane > 0 && s.countKind(owner, k, lane) >= k.MaxPerLane {
		c.Note("lane %d already has %s on %s's board", lane, k.Name, s.Players[owner].Name)
		return nil
	}
	id := s.newDrone(c.Index(), k, owner, lane)
	c.Emit(droneEvent(evTokenCreated, s.Drone(id)))
	return nil
}

func goAgain(c *engine.Ctx, s *State, _ noArgs) error {
	s.GoAgain = true
	ev := engine.NewEvent(evGoAgain)
	ev.Player = c.Actor()
	c.Emit(ev)
	return nil
}

func singleMove(c *engine.Ctx, s *State, a singleMoveArgs) error {
	s.moveDrone(c, s.Play.Target, s.Play.To, a.Exhaust)
	return nil
}

// multiMove moves the next drone the card selected. The command runs it
// once per drone, each in its own chain: a multi-move is a sequence of
// independent moves, each fully resolved before the next.
func multiMove(c *engine.Ctx, s *State, a multiMoveArgs) error {
	if s.Play.Next < len(s.Play.Drones) {
		id := s.Play.Drones[s.Play.Next]
		s.Play.Next++
		s.moveDrone(c, id, s.Play.To, a.Exhaust)
	}
	return nil
}

// --- the wrappers of abilities ---

// repeat runs an ability's effects once per Divisor units of its event's
// amount: Thor's +1 attack per 2 energy, Odin's +1 per card drawn.
func repeat(c *engine.Ctx, s *State, a repeatArgs) error {
	ev := c.Event()
	if ev == nil {
		return nil
	}
	for range ev.Amount / a.Divisor {
		for _, call := range a.Calls {
			c.Then(call)
		}
	}
	return nil
}

// conditional runs an ability's granted effect if the attack's result
// meets its condition (Threat Transmitter).
func conditional(c *engine.Ctx, s *State, a conditionalArgs) error {
	if ev := c.Event(); ev != nil && attackMeets(ev.Data, a.Condition) {
		c.Then(a.Call)
	}
	return nil
}

// attackMeets reports whether an ON_ATTACK event's result meets a
// condition of conditionalEffects.
func attackMeets(data any, condition string) bool {
	r, ok := data.(*AttackResult)
	if !ok {
		return false
	}
	switch condition {
	case "ON_SHIP_SECTION_HULL_DAMAGE":
		return r.Section && r.Hull > 0
	case "ON_SHIP_SECTION_DAMAGE":
		return r.Section && r.Shields+r.Hull > 0
	case "ON_DRONE_HULL_DAMAGE":
		return !r.Section && r.Hull > 0
	case "ON_TARGET_DESTROYED":
		return !r.Section && r.Destroyed
	}
	return false
}

// --- commands ---

func deploy(c *engine.Ctx, s *State, a deployArgs) error {
	p := c.Actor()
	pl := &s.Players[p]
	k := s.def.Drones[a.Kind]
	fromBudget := min(pl.Budget, k.Class)
	pl.Budget -= fromBudget
	pl.Energy -= k.Class - fromBudget
	id := s.newDrone(c.Index(), k, p, a.Lane)
	d := s.Drone(id)
	ev := droneEvent(evDeploy, d)
	ev.Amount = k.Class
	c.Emit(ev)
	c.Emit(droneEvent(evLaneDeploy, d))
	return nil
}

func move(c *engine.Ctx, s *State, a moveArgs) error {
	s.moveDrone(c, a.Drone, a.To, true)
	return nil
}

// attack exhausts the attacker and announces the attack in its lane; the
// damage is resolved once the lane's reactions (a Jitter Mine) are done.
func (fx *effectSet) attackEffect(c *engine.Ctx, s *State, a attackArgs) error {
	d := s.live(a.Attacker)
	if d == nil {
		return fmt.Errorf("no attacker %d", a.Attacker)
	}
	d.Exhausted = true
	ev := droneEvent(evLaneAttack, d)
	ev.Target = a.Target
	c.Emit(ev)
	c.Then(fx.resolve.Call(a))
	return nil
}

func resolveAttack(c *engine.Ctx, s *State, a attackArgs) error {
	d := s.live(a.Attacker)
	if d == nil {
		c.Note("the attack is called off: the attacker is gone")
		return nil
	}
	res := &AttackResult{Damage: max(0, d.Attack())}
	if p, lane, ok := s.section(a.Target); ok {
		sec := &s.Players[p].Sections[lane-1]
		res.Section = true
		res.Shields = min(sec.Shields, res.Damage)
		sec.Shields -= res.Shields
		res.Hull = min(sec.Hull, res.Damage-res.Shields)
		sec.Hull -= res.Hull
		if res.Damage > 0 {
			ev := engine.NewEvent(evDamaged)
			ev.Source, ev.Subject, ev.Player, ev.Location, ev.Amount = a.Attacker, a.Target, p, engine.LocationID(lane), res.Damage
			ev.Data = &damageInfo{Shields: res.Shields, Hull: res.Hull}
			c.Emit(ev)
			if res.Hull > 0 && sec.Hull == 0 {
				ev.Type, ev.Amount, ev.Data = evDestroyed, 0, nil
				c.Emit(ev)
			}
		}
	} else if t := s.live(a.Target); t != nil {
		res.Shields, res.Hull = s.damageDrone(c, a.Attacker, t.ID, res.Damage)
		res.Destroyed = s.Drone(a.Target).Destroyed
	} else {
		c.Note("the attack finds no target")
	}
	ev := droneEvent(evAttack, s.Drone(a.Attacker))
	ev.Target, ev.Amount, ev.Data = a.Target, res.Damage, res
	c.Emit(ev)
	return nil
}

// startCard pays for a card, discards it and runs its effects; the card's
// ON_CARD_PLAY fires after they are all done.
func (fx *effectSet) startCardEffect(c *engine.Ctx, s *State, a cardArgs) error {
	p := c.Actor()
	pl := &s.Players[p]
	card := s.def.Cards[pl.Hand[a.Hand]]
	pl.Energy -= card.Cost
	pl.Hand = slices.Delete(pl.Hand, a.Hand, a.Hand+1)
	pl.Discard = append(pl.Discard, card.index)
	s.Play = cardPlay{Active: true, Card: card, Player: p, Lane: a.Lane, Target: a.Target, To: a.To,
		Drones: append(s.Play.Drones[:0], a.Drones...)}
	ev := engine.NewEvent(evCardPlayed)
	ev.Player, ev.Target, ev.Amount, ev.Data = p, a.Target, card.Cost, card
	if a.Lane > 0 {
		ev.Location = engine.LocationID(a.Lane)
	}
	c.Emit(ev)
	if card.moves > 0 {
		// The first move runs in this chain; the command runs the others
		// and FINISH_CARD each in a chain of its own.
		c.Then(card.calls[0])
		return nil
	}
	for _, call := range card.calls {
		c.Then(call)
	}
	c.Then(fx.finishCard.Call(noArgs{}))
	return nil
}

func finishCard(c *engine.Ctx, s *State, _ noArgs) error {
	card := s.Play.Card
	ev := engine.NewEvent(evCardPlay)
	ev.Player, ev.Data = s.Play.Player, card
	if s.Play.Lane > 0 {
		ev.Location = engine.LocationID(s.Play.Lane)
	}
	s.Play.Active = false
	c.Emit(ev)
	if card.GoAgain {
		return goAgain(c, s, noArgs{})
	}
	return nil
}

// endTurn closes a command: the pass, victory, go again, the next turn and
// the end of a phase.
func endTurn(c *engine.Ctx, s *State, a endTurnArgs) error {
	p := c.Actor()
	o := 1 - p
	if a.Pass {
		s.Passed[p] = true
		if s.Phase == PhaseAction && s.FirstPasser == engine.NoPlayer {
			s.FirstPasser = p
		}
		ev := engine.NewEvent(evPassed)
		ev.Player = p
		c.Emit(ev)
	}
	lose := s.damageToLose()
	for _, q := range [2]engine.PlayerID{o, p} {
		if s.ShipDamage(q) >= lose {
			s.gameOver(c, 1-q)
			return nil
		}
	}
	again := s.GoAgain
	s.GoAgain = false
	if s.Passed[p] && s.Passed[o] {
		if s.Phase == PhaseDeployment {
			s.Phase = PhaseAction
			s.Passed = [2]bool{}
			s.Turn = s.First
			ev := engine.NewEvent(evPhaseBegan)
			ev.Player, ev.Amount = s.First, int(PhaseAction)
			c.Emit(ev)
		} else {
			s.NeedRound = true
		}
		return nil
	}
	switch {
	case s.Passed[p]:
		s.Turn = o
	case again || s.Passed[o]:
		s.Turn = p
	default:
		s.Turn = o
	}
	return nil
}

func (s *State) gameOver(c *engine.Ctx, winner engine.PlayerID) {
	s.Phase = PhaseOver
	s.Winner = winner
	ev := engine.NewEvent(evGameOver)
	ev.Player = winner
	c.Emit(ev)
}

// roundStart begins a round: drones ready with full shields, temporary
// modifiers end, energy and deployment budget reset, hands refill, then
// the drones' ON_ROUND_START abilities fire. The acting player of the
// chain is the round's first player.
func roundStart(c *engine.Ctx, s *State, _ noArgs) error {
	s.NeedRound = false
	if limit := s.MaxRounds; limit > 0 && s.Round >= limit {
		winner := engine.NoPlayer
		if d0, d1 := s.ShipDamage(0), s.ShipDamage(1); d0 < d1 {
			winner = 0
		} else if d1 < d0 {
			winner = 1
		}
		s.gameOver(c, winner)
		return nil
	}
	first := c.Actor()
	s.Round++
	s.First, s.Turn = first, first
	s.Passed = [2]bool{}
	s.FirstPasser = engine.NoPlayer
	s.Phase = PhaseDeployment
	s.GoAgain = false
	ev := engine.NewEvent(evRoundBegan)
	ev.Player, ev.Amount = first, s.Round
	c.Emit(ev)
	order := [2]engine.PlayerID{first, 1 - first}
	for _, p := range order {
		pl := &s.Players[p]
		st := s.Stats(p)
		for _, ids := range pl.Lanes {
			for _, id := range ids {
				d := s.Drone(id)
				d.Exhausted = false
				d.Mods = slices.DeleteFunc(d.Mods, func(m Mod) bool { return m.Temporary })
				d.Shields = d.MaxShields()
			}
		}
		for i := range pl.Sections {
			pl.Sections[i].Shields = pl.Sections[i].Def.Shields
		}
		pl.Energy = min(st.EnergyPerRound, st.MaxEnergy)
		pl.Budget = st.DeploymentBudget
		if s.Round == 1 {
			pl.Budget = st.InitialDeployment
		}
		if n := st.HandLimit - len(pl.Hand); n > 0 {
			if got := s.drawCards(c, p, n); got > 0 {
				pl.Drawn += got
				ev := engine.NewEvent(evCardDrawn)
				ev.Player, ev.Amount = p, got
				c.Emit(ev)
			}
		}
	}
	for _, p := range order {
		for _, ids := range s.Players[p].Lanes {
			for _, id := range ids {
				c.Emit(droneEvent(evRoundStart, s.Drone(id)))
			}
		}
	}
	return nil
}
