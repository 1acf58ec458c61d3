package pieces

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
)

// compile checks a game file against its board and builds its definition;
// problems go to the file's parts. It returns nil when there are errors.
func (p *Pack) compile(f *gameFile) *Definition {
	d := &Definition{pack: p, Engine: f.Engine, Name: cmp.Or(f.Name, "Untitled game"), Description: f.Description, HowToPlay: f.HowToPlay,
		Render: f.Render, byID: make(map[string]int, len(f.Spaces)), Placings: f.Placings}
	if len(f.Spaces) == 0 {
		if f.spaceAt.pt != nil {
			f.spaceAt.errorf("a board needs at least one space")
		}
		return nil
	}
	for i, rs := range f.Spaces {
		d.byID[rs.ID] = i
	}
	bad := false
	resolve := func(r ref, what string) (int, bool) {
		i, ok := d.byID[r.id]
		if !ok {
			hint := ""
			if len(r.id) >= 3 {
				hint = r.pt.rep.DidYouMean(r.id, d.ids(f))
			}
			r.pt.errorf(r.ptr, "no space %q: %s names a space the board does not have%s", r.id, what, hint)
			bad = true
		}
		return i, ok
	}
	d.Spaces = make([]Space, len(f.Spaces))
	for i, rs := range f.Spaces {
		s := &d.Spaces[i]
		*s = Space{ID: rs.ID, Name: cmp.Or(rs.Name, rs.ID), Type: rs.Type, X: rs.X, Y: rs.Y, Size: rs.Size,
			Color: rs.Color, TextColor: rs.TextColor, Shape: rs.Shape, Safe: rs.Safe}
		for _, c := range rs.Conns {
			if t, ok := resolve(c.Target, "a connection"); ok {
				s.Next = append(s.Next, t)
				s.Draw = append(s.Draw, c.Draw)
			}
		}
	}
	for i := range d.Spaces {
		for _, t := range d.Spaces[i].Next {
			d.Spaces[t].Prev = append(d.Spaces[t].Prev, i)
		}
	}

	// Dice: diceCount dice of diceSides sides, summed (1d6 by default).
	d.Dice = Dice{Count: cmp.Or(f.DiceCount, 1), Sides: cmp.Or(f.DiceSides, 6)}
	top := d.Dice.Count * d.Dice.Sides
	d.rollAgain = make([]bool, top+1)
	d.RollAgain = []int{top}
	if f.hasRollAgain {
		d.RollAgain = f.RollAgain
	}
	for _, r := range d.RollAgain {
		if r < d.Dice.Count || r > top {
			f.rollAgainAt.errorf("a roll of %d never comes up with %s: rolls go from %d to %d", r, d.Dice, d.Dice.Count, top)
			bad = true
			continue
		}
		d.rollAgain[r] = true
	}
	switch {
	case f.hasEnterOn:
		d.EnterOn = f.EnterOn
	case f.Engine == Trouble:
		d.EnterOn = []int{top}
	}
	if d.EnterOn != nil {
		d.enterOn = make([]bool, top+1)
		for _, r := range d.EnterOn {
			if r < d.Dice.Count || r > top {
				f.enterAt.errorf("a roll of %d never comes up with %s: rolls go from %d to %d, so no piece could come out on it", r, d.Dice, d.Dice.Count, top)
				bad = true
				continue
			}
			d.enterOn[r] = true
		}
		if len(d.EnterOn) == 0 {
			f.enterAt.errorf("enterOn lists no roll: no piece could ever come out (leave enterOn out to let any roll bring a piece out)")
			bad = true
		}
	}

	// Capture: on unless the engine's config or the rules turn it off.
	d.Capture = true
	if f.Capture != nil && f.RulesCapture != nil && *f.Capture != *f.RulesCapture {
		f.rulesCaptureAt.warnf("capture.enabled says %t but engine.config.allowCapture says %t: pieces capture only when both allow it", *f.RulesCapture, *f.Capture)
	}
	if (f.Capture != nil && !*f.Capture) || (f.RulesCapture != nil && !*f.RulesCapture) {
		d.Capture = false
	}
	d.safe = make([]bool, len(d.Spaces))
	for i := range d.Spaces {
		d.safe[i] = d.Spaces[i].Safe
	}
	for _, r := range append(slices.Clone(f.Safe), f.CaptureSafe...) {
		if i, ok := resolve(r, "a safe space"); ok {
			d.safe[i] = true
			d.Spaces[i].Safe = true
		}
	}

	// Triggers, with their actions' spaces.
	for i, rs := range f.Spaces {
		for _, rt := range rs.Triggers {
			if rt.Action.Type == SetPlayerSpace {
				if _, ok := resolve(rt.Action.Space, "SET_PLAYER_SPACE"); !ok {
					continue
				}
			}
			d.Spaces[i].Triggers = append(d.Spaces[i].Triggers, trigger{When: rt.When, Action: rt.Action, Priority: rt.Priority})
		}
	}

	d.Pieces = cmp.Or(f.Pieces, 4)
	switch f.Engine {
	case Trouble:
		bad = !d.compileTrouble(f) || bad
	case MultiPiece:
		bad = !d.compileMultiPiece(f) || bad
	}
	if bad {
		return nil
	}
	d.sheltered = make([]bool, len(d.Spaces))
	for s := range d.Spaces {
		d.sheltered[s] = d.safe[s] || d.anyGoal[s] || d.startZone[s]
	}
	d.buildTriggers()
	d.buildDistances()
	d.writeCommands()
	for i := range d.MaxPlayers {
		d.seatNames = append(d.seatNames, "seat "+strconv.Itoa(i+1))
	}
	d.buildLayouts()
	return d
}

