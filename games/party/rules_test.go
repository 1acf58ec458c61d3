package party

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// ev builds a board event.
func ev(trigger, action string, args any) Event {
	return Event{Trigger: trigger, Action: Action{Type: action, Args: args}, Priority: engine.Mid}
}

// sp builds a space with connections to the given ids.
func sp(id string, to []string, events ...Event) Space {
	s := Space{ID: id, Name: "S" + id, Events: events}
	for _, t := range to {
		s.Connections = append(s.Connections, Connection{Target: t, Draw: true})
	}
	return s
}

func next(id string) []string { return []string{id} }

// testPack is the pack the tests compile boards with.
var testPack = NewPack()

// compileFile loads and compiles a board file that must be valid.
func compileFile(t testing.TB, path string) *Definition {
	t.Helper()
	def, list := testPack.LoadFile(path)
	if def == nil {
		t.Fatal(list)
	}
	return def
}

// compileBoard compiles a board built by a test.
func compileBoard(t testing.TB, b *Board) *Definition {
	t.Helper()
	for i := range b.Spaces {
		for j := range b.Spaces[i].Events {
			b.Spaces[i].Events[j].Pointer = fmt.Sprintf("/spaces/%d/events/%d", i, j)
		}
	}
	def, err := testPack.Compile(b)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// start starts a match of a definition that must accept its setup.
func start(t testing.TB, def *Definition, setup game.Setup) *Match {
	t.Helper()
	m, err := def.NewMatch(setup, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newTestGame(t *testing.T, spaces []Space, players ...string) *Match {
	t.Helper()
	def := compileBoard(t, &Board{File: "test.json", Spaces: spaces, Rules: GameRules{Dice: Dice{Count: 1, Sides: 6}}})
	return start(t, def, game.Setup{Players: players, Seed: 7, MaxRounds: 50})
}

// seatCmd is a seat's command, as play plays it; a roll may script the
// dice's result.
type seatCmd struct {
	seat   int
	cmd    Command
	rolled int
}

// rollCmd is a roll of the seat whose result is n.
func rollCmd(seat, n int) seatCmd {
	return seatCmd{seat: seat, cmd: Command{Kind: KindRoll}, rolled: n}
}

// play plays commands, acknowledging prompts as they come. A scripted roll
// is put in the match's scripted dice just before it is rolled, as a setup
// with those dice would have it.
func play(t *testing.T, m *Match, cmds ...seatCmd) {
	t.Helper()
	for _, c := range cmds {
		ackAll(t, m)
		if c.rolled != 0 {
			m.s.Dice = append(m.s.Dice, c.rolled)
			m.e.Touch()
		}
		if err := m.Play(c.seat, c.cmd); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	}
	ackAll(t, m)
}

func ackAll(t *testing.T, m *Match) {
	t.Helper()
	for {
		ws := m.Waits()
		if len(ws) == 0 || ws[0].Kind != KindAck {
			return
		}
		if err := m.Play(ws[0].Player, Command{Kind: KindAck}); err != nil {
			t.Fatal(err)
		}
	}
}

func firings(m *Match) []string {
	var out []string
	for _, f := range m.Firings() {
		out = append(out, m.s.Players[f.Player].Name+": "+m.FiringLine(f))
	}
	return out
}

func prompt(msg string) PromptArgs { return PromptArgs{Message: msg} }

func TestStepTriggersFireOnceEach(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2"), ev(OnExit, PromptCurrentPlayer, prompt("bye 1")), ev(OnLand, PromptCurrentPlayer, prompt("land 1"))),
		sp("2", next("3"), ev(OnEnter, PromptCurrentPlayer, prompt("enter 2")), ev(OnLand, PromptCurrentPlayer, prompt("land 2")), ev(OnExit, PromptCurrentPlayer, prompt("exit 2"))),
		sp("3", next("4"), ev(OnLand, PromptCurrentPlayer, prompt("land 3")), ev(OnEnter, PromptCurrentPlayer, prompt("enter 3"))),
		sp("4", nil),
	}, "Ann")
	play(t, g, rollCmd(0, 2))
	// Board order breaks ties: on arriving at 3, its ON_LAND is listed
	// before its ON_ENTER. ON_EXIT(2) comes first because 2 is earlier.
	want := []string{
		"Ann: 1 ON_EXIT PROMPT_CURRENT_PLAYER",
		"Ann: 2 ON_ENTER PROMPT_CURRENT_PLAYER",
		"Ann: 2 ON_EXIT PROMPT_CURRENT_PLAYER",
		"Ann: 3 ON_LAND PROMPT_CURRENT_PLAYER",
		"Ann: 3 ON_ENTER PROMPT_CURRENT_PLAYER",
	}
	if got := firings(g); !slices.Equal(got, want) {
		t.Errorf("firings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Nothing re-fires when the next turn's roll comes (the original
	// fired ON_EXIT of 2 again here), and 4 has no events.
	n := len(g.Firings())
	play(t, g, rollCmd(0, 1))
	if got := firings(g)[n:]; len(got) != 0 {
		t.Errorf("second turn fired %v, want nothing", got)
	}
}

func TestPriorityOrdersEventsOfOneSettle(t *testing.T) {
	hi := ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "order", Delta: 1})
	hi.Priority = engine.Critical
	lo := ev(OnLand, SetStat, SetStatArgs{Stat: "order", Value: 10})
	lo.Priority = engine.Low
	g := newTestGame(t, []Space{sp("1", next("2")), sp("2", nil, lo, hi)}, "Ann")
	play(t, g, rollCmd(0, 1))
	// CRITICAL runs first (order 1), then LOW sets 10.
	if v := g.s.Players[0].StatValue("order"); v != 10 {
		t.Errorf("order = %v, want 10 (CRITICAL before LOW)", v)
	}
	want := []string{"Ann: 2 ON_LAND CHANGE_STAT", "Ann: 2 ON_LAND SET_STAT"}
	if got := firings(g); !slices.Equal(got, want) {
		t.Errorf("firings %v, want %v", got, want)
	}
}

func TestForkIsADecision(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", []string{"2", "3"}),
		sp("2", nil, ev(OnLand, SetStat, SetStatArgs{Stat: "went", Value: 2})),
		sp("3", nil, ev(OnLand, SetStat, SetStatArgs{Stat: "went", Value: 3})),
	}, "Ann", "Bob")
	play(t, g, rollCmd(0, 1))
	ws := g.Waits()
	if len(ws) != 1 || ws[0].Kind != KindChoosePath || ws[0].Player != 0 || len(ws[0].Options) != 2 {
		t.Fatalf("waits %+v, want Ann choosing between 2 paths", ws)
	}
	before := g.Hash()
	for _, bad := range []seatCmd{
		{seat: 1, cmd: Command{Kind: KindChoosePath, Value: 0}},
		{seat: 0, cmd: Command{Kind: KindChoosePath, Value: 2}},
		{seat: 0, cmd: Command{Kind: KindChoosePath, Space: "1"}},
		{seat: 0, cmd: Command{Kind: KindAck}},
		{seat: 0, cmd: Command{Kind: KindRoll}},
	} {
		if err := g.Play(bad.seat, bad.cmd); !engine.IsRejected(err) {
			t.Errorf("%+v: %v, want rejected", bad, err)
		}
	}
	if g.Hash() != before || g.commands != 1 {
		t.Error("rejected commands changed the match")
	}
	play(t, g, seatCmd{seat: 0, cmd: Command{Kind: KindChoosePath, Value: 1}})
	if p := g.s.Players[0]; p.Space != 2 || p.StatValue("went") != 3 {
		t.Errorf("Ann on %d went %v, want space index 2 and stat 3", p.Space, p.StatValue("went"))
	}
	if g.s.Current != 1 || g.Waits()[0].Kind != KindRoll {
		t.Errorf("after Ann's turn: current %d, waits %+v", g.s.Current, g.Waits())
	}
}

