package party

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Log returns the readable log from record from on. A party game has no
// secrets: every viewer reads the same log. Text tells each entry in the
// players' words; Detail, where it differs, in the engine's (the board
// event that fired, the state or effect by its name in board files). At is
// the space's id: a page moves a token on an ON_ENTER entry and flashes the
// space of a fired event.
func (m *Match) Log(viewer, from int) []game.Entry { return engine.Transcribe(m.e, from, m.entry) }

func (m *Match) entry(seq int, r engine.Record) (game.Entry, bool) {
	e := game.Entry{Seq: seq, Chain: int(r.Chain), Depth: int(r.Depth), Kind: r.Kind.String(), Seat: -1}
	switch r.Kind {
	case engine.RecEvent:
		return m.eventEntry(e, &m.e.Events[r.Event])
	case engine.RecFired:
		f := m.firing(seq, r)
		sp := &m.def.Board.Spaces[f.Space]
		e.Seat, e.At, e.Type, e.Subject = f.Player, sp.ID, f.Trigger, m.def.labels[f.Space]
		e.Detail = m.def.fired[f.Space][f.Event]
		if m.compat != "" {
			e.Text = m.s.Players[f.Player].Name + " " + originalWords(sp, &sp.Events[f.Event].Action)
		}
	case engine.RecAsk:
		// What a player is asked shows in their view; the log tells
		// what they answer.
		e.Seat, e.Subject = int(r.Player), m.s.Players[r.Player].Name
		_, prompt, _ := strings.Cut(r.Text, ": ") // the engine writes "kind: prompt"
		e.Detail = "Waiting for " + e.Subject + ": " + prompt
	case engine.RecAnswer:
		e.Seat, e.Subject = int(r.Player), m.s.Players[r.Player].Name
		if r.Text == KindAck {
			e.Detail = m.acknowledges(int(r.Player))
		} else {
			title, label := m.wayTaken(seq, r.Choice)
			e.Text = e.Subject + " takes the way to " + title
			if label != title {
				e.Detail = e.Subject + " takes the way to " + label
			}
		}
	case engine.RecNote:
		e.Text = r.Text
	case engine.RecError:
		e.Text, e.Detail = "The game stopped on an error", r.Text
	default:
		return e, false
	}
	return e, true
}

// eventEntry tells an event.
func (m *Match) eventEntry(e game.Entry, ev *engine.Event) (game.Entry, bool) {
	s := m.s
	e.Type = eventNames[ev.Type]
	e.Seat = int(ev.Player)
	e.Amount = ev.Amount
	name := ""
	if ev.Player != engine.NoPlayer {
		name = s.Players[ev.Player].Name
		e.Subject = name
	}
	loc := ""
	if ev.Location != engine.NoLocation {
		e.At, loc = m.def.Board.Spaces[ev.Location].ID, m.def.titles[ev.Location]
	}
	return m.eventText(e, ev, name, loc), ev.Type != evTurnEnd
}

// withID tells a walk's entry as board files and scenario files name
// spaces, with their ids ("Bob enters Start (1)"), if it names one: the
// line scenarios written so look for. ok is false for other entries.
func (m *Match) withID(e *game.Entry) (string, bool) {
	switch e.Type {
	case eventNames[evExit], eventNames[evEnter], eventNames[evLand], eventNames[evBlocked], eventNames[evTeleported]:
	default:
		return "", false
	}
	i, ok := m.def.byID[e.At]
	if !ok || e.Kind != engine.RecEvent.String() {
		return "", false
	}
	sp := &m.def.Board.Spaces[i]
	title, label := spaceTitle(sp), spaceLabel(sp)
	at := strings.LastIndex(e.Text, title)
	if title == label || at < 0 {
		return "", false
	}
	return e.Text[:at] + label + e.Text[at+len(title):], true
}

