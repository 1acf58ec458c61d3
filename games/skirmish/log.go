package skirmish

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// RollData is a d20 roll as the log's entries tell it, for a page to show
// what it was made of.
type RollData struct {
	// Kind is attack, save, initiative or check (a shove's contest); For
	// says what for ("shortbow", "save against cursed", "athletics").
	Kind string `json:"kind"`
	For  string `json:"for,omitempty"`
	// Dice are the d20s rolled: one, or two with advantage or
	// disadvantage; Kept is the one that counts.
	Dice      []int  `json:"dice"`
	Kept      int    `json:"kept"`
	Advantage string `json:"advantage,omitempty"`
	// Modifiers are the terms of the bonus and what changed how the die
	// was rolled, each with its source and, for a modifier of a value,
	// its channel.
	Modifiers []Term `json:"modifiers"`
	Bonus     int    `json:"bonus"`
	Total     int    `json:"total"`
	// Against is the number to reach (the armour class, the DC, the other
	// side's total), and AgainstWhat says which: ac, dc or contest; none
	// for initiative.
	Against     int    `json:"against,omitempty"`
	AgainstWhat string `json:"againstWhat,omitempty"`
	// Result is hit, critical hit, miss, critical miss, success, failure,
	// win or loss ("" for initiative).
	Result string `json:"result,omitempty"`
}

// DamageData is one component of a hit's damage, as rolled and as taken.
type DamageData struct {
	Dice  string `json:"dice"`
	Rolls []int  `json:"rolls"`
	// Bonus is what was added to the dice, term by term in Modifiers.
	Bonus     int    `json:"bonus"`
	Modifiers []Term `json:"modifiers"`
	Rolled    int    `json:"rolled"`
	Type      string `json:"type"`
	// Resistance is the target's resistance, immunity or vulnerability
	// to the type, if any; Taken what the component came to.
	Resistance string `json:"resistance,omitempty"`
	Taken      int    `json:"taken"`
}

// AttackData is the Data of an attack's entry.
type AttackData struct {
	Weapon      string       `json:"weapon"`
	Opportunity bool         `json:"opportunity,omitempty"`
	Roll        RollData     `json:"roll"`
	Damage      []DamageData `json:"damage,omitempty"`
	// Reduced is what damage reduction took off, Absorbed what temporary
	// hit points took; Dealt the damage dealt and HPLeft the target's hit
	// points after it (on a hit).
	Reduced  int  `json:"reduced,omitempty"`
	Absorbed int  `json:"absorbed,omitempty"`
	Dealt    int  `json:"dealt"`
	HPLeft   *int `json:"hpLeft,omitempty"`
}

// ShoveData is the Data of a shove's entry: both sides' checks.
type ShoveData struct {
	Shover   RollData `json:"shover"`
	Defender RollData `json:"defender"`
	Won      bool     `json:"won"`
	// Pushed is where the target was pushed to, if it was.
	Pushed *Cell `json:"pushed,omitempty"`
}

// Log returns the readable log from record from on. A skirmish hides
// nothing, so every viewer reads the same log. Each entry tells its record
// in players' words (Text; "" for what players need not read: the phases
// of an action before its completion, the steps of a move, trigger
// firings), and in the engine's (Detail, the scenario trace's line).
// Texts come in the order things happened (see blowBeforeEnd).
func (m *Match) Log(viewer, from int) []game.Entry {
	return m.blowBeforeEnd(engine.Transcribe(m.Engine, from, func(i int, r engine.Record) (game.Entry, bool) {
		e := game.Entry{Seq: i, Chain: int(r.Chain), Depth: int(r.Depth), Kind: r.Kind.String(), Seat: -1, Detail: m.line(&r)}
		switch r.Kind {
		case engine.RecEvent:
			m.tell(&e, &m.Engine.Events[r.Event])
		case engine.RecAsk:
			e.Seat, e.Detail = int(r.Player), r.Text
			e.Text = fmt.Sprintf("%s: %s may react", strings.TrimPrefix(r.Text, ReactionKind+": "), m.sideLabel(r.Player))
		case engine.RecAnswer:
			e.Seat, e.Detail = int(r.Player), fmt.Sprintf("answer: %s chooses %d", m.sideLabel(r.Player), r.Choice)
			e.Text = m.sideLabel(r.Player) + " let it go"
			if r.Choice == 0 {
				e.Text = m.sideLabel(r.Player) + " take the opportunity attack"
			}
		case engine.RecCancelled:
			e.Text = m.cancelText(&m.Engine.Events[r.Event])
		case engine.RecFired, engine.RecBlocked, engine.RecSkipped:
			if f := m.State.bearer(r.Reactor); f != nil {
				e.Subject, e.Seat = f.Key, int(f.Side)
			}
		case engine.RecNote:
			e.Text = capital(r.Text)
		case engine.RecError:
			e.Text = "The match stopped on an error: " + r.Text
		}
		return e, true
	}))
}

