package gametest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Said is one text players read, and where it was read.
type Said struct {
	// Where says where: "legal", "log", "view /players/0/state",
	// "standings".
	Where string
	Text  string
}

// Words returns every text players read in a match now: each seat's (and
// a spectator's) legal commands, log entries from record from on, the
// strings of their views that players read (game.WordKey), and the
// standings once the match is over.
func Words(m game.Match, seats, from int) []Said {
	var out []Said
	for seat := game.Spectator; seat < seats; seat++ {
		for _, c := range m.Legal(seat) {
			out = append(out, Said{"legal", c.Text})
		}
		for _, e := range m.Log(seat, from) {
			if e.Text != "" {
				out = append(out, Said{"log", e.Text})
			}
		}
		data, err := json.Marshal(m.View(seat))
		if err != nil {
			continue // Check reports it
		}
		var v any
		if json.Unmarshal(data, &v) == nil {
			out = viewWords(out, v, "", false)
		}
	}
	if m.Outcome().Over {
		st := game.StandingsOf(m, seats)
		for _, f := range st.Figures {
			out = append(out, Said{"standings", f})
		}
		for _, s := range st.Seats {
			for _, v := range s.Values {
				out = append(out, Said{"standings", v})
			}
			if s.Note != "" {
				out = append(out, Said{"standings", s.Note})
			}
		}
	}
	return out
}

// viewWords adds the strings of a view that players read: those under a
// key game.WordKey accepts, directly or in a list.
func viewWords(out []Said, v any, at string, words bool) []Said {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = viewWords(out, v[k], at+"/"+k, game.WordKey(k))
		}
	case []any:
		for i, x := range v {
			out = viewWords(out, x, fmt.Sprintf("%s/%d", at, i), words)
		}
	case string:
		if words && v != "" {
			out = append(out, Said{"view " + at, v})
		}
	}
	return out
}

// CheckWords plays games of a definition to their end with the pack's own
// bot and fails on every text players read (Words) that matches one of
// ids: the shapes of the pack's internal ids ("t9", "goblin-1", "(5,5)"),
// which players must never read. Each shape is reported once, with an
// example and where it was read.
func CheckWords(t *testing.T, def game.Definition, o Options, ids ...*regexp.Regexp) {
	t.Helper()
	info := def.Info()
	counts := o.counts(info, 4)
	games := max(o.Games, 1)
	limit := o.MaxCommands
	if limit == 0 {
		limit = 5000
	}
	reported := map[*regexp.Regexp]bool{}
	check := func(said []Said, when string) {
		for _, s := range said {
			for _, re := range ids {
				if !reported[re] && re.MatchString(s.Text) {
					reported[re] = true
					t.Errorf("%s: players read %q (%s, %s): it matches %s, an internal id's shape", info.Name, s.Text, s.Where, when, re)
				}
			}
		}
	}
	seen := 0
	for _, n := range counts {
		for g := range games {
			setup := game.Setup{Players: seatNames(n, info), Seed: uint64(7000*n + g + 1), MaxRounds: o.MaxRounds}
			m, err := def.Start(setup)
			if err != nil {
				t.Fatal(err)
			}
			r := rng.New(setup.Seed).Stream("words")
			from := 0
			for i := 0; !m.Outcome().Over; i++ {
				if i >= limit {
					t.Fatalf("%s: not over after %d commands", info.Name, limit)
				}
				said := Words(m, n, from)
				seen += len(said)
				check(said, fmt.Sprintf("%d players, seed %d, command %d", n, setup.Seed, i))
				from = m.LogLen()
				waiting := m.Waiting()
				if len(waiting) == 0 {
					t.Fatalf("%s: not over, and waiting for nobody", info.Name)
				}
				seat := waiting[r.IntN(len(waiting))]
				var cmd json.RawMessage
				ok := true
				if o.PackBot {
					cmd, ok = game.BotCommand(m, seat, r)
				} else {
					legal := m.Legal(seat)
					cmd = legal[r.IntN(len(legal))].Data
				}
				if !ok {
					t.Fatalf("%s: the bot has nothing for seat %d", info.Name, seat)
				}
				if err := m.Apply(seat, cmd); err != nil {
					t.Fatalf("%s: command %d: %v", info.Name, i, err)
				}
			}
			said := Words(m, n, from)
			seen += len(said)
			check(said, fmt.Sprintf("%d players, seed %d, at the end", n, setup.Seed))
		}
	}
	if seen == 0 {
		t.Errorf("%s: players read nothing", info.Name)
	}
}

// seatNames names the seats as people do: the game's roles, or names.
func seatNames(n int, info game.Info) []string {
	if len(info.Roles) >= n {
		return info.Roles[:n]
	}
	out := make([]string, n)
	for i := range out {
		out[i] = []string{"Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"}[i%8]
		if i >= 8 {
			out[i] += strings.Repeat("'", i/8)
		}
	}
	return out
}
