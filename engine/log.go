package engine

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
)

// RecordKind is the kind of a log record.
type RecordKind uint8

// The kinds of log records.
const (
	// RecEvent: an event happened (Record.Event).
	RecEvent RecordKind = iota + 1
	// RecFired: a trigger fired for an event (TRIGGER_FIRED).
	RecFired
	// RecBlocked: the loop guard stopped a trigger.
	RecBlocked
	// RecSkipped: a scheduled trigger did not fire (Text says why: its
	// reactor was removed, no uses left).
	RecSkipped
	// RecCancelled: a declaration handler cancelled an event.
	RecCancelled
	// RecAsk: the chain paused for a player's decision.
	RecAsk
	// RecAnswer: a player answered.
	RecAnswer
	// RecNote: a line of text from an effect.
	RecNote
	// RecError: the chain ended in an error.
	RecError
)

var kindNames = [...]string{"", "event", "fired", "blocked", "skipped", "cancelled", "ask", "answer", "note", "error"}

// String returns the kind's name as written in JSON logs.
func (k RecordKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "record"
}

// Record is one entry of a match's log. The log is the one source for
// replays, animations, the readable action log and tests: every event, and
// a record per trigger firing with its chain, depth, reactor and source.
type Record struct {
	Kind  RecordKind
	Chain int32
	// Depth is the firing depth: for events, that of the firing that
	// emitted them; for firings, one more than their event's.
	Depth int32
	// Event is the event recorded or reacted to (NoEvent if none).
	Event EventRef
	// Trigger is the trigger instance that fired, was blocked or skipped,
	// or whose effect emitted the event (NoTrigger if none).
	Trigger TriggerID
	Reactor EntityID
	Source  EntityID
	// Player and Choice are set for decisions and answers.
	Player PlayerID
	Choice int
	Text   string
}

// record adds a record to the log, its chain the current one. The record
// is copied field by field, not whole: see Ctx.emit.
func (m *Match) record(r *Record) {
	if m.noLog && r.Kind == RecEvent {
		// Nothing reads the records of events in a chain under way (the
		// events themselves are kept): they are counted, not kept.
		m.forgotten.records++
		if m.sink != nil {
			m.sunk = *r
			m.sunk.Chain = m.chain
			m.sink.Record(&m.sunk, &m.Events[r.Event])
		}
		return
	}
	m.records = append(m.records, Record{})
	d := &m.records[len(m.records)-1]
	d.Kind, d.Chain, d.Depth, d.Event, d.Trigger = r.Kind, m.chain, r.Depth, r.Event, r.Trigger
	d.Reactor, d.Source, d.Player, d.Choice, d.Text = r.Reactor, r.Source, r.Player, r.Choice, r.Text
	if m.sink != nil {
		var ev *Event
		if r.Kind == RecEvent {
			ev = &m.Events[r.Event]
		}
		m.sink.Record(&m.records[len(m.records)-1], ev)
	}
}

// Records returns the match's log so far (since the last ClearLog; with the
// log off, the records of the chain under way but for its events'). The
// slice is the match's own; do not change it.
func (m *Match) Records() []Record { return m.records }

// Sink receives a match's log records as they are made (SetLog): the
// counters a simulation's summary needs, in place of a log nobody reads.
type Sink interface {
	// Record is called once for every record, in order, as it is made; ev
	// is the event of an event record (RecEvent), nil for other kinds.
	// Both are the match's own and valid only during the call: a sink
	// reads them and must not change them or call the match.
	Record(r *Record, ev *Event)
}

// SetLog says what becomes of the match's log from now on. A match keeps
// every record and every event unless told otherwise: its readable log,
// replays and JSON logs are made from them. With keep false it keeps the
// records and events of a chain only while the chain is under way (or
// paused for a decision: effects and games may read them), but for the
// records of events, which it only counts, and forgets them when the
// chain ends, keeping their memory: simulations and bot playouts that read
// no log then neither grow it nor sift it. sink, if not nil,
// receives every record as it is made, whether the log is kept or not.
//
// The log changes nothing else: the match plays the same effects, asks the
// same decisions and has the same state hash whatever SetLog said; only,
// with the log off and no sink, the records of decisions carry no text.
// Call it between chains.
func (m *Match) SetLog(keep bool, sink Sink) {
	m.noLog, m.sink = !keep, sink
	m.bare = !keep && sink == nil
	if !keep && !m.inChain() {
		m.ClearLog()
	}
}

// ClearLog forgets the log and the events while keeping their memory, for
// long simulations that do not need them (SetLog turns the log off for
// good). Events that are still being resolved must not be forgotten: call
// it only between chains. The state hash does not change: it counts the
// records and events forgotten.
func (m *Match) ClearLog() {
	m.forgotten.records += len(m.records)
	m.forgotten.events += len(m.Events)
	m.records = m.records[:0]
	m.Events = m.Events[:0]
	m.budgetFrom = 0
}

// forgotten counts the log records and events a match has forgotten, so
// that the state hash, which counts them, does not depend on what the
// match keeps of its log; it also turns the event references of a chain in
// progress into the numbers they have in a kept log.
type forgotten struct{ records, events int }

