// Package status holds conditions with durations ("blinded for two rounds",
// "invisible until you attack", "+1 attack until the end of the round",
// "skip your next two turns"): a Status is placed on an entity (its bearer)
// and owns everything it brings, namely
//
//   - modifiers on the bearer's values (package value),
//   - trigger instances in the match's engine.Index, carried by the status
//     itself as their reactor, so that its handlers know which status fired,
//   - sub-statuses, applied with it and removed with it,
//
// and removing the status removes all of them together, children first.
// A status is never changed after it is applied, except for its round
// countdown: a handler that needs to change what a status does replaces one
// of its sub-statuses (adaptive armour swaps its resistance, a battle trance
// replaces its level with the next one).
//
// Durations are ROUNDS (a countdown advanced with Book.Advance, removed
// when it reaches zero), PERMANENT, UNTIL_LONG_REST (removed by
// Book.LongRest) and ON_CONDITION (removed by Book.Advance once its Ends
// holds). A status may also carry a saving throw that ends it: Advance
// tries the save first, and a success removes the status without counting
// the round down.
//
// Statuses are entities: the game's Host gives each one an id from the
// match's registry, so ids are deterministic and the log can name them.
// Nothing here iterates a map for a result.
package status

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// DurationKind is how a status ends by itself.
type DurationKind uint8

// The duration kinds.
const (
	// Permanent statuses last until something removes them.
	Permanent DurationKind = iota
	// Rounds statuses count down each time Book.Advance reaches their
	// bearer and end at zero.
	Rounds
	// UntilLongRest statuses end when their bearer takes a long rest.
	UntilLongRest
	// OnCondition statuses end when their Ends holds, checked by Advance.
	OnCondition
)

var durationNames = [...]string{"PERMANENT", "ROUNDS", "UNTIL_LONG_REST", "ON_CONDITION"}

// String returns the kind's name (PERMANENT, ROUNDS, …).
func (k DurationKind) String() string {
	if int(k) < len(durationNames) {
		return durationNames[k]
	}
	return "DURATION?"
}

// Ends decides when an ON_CONDITION status is over. state is the match's
// game state.
type Ends interface {
	Ended(state any, s *Status) bool
}

// Duration is how long a status lasts.
type Duration struct {
	Kind DurationKind
	// Rounds is the countdown of a Rounds duration (at least 1).
	Rounds int
	// Until ends an OnCondition duration.
	Until Ends
}

// Save is a saving throw that ends a status: the bearer rolls against DC
// with the named ability. A zero DC means no save.
type Save struct {
	Ability string
	DC      int
}

// Mod is a modifier a status puts on one of its bearer's values.
type Mod struct {
	// Value names the bearer's value ("ac", "attack").
	Value    string
	Channel  value.Channel
	Modifier value.Modifier
	// When is the condition of a contextual modifier.
	When value.Condition
}

// Def is a kind of status: what it brings and how long it lasts. A Def is
// immutable and shared by every match.
type Def struct {
	// Name is the status's id, as files and commands write it; Title is
	// what players call it ("Adaptive armour") and Description what it
	// does, in their words.
	Name        string
	Title       string
	Description string
	Duration    Duration
	Save        Save
	Mods        []Mod
	// Triggers are placed in the match's index while the status lasts,
	// with the status as their reactor.
	Triggers []*engine.Trigger
	// Children are applied with the status (to the same bearer, with the
	// same source) and removed with it.
	Children []*Def
	// Data is free for the game.
	Data any
}

// Status is one status on one entity.
type Status struct {
	// ID is the status's entity id, the reactor of its triggers.
	ID  engine.EntityID
	Def *Def
	// Bearer is the entity the status is on; Source the one that caused it.
	Bearer, Source engine.EntityID
	// Parent is the status that owns this one (System for none); Children
	// are the statuses this one owns, in the order they were applied.
	Parent   engine.EntityID
	Children []engine.EntityID
	Duration Duration
	// Remaining is the countdown of a Rounds duration.
	Remaining int
	Save      Save
	// Stacks is a level for statuses that grow by replacement (a battle
	// trance at level 2).
	Stacks int

	mods  []modRef
	trigs []engine.TriggerID
}

