// Package gametest holds what tests of game packs share: Nim, the
// smallest complete pack (an example for whoever writes a fifth one, and a
// pack for the server's tests, which must not depend on real ones), and
// Check, the behaviour every pack must have.
package gametest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Nim is a game pack: players take turns taking 1 to N counters from a
// pile, and whoever takes the last one wins. A game file says:
//
//	{"game": "nim", "name": "Twenty-one", "pile": 21, "take": 3}
//
// with optional "minPlayers" and "maxPlayers" (default 2 and 4). For the
// server's tests, "trap" makes the match panic on purpose: in "apply",
// "view" or "bot", once the pile is at or below "trapAt"; "botDelayMs"
// makes its bot think that long over each move.
type Nim struct {
	rules *engine.Rules
	take  engine.Effect[int]
	next  engine.Effect[struct{}]
	win   engine.Effect[struct{}]
	taken engine.EventType
}

// NewNim returns the pack, with its own registry of effects: every Nim
// game shares it, and nothing global is filled.
func NewNim() *Nim {
	p := &Nim{}
	types := engine.NewTypes("TAKEN", "TURN")
	p.taken, _ = types.Lookup("TAKEN")
	turn, _ := types.Lookup("TURN")
	effects := engine.NewEffects()
	p.take = engine.Register(effects, "TAKE", func(c *engine.Ctx, s *nimState, n int) error {
		s.Pile -= n
		ev := engine.NewEvent(p.taken)
		ev.Player, ev.Amount = c.Actor(), n
		c.Emit(ev)
		return nil
	})
	p.next = engine.Register(effects, "NEXT_TURN", func(c *engine.Ctx, s *nimState, _ struct{}) error {
		if s.Over {
			return nil
		}
		s.Turn = (s.Turn + 1) % len(s.Names)
		if s.Turn == 0 {
			s.Round++
			if s.MaxRounds > 0 && s.Round > s.MaxRounds {
				s.Over, s.Reason = true, "the round limit was reached"
				return nil
			}
		}
		ev := engine.NewEvent(turn)
		ev.Player = engine.PlayerID(s.Turn)
		c.Emit(ev)
		return nil
	})
	p.win = engine.Register(effects, "WIN", func(c *engine.Ctx, s *nimState, _ struct{}) error {
		ev := c.Event()
		s.Over, s.Winner = true, int(ev.Player)
		s.Reason = s.Names[ev.Player] + " took the last counter"
		return nil
	})
	p.rules = &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst, Guard: engine.PerTrigger}
	return p
}

// Name is "nim".
func (p *Nim) Name() string { return "nim" }

// Detect claims JSON files whose "game" is "nim".
func (p *Nim) Detect(src *game.Source) bool {
	if src.IsDir() {
		return false
	}
	data, err := src.Data()
	if err != nil {
		return false
	}
	var head struct {
		Game string `json:"game"`
	}
	return json.Unmarshal(data, &head) == nil && head.Game == "nim"
}

// Schemas has none: Nim checks its file by hand.
func (p *Nim) Schemas() []game.Schema { return nil }

