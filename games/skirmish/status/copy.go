package status

import (
	"slices"

	"github.com/tabulagames/tabula/engine"
)

// Copy returns a copy of the book for a copy of its match: host is the
// copied game state, whose values the copied statuses' modifiers are
// found on again (by their owner and name), and x the copied match's
// trigger index, where the statuses' trigger instances have the same ids.
func (b *Book) Copy(host Host, x *engine.Index) *Book {
	c := &Book{host: host, index: x, Applied: b.Applied, Removed: b.Removed, list: make([]*Status, len(b.list))}
	all := make([]Status, len(b.list))
	for i, s := range b.list {
		cs := &all[i]
		*cs = *s
		cs.Children = slices.Clone(s.Children)
		cs.trigs = slices.Clone(s.trigs)
		cs.mods = make([]modRef, len(s.mods))
		for j, m := range s.mods {
			cs.mods[j] = modRef{v: host.Value(m.v.Owner, m.v.Name), id: m.id}
		}
		c.list[i] = cs
	}
	return c
}
