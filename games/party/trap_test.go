package party

import (
	"strings"
	"testing"
)

// A board warns about the places where players get stuck: from a space
// they can reach, no way leads to a finish. What may take a player out (a
// teleport, walking against the arrows, a swap) is a way; a finish a CODE
// condition may set off anywhere leaves nothing to warn about.
func TestTraps(t *testing.T) {
	const finish = `{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}`
	space := func(id string, to []string, events ...string) string {
		var conns []string
		for _, t := range to {
			conns = append(conns, `{"targetId": "`+t+`"}`)
		}
		return `{"id": "` + id + `", "name": "` + id + `", "connections": [` + strings.Join(conns, ", ") + `], "events": [` + strings.Join(events, ", ") + `]}`
	}
	board := func(spaces ...string) string {
		return `{"metadata": {"name": "t"}, "spaces": [` + strings.Join(spaces, ",\n") + `]}`
	}
	loop := []string{
		space("Start", []string{"Fork"}),
		space("Fork", []string{"Finish", "Crossroads"}),
		space("Crossroads", []string{"Loop A"}),
		space("Loop A", []string{"Loop B"}),
	}
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"a loop with no way out", board(append(loop, space("Loop B", []string{"Loop A"}), space("Finish", nil, finish))...),
			[]string{"/spaces/2: warning: from Crossroads, no way leads to a finish: Loop A, Loop B"}},
		{"a finish the start cannot reach", board(space("Start", []string{"A"}), space("A", []string{"Start"}), space("Finish", nil, finish)),
			[]string{"/spaces/0: warning: from Start, no way leads to a finish: A"}},
		{"a dead end", board(space("Start", []string{"Finish", "Ditch"}), space("Ditch", nil), space("Finish", nil, finish)),
			[]string{"/spaces/1: warning: from Ditch, no way leads to a finish"}},
		{"a winning space cut off", `{"metadata": {"gameRules": {"victory": {"conditions": [{"type": "REACH_SPACE", "spaceId": "Finish"}]}}}, "spaces": [` +
			space("Start", []string{"Start"}) + `, ` + space("Finish", nil) + `]}`,
			[]string{"/spaces/0: warning: from Start, no way leads to a finish"}},
		{"a teleport out of the loop", board(append(loop, space("Loop B", []string{"Loop A"},
			`{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_SPACE", "payload": {"spaceId": "Fork"}}}`), space("Finish", nil, finish))...), nil},
		{"walking backwards out of the loop", board(append(loop, space("Loop B", []string{"Loop A"},
			`{"trigger": {"type": "ON_LAND"}, "action": {"type": "APPLY_EFFECT", "payload": {"effect": {"type": "ChangeDirectionEffect", "args": ["back", 2]}}}}`), space("Finish", nil, finish))...), nil},
		{"a swap out of the loop", board(append(loop, space("Loop B", []string{"Loop A"},
			`{"trigger": {"type": "ON_LAND"}, "action": {"type": "SWAP_PLACES"}}`), space("Finish", nil, finish))...), nil},
		{"a finish anywhere", board(append(loop, space("Loop B", []string{"Loop A"},
			`{"trigger": {"type": "CODE", "payload": "player.getStat('drinks') > 9"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}`), space("Finish", nil, finish))...), nil},
		{"an inactive way out", board(append(loop, space("Loop B", []string{"Loop A"},
			`{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_SPACE", "payload": {"spaceId": "Fork"}}, "state": "INACTIVE"}`), space("Finish", nil, finish))...),
			[]string{"/spaces/2: warning: from Crossroads, no way leads to a finish: Loop A, Loop B"}},
	} {
		b, list := Parse("b.json", []byte(c.doc))
		if b == nil {
			t.Fatalf("%s: %s", c.name, strings.Join(lines(list), "\n"))
		}
		var got []string
		for _, d := range list {
			if strings.Contains(d.Message, "no way leads") {
				got = append(got, d.Pointer+": warning: "+d.Message)
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}
