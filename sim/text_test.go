package sim_test

import (
	"testing"

	"github.com/tabulagames/tabula/sim"
)

// The timing line keeps a slow rate readable (a searching bot plays a
// game in seconds) and counts its workers in good English.
func TestTimingLine(t *testing.T) {
	for _, tt := range []struct {
		games     int
		seconds   float64
		workers   int
		perSecond float64
		want      string
	}{
		{4, 9.6, 1, 4 / 9.6, "Timing: 4 games in 9.60 s with 1 worker (0.42 games/s)"},
		{20000, 0.3, 2, 20000 / 0.3, "Timing: 20000 games in 0.30 s with 2 workers (66667 games/s)"},
		{30, 4, 2, 7.5, "Timing: 30 games in 4.00 s with 2 workers (7.5 games/s)"},
		{12, 1, 2, 12, "Timing: 12 games in 1.00 s with 2 workers (12 games/s)"},
	} {
		if got := sim.TimingLine(tt.games, tt.seconds, tt.workers, tt.perSecond); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
