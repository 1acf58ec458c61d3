package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Options tune Check.
type Options struct {
	// Players are the player counts to play (default: the game's minimum
	// and maximum, the maximum capped at 6).
	Players []int
	// Games is how many games to play per player count (default 2).
	Games int
	// MaxCommands stops a game that has not ended (default 5000); the
	// game must have ended by then.
	MaxCommands int
	// MaxRounds is the round limit of the games played (0: the game's).
	MaxRounds int
	// PackBot plays the pack's own bot (game.BotCommand) rather than a
	// random legal command.
	PackBot bool
}

// Load loads a game file of a pack for a test, failing it on errors.
func Load(t testing.TB, p game.Pack, path string) game.Definition {
	t.Helper()
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Detect(src) {
		t.Fatalf("%s: the %s pack does not recognise it", path, p.Name())
	}
	def, list := p.Load(src)
	if def == nil || list.HasErrors() {
		t.Fatalf("%s does not load:\n%s", path, list.String())
	}
	return def
}

// Check plays games of a definition through the game interface and
// checks what every pack promises:
//
//   - the player limits are enforced;
//   - a match waits for seats that have legal commands, and no others;
//   - every legal command is accepted; malformed commands, and commands
//     from seats not waited for, are rejected and change nothing;
//   - views and log entries encode as JSON, and the log's records only
//     grow; a view a match writes itself (game.ViewAppender) is what
//     encoding/json writes of it, and a shared log (game.SharedLog) reads
//     the same for every seat;
//   - the game ends within MaxCommands, with winners among its seats;
//   - the same setup and commands give the same hashes and the same log
//     (determinism), and a replay from the commands alone rebuilds it.
func Check(t *testing.T, def game.Definition, o Options) {
	t.Helper()
	info := def.Info()
	if info.MinPlayers < 1 || info.MaxPlayers < info.MinPlayers {
		t.Fatalf("%s: players %d to %d", info.Name, info.MinPlayers, info.MaxPlayers)
	}
	if info.Roles != nil && len(info.Roles) != info.MaxPlayers {
		t.Errorf("%s: %d roles for at most %d players", info.Name, len(info.Roles), info.MaxPlayers)
	}
	for _, n := range []int{info.MinPlayers - 1, info.MaxPlayers + 1} {
		if n < 0 {
			continue
		}
		if _, err := def.Start(game.Setup{Players: names(n), Seed: 1}); err == nil {
			t.Errorf("%s started with %d players; it is for %d to %d", info.Name, n, info.MinPlayers, info.MaxPlayers)
		}
	}
	counts := o.counts(info, 6)
	games := max(o.Games, 1)
	if o.Games == 0 {
		games = 2
	}
	limit := o.MaxCommands
	if limit == 0 {
		limit = 5000
	}
	for _, n := range counts {
		for g := range games {
			setup := game.Setup{Players: names(n), Seed: uint64(1000*n + g + 1), MaxRounds: o.MaxRounds}
			t.Run(fmt.Sprintf("%dp/seed%d", n, setup.Seed), func(t *testing.T) {
				playChecked(t, def, setup, limit, o.PackBot)
			})
		}
	}
}

// counts are the player counts the options play: Players, or the game's
// minimum and maximum, the maximum capped at most.
func (o Options) counts(info game.Info, most int) []int {
	if o.Players != nil {
		return o.Players
	}
	counts := []int{info.MinPlayers}
	if top := min(info.MaxPlayers, most); top != info.MinPlayers {
		counts = append(counts, top)
	}
	return counts
}

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("P%d", i+1)
	}
	return out
}

// step is one command played, with the hash after it.
type step struct {
	seat int
	data json.RawMessage
	hash string
}

func playChecked(t *testing.T, def game.Definition, setup game.Setup, limit int, packBot bool) {
	m, err := def.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	n := len(setup.Players)
	r := rng.New(setup.Seed).Stream("check")
	var played []step
	logLen := m.LogLen()
	for i := 0; ; i++ {
		out := m.Outcome()
		waiting := m.Waiting()
		if out.Over {
			if len(waiting) > 0 {
				t.Fatalf("over (%s) but waiting for %v", out.Reason, waiting)
			}
			for _, w := range out.Winners {
				if w < 0 || w >= n {
					t.Fatalf("winner %d is not a seat", w)
				}
			}
			break
		}
		if i >= limit {
			t.Fatalf("not over after %d commands", limit)
		}
		if len(waiting) == 0 {
			t.Fatal("not over, and waiting for nobody")
		}
		for seat := range n {
			legal := m.Legal(seat)
			if slices.Contains(waiting, seat) != (len(legal) > 0) {
				t.Fatalf("command %d: seat %d waited for: %v, legal commands: %d", i, seat, slices.Contains(waiting, seat), len(legal))
			}
		}
		checkViews(t, m, n, logLen)
		seat := waiting[r.IntN(len(waiting))]
		legal := m.Legal(seat)
		if i == 0 {
			checkRejections(t, m, seat, legal[0].Data, n)
		}
		cmd := legal[r.IntN(len(legal))].Data
		if packBot {
			var ok bool
			if cmd, ok = game.BotCommand(m, seat, r); !ok {
				t.Fatalf("command %d: the pack's bot has nothing for seat %d, which the match waits for", i, seat)
			}
		}
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatalf("command %d: seat %d's legal command %s: %v", i, seat, cmd, err)
		}
		h := m.Hash()
		if m.Hash() != h {
			t.Fatal("two hashes of one state differ")
		}
		played = append(played, step{seat, cmd, h})
		if l := m.LogLen(); l < logLen {
			t.Fatalf("the log shrank from %d to %d records", logLen, l)
		} else {
			logLen = l
		}
	}
	checkViews(t, m, n, 0)
	CheckStandings(t, m, n)
	// The same setup and commands give the same match.
	again, err := def.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range played {
		if err := again.Apply(s.seat, s.data); err != nil {
			t.Fatalf("replaying command %d: %v", i, err)
		}
		if h := again.Hash(); h != s.hash {
			t.Fatalf("replaying command %d gives hash %s, the game gave %s", i, h, s.hash)
		}
	}
	a, _ := json.Marshal(m.Log(game.Spectator, 0))
	b, _ := json.Marshal(again.Log(game.Spectator, 0))
	if string(a) != string(b) {
		t.Fatal("a replay of the same commands tells a different log")
	}
}