func TestTeleportCostsAMoveAndFiresTheDestination(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", next("3"), ev(OnEnter, SetPlayerSpace, TeleportArgs{SpaceID: "9"})),
		sp("3", next("9")),
		sp("9", next("10"), ev(OnEnter, ChangeStat, ChangeStatArgs{Stat: "entered9", Delta: 1}), ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "landed9", Delta: 1})),
		sp("10", nil, ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "landed10", Delta: 1})),
	}, "Ann")
	// Roll 3: step to 2 (2 left), teleport to 9 costs one (1 left), then a
	// step to 10 (0 left) lands there.
	play(t, g, rollCmd(0, 3))
	p := g.s.Players[0]
	if got := []float64{p.StatValue("entered9"), p.StatValue("landed9"), p.StatValue("landed10")}; !slices.Equal(got, []float64{1, 0, 1}) {
		t.Errorf("entered9, landed9, landed10 = %v, want [1 0 1]", got)
	}
	if g.def.Board.Spaces[p.Space].ID != "10" {
		t.Errorf("Ann ends on %s, want 10", g.def.Board.Spaces[p.Space].ID)
	}
	// A teleport on ON_LAND (no moves left) lands on the destination in
	// the same cascade.
	g = newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", nil, ev(OnLand, SetPlayerSpace, TeleportArgs{SpaceID: "9"})),
		sp("9", nil, ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "landed9", Delta: 1})),
	}, "Ann")
	play(t, g, rollCmd(0, 1))
	if g.s.Players[0].StatValue("landed9") != 1 {
		t.Error("the teleport's destination ON_LAND did not fire")
	}
	recs := g.e.Records()
	var depths []int32
	for _, r := range recs {
		if r.Kind == engine.RecFired {
			depths = append(depths, r.Depth)
		}
	}
	if !slices.Equal(depths, []int32{1, 2}) {
		t.Errorf("firing depths %v, want [1 2] (the destination's event is a cascade)", depths)
	}
}