// blowBeforeEnd tells the action that ended the fight before the end. The
// engine ends the fight as soon as the last creature of a side goes down,
// while the blow that felled it is still being resolved; an action is told
// at its completion, which then comes after the end. So an action whose
// completion follows the end in its chain is told at the entry of its
// effect, where the blow landed: players read the blow, then the end.
// Entries keep the order of their records.
func (m *Match) blowBeforeEnd(log []game.Entry) []game.Entry {
	end := slices.IndexFunc(log, func(e game.Entry) bool {
		return e.Kind == engine.RecEvent.String() && e.Type == m.def.p.types.Name(m.def.p.ev.encounterEnd)
	})
	if end < 0 {
		return log
	}
	chain := log[end].Chain
	for i := end + 1; i < len(log) && log[i].Chain == chain; i++ {
		done := &log[i]
		if done.Text == "" || m.phase(done.Seq) != engine.Completion {
			continue
		}
		for j := end - 1; j >= 0 && log[j].Chain == chain; j-- {
			blow := &log[j]
			if blow.Type == done.Type && blow.Subject == done.Subject && blow.Target == done.Target && m.phase(blow.Seq) == engine.EffectPhase {
				blow.Text, blow.Data, blow.Amount, blow.At = done.Text, done.Data, done.Amount, done.At
				done.Text, done.Data = "", nil
				break
			}
		}
	}
	return log
}

// phase is the phase of the event log record seq tells, if any.
func (m *Match) phase(seq int) engine.Phase {
	r := m.Engine.Records()[seq]
	if r.Kind != engine.RecEvent {
		return engine.NoPhase
	}
	return m.Engine.Events[r.Event].Phase
}

// bearer returns the combatant an entity is or belongs to: the combatant
// itself or the bearer of a condition still on it; nil otherwise.
func (g *State) bearer(id engine.EntityID) *Combatant {
	if f := g.Fighter(id); f != nil {
		return f
	}
	if s := g.book.Get(id); s != nil {
		return g.Fighter(s.Bearer)
	}
	return nil
}

// the names a creature for players: "Goblin 1".
func (m *Match) the(id engine.EntityID) string {
	if f := m.State.Fighter(id); f != nil {
		return f.Name
	}
	return m.Engine.EntityName(id)
}

// conditionTitle names a condition for players: its title ("Adaptive
// armour"), or a name made from its id.
func (g *State) conditionTitle(name string) string {
	if d := g.condition(name); d != nil && d.Title != "" {
		return d.Title
	}
	return game.Readable(name)
}

// sourceWords names where a term of a roll comes from for players: a
// condition by its title, anything else as the rules name it ("dex",
// "proficiency", "long range").
func (g *State) sourceWords(terms []Term) []Term {
	out := make([]Term, len(terms))
	for i, t := range terms {
		out[i] = t
		if d := g.condition(t.Source); d != nil && d.Title != "" {
			out[i].Source = d.Title
		}
	}
	return out
}

