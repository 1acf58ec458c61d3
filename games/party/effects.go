package party

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// playerEvent returns an event about the current player at their space.
func (s *State) playerEvent(t engine.EventType) engine.Event {
	ev := engine.NewEvent(t)
	ev.Subject = playerID(s.Current)
	ev.Player = engine.PlayerID(s.Current)
	ev.Location = engine.LocationID(s.player().Space)
	return ev
}

// emitAt emits an event about the current player at a given space.
func (s *State) emitAt(c *engine.Ctx, t engine.EventType, space int) {
	s.tally.arrived(t, space)
	s.emit(c, t, s.Current, space, 0, nil)
}

// How the current player came to stand where they are when the board's
// events are looked at (see arrive).
type arrival uint8

const (
	byRoll  arrival = iota // they rolled: nobody moved yet
	byStep                 // a step of their walk, from another space
	byBlock                // a step that could not move: a dead end
	byJump                 // a teleport, a move back, a swap (from where)
)

// arrive emits the movement events that set off the board's events after a
// roll, a step or an action that moved the current player: ON_EXIT of the
// space a step left, ON_ENTER of the space arrived on (not after a roll or
// a step that could not move), and ON_LAND if the walk ends there.
//
// With the original's quirks, these are instead what its check of every
// event finds true at that moment (the events that fired since the moves
// last settled do not fire again: the engine's loop guard): ON_EXIT of the
// second latest space of the movement history, whatever happened
// (ExitReFires); ON_ENTER of the space stood on if the player has moved
// this round (EnterReFires).
func (s *State) arrive(c *engine.Ctx, how arrival, from int) {
	p := s.player()
	switch {
	case s.quirks.ExitReFires:
		if n := len(p.History); n >= 2 {
			// It fires "again" unless the player has just left it.
			left := p.History[n-2].Space
			s.emitQuirk(c, evExit, left, how == byRoll || how == byBlock || left != from)
		}
	case how == byStep:
		s.emitAt(c, evExit, from)
	}
	switch {
	case s.quirks.EnterReFires:
		if s.movedThisRound(p) {
			s.emitQuirk(c, evEnter, p.Space, how == byBlock || how == byRoll)
		}
	case how == byStep || how == byJump:
		s.emitAt(c, evEnter, p.Space)
	}
	if s.RemainingMoves == 0 {
		// Never after a roll: a roll is at least 1.
		s.emitAt(c, evLand, p.Space)
	}
}

// again is the Data of an ON_EXIT or ON_ENTER event the original's quirks
// emit where the player does not leave or enter the space at that moment:
// the log says so.
const again = "again"

// emitQuirk emits an event at a space, marked when it only fires again
// by the original's rules.
func (s *State) emitQuirk(c *engine.Ctx, t engine.EventType, space int, refired bool) {
	s.tally.arrived(t, space)
	var data any
	if refired {
		data = again
	}
	s.emit(c, t, s.Current, space, 0, data)
}

// movedThisRound reports whether a player's movement history has a move
// of this round.
func (s *State) movedThisRound(p *Player) bool {
	round := s.Round()
	for i := len(p.History) - 1; i >= 0; i-- {
		if p.History[i].Round == round {
			return true
		}
	}
	return false
}

// --- the turn ---

// startGame places every player on their starting space.
func startGame(c *engine.Ctx, s *State, _ struct{}) error {
	r := s.board.Rules.Start
	cands := startCandidates(s.def)
	n := len(s.Players)
	for i := range s.Players {
		var idx int
		switch r.Mode {
		case "spread":
			if r.Distribution == "sequential" {
				per := (n + len(cands) - 1) / len(cands)
				idx = min(i/per, len(cands)-1)
			} else {
				idx = i % len(cands)
			}
		case "random":
			idx = s.rand(c, "start").IntN(len(cands))
		}
		p := &s.Players[i]
		p.Space, p.Start = cands[idx], cands[idx]
		if !s.quirks.StaysWaiting {
			p.State = Playing
		}
	}
	s.Phase = phaseFirst
	s.emit(c, evGameStart, nobody, nowhere, n, nil)
	return nil
}