func TestMoveBackAlongHistory(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2"), ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "back1", Delta: 1})),
		sp("2", next("3")),
		sp("3", next("4"), ev(OnLand, DisplacePlayer, DisplaceArgs{Steps: -2})),
		sp("4", nil),
	}, "Ann")
	play(t, g, rollCmd(0, 2))
	p := g.s.Players[0]
	if p.Space != 0 || p.StatValue("back1") != 1 {
		t.Fatalf("Ann on space %d (back1 %v), want back on 1 with its ON_LAND fired", p.Space, p.StatValue("back1"))
	}
	var marks []string
	for _, mv := range p.History {
		marks = append(marks, fmt.Sprintf("%s%v", g.def.Board.Spaces[mv.Space].ID, map[bool]string{true: "B", false: ""}[mv.Backtracked]))
	}
	if got := strings.Join(marks, " "); got != "1 2B 3B" {
		t.Errorf("history %s, want 1 2B 3B", got)
	}
	// Moving back again goes from the remaining history, not the marked moves.
	play(t, g, rollCmd(0, 1)) // 1 → 2
	play(t, g, rollCmd(0, 1)) // 2 → 3: back 2 → 1
	if g.s.Players[0].Space != 0 {
		t.Errorf("second move back ends on %d, want 0", g.s.Players[0].Space)
	}
}

func TestSkipTurnsSkipsExactly(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", next("3"), ev(OnLand, ApplyEffect, EffectArgs{Effect: PlayerEffect{Type: "SkipTurnEffect", Kind: SkipTurns, Turns: 1}})),
		sp("3", next("4")), sp("4", next("5")), sp("5", next("6")), sp("6", nil),
	}, "Ann", "Bob")
	play(t, g, rollCmd(0, 1), rollCmd(1, 2))
	// Ann's next turn is skipped: Bob rolls again.
	if g.s.Current != 1 || g.s.Players[0].State != SkippingTurn {
		t.Fatalf("current %d, Ann %s: want Bob to play while Ann skips", g.s.Current, g.s.Players[0].State)
	}
	play(t, g, rollCmd(1, 1))
	if g.s.Current != 0 || g.s.Players[0].State != Playing {
		t.Fatalf("current %d, Ann %s: want Ann back and PLAYING", g.s.Current, g.s.Players[0].State)
	}
}

func TestSkipDoesNotUndoFinishing(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", next("3"), ev(OnLand, ApplyEffect, EffectArgs{Effect: PlayerEffect{Kind: SkipTurns, Turns: 2}}),
			ev(OnLand, SetPlayerState, StateArgs{State: CompletedGame})),
		sp("3", nil),
	}, "Ann", "Bob")
	play(t, g, rollCmd(0, 1), rollCmd(1, 2)) // Ann finishes on 2, Bob walks past it; Ann's next turn begins
	if st := g.s.Players[0].State; st != CompletedGame || len(g.s.Players[0].Effects) != 0 {
		t.Errorf("Ann is %s with effects %v, want COMPLETED_GAME and the skip dropped", st, g.s.Players[0].Effects)
	}
}

