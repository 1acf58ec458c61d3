package server

import (
	"encoding/json"
	"testing"
	"time"
)

// The state that asks a person for a decision carries the time they have
// for it, also when the question comes after someone else's command: a
// skirmish side asked for an opportunity attack is told its 20 seconds
// with the question, and a side whose time is over is told no deadline.
func TestAQuestionCarriesItsDeadline(t *testing.T) {
	ts := newPageServer(t, Options{})
	tb := ts.newTable("walk-away", 2, []string{"Ann", "Bob"}, false, true, nil)
	ann := ts.dial(tb.ID, q("token", tb.tokens[0]))
	bob := ts.dial(tb.ID, q("token", tb.tokens[1]))
	ann.waitFor("the fighter's turn", func(s stateIn) bool { return len(s.Legal) > 0 })
	bob.waitFor("the first state", func(s stateIn) bool { return s.View != nil })
	var away json.RawMessage
	for _, c := range ann.last.Legal {
		var d struct {
			Do string `json:"do"`
			To []int  `json:"to"`
		}
		json.Unmarshal(c.Data, &d)
		if d.Do == "move" && len(d.To) == 2 && d.To[0] == 0 && d.To[1] == 2 {
			away = c.Data
		}
	}
	if away == nil {
		t.Fatal("no move away from the goblin offered")
	}
	before := time.Now()
	if r := ann.command(away); r["type"] != "ack" {
		t.Fatalf("the move was refused: %v", r["reason"])
	}
	bob.waitFor("the reaction", func(s stateIn) bool { return len(s.Legal) == 2 })
	d := time.UnixMilli(bob.last.Deadline)
	if d.Before(before.Add(15*time.Second)) || d.After(time.Now().Add(21*time.Second)) {
		t.Fatalf("the reaction's state has deadline %d (%v from now), not about 20 s", bob.last.Deadline, time.Until(d))
	}
	if r := bob.command(bob.last.Legal[1].Data); r["type"] != "ack" {
		t.Fatalf("letting it go was refused: %v", r["reason"])
	}
	bob.waitFor("the answer's state", func(s stateIn) bool { return len(s.Legal) == 0 })
	if bob.last.Deadline != 0 {
		t.Fatalf("a side no longer asked is shown a deadline: %d", bob.last.Deadline)
	}
}
