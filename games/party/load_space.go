package party

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
)

// shape holds the member names that differ between the v1 and v3 space
// formats.
type shape struct {
	visual    string // visualDetails (v1) or visual (v3)
	position  string // "" (v1: x and y are in visualDetails) or position (v3)
	events    string // events (v1) or triggers (v3)
	trigger   string // trigger (v1) or when (v3)
	draw      string // drawConnection (v1) or draw (v3)
	spaceKeys []string
	connKeys  []string
	eventKeys []string
	whenKeys  []string
}

var v1Shape = &shape{
	visual: "visualDetails", events: "events", trigger: "trigger", draw: "drawConnection",
	spaceKeys: []string{"id", "name", "type", "visualDetails", "connections", "events"},
	connKeys:  []string{"targetId", "drawConnection", "condition", "bidirectional"},
	eventKeys: []string{"trigger", "action", "priority", "state"},
	whenKeys:  []string{"type", "payload", "data"},
}

var v3Shape = &shape{
	visual: "visual", position: "position", events: "triggers", trigger: "when", draw: "draw",
	spaceKeys: []string{"id", "name", "type", "position", "visual", "properties", "connections", "triggers"},
	connKeys:  []string{"targetId", "draw", "condition", "weight"},
	eventKeys: []string{"when", "action", "priority", "state"},
	whenKeys:  []string{"type", "payload"},
}

// The most spaces, connections and events a board may have: each costs
// memory however briefly it is written.
const (
	maxSpaces      = 10_000
	maxConnections = 40_000
	maxEvents      = 20_000
)

// tooMany refuses, before the spaces are read, more spaces, connections
// and events than a board may have; it reports whether they are within
// bounds.
func tooMany(pt *part, ptr string, spaces []any) bool {
	conns, events := 0, 0
	for _, sv := range spaces {
		m, _ := sv.(map[string]any)
		c, _ := m["connections"].([]any)
		conns += len(c)
		for _, key := range []string{"events", "triggers"} {
			e, _ := m[key].([]any)
			events += len(e)
		}
	}
	ok := true
	for _, c := range []struct {
		n, most int
		what    string
	}{{len(spaces), maxSpaces, "spaces"}, {conns, maxConnections, "connections"}, {events, maxEvents, "events"}} {
		if c.n > c.most {
			pt.errorf(ptr, "a board has at most %d %s, not %d", c.most, c.what, c.n)
			ok = false
		}
	}
	return ok
}

// spaces reads the spaces array at ptr (the value itself is v).
func (p *parser) spaces(pt *part, v any, ptr string, sh *shape) []Space {
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			pt.errorf(ptr, "a board needs spaces: an array of at least one space")
		} else {
			pt.errorf(ptr, "must be an array of spaces, not %s", diag.JSONKind(v))
		}
		return nil
	}
	if len(list) == 0 {
		pt.errorf(ptr, "a board needs at least one space")
		return nil
	}
	if !tooMany(pt, ptr, list) {
		return nil
	}
	var out []Space
	seen := map[string]string{} // id → pointer of its first space
	for i, sv := range list {
		if pt.rep.Stopped() {
			return out
		}
		sp, ok := p.space(pt, sv, fmt.Sprintf("%s/%d", ptr, i), sh)
		if !ok {
			continue
		}
		if first, dup := seen[sp.ID]; dup {
			pt.errorf(sp.Pointer+"/id", "duplicate space id %q: %s has it too; every space needs its own id", sp.ID, first)
			continue
		}
		seen[sp.ID] = sp.Pointer
		out = append(out, sp)
	}
	return out
}

