package party

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
)

func stream(seed uint64) *rng.Stream { return rng.New(seed).Stream("placeholders") }

func TestExpandFixedValues(t *testing.T) {
	for _, c := range []struct {
		msg, player string
		want        []Segment
	}{
		{"Hello {{CURRENT_PLAYER_NAME}}!", "Ann", []Segment{{Text: "Hello Ann!"}}},
		{"{{ current_player_name }} drinks", "Bo", []Segment{{Text: "Bo drinks"}}},
		{"{{CURRENT_PLAYER_NAME}}", "", []Segment{{Text: "Unknown Player"}}},
		{"no placeholders", "Ann", []Segment{{Text: "no placeholders"}}},
		{"{{RANDOM_NUMBER(3,3)}} and {{random_number( 5 , 5 )}}", "", []Segment{{Text: "3 and 5"}}},
		// Arguments are expanded first.
		{"{{RANDOM_NUMBER({{RANDOM_NUMBER(2,2)}}, 2)}}", "", []Segment{{Text: "2"}}},
		// Unknown placeholders and wrong arguments are shown as written.
		{"{{NAME}} {{RANDOM_WORD(1)}} {{RANDOM_NUMBER(1)}} {{RANDOM_NUMBER(a,b)}} {{RANDOM_NUMBER(1,2}} {{", "", []Segment{{Text: "{{NAME}} {{RANDOM_WORD(1)}} {{RANDOM_NUMBER(1)}} {{RANDOM_NUMBER(a,b)}} {{RANDOM_NUMBER(1,2}} {{"}}},
		// A player's name is shown as it is, never expanded.
		{"{{CURRENT_PLAYER_NAME}}", "{{RANDOM_WORD}}", []Segment{{Text: "{{RANDOM_WORD}}"}}},
		// The marks used inside expansion cannot be forged.
		{"a\uE000#123456\uE001b\uE002c", "", []Segment{{Text: "a#123456bc"}}},
	} {
		got := ExpandMessage(c.msg, c.player, stream(1))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ExpandMessage(%q, %q) = %+v, want %+v", c.msg, c.player, got, c.want)
		}
	}
}

var hexColor = regexp.MustCompile(`^#[0-9a-f]{6}$`)

func TestExpandRandom(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		segs := ExpandMessage("{{RANDOM_NUMBER(1,6)}}|{{RANDOM_NUMBER(6,1)}}|{{RANDOM_WORD}}|{{RANDOM_SONG}}|{{RANDOM_COLOR}}", "", stream(seed))
		if len(segs) != 1 || segs[0].Color != "" {
			t.Fatalf("segments %+v", segs)
		}
		parts := strings.Split(segs[0].Text, "|")
		for _, p := range parts[:2] {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 6 {
				t.Errorf("seed %d: RANDOM_NUMBER gave %q", seed, p)
			}
		}
		if !slices.Contains(randomWords, parts[2]) || !slices.Contains(randomSongs, strings.Join(parts[3:len(parts)-1], "|")) {
			t.Errorf("seed %d: word %q, song %q", seed, parts[2], parts[3])
		}
		if !hexColor.MatchString(parts[len(parts)-1]) {
			t.Errorf("seed %d: colour %q", seed, parts[len(parts)-1])
		}
	}
}

// TestExpandDrawOrder: every random placeholder draws from the stream
// given, arguments first, left to right, so a seeded match replays the
// same messages.
func TestExpandDrawOrder(t *testing.T) {
	got := PlainText(ExpandMessage("{{RANDOM_NUMBER(1,100)}} {{RANDOM_WORD}} {{RANDOM_COLOR({{RANDOM_SONG}})}}", "", stream(7)))
	s := stream(7)
	n := s.Between(1, 100)
	w := randomWords[s.IntN(len(randomWords))]
	song := randomSongs[s.IntN(len(randomSongs))]
	want := strconv.Itoa(n) + " " + w + " " + song
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	a := ExpandMessage("{{RANDOM_WORD}} {{RANDOM_COLOR(x)}} {{RANDOM_NUMBER(1,1000)}}", "", stream(99))
	b := ExpandMessage("{{RANDOM_WORD}} {{RANDOM_COLOR(x)}} {{RANDOM_NUMBER(1,1000)}}", "", stream(99))
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different messages: %+v, %+v", a, b)
	}
}

