package lanes

import (
	"fmt"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// The log of a lanes match is the engine's: every event, and a record per
// trigger firing, blocked pair and skipped reaction, each with its chain
// and depth. Log tells it in players' words with what a page needs to
// animate a cascade; trace is the list of firings scenarios compare.

// trace renders the firing records from index from on as
// "Reactor←Source@depth", "BLOCKED Reactor←Source" and
// "SKIPPED Reactor (why)".
func (m *Match) trace(from int) []string {
	var out []string
	recs := m.e.Records()
	for i := from; i < len(recs); i++ {
		r := &recs[i]
		switch r.Kind {
		case engine.RecFired:
			out = append(out, fmt.Sprintf("%s←%s@%d", m.e.EntityName(r.Reactor), m.e.EntityName(r.Source), r.Depth))
		case engine.RecBlocked:
			out = append(out, fmt.Sprintf("BLOCKED %s←%s", m.e.EntityName(r.Reactor), m.e.EntityName(r.Source)))
		case engine.RecSkipped:
			out = append(out, fmt.Sprintf("SKIPPED %s (%s)", m.e.EntityName(r.Reactor), r.Text))
		}
	}
	return out
}

// Log returns the readable log from record from on. Nothing in it is
// secret (draws are counted, never named; deck order is never told), so
// every viewer, spectators included, reads the same entries.
//
// An entry's Subject is the drone (by its label, as the view names it) or
// the card that acts or reacts, Target the drone or ship section (by its
// name) it affects, Amount the damage, energy, cards or hull, At the lane
// ("lane 2"), Seat the player the event concerns. Data says more where the
// page needs it: whose board Subject and Target are on, where a move came
// from, how damage split between shields and hull, and for a firing the
// ability.
func (m *Match) Log(viewer, from int) []game.Entry {
	return engine.Transcribe(m.e, from, func(i int, r engine.Record) (game.Entry, bool) {
		return m.entry(i, &r), true
	})
}

// EntryData is the Data of a log entry.
type EntryData struct {
	// SubjectSeat and TargetSeat are the seats whose board (or ship)
	// Subject and Target are on; absent when they name no drone or
	// section.
	SubjectSeat *int `json:"subjectSeat,omitempty"`
	TargetSeat  *int `json:"targetSeat,omitempty"`
	// From is the lane a drone moved from.
	From int `json:"from,omitempty"`
	// Shields and Hull are how much of a damage the shields and the hull
	// took.
	Shields int `json:"shields,omitempty"`
	Hull    int `json:"hull,omitempty"`
	// Ability, Trigger and Description are a firing's ability, its trigger
	// type and what it does.
	Ability     string `json:"ability,omitempty"`
	Trigger     string `json:"trigger,omitempty"`
	Description string `json:"description,omitempty"`
}

// entry tells record i.
func (m *Match) entry(i int, r *engine.Record) game.Entry {
	e := game.Entry{Seq: i, Chain: int(r.Chain), Depth: int(r.Depth), Kind: r.Kind.String(), Seat: -1}
	var d EntryData
	switch r.Kind {
	case engine.RecEvent:
		ev := &m.e.Events[r.Event]
		m.eventEntry(&e, &d, ev)
	case engine.RecFired, engine.RecBlocked, engine.RecSkipped:
		a := m.ability(r.Trigger)
		e.Subject, d.SubjectSeat = m.entityName(r.Reactor)
		if r.Event != engine.NoEvent {
			ev := &m.e.Events[r.Event]
			e.Type = m.e.Rules.Types.Name(ev.Type)
			if ev.Location != engine.NoLocation {
				e.At = "lane " + itoa(int(ev.Location))
			}
		}
		if dr := m.s.Drone(r.Reactor); dr != nil {
			e.Seat = int(dr.Owner)
			if e.At == "" {
				e.At = "lane " + itoa(dr.Lane)
			}
		}
		d.Ability, d.Trigger, d.Description = a.Ability, a.Trigger, a.Description
		switch r.Kind {
		case engine.RecFired:
			e.Text = fmt.Sprintf("⚡ %s: %s — %s", m.e.EntityName(r.Reactor), a.Ability, a.Description)
			if t := m.e.Index.Get(r.Trigger); t != nil {
				e.Target, d.TargetSeat, e.Amount = m.affected(t.Def, r)
			}
			e.Detail = fmt.Sprintf("trigger %q fired on %s (source %s, depth %d)", m.e.TriggerName(r.Trigger), e.Type, m.e.EntityName(r.Source), r.Depth)
		case engine.RecBlocked:
			e.Target, d.TargetSeat = m.entityName(r.Source)
			e.Text = fmt.Sprintf("✗ %s does not react to %s again in this chain", m.e.EntityName(r.Reactor), m.e.EntityName(r.Source))
			e.Detail = fmt.Sprintf("trigger %q blocked: the pair (%s, %s) has fired in this chain", m.e.TriggerName(r.Trigger), m.e.EntityName(r.Reactor), m.e.EntityName(r.Source))
		default:
			e.Text = fmt.Sprintf("✗ %s does not react: %s", m.e.EntityName(r.Reactor), r.Text)
			e.Detail = fmt.Sprintf("trigger %q skipped: %s", m.e.TriggerName(r.Trigger), r.Text)
		}
	case engine.RecNote, engine.RecError:
		e.Text, e.Detail = r.Text, r.Text
	default:
		e.Detail = r.Text
	}
	if d != (EntryData{}) {
		e.Data = &d
	}
	return e
}

// entityName names a drone by its label and a section by its name, with
// the seat whose board or ship it is on.
func (m *Match) entityName(id engine.EntityID) (string, *int) {
	if p, lane, ok := m.s.section(id); ok {
		seat := int(p)
		return m.s.Players[p].Sections[lane-1].Def.Name, &seat
	}
	if d := m.s.Drone(id); d != nil {
		seat := int(d.Owner)
		return d.Label, &seat
	}
	return "", nil
}

// affected returns whom a firing affects and by how much, as far as its
// first effect says: the drone that set it off, the reactor itself, or
// nobody in particular (the enemies in a lane, the player).
func (m *Match) affected(t *engine.Trigger, r *engine.Record) (string, *int, int) {
	if len(t.Effects) == 0 {
		return "", nil, 0
	}
	call := t.Effects[0]
	times := 1
	if rep, ok := call.Args.(repeatArgs); ok && len(rep.Calls) > 0 {
		call = rep.Calls[0]
		if r.Event != engine.NoEvent {
			times = m.e.Events[r.Event].Amount / rep.Divisor
		}
	}
	var scope string
	amount := 0
	switch a := call.Args.(type) {
	case valueScopeArgs:
		scope, amount = a.Scope, a.Value
	case valueArgs:
		amount = a.Value
	case scopeArgs:
		scope = a.Scope
	case modifyArgs:
		scope, amount = a.Scope, a.Mod.Value
	}
	amount *= times
	switch scope {
	case "SELF":
		name, seat := m.entityName(r.Reactor)
		return name, seat, amount
	case "TRIGGERING_DRONE":
		if r.Event != engine.NoEvent {
			name, seat := m.entityName(m.e.Events[r.Event].Subject)
			return name, seat, amount
		}
	}
	return "", nil, amount
}

// eventEntry tells an event.
func (m *Match) eventEntry(e *game.Entry, d *EntryData, ev *engine.Event) {
	e.Type = m.e.Rules.Types.Name(ev.Type)
	e.Seat = int(ev.Player)
	if ev.Player == engine.NoPlayer {
		e.Seat = -1
	}
	if ev.Location != engine.NoLocation {
		e.At = "lane " + itoa(int(ev.Location))
	}
	e.Text = m.eventText(ev)
	e.Detail = fmt.Sprintf("%s: subject %s, source %s, player %s, actor %s, amount %d",
		e.Type, m.e.EntityName(ev.Subject), m.e.EntityName(ev.Source), m.e.PlayerName(ev.Player), m.e.PlayerName(ev.Actor), ev.Amount)
	subject := func() { e.Subject, d.SubjectSeat = m.entityName(ev.Subject) }
	// The drone that acted on the event's drone, if another did (a mine
	// that destroys itself is only the target).
	source := func() {
		if ev.Source != engine.System && ev.Source != ev.Subject {
			e.Subject, d.SubjectSeat = m.entityName(ev.Source)
		}
	}
	switch ev.Type {
	case evDeploy, evTokenCreated, evRoundStart, evLaneDeploy, evLaneIn, evLaneOut, evExhausted, evMarked:
		subject()
		if ev.Type == evDeploy {
			e.Amount = ev.Amount
		}
	case evMove:
		subject()
		d.From = ev.Amount
	case evLaneAttack:
		subject()
		e.Target, d.TargetSeat = m.entityName(ev.Target)
	case evAttack:
		subject()
		e.Target, d.TargetSeat = m.entityName(ev.Target)
		e.Amount = ev.Amount
	case evDamaged, evDestroyed, evHealed, evStatChanged:
		source()
		e.Target, d.TargetSeat = m.entityName(ev.Subject)
		e.Amount = ev.Amount
		if di, ok := ev.Data.(*damageInfo); ok {
			d.Shields, d.Hull = di.Shields, di.Hull
		}
	case evCardDrawn, evEnergyGained:
		source()
		if ev.Subject != engine.System {
			subject()
		}
		e.Amount = ev.Amount
	case evThreat:
		e.Amount = ev.Amount
	case evCardPlayed, evCardPlay:
		if card, ok := ev.Data.(*CardDef); ok {
			e.Subject = card.key
		}
		if ev.Target != engine.System {
			e.Target, d.TargetSeat = m.entityName(ev.Target)
		}
		if ev.Type == evCardPlayed {
			e.Amount = ev.Amount
		}
	case evRoundBegan:
		e.Amount = ev.Amount
	default:
		if ev.Subject != engine.System {
			subject()
		}
		e.Amount = ev.Amount
	}
}

// textLines are the texts of the log from record from on, for scenarios'
// log expectations.
func (m *Match) textLines(from int) []string {
	var out []string
	for _, e := range m.Log(game.Spectator, from) {
		if e.Text != "" {
			out = append(out, e.Text)
		}
	}
	return out
}

func (m *Match) ability(id engine.TriggerID) *abilityInfo {
	if t := m.e.Index.Get(id); t != nil {
		if a, ok := t.Def.Data.(*abilityInfo); ok {
			return a
		}
	}
	return &abilityInfo{Ability: m.e.TriggerName(id)}
}

// eventText says what an event means, or "" for events that only repeat
// another (ON_LANE_MOVEMENT_IN after ON_MOVE).
func (m *Match) eventText(ev *engine.Event) string {
	name := m.e.EntityName
	player := m.e.PlayerName(ev.Player)
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
			txt += ", moved by " + m.e.PlayerName(ev.Actor)
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
