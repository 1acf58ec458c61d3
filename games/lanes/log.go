package lanes

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// The log of a lanes match is the engine's: every event and a record per
// trigger firing, blocked pair and skipped reaction, each with its chain
// and depth. This file renders it three ways: a readable action log, the
// trace of firings that scenarios compare, and JSON lines with what a UI
// needs to animate a cascade (the drone, its ability, what it does).

// Trace renders the firing records from index from on as
// "Reactor←Source@depth", "BLOCKED Reactor←Source" and
// "SKIPPED Reactor (why)".
func (m *Match) Trace(from int) []string {
	var out []string
	recs := m.E.Records()
	for i := from; i < len(recs); i++ {
		r := &recs[i]
		switch r.Kind {
		case engine.RecFired:
			out = append(out, fmt.Sprintf("%s←%s@%d", m.E.EntityName(r.Reactor), m.E.EntityName(r.Source), r.Depth))
		case engine.RecBlocked:
			out = append(out, fmt.Sprintf("BLOCKED %s←%s", m.E.EntityName(r.Reactor), m.E.EntityName(r.Source)))
		case engine.RecSkipped:
			out = append(out, fmt.Sprintf("SKIPPED %s (%s)", m.E.EntityName(r.Reactor), r.Text))
		}
	}
	return out
}

// Readable renders the log from record index from on as lines of text,
// indented by chain depth: what happened, and each trigger that fired with
// what it does.
func (m *Match) Readable(from int) []string {
	return engine.Transcribe(m.E, from, func(i int, r engine.Record) (string, bool) {
		line := m.recordText(i)
		return strings.Repeat("  ", int(r.Depth)) + line, line != ""
	})
}

// recordText is the readable line of one record, or "" for records a
// reader does not need (the lane events that repeat a move).
func (m *Match) recordText(i int) string {
	r := &m.E.Records()[i]
	name := m.E.EntityName
	switch r.Kind {
	case engine.RecEvent:
		return m.eventText(&m.E.Events[r.Event])
	case engine.RecFired:
		a := m.ability(r.Trigger)
		return fmt.Sprintf("⚡ %s: %s — %s", name(r.Reactor), a.Ability, a.Description)
	case engine.RecBlocked:
		return fmt.Sprintf("✗ %s does not react to %s again in this chain", name(r.Reactor), name(r.Source))
	case engine.RecSkipped:
		return fmt.Sprintf("✗ %s does not react: %s", name(r.Reactor), r.Text)
	case engine.RecNote, engine.RecError:
		return r.Text
	}
	return ""
}

func (m *Match) ability(id engine.TriggerID) *abilityInfo {
	if t := m.E.Index.Get(id); t != nil {
		if a, ok := t.Def.Data.(*abilityInfo); ok {
			return a
		}
	}
	return &abilityInfo{Ability: m.E.TriggerName(id)}
}

// eventText says what an event means, or "" for events that only repeat
// another (ON_LANE_MOVEMENT_IN after ON_MOVE).
func (m *Match) eventText(ev *engine.Event) string {
	name := m.E.EntityName
	player := m.E.PlayerName(ev.Player)
	switch ev.Type {
	case evRoundBegan:
		return fmt.Sprintf("— Round %d: %s goes first —", ev.Amount, player)
	case evPhaseBegan:
		return fmt.Sprintf("— Action phase: %s acts first —", player)
	case evPassed:
		return player + " passes"
	case evDeploy:
		return fmt.Sprintf("%s deploys %s to lane %d", player, name(ev.Subject), ev.Location)
	case evMove:
		txt := fmt.Sprintf("%s moves from lane %d to lane %d", name(ev.Subject), ev.Amount, ev.Location)
		if ev.Actor != ev.Player && ev.Actor != engine.NoPlayer {
			txt += ", moved by " + m.E.PlayerName(ev.Actor)
		}
		return txt
	case evLaneAttack:
		return fmt.Sprintf("%s attacks %s in lane %d", name(ev.Subject), name(ev.Target), ev.Location)
	case evDamaged:
		di, _ := ev.Data.(*damageInfo)
		if di == nil {
			return fmt.Sprintf("%s takes %d damage", name(ev.Subject), ev.Amount)
		}
		return fmt.Sprintf("%s takes %d damage (%d to shields, %d to hull)", name(ev.Subject), ev.Amount, di.Shields, di.Hull)
	case evDestroyed:
		return name(ev.Subject) + " is destroyed"
	case evHealed:
		return fmt.Sprintf("%s repairs %d hull", name(ev.Subject), ev.Amount)
	case evStatChanged:
		sc, _ := ev.Data.(*statChange)
		if sc == nil {
			return ""
		}
		how := "permanently"
		if sc.Temporary {
			how = "this round"
		}
		return fmt.Sprintf("%s %+d %s %s", name(ev.Subject), ev.Amount, sc.Stat, how)
	case evExhausted:
		return name(ev.Subject) + " is exhausted"
	case evMarked:
		return name(ev.Subject) + " is marked"
	case evThreat:
		return fmt.Sprintf("%s's threat +%d", player, ev.Amount)
	case evGoAgain:
		return player + " goes again"
	case evGameOver:
		if ev.Player == engine.NoPlayer {
			return "The game ends in a draw"
		}
		return player + " wins"
	case evCardDrawn:
		return fmt.Sprintf("%s draws %s", player, plural(ev.Amount, "%d card", "%d cards"))
	case evEnergyGained:
		return fmt.Sprintf("%s gains %d energy", player, ev.Amount)
	case evTokenCreated:
		return fmt.Sprintf("%s is placed in lane %d on %s's board", name(ev.Subject), ev.Location, player)
	case evCardPlayed:
		card, _ := ev.Data.(*CardDef)
		if card == nil {
			return ""
		}
		txt := fmt.Sprintf("%s plays %s", player, card.Name)
		switch {
		case ev.Target != engine.System:
			txt += " on " + name(ev.Target)
		case ev.Location != engine.NoLocation:
			txt += fmt.Sprintf(" into lane %d", ev.Location)
		}
		return txt
	}
	return ""
}

// WriteJSONL writes the log from record index from on as JSON lines: the
// engine's records (events, and TRIGGER_FIRED records with chain and
// depth) with, for events, their readable "text", and for firings the
// "drone", "ability", "trigger", "description" and "lane" a UI shows when
// it animates the cascade.
func (m *Match) WriteJSONL(w io.Writer, from int) error {
	return m.E.WriteJSONLWith(w, from, func(b []byte, _ int, r *engine.Record) []byte {
		switch r.Kind {
		case engine.RecEvent:
			if txt := m.eventText(&m.E.Events[r.Event]); txt != "" {
				b = appendField(b, "text", txt)
			}
		case engine.RecFired, engine.RecBlocked, engine.RecSkipped:
			a := m.ability(r.Trigger)
			b = appendField(b, "drone", a.Drone)
			b = appendField(b, "ability", a.Ability)
			b = appendField(b, "triggerType", a.Trigger)
			b = appendField(b, "description", a.Description)
			if d := m.S.Drone(r.Reactor); d != nil {
				b = fmt.Appendf(b, `,"lane":%d,"board":%d`, d.Lane, d.Owner)
			}
			if r.Kind == engine.RecFired {
				b = appendField(b, "kindName", "TRIGGER_FIRED")
			}
		}
		return b
	})
}

func appendField(b []byte, name, value string) []byte {
	js, _ := json.Marshal(value)
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return append(b, js...)
}