func TestExpandColors(t *testing.T) {
	segs := ExpandMessage("Say {{RANDOM_COLOR({{RANDOM_WORD}})}} {{RANDOM_COLOR(I love, this game!)}}!", "", stream(3))
	if len(segs) != 5 || segs[0] != (Segment{Text: "Say "}) || segs[2] != (Segment{Text: " "}) || segs[4] != (Segment{Text: "!"}) {
		t.Fatalf("segments %+v", segs)
	}
	if !hexColor.MatchString(segs[1].Color) || !slices.Contains(randomWords, segs[1].Text) {
		t.Errorf("nested colour word: %+v", segs[1])
	}
	// RANDOM_COLOR's text is its whole argument, commas included.
	if !hexColor.MatchString(segs[3].Color) || segs[3].Text != "I love, this game!" {
		t.Errorf("coloured text: %+v", segs[3])
	}
	// In nested colours the innermost wins.
	segs = ExpandMessage("{{RANDOM_COLOR(a{{RANDOM_COLOR(b)}}c)}}", "", stream(3))
	if len(segs) != 3 || segs[0].Text != "a" || segs[1].Text != "b" || segs[2].Text != "c" ||
		segs[0].Color != segs[2].Color || segs[0].Color == "" || segs[1].Color == "" {
		t.Errorf("nested colours: %+v", segs)
	}
	if got := PlainText(segs); got != "abc" {
		t.Errorf("PlainText = %q", got)
	}
}

func TestExpandDeepNesting(t *testing.T) {
	// Deeper than the nesting limit, the rest is expanded by later passes.
	msg := "x"
	for range 25 {
		msg = "{{RANDOM_COLOR(" + msg + ")}}"
	}
	segs := ExpandMessage(msg, "", stream(1))
	if got := PlainText(segs); got != "x" {
		t.Errorf("25 nested colours: %q", got)
	}
}

func TestExpandCut(t *testing.T) {
	segs := ExpandMessage(strings.Repeat("a", 600), "", stream(1))
	if got := PlainText(segs); got != strings.Repeat("a", 500)+"..." {
		t.Errorf("cut: %d characters", len(got))
	}
	if got := PlainText(ExpandMessage(strings.Repeat("é", 500), "", stream(1))); got != strings.Repeat("é", 500) {
		t.Errorf("500 characters are not cut: %q", got)
	}
	// A coloured segment across the limit is cut, then "..." follows.
	segs = ExpandMessage(strings.Repeat("a", 498)+"{{RANDOM_COLOR(bcd)}}", "", stream(1))
	if len(segs) != 3 || segs[1].Text != "bc" || segs[1].Color == "" || segs[2] != (Segment{Text: "..."}) {
		t.Errorf("cut colour: %+v", segs[1:])
	}
}

func TestDataLists(t *testing.T) {
	for name, list := range map[string][]string{"words": randomWords, "songs": randomSongs} {
		if len(list) < 100 {
			t.Errorf("%s: only %d entries", name, len(list))
		}
		seen := map[string]bool{}
		for _, e := range list {
			if seen[e] || strings.ContainsAny(e, "{}") {
				t.Errorf("%s: duplicate or braces: %q", name, e)
			}
			seen[e] = true
		}
	}
}

func TestCheckMessageDepth(t *testing.T) {
	msg := "x"
	for range 12 {
		msg = "{{RANDOM_COLOR(" + msg + ")}}"
	}
	probs := checkMessage(msg)
	if len(probs) != 1 || !probs[0].Warning || !strings.Contains(probs[0].Message, "deeper than 10") {
		t.Errorf("problems: %+v", probs)
	}
}

func BenchmarkExpandMessage(b *testing.B) {
	s := stream(1)
	msg := "{{CURRENT_PLAYER_NAME}} landed on the {{RANDOM_COLOR(MEGA CHALLENGE)}}! Say '{{RANDOM_WORD}}' {{RANDOM_NUMBER(3, 7)}} times while listening to {{RANDOM_SONG}}!"
	for b.Loop() {
		ExpandMessage(msg, "Ann", s)
	}
}