// capital starts a sentence.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tell fills in an event's entry: who, whom, where, how much, and the
// players' words.
func (m *Match) tell(e *game.Entry, ev *engine.Event) {
	g, p := m.State, m.def.p
	e.Type = p.types.Name(ev.Type)
	e.Seat = int(ev.Player)
	if f := g.Fighter(ev.Subject); f != nil {
		e.Subject = f.Key
	}
	if f := g.Fighter(ev.Target); f != nil {
		e.Target = f.Key
	}
	if c, ok := m.def.cell(ev.Location); ok {
		e.At = c.String()
	}
	e.Amount = ev.Amount
	who := capital(m.the(ev.Subject))
	switch d := ev.Data.(type) {
	case *Act:
		if ev.Phase != engine.Completion {
			return
		}
		m.tellAct(e, ev, d, who)
	case *Save:
		verdict := "fails its save"
		if d.Success {
			verdict = "saves"
		}
		e.Text = fmt.Sprintf("%s %s against %s (%d against DC %d)", who, verdict, g.conditionTitle(d.Condition), d.Total, d.DC)
		result := "failure"
		if d.Success {
			result = "success"
		}
		e.Data = g.rollData("save", d.Ability+" save against "+g.conditionTitle(d.Condition), d.D20, d.Total, d.DC, "dc", result)
	case D20:
		if ev.Type == p.ev.initiative {
			e.Text = fmt.Sprintf("%s rolls %d for initiative", who, ev.Amount)
			e.Data = g.rollData("initiative", "", d, ev.Amount, 0, "", "")
		}
	case *Damage:
		e.Data = d
	case status.Change:
		if d.Parent != engine.System || d.Reason == "died" {
			return // a part of another condition, or gone with its bearer: told with them
		}
		// Why a condition ended (its duration, a save, what its bearer
		// did) is the detail's: the log tells the save or the attack.
		// A condition is a named status a creature gains and loses, as
		// its badge on the board shows it.
		if ev.Type == p.ev.applied {
			e.Text = fmt.Sprintf("%s gains %s", who, g.conditionTitle(d.Status))
		} else {
			e.Text = fmt.Sprintf("%s loses %s", who, g.conditionTitle(d.Status))
		}
	}
	switch ev.Type {
	case p.ev.encounterStart:
		e.Text = "The fight begins: " + m.def.Name
	case p.ev.roundStart:
		e.Text = fmt.Sprintf("Round %d", ev.Amount)
	case p.ev.turnStart:
		e.Text = fmt.Sprintf("%s's turn: %s", who, m.sideLabel(ev.Player))
	case p.ev.death:
		if g.Fighter(ev.Source) == nil {
			e.Text = who + " goes down" // an attack tells the deaths it causes
		}
	case p.ev.rest:
		e.Text = fmt.Sprintf("%s takes a long rest: %d HP", who, ev.Amount)
	case p.ev.encounterEnd:
		if ev.Player == engine.NoPlayer {
			e.Text = "The fight is over, a draw: " + g.Reason
		} else {
			e.Text = "The fight is over: " + m.sideLabel(ev.Player) + " are the last standing"
		}
	}
}

