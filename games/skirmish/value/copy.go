package value

import "slices"

// Copy returns a copy of the value that changes apart from it: its base,
// its modifiers (whose conditions, being part of the game's definition,
// are shared), the ids it hands out next and its context. The copy imports
// what v imports until the caller, which copies the other value too, says
// otherwise with Import or ResetImport.
func (v *Value) Copy() *Value {
	c := *v
	c.mods = slices.Clone(v.mods)
	return &c
}
