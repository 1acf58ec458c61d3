package usertext

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      string
	}{
		{"Ann", "Ann", ""},
		{"  Ann   Lee ", "Ann Lee", ""},
		{"Zoë", "Zoë", ""},
		{"Zoe\u0308", "Zoë", ""},         // composed
		{"ﬁ Ｆｕｌｌ", "fi Full", ""},        // compatibility forms and full widths folded
		{"Z\u200bed", "Zed", ""},         // zero-width space dropped
		{"Bo\u202eb", "Bob", ""},         // bidi override dropped
		{"\u2066Ann\u2069", "Ann", ""},   // isolates dropped
		{"👩\u200d💻 Jo", "👩💻 Jo", ""},     // joiner dropped in names
		{"Eve\uE002", "", "private-use"}, // the log's own markers
		{"Eve\U000F0000", "", "private-use"},
		{"a\u0007b", "", "control"},
		{"", "", "empty"},
		{"\u200b\u200b", "", "empty"},
		{"\u3000 ", "", "empty"},
		{strings.Repeat("a", MaxName+1), "", "at most"},
		{strings.Repeat("a", 5000), "", "at most"},
		{"Ann\u0301\u0301\u0301\u0301\u0301", "", "accents"},
		{"\xff", "", "UTF-8"},
		{"\U000E0001x", "x", ""}, // tag characters are format characters
	} {
		got, err := Name(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Name(%q) = %q, %v; want an error about %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Name(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestMessage(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      string
	}{
		{"hi <b>all</b>", "hi <b>all</b>", ""}, // markup is text: the page never parses it
		{"line\nbreak\r\nand\ttab", "line break and tab", ""},
		{"👩\u200d💻 codes", "👩\u200d💻 codes", ""}, // joiner kept between emoji
		{"\u200d x", "x", ""},
		{"evil\u202etxt.exe", "eviltxt.exe", ""},
		{"bell\u0007", "bell", ""},
		{"\uE000#ff0000\uE001red", "", "private-use"},
		{"   ", "", "empty"},
		{strings.Repeat("x", 141), "", "at most 140"},
		{strings.Repeat("é", 140), strings.Repeat("é", 140), ""},
	} {
		got, err := Message(c.in, 140)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Message(%q) = %q, %v; want an error about %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Message(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestLookAlike(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Ann", "ann", true},
		{"Ann", "Аnn", true}, // Cyrillic A
		{"paypal", "paypaI", true},
		{"Bob", "B0b", true},
		{"Ann", "Bob", false},
		{"Zoë", "Zoe", false},
	} {
		if got := LookAlike(c.a, c.b); got != c.same {
			t.Errorf("LookAlike(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

func FuzzName(f *testing.F) {
	for _, s := range []string{"Ann", "Eve\uE002", "Bo\u202eb", "👩\u200d💻", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Name(s)
		if err != nil {
			return
		}
		again, err := Name(out)
		if err != nil || again != out {
			t.Fatalf("Name(%q) = %q, but Name of that = %q, %v: not stable", s, out, again, err)
		}
		for _, r := range out {
			if r >= 0xE000 && r <= 0xF8FF || r < ' ' {
				t.Fatalf("Name(%q) = %q holds %U", s, out, r)
			}
		}
	})
}
