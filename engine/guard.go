package engine

// guardSet is the loop guard of a chain: the keys that have fired. Chains
// are usually short, so the keys live in a slice searched linearly, which
// needs no allocation once the match has warmed up; a long chain moves them
// to a map.
type guardSet struct {
	small []uint64
	big   map[uint64]struct{}
}

const guardSmall = 32

// add records key and reports whether it was new.
func (g *guardSet) add(key uint64) bool {
	if g.big != nil {
		if _, seen := g.big[key]; seen {
			return false
		}
		g.big[key] = struct{}{}
		return true
	}
	for _, k := range g.small {
		if k == key {
			return false
		}
	}
	if len(g.small) < guardSmall {
		g.small = append(g.small, key)
		return true
	}
	g.big = make(map[uint64]struct{}, 4*guardSmall)
	for _, k := range g.small {
		g.big[k] = struct{}{}
	}
	g.big[key] = struct{}{}
	return true
}

func (g *guardSet) reset() {
	g.small = g.small[:0]
	g.big = nil
}