// Name returns the name of the status's Def.
func (s *Status) Name() string { return s.Def.Name }

// Triggers returns the ids of the trigger instances the status placed.
func (s *Status) Triggers() []engine.TriggerID { return s.trigs }

type modRef struct {
	v  *value.Value
	id value.ModID
}

// Host is what a Book needs from the game: ids for new statuses, the values
// of entities, and who controls an entity.
type Host interface {
	// NewEntity registers a new entity of the match (a status) and
	// returns its id.
	NewEntity(name string) engine.EntityID
	// DropEntity tells the registry the entity is gone.
	DropEntity(id engine.EntityID)
	// Value returns an entity's value with the given name, or nil.
	Value(entity engine.EntityID, name string) *value.Value
	// Controller returns the player an entity belongs to (NoPlayer if none).
	Controller(entity engine.EntityID) engine.PlayerID
}

// Holder is implemented by game states that keep a Book, for the effects
// and filters of this package.
type Holder interface {
	Statuses() *Book
}

// Book holds the statuses of one match, in the order they were applied.
type Book struct {
	host  Host
	index *engine.Index
	// Applied and Removed are the event types the book emits when a
	// status comes and goes (Subject: the bearer; Data: a Change).
	Applied, Removed engine.EventType
	list             []*Status
}

// NewBook returns an empty book for a match: host is the game's state, x
// the match's trigger index.
func NewBook(host Host, x *engine.Index, applied, removed engine.EventType) *Book {
	return &Book{host: host, index: x, Applied: applied, Removed: removed}
}

// Change is the payload of the Applied and Removed events.
type Change struct {
	Status string          `json:"status"`
	ID     engine.EntityID `json:"id"`
	Parent engine.EntityID `json:"parent,omitempty"`
	Stacks int             `json:"stacks,omitempty"`
	// Reason says why a status was removed (expired, saved, ended by a
	// trigger, replaced, its parent was removed …).
	Reason string `json:"reason,omitempty"`
}

// Request is one application of a status.
type Request struct {
	Def            *Def
	Bearer, Source engine.EntityID
	// Parent makes the status a child of another one, removed with it.
	Parent engine.EntityID
	// Duration and Save, when set, replace the Def's.
	Duration *Duration
	Save     *Save
	Stacks   int
	// Mods are modifiers beyond the Def's (an adaptive resistance to the
	// damage type just taken).
	Mods []Mod
}