func (p *parser) space(pt *part, v any, ptr string, sh *shape) (Space, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr, "a space must be an object, not %s", diag.JSONKind(v))
		return Space{}, false
	}
	pt.checkKeys(m, ptr, "a space", sh.spaceKeys)
	sp := Space{Pointer: ptr}
	if idv, has := m["id"]; !has || idv == nil {
		pt.errorf(ptr+"/id", "a space needs an id (a string or a whole number)")
		return Space{}, false
	} else if sp.ID, ok = pt.spaceID(idv, ptr+"/id"); !ok {
		return Space{}, false
	}
	sp.Name, _ = pt.str(m, ptr, "name")
	sp.Type, _ = pt.str(m, ptr, "type")
	if vis, ok := pt.obj(m, ptr, sh.visual); ok {
		sp.Visual = readVisual(pt, vis, ptr+"/"+sh.visual)
	}
	if sh.position != "" {
		if pos, ok := pt.obj(m, ptr, sh.position); ok {
			sp.Visual.X, _ = pt.num(pos, ptr+"/position", "x")
			sp.Visual.Y, _ = pt.num(pos, ptr+"/position", "y")
		}
	}
	if conns, ok := pt.arr(m, ptr, "connections"); ok {
		for j, cv := range conns {
			cptr := fmt.Sprintf("%s/connections/%d", ptr, j)
			if c, ok := p.connection(pt, cv, cptr, sh); ok {
				sp.Connections = append(sp.Connections, c)
			}
		}
	}
	if evs, ok := pt.arr(m, ptr, sh.events); ok {
		for j, ev := range evs {
			eptr := fmt.Sprintf("%s/%s/%d", ptr, sh.events, j)
			if e, ok := p.event(pt, ev, eptr, sh); ok {
				sp.Events = append(sp.Events, e)
			}
		}
	}
	return sp, true
}

func readVisual(pt *part, m map[string]any, ptr string) Visual {
	var v Visual
	v.X, _ = pt.num(m, ptr, "x")
	v.Y, _ = pt.num(m, ptr, "y")
	v.Size, _ = pt.num(m, ptr, "size")
	v.BorderWidth, _ = pt.num(m, ptr, "borderWidth")
	v.Color, _ = pt.str(m, ptr, "color")
	v.TextColor, _ = pt.str(m, ptr, "textColor")
	v.BorderColor, _ = pt.str(m, ptr, "borderColor")
	v.Font, _ = pt.str(m, ptr, "font")
	v.TextAlign, _ = pt.str(m, ptr, "textAlign")
	v.TextBaseline, _ = pt.str(m, ptr, "textBaseline")
	return v
}

func (p *parser) connection(pt *part, v any, ptr string, sh *shape) (Connection, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr, "a connection must be an object such as {\"targetId\": \"2\"}, not %s", diag.JSONKind(v))
		return Connection{}, false
	}
	pt.checkKeys(m, ptr, "a connection", sh.connKeys)
	c := Connection{Draw: true}
	tv, has := m["targetId"]
	if !has || tv == nil {
		pt.errorf(ptr+"/targetId", "a connection needs a targetId: the id of the space it leads to")
		return Connection{}, false
	}
	if c.Target, ok = pt.spaceID(tv, ptr+"/targetId"); !ok {
		return Connection{}, false
	}
	p.refs = append(p.refs, spaceRef{pt: pt, ptr: ptr + "/targetId", id: c.Target, what: "connection target"})
	if d, ok := pt.boolean(m, ptr, sh.draw); ok {
		c.Draw = d
	}
	if bidi, ok := pt.boolean(m, ptr, "bidirectional"); ok && bidi {
		pt.warnf(ptr+"/bidirectional", "connections are one-way: bidirectional is ignored; add a connection back from %q", c.Target)
	}
	if _, has := m["condition"]; has {
		pt.warnf(ptr+"/condition", "connection conditions are never evaluated: every connection can always be taken")
	}
	return c, true
}

// eventStates are the states an event may be in; a board may only start an
// event READY or INACTIVE.
var eventStates = []string{"READY", "INACTIVE", "CHECKING_TRIGGER", "TRIGGERED", "PROCESSING_ACTION", "COMPLETED_ACTION"}

func (p *parser) event(pt *part, v any, ptr string, sh *shape) (Event, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr, "an event must be an object with %q and \"action\", not %s", sh.trigger, diag.JSONKind(v))
		return Event{}, false
	}
	pt.checkKeys(m, ptr, "an event", sh.eventKeys)
	e := Event{Pointer: ptr, Priority: engine.Mid}
	good := p.trigger(pt, m, ptr, sh, &e)
	if av, has := m["action"]; !has || av == nil {
		pt.errorf(ptr+"/action", "an event needs an action, such as {\"type\": \"PROMPT_CURRENT_PLAYER\", \"payload\": {\"message\": \"Drink!\"}}")
		good = false
	} else if am, ok := av.(map[string]any); !ok {
		pt.errorf(ptr+"/action", "an action must be an object, not %s", diag.JSONKind(av))
		good = false
	} else if e.Action, ok = p.action(pt, am, ptr+"/action"); !ok {
		good = false
	}
	if pv, has := m["priority"]; has {
		if prio, ok := readPriority(pt, pv, ptr+"/priority"); ok {
			e.Priority = prio
		} else {
			good = false
		}
	}
	if st, ok := pt.str(m, ptr, "state"); ok {
		switch st {
		case "READY":
		case "INACTIVE":
			e.Inactive = true
		default:
			hint := pt.rep.DidYouMean(st, eventStates[:2])
			if slices.Contains(eventStates, st) {
				hint = ": an event starts READY, or INACTIVE to switch it off"
			}
			pt.errorf(ptr+"/state", "state %q is not READY or INACTIVE%s", st, hint)
			good = false
		}
	} else if _, has := m["state"]; has && m["state"] != nil {
		good = false
	}
	return e, good
}

