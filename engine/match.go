package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/tabulagames/tabula/engine/rng"
)

// Policy is how a game orders the reactions of a chain.
type Policy uint8

const (
	// DepthFirst resolves a reaction's whole cascade before its next
	// sibling runs, like a stack (the drone lane game, combat reactions).
	DepthFirst Policy = iota
	// PriorityAgenda keeps one queue of pending effects ordered by
	// priority, tier, position and insertion order, and looks at it again
	// after every effect (the party board game, rule books).
	PriorityAgenda
)

// Guard is the key of a chain's loop guard.
type Guard uint8

const (
	// NoGuard lets a trigger fire any number of times in a chain; only the
	// step budget stops a runaway.
	NoGuard Guard = iota
	// PerTrigger lets each trigger instance fire once per chain (a board
	// event fires once per settle).
	PerTrigger
	// PerPair lets each (reactor, source) pair fire once per chain; the
	// source is System when no entity caused the event.
	PerPair
)

// DefaultBudget is the step budget of a chain when Rules.Budget is 0.
const DefaultBudget = 100_000

// Rules is what a game gives the engine: its event types, its effects, how
// reactions are ordered and how loops are guarded. Build it once; many
// matches may then share it concurrently.
type Rules struct {
	Types   *Types
	Effects *Effects
	Policy  Policy
	Guard   Guard
	// Budget is the most steps (dispatches, firings and effects) one chain
	// may take; beyond it the chain ends with a RunawayError.
	Budget int
	// BudgetPerInput makes the budget count from the last answered
	// decision rather than from the start of the chain, and the
	// RunawayError name the triggers of that stretch only. It is for games
	// whose whole play is one chain that pauses at players' decisions (a
	// rule book's turns are rules): each stretch between two inputs gets
	// the whole budget, and a loop is told apart from a long game.
	BudgetPerInput bool
	// PlacedBetweenChains says that no effect places a trigger (Index.Add):
	// triggers are placed between chains only, when a match starts say
	// (removing and moving them is fine). A match on the priority agenda
	// that keeps no log and has no sink then keeps no event of a type no
	// trigger listens to: nothing could read it. An effect that places a
	// trigger all the same breaks the match.
	PlacedBetweenChains bool
}

// Canonical is implemented by game states that encode themselves for the
// state hash. States that do not are encoded with encoding/json, which is
// canonical for structs and maps with sorted keys but slower.
type Canonical interface {
	AppendCanonical(b []byte) []byte
}

// Namer is implemented by game states that name their entities, so that
// logs say "Odin" rather than "entity 2".
type Namer interface {
	EntityName(id EntityID) string
}

// Match is one game being played: the rules, the game's state, the trigger
// instances, the random streams, the log and the agenda of a chain in
// progress. A match is a deterministic state machine with no goroutines of
// its own; it must not be used by two goroutines at once.
type Match struct {
	Rules *Rules
	// State is the game's own state. Only effects change it.
	State any
	// Players are the seats' names, in seat order.
	Players []string
	// Index holds the match's trigger instances.
	Index *Index
	// RNG holds the match's named random streams.
	RNG *rng.Streams
	// Events are every event of the match, in emission order; an event's
	// Parent and a record's Event index into it.
	Events []Event

	records []Record
	// noLog forgets the records and events of each chain when it ends;
	// sink receives every record (SetLog).
	noLog bool
	// bare is noLog without a sink: records of events are not even made.
	bare      bool
	sink      Sink
	sunk      Record // an event's record given to the sink, not kept
	forgotten forgotten
	chain     int32
	actor     PlayerID
	round     int64
	steps     int
	err       error
	// budgetFrom is the first log record of the stretch the budget counts
	// (Rules.BudgetPerInput).
	budgetFrom int

	stack     []task // depth-first agenda
	heap      []task // priority agenda
	reactions []reaction
	seq       int64
	guard     guardSet

	emitted []EventRef
	then    []task

	suspended    task
	hasSuspended bool
	asked        []Decision
	answers      []Input
	answered     []bool

	// hash caches the state hash; it is valid while hashed is true and
	// the index has not changed since (Index.gen == hashGen).
	hash    string
	hashed  bool
	hashGen uint64

	rollback rollback
	cur      task // the task being run
	running  bool // an effect is running
	ctx      Ctx
	lastAsk  askCache
}