// tellAct tells an action's completion.
func (m *Match) tellAct(e *game.Entry, ev *engine.Event, a *Act, who string) {
	whom := m.the(ev.Target)
	switch a.Action {
	case "attack":
		e.Amount = a.Dealt
		r := a.Roll
		verb := map[string]string{Hit: "hits", Crit: "critically hits", Miss: "misses", CritMiss: "critically misses"}[r.Outcome]
		e.Text = fmt.Sprintf("%s %s %s with the %s", who, verb, whom, a.Weapon)
		if a.Opportunity {
			e.Text += " (opportunity attack)"
		}
		if r.Hit() {
			e.Text += fmt.Sprintf(": %d damage", a.Dealt)
			if a.hit != nil && a.hit.HP == 0 {
				e.Text += ", and it goes down"
			}
		}
		result := map[string]string{Hit: "hit", Crit: "critical hit", Miss: "miss", CritMiss: "critical miss"}[r.Outcome]
		data := &AttackData{Weapon: a.Weapon, Opportunity: a.Opportunity, Dealt: a.Dealt,
			Roll: m.State.rollData("attack", a.Weapon, r.D20, r.Total, r.AC, "ac", result)}
		for i, d := range a.Damage {
			dd := DamageData{Dice: d.Dice, Rolls: d.Rolls, Bonus: d.Bonus, Modifiers: m.State.sourceWords(d.Modifiers), Rolled: d.Total, Type: d.Type, Taken: d.Total}
			if dd.Modifiers == nil {
				dd.Modifiers = []Term{}
			}
			if h := a.hit; h != nil && i < len(h.Parts) {
				dd.Resistance, dd.Taken = h.Parts[i].Status, h.Parts[i].Taken
			}
			data.Damage = append(data.Damage, dd)
		}
		if h := a.hit; h != nil {
			data.Reduced, data.Absorbed, data.HPLeft = h.Reduced, h.Absorbed, &h.HP
		}
		e.Data = data
	case "move":
		if a.End != nil {
			e.At = a.End.String()
			feet := (slices.Index(a.Path, *a.End) + 1) * SquareFeet
			e.Text = fmt.Sprintf("%s moves %d ft", who, feet)
			if a.Partial {
				e.Text = fmt.Sprintf("%s stops after %d ft", who, feet)
			}
		}
	case "shove":
		c := a.Contest
		if c == nil {
			return
		}
		data := &ShoveData{Won: c.Won, Pushed: a.Pushed,
			Shover:   m.State.rollData("check", "athletics", c.Attacker, c.AttackerTotal, c.DefenderTotal, "contest", winLoss(c.Won)),
			Defender: m.State.rollData("check", c.DefenderSkill, c.Defender, c.DefenderTotal, c.AttackerTotal, "contest", winLoss(!c.Won))}
		e.Data = data
		switch {
		case a.Pushed != nil:
			e.Text = fmt.Sprintf("%s shoves %s 5 ft back (%d against %d)", who, whom, c.AttackerTotal, c.DefenderTotal)
		case c.Won:
			e.Text = fmt.Sprintf("%s shoves %s, who does not budge (%d against %d)", who, whom, c.AttackerTotal, c.DefenderTotal)
		default:
			e.Text = fmt.Sprintf("%s fails to shove %s (%d against %d)", who, whom, c.AttackerTotal, c.DefenderTotal)
		}
	case "dash":
		e.Text = who + " dashes"
	case "disengage":
		e.Text = who + " disengages"
	case "dodge":
		e.Text = who + " dodges"
	}
}

func winLoss(won bool) string {
	if won {
		return "win"
	}
	return "loss"
}

// rollData tells a d20 roll: the dice, the terms of its bonus, the total
// against what it had to reach, and the result.
func (g *State) rollData(kind, what string, d D20, total, against int, againstWhat, result string) RollData {
	r := RollData{Kind: kind, For: what, Dice: d.Dice, Kept: d.Natural, Advantage: strings.ToLower(d.Advantage),
		Modifiers: g.sourceWords(d.Modifiers), Bonus: total - d.Natural, Total: total, Against: against, AgainstWhat: againstWhat, Result: result}
	if r.Modifiers == nil {
		r.Modifiers = []Term{}
	}
	return r
}

// cancelText tells why an action or a step was called off.
func (m *Match) cancelText(ev *engine.Event) string {
	who := m.the(ev.Subject)
	switch d := ev.Data.(type) {
	case *Act:
		what := who + "'s " + d.Action
		if d.Action == "move" {
			what = who + "'s move"
		}
		if ev.Target != engine.System {
			what += " on " + m.the(ev.Target)
		}
		if d.Reason == "" {
			return capital(what) + " is called off"
		}
		return capital(what) + " is called off: " + d.Reason
	case *Step:
		if d.Reason == "" {
			return capital(who) + " stops"
		}
		return capital(who) + " stops: " + d.Reason
	}
	return ""
}

// SharedLog reports that every viewer reads the same log: a skirmish
// hides nothing (game.SharedLog).
func (m *Match) SharedLog() bool { return true }