// trigger reads an event's trigger (v1 "trigger", v3 "when") into e.
func (p *parser) trigger(pt *part, m map[string]any, ptr string, sh *shape, e *Event) bool {
	tptr := ptr + "/" + sh.trigger
	tv, has := m[sh.trigger]
	if !has || tv == nil {
		pt.errorf(tptr, "an event needs %q: {\"type\": \"ON_LAND\"} (or ON_ENTER, ON_EXIT, CODE)", sh.trigger)
		return false
	}
	t, ok := tv.(map[string]any)
	if !ok {
		pt.errorf(tptr, "must be an object such as {\"type\": \"ON_LAND\"}, not %s", diag.JSONKind(tv))
		return false
	}
	pt.checkKeys(t, tptr, "a trigger", sh.whenKeys)
	written, ok := pt.str(t, tptr, "type")
	if !ok {
		if t["type"] == nil {
			pt.errorf(tptr+"/type", "a trigger needs a type: %s", strings.Join(TriggerTypes, ", "))
		}
		return false
	}
	name := normalizeName(written)
	if !slices.Contains(TriggerTypes, name) {
		pt.errorf(tptr+"/type", "unknown trigger %q%s; the triggers are %s", written, pt.rep.DidYouMean(name, TriggerTypes), strings.Join(TriggerTypes, ", "))
		return false
	}
	if name != written {
		pt.warnf(tptr+"/type", "trigger %q is read as %s; write %s", written, name, name)
	}
	e.Trigger = name
	if name != Code {
		return true
	}
	pv, has := t["payload"]
	src, isStr := pv.(string)
	switch {
	case !has || pv == nil:
		pt.errorf(tptr+"/payload", "a CODE trigger needs a payload: a condition such as \"player.getStat('drinks') < 5\"")
		return false
	case !isStr:
		pt.errorf(tptr+"/payload", "a CODE trigger's payload must be a string holding a condition, not %s", diag.JSONKind(pv))
		return false
	}
	cond, probs := p.compile(src)
	for _, pr := range probs {
		sev := diag.Error
		if pr.Warning {
			sev = diag.Warning
		}
		pt.rep.AtString(sev, tptr+"/payload", pr.Offset, "CODE condition: "+pr.Message)
	}
	e.Code, e.Condition = src, cond
	return cond != nil
}

// readPriority reads a priority: a name (VERY_LOW … CRITICAL, normalised
// like type names) or an object {"name": …} as the original saves them.
func readPriority(pt *part, v any, ptr string) (engine.Priority, bool) {
	nptr := ptr
	switch pv := v.(type) {
	case string:
	case map[string]any:
		nptr = ptr + "/name"
		if v = pv["name"]; v == nil {
			pt.errorf(nptr, "a priority object needs a name: %s", strings.Join(engine.PriorityNames, ", "))
			return 0, false
		}
	default:
		pt.errorf(ptr, "a priority must be a name (%s), not %s", strings.Join(engine.PriorityNames, ", "), diag.JSONKind(v))
		return 0, false
	}
	written, ok := v.(string)
	if !ok {
		pt.errorf(nptr, "a priority name must be a string, not %s", diag.JSONKind(v))
		return 0, false
	}
	name := normalizeName(written)
	prio, ok := engine.ParsePriority(name)
	if !ok {
		pt.errorf(nptr, "unknown priority %q%s; the priorities are %s", written, pt.rep.DidYouMean(name, engine.PriorityNames), strings.Join(engine.PriorityNames, ", "))
		return 0, false
	}
	if name != written {
		pt.warnf(nptr, "priority %q is read as %s; write %s", written, name, name)
	}
	return prio, true
}