// Apply puts a status on its bearer: its modifiers, its triggers, then its
// children. A status with the same name already on the bearer is removed
// once the new one is in place (statuses do not stack by name). c is the
// effect applying it, whose events announce the change; it may be nil
// while a match is being set up, when no event is emitted.
func (b *Book) Apply(c *engine.Ctx, r Request) (*Status, error) {
	if r.Def == nil {
		return nil, fmt.Errorf("apply: no status definition")
	}
	dur := r.Def.Duration
	if r.Duration != nil {
		dur = *r.Duration
	}
	if dur.Kind == Rounds && dur.Rounds < 1 {
		return nil, fmt.Errorf("apply %s: a ROUNDS duration needs at least 1 round, not %d", r.Def.Name, dur.Rounds)
	}
	if dur.Kind == OnCondition && dur.Until == nil {
		return nil, fmt.Errorf("apply %s: an ON_CONDITION duration needs its condition", r.Def.Name)
	}
	var parent *Status
	if r.Parent != engine.System {
		if parent = b.Get(r.Parent); parent == nil {
			return nil, fmt.Errorf("apply %s: parent status %d is not active", r.Def.Name, r.Parent)
		}
	}
	// Resolve every value first, so that a bad request changes nothing.
	mods := slices.Concat(r.Def.Mods, r.Mods)
	values := make([]*value.Value, len(mods))
	for i, m := range mods {
		if values[i] = b.host.Value(r.Bearer, m.Value); values[i] == nil {
			return nil, fmt.Errorf("apply %s: entity %d has no value %q", r.Def.Name, r.Bearer, m.Value)
		}
	}
	s := &Status{
		Def: r.Def, Bearer: r.Bearer, Source: r.Source, Parent: r.Parent,
		Duration: dur, Remaining: dur.Rounds, Save: r.Def.Save, Stacks: r.Stacks,
	}
	if r.Save != nil {
		s.Save = *r.Save
	}
	s.ID = b.host.NewEntity(r.Def.Name)
	for i, m := range mods {
		s.mods = append(s.mods, modRef{values[i], values[i].Add(m.Channel, s.ID, m.Modifier, m.When)})
	}
	seat := b.host.Controller(r.Bearer)
	for _, t := range r.Def.Triggers {
		s.trigs = append(s.trigs, b.index.Add(t, s.ID, seat, engine.NoLocation, int64(s.ID)))
	}
	b.list = append(b.list, s)
	if parent != nil {
		parent.Children = append(parent.Children, s.ID)
	}
	b.emit(c, b.Applied, s, "")
	// Replace an older status of the same name, unless it is an ancestor
	// of the new one.
	for _, old := range b.list {
		if old != s && old.Bearer == s.Bearer && old.Def.Name == s.Def.Name && !b.isAncestor(old.ID, s) {
			b.Remove(c, old.ID, "replaced")
			break
		}
	}
	for _, child := range r.Def.Children {
		if _, err := b.Apply(c, Request{Def: child, Bearer: r.Bearer, Source: r.Source, Parent: s.ID}); err != nil {
			return s, err
		}
	}
	return s, nil
}

func (b *Book) isAncestor(id engine.EntityID, s *Status) bool {
	for p := s.Parent; p != engine.System; {
		if p == id {
			return true
		}
		ps := b.Get(p)
		if ps == nil {
			return false
		}
		p = ps.Parent
	}
	return false
}

// Remove takes a status off with everything it owns: its children (and
// theirs) first, then its modifiers and its triggers. It reports whether
// the status was active. reason is recorded in the Removed event.
func (b *Book) Remove(c *engine.Ctx, id engine.EntityID, reason string) bool {
	s := b.Get(id)
	if s == nil {
		return false
	}
	for len(s.Children) > 0 {
		child := s.Children[len(s.Children)-1]
		if !b.Remove(c, child, "parent removed") {
			s.Children = s.Children[:len(s.Children)-1]
		}
	}
	for _, m := range s.mods {
		m.v.Remove(m.id)
	}
	s.mods = nil
	b.index.RemoveReactor(s.ID)
	if p := b.Get(s.Parent); p != nil {
		p.Children = slices.DeleteFunc(p.Children, func(c engine.EntityID) bool { return c == s.ID })
	}
	b.list = slices.DeleteFunc(b.list, func(x *Status) bool { return x == s })
	b.host.DropEntity(s.ID)
	b.emit(c, b.Removed, s, reason)
	return true
}

func (b *Book) emit(c *engine.Ctx, typ engine.EventType, s *Status, reason string) {
	if c == nil {
		return
	}
	ev := engine.NewEvent(typ)
	ev.Subject, ev.Source, ev.Player = s.Bearer, s.Source, b.host.Controller(s.Bearer)
	if ev.Source == engine.System {
		ev.Source = s.Bearer
	}
	ev.Amount = s.Stacks
	ev.Data = Change{Status: s.Def.Name, ID: s.ID, Parent: s.Parent, Stacks: s.Stacks, Reason: reason}
	c.Emit(ev)
}