// CheckPlayers checks the names of a match's players, as games take them
// from a command line or a lobby: each must have one, and no two the same.
func CheckPlayers(players []string) error {
	seen := make(map[string]bool, len(players))
	for _, name := range players {
		if strings.TrimSpace(name) == "" {
			return fmt.Errorf("a player needs a name")
		}
		if seen[name] {
			return fmt.Errorf("two players are called %q", name)
		}
		seen[name] = true
	}
	return nil
}

// Replay applies a match's commands again, in order, as a stored match is
// rebuilt; the error names the first command refused, by its index.
func Replay[C any](cmds []C, apply func(C) error) error {
	for i, c := range cmds {
		if err := apply(c); err != nil {
			return fmt.Errorf("command %d (%+v): %w", i, c, err)
		}
	}
	return nil
}

// NewMatch starts a match of the given rules on a game state, with a master
// seed for its random streams and the names of its players.
func NewMatch(rules *Rules, state any, seed uint64, players []string) *Match {
	// Buffers are sized for a short chain, so that resolving one
	// allocates little even in a fresh match, and a server holding
	// thousands of matches waiting for their players holds little more
	// than they use: they grow with the log and the longest chain.
	return &Match{
		Rules:   rules,
		State:   state,
		Players: players,
		Index:   newIndex(rules.Types.Len()),
		RNG:     rng.New(seed),
		actor:   NoPlayer,
		Events:  make([]Event, 0, 8),
		records: make([]Record, 0, 16),
		stack:   make([]task, 0, 4),
		emitted: make([]EventRef, 0, 8),
		then:    make([]task, 0, 2),
		guard:   guardSet{small: make([]uint64, 0, guardSmall)},
	}
}

// Reset makes m a new match of the same rules and players, with the given
// game state and master seed, exactly as NewMatch would, but keeps the
// memory m has allocated (its log, its agenda, its index): a simulation
// that plays many matches one after another then allocates little. The
// index is emptied, so the game places its triggers again; what SetLog
// said still holds. Reset must not be called from inside an effect.
func (m *Match) Reset(state any, seed uint64) {
	m.reset(state, seed, false)
}

// ResetKeepingTriggers is Reset for a match that places the same
// triggers, in the same order, at every start: it keeps the triggers
// placed, as they were placed, and reports true, saving the game from
// placing them again; or, when a trigger was removed, moved or given to
// another player since they were placed, it resets the match as Reset
// does and reports false, and the game places its triggers again.
func (m *Match) ResetKeepingTriggers(state any, seed uint64) bool {
	return m.reset(state, seed, true)
}

func (m *Match) reset(state any, seed uint64, keep bool) (kept bool) {
	if m.running {
		panic("engine: Reset called from inside an effect")
	}
	m.State = state
	m.hashed = false
	if kept = keep && m.Index.rewind(); !kept {
		m.Index.reset()
	}
	m.RNG.Reset(seed)
	m.Events = m.Events[:0]
	m.records = m.records[:0]
	m.forgotten = forgotten{}
	m.chain, m.actor, m.round, m.steps, m.err = 0, NoPlayer, 0, 0, nil
	m.stack, m.heap, m.reactions = m.stack[:0], m.heap[:0], m.reactions[:0]
	m.seq = 0
	m.guard.reset()
	m.emitted, m.then = m.emitted[:0], m.then[:0]
	m.suspended, m.hasSuspended = task{}, false
	m.asked, m.answers, m.answered = m.asked[:0], m.answers[:0], m.answered[:0]
	m.rollback, m.cur, m.ctx = rollback{}, task{}, Ctx{}
	return kept
}

// task is one item of the agenda.
type task struct {
	kind   uint8
	effect int16 // index into the trigger's effects; -1 for call
	event  EventRef
	trig   TriggerID
	depth  int32
	react  int32 // reaction (priority agenda), -1 if none
	call   EffectCall
	// ordering key (priority agenda and sorting of siblings)
	prio Priority
	tier int32
	pos  int64
	seq  int64
}

