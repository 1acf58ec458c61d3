// Package value holds modifiable values: a number such as an armour class
// or an attack bonus, made of a base and of the modifiers that many sources
// (conditions, equipment, the rules) put on it, each of which can be taken
// off again by whoever put it there.
//
// A modifier sits in one of four channels:
//
//	SelfStatic          always counts toward the value itself
//	SelfContextual      counts toward the value when its condition holds
//	ToTargetStatic      counts toward the value of whoever interacts with
//	                    this one, once that value imports it
//	ToTargetContextual  the same, when its condition holds
//
// During an interaction (an attack: the attack bonus against the armour
// class) each side imports the other's outgoing channels with Import and
// drops them with ResetImport; the import is live, so a modifier changed
// or added on the other side counts at once.
//
// A value aggregates its active modifiers as follows. Bonuses are summed
// onto the base, then the min and max constraints clamp the sum; when there
// are several constraints the loosest wins (the lowest minimum, the highest
// maximum). Advantage counts +1 and disadvantage −1, summed: above zero the
// roll has advantage, below zero disadvantage. NoCrit beats AutoCrit and
// AlwaysMiss beats AlwaysHit. Resistances count per damage type (immunity
// 2, resistance 1, vulnerability −1), summed.
//
// Contextual modifiers are conditions over a Context: the entity whose
// value holds the modifier (Source), the entity it is dealing with (Target)
// and the situation the game describes (Data). An imported modifier is
// evaluated in the context of the value that exports it, as its owner sees
// the interaction.
//
// Everything here is deterministic: modifiers are kept in the order they
// were added, identified by numbers the value hands out, and no result
// depends on map iteration.
package value

import (
	"encoding/binary"
	"strconv"

	"github.com/tabulagames/tabula/engine"
)

// Channel is where a modifier counts: toward the value itself or toward
// the value of whoever interacts with it, always or only in context.
type Channel uint8

// The four channels.
const (
	SelfStatic Channel = iota
	SelfContextual
	ToTargetStatic
	ToTargetContextual
)

var channelNames = [...]string{"self_static", "self_contextual", "to_target_static", "to_target_contextual"}

// String returns the channel's name as data files write it (self_static …).
func (c Channel) String() string {
	if int(c) < len(channelNames) {
		return channelNames[c]
	}
	return "channel?"
}

// ParseChannel returns the channel with the given name.
func ParseChannel(name string) (Channel, bool) {
	for i, n := range channelNames {
		if n == name {
			return Channel(i), true
		}
	}
	return 0, false
}

// ChannelNames lists the channel names in order.
func ChannelNames() []string { return append([]string(nil), channelNames[:]...) }

// Contextual reports whether modifiers in the channel depend on a condition.
func (c Channel) Contextual() bool { return c == SelfContextual || c == ToTargetContextual }

// Outgoing reports whether the channel counts toward other values.
func (c Channel) Outgoing() bool { return c == ToTargetStatic || c == ToTargetContextual }

// Kind is what a modifier does to a value.
type Kind uint8

// The kinds of modifiers.
const (
	// KindBonus adds N to the value.
	KindBonus Kind = iota + 1
	// KindMin keeps the value at N or above.
	KindMin
	// KindMax keeps the value at N or below.
	KindMax
	// KindAdvantage gives the roll advantage (N = +1) or disadvantage (−1).
	KindAdvantage
	// KindCritical makes hits critical (N = AutoCrit) or never critical
	// (N = NoCrit).
	KindCritical
	// KindAutoHit makes attacks always hit (N = AlwaysHit) or always miss
	// (N = AlwaysMiss).
	KindAutoHit
	// KindResistance changes how damage of DamageType is taken (N is a
	// Resistance).
	KindResistance
)

var kindNames = [...]string{"", "bonus", "min", "max", "advantage", "critical", "autoHit", "resistance"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return "kind?"
}

// Advantage is whether a d20 roll is made with advantage (two dice, the
// higher counts), disadvantage (the lower counts) or neither.
type Advantage int8

// The advantage statuses.
const (
	Disadvantaged Advantage = -1
	Straight      Advantage = 0
	Advantaged    Advantage = 1
)

// String returns ADVANTAGE, DISADVANTAGE or NONE.
func (a Advantage) String() string {
	switch {
	case a > 0:
		return "ADVANTAGE"
	case a < 0:
		return "DISADVANTAGE"
	}
	return "NONE"
}

// Critical is whether hits are always, never or normally critical.
type Critical int8

// The critical statuses.
const (
	NormalCrit Critical = iota
	AutoCrit
	NoCrit
)

