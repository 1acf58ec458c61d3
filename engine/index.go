package engine

import "slices"

// bucketKey locates a bucket of trigger instances. Self triggers are filed
// under their reactor, triggers scoped Here under their location, the rest
// under "anywhere"; so an event looks into at most three buckets and the
// cost of a dispatch grows with the triggers that can match it, not with all
// the triggers of the match.
type bucketKey struct {
	typ   EventType
	phase Phase
	kind  uint8
	id    int32
}

const (
	bucketAnywhere uint8 = iota
	bucketLocation
	bucketEntity
)

// Index holds the trigger instances of one match, filed by event type and
// by location or entity.
type Index struct {
	inst    []Instance
	buckets map[bucketKey][]TriggerID
	// dense holds the buckets of phase-less events that are "anywhere" or
	// at a location with a small id, so that the dispatches of a board
	// game find them without hashing: the bucket of type t and slot s
	// (location + 1, or 0 for "anywhere") is dense[t*stride+s]. The other
	// buckets are in the map.
	dense  [][]TriggerID
	stride int
	types  int // the types dense has room for
	// entities counts the instances filed under an entity: without any,
	// dispatch does not look for them.
	entities int
	// byReactor holds the first live instance of each entity; the others
	// follow through Instance.next, so adding a trigger allocates nothing.
	byReactor map[EntityID]TriggerID
	live      int
	// listen counts, by event type, the buckets' entries of that type: an
	// event of a type without any sets nothing off.
	listen []int32
	// placed counts the instances added, so that an effect that adds one
	// is told (Rules.PlacedBetweenChains).
	placed uint64
	// changed is set once an instance is removed, moved or given to
	// another controller: rewind cannot undo that.
	changed bool
	// gen counts changes made from outside a chain (placing, moving,
	// removing instances), so that a cached state hash knows it is stale.
	gen uint64
}

// denseLocations bounds the location ids whose buckets are dense.
const denseLocations = 4096

// newIndex returns an empty index for a game with the given number of
// event types.
func newIndex(types int) *Index {
	return &Index{
		inst:      make([]Instance, 0, 16),
		buckets:   make(map[bucketKey][]TriggerID),
		types:     types,
		byReactor: make(map[EntityID]TriggerID),
	}
}

// bucket returns the bucket of a key, and whether it is dense.
func (x *Index) bucket(k bucketKey) ([]TriggerID, bool) {
	if slot, ok := denseSlot(k); ok {
		if slot < x.stride && int(k.typ) < x.types {
			return x.dense[int(k.typ)*x.stride+slot], true
		}
		return nil, true
	}
	return x.buckets[k], false
}

// denseSlot returns the place of a key's bucket among its type's dense
// buckets, if it is dense.
func denseSlot(k bucketKey) (int, bool) {
	switch {
	case k.phase != NoPhase:
		return 0, false
	case k.kind == bucketAnywhere:
		return 0, true
	case k.kind == bucketLocation && k.id >= 0 && k.id < denseLocations:
		return int(k.id) + 1, true
	}
	return 0, false
}

// setBucket stores the bucket of a key.
func (x *Index) setBucket(k bucketKey, b []TriggerID) {
	slot, ok := denseSlot(k)
	if !ok {
		if len(b) == 0 {
			delete(x.buckets, k)
		} else {
			x.buckets[k] = b
		}
		return
	}
	if slot >= x.stride || int(k.typ) >= x.types || x.dense == nil {
		x.relayout(max(int(k.typ)+1, x.types), max(slot+1, 2*x.stride, 8))
	}
	x.dense[int(k.typ)*x.stride+slot] = b
}

// relayout makes room in dense for the given numbers of types and slots,
// keeping its buckets; it happens a few times per match at most.
func (x *Index) relayout(types, stride int) {
	stride = max(stride, x.stride)
	dense := make([][]TriggerID, types*stride)
	for t := range x.types {
		for s := range x.stride {
			if x.dense != nil {
				dense[t*stride+s] = x.dense[t*x.stride+s]
			}
		}
	}
	x.dense, x.types, x.stride = dense, types, stride
}

// reset empties the index, keeping its memory.
func (x *Index) reset() {
	x.gen++
	x.changed = false
	x.inst = x.inst[:0]
	clear(x.buckets)
	for i := range x.dense {
		x.dense[i] = x.dense[i][:0]
	}
	x.entities = 0
	clear(x.listen)
	clear(x.byReactor)
	x.live = 0
}