// ids lists the board's space ids, for suggestions.
func (d *Definition) ids(f *gameFile) []string {
	out := make([]string, len(f.Spaces))
	for i, s := range f.Spaces {
		out[i] = s.ID
	}
	return out
}

// players sets the player limits: the file's, else from minPlayers 2 to
// as many players as the board has room for (seats, what says where:
// "startOffsets has starts", "the start zones are").
func (d *Definition) players(f *gameFile, seats int, what string, where at) bool {
	d.MinPlayers = cmp.Or(f.MinPlayers, min(2, seats))
	d.MaxPlayers = cmp.Or(f.MaxPlayers, seats)
	switch {
	case d.MaxPlayers > seats:
		where.errorf("the game is for up to %d players, but %s for %d: add %s, or lower maxPlayers", d.MaxPlayers, what, seats, missingSeats(what, seats, d.MaxPlayers))
		return false
	case d.MinPlayers > d.MaxPlayers:
		f.minAt.errorf("minPlayers %d is more than maxPlayers %d", d.MinPlayers, d.MaxPlayers)
		return false
	}
	return true
}

func missingSeats(what string, seats, want int) string {
	if strings.HasPrefix(what, "startOffsets") {
		return fmt.Sprintf("%d more start offsets", want-seats)
	}
	var keys []string
	for i := seats + 1; i <= want; i++ {
		keys = append(keys, "player"+strconv.Itoa(i))
	}
	return "start zones " + strings.Join(keys, ", ")
}

