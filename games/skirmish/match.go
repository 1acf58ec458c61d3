package skirmish

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Match is one fight of an encounter: the engine's match and the state it
// drives. Its seats are the encounter's sides, in order; the players are
// whoever (or whichever bot) plays each side.
type Match struct {
	Engine *engine.Match
	State  *State
	def    *Definition
	// undoable says whether the last command may be taken back.
	undoable bool
}

// Command is what a side does, as JSON commands, scenario files and the
// terminal write it: {"do": "attack", "who": "rogue", "target": "goblin",
// "weapon": "shortbow"}.
type Command struct {
	// Do is attack, move, dash, disengage, dodge, shove, end (the turn),
	// reaction (the answer to a reaction the side is asked for) or rest (a
	// long rest, once the fight is over).
	Do string `json:"do" yaml:"do"`
	// Who acts; by default the combatant whose turn it is (or, for a
	// reaction, the one asked).
	Who    string `json:"who,omitempty" yaml:"who"`
	Target string `json:"target,omitempty" yaml:"target"`
	// Weapon names the weapon of an attack; by default the first that
	// reaches the target.
	Weapon string `json:"weapon,omitempty" yaml:"weapon"`
	// To is where a move goes, by a shortest path; Path gives the squares
	// step by step instead.
	To   *Cell  `json:"to,omitempty" yaml:"to"`
	Path []Cell `json:"path,omitempty" yaml:"path"`
	// Take answers a reaction: true takes it (the opportunity attack),
	// false lets the moment pass.
	Take *bool `json:"take,omitempty" yaml:"take"`
}

// Commands are the verbs a Command may use.
var Commands = []string{"attack", "move", "dash", "disengage", "dodge", "shove", "end", "reaction", "rest"}

// ReactionLimit is how long a side may think over a reaction before its
// bot answers for it (game.Timed).
const ReactionLimit = 20 * time.Second

// Apply plays a seat's command, given as JSON (see Command).
func (m *Match) Apply(seat int, data json.RawMessage) error {
	var cmd Command
	if err := game.DecodeCommand(data, &cmd); err != nil {
		return engine.Rejectf(`a skirmish command is like {"do": "attack", "who": "rogue", "target": "goblin"}: %v`, err)
	}
	return m.Play(seat, cmd)
}

// Play plays a command for the side in the seat. A command for a
// combatant of another side, out of turn or that breaks the rules is
// rejected (engine.IsRejected) and changes nothing. After it, the turn of
// a combatant that went down ends by itself.
func (m *Match) Play(seat int, cmd Command) error {
	if seat < 0 || seat >= len(m.def.Sides) {
		return engine.Rejectf("there is no seat %d; the seats are the sides %s, from 0", seat, joinAnd(m.def.Sides))
	}
	return m.play(engine.PlayerID(seat), cmd)
}

// play plays a command for a seat, or, with NoPlayer, for the side of the
// combatant it names (scenario files and tests name combatants, not
// seats).
func (m *Match) play(seat engine.PlayerID, cmd Command) error {
	draws, scripted := m.Engine.RNG.Draws(), len(m.State.Dice)
	err := m.act(seat, cmd)
	if engine.IsRejected(err) {
		return err
	}
	// A move, a dash, a dodge, the end of a turn or a reaction let pass
	// may be taken back if nothing it set off rolled a die (a saving
	// throw, an opportunity attack taken) and the fight goes on; an
	// attack or a shove never may.
	m.undoable = err == nil && cmd.Do != "attack" && cmd.Do != "shove" && (cmd.Take == nil || !*cmd.Take) &&
		m.Engine.RNG.Draws() == draws && len(m.State.Dice) == scripted && !m.State.Over
	return err
}

// Undoable reports whether the last command may be taken back
// (game.Undoer): see play.
func (m *Match) Undoable() bool { return m.undoable }

// act plays a command (see play).
func (m *Match) act(seat engine.PlayerID, cmd Command) error {
	if d, ok := m.reaction(); ok {
		return m.answer(seat, d, cmd)
	}
	if cmd.Do == "reaction" {
		return engine.Rejectf("no reaction is asked now")
	}
	call, side, err := m.command(cmd, seat)
	if err != nil {
		return err
	}
	if err := m.Engine.Run(side, call); err != nil {
		return err
	}
	return m.settle()
}

// reaction returns the reaction the match waits for, if it does.
func (m *Match) reaction() (engine.Decision, bool) {
	if m.Engine.IsWaiting() {
		for p := range len(m.def.Sides) {
			if d, ok := m.Engine.WaitingFor(engine.PlayerID(p)); ok {
				return d, true
			}
		}
	}
	return engine.Decision{}, false
}

