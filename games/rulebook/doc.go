// Package rulebook plays games made of rules: "when this event happens, if
// this holds, then queue these actions". It is the event loop of a
// board-game editor whose Chutes and Ladders, Candy Land and Monopoly are
// lists of rules, on Tabula's deterministic core.
//
// A game file (JSON, "game": "rulebook") holds a board — a directed graph
// of tiles with names, kinds, coordinates, prices, rents, colours and jump
// targets —, the players' starting state, optional decks of cards, and the
// rules. A rule never changes the game itself: when its event happens and
// its CEL condition holds, it queues actions, each with a priority (lower
// numbers first, ties in the order they were queued). Actions are the
// engine's effects: they change the state and emit events, which set off
// more rules. Even the turn is rules: START_TURN queues END_TURN at the
// lowest priority, END_TURN queues "next player" and START_TURN.
//
// Preset rules are named, parameterised building blocks (Turn, DieMove,
// BuyTile, …) that stand for hand-written rules; Catalog describes every
// event, action, preset and predicate as data, so that an editor can offer
// them as pickers and forms, and File round-trips: Decode, edit, Format.
//
// NewPack is the pack behind Tabula's game interface: it loads rule books
// into Definitions, which start Matches that take commands as JSON
// ({"kind": "bid", "value": 2}), list each seat's legal commands in the
// players' words and tell their log in them. The pack holds the registry
// of effects every rule book shares.
//
// The whole match is one engine chain on the priority agenda that pauses
// whenever a player must decide (roll, draw, choose a path, buy, bid); the
// engine's step budget counts from the last decision, so a set of rules
// that loops is stopped with an error naming them. Validation finds what
// a static look can prove: a turn that can never end, rules that loop
// forever without asking anyone anything.
package rulebook