// compileTrouble builds the geometry of a Trouble board from its
// configuration, as the original does (ring t0…t{L-1}, lanes
// p{i}-f0…f{n-1}, home slots p{i}-home-k), and checks that the board has
// every space that needs.
func (d *Definition) compileTrouble(f *gameFile) bool {
	d.Share = false
	d.Track = cmp.Or(f.Track, 28)
	d.Lane = cmp.Or(f.Lane, 4)
	d.Offsets = f.Offsets
	if d.Offsets == nil {
		d.Offsets = []int{0, 7, 14, 21}
	}
	good := true
	where := func(a at) at {
		if a.pt == nil {
			return f.configAt
		}
		return a
	}
	if d.Track < 2 {
		where(f.trackAt).errorf("trackLength must be 2 or more, not %d", d.Track)
		good = false
	}
	if d.Pieces > d.Lane {
		where(f.piecesAt).errorf("%d pieces cannot all reach a lane of %d spaces (finishLength): a player wins with every piece in the lane, so piecesPerPlayer must be at most finishLength", d.Pieces, d.Lane)
		good = false
	}
	seen := map[int]int{}
	for i, o := range d.Offsets {
		if o >= d.Track {
			where(f.offsetsAt).errorf("start offset %d (player%d) is off a track of %d spaces (t0 to t%d)", o, i+1, d.Track, d.Track-1)
			good = false
		}
		if j, dup := seen[o]; dup {
			where(f.offsetsAt).errorf("player%d and player%d would both start on t%d: every player needs a start of their own", j+1, i+1, o)
			good = false
		}
		seen[o] = i
	}
	if !d.players(f, len(d.Offsets), "startOffsets has starts", where(f.offsetsAt)) || !good {
		return false
	}
	// Every space the configuration needs, grouped by what needs it.
	type need struct {
		at      at
		what    string
		missing []string
	}
	needs := []*need{
		{where(f.trackAt), fmt.Sprintf("the track (trackLength %d)", d.Track), nil},
		{where(f.laneAt), fmt.Sprintf("the finish lanes (finishLength %d, %d players)", d.Lane, d.MaxPlayers), nil},
		{where(f.piecesAt), fmt.Sprintf("the home spaces (piecesPerPlayer %d, %d players)", d.Pieces, d.MaxPlayers), nil},
	}
	look := func(n *need, id string) int {
		i, ok := d.byID[id]
		if !ok {
			n.missing = append(n.missing, id)
			return -1
		}
		return i
	}
	ring := make([]int, d.Track)
	for k := range ring {
		ring[k] = look(needs[0], "t"+strconv.Itoa(k))
	}
	d.geo = make([]geo, d.MaxPlayers)
	for i := range d.geo {
		g := &d.geo[i]
		g.Path = make([]int, 0, d.Track+d.Lane)
		for k := range d.Track {
			g.Path = append(g.Path, ring[(d.Offsets[i]+k)%d.Track])
		}
		for k := range d.Lane {
			g.Path = append(g.Path, look(needs[1], fmt.Sprintf("p%d-f%d", i, k)))
		}
		for k := range d.Pieces {
			g.Start = append(g.Start, look(needs[2], fmt.Sprintf("p%d-home-%d", i, k)))
		}
	}
	for _, n := range needs {
		if len(n.missing) == 0 {
			continue
		}
		good = false
		shown := n.missing
		if len(shown) > 12 {
			shown = append(slices.Clone(shown[:12]), fmt.Sprintf("and %d more", len(n.missing)-12))
		}
		n.at.errorf("the board lacks spaces %s needs: %s", n.what, strings.Join(shown, ", "))
	}
	if !good {
		return false
	}
	d.startZone = make([]bool, len(d.Spaces))
	d.anyGoal = make([]bool, len(d.Spaces))
	for i := range d.geo {
		g := &d.geo[i]
		g.goal = make([]bool, len(d.Spaces))
		g.at = make([]int, len(d.Spaces))
		for s := range g.at {
			g.at[s] = -1
		}
		for k, s := range g.Path {
			g.at[s] = k
		}
		for _, s := range g.Path[d.Track:] {
			g.goal[s] = true
			d.anyGoal[s] = true
		}
		for _, s := range g.Start {
			d.startZone[s] = true
		}
		g.Colour = d.Spaces[g.Path[0]].Color
	}
	for s := range d.Spaces {
		if d.startZone[s] && (d.anyGoal[s] || slices.ContainsFunc(d.geo, func(g geo) bool { return g.at[s] >= 0 })) {
			where(f.piecesAt).errorf("space %q is a home space and on a player's way round: home spaces must be spaces of their own", d.Spaces[s].ID)
			good = false
		}
	}
	if !good {
		return false
	}
	d.checkZones(f)
	return true
}

// checkZones warns when a Trouble board's declared start and home zones
// differ from what the configuration makes them: Trouble plays by its
// configuration, as the original does.
func (d *Definition) checkZones(f *gameFile) {
	check := func(zones []zone, want func(g *geo) []int, what string) {
		for _, z := range zones {
			if z.Player >= len(d.geo) {
				continue
			}
			var got []string
			for _, r := range z.Spaces {
				got = append(got, r.id)
			}
			var exp []string
			for _, s := range want(&d.geo[z.Player]) {
				exp = append(exp, d.Spaces[s].ID)
			}
			if !slices.Equal(got, exp) {
				z.at.warnf("Trouble's %s come from its configuration (%s), not from this list: it is ignored", what, strings.Join(exp, ", "))
			}
		}
	}
	check(f.StartZones, func(g *geo) []int { return g.Start }, "home spaces")
	check(f.HomeZones, func(g *geo) []int { return g.Path[d.Track:] }, "finish lanes")
}

