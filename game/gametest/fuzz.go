package gametest

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// PlayOut is what a fuzz test does with a game its pack accepts: it plays
// a match of def to the end with the default bots (game.BotCommand), and
// replays the match's commands on a new match, which must give the same
// hashes. A match may also stop with an error the rules name (a runaway
// chain, a condition that fails, a game that stalls), but never with a
// panic (the engine turns a panic in an effect into an error that says
// so), and a bot's command is never rejected. Views and logs of every
// seat encode as JSON. The setup's players must be within the game's
// limits; maxCommands ends a match that is not over by then, which fails
// the test: the setup's round limit must end every match sooner.
func PlayOut(t testing.TB, def game.Definition, setup game.Setup, maxCommands int) {
	t.Helper()
	m, err := def.Start(setup)
	if err != nil {
		checkNamed(t, "starting the match", err)
		return
	}
	bots := rng.New(setup.Seed).Stream("fuzz-bots")
	var played []step
	stopped := error(nil)
	for i := 0; !m.Outcome().Over; i++ {
		if i == maxCommands {
			t.Fatalf("not over after %d commands (round limit %d)", maxCommands, setup.MaxRounds)
		}
		waiting := m.Waiting()
		if len(waiting) == 0 {
			t.Fatalf("command %d: not over, and waiting for nobody", i)
		}
		seat := waiting[0]
		cmd, ok := game.BotCommand(m, seat, bots)
		if !ok {
			t.Fatalf("command %d: the bot has nothing for seat %d, which the match waits for", i, seat)
		}
		if err := m.Apply(seat, cmd); err != nil {
			var rej *engine.RejectError
			if errors.As(err, &rej) {
				t.Fatalf("command %d: seat %d's bot played %s, which the match rejects: %v", i, seat, cmd, err)
			}
			checkNamed(t, "command "+strconv.Itoa(i), err)
			played = append(played, step{seat, cmd, m.Hash()})
			stopped = err
			break
		}
		played = append(played, step{seat, cmd, m.Hash()})
	}
	for seat := game.Spectator; seat < len(setup.Players); seat++ {
		if _, err := json.Marshal(m.View(seat)); err != nil {
			t.Fatalf("seat %d's view: %v", seat, err)
		}
		if _, err := json.Marshal(m.Log(seat, 0)); err != nil {
			t.Fatalf("seat %d's log: %v", seat, err)
		}
	}
	again, err := def.Start(setup)
	if err != nil {
		t.Fatalf("the match started once, not twice: %v", err)
	}
	for i, s := range played {
		err := again.Apply(s.seat, s.data)
		if (err != nil) != (i == len(played)-1 && stopped != nil) {
			t.Fatalf("replaying command %d: %v (the match gave %v)", i, err, stopped)
		}
		if h := again.Hash(); h != s.hash {
			t.Fatalf("replaying command %d gives hash %s, the match gave %s", i, h, s.hash)
		}
	}
}

// checkNamed fails the test if err is a panic turned into an error.
func checkNamed(t testing.TB, what string, err error) {
	t.Helper()
	if strings.Contains(err.Error(), "panic:") {
		t.Fatalf("%s: %v", what, err)
	}
}
