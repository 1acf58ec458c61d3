package party

import (
	"cmp"
	"slices"
	"strconv"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// baseline plays a party board with the simulator's bots as plain Go: an
// array graph, the board's events sorted into arrays by trigger, one loop
// per turn, no engine, no log, no game interface. It knows the actions the
// default boards use (prompts, stats, moving back, skipping turns,
// teleports, finishing) and applies them with the pack's semantics,
// drawing the dice from the match's stream and the choices at forks from
// each seat's bot stream as `tabula simulate` does, so that it plays the
// very same games (TestBaselinePlaysTheSameGames) and counts the same
// figures per space and seat, in the same layout. It is the speed the
// simulator is measured against.
type baseline struct {
	def     *Definition
	layout  *tallyLayout
	cap     int
	next    [][]int
	streams *rng.Streams
	bots    *rng.Streams
	// on[space][trigger] are the space's events of that trigger
	// (0 ON_ENTER, 1 ON_LAND, 2 ON_EXIT) in the order they fire.
	on [][3][]baseEvent

	// per game
	ps       []basePlayer
	turn     int
	skipRun  int
	finished []int
	fired    []int32 // per trigger, the step it last fired in
	step     int32
	counts   []float64
	winners  []int
	rounds   int
	// names are the seats' bot streams' names.
	names []string
}

type baseEvent struct {
	trigger int     // the trigger's index (the board's events in order)
	space   int     // the event's space
	event   int     // the index among the board's events
	action  int     // index into the layout's actions
	kind    int     // what it does
	n       float64 // stat delta, steps, turns
	to      int     // teleport target
	stat    int
	all     bool // prompt everybody
}

const (
	bPrompt = iota
	bStat
	bDisplace
	bSkip
	bTeleport
	bComplete
)

type basePlayer struct {
	space, turnsTaken int
	state             string
	skip              bool // has a SkipTurns effect
	skipLeft          int
	history           []baseMove
}

type baseMove struct {
	space       int
	backtracked bool
}

func newBaseline(tb testing.TB, def *Definition, players, maxRounds int) *baseline {
	b := def.Board
	bl := &baseline{def: def, layout: def.layout(players), cap: maxRounds, next: def.next,
		streams: rng.New(0), bots: rng.New(0),
		on: make([][3][]baseEvent, len(b.Spaces)), ps: make([]basePlayer, players), fired: make([]int32, len(def.triggers))}
	bl.counts = make([]float64, bl.layout.size)
	for i := range players {
		bl.names = append(bl.names, botName(i))
	}
	type sorted struct {
		be   baseEvent
		prio int
		pos  int
	}
	var evs [3][][]sorted
	for k := range evs {
		evs[k] = make([][]sorted, len(b.Spaces))
	}
	for id, t := range def.triggers {
		ref := t.def.Data.(eventRef)
		ev := &b.Spaces[ref.Space].Events[ref.Event]
		be := baseEvent{trigger: id, space: ref.Space, event: def.tally.eventAt[ref.Space] + ref.Event,
			action: slices.Index(def.tally.actions, ev.Action.Type)}
		switch a := ev.Action.Args.(type) {
		case PromptArgs:
			be.kind, be.all = bPrompt, ev.Action.Type == PromptAllPlayers
		case ChangeStatArgs:
			be.kind, be.n, be.stat = bStat, a.Delta, slices.Index(def.tally.stats, a.Stat)
		case DisplaceArgs:
			be.kind, be.n = bDisplace, float64(a.Steps)
		case EffectArgs:
			if a.Effect.Kind != SkipTurns {
				tb.Fatalf("the baseline does not know the effect %s", a.Effect.Kind)
			}
			be.kind, be.n = bSkip, float64(a.Effect.Turns)
		case TeleportArgs:
			be.kind = bTeleport
			be.to = def.byID[a.SpaceID]
		case StateArgs:
			if a.State != CompletedGame {
				tb.Fatalf("the baseline does not know the state %s", a.State)
			}
			be.kind = bComplete
		default:
			tb.Fatalf("the baseline does not know %s", ev.Action.Type)
		}
		k := slices.Index([]string{OnEnter, OnLand, OnExit}, ev.Trigger)
		if k < 0 {
			tb.Fatalf("the baseline does not know %s", ev.Trigger)
		}
		evs[k][ref.Space] = append(evs[k][ref.Space], sorted{be: be, prio: int(ev.Priority), pos: id})
	}
	for k := range evs {
		for i, list := range evs[k] {
			slices.SortStableFunc(list, func(a, b sorted) int { return cmp.Compare(b.prio, a.prio) })
			for _, s := range list {
				bl.on[i][k] = append(bl.on[i][k], s.be)
			}
		}
	}
	if len(def.tally.effects) > 1 || b.Rules.Start.Mode != "" && b.Rules.Start.Mode != "single" || slices.Contains(def.win, true) || b.Rules.Dice.Count == 0 {
		tb.Fatalf("the baseline does not know this board's rules")
	}
	return bl
}

// botName is the name of a player's bot stream in the simulator.
func botName(player int) string { return "sim bot " + strconv.Itoa(player) }

// play plays one game with the given seed.
func (bl *baseline) play(seed uint64) {
	clear(bl.counts)
	bl.streams.Reset(seed)
	dice := bl.streams.Stream("dice")
	bl.bots.Reset(seed)
	var bots [MaxSeats]*rng.Stream
	for i := range bl.ps {
		bots[i] = bl.bots.Stream(bl.names[i])
	}
	for i := range bl.ps {
		bl.ps[i] = basePlayer{state: Playing, history: bl.ps[i].history[:0]}
	}
	bl.turn, bl.skipRun, bl.finished, bl.winners, bl.rounds = 0, 0, bl.finished[:0], bl.winners[:0], 0
	clear(bl.fired)
	bl.step = 0
	rules := bl.def.Board.Rules
	for {
		// The player with the fewest turns, ties in seat order.
		cur := 0
		for i := range bl.ps {
			if bl.ps[i].turnsTaken < bl.ps[cur].turnsTaken {
				cur = i
			}
		}
		p := &bl.ps[cur]
		bl.turn++
		bl.rounds = bl.round()
		if p.skip {
			if p.skipLeft > 0 && (p.state == Playing || p.state == SkippingTurn) {
				p.state = SkippingTurn
				p.skipLeft--
			} else {
				if p.state == SkippingTurn {
					p.state = Playing
				}
				p.skip = false
			}
		}
		if p.state != Playing {
			bl.skipRun++
		} else {
			bl.skipRun = 0
			moves := 0
			for range rules.Dice.Count {
				moves += dice.Between(1, rules.Dice.Sides)
			}
			for moves > 0 {
				bl.step++
				ways := bl.next[p.space]
				if len(ways) == 0 {
					moves = 0
					bl.land(cur, p.space, &moves)
					break
				}
				to := ways[0]
				if len(ways) > 1 {
					to = ways[bots[cur].IntN(len(ways))]
				}
				from := p.space
				bl.move(p, to, &moves)
				bl.fire(cur, from, 2, &moves)
				bl.arrive(cur, to, &moves)
			}
		}
		// The end of the turn.
		if len(bl.finished) == len(bl.ps) {
			bl.winners = append(bl.winners, bl.finished[0])
			break
		}
		if bl.nobodyCanPlay() {
			bl.winners = append(bl.winners, bl.finished[:min(1, len(bl.finished))]...)
			break
		}
		p.turnsTaken++
		if rules.MaxTurns > 0 && bl.round() > rules.MaxTurns {
			bl.winners = append(bl.winners, bl.finished[:min(1, len(bl.finished))]...)
			break
		}
		if bl.round() > bl.cap {
			break
		}
	}
}

func (bl *baseline) round() int {
	low := bl.ps[0].turnsTaken
	for _, p := range bl.ps[1:] {
		low = min(low, p.turnsTaken)
	}
	return low + 1
}

func (bl *baseline) nobodyCanPlay() bool {
	if bl.skipRun < len(bl.ps) {
		return false
	}
	for _, p := range bl.ps {
		if p.state == Playing || p.skip {
			return false
		}
	}
	return true
}

func (bl *baseline) move(p *basePlayer, to int, moves *int) {
	if len(p.history) == 0 {
		p.history = append(p.history, baseMove{space: p.space})
	}
	p.space = to
	*moves = max(0, *moves-1)
	p.history = append(p.history, baseMove{space: to})
}

// arrive enters a space, and lands there if no move is left: whether it
// lands is decided on arrival, before the space's events run.
func (bl *baseline) arrive(seat, space int, moves *int) {
	bl.counts[space*spaceFigures+figEntries]++
	landing := *moves == 0
	if landing {
		bl.counts[space*spaceFigures+figLandings]++
	}
	bl.fire(seat, space, 0, moves)
	if landing {
		bl.fire(seat, space, 1, moves)
	}
}

func (bl *baseline) land(seat, space int, moves *int) {
	bl.counts[space*spaceFigures+figLandings]++
	bl.fire(seat, space, 1, moves)
}

// fire runs the events of a space for one trigger, each at most once per
// step.
func (bl *baseline) fire(seat, space, trigger int, moves *int) {
	p := &bl.ps[seat]
	l := bl.layout
	per := bl.def.tally.seatFigures()
	for i := range bl.on[space][trigger] {
		e := &bl.on[space][trigger][i]
		if bl.fired[e.trigger] == bl.step {
			continue
		}
		bl.fired[e.trigger] = bl.step
		bl.counts[e.space*spaceFigures+figFirings]++
		bl.counts[l.events+e.event]++
		bl.counts[l.actions+e.action]++
		switch e.kind {
		case bPrompt:
			if e.all {
				for s := range bl.ps {
					bl.counts[l.seats+s*per]++
				}
			} else {
				bl.counts[l.seats+seat*per]++
			}
		case bStat:
			bl.counts[l.seats+seat*per+1+len(bl.def.tally.effects)+e.stat] += e.n
		case bSkip:
			p.skip, p.skipLeft = true, int(e.n)
			bl.counts[l.seats+seat*per+1]++
		case bComplete:
			if p.state != CompletedGame {
				p.state = CompletedGame
				bl.finished = append(bl.finished, seat)
			}
		case bTeleport:
			bl.move(p, e.to, moves)
			bl.arrive(seat, e.to, moves)
		case bDisplace:
			live := 0
			for _, m := range p.history {
				if !m.backtracked {
					live++
				}
			}
			if live == 0 {
				continue
			}
			t := max(0, live+int(e.n)-1) // the live entry to go back to
			k := -1
			for j := range p.history {
				if p.history[j].backtracked {
					continue
				}
				k++
				if k == t {
					p.space = p.history[j].space
				} else if k > t {
					p.history[j].backtracked = true
				}
			}
			bl.arrive(seat, p.space, moves)
		}
	}
}

// simGame plays game i of a simulation with the given master seed as
// `tabula simulate` plays it (sim's fast path: StartFast, then each
// waiting seat's bot), on m if it is not nil, and returns the match.
func simGame(tb testing.TB, def *Definition, m *Match, players []string, master uint64, i int, bots *rng.Streams) *Match {
	seed := sim.GameSeed(master, i)
	setup := game.Setup{Players: players, Seed: seed}
	if m == nil {
		g, err := def.StartFast(setup)
		if err != nil {
			tb.Fatal(err)
		}
		m = g.(*Match)
	} else if err := m.Restart(setup); err != nil {
		tb.Fatal(err)
	}
	bots.Reset(seed)
	var rs [MaxSeats]*rng.Stream
	for s := range players {
		rs[s] = bots.Stream(botName(s))
	}
	var waiting []int
	for commands := 0; ; commands++ {
		waiting = m.AppendWaiting(waiting[:0])
		if len(waiting) == 0 {
			return m
		}
		if commands > 100000 {
			tb.Fatalf("game %d: no end", i)
		}
		if _, err := m.PlayBot(waiting[0], rs[waiting[0]]); err != nil {
			tb.Fatal(err)
		}
	}
}