// compileMultiPiece builds the geometry of a multi-piece board from its
// start zones and home zones, checking that every space they name exists.
func (d *Definition) compileMultiPiece(f *gameFile) bool {
	d.Share = true
	good := true
	if len(f.StartZones) == 0 {
		a := f.startAt
		if a.pt == nil {
			a = f.engineAt
		}
		a.errorf(`a multi-piece game needs start zones: "rules": {"startingPositions": {"startZones": {"player1": [space ids], …}}}`)
		return false
	}
	if !f.hasWin || len(f.HomeZones) == 0 {
		a := f.homeAt
		if a.pt == nil {
			a = f.engineAt
		}
		a.errorf(`a multi-piece game needs home zones: "rules": {"winCondition": {"type": "all-pieces-home", "config": {"homeZones": {"player1": [space ids], …}}}}`)
		return false
	}
	for i, z := range f.StartZones {
		if z.Player != i {
			f.startAt.errorf("start zones go player1, player2, … without a gap: player%d is missing", i+1)
			return false
		}
	}
	seats := len(f.StartZones)
	if !d.players(f, seats, "the start zones are", f.startAt) {
		return false
	}
	homes := map[int]zone{}
	for _, z := range f.HomeZones {
		homes[z.Player] = z
	}
	// Every dangling zone id, in one error per zone.
	d.geo = make([]geo, d.MaxPlayers)
	d.startZone = make([]bool, len(d.Spaces))
	d.anyGoal = make([]bool, len(d.Spaces))
	starter := map[int]string{} // start space → the zone holding it
	for i := range d.geo {
		g := &d.geo[i]
		g.goal = make([]bool, len(d.Spaces))
		home, ok := homes[i]
		if !ok {
			f.homeAt.errorf("player%d has a start zone but no home zone: add \"player%d\": [space ids] to homeZones", i+1, i+1)
			good = false
			continue
		}
		start, okStart := d.zoneSpaces(f, f.StartZones[i], "start zone")
		goal, okGoal := d.zoneSpaces(f, home, "home zone")
		if !okStart || !okGoal {
			good = false
			continue
		}
		for _, s := range start {
			if other, dup := starter[s]; dup && other != f.StartZones[i].Key {
				f.StartZones[i].at.errorf("space %q is in the start zones of %s and %s: each player starts on spaces of their own", d.Spaces[s].ID, other, f.StartZones[i].Key)
				good = false
			}
			starter[s] = f.StartZones[i].Key
			d.startZone[s] = true
		}
		for k := range d.Pieces {
			g.Start = append(g.Start, start[k%len(start)])
		}
		for _, s := range goal {
			g.goal[s] = true
			d.anyGoal[s] = true
		}
		g.Colour = d.Spaces[g.Start[0]].Color
	}
	for s := range d.Spaces {
		if d.startZone[s] && d.anyGoal[s] {
			f.homeAt.errorf("space %q is in a start zone and in a home zone: a piece that starts at home has nowhere to go", d.Spaces[s].ID)
			good = false
		}
	}
	if len(f.HomeZones) > 0 {
		for _, z := range f.HomeZones {
			if z.Player >= seats {
				z.at.warnf("%s has a home zone but no start zone: it is ignored", z.Key)
			}
		}
	}
	return good
}

// zoneSpaces resolves a zone's space ids, reporting in one error every
// id the board does not have.
func (d *Definition) zoneSpaces(f *gameFile, z zone, what string) ([]int, bool) {
	var missing []string
	var spaces []int
	for _, r := range z.Spaces {
		if s, ok := d.byID[r.id]; ok {
			spaces = append(spaces, s)
		} else {
			missing = append(missing, strconv.Quote(r.id))
		}
	}
	if len(missing) > 0 {
		z.at.errorf("the %s of %s names spaces the board does not have: %s (the board's spaces are %s)",
			what, z.Key, strings.Join(missing, ", "), idList(d.ids(f)))
		return nil, false
	}
	return spaces, true
}