const (
	taskEffect uint8 = iota
	taskFire
	taskDispatch
)

// reaction is one trigger scheduled for one event on the priority agenda.
type reaction struct {
	trig    TriggerID
	event   EventRef
	depth   int32
	state   uint8
	pending int32 // effects not yet run
}

const (
	reactionPending uint8 = iota
	reactionFired
	reactionSkipped
)

// TriggerStatus returns where a trigger instance stands in the current
// chain. Between chains every live instance is Ready.
func (m *Match) TriggerStatus(id TriggerID) Status {
	t := m.Index.Get(id)
	switch {
	case t == nil || !t.alive:
		return Removed
	case m.hasSuspended && m.suspended.trig == id:
		return Running
	case !m.inChain():
		return Ready
	case t.fired == m.chain:
		return Done
	case t.latched == m.chain:
		return Scheduled
	}
	return Ready
}

// inChain reports whether a chain is in progress (running or paused).
func (m *Match) inChain() bool {
	return m.running || m.hasSuspended || len(m.stack) > 0 || len(m.heap) > 0
}

// Err returns the error that broke the match (a runaway chain, a failing
// effect), or nil. A broken match refuses further commands; rebuild it by
// replaying its accepted commands.
func (m *Match) Err() error { return m.err }

// Chain returns the number of the current (or last) chain.
func (m *Match) Chain() int32 { return m.chain }

// Actor returns the acting player of the current chain.
func (m *Match) Actor() PlayerID { return m.actor }

// Round returns the round counter advanced by NewRound.
func (m *Match) Round() int64 { return m.round }

// NewRound starts a new round: triggers with UsesPerRound may fire again.
func (m *Match) NewRound() { m.round++; m.hashed = false }

// Touch tells the match that its game state changed outside an effect (a
// scenario's setup, a test), so that the state hash is computed again.
// Effects need not call it.
func (m *Match) Touch() { m.hashed = false }

// PlayerName returns a seat's name, or "player N".
func (m *Match) PlayerName(p PlayerID) string {
	if p >= 0 && int(p) < len(m.Players) {
		return m.Players[p]
	}
	if p == NoPlayer {
		return "nobody"
	}
	return "player " + strconv.Itoa(int(p))
}

// EntityName returns an entity's name if the state names its entities.
func (m *Match) EntityName(id EntityID) string {
	if id == System {
		return "system"
	}
	if n, ok := m.State.(Namer); ok {
		if s := n.EntityName(id); s != "" {
			return s
		}
	}
	return "entity " + strconv.Itoa(int(id))
}

// Run starts a chain: the acting player's command, expressed as an effect
// call, runs and everything it causes is resolved until the agenda is empty
// or a decision is needed. A RejectError means nothing changed; any other
// error breaks the match (see Err).
func (m *Match) Run(actor PlayerID, call EffectCall) error {
	if m.err != nil {
		return m.err
	}
	if m.running {
		return errors.New("engine: Run called from inside an effect; use Ctx.Then")
	}
	if m.hasSuspended {
		return &RejectError{Reason: "waiting for " + m.waitingNames()}
	}
	m.hashed = false
	m.chain++
	m.actor = actor
	m.steps = 0
	m.budgetFrom = len(m.records)
	// Both are written field by field: a composite literal is built
	// aside and copied in wide moves, which wait for its narrow stores to
	// land (a store-forwarding stall), a chain's largest cost on some CPUs.
	rb := &m.rollback
	rb.events, rb.records, rb.seq = len(m.Events), len(m.records), m.seq
	rb.forgotten.events, rb.forgotten.records = m.forgotten.events, m.forgotten.records
	// The agenda is empty between chains: the command's effect is the
	// first task, run without going through the agenda.
	t := &m.cur
	t.kind, t.effect, t.event, t.trig, t.depth, t.react = taskEffect, -1, NoEvent, NoTrigger, 0, -1
	t.call.ID, t.call.Name, t.call.Args, t.call.Priority, t.call.HasPriority = call.ID, call.Name, call.Args, call.Priority, call.HasPriority
	t.prio, t.tier, t.pos, t.seq = call.Priority, 0, 0, m.nextSeq()
	return m.resolve(true)
}

