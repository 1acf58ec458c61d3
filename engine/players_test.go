package engine

import "testing"

// TestCheckPlayers: every player has a name, and no two the same.
func TestCheckPlayers(t *testing.T) {
	for _, c := range []struct {
		players []string
		want    string
	}{
		{[]string{"Ann", "Bob"}, ""},
		{[]string{"Ann", " "}, "a player needs a name"},
		{[]string{"Ann", "Bob", "Ann"}, `two players are called "Ann"`},
	} {
		got := ""
		if err := CheckPlayers(c.players); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.players, got, c.want)
		}
	}
}