func TestRepeatTurns(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", next("3"), ev(OnLand, ApplyEffect, EffectArgs{Effect: PlayerEffect{Kind: RepeatTurns, Turns: 2}})),
		sp("3", next("4")), sp("4", next("5")), sp("5", nil),
	}, "Ann", "Bob")
	play(t, g, rollCmd(0, 1))
	for i := 0; i < 2; i++ {
		if g.s.Current != 0 {
			t.Fatalf("extra turn %d went to seat %d", i+1, g.s.Current)
		}
		play(t, g, rollCmd(0, 1))
	}
	if g.s.Current != 1 {
		t.Errorf("after two extra turns, current %d, want Bob", g.s.Current)
	}
}

func TestChangeDirectionWalksBackwards(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", next("3")),
		sp("3", next("4"), ev(OnLand, ApplyEffect, EffectArgs{Effect: PlayerEffect{Kind: ChangeDirection, Turns: 1}})),
		sp("4", nil),
	}, "Ann")
	play(t, g, rollCmd(0, 2)) // lands on 3, reversed for its next turn
	if !g.s.Players[0].Reversed {
		t.Fatal("Ann's next turn is not reversed")
	}
	play(t, g, rollCmd(0, 2)) // walks 3 → 2 → 1 against the arrows
	if p := g.s.Players[0]; p.Space != 0 {
		t.Fatalf("space %d, want 0 after walking back", p.Space)
	}
	play(t, g, rollCmd(0, 1)) // forwards again
	if p := g.s.Players[0]; p.Space != 1 || p.Reversed {
		t.Errorf("space %d reversed %v, want 1 walking forwards", p.Space, p.Reversed)
	}
}

func TestDeadEndLandsEveryTurn(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", next("2")),
		sp("2", nil, ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "landed", Delta: 1}), ev(OnEnter, ChangeStat, ChangeStatArgs{Stat: "entered", Delta: 1})),
	}, "Ann")
	play(t, g, rollCmd(0, 3), rollCmd(0, 2), rollCmd(0, 5))
	p := g.s.Players[0]
	if p.StatValue("landed") != 3 || p.StatValue("entered") != 1 {
		t.Errorf("landed %v entered %v, want 3 and 1", p.StatValue("landed"), p.StatValue("entered"))
	}
}

func TestGameEnds(t *testing.T) {
	finish := []Space{
		sp("1", next("2")),
		sp("2", nil, ev(OnLand, SetPlayerState, StateArgs{State: CompletedGame})),
	}
	g := newTestGame(t, finish, "Ann", "Bob")
	play(t, g, rollCmd(0, 1))
	if g.s.Over {
		t.Fatal("the game ended before Bob finished")
	}
	play(t, g, rollCmd(1, 4))
	if !g.s.Over || !slices.Equal(g.s.Winners, []int{0}) || len(g.Waits()) != 0 {
		t.Errorf("over %v winners %v: want over, Ann first", g.s.Over, g.s.Winners)
	}
	if err := g.Play(0, Command{Kind: KindRoll}); !engine.IsRejected(err) {
		t.Errorf("a command after the end: %v", err)
	}
	// A board that never ends stops at the round cap with no winner.
	loop := newTestGame(t, []Space{sp("1", next("2")), sp("2", next("1"))}, "Ann")
	r := rng.New(1).Stream("bot")
	for !loop.s.Over {
		c, ok := loop.Bot(0, r)
		if !ok {
			t.Fatal("nothing to do for the bot")
		}
		play(t, loop, seatCmd{seat: 0, cmd: c})
	}
	if loop.s.Round() != 51 || len(loop.s.Winners) != 0 || !strings.Contains(loop.s.EndReason, "round cap") {
		t.Errorf("round %d winners %v reason %q", loop.s.Round(), loop.s.Winners, loop.s.EndReason)
	}
}

func TestReachEndWins(t *testing.T) {
	b := []Space{sp("1", next("2")), sp("2", next("3")), sp("3", nil)}
	def := compileBoard(t, &Board{Spaces: b, Rules: GameRules{Dice: Dice{1, 6}, Win: []WinCondition{{Type: "reach-end", SpaceIDs: []string{"3"}}}}})
	g := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
	play(t, g, rollCmd(0, 1), rollCmd(1, 6))
	if !g.s.Over || !slices.Equal(g.s.Winners, []int{1}) {
		t.Errorf("over %v winners %v, want Bob", g.s.Over, g.s.Winners)
	}
}