// nimFile is a Nim game file.
type nimFile struct {
	Game        string `json:"game"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Pile        int    `json:"pile"`
	Take        int    `json:"take"`
	MinPlayers  int    `json:"minPlayers"`
	MaxPlayers  int    `json:"maxPlayers"`
	Trap        string `json:"trap"`
	TrapAt      int    `json:"trapAt"`
	BotDelayMs  int    `json:"botDelayMs"`
}

// Load reads a Nim file.
func (p *Nim) Load(src *game.Source) (game.Definition, diag.List) {
	data, err := src.Data()
	if err != nil {
		return nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: err.Error()}}
	}
	r := diag.NewReporter(src.Name(), data)
	if _, ok := r.DecodeJSON(data); !ok {
		return nil, r.List
	}
	f := nimFile{MinPlayers: 2, MaxPlayers: 4}
	if err := json.Unmarshal(data, &f); err != nil {
		r.Errorf("", "%v", err)
		return nil, r.List
	}
	if f.Pile < 1 || f.Pile > 1000 {
		r.Errorf("/pile", "the pile holds 1 to 1000 counters, not %d", f.Pile)
	}
	if f.Take < 1 || f.Take > f.Pile {
		r.Errorf("/take", "a turn takes 1 to the pile's %d counters at most, not %d", f.Pile, f.Take)
	}
	if f.MinPlayers < 1 || f.MaxPlayers < f.MinPlayers || f.MaxPlayers > 12 {
		r.Errorf("/maxPlayers", "players must be between 1 and 12, the minimum first")
	}
	if r.List.HasErrors() {
		return nil, r.List
	}
	win := &engine.Trigger{Name: "the last counter", On: []engine.EventType{p.taken}, Filter: emptyPile{},
		Effects: []engine.EffectCall{p.win.Call(struct{}{})}}
	return &nimDef{pack: p, file: f, win: win}, r.List
}

// emptyPile passes when the pile is empty.
type emptyPile struct{}

func (emptyPile) Match(state any, _ *engine.Event, _ *engine.Instance) bool {
	return state.(*nimState).Pile == 0
}

type nimDef struct {
	pack *Nim
	file nimFile
	win  *engine.Trigger
}

func (d *nimDef) Info() game.Info {
	return game.Info{Pack: "nim", Name: d.file.Name, Description: d.file.Description,
		MinPlayers: d.file.MinPlayers, MaxPlayers: d.file.MaxPlayers, DefaultMaxRounds: 100,
		Size: strconv.Itoa(d.file.Pile) + " counters"}
}

// Drawing is the pile's size, all the page needs.
func (d *nimDef) Drawing() any { return map[string]int{"pile": d.file.Pile} }

func (d *nimDef) Start(s game.Setup) (game.Match, error) {
	if err := d.Info().CheckPlayers(len(s.Players)); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(s.Players); err != nil {
		return nil, err
	}
	st := &nimState{Pile: d.file.Pile, Names: s.Players, Winner: -1, MaxRounds: s.MaxRounds, Round: 1}
	if st.MaxRounds == 0 {
		st.MaxRounds = d.Info().DefaultMaxRounds
	}
	m := engine.NewMatch(d.pack.rules, st, s.Seed, s.Players)
	m.Index.Add(d.win, engine.System, engine.NoPlayer, engine.NoLocation, 0)
	return &nimMatch{def: d, m: m, s: st}, nil
}

// nimState is the state of a Nim match. It has no secrets.
type nimState struct {
	Pile      int      `json:"pile"`
	Turn      int      `json:"turn"`
	Round     int      `json:"round"`
	Names     []string `json:"names"`
	Over      bool     `json:"over"`
	Winner    int      `json:"winner"`
	Reason    string   `json:"reason,omitempty"`
	MaxRounds int      `json:"maxRounds"`
}

// AppendCanonical encodes every field for the state hash.
func (s *nimState) AppendCanonical(b []byte) []byte {
	b = engine.AppendVarints(b, int64(s.Pile), int64(s.Turn), int64(s.Round), engine.Bit(s.Over), int64(s.Winner), int64(s.MaxRounds))
	return append(b, s.Reason...)
}

type nimMatch struct {
	def *nimDef
	m   *engine.Match
	s   *nimState
}

// nimCommand is a Nim command: {"take": 2}.
type nimCommand struct {
	Take int `json:"take"`
}

func (n *nimMatch) trap(where string) {
	if f := n.def.file; f.Trap == where && n.s.Pile <= f.TrapAt {
		panic("nim: the trap in " + where + " went off")
	}
}

func (n *nimMatch) Apply(seat int, data json.RawMessage) error {
	n.trap("apply")
	var c nimCommand
	if err := game.DecodeCommand(data, &c); err != nil {
		return engine.Rejectf(`a Nim command is {"take": N}: %v`, err)
	}
	switch {
	case n.s.Over:
		return engine.Rejectf("the game is over")
	case seat != n.s.Turn:
		return engine.Rejectf("it is %s's turn", n.s.Names[n.s.Turn])
	case c.Take < 1 || c.Take > min(n.def.file.Take, n.s.Pile):
		return engine.Rejectf("take 1 to %d counters, not %d", min(n.def.file.Take, n.s.Pile), c.Take)
	}
	if err := n.m.Run(engine.PlayerID(seat), n.def.pack.take.Call(c.Take)); err != nil {
		return err
	}
	return n.m.Run(engine.PlayerID(seat), n.def.pack.next.Call(struct{}{}))
}

func (n *nimMatch) Waiting() []int {
	if n.s.Over {
		return nil
	}
	return []int{n.s.Turn}
}

func (n *nimMatch) Legal(seat int) []game.Command {
	if n.s.Over || seat != n.s.Turn {
		return nil
	}
	var out []game.Command
	for k := 1; k <= min(n.def.file.Take, n.s.Pile); k++ {
		out = append(out, game.Command{Data: json.RawMessage(`{"take":` + strconv.Itoa(k) + `}`), Text: fmt.Sprintf("Take %d", k)})
	}
	return out
}

func (n *nimMatch) View(seat int) any {
	n.trap("view")
	return struct {
		*nimState
		You  int    `json:"you"`
		Hash string `json:"hash"`
	}{n.s, seat, n.Hash()}
}

func (n *nimMatch) Log(viewer, from int) []game.Entry {
	return engine.Transcribe(n.m, from, func(i int, r engine.Record) (game.Entry, bool) {
		if r.Kind != engine.RecEvent {
			return game.Entry{}, false
		}
		ev := n.m.Events[r.Event]
		e := game.Entry{Seq: i, Chain: int(r.Chain), Depth: int(r.Depth), Kind: r.Kind.String(),
			Type: n.m.Rules.Types.Name(ev.Type), Seat: int(ev.Player), Amount: ev.Amount}
		if ev.Type == n.def.pack.taken {
			e.Text = fmt.Sprintf("%s takes %d", n.s.Names[ev.Player], ev.Amount)
		}
		return e, true
	})
}

func (n *nimMatch) LogLen() int  { return len(n.m.Records()) }
func (n *nimMatch) Hash() string { return n.m.Hash() }

func (n *nimMatch) Outcome() game.Outcome {
	o := game.Outcome{Over: n.s.Over, Reason: n.s.Reason, Winners: []int{}, Rounds: n.s.Round}
	if n.s.Winner >= 0 {
		o.Winners = append(o.Winners, n.s.Winner)
	}
	return o
}

// BotCommand takes what leaves the pile a multiple of take+1, if it can
// (the winning strategy), else one counter; a trap may go off first.
func (n *nimMatch) BotCommand(seat int, _ *rng.Stream) (json.RawMessage, bool) {
	n.trap("bot")
	if n.s.Over || seat != n.s.Turn {
		return nil, false
	}
	time.Sleep(time.Duration(n.def.file.BotDelayMs) * time.Millisecond)
	k := n.s.Pile % (n.def.file.Take + 1)
	if k == 0 {
		k = 1
	}
	return json.RawMessage(`{"take":` + strconv.Itoa(k) + `}`), true
}
