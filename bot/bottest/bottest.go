// Package bottest checks what a pack's copies promise the bots: a
// game.Cloner's copy plays on exactly as the match would, and a
// game.Determinizer's copy keeps everything its seat can see while
// drawing the rest again. Packs call it from their tests, over several
// positions of several of their games.
package bottest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Options choose the positions checked.
type Options struct {
	// Seeds are the games played (default 1, 2, 3), each with the game's
	// smallest number of players.
	Seeds []uint64
	// Every is how many commands apart the positions are (default 10).
	Every int
	// Ahead is how many commands a copy plays on beside the match
	// (default 12).
	Ahead int
	// MaxCommands ends a game that has not ended (default 200).
	MaxCommands int
	// Setup changes each game's setup (a round limit); nil leaves it.
	Setup func(*game.Setup)
	// Unseen are the members of a view that a determinization may change
	// besides "hash": those that count the log (which a determinization,
	// made to be played on, need not keep).
	Unseen []string
}

func (o Options) withDefaults() Options {
	if o.Seeds == nil {
		o.Seeds = []uint64{1, 2, 3}
	}
	if o.Every == 0 {
		o.Every = 10
	}
	if o.Ahead == 0 {
		o.Ahead = 12
	}
	if o.MaxCommands == 0 {
		o.MaxCommands = 200
	}
	return o
}

// Position is a position of a game being played.
type Position struct {
	Match game.Match
	// Players is the number of seats; Seed the game's seed; At the
	// number of commands played.
	Players, At int
	Seed        uint64
}

// String names the position in test failures.
func (p Position) String() string { return fmt.Sprintf("seed %d, after %d commands", p.Seed, p.At) }

// Positions plays games of def at random and calls visit at every
// Every-th position of each, until the game ends; visit must not change
// the match. It returns the number of positions visited.
func Positions(t testing.TB, def game.Definition, o Options, visit func(p Position)) int {
	t.Helper()
	o = o.withDefaults()
	n := 0
	for _, seed := range o.Seeds {
		players := seats(def.Info())
		setup := game.Setup{Players: players, Seed: seed}
		if o.Setup != nil {
			o.Setup(&setup)
		}
		m, err := def.Start(setup)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		r := rng.New(seed).Stream("positions")
		for at := 0; at < o.MaxCommands && !m.Outcome().Over; at++ {
			if at%o.Every == 0 {
				visit(Position{Match: m, Players: len(players), At: at, Seed: seed})
				n++
			}
			if err := playRandom(m, r); err != nil {
				t.Fatalf("seed %d, command %d: %v", seed, at+1, err)
			}
		}
	}
	return n
}

// seats names the players of a game's smallest match, of two players at
// least, as a duel has.
func seats(info game.Info) []string {
	players := make([]string, max(2, info.MinPlayers))
	if info.MaxPlayers > 0 && len(players) > info.MaxPlayers {
		players = players[:info.MaxPlayers]
	}
	for i := range players {
		players[i] = fmt.Sprintf("P%d", i+1)
	}
	return players
}

// playRandom plays a random legal command of the first seat waited for.
func playRandom(m game.Match, r *rng.Stream) error {
	w := m.Waiting()
	if len(w) == 0 {
		return fmt.Errorf("not over, and waiting for nobody")
	}
	legal := m.Legal(w[0])
	if len(legal) == 0 {
		return fmt.Errorf("seat %d is waited for and has no legal command", w[0])
	}
	c := legal[r.IntN(len(legal))]
	if err := m.Apply(w[0], c.Data); err != nil {
		return fmt.Errorf("seat %d's legal command %s: %w", w[0], c.Data, err)
	}
	return nil
}

// CheckClone checks a game.Cloner from positions of games of def: a copy
// has the match's hash, view and log; it plays on, with the same commands,
// to the same hashes, views and log as the match; and playing a copy
// another way changes nothing in the match.
func CheckClone(t *testing.T, def game.Definition, o Options) {
	t.Helper()
	o = o.withDefaults()
	n := Positions(t, def, o, func(p Position) {
		t.Helper()
		m, seed, at := p.Match, p.Seed, p.At
		where := def.Info().Name + ", " + p.String()
		cl, ok := m.(game.Cloner)
		if !ok {
			t.Fatalf("%s: the match is not a game.Cloner", where)
		}
		hash := m.Hash()
		// A copy played its own way leaves the match alone.
		other := cl.Clone()
		r := rng.New(seed + uint64(at)).Stream("other")
		for k := 0; k < o.Ahead && !other.Outcome().Over; k++ {
			if err := playRandom(other, r); err != nil {
				t.Fatalf("%s: a copy, %d commands on: %v", where, k+1, err)
			}
		}
		if m.Hash() != hash {
			t.Fatalf("%s: playing a copy changed the match's hash", where)
		}
		// Two copies play the same commands alongside: one stands for the
		// match (which must not change), the other is its copy.
		a, b := cl.Clone(), cl.Clone()
		same(t, where+", a fresh copy", a, m, p.Players)
		sameLog(t, where+", a fresh copy", a, m)
		same(t, where+", a fresh copy", b, m, p.Players)
		ra, rb := rng.New(seed+uint64(at)).Stream("ahead"), rng.New(seed+uint64(at)).Stream("ahead")
		for k := 0; k < o.Ahead && !a.Outcome().Over; k++ {
			if err := playRandom(a, ra); err != nil {
				t.Fatalf("%s: a copy, %d commands on: %v", where, k+1, err)
			}
			if err := playRandom(b, rb); err != nil {
				t.Fatalf("%s: its copy, %d commands on: %v", where, k+1, err)
			}
			if a.Hash() != b.Hash() {
				t.Fatalf("%s, %d commands on: the copy's hash %s, the match's %s", where, k+1, b.Hash(), a.Hash())
			}
		}
		same(t, where+", the copies played on", b, a, p.Players)
		sameLog(t, where+", the copies played on", b, a)
		if m.Hash() != hash {
			t.Fatalf("%s: playing copies changed the match's hash", where)
		}
	})
	if n == 0 {
		t.Fatal("no position was checked")
	}
}

