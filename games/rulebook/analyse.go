package rulebook

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/games/party/reach"
)

// analyse looks at the rules as a graph of events — an event sets off the
// rules that listen to it, whose actions may emit other events — and
// reports what it can prove without playing:
//
//   - nothing reacts to START_GAME: the game never starts;
//   - no rule that START_TURN sets off can lead to END_TURN or to another
//     START_TURN (nor end the game): a turn can never end;
//   - nothing that END_TURN sets off can start another turn;
//   - rules that go round a circle of events, each rule without a
//     condition and each action sure to emit the next event (see sure),
//     with no rule along the circle asking anyone anything and none able
//     to end the game: once started they loop forever;
//   - nothing can end the game (a warning: play stops at a round limit).
//
// "May lead to" ignores conditions, so what it says cannot happen truly
// cannot; loops that conditions may or may not stop are left to the
// engine's step budget at run time, whose error names the looping rules.
func (c *checker) analyse() {
	g := newEventGraph(c.d.parts)
	if len(g.listeners[StartGame]) == 0 {
		c.errorf("/rules", "nothing starts the game: no rule reacts to START_GAME; add {\"preset\": \"Turn\"}, whose first rule starts the first turn")
		return
	}
	happens := g.reach([]string{StartGame})
	if happens[StartTurn] {
		after := g.reach(g.emitted(StartTurn))
		switch {
		case after[EndTurn] || after[StartTurn]:
		case after[GameOver]:
			c.warnf(c.rulePtr(g.listeners[StartTurn]), "a turn ends only when the game ends: nothing START_TURN sets off leads to END_TURN or to the next START_TURN")
		default:
			c.errorf(c.rulePtr(g.listeners[StartTurn]), "a turn can never end: nothing START_TURN sets off leads to END_TURN, to the next START_TURN or to the end of the game; "+
				"add the Turn preset, or a rule on START_TURN that EMITs END_TURN")
		}
	}
	if happens[EndTurn] {
		if after := g.reach(g.emitted(EndTurn)); !after[StartTurn] && !after[GameOver] {
			c.errorf(c.rulePtr(g.listeners[EndTurn]), "nothing starts the next turn: nothing END_TURN sets off leads to START_TURN or to the end of the game; "+
				"add the Turn preset, or a rule on END_TURN that EMITs START_TURN")
		}
	}
	c.loops(g, happens)
	c.lateActions(g)
	c.traps()
	if !happens[GameOver] {
		c.warnf("/rules", "nothing ends this game: no rule that can run WINs, ENDs the game or removes players; play stops only at a round limit")
	}
}

// traps warns about the tiles where players get stuck: tiles they can
// reach from the starting tile from which no way leads to a finish, such
// as a loop with no way out. It applies to games that end on tiles: a
// finish is a tile where a rule WINs or ends the game when a player lands
// on it or passes it (FiniteBoardWin's last tiles or its tile). Ways are
// all a player may take: the arrows, backwards too if a MOVE may go back,
// jumps, and MOVE_TO's tiles and cards' tiles from anywhere; a MOVE_TO to a
// tile computed otherwise may go anywhere, and leaves nothing to warn
// about.
func (c *checker) traps() {
	tiles, d := c.f.Board.Tiles, c.d
	g := reach.Graph{Next: make([][]int, len(tiles)), Starts: []int{d.start}}
	back := false
	for _, p := range d.parts {
		ends := false
		for _, a := range p.acts {
			switch a.info.Name {
			case actWin, actEndGame:
				ends = true
			case actMove:
				v := a.vals["steps"]
				n, _ := v.lit.(int)
				back = back || n < 0 || (v.e != nil && v.e.src != "roll")
			case actMoveTo:
				switch v := a.vals["to"]; {
				case v.e == nil:
					g.Anywhere = append(g.Anywhere, v.lit.(int))
				case v.e.src == "tile.jump": // the jumps are ways
				case v.e.src == "card.tile":
					for _, dk := range c.f.Decks {
						for _, card := range dk.Cards {
							if i, ok := d.byID[card.Tile]; ok {
								g.Anywhere = append(g.Anywhere, i)
							}
						}
					}
				default:
					return
				}
			}
		}
		if ends && (p.on == TileLanded || p.on == TilePassed) {
			g.Finishes = append(g.Finishes, c.finishes(p)...)
		}
	}
	for i, t := range tiles {
		g.Next[i] = slices.Clone(d.next[i])
		if j, ok := d.byID[t.Jump]; ok {
			g.Next[i] = append(g.Next[i], j)
		}
		if back {
			g.Next[i] = append(g.Next[i], d.prev[i]...)
		}
	}
	for _, t := range reach.Traps(g) {
		c.warnf(diag.Pointer("board", "tiles", t.Entry), "%s", t.Text(func(i int) string {
			return cmp.Or(tiles[i].Name, tiles[i].ID)
		}))
	}
}