// eventText fills in an event's text, naming its player and its space
// (loc).
func (m *Match) eventText(e game.Entry, ev *engine.Event, name, loc string) game.Entry {
	s := m.s
	switch ev.Type {
	case evGameStart:
		e.Text = fmt.Sprintf("The game starts with %d %s", ev.Amount, plural(ev.Amount, "player"))
		if m.compat != "" {
			e.Text += ", playing as the " + m.compat + " game did"
		}
	case evTurnStart:
		e.Text = "Turn " + strconv.Itoa(ev.Amount) + ": " + name + "'s turn"
	case evTurnSkip:
		e.Text = name + " skips this turn"
		if st, _ := ev.Data.(string); st != "" && st != SkippingTurn {
			e.Text += " (" + stateWords(st) + ")"
		}
	case evRolled:
		e.Text = name + " rolls " + strconv.Itoa(ev.Amount)
	case evExit:
		e.Text = name + " leaves " + loc
		if ev.Data == again {
			e.Text = name + " still counts as leaving " + loc + " (original rules)"
		}
	case evEnter:
		e.Text = name + " enters " + loc
		if ev.Data == again {
			e.Text = name + " still counts as entering " + loc + " (original rules)"
		}
	case evLand:
		e.Text = name + " lands on " + loc
	case evBlocked:
		e.Text = name + " cannot go further from " + loc
	case evPrompted:
		e.Text = m.def.titles[ev.Location] + ": " + dataText(ev.Data)
	case evState:
		st := dataText(ev.Data)
		e.Text = name + " " + stateChange(st)
		e.Detail = name + " is now " + st
	case evDisplaced:
		if ev.Amount < 0 {
			e.Text = fmt.Sprintf("%s goes back %d", name, -ev.Amount)
		} else {
			e.Text = fmt.Sprintf("%s moves %d more", name, ev.Amount)
		}
	case evTeleported:
		e.Text = name + " is sent to " + loc
	case evEffect:
		kind := dataText(ev.Data)
		e.Text = name + " " + effectWords(kind, ev.Amount)
		if m.quirks.EffectsIdle {
			e.Text += ", but effects never act (original rules)"
		}
		e.Detail = fmt.Sprintf("%s: %s for %d turn(s)", name, kind, ev.Amount)
	case evStopped:
		e.Text = name + " stops"
	case evSwapped:
		e.Target = m.e.EntityName(ev.Target)
		e.Text = name + " swaps places with " + e.Target
	case evStat:
		if ch, ok := ev.Data.(*StatChange); ok {
			e.Text = fmt.Sprintf("%s's %s: %s", name, statLabel(ch.Stat), formatNumber(ch.Display))
			if l := statLabel(ch.Stat); l != ch.Stat {
				e.Detail = fmt.Sprintf("%s's %s: %s", name, ch.Stat, formatNumber(ch.Display))
			}
		}
	case evTurnEnd:
	case evGameOver:
		var names []string
		for _, w := range s.Winners {
			names = append(names, s.Players[w].Name)
		}
		reason := dataText(ev.Data)
		if len(names) > 0 {
			e.Text = "Game over: " + strings.Join(names, " and ") + " won"
			e.Detail = "Game over: " + reason + ". Winner: " + strings.Join(names, ", ")
		} else {
			e.Text = "Game over: " + m.reasonWords(reason) + "; no winner"
			if e.Text != "Game over: "+reason+"; no winner" {
				e.Detail = "Game over: " + reason + "; no winner"
			}
		}
	default:
		e.Detail = e.Type
	}
	return e
}

// wayTaken names the space a choice of way at log record seq led to, the
// space the player entered next, as players call it and with its id. The
// choice's number stands in if there is none.
func (m *Match) wayTaken(seq, choice int) (title, label string) {
	recs := m.e.Records()
	for _, r := range recs[seq+1:] {
		if r.Kind != engine.RecEvent {
			continue
		}
		if ev := &m.e.Events[r.Event]; ev.Type == evEnter {
			return m.def.titles[ev.Location], m.def.labels[ev.Location]
		}
	}
	n := "number " + strconv.Itoa(choice+1)
	return n, n
}

// stateWords says a player state in the players' words.
func stateWords(st string) string {
	if st == CompletedGame {
		return "finished"
	}
	return strings.ToLower(strings.ReplaceAll(st, "_", " "))
}

// stateChange says what a player's new state means.
func stateChange(st string) string {
	switch st {
	case CompletedGame:
		return "has finished"
	case Playing:
		return "is playing"
	case SkippingTurn:
		return "is skipping turns"
	}
	return "is " + stateWords(st)
}