func TestSameSeedSameGame(t *testing.T) {
	board := []Space{
		sp("1", []string{"2", "3"}, ev(OnExit, PromptAllPlayers, prompt("bye"))),
		sp("2", next("4"), ev(OnLand, SwapPlaces, SwapArgs{})),
		sp("3", next("4"), ev(OnEnter, ApplyEffect, EffectArgs{Effect: PlayerEffect{Kind: SkipTurns, Turns: 1}})),
		sp("4", next("5"), ev(OnLand, DisplacePlayer, DisplaceArgs{Steps: -3})),
		sp("5", next("1"), ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "drinks", Delta: 2})),
	}
	run := func() (string, []string) {
		g := newTestGame(t, board, "Ann", "Bob", "Cid")
		bots := rng.New(99).Stream("bots")
		var hashes []string
		for !g.s.Over {
			for _, w := range g.Waits() {
				c, _ := g.Bot(w.Player, bots)
				if err := g.Play(w.Player, c); err != nil {
					t.Fatal(err)
				}
				hashes = append(hashes, g.Hash())
				break
			}
		}
		var log strings.Builder
		g.WriteLog(&log, 0)
		return log.String(), hashes
	}
	log1, h1 := run()
	log2, h2 := run()
	if log1 != log2 || !slices.Equal(h1, h2) {
		t.Error("the same seed and bots gave two different games")
	}
	if len(h1) < 100 {
		t.Errorf("only %d commands: the game is too short to prove anything", len(h1))
	}
}

func TestViewAndEntries(t *testing.T) {
	g := newTestGame(t, []Space{
		sp("1", []string{"2", "3"}),
		sp("2", nil, ev(OnLand, PromptAllPlayers, prompt("Drink!")), ev(OnLand, ChangeStat, ChangeStatArgs{Stat: "drinks", Delta: 1})),
		sp("3", nil),
	}, "Ann", "Bob")
	play(t, g, rollCmd(0, 1))
	v := g.view(0)
	if len(v.YourWaits) != 1 || v.YourWaits[0].Kind != KindChoosePath || !slices.Equal(v.Choices, []string{"2", "3"}) {
		t.Fatalf("Ann's view: waits %+v choices %v", v.YourWaits, v.Choices)
	}
	if len(g.view(1).YourWaits) != 0 || len(g.view(game.Spectator).Choices) != 0 {
		t.Error("Bob or a spectator is asked to choose")
	}
	// A page answers by the space clicked.
	if err := g.Play(0, Command{Kind: KindChoosePath, Space: "2"}); err != nil {
		t.Fatal(err)
	}
	v = g.view(1)
	if v.Prompt == nil || v.Prompt.Text != "Drink!" || !slices.Equal(v.Prompt.Pending, []int{0}) || !v.Prompt.Everyone {
		t.Fatalf("prompt view %+v", v.Prompt)
	}
	// While the prompt is open its event is PROCESSING_ACTION and the next
	// event of the space waits, TRIGGERED.
	states := map[int]string{}
	for _, e := range v.Events {
		states[e.Index] = e.State
	}
	if states[0] != "PROCESSING_ACTION" || states[1] != "TRIGGERED" {
		t.Errorf("event states %v", v.Events)
	}
	ackAll(t, g)
	var texts []string
	for _, e := range g.Log(game.Spectator, 0) {
		texts = append(texts, fmt.Sprintf("%d %s|%s|%s", e.Depth, e.At, e.Text, e.Detail))
	}
	log := strings.Join(texts, "\n")
	for _, want := range []string{"0 1|Ann rolls 1|", "0 ||Waiting for Ann: Which way?", "0 |Ann takes the way to S2|Ann takes the way to S2 (2)", "0 2|Ann enters S2|",
		"1 2||↳ S2 (2) · ON_LAND → PROMPT_ALL_PLAYERS \"Drink!\"", "1 2|S2: Drink!|", "1 2|Ann's drinks: 1|", "0 1|Turn 2: Bob's turn|"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}
