package engine

// Relation says whose events a trigger reacts to, comparing the event with
// the trigger's reactor (the entity carrying it) and controller (the player
// it belongs to, or whose board it sits on).
type Relation uint8

// The owner relations. Trigger.Others narrows any of them to events about
// another entity than the reactor ("another drone moves into my lane").
const (
	// Any reacts to every matching event.
	Any Relation = iota
	// Self reacts only to events whose subject is the reactor itself.
	Self
	// Controller reacts to events that concern the trigger's controller.
	Controller
	// Opponent reacts to events that concern another player.
	Opponent
)

var relationNames = [...]string{"ANY", "SELF", "CONTROLLER", "OPPONENT"}

// String returns the relation's name as written in game files.
func (r Relation) String() string {
	if int(r) < len(relationNames) {
		return relationNames[r]
	}
	return "RELATION?"
}

// Scope says where a trigger listens.
type Scope uint8

// The location scopes.
const (
	// Anywhere matches events at every location.
	Anywhere Scope = iota
	// Here matches only events at the trigger's current location (its
	// space, its lane).
	Here
)

// Filter is a static test of an event against a trigger (a card type, a
// stat threshold). It receives the match state as the game stored it.
type Filter interface {
	Match(state any, ev *Event, t *Instance) bool
}

// Condition is a dynamic test (such as a CEL expression) that may fail at
// run time; an error stops the chain and is reported.
type Condition interface {
	Holds(state any, ev *Event, t *Instance) (bool, error)
}

// Trigger is a subscription declared by game data: "when an event of these
// types happens (where, to whom), if this holds, run these effects". A
// Trigger is immutable once built and shared by every match of a game; the
// Index holds its per-match instances.
type Trigger struct {
	// Name identifies the trigger in logs and errors ("Odin: All-Seeing
	// Eye", "space 4 event 0").
	Name string
	// On lists the event types the trigger reacts to (at least one).
	On []EventType
	// Phase is the phase of the events it reacts to (NoPhase for events
	// without phases).
	Phase Phase
	// Owner is the owner relation.
	Owner Relation
	// Others leaves out events whose subject is the trigger's own
	// reactor: the trigger reacts to what other entities do.
	Others bool
	// Scope is the location scope.
	Scope Scope
	// Filter and Condition are optional tests; both must pass.
	Filter    Filter
	Condition Condition
	// Effects run in order when the trigger fires.
	Effects []EffectCall
	// Priority orders simultaneous reactions, higher first.
	Priority Priority
	// Once removes the trigger from the match after it fires ("destroy
	// after trigger").
	Once bool
	// UsesPerRound limits how often the trigger fires between two calls of
	// Match.NewRound; 0 means no limit.
	UsesPerRound int
	// Data is free for the game (e.g. the board event the trigger came from).
	Data any
}

// TriggerID identifies a trigger instance in one match. IDs of removed
// instances are never reused.
type TriggerID int32

// NoTrigger is the TriggerID of "no trigger" (effects run by commands).
const NoTrigger TriggerID = -1

// Instance is one trigger placed in a match: carried by a reactor,
// controlled by a player, at a location, at an ordering position.
type Instance struct {
	Def        *Trigger
	ID         TriggerID
	Reactor    EntityID
	Controller PlayerID
	Location   LocationID
	// Pos orders reactions of the same priority and tier: lane
	// left-to-right, board order. Lower runs first.
	Pos int64
	// Seq is the insertion order, the last tie-breaker.
	Seq int64

	alive     bool
	usedRound int64
	uses      int32
	latched   int32     // chain in which the instance was last scheduled
	fired     int32     // chain in which the instance last fired
	fires     int32     // how often it fired
	next      TriggerID // next instance of the same reactor
}

// Alive reports whether the instance is still in the match.
func (t *Instance) Alive() bool { return t.alive }

// Fires is how often the instance has fired since it was added: what a
// simulation counts per space or piece. It is not part of the state hash
// (the log's records say the same).
func (t *Instance) Fires() int { return int(t.fires) }

// Status is where a trigger instance stands in the current chain.
type Status uint8

// The statuses of a trigger instance. A game may show them under names of
// its own.
const (
	// Ready: it has not been set off in the current chain.
	Ready Status = iota
	// Scheduled: it matched an event and waits for its turn.
	Scheduled
	// Running: its effect is paused for a decision.
	Running
	// Done: it fired in the current chain.
	Done
	// Removed: it is no longer in the match.
	Removed
)

var statusNames = [...]string{"ready", "scheduled", "running", "done", "removed"}

// String returns the status's name: ready, scheduled, running, done or
// removed.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "?"
}
