package party

import (
	"github.com/tabulagames/tabula/games/party/reach"
)

// checkRefs reports references to spaces that do not exist.
func (p *parser) checkRefs(b *Board) {
	ids := make([]string, len(b.Spaces))
	known := make(map[string]bool, len(b.Spaces))
	for i, s := range b.Spaces {
		ids[i] = s.ID
		known[s.ID] = true
	}
	for _, r := range p.refs {
		if r.pt.rep.Stopped() {
			return
		}
		if !known[r.id] {
			hint := ""
			if len(r.id) >= 3 { // short ids are all alike
				hint = r.pt.rep.DidYouMean(r.id, ids)
			}
			r.pt.errorf(r.ptr, "%s %q is not the id of any space%s", r.what, r.id, hint)
		}
	}
}

// hasErrors reports whether some part of the board has errors.
func (p *parser) hasErrors() bool {
	for _, pt := range p.parts {
		if pt.rep.ErrorCount() > 0 {
			return true
		}
	}
	return false
}

// checkTraps warns about the places of a board where players get stuck:
// spaces they can reach from which no way leads to a finish (a winning
// space, or one whose event sets COMPLETED_GAME), such as a loop with no
// way out. Ways are all a player may take: connections, against them when
// an effect changes direction, teleports; a swap or a move back may take a
// player out. A board with errors is not judged, nor one a CODE event may
// finish anywhere.
func (p *parser) checkTraps(b *Board) {
	if p.spacesPt == nil || len(b.Spaces) == 0 || p.hasErrors() {
		return
	}
	byID := make(map[string]int, len(b.Spaces))
	for i, sp := range b.Spaces {
		byID[sp.ID] = i
	}
	g := reach.Graph{Next: make([][]int, len(b.Spaces)), Starts: startSpaces(b, byID)}
	for i, sp := range b.Spaces {
		for _, c := range sp.Connections {
			g.Next[i] = append(g.Next[i], byID[c.Target])
		}
	}
	for _, w := range b.Rules.Win {
		for _, id := range w.SpaceIDs {
			g.Finishes = append(g.Finishes, byID[id])
		}
	}
	reverse, escapeAnywhere := false, false
	var teleports [][2]int
	for i, sp := range b.Spaces {
		for _, e := range sp.Events {
			if e.Inactive {
				continue
			}
			anywhere := e.Trigger == Code
			switch a := e.Action.Args.(type) {
			case StateArgs:
				if a.State == CompletedGame && anywhere {
					return
				}
				if a.State == CompletedGame {
					g.Finishes = append(g.Finishes, i)
				}
			case TeleportArgs:
				if anywhere {
					g.Anywhere = append(g.Anywhere, byID[a.SpaceID])
				} else {
					teleports = append(teleports, [2]int{i, byID[a.SpaceID]})
				}
			case SwapArgs:
				escapeAnywhere = escapeAnywhere || anywhere
				g.Escapes = append(g.Escapes, i)
			case DisplaceArgs:
				if a.Steps < 0 {
					escapeAnywhere = escapeAnywhere || anywhere
					g.Escapes = append(g.Escapes, i)
				}
			case EffectArgs:
				reverse = reverse || a.Effect.Kind == ChangeDirection
			}
		}
	}
	if reverse {
		for i := range b.Spaces {
			for _, c := range b.Spaces[i].Connections {
				j := byID[c.Target]
				g.Next[j] = append(g.Next[j], i)
			}
		}
	}
	for _, t := range teleports {
		g.Next[t[0]] = append(g.Next[t[0]], t[1])
	}
	if escapeAnywhere {
		g.Escapes = g.Escapes[:0]
		for i := range b.Spaces {
			g.Escapes = append(g.Escapes, i)
		}
	}
	for _, t := range reach.Traps(g) {
		p.spacesPt.warnf(b.Spaces[t.Entry].Pointer, "%s", t.Text(func(i int) string { return spaceTitle(&b.Spaces[i]) }))
	}
}

// checkEnding warns about a board that nothing ends: the original game ends
// only when every player has COMPLETED_GAME. A board with errors is not
// judged: the event that ends it may be among those in error.
func (p *parser) checkEnding(b *Board) {
	if b.Rules.MaxTurns > 0 || len(b.Rules.Win) > 0 || p.spacesPt == nil || len(b.Spaces) == 0 || p.hasErrors() {
		return
	}
	for _, s := range b.Spaces {
		for _, e := range s.Events {
			if st, ok := e.Action.Args.(StateArgs); ok && !e.Inactive && st.State == CompletedGame {
				return
			}
		}
	}
	p.spacesPt.warnf(p.spacesPtr, "nothing ends this game: no event sets the state COMPLETED_GAME, and there is no win condition or maxTurns; play stops only at a round limit")
}
