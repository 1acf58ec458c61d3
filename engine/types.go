package engine

import (
	"fmt"
	"strconv"
)

// EventType is an interned event type name such as ON_MOVE or ON_LAND. Games
// add their own with Types.Intern while they build their Rules.
type EventType uint16

// Phase is the optional phase of an event. Events without phases use NoPhase.
// Handlers in the Declaration phase may cancel or modify an event before it
// happens (see Ctx.Announce).
type Phase uint8

// The phases of an action that others may intercept: it is declared, then
// executed, its effects apply, and it completes. A game may use any subset.
const (
	NoPhase Phase = iota
	Declaration
	Execution
	EffectPhase
	Completion
)

var phaseNames = [...]string{"", "DECLARATION", "EXECUTION", "EFFECT", "COMPLETION"}

// String returns the phase's name, or "" for NoPhase.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "PHASE_" + strconv.Itoa(int(p))
}

// EntityID identifies an entity of a match: a piece, a drone, a space, a rule.
// Games assign them deterministically, starting at 1; System (0) stands for
// "no entity", e.g. the source of an event that a player's command caused.
type EntityID int32

// System is the source of events that no entity caused.
const System EntityID = 0

// PlayerID is a seat number, 0-based. NoPlayer stands for "nobody".
type PlayerID int8

// NoPlayer is the player of events that concern nobody in particular.
const NoPlayer PlayerID = -1

// LocationID identifies a place: a lane, a board space, a grid cell.
// NoLocation means the event happened nowhere in particular.
type LocationID int32

// NoLocation is the location of events that happen nowhere in particular.
const NoLocation LocationID = -1

// Priority orders reactions: higher runs first. The named levels are those of
// the board format; games may use any integer (a game where "lower number
// runs first" negates its numbers).
type Priority int

// The named priority levels, VERY_LOW … CRITICAL.
const (
	VeryLow  Priority = 1
	Low      Priority = 2
	Mid      Priority = 3
	High     Priority = 4
	VeryHigh Priority = 5
	Critical Priority = 6
)

var priorityNames = map[string]Priority{
	"VERY_LOW": VeryLow, "LOW": Low, "MID": Mid, "HIGH": High, "VERY_HIGH": VeryHigh, "CRITICAL": Critical,
}

// PriorityNames lists the named priority levels from lowest to highest.
var PriorityNames = []string{"VERY_LOW", "LOW", "MID", "HIGH", "VERY_HIGH", "CRITICAL"}

// ParsePriority returns the priority with the given name (VERY_LOW … CRITICAL).
func ParsePriority(name string) (Priority, bool) {
	p, ok := priorityNames[name]
	return p, ok
}

// String returns the level's name, or the number for unnamed priorities.
func (p Priority) String() string {
	if p >= VeryLow && p <= Critical {
		return PriorityNames[p-1]
	}
	return strconv.Itoa(int(p))
}

// Types is the table of interned event type names of one game. Build it
// while setting up the game's Rules; afterwards it is only read, so many
// matches may share it.
type Types struct {
	names []string
	ids   map[string]EventType
}

// NewTypes returns a table holding the given names, interned in order.
func NewTypes(names ...string) *Types {
	t := &Types{ids: make(map[string]EventType)}
	for _, n := range names {
		t.Intern(n)
	}
	return t
}

// Intern returns the type with the given name, adding it if it is new.
func (t *Types) Intern(name string) EventType {
	if id, ok := t.ids[name]; ok {
		return id
	}
	if len(t.names) >= 1<<16 {
		panic("engine: too many event types")
	}
	id := EventType(len(t.names))
	t.names = append(t.names, name)
	t.ids[name] = id
	return id
}

// Lookup returns the type with the given name, if it was interned.
func (t *Types) Lookup(name string) (EventType, bool) {
	id, ok := t.ids[name]
	return id, ok
}

// Name returns the name of an interned type.
func (t *Types) Name(id EventType) string {
	if int(id) < len(t.names) {
		return t.names[id]
	}
	return fmt.Sprintf("EVENT_%d", id)
}

// Names returns every interned name in interning order.
func (t *Types) Names() []string { return append([]string(nil), t.names...) }

// Len returns the number of interned types.
func (t *Types) Len() int { return len(t.names) }