// TriggerName returns the name of a trigger instance ("" for NoTrigger).
func (m *Match) TriggerName(id TriggerID) string {
	if t := m.Index.Get(id); t != nil {
		return t.Def.Name
	}
	return ""
}

// WriteJSONL writes the log records from index from on as JSON lines: one
// object per record with "seq", "kind", "chain" and "depth", and the fields
// of its kind (events: type, phase, source, subject, target, player, actor,
// location, amount, data, parent; firings: trigger, reactor, source, event,
// effects).
func (m *Match) WriteJSONL(w io.Writer, from int) error {
	return m.WriteJSONLWith(w, from, nil)
}

// WriteJSONLWith writes the log like WriteJSONL, with members a game adds
// to each record (the space a firing is at, the text of an event): more,
// if not nil, gets each record's object without its closing brace and
// returns it with the members appended (`,"name":value`…).
func (m *Match) WriteJSONLWith(w io.Writer, from int, more func(b []byte, i int, r *Record) []byte) error {
	bw := bufio.NewWriter(w)
	var b []byte
	for i := from; i < len(m.records); i++ {
		b = m.AppendJSON(b[:0], i)
		if more != nil {
			b = append(more(b[:len(b)-1], i, &m.records[i]), '}')
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Transcribe makes a game's own log (readable lines, entries for a page)
// from the match's records from index from on: f turns record i into an
// item, or returns false to leave it out.
func Transcribe[T any](m *Match, from int, f func(i int, r Record) (T, bool)) []T {
	out := make([]T, 0, max(0, len(m.records)-from))
	for i := max(from, 0); i < len(m.records); i++ {
		if x, ok := f(i, m.records[i]); ok {
			out = append(out, x)
		}
	}
	return out
}

// AppendJSON appends the JSON object of log record i to b.
func (m *Match) AppendJSON(b []byte, i int) []byte {
	r := &m.records[i]
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"kind":"`...)
	b = append(b, r.Kind.String()...)
	b = append(b, `","chain":`...)
	b = strconv.AppendInt(b, int64(r.Chain), 10)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(r.Depth), 10)
	if r.Kind == RecEvent {
		ev := &m.Events[r.Event]
		b = jsonField(b, "event", int64(r.Event))
		b = jsonString(b, "type", m.Rules.Types.Name(ev.Type))
		if ev.Phase != NoPhase {
			b = jsonString(b, "phase", ev.Phase.String())
		}
		b = m.jsonEntity(b, "source", ev.Source)
		if ev.Subject != System {
			b = m.jsonEntity(b, "subject", ev.Subject)
		}
		if ev.Target != System {
			b = m.jsonEntity(b, "target", ev.Target)
		}
		b = m.jsonPlayer(b, "player", ev.Player)
		b = m.jsonPlayer(b, "actor", ev.Actor)
		if ev.Location != NoLocation {
			b = jsonField(b, "location", int64(ev.Location))
		}
		if ev.Amount != 0 {
			b = jsonField(b, "amount", int64(ev.Amount))
		}
		if ev.Data != nil {
			if js, err := json.Marshal(ev.Data); err == nil {
				b = append(b, `,"data":`...)
				b = append(b, js...)
			}
		}
		if ev.Parent != NoEvent {
			b = jsonField(b, "parent", int64(ev.Parent))
		}
		if ev.Cancelled {
			b = append(b, `,"cancelled":true`...)
		}
		return append(b, '}')
	}
	if r.Event != NoEvent {
		b = jsonField(b, "event", int64(r.Event))
	}
	if r.Trigger != NoTrigger {
		t := &m.Index.inst[r.Trigger]
		b = jsonString(b, "trigger", t.Def.Name)
		if r.Kind == RecFired || r.Kind == RecBlocked || r.Kind == RecSkipped {
			b = m.jsonEntity(b, "reactor", r.Reactor)
			b = m.jsonEntity(b, "source", r.Source)
		}
		if r.Kind == RecFired {
			b = append(b, `,"effects":[`...)
			for j, e := range t.Def.Effects {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendQuote(b, e.Name)
			}
			b = append(b, ']')
		}
	}
	if r.Kind == RecAsk || r.Kind == RecAnswer {
		b = m.jsonPlayer(b, "player", r.Player)
	}
	if r.Kind == RecAnswer {
		b = jsonField(b, "choice", int64(r.Choice))
	}
	if r.Text != "" {
		b = jsonString(b, "text", r.Text)
	}
	return append(b, '}')
}

func jsonField(b []byte, name string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func jsonString(b []byte, name, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	js, _ := json.Marshal(v) // escapes like encoding/json everywhere else
	return append(b, js...)
}

func (m *Match) jsonEntity(b []byte, name string, id EntityID) []byte {
	b = jsonField(b, name, int64(id))
	if id != System {
		if n, ok := m.State.(Namer); ok {
			if s := n.EntityName(id); s != "" {
				b = jsonString(b, name+"Name", s)
			}
		}
	}
	return b
}

func (m *Match) jsonPlayer(b []byte, name string, p PlayerID) []byte {
	if p == NoPlayer {
		return b
	}
	b = jsonField(b, name, int64(p))
	if int(p) < len(m.Players) {
		b = jsonString(b, name+"Name", m.Players[p])
	}
	return b
}