// String returns NORMAL, AUTOCRIT or NOCRIT.
func (c Critical) String() string {
	switch c {
	case AutoCrit:
		return "AUTOCRIT"
	case NoCrit:
		return "NOCRIT"
	}
	return "NORMAL"
}

// AutoHit is whether attacks always hit, always miss or roll normally.
type AutoHit int8

// The auto-hit statuses.
const (
	NormalHit AutoHit = iota
	AlwaysHit
	AlwaysMiss
)

// String returns NORMAL, AUTOHIT or AUTOMISS.
func (h AutoHit) String() string {
	switch h {
	case AlwaysHit:
		return "AUTOHIT"
	case AlwaysMiss:
		return "AUTOMISS"
	}
	return "NORMAL"
}

// Resistance is how a creature takes one type of damage.
type Resistance int8

// The resistance statuses; their numbers are what a modifier counts.
const (
	Vulnerable   Resistance = -1
	NoResistance Resistance = 0
	Resistant    Resistance = 1
	Immune       Resistance = 2
)

var resistanceNames = map[string]Resistance{"vulnerability": Vulnerable, "none": NoResistance, "resistance": Resistant, "immunity": Immune}

// ParseResistance returns the status named vulnerability, none, resistance
// or immunity.
func ParseResistance(name string) (Resistance, bool) {
	r, ok := resistanceNames[name]
	return r, ok
}

// ResistanceNames lists the names ParseResistance accepts.
func ResistanceNames() []string { return []string{"immunity", "resistance", "none", "vulnerability"} }

// String returns the status's name (immunity, resistance, none,
// vulnerability).
func (r Resistance) String() string {
	switch r {
	case Vulnerable:
		return "vulnerability"
	case Resistant:
		return "resistance"
	case Immune:
		return "immunity"
	}
	return "none"
}

// resistanceOf turns a sum of resistance modifiers into a status: above 1
// immunity, 1 resistance, 0 none, below 0 vulnerability. Two resistances
// therefore make an immunity.
func resistanceOf(sum int) Resistance {
	switch {
	case sum > 1:
		return Immune
	case sum == 1:
		return Resistant
	case sum < 0:
		return Vulnerable
	}
	return NoResistance
}

// Apply returns the damage a creature with this status takes from amount:
// none when immune, half (rounded down) when resistant, double when
// vulnerable.
func (r Resistance) Apply(amount int) int {
	switch r {
	case Immune:
		return 0
	case Resistant:
		return amount / 2
	case Vulnerable:
		return amount * 2
	}
	return amount
}

// Modifier is one change to a value. Build it with Bonus, AtLeast, AtMost,
// WithAdvantage, WithCritical, WithAutoHit or WithResistance.
type Modifier struct {
	// Name says where it comes from ("Shield", "Long range").
	Name string
	Kind Kind
	// N is the bonus or bound, or the status as a number.
	N int
	// DamageType is the type a resistance modifier concerns.
	DamageType string
}

// Bonus adds n (negative for a penalty).
func Bonus(name string, n int) Modifier { return Modifier{Name: name, Kind: KindBonus, N: n} }

// AtLeast keeps the value at n or above.
func AtLeast(name string, n int) Modifier { return Modifier{Name: name, Kind: KindMin, N: n} }

// AtMost keeps the value at n or below.
func AtMost(name string, n int) Modifier { return Modifier{Name: name, Kind: KindMax, N: n} }

// WithAdvantage gives advantage (Advantaged) or disadvantage (Disadvantaged).
func WithAdvantage(name string, a Advantage) Modifier {
	return Modifier{Name: name, Kind: KindAdvantage, N: int(a)}
}

// WithCritical makes hits always (AutoCrit) or never (NoCrit) critical.
func WithCritical(name string, c Critical) Modifier {
	return Modifier{Name: name, Kind: KindCritical, N: int(c)}
}

// WithAutoHit makes attacks always hit (AlwaysHit) or always miss (AlwaysMiss).
func WithAutoHit(name string, h AutoHit) Modifier {
	return Modifier{Name: name, Kind: KindAutoHit, N: int(h)}
}

// WithResistance changes how damage of one type is taken.
func WithResistance(name, damageType string, r Resistance) Modifier {
	return Modifier{Name: name, Kind: KindResistance, N: int(r), DamageType: damageType}
}

// Context is what a contextual modifier's condition looks at.
type Context struct {
	// Source is the entity whose value holds the modifier.
	Source engine.EntityID
	// Target is the entity that value is dealing with (System if none).
	Target engine.EntityID
	// Data is the situation as the game describes it (an attack at long
	// range, a target within reach), or nil.
	Data any
}

