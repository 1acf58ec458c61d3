package server

import (
	"strconv"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/store"
)

// played remembers where in a match's log a bot played for a person, and
// why, so that the players' log says so ("Time ran out: a bot played for
// Ann"). It is made from the reasons stored beside the commands, never
// from the match's state: the notes are the server's, not the game's.
type played struct {
	notes []playedNote
	// last is the reason of each seat's last command, so that a bot that
	// goes on playing for someone who left is told once.
	last map[int]string
}

// playedNote is a bot's command for a person: it starts at log record at.
type playedNote struct {
	at     int
	seat   int
	reason string
}

// add records a command of the seat whose log starts at record at, played
// for the reason given ("" when whoever plays the seat played it).
func (p *played) add(at, seat int, reason string) {
	if p.last == nil {
		p.last = map[int]string{}
	}
	prev := p.last[seat]
	p.last[seat] = reason
	if reason == "" || (reason != store.ReasonTimeout && reason == prev) {
		return
	}
	p.notes = append(p.notes, playedNote{at: at, seat: seat, reason: reason})
}

// notePhrase tells a note in the players' words.
func notePhrase(n playedNote, name string) string {
	switch n.reason {
	case store.ReasonTimeout:
		return "Time ran out: a bot played for " + name
	case store.HandedLeft:
		return name + " left: a bot plays for them"
	case store.HandedOwner:
		return "The match's creator handed " + name + "'s seat to a bot: a bot plays for them"
	}
	return "A bot played for " + name
}

// withNotes puts the notes of log records from to logLen among entries
// (the log from record from), each before the first entry of its command;
// a note has that record's number and the kind "note".
func (p *played) withNotes(entries []game.Entry, from, logLen int, name func(int) string) []game.Entry {
	var out []game.Entry
	i := 0
	for _, n := range p.notes {
		if n.at < from || n.at >= logLen {
			continue
		}
		if out == nil {
			out = make([]game.Entry, 0, len(entries)+1)
		}
		for i < len(entries) && entries[i].Seq < n.at {
			out = append(out, entries[i])
			i++
		}
		out = append(out, game.Entry{Seq: n.at, Kind: "note", Type: "PLAYED_FOR", Seat: n.seat, Text: notePhrase(n, name(n.seat)),
			Detail: "a bot played this command for seat " + strconv.Itoa(n.seat+1) + " (" + n.reason + ")"})
	}
	if out == nil {
		return entries
	}
	return append(out, entries[i:]...)
}
