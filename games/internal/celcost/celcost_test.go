package celcost

import (
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
)

func TestOptions(t *testing.T) {
	env, err := cel.NewEnv(append(Options(), cel.Variable("s", cel.StringType), ext.Strings())...)
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		`s.matches('^a+$')`:                            "",
		`s.matches(s)`:                                 "matches takes its pattern written out",
		`matches(s, s + 'x')`:                          "matches takes its pattern written out",
		`'%s'.format([s]) == s`:                        "format is not available",
		`strings.quote(s) == s`:                        "strings.quote is not available",
		`s.matches('(ab|cd){300}')`:                    "regex program size",
		`s.replace('a', s).replace('b', s).size() > 0`: "",
	} {
		_, iss := env.Compile(src)
		got := ""
		if iss != nil && iss.Err() != nil {
			got = iss.Err().Error()
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}

// TestSizes: what a condition computes from the values it sees is sized
// from their bounds, so that a long string built twice over is estimated
// as the square of the bound.
func TestSizes(t *testing.T) {
	env, _ := cel.NewEnv(append(Options(), cel.Variable("s", cel.StringType), ext.Strings())...)
	cost := func(src string, s Sizes) uint64 {
		ast, iss := env.Compile(src)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		est, err := env.EstimateCost(ast, s)
		if err != nil {
			t.Fatal(err)
		}
		return est.Max
	}
	src := `s.replace('a', s).replace('b', s).size() > 0`
	small, large := cost(src, Sizes{String: 10}), cost(src, Sizes{String: 100})
	if large < 500*small {
		t.Errorf("%s: estimated at %d for strings of 10 characters and at %d for 100", src, small, large)
	}
}
