package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// playOptions are the flags of `tabula play`.
type playOptions struct {
	Players   []string
	Seed      uint64
	Bots      string // "all", or comma-separated player names
	Rolls     []int
	Choices   []int
	Log       string
	Yes       bool
	MaxRounds int
	Compat    string
}

// isBot reports whether the named player is played by a bot.
func (o playOptions) isBot(name string) bool {
	_, ok := o.botLevel(name)
	return ok
}

// checkBots refuses a --bots that names nobody at the table, or a level
// of bot there is not, saying whom (or which levels) it could mean.
func (o playOptions) checkBots(players []string) error {
	for _, b := range strings.Split(o.Bots, ",") {
		who, level, hasLevel := strings.Cut(strings.TrimSpace(b), "=")
		who = strings.TrimSpace(who)
		if who == "" && !hasLevel {
			continue
		}
		if who != "all" && !slices.Contains(players, who) {
			return fmt.Errorf("--bots: nobody at the table is called %q%s; the players are %s (or say all)",
				who, diag.DidYouMean(who, append(slices.Clone(players), "all")), strings.Join(players, ", "))
		}
		if hasLevel {
			if _, err := bot.New(strings.TrimSpace(level), bot.Options{}); err != nil {
				return fmt.Errorf("--bots: %v", err)
			}
		}
	}
	return nil
}

// botLevel returns the level of the named player's bot ("" for the
// game's own bot), if a bot plays them: --bots names players, each
// optionally with a level (Bob=mcts); "all" or "all=LEVEL" names everyone.
func (o playOptions) botLevel(name string) (string, bool) {
	for _, b := range strings.Split(o.Bots, ",") {
		who, level, _ := strings.Cut(strings.TrimSpace(b), "=")
		if who == "all" || (who == name && name != "") {
			return level, true
		}
	}
	return "", false
}

func newPlay(ps game.Packs) *cobra.Command {
	var o playOptions
	var players, rolls, choices string
	c := &cobra.Command{
		Use:   "play FILE",
		Short: "Play a game in the terminal, or watch bots play it",
		Long: `Play runs a game of any pack in the terminal. Each human player is shown what
they see and the commands they may play, numbered: type a number, a command in
the game's own words ("attack goblin", "deploy Odin 2"), or the command's JSON.
Players named in --bots (or all, with --bots all) are played by bots.

--rolls scripts dice, in order, before random ones (from --seed); --choices
scripts choices: whenever a seat has several commands to choose from, the next
number picks one (0-based). --yes plays at once a human's command when it is
the only one (a roll, acknowledging a message). --log writes the match's log
as JSON lines. --compat original plays a party board as the original game
did, quirks included (see docs/boards.md).`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("play: give one game file\n%s", c.UsageString())
			}
			var err error
			for _, p := range strings.Split(players, ",") {
				if p = strings.TrimSpace(p); p != "" {
					o.Players = append(o.Players, p)
				}
			}
			if o.Rolls, err = parseInts(rolls); err != nil {
				return usageError("play: --rolls: %v", err)
			}
			if o.Choices, err = parseInts(choices); err != nil {
				return usageError("play: --choices: %v", err)
			}
			_, def, _, err := load(ps, args[0])
			var de *diagError
			if errors.As(err, &de) {
				de.list.Print(c.ErrOrStderr())
				return failed
			}
			if err != nil {
				return usageError("play: %v", err)
			}
			return play(def, o, c.InOrStdin(), c.OutOrStdout())
		},
	}
	f := c.Flags()
	f.StringVar(&players, "players", "", "comma-separated player names, in seat order")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the match's random numbers")
	f.StringVar(&o.Bots, "bots", "", `players played by bots: "all" or comma-separated names, each with a level if wanted (Bob=mcts; levels: random, greedy, mcts)`)
	f.StringVar(&rolls, "rolls", "", "scripted dice, in order (e.g. 3,1,4)")
	f.StringVar(&choices, "choices", "", "scripted choices, in order (0-based, among the commands a seat may play)")
	f.StringVar(&o.Log, "log", "", "write the match's log as JSON lines to this file")
	f.BoolVar(&o.Yes, "yes", false, "play at once a human's only possible command")
	f.IntVar(&o.MaxRounds, "max-rounds", 0, "stop after this many rounds (0: the game's own limit)")
	f.StringVar(&o.Compat, "compat", "", `play in a compatibility mode of the game ("original": a party board as the original game played it)`)
	return c
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// maxPlayCommands stops a game in the terminal that would not end: games
// have round limits, so only a bug reaches it.
const maxPlayCommands = 200_000

// defaultPlayers names the seats when --players is not given: the game's
// roles, or Player 1, Player 2… for as many as it needs (at least two).
func defaultPlayers(info game.Info) []string {
	if len(info.Roles) > 0 {
		return slices.Clone(info.Roles)
	}
	n := min(max(2, info.MinPlayers), info.MaxPlayers)
	out := make([]string, n)
	for i := range out {
		out[i] = "Player " + strconv.Itoa(i+1)
	}
	return out
}

