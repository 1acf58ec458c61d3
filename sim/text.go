package sim

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteText writes the report for a terminal: plain lines, figures in
// aligned columns, histograms drawn with block characters.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("%s\n", r.title())
	p("%s\n", r.setup())
	if r.Interrupted {
		p("interrupted: %d of the %d games asked for were played\n", r.Games, r.Requested)
	}
	p("\n  ended by the rules   %8d  (%d with a winner, %d without)\n", r.Finished, r.Decided, r.Draws)
	p("  hit the round limit  %8d\n", r.RoundLimit.Games)
	p("  failed               %8d\n", r.Failed.Games)
	if s := r.LimitSentence(); s != "" {
		p("\n%s\n", s)
	}
	if r.Failed.Games > 0 {
		p("\n%s\n", r.failedSentence())
		for _, f := range r.Failed.First {
			p("  %s\n", f.Title())
			p("    %s\n", f.Error)
		}
	}

	p("\nWins (%s had a winner; fair share %s; 95%% Wilson interval)\n", plural(r.Decided, "game"), percent(r.FairShare))
	writeWins(bw, "player", r.Seats)
	if len(r.Positions) > 0 {
		p("\nWins by seat (the players changed seats from game to game)\n")
		writeWins(bw, "seat", r.Positions)
	}

	if len(r.Endings) > 0 {
		p("\nHow the finished games ended\n")
		for _, c := range r.Endings {
			p("  %8d  %s\n", c.Count, c.Name)
		}
	}

	p("\nGame length (the %s ended by the rules)\n", plural(r.Finished, "game"))
	if r.Finished == 0 {
		p("  no game ended by the rules\n")
	} else {
		lengths := []struct {
			name string
			d    *Distribution
		}{{"commands", &r.Length.Commands}, {"rounds", &r.Length.Rounds}}
		p("              min   median      p90      max      mean\n")
		for _, l := range lengths {
			p("  %-8s %6d   %6d   %6d   %6d  %8.2f\n", l.name, l.d.Min, l.d.Median, l.d.P90, l.d.Max, l.d.Mean)
		}
		for _, l := range lengths {
			p("\n  %s\n", l.name)
			writeHistogram(bw, l.d.Histogram)
		}
	}

	if len(r.Places) > 0 {
		// Where things happen says it all, and more.
	} else if p("\nPieces (totals, and per game over the %s played to their end)\n", plural(r.Played(), "game")); len(r.Pieces) == 0 {
		p("  none: the game keeps no tally of its pieces\n")
	} else {
		kw, nw := len("kind"), len("piece")
		for _, pc := range r.Pieces {
			kw = max(kw, min(16, utf8.RuneCountInString(pc.Kind)))
			nw = max(nw, min(24, utf8.RuneCountInString(pc.Name)))
		}
		p("  %-*s  %-*s  %7s  %9s %9s  %9s %9s  %9s %9s\n", kw, "kind", nw, "piece", "games",
			"firings", "per game", "damage", "per game", "kills", "per game")
		for _, pc := range r.Pieces {
			p("  %s  %s  %7d  %9d %9.2f  %9d %9.2f  %9d %9.2f\n", pad(pc.Kind, kw), pad(pc.Name, nw), pc.Games,
				pc.Firings, pc.FiringsPerGame, pc.Damage, pc.DamagePerGame, pc.Kills, pc.KillsPerGame)
		}
	}
	r.writePlaces(bw)
	if t := r.Timing; t != nil {
		p("\n%s\n", TimingLine(r.Games, t.Seconds, t.Workers, t.GamesPerSecond))
	}
	return bw.Flush()
}

// TimingLine is a report's last line: "Timing: 4 games in 9.60 s with 1
// worker (0.42 games/s)". Slow games (a bot that searches) keep two
// significant digits of their rate rather than rounding it to 0.
func TimingLine(games int, seconds float64, workers int, perSecond float64) string {
	w := "workers"
	if workers == 1 {
		w = "worker"
	}
	rate := strconv.FormatFloat(perSecond, 'f', 0, 64)
	if perSecond < 10 {
		rate = strconv.FormatFloat(perSecond, 'g', 2, 64)
	}
	return fmt.Sprintf("Timing: %d games in %.2f s with %d %s (%s games/s)", games, seconds, workers, w, rate)
}