// answer answers the reaction the match waits for with a reaction
// command; the move it interrupted then goes on.
func (m *Match) answer(seat engine.PlayerID, d engine.Decision, cmd Command) error {
	key, who := "", "the creature"
	if r := m.reactor(); r != nil {
		key, who = r.Key, r.Name
	}
	switch {
	case cmd.Do != "reaction":
		return engine.Rejectf("waiting for %s to decide whether %s attacks: answer with {do: reaction, take: true or false}", m.sideLabel(d.Player), who)
	case seat != engine.NoPlayer && seat != d.Player:
		return engine.Rejectf("the reaction is %s's to decide, not %s's", m.sideLabel(d.Player), m.sideLabel(seat))
	case cmd.Take == nil:
		return engine.Rejectf("say whether %s takes the reaction: take: true or take: false", who)
	case cmd.Who != "" && cmd.Who != key:
		return engine.Rejectf("the reaction is %s's, not %s's", who, cmd.Who)
	}
	choice := 0
	if !*cmd.Take {
		choice = 1
	}
	if err := m.Engine.Answer(engine.Input{Player: d.Player, Kind: ReactionKind, Choice: choice}); err != nil {
		return err
	}
	return m.settle()
}

// reactor returns the combatant whose reaction the match waits for (the
// reactor of the trigger that asked), or nil.
func (m *Match) reactor() *Combatant {
	if !m.Engine.IsWaiting() {
		return nil
	}
	for _, r := range slices.Backward(m.Engine.Records()) {
		if r.Kind == engine.RecAsk {
			if t := m.Engine.Index.Get(r.Trigger); t != nil {
				return m.State.Fighter(t.Reactor)
			}
			break
		}
	}
	return nil
}

// settle ends the turns of combatants that are down, once the chain is
// over.
func (m *Match) settle() error {
	for g := m.State; !m.Engine.IsWaiting() && !g.Over && g.Current() != nil && !g.Current().Alive; {
		if err := m.Engine.Run(engine.NoPlayer, g.p.fx.endTurn.Call(engine.System)); err != nil {
			return err
		}
	}
	return nil
}

// answerReactions answers every reaction the match waits for as the
// pack's bot does (it takes them), until the match waits for a command.
// Scenario files rely on it for the reactions they do not script.
func (m *Match) answerReactions() error {
	for {
		d, ok := m.reaction()
		if !ok {
			return nil
		}
		if err := m.play(d.Player, botReaction); err != nil {
			return err
		}
	}
}

func (m *Match) fighter(key, role string) (*Combatant, error) {
	g := m.State
	if key == "" {
		if role == "who" {
			if f := g.Current(); f != nil {
				return f, nil
			}
		}
		return nil, engine.Rejectf("name the %s", role)
	}
	if f := g.ByKey(key); f != nil {
		return f, nil
	}
	return nil, engine.Rejectf("no combatant %q%s", key, diag.DidYouMean(key, g.Keys()))
}

// command turns a Command into the effect that plays it and the seat that
// plays it. With NoPlayer for the seat, the seat is the side of the
// combatant that acts.
func (m *Match) command(cmd Command, seat engine.PlayerID) (engine.EffectCall, engine.PlayerID, error) {
	g := m.State
	var none engine.EffectCall
	if cmd.Do == "rest" {
		return g.p.fx.longRest.Call(struct{}{}), seat, g.mayRest()
	}
	if !slices.Contains(Commands, cmd.Do) {
		return none, 0, engine.Rejectf("no command %q%s", cmd.Do, diag.DidYouMean(cmd.Do, Commands))
	}
	if g.Over {
		return none, 0, engine.Rejectf("the encounter is over")
	}
	if cmd.Who == "" && seat != engine.NoPlayer {
		if cur := g.Current(); cur != nil && cur.Side != seat {
			return none, 0, engine.Rejectf("it is %s's turn (%s), not %s's", cur.Name, m.sideLabel(cur.Side), m.sideLabel(seat))
		}
	}
	f, err := m.fighter(cmd.Who, "who")
	if err != nil {
		return none, 0, err
	}
	if seat == engine.NoPlayer {
		seat = f.Side
	}
	if cmd.Do == "end" {
		return g.p.fx.endTurn.Call(f.ID), seat, g.mayEnd(f.ID, seat)
	}
	a := actArgs{Action: cmd.Do, Actor: f.ID, Weapon: cmd.Weapon, Path: cmd.Path}
	def := g.p.actionNamed(cmd.Do)
	if def.Target {
		t, err := m.fighter(cmd.Target, "target")
		if err != nil {
			return none, 0, err
		}
		a.Target = t.ID
		if def.Weapon && a.Weapon == "" {
			a.Weapon = bestWeapon(f, t)
		}
	}
	if def == g.p.actions.move && a.Path == nil {
		if cmd.To == nil {
			return none, 0, engine.Rejectf("say where to move: to [x, y] or a path")
		}
		a.Path = g.pathFor(f, *cmd.To)
		if a.Path == nil {
			return none, 0, engine.Rejectf("%s finds no way there", f.Name)
		}
	}
	if _, err := g.prepare(a, seat); err != nil {
		return none, 0, err
	}
	return g.p.fx.act.Call(a), seat, nil
}

// pathFor returns a shortest path for a combatant around walls and other
// creatures, or nil.
func (g *State) pathFor(f *Combatant, to Cell) []Cell {
	return g.Def.Grid.Path(f.Pos, to, func(c Cell) bool { o := g.At(c); return o != nil && o != f })
}

