package lanes

import (
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// drawn counts what a lanes match has drawn: random numbers (shuffles,
// drones marked at random) and cards moved out of decks and hands.
func drawn(m game.Match) uint64 {
	p := m.(*Match)
	n := p.e.RNG.Draws()
	for _, pl := range p.s.Players {
		n += uint64(1000-len(pl.Deck)) + uint64(1000-len(pl.Hand))
	}
	return n
}

// isPlay reports whether a command plays a card: the other player sees it.
func isPlay(_ game.Match, _ int, cmd json.RawMessage) bool {
	var c Command
	json.Unmarshal(cmd, &c)
	return c.Do == "play"
}

// Through whole games: a card played is never taken back; a deployment, a
// move, an attack or a pass is, when it drew no card and no random number
// and the game goes on, and taking it back gives the hash of before it.
func TestUndoOnlyWhatRevealedNothing(t *testing.T) {
	def := bundled(t)
	var all gametest.UndoCounts
	for seed := range uint64(4) {
		c := gametest.CheckUndo(t, def, gametest.UndoOptions{
			Setup: game.Setup{Players: []string{"Ann", "Bob"}, Seed: seed}, MaxCommands: 600, Draws: drawn, Never: isPlay,
		})
		t.Logf("seed %d: %+v", seed, c)
		all.Undoable += c.Undoable
		all.Not += c.Not
	}
	if all.Undoable == 0 || all.Not == 0 {
		t.Errorf("%d commands may be taken back and %d may not; want some of each", all.Undoable, all.Not)
	}
}

// The first to pass may take it back; the second, whose pass ends the
// round and fills the hands again, may not.
func TestUndoTheFirstPass(t *testing.T) {
	m, err := bundled(t).NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	first := int(m.s.Turn)
	if err := m.Play(first, Command{Do: "pass"}); err != nil {
		t.Fatal(err)
	}
	if !game.Undoable(m) {
		t.Error("the first pass of the round may not be taken back")
	}
	// Everyone plays cards until their hand is short, then passes: the
	// round ends, and the short hands are filled.
	decks := 0
	for m.s.Round == 1 {
		decks = len(m.s.Players[0].Deck) + len(m.s.Players[1].Deck)
		seat := m.Waiting()[0]
		cmd := json.RawMessage(`{"do":"pass"}`)
		if len(m.s.Players[seat].Hand) >= m.s.Stats(engine.PlayerID(seat)).HandLimit {
			for _, c := range m.Legal(seat) {
				if isPlay(m, seat, c.Data) {
					cmd = c.Data
					break
				}
			}
		}
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
		if isPlay(m, seat, cmd) && game.Undoable(m) {
			t.Errorf("%s may be taken back", cmd)
		}
	}
	if len(m.s.Players[0].Deck)+len(m.s.Players[1].Deck) == decks {
		t.Fatal("the round ended without dealing a card")
	}
	if game.Undoable(m) {
		t.Error("the pass that ended the round (and dealt cards) may be taken back")
	}
}