// rollback is what Run restores when the command's own effect rejects it.
type rollback struct {
	events, records int
	seq             int64
	forgotten       forgotten
}

// reject undoes the start of a chain whose command was rejected, so that a
// rejected command leaves no trace: effects reject before changing anything.
func (m *Match) reject(err error) error {
	m.endChain()
	m.chain--
	m.Events = m.Events[:m.rollback.events]
	m.records = m.records[:m.rollback.records]
	m.seq = m.rollback.seq
	m.forgotten = m.rollback.forgotten
	return err
}

func (m *Match) nextSeq() int64 {
	m.seq++
	return m.seq
}

// resolve works through the agenda until it is empty (the chain ends) or a
// decision is pending. With first set, the task in m.cur runs first.
func (m *Match) resolve(first bool) (err error) {
	defer func() {
		if m.running { // an effect panicked
			m.recoverEffect(recover(), &err)
		}
	}()
	budget := m.Rules.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	for !m.hasSuspended {
		t := &m.cur // the Ctx of an effect points at it, so it lives in the match
		if first {
			first = false
		} else if !m.pop(t) {
			m.endChain()
			if m.noLog {
				m.ClearLog()
			}
			return nil
		}
		m.steps++
		if m.steps > budget {
			return m.fail(m.runaway(budget))
		}
		var err error
		switch t.kind {
		case taskDispatch:
			err = m.dispatch(t.event)
		case taskFire:
			m.fire(t)
		case taskEffect:
			if t.react >= 0 && !m.startReaction(t) {
				continue
			}
			err = m.runEffect(t)
		}
		if err != nil {
			if m.steps == 1 && IsRejected(err) {
				return m.reject(err)
			}
			return m.fail(err)
		}
	}
	return nil
}

func (m *Match) endChain() {
	m.guard.reset()
	m.reactions = m.reactions[:0]
	m.stack = m.stack[:0]
	m.heap = m.heap[:0]
}

func (m *Match) fail(err error) error {
	m.record(&Record{Kind: RecError, Event: NoEvent, Trigger: NoTrigger, Text: err.Error()})
	m.err = err
	m.endChain()
	m.hasSuspended = false
	if m.noLog {
		m.ClearLog()
	}
	return err
}

func (m *Match) push(t task) {
	if m.Rules.Policy == PriorityAgenda {
		m.heapPush(&t)
	} else {
		m.stack = append(m.stack, t)
	}
}

// pop takes the next task off the agenda into dst, and reports whether
// there was one.
func (m *Match) pop(dst *task) bool {
	if m.Rules.Policy == PriorityAgenda {
		return m.heapPop(dst)
	}
	n := len(m.stack)
	if n == 0 {
		return false
	}
	*dst = m.stack[n-1]
	m.stack = m.stack[:n-1]
	return true
}

// copyTask copies a task field by field. Tasks are written field by field
// and soon moved on the agenda; a whole copy, in wide moves, would wait
// for those writes to land (a store-forwarding stall), which on some CPUs
// costs more than the rest of a reaction.
func copyTask(dst, src *task) {
	dst.kind, dst.effect, dst.event, dst.trig, dst.depth, dst.react = src.kind, src.effect, src.event, src.trig, src.depth, src.react
	dst.call.ID, dst.call.Name, dst.call.Args = src.call.ID, src.call.Name, src.call.Args
	dst.call.Priority, dst.call.HasPriority = src.call.Priority, src.call.HasPriority
	dst.prio, dst.tier, dst.pos, dst.seq = src.prio, src.tier, src.pos, src.seq
}

// before reports whether a runs before b: higher priority, then lower tier,
// then lower position, then earlier insertion.
func before(a, b *task) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if a.pos != b.pos {
		return a.pos < b.pos
	}
	return a.seq < b.seq
}

// heapPush and heapPop keep the priority agenda as a binary heap. Tasks
// are large, so both move a hole rather than swapping: each level costs
// one copy (copyTask).
func (m *Match) heapPush(t *task) {
	copyTask(m.heapAdd(), t)
	m.heapUp()
}

// heapAdd adds an empty task at the end of the heap, for the caller to
// fill before heapUp puts it in its place.
func (m *Match) heapAdd() *task {
	m.heap = append(m.heap, task{})
	return &m.heap[len(m.heap)-1]
}

