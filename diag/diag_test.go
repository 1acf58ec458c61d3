package diag

import (
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	doc := []byte(`{
  "metadata": {"name": "Board"},
  "spaces": [
    {"id": 1, "name": "Start", "connections": [{"targetId": 2}]},
    {"id": "a/b", "naïve": "x", "events": [ {"trigger": {"type": "ON_LAND"}} ]}
  ]
}`)
	l := NewLocator(doc)
	for _, c := range []struct {
		ptr       string
		line, col int
	}{
		{"", 1, 1},
		{"/metadata", 2, 15},
		{"/metadata/name", 2, 24},
		{"/spaces/0", 4, 5},
		{"/spaces/0/connections/0/targetId", 4, 61},
		{"/spaces/1/events/0/trigger/type", 5, 66},
		{"/spaces/1/missing", 5, 5}, // a missing member: its parent
		{"/spaces/7", 3, 13},
	} {
		line, col := l.Find(c.ptr)
		if line != c.line || col != c.col {
			t.Errorf("Find(%q) = %d:%d, want %d:%d", c.ptr, line, col, c.line, c.col)
		}
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"PROMPT_ALL_PLAYERS", "PROMPT_CURRENT_PLAYER", "SET_PLAYER_STATE", "DISPLACE_PLAYER"}
	for in, want := range map[string]string{
		"PROMT_ALL_PLAYERS":       "PROMPT_ALL_PLAYERS",
		"set_player_stat":         "SET_PLAYER_STATE",
		"PROMPT":                  "PROMPT_ALL_PLAYERS",
		"TELEPORT":                "",
		"DISPLACE_PLAYERS":        "DISPLACE_PLAYER",
		"MY_SET_PLAYER_STATE_NOW": "SET_PLAYER_STATE",
	} {
		if got := Suggest(in, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReporterFormat(t *testing.T) {
	r := NewReporter("board.json", []byte("{\n  \"spaces\": []\n}"))
	r.Errorf("/spaces", "spaces array must contain at least one space")
	r.Warnf("/metadata", "no metadata")
	r.List.Sort()
	var b strings.Builder
	r.List.Print(&b)
	want := "board.json:1:1: /metadata: warning: no metadata\nboard.json:2:13: /spaces: spaces array must contain at least one space\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if r.List.String() != want {
		t.Errorf("String() = %q", r.List.String())
	}
	if got := Pointer("a/b", "~c") + "/" + Escape("d/e"); got != "/a~1b/~0c/d~1e" {
		t.Errorf("pointer %q", got)
	}
}