// title names the game: "Twenty-one (nim, 21 counters)".
func (r *Report) title() string {
	name := r.Game.Name
	if name == "" {
		name = "A " + r.Game.Pack + " game"
	}
	extra := r.Game.Pack
	if r.Game.Size != "" {
		extra += ", " + r.Game.Size
	}
	return name + " (" + extra + ")"
}

// setup says how the games were played.
func (r *Report) setup() string {
	s := fmt.Sprintf("%d games of %d players (%s), seed %d, ", r.Games, len(r.Players), strings.Join(r.Players, ", "), r.Seed)
	if r.MaxRounds > 0 {
		s += "round limit " + strconv.Itoa(r.MaxRounds)
	} else {
		s += "no round limit"
	}
	if r.Rotate {
		s += ", seats rotated"
	}
	return s
}

// LimitSentence says how many games hit the round limit and why, or ""
// if none did: "12 of 1000 games hit the round limit of 100: the round
// limit was reached."
func (r *Report) LimitSentence() string {
	l := r.RoundLimit
	if l.Games == 0 {
		return ""
	}
	s := fmt.Sprintf("%d of %d games hit the round limit of %d", l.Games, r.Games, l.Limit)
	if len(l.Reasons) == 1 && l.Reasons[0].Name != "" {
		return s + ": " + l.Reasons[0].Name + "."
	}
	var parts []string
	for _, c := range l.Reasons {
		name := c.Name
		if name == "" {
			name = "(no reason given)"
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", name, c.Count))
	}
	return s + ": " + strings.Join(parts, "; ") + "."
}

// failedSentence introduces the failed games shown.
func (r *Report) failedSentence() string {
	s := fmt.Sprintf("%d of %d games failed", r.Failed.Games, r.Games)
	if len(r.Failed.First) < r.Failed.Games {
		return s + fmt.Sprintf("; the first %d:", len(r.Failed.First))
	}
	return s + ":"
}

// Title says which game failed, with what replays it: "game 3 (seed
// 42; Ann, Bob), after 12 commands:".
func (f *Failure) Title() string {
	return fmt.Sprintf("game %d (seed %d; %s), after %s:", f.Game, f.Seed, strings.Join(f.Players, ", "), plural(f.Commands, "command"))
}

func writeWins(w io.Writer, what string, rows []Wins) {
	width := len(what)
	for _, row := range rows {
		width = max(width, min(24, utf8.RuneCountInString(row.Name)))
	}
	fmt.Fprintf(w, "  %s  %8s  %7s  %s\n", pad(what, width), "wins", "rate", "95% interval")
	for _, row := range rows {
		fmt.Fprintf(w, "  %s  %8d  %7s  %s – %s\n", pad(row.Name, width), row.Wins, percent(row.WinRate), percent(row.Low), percent(row.High))
	}
}

// histogramWidth is the longest bar of a text histogram, in characters.
const histogramWidth = 40

func writeHistogram(w io.Writer, bins []Bin) {
	most := 0
	for _, b := range bins {
		most = max(most, b.Games)
	}
	for _, b := range bins {
		n := 0
		if most > 0 {
			n = (b.Games*histogramWidth + most - 1) / most
		}
		fmt.Fprintf(w, "  %11s │%-*s %d\n", b.label(), histogramWidth, strings.Repeat("█", n), b.Games)
	}
}

// label is the bin's values: "12" or "12–15".
func (b Bin) label() string {
	if b.To == b.From {
		return strconv.Itoa(b.From)
	}
	return strconv.Itoa(b.From) + "–" + strconv.Itoa(b.To)
}

func percent(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

// pad cuts s to n characters (ending it with "…") or pads it with spaces
// to n.
func pad(s string, n int) string {
	c := utf8.RuneCountInString(s)
	if c > n {
		r := []rune(s)
		return string(r[:n-1]) + "…"
	}
	return s + strings.Repeat(" ", n-c)
}

// plural says "1 command", "2 commands".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