// heapUp moves the heap's last task up to its place. Most stay where they
// are: it is copied only if it moves.
func (m *Match) heapUp() {
	h := m.heap
	i := len(h) - 1
	if i == 0 || !before(&h[i], &h[(i-1)/2]) {
		return
	}
	var t task
	copyTask(&t, &h[i])
	for i > 0 {
		p := (i - 1) / 2
		if !before(&t, &h[p]) {
			break
		}
		copyTask(&h[i], &h[p])
		i = p
	}
	copyTask(&h[i], &t)
}

func (m *Match) heapPop(dst *task) bool {
	h := m.heap
	n := len(h) - 1
	if n < 0 {
		return false
	}
	copyTask(dst, &h[0])
	if n > 0 {
		last := &h[n]
		i := 0
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			if r := l + 1; r < n && before(&h[r], &h[l]) {
				l = r
			}
			if !before(&h[l], last) {
				break
			}
			copyTask(&h[i], &h[l])
			i = l
		}
		copyTask(&h[i], last)
	}
	m.heap = h[:n]
	return true
}

// tier orders reactions by whose they are: the event's subject itself
// first, then the acting player's, then the other players' in seat order
// from the acting player. Triggers of nobody (board spaces, rules) share the
// acting player's tier.
func (m *Match) tier(t *Instance, ev *Event) int32 {
	if ev.Subject != System && ev.Subject == t.Reactor {
		return 0
	}
	if t.Controller == NoPlayer || m.actor == NoPlayer {
		return 1 + int32(max(t.Controller, 0))
	}
	seats := int32(max(len(m.Players), 1))
	return 1 + (int32(t.Controller)-int32(m.actor)+seats)%seats
}

// dispatch finds the triggers an event sets off and schedules them: on the
// stack (depth-first, so the first runs next) or on the priority agenda.
func (m *Match) dispatch(ref EventRef) error {
	ev := &m.Events[ref]
	anywhere, here, self := m.Index.candidates(ev)
	if len(anywhere)+len(here)+len(self) == 0 {
		return nil
	}
	depth := ev.Depth + 1
	var sorted []task
	base := len(m.stack)
	// The buckets are read in place: nothing below changes the index.
	for _, bucket := range [...][]TriggerID{anywhere, here, self} {
		for _, id := range bucket {
			if err := m.consider(ref, ev, id, depth, base, &sorted); err != nil {
				return err
			}
		}
	}
	return nil
}

// consider schedules the instance id for the event ev (ref) if it reacts
// to it: on the priority agenda, or sorted into the tail of the stack from
// base on (sorted).
func (m *Match) consider(ref EventRef, ev *Event, id TriggerID, depth int32, base int, sorted *[]task) error {
	inst := &m.Index.inst[id]
	if !inst.alive || !relates(inst, ev) {
		return nil
	}
	if m.Rules.Policy == PriorityAgenda && m.Rules.Guard == PerTrigger && inst.latched == m.chain {
		return nil // latched: already scheduled or fired in this chain
	}
	if inst.Def.Filter != nil && !inst.Def.Filter.Match(m.State, ev, inst) {
		return nil
	}
	if inst.Def.Condition != nil {
		ok, err := inst.Def.Condition.Holds(m.State, ev, inst)
		if err != nil {
			return fmt.Errorf("trigger %s: condition: %w", inst.Def.Name, err)
		}
		if !ok {
			return nil
		}
	}
	inst.latched = m.chain
	if m.Rules.Policy == PriorityAgenda {
		m.scheduleReaction(ref, id, depth, m.tier(inst, ev), inst)
		return nil
	}
	// Field by field: a literal would be built aside and copied (see
	// copyTask).
	var t task
	t.kind, t.effect, t.event, t.trig, t.depth, t.react = taskFire, -1, ref, id, depth, -1
	t.prio, t.tier, t.pos, t.seq = inst.Def.Priority, m.tier(inst, ev), inst.Pos, inst.Seq
	// Insertion sort into the tail of the stack, in reverse order so
	// that the first reaction is on top.
	m.stack = append(m.stack, t)
	s := m.stack[base:]
	for i := len(s) - 1; i > 0 && before(&s[i-1], &s[i]); i-- {
		s[i-1], s[i] = s[i], s[i-1]
	}
	*sorted = s
	return nil
}