// Get returns the active status with the given id, or nil.
func (b *Book) Get(id engine.EntityID) *Status {
	if id == engine.System {
		return nil
	}
	for _, s := range b.list {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// All returns the active statuses in the order they were applied. The
// slice is the book's own; do not change it.
func (b *Book) All() []*Status { return b.list }

// Of returns the statuses on an entity, in the order they were applied.
func (b *Book) Of(bearer engine.EntityID) []*Status {
	var out []*Status
	for _, s := range b.list {
		if s.Bearer == bearer {
			out = append(out, s)
		}
	}
	return out
}

// Find returns the status with the given name on an entity, or nil.
func (b *Book) Find(bearer engine.EntityID, name string) *Status {
	for _, s := range b.list {
		if s.Bearer == bearer && s.Def.Name == name {
			return s
		}
	}
	return nil
}

// Has reports whether an entity bears a status with the given name.
func (b *Book) Has(bearer engine.EntityID, name string) bool { return b.Find(bearer, name) != nil }

// Child returns the child of a status with the given name, or nil.
func (b *Book) Child(parent engine.EntityID, name string) *Status {
	p := b.Get(parent)
	if p == nil {
		return nil
	}
	for _, id := range p.Children {
		if s := b.Get(id); s != nil && s.Def.Name == name {
			return s
		}
	}
	return nil
}

// Advance moves the durations of an entity's statuses on by one round, as
// its turn comes: each status with a save first rolls it (save reports
// success) and ends on a success; otherwise a ROUNDS countdown goes down
// and ends at zero, and an ON_CONDITION status ends when its condition
// holds. Statuses removed along the way (children of an ended parent) are
// not advanced.
func (b *Book) Advance(c *engine.Ctx, bearer engine.EntityID, save func(*Status) (bool, error)) error {
	for _, s := range b.Of(bearer) {
		if b.Get(s.ID) == nil {
			continue
		}
		if s.Save.DC > 0 && save != nil {
			ok, err := save(s)
			if err != nil {
				return err
			}
			if ok {
				b.Remove(c, s.ID, "saved")
				continue
			}
		}
		switch s.Duration.Kind {
		case Rounds:
			s.Remaining--
			if s.Remaining <= 0 {
				b.Remove(c, s.ID, "expired")
			}
		case OnCondition:
			if s.Duration.Until.Ended(b.host, s) {
				b.Remove(c, s.ID, "condition met")
			}
		}
	}
	return nil
}

// LongRest ends an entity's UNTIL_LONG_REST statuses.
func (b *Book) LongRest(c *engine.Ctx, bearer engine.EntityID) {
	for _, s := range b.Of(bearer) {
		if b.Get(s.ID) != nil && s.Duration.Kind == UntilLongRest {
			b.Remove(c, s.ID, "long rest")
		}
	}
}

// RemoveBearer removes every status on an entity (it died, it left).
func (b *Book) RemoveBearer(c *engine.Ctx, bearer engine.EntityID, reason string) {
	for _, s := range b.Of(bearer) {
		b.Remove(c, s.ID, reason)
	}
}

// AppendCanonical appends a canonical encoding of the book for a state hash.
func (b *Book) AppendCanonical(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(b.list)))
	for _, s := range b.list {
		buf = binary.AppendUvarint(buf, uint64(len(s.Def.Name)))
		buf = append(buf, s.Def.Name...)
		for _, n := range []int64{int64(s.ID), int64(s.Bearer), int64(s.Source), int64(s.Parent),
			int64(s.Duration.Kind), int64(s.Remaining), int64(s.Save.DC), int64(s.Stacks),
			int64(len(s.Children)), int64(len(s.mods)), int64(len(s.trigs))} {
			buf = binary.AppendVarint(buf, n)
		}
		for _, c := range s.Children {
			buf = binary.AppendVarint(buf, int64(c))
		}
		for _, m := range s.mods {
			buf = binary.AppendVarint(buf, int64(m.v.Owner))
			buf = binary.AppendUvarint(buf, uint64(m.id))
		}
		for _, t := range s.trigs {
			buf = binary.AppendVarint(buf, int64(t))
		}
	}
	return buf
}