// same fails the test if two matches differ in hash, outcome, what the
// match waits for, or any seat's view or legal commands.
func same(t *testing.T, where string, got, want game.Match, players int) {
	t.Helper()
	if got.Hash() != want.Hash() {
		t.Fatalf("%s: hash %s, want %s", where, got.Hash(), want.Hash())
	}
	if g, w := fmt.Sprint(got.Outcome(), got.Waiting()), fmt.Sprint(want.Outcome(), want.Waiting()); g != w {
		t.Fatalf("%s: outcome and waiting %s, want %s", where, g, w)
	}
	for seat := game.Spectator; seat < players; seat++ {
		if g, w := jsonOf(got.View(seat)), jsonOf(want.View(seat)); g != w {
			t.Fatalf("%s: seat %d's view\n%s\nwant\n%s", where, seat, g, w)
		}
		if g, w := jsonOf(got.Legal(seat)), jsonOf(want.Legal(seat)); g != w {
			t.Fatalf("%s: seat %d's legal commands\n%s\nwant\n%s", where, seat, g, w)
		}
	}
}

// sameLog fails the test if two matches' logs differ.
func sameLog(t *testing.T, where string, got, want game.Match) {
	t.Helper()
	if g, w := jsonOf(got.Log(game.Spectator, 0)), jsonOf(want.Log(game.Spectator, 0)); g != w || got.LogLen() != want.LogLen() {
		t.Fatalf("%s: the logs differ", where)
	}
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// Hidden tells what a seat cannot see of a match, as text: the other
// hands, the order of the decks, the dice to come. CheckDeterminize
// expects determinizations to change it.
type Hidden func(m game.Match, seat int) string

// CheckDeterminize checks a game.Determinizer from positions of games of
// def, for every seat the match waits for: a determinization keeps the
// seat's view (but for its state hash, which the hidden part changes; a
// determinization, made to be played on, need not keep the log) and
// its legal commands, plays on, and the same stream gives the
// same copy; and over all positions, what hidden says the seat cannot see
// changes in some determinizations.
func CheckDeterminize(t *testing.T, def game.Definition, o Options, hidden Hidden) {
	t.Helper()
	o = o.withDefaults()
	changed, tried := 0, 0
	Positions(t, def, o, func(p Position) {
		t.Helper()
		m, seed, at := p.Match, p.Seed, p.At
		d, ok := m.(game.Determinizer)
		if !ok {
			t.Fatalf("the match is not a game.Determinizer")
		}
		hash := m.Hash()
		for _, seat := range m.Waiting() {
			where := fmt.Sprintf("%s, %s, seat %d", def.Info().Name, p, seat)
			view, legal, secret := without(m.View(seat), o.Unseen), jsonOf(m.Legal(seat)), hidden(m, seat)
			for k := range 4 {
				r := rng.New(seed*100 + uint64(at*4+k)).Stream("determinize")
				again := *r
				c := d.Determinize(seat, r)
				if g := without(c.View(seat), o.Unseen); g != view {
					t.Fatalf("%s: a determinization shows the seat\n%s\nwhere the match shows\n%s", where, g, view)
				}
				if g := jsonOf(c.Legal(seat)); g != legal {
					t.Fatalf("%s: a determinization gives the seat the commands\n%s\nwhere the match gives\n%s", where, g, legal)
				}
				if c2 := d.Determinize(seat, &again); c2.Hash() != c.Hash() || hidden(c2, seat) != hidden(c, seat) {
					t.Fatalf("%s: the same stream gave two determinizations", where)
				}
				tried++
				if hidden(c, seat) != secret {
					changed++
				}
				pr := rng.New(uint64(k)).Stream("play")
				for n := 0; n < o.Ahead && !c.Outcome().Over; n++ {
					if err := playRandom(c, pr); err != nil {
						t.Fatalf("%s: a determinization, %d commands on: %v", where, n+1, err)
					}
				}
			}
			if m.Hash() != hash {
				t.Fatalf("%s: determinizing changed the match", where)
			}
		}
	})
	if tried == 0 {
		t.Fatal("no determinization was checked")
	}
	if changed == 0 {
		t.Errorf("none of %d determinizations changed what the seat cannot see", tried)
	}
	t.Logf("%d of %d determinizations changed what the seat cannot see", changed, tried)
}

// without is a view as JSON without its "hash" members, which tell the
// whole state, hidden part included, nor those named.
func without(view any, names []string) string {
	var v any
	if err := json.Unmarshal([]byte(jsonOf(view)), &v); err != nil {
		return "error: " + err.Error()
	}
	return jsonOf(drop(v, append([]string{"hash"}, names...)))
}

func drop(v any, names []string) any {
	switch x := v.(type) {
	case map[string]any:
		for _, n := range names {
			delete(x, n)
		}
		for k, e := range x {
			x[k] = drop(e, names)
		}
	case []any:
		for i, e := range x {
			x[i] = drop(e, names)
		}
	}
	return v
}