// scheduleReaction puts one item per effect of the trigger instance id,
// matched by the event ref, on the priority agenda. The reaction fires
// when its first item comes up.
func (m *Match) scheduleReaction(ref EventRef, id TriggerID, depth, tier int32, inst *Instance) {
	r := int32(len(m.reactions))
	m.reactions = append(m.reactions, reaction{})
	re := &m.reactions[r]
	re.trig, re.event, re.depth, re.pending = id, ref, depth, int32(len(inst.Def.Effects))
	for i := range inst.Def.Effects {
		// Written in place at the heap's end, then moved up if need be.
		it := m.heapAdd()
		it.kind, it.effect, it.event, it.trig, it.depth, it.react = taskEffect, int16(i), ref, id, depth, r
		it.prio, it.tier, it.pos, it.seq = inst.Def.Priority, tier, inst.Pos, m.nextSeq()
		if call := &inst.Def.Effects[i]; call.HasPriority {
			it.prio = call.Priority
		}
		m.heapUp()
	}
}

// startReaction is called for each item of a reaction on the priority
// agenda; the first one fires the reaction. It reports whether the item
// should run.
func (m *Match) startReaction(t *task) bool {
	r := &m.reactions[t.react]
	switch r.state {
	case reactionFired:
		return true
	case reactionSkipped:
		return false
	}
	if m.admit(t) {
		r.state = reactionFired
		return true
	}
	r.state = reactionSkipped
	return false
}

// fire runs the checks of a scheduled reaction (liveness, uses, loop guard)
// and, if it passes, records the firing and schedules its effects.
func (m *Match) fire(t *task) {
	if !m.admit(t) {
		return
	}
	inst := &m.Index.inst[t.trig]
	effects := inst.Def.Effects
	for i := len(effects) - 1; i >= 0; i-- {
		m.stack = append(m.stack, task{kind: taskEffect, effect: int16(i), event: t.event, trig: t.trig, depth: t.depth, react: -1})
	}
}

// admit decides whether a scheduled reaction fires, records the outcome,
// and marks the guard, the uses and Once triggers.
func (m *Match) admit(t *task) bool {
	inst := &m.Index.inst[t.trig]
	ev := &m.Events[t.event]
	var rec Record // field by field: see consider
	rec.Event, rec.Trigger, rec.Depth, rec.Reactor, rec.Source = t.event, t.trig, t.depth, inst.Reactor, ev.Source
	if !inst.alive {
		rec.Kind, rec.Text = RecSkipped, "removed"
		m.record(&rec)
		return false
	}
	def := inst.Def
	if def.UsesPerRound > 0 {
		if inst.usedRound != m.round {
			inst.usedRound, inst.uses = m.round, 0
		}
		if int(inst.uses) >= def.UsesPerRound {
			rec.Kind, rec.Text = RecSkipped, "no uses left this round"
			m.record(&rec)
			return false
		}
	}
	var key uint64
	switch m.Rules.Guard {
	case PerTrigger:
		key = uint64(t.trig)
	case PerPair:
		key = uint64(uint32(inst.Reactor))<<32 | uint64(uint32(ev.Source))
	}
	if m.Rules.Guard != NoGuard && !m.guard.add(key) {
		rec.Kind = RecBlocked
		m.record(&rec)
		return false
	}
	if def.UsesPerRound > 0 {
		inst.uses++
	}
	rec.Kind = RecFired
	inst.fired = m.chain
	inst.fires++
	m.record(&rec)
	if def.Once {
		m.Index.Remove(t.trig)
	}
	return true
}