// effectWords says what an effect for some turns does to a player.
func effectWords(kind string, turns int) string {
	next, during := "the next turn", "on the next turn"
	if turns != 1 {
		next = fmt.Sprintf("the next %d turns", turns)
		during = "for " + next
	}
	switch kind {
	case SkipTurns:
		return "skips " + next
	case RepeatTurns, DoubleTurn:
		if turns == 1 {
			return "gets another turn"
		}
		return fmt.Sprintf("gets %d more turns", turns)
	case ChangeDirection:
		return "walks backwards " + during
	}
	return "is under " + strings.ToLower(game.Readable(kind)) + " for " + next
}

// statLabel names a stat for players: its name as the board writes it,
// in words ("drinks", "drink count" for drinkCount).
func statLabel(stat string) string {
	if !strings.ContainsFunc(stat, func(r rune) bool { return !unicode.IsLower(r) && r != ' ' }) {
		return stat // already words: drinks
	}
	words := strings.Fields(game.Readable(stat))
	for i, w := range words {
		if strings.ToUpper(w) != w || len(w) < 2 { // keep acronyms: HP
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

// stateText says a player's state in the players' words, as a page shows
// it beside their name.
func stateText(st string) string {
	switch st {
	case Playing:
		return "playing"
	case CompletedGame:
		return "finished"
	case SkippingTurn:
		return "skipping a turn"
	}
	return stateWords(st)
}

// plural returns word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// describeAction says what an action does, briefly, in the board file's
// words.
func describeAction(a *Action) string {
	switch args := a.Args.(type) {
	case PromptArgs:
		msg := args.Message
		if r := []rune(msg); len(r) > 40 {
			msg = string(r[:40]) + "…"
		}
		return fmt.Sprintf("%s %q", a.Type, msg)
	case StateArgs:
		return a.Type + " " + args.State
	case DisplaceArgs:
		return a.Type + " " + strconv.Itoa(args.Steps)
	case EffectArgs:
		return fmt.Sprintf("%s %s(%d)", a.Type, args.Effect.Kind, args.Effect.Turns)
	case TeleportArgs:
		return a.Type + " " + args.SpaceID
	case SetStatArgs:
		return fmt.Sprintf("%s %s=%s", a.Type, args.Stat, formatNumber(args.Value))
	case ChangeStatArgs:
		return fmt.Sprintf("%s %s%+g", a.Type, args.Stat, args.Delta)
	}
	return a.Type
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// originalWords says what a board event that fired does as the original
// game's log says it: "triggered a prompt on Take a Drink: "You take a
// drink! {{CURRENT_PLAYER_NAME}}. Your random word is {{RANDOM_WO…"".
func originalWords(sp *Space, a *Action) string {
	switch args := a.Args.(type) {
	case PromptArgs:
		msg := args.Message
		if r := []rune(msg); len(r) > 59 {
			msg = string(r[:59]) + "…"
		}
		return fmt.Sprintf("triggered a prompt on %s: %q", spaceTitle(sp), msg)
	case DisplaceArgs:
		way, n := "forward", args.Steps
		if n < 0 {
			way, n = "back", -n
		}
		return fmt.Sprintf("triggered a move %s %d %s on %s", way, n, plural(n, "space"), spaceTitle(sp))
	case EffectArgs:
		return "triggered a player effect on " + spaceTitle(sp)
	case StateArgs:
		return "triggered a state change to " + args.State
	case TeleportArgs:
		return "triggered a teleport to " + args.SpaceID
	}
	return fmt.Sprintf("triggered an event (%s) on %s", a.Type, spaceTitle(sp))
}

// dataText is an event's data as text: its string (most events carry
// one, and need no formatting), or how fmt prints it.
func dataText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// acknowledges is the log's detail of a seat's acknowledgement ("Ann
// acknowledges"), made once for each seat.
func (m *Match) acknowledges(seat int) string {
	if len(m.acks) != len(m.s.Players) {
		acks := make([]string, len(m.s.Players))
		for i := range acks {
			acks[i] = m.s.Players[i].Name + " acknowledges"
		}
		m.acks = acks
	}
	return m.acks[seat]
}