// finishes are the tiles where a rule that ends the game fires: those its
// filters keep, the last ones if its condition is FiniteBoardWin's
// tile.last (any other condition may hold anywhere).
func (c *checker) finishes(p *part) []int {
	f, _ := p.trig.Filter.(*whenFilter)
	cond, _ := p.trig.Condition.(condition)
	var out []int
	for i, t := range c.f.Board.Tiles {
		switch {
		case f != nil && (f.tile >= 0 && f.tile != i || f.kind != "" && t.Kind != f.kind || f.colour != "" && t.Colour != f.colour):
		case cond.e != nil && cond.e.src == "tile.last" && len(c.d.next[i]) > 0:
		default:
			out = append(out, i)
		}
	}
	return out
}

// lateActions warns about actions queued after the end of the turn: the
// next turn's actions always come first, so they never run.
func (c *checker) lateActions(g *eventGraph) {
	end, found := 0, false
	for _, p := range g.listeners[StartTurn] {
		for _, a := range p.acts {
			if a.info.Name == actEmit && a.vals["event"].lit == EndTurn {
				end, found = max(end, a.priority), true
			}
		}
	}
	if !found {
		return
	}
	for i, r := range c.f.Rules {
		for j, a := range r.Then {
			if a.Priority > end {
				c.warnf(diag.Pointer("rules", i, "then", j, "priority"), "priority %d comes after the end of the turn (%d): the next turn's actions always come first, so this never runs", a.Priority, end)
			}
		}
	}
}

// rulePtr points at the first of some rules, or at the rules.
func (c *checker) rulePtr(parts []*part) string {
	if len(parts) == 0 {
		return "/rules"
	}
	return diag.Pointer("rules", parts[0].rule)
}

// eventGraph is the rules seen as edges between events.
type eventGraph struct {
	parts     []*part
	listeners map[string][]*part
}

func newEventGraph(parts []*part) *eventGraph {
	g := &eventGraph{parts: parts, listeners: map[string][]*part{}}
	for _, p := range parts {
		g.listeners[p.on] = append(g.listeners[p.on], p)
	}
	return g
}

// emits returns the events an action may emit.
func emits(a *act) []string {
	if a.info.Name == actEmit {
		return []string{a.vals["event"].lit.(string)}
	}
	return a.info.Emits
}

// emitted returns the events the rules on an event may emit, each once.
func (g *eventGraph) emitted(event string) []string {
	var out names
	for _, p := range g.listeners[event] {
		for _, a := range p.acts {
			for _, e := range emits(a) {
				out.add(e)
			}
		}
	}
	return out.list
}

// leadsTo returns the events from which the target may happen (the target
// included), walking the rules backwards once.
func (g *eventGraph) leadsTo(target string) map[string]bool {
	back := map[string][]string{}
	for _, p := range g.parts {
		for _, a := range p.acts {
			for _, e := range emits(a) {
				back[e] = append(back[e], p.on)
			}
		}
	}
	seen := map[string]bool{target: true}
	todo := []string{target}
	for len(todo) > 0 {
		e := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, from := range back[e] {
			if !seen[from] {
				seen[from] = true
				todo = append(todo, from)
			}
		}
	}
	return seen
}

// reach returns the events that may happen once these have.
func (g *eventGraph) reach(from []string) map[string]bool {
	seen := map[string]bool{}
	todo := slices.Clone(from)
	for len(todo) > 0 {
		e := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[e] {
			continue
		}
		seen[e] = true
		todo = append(todo, g.emitted(e)...)
	}
	return seen
}

// sureSelectors always name someone while the game goes on.
var sureSelectors = []string{SelCurrent, SelEvent, SelEach}

// sure reports whether an action always runs for someone and always emits
// what it emits: EMIT and SET_CURRENT_PLAYER; MOVE_TO a tile named as
// such; CHANGE_SCORE and CHANGE_PROP by a number other than 0 — for the
// current player, the event's or everyone, without "where".
func sure(a *act) bool {
	if a.where != nil || !slices.Contains(sureSelectors, a.player) {
		return false
	}
	switch a.info.Name {
	case actEmit, actSetCurrent:
		return true
	case actMoveTo:
		return a.vals["to"].e == nil
	case actScore, actChangeProp:
		n, ok := a.vals["amount"].lit.(int)
		return ok && n != 0
	}
	return false
}

// edge is a rule that surely leads from one event to another.
type edge struct {
	to string
	by *part
}

