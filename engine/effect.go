package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// EffectID identifies a registered effect.
type EffectID uint16

// EffectCall is one use of an effect with its arguments, as written in game
// data ("DAMAGE 4", "PROMPT_ALL_PLAYERS 'Drink!'"). Build it with
// Effects.Call or Effects.Decode so that the arguments have the type the
// effect was registered with.
type EffectCall struct {
	ID   EffectID
	Name string
	Args any
	// Priority, when HasPriority is set, replaces the trigger's priority
	// for this effect on the priority agenda (a rule whose actions carry
	// their own priorities), and is the priority of a command's effect.
	Priority    Priority
	HasPriority bool
}

// At returns the call with its own priority on the priority agenda.
func (c EffectCall) At(p Priority) EffectCall {
	c.Priority, c.HasPriority = p, true
	return c
}

// effectFunc is the type-erased form of a registered effect.
type effectFunc func(c *Ctx, args any) error

// Effects is the registry of a game's named effects. Only effects change
// the state of a match; they emit events about what they did. Register every
// effect while building the game's Rules; afterwards the registry is only
// read.
type Effects struct {
	names  []string
	fns    []effectFunc
	args   []reflect.Type
	byName map[string]EffectID
}

// NewEffects returns an empty registry.
func NewEffects() *Effects {
	return &Effects{byName: make(map[string]EffectID)}
}

// Effect is a registered effect whose arguments are of type A: its Call
// builds a call whose argument type the compiler checks.
type Effect[A any] struct {
	ID   EffectID
	Name string
}

// Call returns a call of the effect with the given argument.
func (e Effect[A]) Call(arg A) EffectCall {
	return EffectCall{ID: e.ID, Name: e.Name, Args: arg}
}

// Register adds an effect named name whose state is of type S (the type the
// game stores in Match.State) and whose arguments are of type A, and returns
// its typed handle. It panics if the name is taken, since that is a
// programming error in the game.
//
// A call whose Args are not an A (an EffectCall built by hand with the wrong
// type) fails with an error naming both types rather than running with a
// zero value; a call without Args runs with A's zero value.
func Register[S, A any](e *Effects, name string, fn func(c *Ctx, s S, a A) error) Effect[A] {
	if _, dup := e.byName[name]; dup {
		panic("engine: effect " + name + " registered twice")
	}
	id := EffectID(len(e.names))
	e.names = append(e.names, name)
	e.args = append(e.args, reflect.TypeFor[A]())
	e.fns = append(e.fns, func(c *Ctx, args any) error {
		s, ok := c.m.State.(S)
		if !ok {
			return fmt.Errorf("effect %s: match state is %T, want %s", name, c.m.State, reflect.TypeFor[S]())
		}
		var a A
		if args != nil {
			if a, ok = args.(A); !ok {
				return fmt.Errorf("effect %s takes %s arguments, not %T", name, reflect.TypeFor[A](), args)
			}
		}
		return fn(c, s, a)
	})
	e.byName[name] = id
	return Effect[A]{ID: id, Name: name}
}

// Lookup returns the id of the effect with the given name.
func (e *Effects) Lookup(name string) (EffectID, bool) {
	id, ok := e.byName[name]
	return id, ok
}

// Names returns the registered names, sorted.
func (e *Effects) Names() []string {
	names := slices.Clone(e.names)
	slices.Sort(names)
	return names
}

// Name returns the name of a registered effect.
func (e *Effects) Name(id EffectID) string {
	if int(id) < len(e.names) {
		return e.names[id]
	}
	return fmt.Sprintf("EFFECT_%d", id)
}

// ArgType returns the argument type the effect was registered with.
func (e *Effects) ArgType(id EffectID) reflect.Type { return e.args[id] }

// Call returns a call of the named effect with the given arguments, checking
// that they have the registered type.
func (e *Effects) Call(name string, args any) (EffectCall, error) {
	id, ok := e.byName[name]
	if !ok {
		return EffectCall{}, fmt.Errorf("unknown effect %q", name)
	}
	want := e.args[id]
	if args == nil {
		args = reflect.Zero(want).Interface()
	} else if got := reflect.TypeOf(args); got != want {
		return EffectCall{}, fmt.Errorf("effect %s takes %s arguments, not %s", name, want, got)
	}
	return EffectCall{ID: id, Name: name, Args: args}, nil
}

// MustCall is Call for arguments known to be right; it panics otherwise.
func (e *Effects) MustCall(name string, args any) EffectCall {
	c, err := e.Call(name, args)
	if err != nil {
		panic("engine: " + err.Error())
	}
	return c
}

// Decode returns a call of the named effect with its arguments decoded from
// JSON into the registered type. Unknown fields are errors, so a misspelt
// argument is reported at load time rather than ignored.
func (e *Effects) Decode(name string, raw json.RawMessage) (EffectCall, error) {
	id, ok := e.byName[name]
	if !ok {
		return EffectCall{}, fmt.Errorf("unknown effect %q", name)
	}
	ptr := reflect.New(e.args[id])
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(ptr.Interface()); err != nil {
			return EffectCall{}, fmt.Errorf("effect %s: %w", name, err)
		}
	}
	return EffectCall{ID: id, Name: name, Args: ptr.Elem().Interface()}, nil
}
