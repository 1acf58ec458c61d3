package sim

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	generic "github.com/tabulagames/tabula/sim"
)

// WriteText writes the summary as a report for the terminal.
func (s *Summary) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	name := s.Board.Name
	if name == "" {
		name = s.Board.File
	}
	p("%s (%s): %d spaces, %d events\n", name, s.Board.File, s.Board.Spaces, s.Board.Events)
	p("%d games of %d players (%s), seed %d, round cap %d\n", s.Games, len(s.Players), strings.Join(s.Players, ", "), s.Seed, s.MaxRounds)
	if s.Interrupted {
		p("interrupted: %d of the %d games asked for were played\n", s.Games, s.Requested)
	}
	p("  finished              %8d\n", s.Finished)
	p("  stopped at round cap  %8d\n", s.Capped)
	if s.Stalled > 0 {
		p("  stalled (turn limit)  %8d\n", s.Stalled)
	}
	if s.Failed > 0 {
		p("  failed                %8d  (first: game %d, seed %d: %s)\n", s.Failed, s.FirstFailure.Game, s.FirstFailure.Seed, s.FirstFailure.Message)
	}

	p("\nGame length (finished games)\n")
	if s.Finished == 0 {
		p("  no game finished\n")
	} else {
		p("              min  median     p90     max     mean\n")
		for _, d := range []struct {
			name string
			d    *Distribution
		}{{"turns", &s.Length.Turns}, {"rounds", &s.Length.Rounds}} {
			p("  %-8s %6d  %6d  %6d  %6d  %7.2f\n", d.name, d.d.Min, d.d.Median, d.d.P90, d.d.Max, d.d.Mean)
		}
		for _, d := range []struct {
			name string
			d    *Distribution
		}{{"rounds", &s.Length.Rounds}, {"turns", &s.Length.Turns}} {
			p("\n  %s\n", d.name)
			writeHistogram(bw, d.d.Histogram)
		}
	}

	p("\nWins by seat (%d games had a winner; fair share %s; 95%% Wilson interval)\n", s.Decided, percent(s.FairShare))
	p("  seat  %-12s %8s  %7s  %s\n", "player", "wins", "rate", "interval")
	for _, st := range s.Seats {
		p("  %4d  %-12s %8d  %7s  %s – %s\n", st.Seat, clip(st.Name, 12), st.Wins, percent(st.WinRate), percent(st.Low), percent(st.High))
	}

	p("\nPlayers (per game; stats at the end of a game: mean, max)\n")
	p("  seat  %-12s %8s", "player", "prompts")
	var stats []string
	if len(s.Seats) > 0 {
		for _, st := range s.Seats[0].Stats {
			stats = append(stats, st.Name)
			p("  %16s", clip(st.Name, 16))
		}
	}
	effects := s.effectNames()
	for _, fx := range effects {
		p("  %15s", fx)
	}
	p("\n")
	for _, st := range s.Seats {
		p("  %4d  %-12s %8.2f", st.Seat, clip(st.Name, 12), st.Prompts)
		for _, v := range st.Stats {
			p("  %16s", fmt.Sprintf("%s, %s", number(v.Mean, 2), number(v.Max, 2)))
		}
		for _, fx := range effects {
			v := 0.0
			for _, e := range st.Effects {
				if e.Name == fx {
					v = e.PerGame
				}
			}
			p("  %15.2f", v)
		}
		p("\n")
	}

	p("\nSpaces (per game)\n")
	p("  %-24s %9s %9s %9s\n", "space", "landings", "entries", "fired")
	for _, sp := range s.Spaces {
		p("  %-24s %9.2f %9.2f %9.2f\n", clip(spaceTitle(sp.ID, sp.Name), 24), sp.LandingsPerGame, sp.EntriesPerGame, sp.FiredPerGame)
	}

	p("\nBoard actions applied\n")
	if len(s.Actions) == 0 {
		p("  none\n")
	}
	for _, a := range s.Actions {
		p("  %-24s %12d\n", a.Name, a.Count)
	}
	if t := s.Timing; t != nil {
		p("\n%s\n", generic.TimingLine(s.Games, t.Seconds, t.Workers, t.GamesPerSecond))
	}
	return bw.Flush()
}

// effectNames are the player effects any seat received, in Effects order.
func (s *Summary) effectNames() []string {
	var out []string
	for _, fx := range Effects {
		for _, st := range s.Seats {
			if len(st.Effects) > 0 && containsEffect(st.Effects, fx) {
				out = append(out, fx)
				break
			}
		}
	}
	return out
}

func containsEffect(rs []Rate, name string) bool {
	for _, r := range rs {
		if r.Name == name {
			return true
		}
	}
	return false
}

func writeHistogram(w io.Writer, bins []Bin) {
	const width = 40
	most := 0
	for _, b := range bins {
		most = max(most, b.Games)
	}
	for _, b := range bins {
		label := strconv.Itoa(b.From)
		if b.To != b.From {
			label += "–" + strconv.Itoa(b.To)
		}
		n := 0
		if most > 0 {
			n = (b.Games*width + most - 1) / most
		}
		fmt.Fprintf(w, "  %9s │%-*s %d\n", label, width, strings.Repeat("█", n), b.Games)
	}
}

func percent(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

func number(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func spaceTitle(id, name string) string {
	if name == "" || name == id {
		return id
	}
	return id + " " + name
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
