package engine

import (
	"maps"
	"slices"

	"github.com/tabulagames/tabula/engine/rng"
)

// Clone returns a copy of the match that plays on exactly as the match
// would: the same trigger instances, random streams, log, agenda and
// pending decisions, on state, which is the game's own copy of m.State (a
// game copies its state; the engine cannot). The copy and the match share
// nothing that either changes, so each may play on, be cloned again or be
// thrown away; they share the rules and the trigger definitions, which
// nothing changes. The copy keeps the match's choice of log (SetLog) and
// its count of records forgotten, which the hash counts, but not its sink:
// what a copy plays is no part of the match's record. o says what else to
// do. Clone must not be called from inside an effect.
func (m *Match) Clone(state any, o CloneOptions) *Match {
	if m.running {
		panic("engine: Clone called from inside an effect")
	}
	var events []Event
	var records []Record
	budgetFrom, hashed := m.budgetFrom, m.hashed
	if o.WithoutLog && !m.inChain() {
		events, records, budgetFrom, hashed = make([]Event, 0, 32), make([]Record, 0, 64), 0, false
	} else {
		// Only a copy that keeps the log pays for it.
		events, records = slices.Clone(m.Events), slices.Clone(m.records)
	}
	c := &Match{
		Rules:        m.Rules,
		State:        state,
		Players:      slices.Clip(m.Players),
		Index:        m.Index.clone(),
		RNG:          m.RNG.Clone(),
		Events:       events,
		records:      records,
		noLog:        m.noLog,
		bare:         m.noLog, // a copy has no sink
		forgotten:    m.forgotten,
		budgetFrom:   budgetFrom,
		chain:        m.chain,
		actor:        m.actor,
		round:        m.round,
		steps:        m.steps,
		err:          m.err,
		stack:        slices.Clone(m.stack),
		heap:         slices.Clone(m.heap),
		reactions:    slices.Clone(m.reactions),
		seq:          m.seq,
		guard:        guardSet{small: slices.Clone(m.guard.small), big: maps.Clone(m.guard.big)},
		emitted:      slices.Clone(m.emitted),
		then:         slices.Clone(m.then),
		suspended:    m.suspended,
		hasSuspended: m.hasSuspended,
		asked:        slices.Clone(m.asked),
		answers:      slices.Clone(m.answers),
		answered:     slices.Clone(m.answered),
		hash:         m.hash,
		hashed:       hashed,
		hashGen:      m.hashGen,
		rollback:     m.rollback,
		cur:          m.cur,
		lastAsk:      m.lastAsk,
	}
	if c.guard.small == nil {
		c.guard.small = make([]uint64, 0, guardSmall)
	}
	if payload := o.Payload; payload != nil && m.inChain() {
		for i := len(c.Events) - 1; i >= 0 && c.Events[i].Chain == m.chain; i-- {
			if c.Events[i].Data != nil {
				c.Events[i].Data = payload(c.Events[i].Data)
			}
		}
		for _, ts := range [][]task{c.stack, c.heap, c.then} {
			for i := range ts {
				ts[i].call.Args = copyArgs(ts[i].call.Args, payload)
			}
		}
		c.suspended.call.Args = copyArgs(c.suspended.call.Args, payload)
		c.cur.call.Args = copyArgs(c.cur.call.Args, payload)
	}
	return c
}

func copyArgs(args any, payload func(any) any) any {
	if args == nil {
		return nil
	}
	return payload(args)
}

// CloneOptions say what Clone does beyond copying.
type CloneOptions struct {
	// Payload copies the payloads of the events of a chain in progress (a
	// chain paused for a decision) and the arguments of its pending
	// effects, which its effects may still change: when they are
	// pointers, it returns the copy's own. Nil shares them, which suits
	// values. Events of finished chains are never changed and keep their
	// payloads.
	Payload func(any) any
	// WithoutLog starts the copy with an empty log and no events, when no
	// chain is in progress (one that is keeps everything): a copy that
	// only plays on, such as a bot's, then costs what the game state
	// costs rather than the whole history of the match. Its state hash,
	// which counts the records and the events, differs from the match's.
	WithoutLog bool
}

// clone returns a copy of the index. The buckets' contents share one
// array, each bucket capped at its own end, so that a bucket that grows
// moves out rather than over its neighbour.
func (x *Index) clone() *Index {
	c := &Index{
		inst:      slices.Clone(x.inst),
		buckets:   make(map[bucketKey][]TriggerID, len(x.buckets)),
		stride:    x.stride,
		types:     x.types,
		entities:  x.entities,
		byReactor: maps.Clone(x.byReactor),
		live:      x.live,
		changed:   x.changed,
		placed:    x.placed,
		listen:    slices.Clone(x.listen),
		gen:       x.gen,
	}
	n := 0
	for _, b := range x.buckets {
		n += len(b)
	}
	for _, b := range x.dense {
		n += len(b)
	}
	ids := make([]TriggerID, 0, n)
	share := func(b []TriggerID) []TriggerID {
		if len(b) == 0 {
			return nil
		}
		from := len(ids)
		ids = append(ids, b...)
		return ids[from:len(ids):len(ids)]
	}
	if x.dense != nil {
		c.dense = make([][]TriggerID, len(x.dense))
		for i, b := range x.dense {
			c.dense[i] = share(b)
		}
	}
	for k, b := range x.buckets {
		c.buckets[k] = share(b)
	}
	return c
}

// RedrawSealed replaces the sealed answers that players other than keep
// have given in the current pause, which nobody has seen yet, with choices
// drawn from r: in a copy made for keep's bot, the others' secret bids are
// whatever they might have been. The state hash, which leaves sealed
// choices out, does not change.
func (m *Match) RedrawSealed(keep PlayerID, r *rng.Stream) {
	if !m.hasSuspended {
		return
	}
	for i, d := range m.asked {
		if d.Sealed && m.answered[i] && d.Player != keep && len(d.Options) > 1 {
			m.answers[i].Choice = r.IntN(len(d.Options))
		}
	}
}
