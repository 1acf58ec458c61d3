package skirmish

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// trace renders the log from record from on in the engine's words, one
// line per event, trigger firing, cancellation and note: what scenario
// files expect in their traces, and the Detail of the entries of Log.
func (m *Match) trace(from int) []string {
	return engine.Transcribe(m.Engine, from, func(_ int, r engine.Record) (string, bool) {
		s := m.line(&r)
		return s, s != ""
	})
}

func (m *Match) line(r *engine.Record) string {
	switch r.Kind {
	case engine.RecEvent:
		return m.eventLine(&m.Engine.Events[r.Event])
	case engine.RecFired:
		return "fired " + m.Engine.TriggerName(r.Trigger) + " (" + m.Engine.EntityName(r.Reactor) + ")"
	case engine.RecSkipped:
		return "skipped " + m.Engine.TriggerName(r.Trigger) + " (" + m.Engine.EntityName(r.Reactor) + "): " + r.Text
	case engine.RecCancelled:
		ev := &m.Engine.Events[r.Event]
		why := ""
		switch d := ev.Data.(type) {
		case *Act:
			why = d.Reason
		case *Step:
			why = d.Reason
		}
		if why == "" && r.Trigger != engine.NoTrigger {
			why = "by " + m.Engine.TriggerName(r.Trigger)
		}
		return "cancelled " + m.head(ev) + ": " + why
	case engine.RecNote:
		return "note: " + r.Text
	case engine.RecError:
		return "error: " + r.Text
	}
	return ""
}

// head is an event's type and phase, and who does what to whom.
func (m *Match) head(ev *engine.Event) string {
	var b strings.Builder
	b.WriteString(m.def.p.types.Name(ev.Type))
	if ev.Phase != engine.NoPhase {
		b.WriteByte('/')
		b.WriteString(ev.Phase.String())
	}
	if ev.Subject != engine.System {
		b.WriteByte(' ')
		b.WriteString(m.Engine.EntityName(ev.Subject))
	}
	if ev.Target != engine.System {
		b.WriteString(" → ")
		b.WriteString(m.Engine.EntityName(ev.Target))
	}
	return b.String()
}

func (m *Match) eventLine(ev *engine.Event) string {
	head := m.head(ev)
	detail := ""
	switch d := ev.Data.(type) {
	case *Act:
		detail = actDetail(ev.Phase, d)
	case *Step:
		detail = d.From.String() + "→" + d.To.String()
		if ev.Type == m.def.p.ev.forced {
			detail += " pushed by " + m.Engine.EntityName(ev.Source)
		}
	case *Damage:
		var parts []string
		for _, p := range d.Parts {
			s := fmt.Sprintf("%d %s", p.Rolled, p.Type)
			if p.Status != "" {
				s += fmt.Sprintf(" (%s: %d)", p.Status, p.Taken)
			}
			parts = append(parts, s)
		}
		detail = fmt.Sprintf("%d from %s [%s]", ev.Amount, m.Engine.EntityName(ev.Source), strings.Join(parts, ", "))
		if d.Reduced > 0 {
			detail += fmt.Sprintf(", %d reduced", d.Reduced)
		}
		if d.Absorbed > 0 {
			detail += fmt.Sprintf(", %d absorbed", d.Absorbed)
		}
		detail += fmt.Sprintf(", %d HP left", d.HP)
	case status.Change:
		detail = d.Status
		if d.Stacks > 0 {
			detail += " " + strconv.Itoa(d.Stacks)
		}
		if d.Reason != "" {
			detail += " (" + d.Reason + ")"
		}
	case *Save:
		verdict := "fails"
		if d.Success {
			verdict = "succeeds"
		}
		detail = fmt.Sprintf("%s save against %s: %s = %d vs DC %d, %s", d.Ability, d.Condition, rollText(d.D20, d.Total-d.Natural), d.Total, d.DC, verdict)
	case D20:
		detail = fmt.Sprintf("%s = %d", rollText(d, ev.Amount-d.Natural), ev.Amount)
	case string:
		detail = d
	}
	switch ev.Type {
	case m.def.p.ev.roundStart:
		detail = strconv.Itoa(ev.Amount)
	case m.def.p.ev.encounterEnd:
		who := "draw"
		if ev.Player != engine.NoPlayer {
			who = m.def.Sides[ev.Player] + " win"
		}
		detail = who + ": " + detail
	}
	if detail == "" {
		return head
	}
	return head + ": " + detail
}

// rollText renders a d20 and its bonus: "15+4", or "adv 15/3+4".
func rollText(r D20, bonus int) string {
	s := strconv.Itoa(r.Natural)
	if len(r.Dice) == 2 {
		tag := "adv"
		if r.Advantage == "DISADVANTAGE" {
			tag = "dis"
		}
		s = fmt.Sprintf("%s %d/%d", tag, r.Dice[0], r.Dice[1])
	}
	if bonus >= 0 {
		return s + "+" + strconv.Itoa(bonus)
	}
	return s + strconv.Itoa(bonus)
}

func actDetail(ph engine.Phase, a *Act) string {
	var parts []string
	if a.Weapon != "" && ph == engine.Declaration {
		parts = append(parts, a.Weapon)
	}
	if a.Opportunity && ph == engine.Declaration {
		parts = append(parts, "opportunity attack")
	}
	if len(a.Path) > 0 && ph == engine.Declaration {
		parts = append(parts, "to "+a.Path[len(a.Path)-1].String())
	}
	if r := a.Roll; r != nil && ph >= engine.EffectPhase {
		s := fmt.Sprintf("%s = %d vs AC %d: %s", rollText(r.D20, r.Bonus), r.Total, r.AC, r.Outcome)
		if r.AutoHit != "" {
			s += " (" + r.AutoHit + ")"
		}
		parts = append(parts, s)
	}
	if len(a.Damage) > 0 && ph == engine.EffectPhase {
		var ds []string
		for _, d := range a.Damage {
			ds = append(ds, fmt.Sprintf("%s%+d %v = %d %s", d.Dice, d.Bonus, d.Rolls, d.Total, d.Type))
		}
		parts = append(parts, strings.Join(ds, " + "))
	}
	if ph == engine.Completion && a.Dealt > 0 {
		parts = append(parts, fmt.Sprintf("%d damage", a.Dealt))
	}
	if c := a.Contest; c != nil && ph >= engine.EffectPhase {
		verdict := "fails"
		if c.Won {
			verdict = "wins"
		}
		parts = append(parts, fmt.Sprintf("athletics %s = %d vs %s %s = %d: %s", rollText(c.Attacker, c.AttackerTotal-c.Attacker.Natural),
			c.AttackerTotal, c.DefenderSkill, rollText(c.Defender, c.DefenderTotal-c.Defender.Natural), c.DefenderTotal, verdict))
	}
	if a.Pushed != nil && ph == engine.Completion {
		parts = append(parts, "pushed to "+a.Pushed.String())
	}
	if a.End != nil && ph == engine.Completion {
		s := "ends on " + a.End.String()
		if a.Partial {
			s = "stops on " + a.End.String()
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
