package party

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// The kinds of commands: the roll, and the answers to the decisions a
// party match asks for.
const (
	KindRoll       = "roll"
	KindChoosePath = "choose-path"
	KindAck        = "ack"
)

var commandKinds = []string{KindRoll, KindChoosePath, KindAck}

// Command is a player's command, as JSON and as the typed API (Match.Play)
// takes it:
//
//	{"kind": "roll"}                           roll the dice
//	{"kind": "choose-path", "value": 1}        take the second way at a fork (0 is the first)
//	{"kind": "choose-path", "space": "12"}     take the way to space 12 (a page answers by the space clicked)
//	{"kind": "ack"}                            acknowledge the prompt shown
//
// A roll never carries its result: the dice are the match's (scripted
// rolls are the setup's Dice). A member "player" is accepted when it is
// the seat playing the command, as the commands stored by earlier servers
// carry it; in that stored form a choose-path without a value is the first
// way, since option 0 was written without one, and a match whose first
// command has it plays by the rule of those servers (see Match.Apply).
type Command struct {
	Kind string
	// Value is the way chosen at a fork: an index into its options.
	Value int
	// Space is the way chosen at a fork, as the id of the space it leads
	// to (instead of Value).
	Space string
}

// wireCommand is a command as JSON, with the members that may be absent.
type wireCommand struct {
	Player *int    `json:"player"`
	Kind   string  `json:"kind"`
	Value  *int    `json:"value"`
	Space  *string `json:"space"`
}

// commandForms says what a party command looks like, for rejections.
const commandForms = `a party command is {"kind": "roll"}, {"kind": "choose-path", "value": 0}, {"kind": "choose-path", "space": "SPACE_ID"} or {"kind": "ack"}`

// decodeCommand reads a seat's command from JSON.
func decodeCommand(seat int, data []byte) (Command, error) {
	if c, ok := botCommand(data); ok {
		return c, nil
	}
	c, _, err := readCommand(seat, data)
	return c, err
}

// readCommand reads a seat's command from JSON, and says whether it is in
// the form earlier servers stored (with its "player").
func readCommand(seat int, data []byte) (Command, bool, error) {
	var w wireCommand
	if err := game.DecodeCommand(data, &w); err != nil {
		return Command{}, false, engine.Rejectf("%s: %v", commandForms, err)
	}
	if w.Player != nil && *w.Player != seat {
		return Command{}, false, engine.Rejectf("seat %d cannot play a command of player %d", seat, *w.Player)
	}
	c := Command{Kind: w.Kind}
	switch w.Kind {
	case KindRoll, KindAck:
		if w.Value != nil || w.Space != nil {
			what := "the dice are rolled by the match: a roll is {\"kind\": \"roll\"}, without a value"
			if w.Kind == KindAck {
				what = `an acknowledgement is {"kind": "ack"}, without a value or a space`
			}
			return Command{}, false, engine.Rejectf("%s", what)
		}
	case KindChoosePath:
		switch {
		case w.Value != nil && w.Space != nil:
			return Command{}, false, engine.Rejectf("a choice of way gives its value or its space, not both")
		case w.Value != nil:
			c.Value = *w.Value
			if c.Value < 0 {
				return Command{}, false, engine.Rejectf("the value of a choice of way is its number, 0 for the first, not %d", c.Value)
			}
		case w.Space != nil:
			if *w.Space == "" {
				return Command{}, false, engine.Rejectf("the space of a choice of way is a space's id, not \"\"")
			}
			c.Space = *w.Space
		case w.Player == nil:
			return Command{}, false, engine.Rejectf(`a choice of way needs "value" (the way's number, 0 for the first) or "space" (the id of the space it leads to)`)
		}
	}
	return c, w.Player != nil, nil
}

// botCommand recognises the exact bytes of the commands the pack's bot
// writes (Command.json), which simulations and bots play by the thousand,
// and reads them without decoding the JSON: what decodeCommand would read.
func botCommand(data []byte) (Command, bool) {
	switch string(data) {
	case `{"kind":"roll"}`:
		return Command{Kind: KindRoll}, true
	case `{"kind":"ack"}`:
		return Command{Kind: KindAck}, true
	}
	const prefix = `{"kind":"choose-path","value":`
	n := len(data) - len(prefix) - 1 // the value's digits
	if n < 1 || n > 4 || string(data[:len(prefix)]) != prefix || data[len(data)-1] != '}' {
		return Command{}, false
	}
	digits := data[len(prefix) : len(data)-1]
	if digits[0] == '0' && n > 1 {
		return Command{}, false
	}
	v := 0
	for _, d := range digits {
		if d < '0' || d > '9' {
			return Command{}, false
		}
		v = v*10 + int(d-'0')
	}
	return Command{Kind: KindChoosePath, Value: v}, true
}

// MarshalJSON writes the command as Apply reads it.
func (c Command) MarshalJSON() ([]byte, error) { return c.json(), nil }

// rollJSON and ackJSON are the JSON of the commands a match offers most,
// written once: shared, never changed.
var rollJSON, ackJSON = json.RawMessage(`{"kind":"roll"}`), json.RawMessage(`{"kind":"ack"}`)

// json is the command's JSON: only the members its kind has.
func (c Command) json() json.RawMessage {
	switch c {
	case Command{Kind: KindRoll}:
		return rollJSON
	case Command{Kind: KindAck}:
		return ackJSON
	}
	b := make([]byte, 0, 48)
	b = append(b, `{"kind":`...)
	b = strconv.AppendQuote(b, c.Kind)
	switch {
	case c.Space != "":
		b = append(b, `,"space":`...)
		b = strconv.AppendQuote(b, c.Space)
	case c.Kind == KindChoosePath || c.Value != 0:
		b = append(b, `,"value":`...)
		b = strconv.AppendInt(b, int64(c.Value), 10)
	}
	return append(b, '}')
}

// ParseCommand reads a line typed at the terminal: "" or "roll" rolls,
// a number from 1 to N takes that way at a fork, "" (or "ok")
// acknowledges a prompt.
func (m *Match) ParseCommand(seat int, line string) (json.RawMessage, error) {
	line = strings.TrimSpace(line)
	legal := m.Legal(seat)
	if len(legal) == 0 {
		if m.s.Over {
			return nil, fmt.Errorf("the game is over")
		}
		return nil, fmt.Errorf("%s is not asked anything now: waiting for %s", m.seatName(seat), m.waitingText())
	}
	d, waiting := m.e.WaitingFor(engine.PlayerID(seat))
	switch {
	case !waiting:
		if line == "" || strings.EqualFold(line, KindRoll) {
			return legal[0].Data, nil
		}
		return nil, fmt.Errorf("press Enter (or type roll) to roll the dice")
	case d.Kind == KindAck:
		if line == "" || strings.EqualFold(line, "ok") {
			return legal[0].Data, nil
		}
		return nil, fmt.Errorf("press Enter to continue")
	}
	n, err := strconv.Atoi(line)
	if err != nil || n < 1 || n > len(legal) {
		return nil, fmt.Errorf("type a number from 1 to %d", len(legal))
	}
	return legal[n-1].Data, nil
}

// seatName names a seat, or says there is none.
func (m *Match) seatName(seat int) string {
	if seat < 0 || seat >= len(m.s.Players) {
		return fmt.Sprintf("seat %d", seat)
	}
	return m.s.Players[seat].Name
}