// runEffect runs one effect. Events it emits are dispatched and the
// continuations it asked for are scheduled after it returns: on the stack,
// continuations go below the events, so the events' cascades finish first.
func (m *Match) runEffect(t *task) error {
	call := &t.call
	if t.effect >= 0 {
		call = &m.Index.inst[t.trig].Def.Effects[t.effect]
	}
	fn := m.Rules.Effects.fns[call.ID]
	m.emitted = m.emitted[:0]
	m.then = m.then[:0]
	c := &m.ctx
	*c = Ctx{m: m, task: t}
	placed := m.Index.placed
	err := m.call(fn, c, call)
	if m.Rules.PlacedBetweenChains && m.Index.placed != placed && err == nil {
		err = fmt.Errorf("it placed a trigger, which the game's rules say no effect does (Rules.PlacedBetweenChains)")
	}
	c.m = nil // a Ctx must not be kept beyond the call
	if err != nil && errors.Is(err, errAsked) {
		m.suspended = *t
		m.hasSuspended = true
		for i := range m.asked {
			d := &m.asked[i]
			text := "" // made for the log only
			if !m.noLog || m.sink != nil {
				text = m.askText(d)
			}
			m.record(&Record{Kind: RecAsk, Event: t.event, Trigger: t.trig, Depth: t.depth, Player: d.Player, Text: text})
		}
		err = nil
	} else if err != nil {
		if IsRejected(err) {
			return err
		}
		if t.trig != NoTrigger {
			return fmt.Errorf("trigger %s: effect %s: %w", m.Index.inst[t.trig].Def.Name, call.Name, err)
		}
		return fmt.Errorf("effect %s: %w", call.Name, err)
	} else if len(m.asked) > 0 {
		// The effect ran with its answers: the pause is over.
		m.asked, m.answers, m.answered = m.asked[:0], m.answers[:0], m.answered[:0]
	}
	if m.Rules.Policy == PriorityAgenda {
		for _, ref := range m.emitted {
			if err := m.dispatch(ref); err != nil {
				return err
			}
		}
		for i := range m.then {
			m.then[i].seq = m.nextSeq()
			m.heapPush(&m.then[i])
		}
		return nil
	}
	for i := len(m.then) - 1; i >= 0; i-- {
		m.stack = append(m.stack, m.then[i])
	}
	for i := len(m.emitted) - 1; i >= 0; i-- {
		m.stack = append(m.stack, task{kind: taskDispatch, effect: -1, event: m.emitted[i], trig: NoTrigger, react: -1})
	}
	return nil
}

// askText returns the text of a decision's record, "kind: prompt". The
// last one is kept, since a game asks the same question again and again.
func (m *Match) askText(d *Decision) string {
	if c := &m.lastAsk; c.text == "" || c.kind != d.Kind || c.prompt != d.Prompt {
		*c = askCache{kind: d.Kind, prompt: d.Prompt, text: d.Kind + ": " + d.Prompt}
	}
	return m.lastAsk.text
}

type askCache struct{ kind, prompt, text string }

// call runs an effect function. A panic in it is turned into an error by
// resolve (recoverEffect), once per chain rather than once per effect.
func (m *Match) call(fn effectFunc, c *Ctx, call *EffectCall) error {
	m.running = true
	err := fn(c, call.Args)
	m.running = false
	return err
}

// recoverEffect turns a panic of the effect under way (m.cur) into the
// error the effect would have returned, and breaks the match with it: a
// bug in one effect must not take down a server that hosts many matches.
// Any other panic goes on. It is deferred by resolve, and calls recover
// itself only through the deferred function.
func (m *Match) recoverEffect(p any, err *error) {
	m.running = false
	m.ctx.m = nil
	t := &m.cur
	call := &t.call
	if t.effect >= 0 {
		call = &m.Index.inst[t.trig].Def.Effects[t.effect]
	}
	e := fmt.Errorf("panic: %v", p)
	if t.trig != NoTrigger {
		e = fmt.Errorf("trigger %s: effect %s: %w", m.Index.inst[t.trig].Def.Name, call.Name, e)
	} else {
		e = fmt.Errorf("effect %s: %w", call.Name, e)
	}
	*err = m.fail(e)
}

// RunawayError ends a chain that took more steps than the budget allows.
type RunawayError struct {
	Chain  int32
	Steps  int
	Counts []TriggerCount // the triggers that fired most in the chain
}

// TriggerCount is how often one trigger fired in a runaway chain.
type TriggerCount struct {
	Trigger string
	Fired   int
}

