package party

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

// checkEnding warns about a board that nothing ends: the original game ends
// only when every player has COMPLETED_GAME. A board with errors is not
// judged: the event that ends it may be among those in error.
func (p *parser) checkEnding(b *Board) {
	if b.Rules.MaxTurns > 0 || len(b.Rules.Win) > 0 || p.spacesPt == nil || len(b.Spaces) == 0 {
		return
	}
	for _, pt := range p.parts {
		if pt.rep.ErrorCount() > 0 {
			return
		}
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