// play plays one match in the terminal: the one loop for every pack.
func play(def game.Definition, o playOptions, in io.Reader, out io.Writer) error {
	info, err := game.InfoFor(def, o.Compat)
	if err != nil {
		return usageError("play: --compat: %v", err)
	}
	players := o.Players
	if len(players) == 0 {
		players = defaultPlayers(info)
	}
	if err := info.CheckPlayers(len(players)); err != nil {
		return usageError("play: %v: change --players", err)
	}
	if err := o.checkBots(players); err != nil {
		return usageError("play: %v", err)
	}
	setup := game.Setup{Players: players, Seed: o.Seed, MaxRounds: o.MaxRounds, Dice: o.Rolls, Compat: o.Compat}
	m, err := def.Start(setup)
	if err != nil {
		return usageError("play: %v", err)
	}
	var humans []int
	for i, p := range players {
		if !o.isBot(p) {
			humans = append(humans, i)
		}
	}
	// With one person at the terminal, they see what their seat sees;
	// otherwise (hot seat, or bots only) everything a spectator sees.
	viewer := game.Spectator
	if len(humans) == 1 {
		viewer = humans[0]
	}
	fmt.Fprintf(out, "%s", info.Name)
	if info.Size != "" {
		fmt.Fprintf(out, " — %s", info.Size)
	}
	fmt.Fprintf(out, "; %s\n", strings.Join(players, ", "))
	levels := map[string]bot.Bot{}
	for _, l := range bot.Levels {
		if levels[l], err = bot.New(l, bot.Options{}); err != nil {
			return err
		}
	}
	t := &terminal{m: m, out: out, lines: bufio.NewScanner(in), bots: rng.New(o.Seed).Stream("bots"), viewer: viewer, players: players,
		levels: levels, history: bot.History{Def: def, Setup: setup}}
	choices := o.Choices
	commands := 0
	for ; !m.Outcome().Over; commands++ {
		if commands >= maxPlayCommands {
			return fmt.Errorf("the game did not end after %d commands", commands)
		}
		t.showLog()
		waiting := m.Waiting()
		if len(waiting) == 0 {
			return errors.New("the match waits for nobody but is not over")
		}
		seat := waiting[0]
		legal := m.Legal(seat)
		var cmd json.RawMessage
		switch {
		case len(choices) > 0 && len(legal) > 1:
			n := choices[0]
			choices = choices[1:]
			if n < 0 || n >= len(legal) {
				return usageError("play: --choices: %d is not one of the %d choices of %s (0 to %d)", n, len(legal), players[seat], len(legal)-1)
			}
			cmd = legal[n].Data
		case o.isBot(players[seat]):
			var ok bool
			if cmd, ok = t.botCommand(seat, o); !ok {
				return fmt.Errorf("the bot of %s has nothing to play", players[seat])
			}
		case o.Yes && len(legal) == 1:
			cmd = legal[0].Data
		default:
			if cmd, err = t.ask(seat, legal); err != nil {
				if errors.Is(err, errQuit) {
					return nil
				}
				return err
			}
		}
		err := m.Apply(seat, cmd)
		if err == nil {
			t.history.Moves = append(t.history.Moves, bot.Move{Seat: seat, Data: cmd})
		}
		if err != nil {
			if !engine.IsRejected(err) {
				return err
			}
			fmt.Fprintf(out, "%s\n", reasonOf(err))
			if o.isBot(players[seat]) {
				return fmt.Errorf("the bot of %s played a command the game refused: %s: %v", players[seat], cmd, err)
			}
		}
	}
	t.showLog()
	if o.Log != "" {
		if err := writeLog(o.Log, m); err != nil {
			return err
		}
	}
	printOutcome(out, m, players, commands)
	return nil
}

// reasonOf is a refusal in the game's words.
func reasonOf(err error) string {
	var re *engine.RejectError
	if errors.As(err, &re) {
		return re.Reason
	}
	return err.Error()
}

var errQuit = errors.New("quit")

// botCommand asks a seat's bot for its command: the level named in
// --bots, or the game's own bot.
func (t *terminal) botCommand(seat int, o playOptions) (json.RawMessage, bool) {
	level, _ := o.botLevel(t.players[seat])
	if level == "" {
		return game.BotCommand(t.m, seat, t.bots)
	}
	b, ok := t.levels[level]
	if !ok {
		return game.BotCommand(t.m, seat, t.bots)
	}
	return bot.Command(b, t.replayable(), seat, t.bots, 0)
}

// terminal is a match played at the terminal.
type terminal struct {
	m       game.Match
	out     io.Writer
	lines   *bufio.Scanner
	bots    *rng.Stream
	viewer  int
	players []string
	shown   int // log records shown
	drawn   string
	levels  map[string]bot.Bot
	history bot.History
}

// replayable is the match as bots see it: copied with Clone, or by
// replaying the commands played so far.
func (t *terminal) replayable() game.Match { return bot.Replayable(t.m, t.history) }

// showLog prints the log entries not shown yet, indented by their depth
// in a cascade.
func (t *terminal) showLog() {
	for _, e := range t.m.Log(t.viewer, t.shown) {
		if e.Text == "" {
			continue
		}
		fmt.Fprintf(t.out, "%s%s\n", strings.Repeat("  ", e.Depth), e.Text)
	}
	t.shown = t.m.LogLen()
}

