// Package engine is the deterministic core of Tabula: events, triggers,
// effects and the resolver that turns one command into everything it
// causes, cascades of triggers setting off triggers included.
//
// A game (a "pack") gives the engine its Rules: the event types it
// announces, the effects that change its state, the policy that orders
// reactions (DepthFirst or PriorityAgenda) and the key of the loop guard.
// Game data declares Triggers; a Match places them in its Index, carried by
// an entity (a drone, a board space) at a location. A command runs as an
// effect with Match.Run; every event an effect emits is logged and
// dispatched to the triggers that match it, found through the index by
// event type, location and subject, so dispatch costs what matches rather
// than what exists. Reactions are ordered by priority, then tier (the
// event's subject, then the acting player, then the others in seat order),
// then position (lane left to right, board order), then insertion order.
//
// The resolver keeps an explicit agenda instead of recursing, so a chain
// can pause for a player's Decision and resume exactly where it stopped,
// never overflows the stack, and ends a runaway loop with a RunawayError
// that names the repeating triggers. Randomness comes only from the match's
// seeded streams, and Match.Hash summarises the whole state: the same rules,
// seed and commands give the same log and hash on every machine.
package engine
