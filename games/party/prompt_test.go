package party

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// A prompt to everybody is acknowledged by the current player alone: the
// others read it as a notice, in their view and their log, and are asked
// nothing. A board may still ask everybody (everyoneAcknowledges), a match
// may acknowledge every prompt at once for everybody (game.Setup.AutoAck),
// and a match stored by an earlier server (its commands name their seat)
// plays on by the rule it was started under: everybody acknowledges.
func TestPromptAllPlayers(t *testing.T) {
	for _, c := range []struct {
		name     string
		everyone bool
		autoAck  bool
		roll     string
		waits    []int
	}{
		{"the current player acknowledges", false, false, `{"kind": "roll"}`, []int{0}},
		{"the board asks everybody", true, false, `{"kind": "roll"}`, []int{0, 1, 2}},
		{"the match acknowledges for everybody", false, true, `{"kind": "roll"}`, nil},
		{"a match stored by an earlier server", false, false, `{"player": 0, "kind": "roll"}`, []int{0, 1, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			def := compileBoard(t, &Board{File: "test.json", Rules: GameRules{Dice: Dice{Count: 1, Sides: 6}}, Spaces: []Space{
				sp("1", next("2")),
				sp("2", nil, ev(OnLand, PromptAllPlayers, PromptArgs{Message: "Everybody drinks", Everyone: c.everyone}),
					ev(OnLand, SetStat, SetStatArgs{Stat: "after", Value: 1})),
			}})
			m := start(t, def, game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 7, Dice: []int{1}, AutoAck: c.autoAck})
			if err := m.Apply(0, json.RawMessage(c.roll)); err != nil {
				t.Fatal(err)
			}
			var acks []int
			for _, w := range m.Waits() {
				if w.Kind == KindAck {
					acks = append(acks, w.Player)
				}
			}
			if !slices.Equal(acks, c.waits) {
				t.Fatalf("waiting for %v to acknowledge, want %v", acks, c.waits)
			}
			for seat := range 3 {
				asked := slices.Contains(c.waits, seat)
				acks := slices.DeleteFunc(slices.Clone(m.Legal(seat)), func(c game.Command) bool { return string(c.Data) != `{"kind":"ack"}` })
				if (len(acks) == 1) != asked || asked && acks[0].Text != "OK: Everybody drinks" {
					t.Errorf("seat %d may acknowledge %v", seat, acks)
				}
				v := m.View(seat).(*View)
				if len(c.waits) > 0 && (v.Prompt == nil || v.Prompt.Text != "Everybody drinks" || !v.Prompt.Everyone || !slices.Equal(v.Prompt.Pending, c.waits)) {
					t.Errorf("seat %d sees the prompt %+v", seat, v.Prompt)
				}
				if !slices.ContainsFunc(m.Log(seat, 0), func(e game.Entry) bool { return e.Text == "S2: Everybody drinks" }) {
					t.Errorf("seat %d does not read the prompt in the log", seat)
				}
				if p := m.s.Players[seat]; p.Prompts != 1 {
					t.Errorf("%s was addressed %d prompts, want 1", p.Name, p.Prompts)
				}
			}
			if c.name == "the current player acknowledges" {
				if text := m.Text(1); !strings.Contains(text, "S2: Everybody drinks\nWaiting for Ann to read the message.") {
					t.Errorf("Bob's terminal:\n%s", text)
				}
			}
			for i, seat := range c.waits {
				if m.s.Players[0].StatValue("after") != 0 {
					t.Fatalf("the next event ran before %d acknowledgements", len(c.waits)-i)
				}
				if err := m.Apply(seat, json.RawMessage(`{"kind": "ack"}`)); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.Apply(1, json.RawMessage(`{"kind": "ack"}`)); !engine.IsRejected(err) {
				t.Errorf("an acknowledgement nobody asked for: %v", err)
			}
			if m.s.Players[0].StatValue("after") != 1 || m.s.Prompt != nil {
				t.Error("the chain did not go on after the acknowledgements")
			}
		})
	}
}

// everyoneAcknowledges is true or false, in the board schema and in the
// loader, and only PROMPT_ALL_PLAYERS has it.
func TestEveryoneAcknowledgesIsABoolean(t *testing.T) {
	board := func(action string) string {
		return `{"type": "game", "board": {"topology": {"spaces": [{"id": "a", "triggers": [{"when": {"type": "ON_LAND"}, "action": ` + action + `},
 {"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}}}`
	}
	const at = "/board/topology/spaces/0/triggers/0/action/payload/everyoneAcknowledges"
	doc := board(`{"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "Drink!", "everyoneAcknowledges": "yes"}}`)
	if b, list := Parse("b.json", []byte(doc)); b != nil || !hasError(list, at, "must be true or false") {
		t.Errorf("a string: %s", strings.Join(lines(list), "\n"))
	}
	rep := diag.NewReporter("b.json", []byte(doc))
	root, _ := rep.DecodeJSON([]byte(doc))
	if compiledSchemas()["v3"].Check(rep, root); !hasError(rep.List, at, "") {
		t.Errorf("the schema accepts a string: %s", strings.Join(lines(rep.List), "\n"))
	}
	b, list := Parse("b.json", []byte(board(`{"type": "PROMPT_CURRENT_PLAYER", "payload": {"message": "Drink!", "everyoneAcknowledges": true}}`)))
	if b == nil || len(list) != 1 || list[0].Pointer != "/board/topology/spaces/0/triggers/0/action/payload/everyoneAcknowledges" || list[0].Severity != diag.Warning {
		t.Errorf("on PROMPT_CURRENT_PLAYER: %s", strings.Join(lines(list), "\n"))
	}
}