// listens reports whether some trigger listens to events of the type.
func (x *Index) listens(t EventType) bool {
	return int(t) < len(x.listen) && x.listen[t] > 0
}

// rewind puts every instance back as Add placed it, and reports whether
// it could: not once an instance was removed, moved or given to another
// controller.
func (x *Index) rewind() bool {
	if x.changed || x.live != len(x.inst) {
		return false
	}
	x.gen++
	for i := range x.inst {
		t := &x.inst[i]
		t.usedRound, t.uses, t.latched, t.fired, t.fires = 0, 0, -1, -1, 0
	}
	return true
}

// Add places a trigger in the match and returns its instance's id.
// reactor is the entity carrying it (System for rules that belong to no
// entity), controller the player it belongs to, loc its location and pos its
// ordering position among reactions of the same priority and tier.
func (x *Index) Add(def *Trigger, reactor EntityID, controller PlayerID, loc LocationID, pos int64) TriggerID {
	x.gen++
	x.placed++
	id := TriggerID(len(x.inst))
	x.inst = append(x.inst, Instance{
		Def: def, ID: id, Reactor: reactor, Controller: controller,
		Location: loc, Pos: pos, Seq: int64(id), alive: true, latched: -1, fired: -1, next: NoTrigger,
	})
	x.file(id)
	if reactor != System {
		if head, ok := x.byReactor[reactor]; ok {
			x.inst[id].next = head
		}
		x.byReactor[reactor] = id
	}
	x.live++
	return id
}

func (x *Index) keys(t *Instance, visit func(bucketKey)) {
	kind, id := bucketAnywhere, int32(0)
	switch {
	case t.Def.Owner == Self:
		kind, id = bucketEntity, int32(t.Reactor)
	case t.Def.Scope == Here:
		kind, id = bucketLocation, int32(t.Location)
	}
	for _, typ := range t.Def.On {
		visit(bucketKey{typ: typ, phase: t.Def.Phase, kind: kind, id: id})
	}
}

func (x *Index) file(id TriggerID) {
	x.keys(&x.inst[id], func(k bucketKey) {
		b, _ := x.bucket(k)
		x.setBucket(k, append(b, id))
		for int(k.typ) >= len(x.listen) {
			x.listen = append(x.listen, 0)
		}
		x.listen[k.typ]++
		if k.kind == bucketEntity {
			x.entities++
		}
	})
}

func (x *Index) unfile(id TriggerID) {
	x.keys(&x.inst[id], func(k bucketKey) {
		b, _ := x.bucket(k)
		if i := slices.Index(b, id); i >= 0 {
			b[i] = b[len(b)-1]
			b = b[:len(b)-1]
			x.listen[k.typ]--
			if k.kind == bucketEntity {
				x.entities--
			}
		}
		x.setBucket(k, b)
	})
}

// Get returns the instance with the given id, or nil if there is none. The
// pointer is valid until the next Add.
func (x *Index) Get(id TriggerID) *Instance {
	if id < 0 || int(id) >= len(x.inst) {
		return nil
	}
	return &x.inst[id]
}

// Alive reports whether the instance is still in the match.
func (x *Index) Alive(id TriggerID) bool {
	return id >= 0 && int(id) < len(x.inst) && x.inst[id].alive
}

// Remove takes an instance out of the match. Reactions already scheduled for
// it are skipped when their turn comes.
func (x *Index) Remove(id TriggerID) {
	x.gen++
	x.changed = true
	t := x.Get(id)
	if t == nil || !t.alive {
		return
	}
	x.unfile(id)
	t.alive = false
	x.live--
	if t.Reactor != System {
		x.unlink(t)
	}
}

// unlink takes an instance out of its reactor's list.
func (x *Index) unlink(t *Instance) {
	head, ok := x.byReactor[t.Reactor]
	if !ok {
		return
	}
	if head == t.ID {
		if t.next == NoTrigger {
			delete(x.byReactor, t.Reactor)
		} else {
			x.byReactor[t.Reactor] = t.next
		}
		return
	}
	for prev := &x.inst[head]; prev.next != NoTrigger; prev = &x.inst[prev.next] {
		if prev.next == t.ID {
			prev.next = t.next
			return
		}
	}
}

// reactorIDs visits the live instances of an entity.
func (x *Index) reactorIDs(reactor EntityID, fn func(TriggerID)) {
	id, ok := x.byReactor[reactor]
	for ok && id != NoTrigger {
		next := x.inst[id].next
		fn(id)
		id = next
	}
}

