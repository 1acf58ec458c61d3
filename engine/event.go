package engine

// Event is a fact the engine announces: a piece entered a space, a card was
// drawn, an attack is declared. Effects emit events with Ctx.Emit; the
// engine fills in Actor, Parent and Depth, records the event in the log and
// dispatches it to the triggers that match.
type Event struct {
	Type  EventType
	Phase Phase
	// Source is the entity whose effect caused the event (System when a
	// command or the rules caused it). The per-pair loop guard keys on it.
	Source EntityID
	// Subject is the entity the event is about: the piece that moved, the
	// drone that attacked or was deployed. Self triggers match on it.
	Subject EntityID
	// Target is the entity acted upon, when there is one besides the
	// subject: the drone attacked, the player swapped with.
	Target EntityID
	// Player is the player the event concerns: the owner of the subject,
	// the player who drew or gained energy. Owner relations compare it with
	// a trigger's controller.
	Player PlayerID
	// Actor is the acting player of the chain: whoever started it. The
	// engine sets it; it never changes within a chain.
	Actor PlayerID
	// Location is where the event happened (NoLocation if nowhere).
	Location LocationID
	// Amount is the event's main number: cards drawn, energy gained,
	// damage dealt, spaces moved.
	Amount int
	// Data is the game's typed payload, if the event needs more than Amount.
	Data any
	// Parent is the index (in Match.Events) of the event during whose
	// resolution this one was emitted, or -1 for an event a command caused.
	Parent int32
	// Depth is the depth of the firing whose effect emitted the event: 0
	// for events of a command, 1 for events of a trigger that reacted to
	// those, and so on.
	Depth int32
	// Chain is the number of the chain the event belongs to.
	Chain int32
	// Cancelled is set by a declaration-phase handler (Ctx.Cancel) to stop
	// the announced action; see Ctx.Announce.
	Cancelled bool
}

// EventRef is the index of an event in Match.Events.
type EventRef = int32

// NoEvent is the EventRef of "no event".
const NoEvent EventRef = -1