func (e *RunawayError) Error() string {
	msg := fmt.Sprintf("runaway chain %d: more than %d steps without settling", e.Chain, e.Steps)
	if len(e.Counts) == 0 {
		return msg + " (no trigger fired; an effect keeps scheduling itself)"
	}
	msg += "; the loop is"
	for i, c := range e.Counts {
		if i > 0 {
			msg += " →"
		}
		msg += fmt.Sprintf(" %s (%d×)", c.Trigger, c.Fired)
	}
	return msg + "; add a condition or a loop guard so that it ends"
}

// runaway builds the error naming the triggers that repeat in the chain,
// most frequent first, from the chain's firing records.
func (m *Match) runaway(budget int) error {
	counts := map[TriggerID]int{}
	var order []TriggerID
	for i := len(m.records) - 1; i >= 0 && m.records[i].Chain == m.chain && (!m.Rules.BudgetPerInput || i >= m.budgetFrom); i-- {
		if r := m.records[i]; r.Kind == RecFired {
			if counts[r.Trigger] == 0 {
				order = append(order, r.Trigger)
			}
			counts[r.Trigger]++
		}
	}
	e := &RunawayError{Chain: m.chain, Steps: budget}
	// order is latest-first; keep the loop's order by reversing it.
	for i := len(order) - 1; i >= 0; i-- {
		id := order[i]
		if counts[id] > 1 {
			e.Counts = append(e.Counts, TriggerCount{Trigger: m.Index.inst[id].Def.Name, Fired: counts[id]})
		}
	}
	if len(e.Counts) > 5 {
		e.Counts = e.Counts[:5]
	}
	return e
}

// Hash returns the state hash: SHA-256 over a canonical encoding of the
// game state, the random streams, the trigger instances, the agenda and the
// pending decisions (but not the choices of sealed answers, secret until
// every answer is in). Two matches with the same rules, seed and commands have
// the same hash after every command.
//
// The hash is computed once per state and cached: a server asks for it for
// the store and for every viewer. Effects, Run, Answer, Reset, NewRound and
// changes to the index make it stale; a game that changes its state any
// other way calls Touch.
func (m *Match) Hash() string {
	if m.hashed && m.hashGen == m.Index.gen {
		return m.hash
	}
	m.hash, m.hashed, m.hashGen = m.computeHash(), true, m.Index.gen
	return m.hash
}

func (m *Match) computeHash() string {
	buf := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(buf)
	b := (*buf)[:0]
	if c, ok := m.State.(Canonical); ok {
		b = c.AppendCanonical(b)
	} else {
		js, err := json.Marshal(m.State)
		if err != nil {
			js = []byte(err.Error())
		}
		b = append(b, js...)
	}
	b = m.RNG.AppendState(b)
	b = m.Index.appendState(b)
	b = AppendVarints(b, int64(m.chain), m.round, int64(m.forgotten.events+len(m.Events)), int64(m.forgotten.records+len(m.records)), Bit(m.hasSuspended))
	for i := range m.stack {
		b = m.appendTask(b, &m.stack[i])
	}
	for i := range m.heap {
		b = m.appendTask(b, &m.heap[i])
	}
	if m.hasSuspended {
		b = m.appendTask(b, &m.suspended)
		for i, d := range m.asked {
			choice := int64(m.answers[i].Choice)
			if d.Sealed {
				choice = 0 // secret until every answer is in
			}
			b = AppendVarints(b, int64(d.Player), int64(len(d.Options)), Bit(m.answered[i]), choice)
			b = append(b, d.Kind...)
		}
	}
	if cap(b) <= 1<<16 {
		*buf = b
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// hashBufs are the buffers states are encoded in for their hash, kept
// from hash to hash rather than by every match.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendTask encodes a task of the agenda for the hash, its event as
// numbered in a kept log.
func (m *Match) appendTask(b []byte, t *task) []byte {
	event := int64(t.event)
	if t.event != NoEvent {
		event += int64(m.forgotten.events)
	}
	return AppendVarints(b, int64(t.kind), int64(t.effect), event, int64(t.trig), int64(t.depth),
		int64(t.react), int64(t.call.ID), int64(t.prio), int64(t.tier), t.pos, t.seq)
}