// checkViews encodes every seat's and a spectator's view and log (from
// record from on: a check after every command looks at the new entries
// only).
func checkViews(t *testing.T, m game.Match, n, from int) {
	t.Helper()
	var shared []byte
	for seat := game.Spectator; seat < n; seat++ {
		view, err := json.Marshal(m.View(seat))
		if err != nil {
			t.Fatalf("the view of seat %d does not encode: %v", seat, err)
		}
		if a, ok := m.(game.ViewAppender); ok {
			if got := a.AppendView(nil, seat); !bytes.Equal(got, view) {
				t.Fatalf("AppendView of seat %d writes\n%s\nwhere encoding/json writes\n%s", seat, got, view)
			}
		}
		entries := m.Log(seat, from)
		if game.IsSharedLog(m) {
			log, _ := json.Marshal(entries)
			if shared == nil {
				shared = log
			} else if !bytes.Equal(log, shared) {
				t.Fatalf("the log is shared, but seat %d reads\n%s\nwhere a spectator reads\n%s", seat, log, shared)
			}
		}
		if _, err := json.Marshal(entries); err != nil {
			t.Fatalf("the log of seat %d does not encode: %v", seat, err)
		}
		for i := range entries {
			if entries[i].Seq < from {
				t.Fatalf("the log of seat %d from record %d has record %d", seat, from, entries[i].Seq)
			}
			if i > 0 && entries[i].Seq <= entries[i-1].Seq {
				t.Fatalf("the log of seat %d goes from record %d back to %d", seat, entries[i-1].Seq, entries[i].Seq)
			}
		}
		if from := m.LogLen(); len(m.Log(seat, from)) != 0 {
			t.Fatalf("the log of seat %d has entries after its last record", seat)
		}
	}
}

// checkRejections sends malformed commands, and a good command from the
// wrong seat, and checks that each is rejected and changes nothing.
func checkRejections(t *testing.T, m game.Match, seat int, good json.RawMessage, n int) {
	t.Helper()
	h := m.Hash()
	bad := []string{``, `null`, `"roll"`, `[1]`, `{"nonsense": true}`, `{`, string(good) + ` {}`}
	for _, b := range bad {
		err := m.Apply(seat, json.RawMessage(b))
		if err == nil || !engine.IsRejected(err) {
			t.Fatalf("command %q: %v, want a rejection", b, err)
		}
	}
	waiting := m.Waiting()
	for other := range n {
		if slices.Contains(waiting, other) {
			continue
		}
		if err := m.Apply(other, good); err == nil || !engine.IsRejected(err) {
			t.Fatalf("seat %d, not waited for, played %s: %v, want a rejection", other, good, err)
		}
	}
	for _, s := range []int{-1, n, 1 << 20} {
		if err := m.Apply(s, good); err == nil || !engine.IsRejected(err) {
			t.Fatalf("seat %d, which does not exist, played %s: %v, want a rejection", s, good, err)
		}
	}
	if m.Hash() != h {
		t.Fatal("rejected commands changed the state hash")
	}
}

// CheckStandings checks the ranking of a match that is over: every seat
// once, places from 1 that never go down and that count the seats before
// (1, 1, 3), the winners first, and a value for every figure.
func CheckStandings(t testing.TB, m game.Match, seats int) {
	t.Helper()
	st := game.StandingsOf(m, seats)
	if len(st.Seats) != seats {
		t.Fatalf("standings of %d seats for %d: %+v", len(st.Seats), seats, st)
	}
	seen := make([]bool, seats)
	for i, s := range st.Seats {
		if s.Seat < 0 || s.Seat >= seats || seen[s.Seat] {
			t.Fatalf("standings name seat %d twice or out of range: %+v", s.Seat, st)
		}
		seen[s.Seat] = true
		switch {
		case i == 0 && s.Place != 1:
			t.Errorf("the first of the standings is in place %d", s.Place)
		case i > 0 && s.Place != st.Seats[i-1].Place && s.Place != i+1:
			t.Errorf("place %d after %d seats: %+v", s.Place, i, st)
		case i > 0 && s.Place < st.Seats[i-1].Place:
			t.Errorf("places go down: %+v", st)
		}
		if len(s.Values) != len(st.Figures) {
			t.Errorf("seat %d has %d values for %d figures (%q)", s.Seat, len(s.Values), len(st.Figures), st.Figures)
		}
	}
	for _, w := range m.Outcome().Winners {
		for _, s := range st.Seats {
			if s.Seat == w && s.Place != 1 {
				t.Errorf("winner %d is in place %d: %+v", w, s.Place, st)
			}
		}
	}
}