// entryWait is the steps a piece at its start loses, on average, waiting
// for a roll that brings it out: the rolls missed times the mean roll.
func (d *Definition) entryWait() int {
	if d.enterOn == nil {
		return 0
	}
	// The chance of each total, die by die.
	ways := []float64{1}
	for range d.Dice.Count {
		next := make([]float64, len(ways)+d.Dice.Sides)
		for t, w := range ways {
			for f := 1; f <= d.Dice.Sides; f++ {
				next[t+f] += w / float64(d.Dice.Sides)
			}
		}
		ways = next
	}
	p := 0.0
	for t, w := range ways {
		if t < len(d.enterOn) && d.enterOn[t] {
			p += w
		}
	}
	if p <= 0 {
		return 0
	}
	mean := float64(d.Dice.Count*(d.Dice.Sides+1)) / 2
	return int(math.Round((1 - p) / p * mean))
}

// idList shows a board's ids in a message, the first few of a long list.
func idList(ids []string) string {
	if len(ids) > 12 {
		return strings.Join(ids[:12], ", ") + fmt.Sprintf(" and %d more", len(ids)-12)
	}
	return strings.Join(ids, ", ")
}

// buildTriggers makes the engine triggers of the board's spaces, and notes
// which spaces have triggers for which moment, so that a move steps over
// the others at once.
func (d *Definition) buildTriggers() {
	fx := &d.pack.fx
	d.listens = make([]uint8, len(d.Spaces))
	for i := range d.Spaces {
		s := &d.Spaces[i]
		for j, t := range s.Triggers {
			var call engine.EffectCall
			switch t.Action.Type {
			case PromptAllPlayers, PromptCurrentPlayer:
				call = fx.prompt.Call(promptArgs{All: t.Action.Type == PromptAllPlayers, Message: t.Action.Message})
			case DisplacePlayer:
				call = fx.displace.Call(t.Action.Steps)
			case SetPlayerSpace:
				call = fx.teleport.Call(d.byID[t.Action.Space.id])
			case ForceStop:
				call = fx.stop.Call(struct{}{})
			}
			typ := d.pack.evEnter
			bit := listenEnter
			switch t.When {
			case OnLand:
				typ, bit = d.pack.evLand, listenLand
			case OnExit:
				typ, bit = d.pack.evExit, listenExit
			}
			d.listens[i] |= bit
			d.triggers = append(d.triggers, placed{space: i, index: j, def: &engine.Trigger{
				Name:     fmt.Sprintf("%s on %s", t.When, s.ID),
				On:       []engine.EventType{typ},
				Scope:    engine.Here,
				Priority: t.Priority,
				Effects:  []engine.EffectCall{call},
				Data:     j,
			}})
		}
	}
}

// The moments a space has triggers for, as bits.
const (
	listenEnter uint8 = 1 << iota
	listenLand
	listenExit
)

// buildDistances counts, for every player and space, the steps from the
// space to the player's nearest goal space along the board's connections
// (Trouble: along the player's own path), for the bots' judgement. A piece
// at its start is further by the steps it loses, on average, waiting for a
// roll that brings it out.
func (d *Definition) buildDistances() {
	n := len(d.Spaces)
	wait := d.entryWait()
	for i := range d.geo {
		g := &d.geo[i]
		g.dist = make([]int, n)
		for s := range g.dist {
			g.dist[s] = -1
		}
		if d.Engine == Trouble {
			for k, s := range g.Path {
				g.dist[s] = max(len(g.Path)-d.Lane-k, 0)
			}
			for _, s := range g.Start {
				g.dist[s] = len(g.Path) - d.Lane + 1
			}
		} else {
			// Breadth first, backwards from the goal.
			queue := []int{}
			for s := range n {
				if g.goal[s] {
					g.dist[s] = 0
					queue = append(queue, s)
				}
			}
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				for _, p := range d.Spaces[s].Prev {
					if g.dist[p] < 0 {
						g.dist[p] = g.dist[s] + 1
						queue = append(queue, p)
					}
				}
			}
		}
		for _, s := range g.Start {
			if g.dist[s] >= 0 {
				g.dist[s] += wait
			}
		}
		for s := range n {
			g.far = max(g.far, g.dist[s])
		}
		g.far = max(g.far, 1)
		for s := range n {
			if g.dist[s] < 0 {
				g.dist[s] = g.far
			}
		}
	}
}