// Condition decides whether a contextual modifier counts. It must not
// change anything, and must give the same answer for the same state.
type Condition interface {
	Holds(Context) bool
}

// When is a Condition written as a function.
type When func(Context) bool

// Holds calls the function.
func (w When) Holds(c Context) bool { return w(c) }

// ModID identifies a modifier on one value. A value never reuses an id.
type ModID uint32

// Entry is a modifier as a value holds it.
type Entry struct {
	ID      ModID
	Channel Channel
	// By is the entity that put the modifier there (a condition, an item,
	// System for the rules); RemoveBy takes all of its modifiers off.
	By       engine.EntityID
	Modifier Modifier
	// When is the condition of a contextual modifier (nil: always).
	When Condition
}

// Value is a modifiable value of one entity.
type Value struct {
	// Name names the value ("ac", "attack").
	Name string
	// Owner is the entity the value belongs to.
	Owner engine.EntityID

	base   int
	mods   []Entry
	next   ModID
	target engine.EntityID
	data   any
	from   *Value
}

// New returns a value with a base and no modifiers.
func New(name string, owner engine.EntityID, base int) *Value {
	return &Value{Name: name, Owner: owner, base: base}
}

// Base returns the base.
func (v *Value) Base() int { return v.base }

// SetBase changes the base.
func (v *Value) SetBase(n int) { v.base = n }

// Add puts a modifier in a channel on behalf of by and returns its id. when
// is the condition of a modifier in a contextual channel (nil: always
// counts); it is ignored in the static channels.
func (v *Value) Add(ch Channel, by engine.EntityID, m Modifier, when Condition) ModID {
	v.next++
	if !ch.Contextual() {
		when = nil
	}
	v.mods = append(v.mods, Entry{ID: v.next, Channel: ch, By: by, Modifier: m, When: when})
	return v.next
}

// Update replaces a modifier in place (a cover penalty that grows); values
// that import this one see the change at once. It reports whether the
// modifier exists.
func (v *Value) Update(id ModID, m Modifier) bool {
	for i := range v.mods {
		if v.mods[i].ID == id {
			v.mods[i].Modifier = m
			return true
		}
	}
	return false
}

// Remove takes one modifier off and reports whether it was there.
func (v *Value) Remove(id ModID) bool {
	for i := range v.mods {
		if v.mods[i].ID == id {
			v.mods = append(v.mods[:i], v.mods[i+1:]...)
			return true
		}
	}
	return false
}

// RemoveBy takes off every modifier that by put on the value and returns
// how many there were.
func (v *Value) RemoveBy(by engine.EntityID) int {
	kept := v.mods[:0]
	for _, e := range v.mods {
		if e.By != by {
			kept = append(kept, e)
		}
	}
	n := len(v.mods) - len(kept)
	clear(v.mods[len(kept):])
	v.mods = kept
	return n
}

// Entries returns the modifiers in the order they were added. The slice is
// the value's own; do not change it.
func (v *Value) Entries() []Entry { return v.mods }

// SetContext says whom the value is dealing with and in what situation,
// for its contextual modifiers.
func (v *Value) SetContext(target engine.EntityID, data any) {
	v.target, v.data = target, data
}

// ClearContext forgets the target and the situation.
func (v *Value) ClearContext() { v.target, v.data = engine.System, nil }

// Context returns the context the value's own contextual modifiers see.
func (v *Value) Context() Context { return Context{Source: v.Owner, Target: v.target, Data: v.data} }

// Import makes the outgoing modifiers of other (its to-target channels)
// count toward this value, live, until ResetImport (set_from_target).
func (v *Value) Import(other *Value) { v.from = other }

// ResetImport stops counting another value's outgoing modifiers
// (reset_from_target).
func (v *Value) ResetImport() { v.from = nil }

// Imported returns the value whose outgoing modifiers count, or nil.
func (v *Value) Imported() *Value { return v.from }

// Summary is the aggregate of a set of modifiers.
type Summary struct {
	// Sum is the base (for a value's own summary) plus every bonus.
	Sum int
	// Min and Max are the loosest constraints, if HasMin and HasMax.
	Min, Max       int
	HasMin, HasMax bool
	// Advantage is the sum of advantage (+1) and disadvantage (−1).
	Advantage int
	// Critical and AutoHit are the statuses after precedence.
	Critical Critical
	AutoHit  AutoHit
}

// Score returns the sum clamped by the constraints.
func (s Summary) Score() int {
	n := s.Sum
	if s.HasMin && n < s.Min {
		n = s.Min
	}
	if s.HasMax && n > s.Max {
		n = s.Max
	}
	return n
}