// bestWeapon picks the first weapon that reaches the target without
// disadvantage, else the first that reaches it, else the first.
func bestWeapon(f, t *Combatant) string {
	d := Distance(f.Pos, t.Pos)
	fallback := ""
	for _, w := range f.Creature.Weapons {
		switch {
		case !w.Ranged && d <= w.Reach, w.Ranged && d <= w.Normal:
			return w.Name
		case w.Ranged && d <= w.Long && fallback == "":
			fallback = w.Name
		}
	}
	if fallback == "" && len(f.Creature.Weapons) > 0 {
		fallback = f.Creature.Weapons[0].Name
	}
	return fallback
}

// Waiting returns the seat the match waits for: the side asked for a
// reaction, else the side of the combatant whose turn it is; none once the
// fight is over.
func (m *Match) Waiting() []int {
	g := m.State
	if g.Over || m.Engine.Err() != nil {
		return nil
	}
	if d, ok := m.reaction(); ok {
		return []int{int(d.Player)}
	}
	if cur := g.Current(); cur != nil {
		return []int{int(cur.Side)}
	}
	return nil
}

// TimeLimit gives a side asked for a reaction ReactionLimit to answer
// (game.Timed); its turns have no limit of their own.
func (m *Match) TimeLimit(seat int) time.Duration {
	if d, ok := m.reaction(); ok && int(d.Player) == seat && !m.State.Over {
		return ReactionLimit
	}
	return 0
}

// LogLen is the number of records in the match's log.
func (m *Match) LogLen() int { return len(m.Engine.Records()) }

// Hash is the state hash.
func (m *Match) Hash() string { return m.Engine.Hash() }

// Outcome says whether the fight is over, which side won (none in a
// draw), how and after how many rounds.
func (m *Match) Outcome() game.Outcome {
	g := m.State
	o := game.Outcome{Over: g.Over, Winners: []int{}, Rounds: g.Round}
	if g.MaxRounds > 0 && o.Rounds > g.MaxRounds {
		o.Rounds = g.MaxRounds
	}
	if !g.Over {
		return o
	}
	o.Reason = g.Reason
	if g.Winner != engine.NoPlayer {
		o.Winners = append(o.Winners, int(g.Winner))
		o.Reason = m.sideLabel(g.Winner) + " are the last standing"
	}
	return o
}

// Standings rank the sides (game.Ranker): the winner first, then by the
// creatures still standing and their hit points; with the damage each
// side dealt and the creatures it knocked out.
func (m *Match) Standings() game.Standings {
	g := m.State
	type side struct{ standing, total, hp, maxHP, dealt, downed int }
	sides := make([]side, len(m.def.Sides))
	for _, f := range g.Fighters {
		s := &sides[f.Side]
		s.total++
		s.maxHP += f.MaxHP.Score()
		s.dealt += f.Dealt
		s.downed += f.KnockOuts
		if f.Alive {
			s.standing++
			s.hp += f.HP
		}
	}
	won := func(i int) int {
		if g.Over && int(g.Winner) == i {
			return 1
		}
		return 0
	}
	st := game.Rank(len(sides), func(a, b int) int {
		if d := won(b) - won(a); d != 0 {
			return d
		}
		if d := sides[b].standing - sides[a].standing; d != 0 {
			return d
		}
		return sides[b].hp - sides[a].hp
	}, func(i int) []string {
		s := sides[i]
		return []string{fmt.Sprintf("%d of %d", s.standing, s.total), fmt.Sprintf("%d of %d", s.hp, s.maxHP),
			strconv.Itoa(s.dealt), strconv.Itoa(s.downed)}
	}, func(i int) string { return m.def.Sides[i] })
	st.Figures = []string{"creatures standing", "hit points left", "damage dealt", "enemies downed"}
	return st
}

// Tally counts, per combatant, the attacks it made, the damage it dealt
// and the creatures it took out (game.Tallier).
func (m *Match) Tally() []game.Tally {
	out := make([]game.Tally, 0, len(m.State.Fighters))
	for _, f := range m.State.Fighters {
		out = append(out, game.Tally{Name: f.Key, Kind: "character", Seat: int(f.Side),
			Firings: f.Attacks, Damage: f.Dealt, Kills: f.KnockOuts})
	}
	return out
}

// sideLabel names a side for players: its name, and who plays it when
// that is someone else ("goblins (Bob)").
func (m *Match) sideLabel(p engine.PlayerID) string {
	if p < 0 || int(p) >= len(m.def.Sides) {
		return "nobody"
	}
	side := m.def.Sides[p]
	if name := m.Engine.PlayerName(p); name != side {
		return side + " (" + name + ")"
	}
	return side
}

// joinAnd lists names as "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// commandJSON encodes a command as Apply takes it.
func commandJSON(c Command) json.RawMessage {
	b, err := json.Marshal(c)
	if err != nil {
		panic(fmt.Sprintf("skirmish: encoding a command: %v", err)) // a Command always encodes
	}
	return b
}