// loops reports circles of events that rules surely go round forever.
// A circle through an event on which a rule surely asks someone something,
// or from which the game may end, is no such loop: those events are left
// out first. Every circle left loops forever; each strongly connected part
// of what is left holds some, and the shortest through its first event
// (in the file's order) is reported. All of it takes time linear in the
// rules.
func (c *checker) loops(g *eventGraph, happens map[string]bool) {
	ends := g.leadsTo(GameOver)
	asks := g.asking()
	sureEdges := map[string][]edge{}
	for _, p := range g.parts {
		if p.conditional || ends[p.on] || asks[p.on] {
			continue
		}
		for _, a := range p.acts {
			if !sure(a) {
				continue
			}
			for _, e := range emits(a) {
				if !ends[e] && !asks[e] {
					sureEdges[p.on] = append(sureEdges[p.on], edge{to: e, by: p})
				}
			}
		}
	}
	part := components(c.eventNames, sureEdges)
	reported := map[int]bool{}
	for _, start := range c.eventNames {
		k, ok := part[start]
		if !happens[start] || !ok || reported[k] {
			continue
		}
		circle := findCircle(sureEdges, part, start)
		if circle == nil {
			continue
		}
		reported[k] = true
		if c.rep.Full() {
			c.errorf("", "")
			continue
		}
		var steps []string
		from := start
		for _, e := range circle {
			steps = append(steps, e.by.name+" ("+from+" → "+e.to+")")
			from = e.to
		}
		c.errorf(diag.Pointer("rules", circle[0].by.rule), "these rules go round forever without asking anyone anything or ending the game: %s; "+
			"add a rule that asks a player (ROLL_DIE, DRAW_CARD) on one of these events, or a condition that stops them", strings.Join(steps, " → "))
	}
}

// components numbers the strongly connected parts of the graph of sure
// edges (Tarjan's algorithm, without recursion), giving each event its
// part's number; events in no part of two or more events (nor with an
// edge to themselves) are left out.
func components(events []string, edges map[string][]edge) map[string]int {
	index := map[string]int{}
	low := map[string]int{}
	on := map[string]bool{}
	var stack []string
	part := map[string]int{}
	parts := 0
	type frame struct {
		at   string
		next int // the next edge to look at
	}
	for _, root := range events {
		if _, seen := index[root]; seen {
			continue
		}
		frames := []frame{{at: root}}
		index[root], low[root] = len(index), len(index)
		stack = append(stack, root)
		on[root] = true
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if out := edges[f.at]; f.next < len(out) {
				to := out[f.next].to
				f.next++
				if _, seen := index[to]; !seen {
					index[to], low[to] = len(index), len(index)
					stack = append(stack, to)
					on[to] = true
					frames = append(frames, frame{at: to})
				} else if on[to] {
					low[f.at] = min(low[f.at], index[to])
				}
				continue
			}
			at := f.at
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				up := frames[len(frames)-1].at
				low[up] = min(low[up], low[at])
			}
			if low[at] != index[at] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != at {
				i--
			}
			members := stack[i:]
			stack = stack[:i]
			loopsOnItself := slices.ContainsFunc(edges[at], func(e edge) bool { return e.to == at })
			for _, m := range members {
				on[m] = false
				if len(members) > 1 || loopsOnItself {
					part[m] = parts
				}
			}
			parts++
		}
	}
	return part
}

// findCircle returns the sure edges of a shortest circle from start back
// to it within start's strongly connected part, or nil.
func findCircle(edges map[string][]edge, part map[string]int, start string) []edge {
	came := map[string]edge{} // how the search first reached each event
	queue := []string{start}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for _, e := range edges[at] {
			if p, ok := part[e.to]; !ok || p != part[start] {
				continue
			}
			if e.to == start {
				path := []edge{e}
				for cur := at; cur != start; cur = came[cur].by.on {
					path = append(path, came[cur])
				}
				slices.Reverse(path)
				return path
			}
			if _, seen := came[e.to]; !seen {
				came[e.to] = edge{to: e.to, by: e.by}
				queue = append(queue, e.to)
			}
		}
	}
	return nil
}

// asking returns the events on which an unconditional rule surely asks a
// player something (a roll, a draw), which pauses the game for input on
// every round of a circle through them.
func (g *eventGraph) asking() map[string]bool {
	out := map[string]bool{}
	for e, parts := range g.listeners {
		for _, p := range parts {
			if p.conditional {
				continue
			}
			for _, a := range p.acts {
				if (a.info.Name == actRoll || a.info.Name == actDraw) && a.where == nil && slices.Contains(sureSelectors, a.player) {
					out[e] = true
				}
			}
		}
	}
	return out
}