// startCandidates lists the possible starting spaces: those the rules
// name, else those typed "start", else the first space.
func startCandidates(d *Definition) []int { return candidates(d.Board, d.byID) }

func candidates(b *Board, byID map[string]int) []int {
	var out []int
	for _, id := range b.Rules.Start.SpaceIDs {
		if i, ok := byID[id]; ok {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, sp := range b.Spaces {
		if sp.Type == "start" {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out
	}
	return []int{0}
}

// startSpaces are the spaces players may start on: every candidate when
// they spread or draw their start, else the first.
func startSpaces(b *Board, byID map[string]int) []int {
	cands := candidates(b, byID)
	switch b.Rules.Start.Mode {
	case "spread", "random":
		return cands
	}
	return cands[:1]
}

// skipped are the states whose turns are skipped.
var skipped = []string{CompletedGame, SkippingTurn, Spectating, Disconnected, Eliminated}

// beginTurn picks the current player (the fewest turns taken, ties in seat
// order, or the same player for a repeated turn), runs their effects, and
// skips the turn if their state says so.
func beginTurn(c *engine.Ctx, s *State, _ struct{}) error {
	if s.Phase != phaseAgain {
		// By index: a range's copies of each player are costly.
		current := 0
		for i := range s.Players {
			if s.Players[i].TurnsTaken < s.Players[current].TurnsTaken {
				current = i
			}
		}
		s.Current = current
	}
	s.Turn++
	s.LastRound = s.Round()
	s.RemainingMoves = 0
	p := s.player()
	if !s.quirks.EffectsIdle {
		s.effectPass(p)
	}
	s.emit(c, evTurnStart, s.Current, p.Space, s.Turn, nil)
	if s.skips(p.State) {
		s.emit(c, evTurnSkip, s.Current, p.Space, 0, stateData(p.State))
		s.Phase = PhaseEnd
		s.SkipRun++
		return nil
	}
	s.SkipRun = 0
	s.Phase = PhaseRoll
	return nil
}

// effectPass lets the current player's skip-turn and change-direction
// effects count their turns, before the skip decision.
func (s *State) effectPass(p *Player) {
	kept := p.Effects[:0]
	for _, e := range p.Effects {
		switch e.Kind {
		case SkipTurns:
			// A skip only holds back a player who is playing: one who has
			// finished (or left) keeps that state, and the effect ends.
			if e.Left > 0 && (s.active(p) || p.State == SkippingTurn) {
				p.State = SkippingTurn
				e.Left--
			} else {
				if p.State == SkippingTurn {
					p.State = Playing
				}
				continue
			}
		case ChangeDirection:
			if e.Left > 0 {
				p.Reversed = true
				e.Left--
			} else {
				p.Reversed = false
				continue
			}
		}
		kept = append(kept, e)
	}
	p.Effects = kept
}

// stateData returns a player state as the Data of an event. The states are
// constants, whose boxes need no allocation.
func stateData(state string) any {
	switch state {
	case Spectating:
		return Spectating
	case Playing:
		return Playing
	case CompletedGame:
		return CompletedGame
	case Disconnected:
		return Disconnected
	case SkippingTurn:
		return SkippingTurn
	case Waiting:
		return Waiting
	case Eliminated:
		return Eliminated
	}
	return state
}

// nobodyCanPlay reports whether every turn from now on would be skipped:
// every player is in a skipped state and no skip effect will bring anyone
// back. Such a game would otherwise turn forever.
func (s *State) nobodyCanPlay() bool {
	if s.SkipRun < len(s.Players) {
		return false
	}
	for i := range s.Players {
		p := &s.Players[i]
		if !s.skips(p.State) {
			return false
		}
		for _, e := range p.Effects {
			if e.Kind == SkipTurns {
				return false
			}
		}
	}
	return true
}

// roll rolls the dice for the current player: the next scripted roll of
// the match's setup, if any is left (a total, checked against the dice when
// the match starts), else the board's dice from the match's "dice" stream.
func roll(c *engine.Ctx, s *State, _ struct{}) error {
	dice := s.def.dice(s.quirks)
	if s.Phase != PhaseRoll {
		return engine.Rejectf("%s cannot roll now", s.player().Name)
	}
	s.LastRoll = s.LastRoll[:0]
	total := 0
	if len(s.Dice) > 0 {
		total, s.Dice = s.Dice[0], s.Dice[1:]
		s.LastRoll = append(s.LastRoll, total)
	} else {
		stream := s.rand(c, "dice")
		for range dice.Count {
			v := stream.Between(1, dice.Sides)
			s.LastRoll = append(s.LastRoll, v)
			total += v
		}
	}
	s.RemainingMoves = total
	s.Phase = PhaseMove
	space := s.player().Space
	s.emit(c, evRolled, s.Current, space, total, nil)
	s.arrive(c, byRoll, space)
	return nil
}

// step walks the current player one space: along the arrows, or against
// them while reversed. At a fork the player chooses; at a dead end the move
// ends where they stand.
func step(c *engine.Ctx, s *State, _ struct{}) error {
	p := s.player()
	ways := s.def.next[p.Space]
	if p.Reversed {
		ways = s.def.prev[p.Space]
	}
	var to int
	switch len(ways) {
	case 0:
		s.RemainingMoves = 0
		s.emit(c, evBlocked, s.Current, p.Space, 0, nil)
		s.arrive(c, byBlock, p.Space)
		return nil
	case 1:
		to = ways[0]
	default:
		names := s.def.nextLabels[p.Space]
		if p.Reversed {
			names = s.def.prevLabels[p.Space]
		}
		answer, answered := s.answer(c, len(names))
		if !answered {
			if s.outside != nil {
				return errAsks // before anything changed: the engine asks
			}
			return c.Ask(engine.Decision{Player: engine.PlayerID(s.Current), Kind: KindChoosePath,
				Prompt: "Which way?", Options: names})
		}
		to = ways[answer.Choice]
	}
	from := p.Space
	s.movePlayer(p, to)
	s.arrive(c, byStep, from)
	return nil
}

// spaceLabel names a space for the log and the options of a fork: its name
// and its id ("Shortcut (5)"), or its id alone.
func spaceLabel(sp *Space) string {
	if sp.Name != "" && !strings.EqualFold(sp.Name, sp.ID) {
		return sp.Name + " (" + sp.ID + ")"
	}
	return sp.ID
}

// spaceTitle names a space as players call it: its name, or a name made
// from its id when it has none ("Space 12", "Bonus round").
func spaceTitle(sp *Space) string {
	if sp.Name != "" {
		return sp.Name
	}
	if _, err := strconv.Atoi(sp.ID); err == nil {
		return "Space " + sp.ID
	}
	return game.Readable(sp.ID)
}

// wayTitles names the spaces a fork leads to for players: their titles,
// numbered where two are alike ("Crossroads (way 2)").
func wayTitles(spaces []Space, ways []int) []string {
	names := make([]string, len(ways))
	for i, to := range ways {
		names[i] = spaceTitle(&spaces[to])
	}
	out := slices.Clone(names)
	for i := range names {
		same := 0
		for _, n := range names {
			if n == names[i] {
				same++
			}
		}
		if same > 1 {
			out[i] += fmt.Sprintf(" (way %d)", i+1)
		}
	}
	return out
}

// movePlayer moves a player to a space as a move of their walk: it costs a
// move (if any remain) and is recorded in the movement history.
func (s *State) movePlayer(p *Player, to int) {
	round := s.Round()
	if len(p.History) == 0 {
		p.History = append(p.History, Move{Space: p.Space, RemainingMoves: s.RemainingMoves, Round: round})
	}
	p.Space = to
	s.RemainingMoves = max(0, s.RemainingMoves-1)
	if len(p.History) >= MaxHistory {
		// Forget the oldest moves, so that long games keep a bounded
		// state (it is hashed after every command).
		p.History = append(p.History[:0], p.History[len(p.History)-MaxHistory+1:]...)
	}
	p.History = append(p.History, Move{Space: to, RemainingMoves: s.RemainingMoves, Round: round})
}

// MaxHistory is how many moves a player's history remembers: moving back
// further than that lands on the oldest move remembered.
const MaxHistory = 256

// endTurn ends the current turn: the game may end; a repeat effect gives
// the same player another turn; otherwise the next player's turn comes.
func endTurn(c *engine.Ctx, s *State, _ struct{}) error {
	p := s.player()
	s.RemainingMoves = 0
	s.emit(c, evTurnEnd, s.Current, p.Space, 0, nil)
	ends := !s.quirks.OnlyFinishEnds
	if ends && s.def.win[p.Space] {
		return s.gameOver(c, "reached "+spaceLabel(s.SpaceOf(s.Current)), []int{s.Current})
	}
	if s.allFinished() {
		return s.gameOver(c, allFinished, s.Finished[:1])
	}
	if ends && s.nobodyCanPlay() {
		return s.gameOver(c, nobodyPlays, s.Finished[:min(1, len(s.Finished))])
	}
	for i := range p.Effects {
		if s.quirks.EffectsIdle {
			break
		}
		e := &p.Effects[i]
		if (e.Kind == RepeatTurns || e.Kind == DoubleTurn) && e.Left > 0 && p.State != CompletedGame {
			e.Left--
			if e.Left == 0 {
				p.Effects = slices.Delete(p.Effects, i, i+1)
			}
			s.Phase = phaseAgain
			return nil
		}
	}
	p.TurnsTaken++
	if mt := s.board.Rules.MaxTurns; ends && mt > 0 && s.Round() > mt {
		return s.gameOver(c, fmt.Sprintf("the turn limit (%d) was reached", mt), s.Finished[:min(1, len(s.Finished))])
	}
	if s.MaxRounds > 0 && s.Round() > s.MaxRounds {
		return s.gameOver(c, fmt.Sprintf("stopped at the round cap (%d)", s.MaxRounds), nil)
	}
	s.Phase = PhaseStart
	return nil
}

// The usual reasons a game ends, boxed once as an event's Data.
const (
	allFinished = "every player finished"
	nobodyPlays = "nobody can play any more"
)

// reasonData returns the reason a game ended as the Data of an event,
// without allocating for the usual ones.
func reasonData(reason string) any {
	switch reason {
	case allFinished:
		return allFinished
	case nobodyPlays:
		return nobodyPlays
	}
	return reason
}

func (s *State) allFinished() bool {
	for i := range s.Players {
		if s.Players[i].State != CompletedGame {
			return false
		}
	}
	return len(s.Players) > 0
}

func (s *State) gameOver(c *engine.Ctx, reason string, winners []int) error {
	s.Over = true
	s.Phase = PhaseOver
	s.EndReason = reason
	s.Winners = append(s.Winners[:0], winners...)
	s.emit(c, evGameOver, nobody, nowhere, len(winners), reasonData(reason))
	return nil
}

// --- the actions of board events ---

func promptAll(c *engine.Ctx, s *State, a PromptArgs) error {
	return s.prompt(c, a, seatList(len(s.Players)), true)
}

func promptCurrent(c *engine.Ctx, s *State, a PromptArgs) error {
	return s.prompt(c, a, seatList(len(s.Players))[s.Current:s.Current+1:s.Current+1], false)
}

// Prompt is a message waiting to be acknowledged.
type Prompt struct {
	Text     string
	Segments []Segment
	// To are the seats that must acknowledge it.
	To []int
	// Everyone is set when it is addressed to every player: those not in
	// To read it as a notice.
	Everyone bool
	// Space is the space whose event shows it.
	Space int
}

// prompt shows a message to players and waits until those who must have
// acknowledged it: every player it addresses, but for a prompt to
// everybody only the current player unless the board asks everyone (or
// the match plays by the rule of earlier servers); nobody when the match
// acknowledges every prompt itself. The message is expanded (placeholders
// drawn) when it is first shown; the run after the answers only clears it.
func (s *State) prompt(c *engine.Ctx, a PromptArgs, to []int, everyone bool) error {
	if _, answered := c.Answer(0); answered {
		s.Prompt = nil
		return nil
	}
	var segs []Segment
	text := a.Message
	if !s.skipText {
		segs = ExpandMessage(a.Message, s.player().Name, c.Rand("placeholders"))
		text = PlainText(segs)
	}
	// The prompt belongs to the space whose event shows it.
	space := s.player().Space
	if i := int(c.Reactor()) - spaceEntity; i >= 0 && i < len(s.board.Spaces) {
		space = i
	}
	for _, seat := range to {
		s.Players[seat].Prompts++
	}
	s.emit(c, evPrompted, s.Current, space, len(to), payload(c, text))
	if everyone && !a.Everyone && !s.ackAll {
		to = to[s.Current : s.Current+1 : s.Current+1]
	}
	if s.autoAck {
		// Shown and acknowledged at once: a simulation counts the
		// acknowledgements as the commands they would have been.
		s.tally.acks += len(to)
		return nil
	}
	s.Prompt = &Prompt{Text: text, Segments: segs, To: to, Everyone: everyone, Space: space}
	var buf [8]engine.Decision // Ask copies them: most tables need no more
	ds := buf[:0]
	for _, seat := range to {
		ds = append(ds, engine.Decision{Player: engine.PlayerID(seat), Kind: KindAck, Prompt: text})
	}
	return c.Ask(ds...)
}

func setPlayerState(c *engine.Ctx, s *State, a StateArgs) error {
	p := s.player()
	if p.State == a.State {
		return nil
	}
	p.State = a.State
	if a.State == CompletedGame && !slices.Contains(s.Finished, s.Current) {
		s.Finished = append(s.Finished, s.Current)
	}
	s.emit(c, evState, s.Current, p.Space, 0, payload(c, a.State))
	return nil
}

// displacePlayer moves the current player: forward by giving them more
// steps to walk, back along their movement history.
func displacePlayer(c *engine.Ctx, s *State, a DisplaceArgs) error {
	p := s.player()
	from := p.Space
	switch {
	case a.Steps > 0:
		s.RemainingMoves += a.Steps
		if s.Phase != PhaseMove {
			s.Phase = PhaseMove
		}
		s.emit(c, evDisplaced, s.Current, from, a.Steps, nil)
	case a.Steps < 0:
		// The moves not yet taken back are the live ones; the player goes
		// back to the live move t, and the live moves after it are taken
		// back.
		live := 0
		for _, mv := range p.History {
			if !mv.Backtracked {
				live++
			}
		}
		if live == 0 {
			if s.quirks.MoveBackStalls {
				return s.gameOver(c, p.Name+" has not moved yet, so cannot move back: the original game stalls here", nil)
			}
			c.Note("%s has not moved yet, so cannot move back", p.Name)
			return nil
		}
		t := max(0, live+a.Steps-1)
		k := -1
		for i := range p.History {
			mv := &p.History[i]
			if mv.Backtracked {
				continue
			}
			if k++; k == t {
				p.Space = mv.Space
			} else if k > t && !s.quirks.BacktrackMismatch {
				mv.Backtracked = true
			}
		}
		if s.quirks.BacktrackMismatch {
			// The original takes back the moves after position t of the
			// whole history, taken back already or not.
			for i := t + 1; i < len(p.History); i++ {
				p.History[i].Backtracked = true
			}
		}
		s.emit(c, evDisplaced, s.Current, from, a.Steps, nil)
		s.arrive(c, byJump, from)
	}
	return nil
}

func applyEffect(c *engine.Ctx, s *State, a EffectArgs) error {
	p := s.player()
	p.Effects = append(p.Effects, ActiveEffect{Kind: a.Effect.Kind, ID: a.Effect.ID, Left: a.Effect.Turns})
	s.tally.effect(s.def, p.Seat, a.Effect.Kind)
	s.emit(c, evEffect, s.Current, p.Space, a.Effect.Turns, payload(c, a.Effect.Kind))
	return nil
}

// setPlayerSpace teleports the current player; like a step, it costs a
// move and is recorded in the history, and the destination's events fire.
func setPlayerSpace(c *engine.Ctx, s *State, a TeleportArgs) error {
	to, ok := s.def.byID[a.SpaceID]
	if !ok {
		return fmt.Errorf("no space %q", a.SpaceID)
	}
	from := s.player().Space
	s.movePlayer(s.player(), to)
	s.emitAt(c, evTeleported, to)
	s.arrive(c, byJump, from)
	return nil
}

func forceStop(c *engine.Ctx, s *State, _ ForceStopArgs) error {
	s.emit(c, evStopped, s.Current, s.player().Space, 0, nil)
	if s.RemainingMoves > 0 {
		s.RemainingMoves = 0
		s.emitAt(c, evLand, s.player().Space)
	}
	return nil
}

// swapPlaces swaps the current player's space with another player's: the
// one named, or a random other player.
func swapPlaces(c *engine.Ctx, s *State, a SwapArgs) error {
	other := -1
	if a.Target != "" {
		for i, p := range s.Players {
			if p.Name == a.Target || strconv.Itoa(i) == a.Target {
				other = i
			}
		}
	} else if len(s.Players) > 1 {
		other = c.Rand("swap").IntN(len(s.Players) - 1)
		if other >= s.Current {
			other++
		}
	}
	if other < 0 || other == s.Current {
		c.Note("%s has nobody to swap places with", s.player().Name)
		return nil
	}
	p, q := s.player(), &s.Players[other]
	p.Space, q.Space = q.Space, p.Space
	ev := s.playerEvent(evSwapped)
	ev.Target = playerID(other)
	c.Emit(ev)
	s.arrive(c, byJump, q.Space)
	return nil
}

func setStat(c *engine.Ctx, s *State, a SetStatArgs) error {
	return s.changeStat(c, a.Stat, a.Mode, a.Value, true)
}

func changeStat(c *engine.Ctx, s *State, a ChangeStatArgs) error {
	return s.changeStat(c, a.Stat, a.Mode, a.Delta, false)
}

// changeStat sets a stat to v, or adds v to it.
func (s *State) changeStat(c *engine.Ctx, name, mode string, v float64, set bool) error {
	f := func(old float64) float64 {
		if set {
			return v
		}
		return old + v
	}
	p := s.player()
	if p.Stats == nil {
		p.Stats = map[string]Stat{}
	}
	st := p.Stats[name]
	switch strings.ToLower(mode) {
	case "true":
		st.Value = f(st.Value)
	case "display":
		st.Display = f(st.Display)
	default:
		st.Value, st.Display = f(st.Value), f(st.Display)
	}
	p.Stats[name] = st
	if s.statChanges == nil {
		s.statChanges = &statChanges{}
	}
	s.emit(c, evStat, s.Current, p.Space, 0, s.statChanges.add(StatChange{Stat: name, Value: st.Value, Display: st.Display}))
	return nil
}

// StatChange is the payload of a STAT_CHANGED event (as a *StatChange): the
// stat's new values.
type StatChange struct {
	Stat    string  `json:"stat"`
	Value   float64 `json:"value"`
	Display float64 `json:"display"`
}

// statChanges holds the payloads of a match's STAT_CHANGED events in
// blocks that never move, so that each event points to its own and a stat
// change allocates nothing while a block has room. A reset match reuses
// the blocks (its old events are gone); a copy of the state shares them,
// each change taking a slot of its own.
type statChanges struct {
	blocks [][]StatChange
	n      int
}

const statBlock = 64

func (a *statChanges) add(c StatChange) *StatChange {
	b := a.n / statBlock
	if b == len(a.blocks) {
		a.blocks = append(a.blocks, make([]StatChange, statBlock))
	}
	p := &a.blocks[b][a.n%statBlock]
	*p = c
	a.n++
	return p
}