// ask asks the person playing a seat for a command.
func (t *terminal) ask(seat int, legal []game.Command) (json.RawMessage, error) {
	if tx, ok := t.m.(game.Texter); ok {
		if board := tx.Text(seat); board != t.drawn {
			fmt.Fprint(t.out, board)
			if !strings.HasSuffix(board, "\n") {
				fmt.Fprintln(t.out)
			}
			t.drawn = board
		}
	}
	const listed = 40
	for {
		fmt.Fprintf(t.out, "%s, your move:\n", t.players[seat])
		for i, c := range legal {
			if i == listed {
				fmt.Fprintf(t.out, "  … and %d more (type the command)\n", len(legal)-listed)
				break
			}
			fmt.Fprintf(t.out, "  %d) %s\n", i+1, c.Text)
		}
		if len(legal) == 1 {
			fmt.Fprint(t.out, "Enter to play it, or type a command: ")
		} else {
			fmt.Fprintf(t.out, "Choose 1-%d, or type a command: ", len(legal))
		}
		if !t.lines.Scan() {
			fmt.Fprintln(t.out)
			if err := t.lines.Err(); err != nil {
				return nil, err
			}
			return nil, errors.New("the input ended before the game did (use --bots all to let bots play)")
		}
		line := strings.TrimSpace(t.lines.Text())
		switch {
		case line == "" && len(legal) == 1:
			return legal[0].Data, nil
		case line == "q" || line == "quit":
			return nil, errQuit
		case line == "board" || line == "look":
			t.drawn = ""
			if tx, ok := t.m.(game.Texter); ok {
				fmt.Fprint(t.out, tx.Text(seat))
			}
			continue
		case strings.HasPrefix(line, "{"):
			return json.RawMessage(line), nil
		}
		if n, err := strconv.Atoi(line); err == nil {
			if n >= 1 && n <= len(legal) {
				return legal[n-1].Data, nil
			}
			fmt.Fprintf(t.out, "Type a number from 1 to %d.\n", len(legal))
			continue
		}
		if p, ok := t.m.(game.Parser); ok {
			cmd, err := p.ParseCommand(seat, line)
			if err == nil {
				return cmd, nil
			}
			fmt.Fprintln(t.out, err)
			continue
		}
		fmt.Fprintln(t.out, "Type the number of a command.")
	}
}

// writeLog writes the match's log as JSON lines: the engine's records if
// the pack writes them, else the readable log.
func writeLog(path string, m game.Match) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if r, ok := m.(game.Recorder); ok {
		err = r.WriteLog(f, 0)
	} else {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		for _, e := range m.Log(game.Spectator, 0) {
			if err = enc.Encode(e); err != nil {
				break
			}
		}
		if err == nil {
			_, err = f.Write(buf.Bytes())
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the log %s: %v", path, err)
	}
	return nil
}

// printOutcome prints how the match ended.
func printOutcome(out io.Writer, m game.Match, players []string, commands int) {
	o := m.Outcome()
	fmt.Fprintln(out)
	var names []string
	for _, w := range o.Winners {
		names = append(names, players[w])
	}
	reason := o.Reason
	if reason == "" {
		reason = "the game is over"
	}
	fmt.Fprintf(out, "Result: %s.", strings.TrimSuffix(reason, "."))
	switch {
	case len(names) == 0:
		fmt.Fprintln(out, " No winner.")
	case len(names) == 1 && strings.Contains(reason, names[0]):
		fmt.Fprintln(out) // the reason names the winner
	default:
		fmt.Fprintf(out, " Winner: %s.\n", strings.Join(names, ", "))
	}
	printStandings(out, game.StandingsOf(m, len(players)), players)
	fmt.Fprintf(out, "Rounds: %d, commands: %d, state hash: %s\n", o.Rounds, commands, m.Hash())
}

// printStandings prints the ranking of the seats with the figures the game
// counts, in columns, as the page's end screen shows it.
func printStandings(out io.Writer, st game.Standings, players []string) {
	name := func(seat int) string {
		if seat >= 0 && seat < len(players) {
			return players[seat]
		}
		return fmt.Sprintf("seat %d", seat+1)
	}
	// A note that only repeats the player's name (a skirmish's side,
	// played under its own name) says nothing.
	notes := slices.ContainsFunc(st.Seats, func(s game.Standing) bool { return s.Note != "" && s.Note != name(s.Seat) })
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "  \tplayer")
	for _, f := range st.Figures {
		fmt.Fprintf(tw, "\t%s", f)
	}
	fmt.Fprintln(tw)
	for _, s := range st.Seats {
		fmt.Fprintf(tw, "  %s\t%s", game.Ordinal(s.Place), name(s.Seat))
		for _, v := range s.Values {
			fmt.Fprintf(tw, "\t%s", v)
		}
		if notes && s.Note != name(s.Seat) {
			fmt.Fprintf(tw, "\t%s", s.Note)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		io.WriteString(out, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
}
