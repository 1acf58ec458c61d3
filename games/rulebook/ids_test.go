package rulebook

import (
	"fmt"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"regexp"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game/gametest"
)

// The shapes of a rule book's ids: a deck's name beside a command ("Draw a
// card (chance)"), tile ids in letters and digits (a1, ch3, tojail) or
// numbers beside a colour ("3 (yellow)"), and the names of events and
// properties at zero ("stuck 0").
var rulebookIDs = []*regexp.Regexp{
	regexp.MustCompile(`\((chance|cards)\)`),
	regexp.MustCompile(`\b(a|b|c|d|e|f|g|h|ch|st|u|tax)\d\b|\btojail\b`),
	regexp.MustCompile(`\d+ \((red|purple|yellow|blue|orange|green)\)`),
	regexp.MustCompile(`\b[A-Z]+_[A-Z_]+\b`),
	regexp.MustCompile(`\bstuck 0\b`),
}

// TestPlayersReadNoIDs plays whole bot games of the bundled rule books and
// checks that players read tiles, decks and counters in words.
func TestPlayersReadNoIDs(t *testing.T) {
	for _, name := range []string{"candy-land.json", "chutes-and-ladders.json", "monopoly.json"} {
		t.Run(name, func(t *testing.T) {
			gametest.CheckWords(t, load(t, name), gametest.Options{Games: 1, PackBot: true, MaxRounds: 60}, rulebookIDs...)
		})
	}
}

// The end ranks the players: the winner, then those still playing by
// their money (a game with prices counts the tiles owned too), or by how
// far they are on a race's board; who went out comes last.
func TestStandings(t *testing.T) {
	for _, c := range []struct {
		file string
		want string
	}{
		{"monopoly.json", "[money tiles owned on] | 1. 2 [202 11 Pentonville Row]  | 2. 0 [-23 0 Chance] out | 3. 1 [-29 0 Bow Street] out"},
		{"chutes-and-ladders.json", "[on] | 1. 2 [100]  | 2. 1 [84]  | 3. 0 [52] "},
	} {
		t.Run(c.file, func(t *testing.T) {
			m := start(t, load(t, c.file), game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 2})
			if err := m.PlayBots(rng.New(2).Stream("bots"), 100000); err != nil {
				t.Fatal(err)
			}
			st := m.Standings()
			got := fmt.Sprint(st.Figures)
			for _, s := range st.Seats {
				got += fmt.Sprintf(" | %d. %d %v %s", s.Place, s.Seat, s.Values, s.Note)
			}
			if got != c.want {
				t.Errorf("standings\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// Players read a deck by its title ("Draw a Chance card"); the only deck
// of a game without one is "a card", and several decks without titles by
// their names in words.
func TestDeckTitles(t *testing.T) {
	draw := func(file string) string {
		m := start(t, load(t, file), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
		for i := 0; i < 2000 && !m.Outcome().Over; i++ {
			for _, seat := range m.Waiting() {
				for _, c := range m.Legal(seat) {
					if strings.HasPrefix(c.Text, "Draw") {
						return c.Text
					}
				}
			}
			seat := m.Waiting()[0]
			cmd, _ := game.BotCommand(m, seat, rng.New(uint64(i)).Stream("bots"))
			if err := m.Apply(seat, cmd); err != nil {
				t.Fatal(err)
			}
		}
		return ""
	}
	if got := draw("monopoly.json"); got != "Draw a Chance card" {
		t.Errorf("Monopoly-like: %q", got)
	}
	if got := draw("candy-land.json"); got != "Draw a card" {
		t.Errorf("Candy Land: %q", got)
	}
}

// A label for a property the players do not have is an error that names
// the properties they have.
func TestPropLabels(t *testing.T) {
	const file = `{"game": "rulebook", "players": {"propLabels": {"stuk": "turns stuck"}, "start": {"props": {"stuck": 0}}},
 "board": {"tiles": [{"id": "a", "next": ["b"]}, {"id": "b"}]}, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}]}`
	def, list := pack.Parse("labels.json", []byte(file))
	if def != nil || !strings.Contains(lines(list), `/players/propLabels/stuk: players have no property "stuk" to label (did you mean stuck?)`) {
		t.Errorf("problems:\n%s", lines(list))
	}
	def, list = pack.Parse("labels.json", []byte(strings.Replace(file, `"stuk"`, `"stuck"`, 1)))
	if def == nil {
		t.Fatal(lines(list))
	}
	if got := def.propLabel("stuck"); got != "turns stuck" {
		t.Errorf("label %q", got)
	}
}