// Roll returns the advantage status of the summed advantage.
func (s Summary) Roll() Advantage {
	switch {
	case s.Advantage > 0:
		return Advantaged
	case s.Advantage < 0:
		return Disadvantaged
	}
	return Straight
}

func (s *Summary) add(m *Modifier) {
	switch m.Kind {
	case KindBonus:
		s.Sum += m.N
	case KindMin:
		if !s.HasMin || m.N < s.Min {
			s.Min, s.HasMin = m.N, true
		}
	case KindMax:
		if !s.HasMax || m.N > s.Max {
			s.Max, s.HasMax = m.N, true
		}
	case KindAdvantage:
		s.Advantage += m.N
	case KindCritical:
		if Critical(m.N) == NoCrit || (Critical(m.N) == AutoCrit && s.Critical != NoCrit) {
			s.Critical = Critical(m.N)
		}
	case KindAutoHit:
		if AutoHit(m.N) == AlwaysMiss || (AutoHit(m.N) == AlwaysHit && s.AutoHit != AlwaysMiss) {
			s.AutoHit = AutoHit(m.N)
		}
	}
}

// each calls fn for every modifier of v's channels that counts: the given
// channels, static ones always, contextual ones when their condition holds
// in v's context.
func (v *Value) each(outgoing bool, fn func(*Entry)) {
	ctx := Context{Source: v.Owner, Target: v.target, Data: v.data}
	for i := range v.mods {
		e := &v.mods[i]
		if e.Channel.Outgoing() != outgoing {
			continue
		}
		if e.When != nil && !e.When.Holds(ctx) {
			continue
		}
		fn(e)
	}
}

// Counting calls fn for every modifier that counts toward the value now:
// its own, then those of the value it imports, each judged in its own
// value's context. It is what Summary aggregates, modifier by modifier,
// for a log that tells what a roll was made of.
func (v *Value) Counting(fn func(*Entry)) {
	v.each(false, fn)
	if v.from != nil {
		v.from.each(true, fn)
	}
}

// Summary aggregates the base and every modifier that counts toward the
// value.
func (v *Value) Summary() Summary {
	s := Summary{Sum: v.base}
	v.Counting(func(e *Entry) { s.add(&e.Modifier) })
	return s
}

// Outgoing aggregates the modifiers the value passes on to whoever imports
// it (its to-target channels, in its own context). Sum holds only their
// bonuses.
func (v *Value) Outgoing() Summary {
	var s Summary
	v.each(true, func(e *Entry) { s.add(&e.Modifier) })
	return s
}

// Score returns the base plus the bonuses, clamped by the constraints.
func (v *Value) Score() int { return v.Summary().Score() }

// Advantage returns the value's advantage status.
func (v *Value) Advantage() Advantage { return v.Summary().Roll() }

// Critical returns the value's critical status.
func (v *Value) Critical() Critical { return v.Summary().Critical }

// AutoHit returns the value's auto-hit status.
func (v *Value) AutoHit() AutoHit { return v.Summary().AutoHit }

// Resistance returns the status for one damage type: the resistance
// modifiers of that type that count, summed.
func (v *Value) Resistance(damageType string) Resistance {
	sum := 0
	v.Counting(func(e *Entry) {
		if m := &e.Modifier; m.Kind == KindResistance && m.DamageType == damageType {
			sum += m.N
		}
	})
	return resistanceOf(sum)
}

// AppendCanonical appends a canonical encoding of the value (base,
// modifiers, context target and import) for a state hash. Contextual
// conditions are part of the game's definition, not of its state, and are
// not encoded.
func (v *Value) AppendCanonical(b []byte) []byte {
	b = appendString(b, v.Name)
	b = binary.AppendVarint(b, int64(v.Owner))
	b = binary.AppendVarint(b, int64(v.base))
	b = binary.AppendUvarint(b, uint64(v.next))
	b = binary.AppendVarint(b, int64(v.target))
	if v.from != nil {
		b = binary.AppendVarint(b, int64(v.from.Owner))
		b = appendString(b, v.from.Name)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(v.mods)))
	for i := range v.mods {
		e := &v.mods[i]
		b = binary.AppendUvarint(b, uint64(e.ID))
		b = append(b, byte(e.Channel), byte(e.Modifier.Kind))
		b = binary.AppendVarint(b, int64(e.By))
		b = binary.AppendVarint(b, int64(e.Modifier.N))
		b = appendString(b, e.Modifier.Name)
		b = appendString(b, e.Modifier.DamageType)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// String renders the value as "name=score" for logs and errors.
func (v *Value) String() string { return v.Name + "=" + strconv.Itoa(v.Score()) }