// RemoveReactor takes every trigger of an entity out of the match, e.g.
// when a drone is destroyed.
func (x *Index) RemoveReactor(reactor EntityID) {
	x.reactorIDs(reactor, x.Remove)
}

// MoveReactor updates the location and position of every trigger of an
// entity, e.g. when a drone changes lane.
func (x *Index) MoveReactor(reactor EntityID, loc LocationID, pos int64) {
	x.reactorIDs(reactor, func(id TriggerID) { x.Move(id, loc, pos) })
}

// Move updates an instance's location and ordering position.
func (x *Index) Move(id TriggerID, loc LocationID, pos int64) {
	x.gen++
	x.changed = true
	t := x.Get(id)
	if t == nil || !t.alive {
		return
	}
	if t.Location != loc {
		x.unfile(id)
		t.Location = loc
		x.file(id)
	}
	t.Pos = pos
}

// SetController changes the controller of every trigger of an entity.
func (x *Index) SetController(reactor EntityID, p PlayerID) {
	x.gen++
	x.changed = true
	x.reactorIDs(reactor, func(id TriggerID) { x.inst[id].Controller = p })
}

// Of returns the ids of the live triggers an entity carries, in the order
// they were added.
func (x *Index) Of(reactor EntityID) []TriggerID {
	var ids []TriggerID
	x.reactorIDs(reactor, func(id TriggerID) { ids = append(ids, id) })
	slices.Reverse(ids)
	return ids
}

// Len returns the number of live instances.
func (x *Index) Len() int { return x.live }

// Each calls fn for every live instance in insertion order.
func (x *Index) Each(fn func(*Instance)) {
	for i := range x.inst {
		if x.inst[i].alive {
			fn(&x.inst[i])
		}
	}
}

// candidates returns the buckets of the live instances an event may
// match: by type and phase, anywhere, at its location and carried by its
// subject. The caller checks relations and tests. The buckets are the
// index's own, valid until it changes.
func (x *Index) candidates(ev *Event) (anywhere, here, self []TriggerID) {
	if ev.Phase == NoPhase {
		// Dense buckets, looked up without building a key (a board game's
		// every event).
		if t := int(ev.Type); t < x.types && x.stride > 0 {
			row := x.dense[t*x.stride : (t+1)*x.stride]
			anywhere = row[0]
			if l := ev.Location; l != NoLocation {
				if l >= 0 && l < denseLocations {
					if int(l)+1 < x.stride {
						here = row[l+1]
					}
				} else {
					here = x.buckets[bucketKey{typ: ev.Type, kind: bucketLocation, id: int32(l)}]
				}
			}
		} else if l := ev.Location; l != NoLocation && (l < 0 || l >= denseLocations) {
			here = x.buckets[bucketKey{typ: ev.Type, kind: bucketLocation, id: int32(l)}]
		}
	} else {
		anywhere, _ = x.bucket(bucketKey{typ: ev.Type, phase: ev.Phase, kind: bucketAnywhere})
		if ev.Location != NoLocation {
			here, _ = x.bucket(bucketKey{typ: ev.Type, phase: ev.Phase, kind: bucketLocation, id: int32(ev.Location)})
		}
	}
	if ev.Subject != System && x.entities > 0 {
		self = x.buckets[bucketKey{typ: ev.Type, phase: ev.Phase, kind: bucketEntity, id: int32(ev.Subject)}]
	}
	return anywhere, here, self
}

// relates reports whether an instance's owner relation and scope accept an
// event.
func relates(t *Instance, ev *Event) bool {
	if t.Def.Scope == Here && ev.Location != t.Location {
		return false
	}
	if t.Def.Others && ev.Subject == t.Reactor {
		return false
	}
	switch t.Def.Owner {
	case Any:
		return true
	case Self:
		return ev.Subject == t.Reactor
	case Controller:
		return ev.Player == t.Controller
	case Opponent:
		return ev.Player != NoPlayer && ev.Player != t.Controller
	}
	return false
}

// appendState appends a canonical encoding of the instances' dynamic state
// (for the match's state hash).
func (x *Index) appendState(b []byte) []byte {
	for i := range x.inst {
		t := &x.inst[i]
		b = AppendVarints(b, int64(t.ID), int64(t.Reactor), int64(t.Controller), int64(t.Location), t.Pos,
			Bit(t.alive), t.usedRound, int64(t.uses))
	}
	return b
}
