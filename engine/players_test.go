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

// TestReplay: commands are applied in order; the first refused stops the
// replay and is named.
func TestReplay(t *testing.T) {
	var done []int
	apply := func(c int) error {
		if c < 0 {
			return Rejectf("no")
		}
		done = append(done, c)
		return nil
	}
	err := Replay([]int{1, 2, -3, 4}, apply)
	if err == nil || err.Error() != "command 2 (-3): rejected: no" || !IsRejected(err) || len(done) != 2 {
		t.Errorf("Replay = %v after %v", err, done)
	}
}
