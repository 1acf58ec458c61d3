// Package celcost bounds what the CEL conditions of game files cost, for
// the packs whose files hold them (rule books, party boards' CODE
// triggers, skirmish modifiers).
//
// A condition comes from anyone's file and runs inside matches a server
// hosts, so its cost is bounded twice: when the file is loaded, cel-go's
// estimate of its worst case must be within a limit, and when it runs,
// cel-go stops it at that limit (an error that ends the match, never a
// hang). The estimate holds only if it knows how large the values a
// condition sees can be: Sizes tells it the bounds the pack's loader
// enforces (every string of a file has a maximum length, lists and maps a
// maximum size). And it holds only for functions whose cost cel-go models:
// Options refuses the others (a regular expression that is not a literal,
// string formatting and quoting), and bounds the size of literal regular
// expressions.
package celcost

import (
	"runtime"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/checker"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
)

// MaxConditions is the most different conditions (and other expressions)
// a file may hold: compiling one costs about a tenth of a millisecond and
// some ten kilobytes, far more than the bytes that write it.
const MaxConditions = 1000

// MaxRegexSize bounds the program of a literal regular expression (cel-go's
// measure, in instructions): matching costs the text's length times it.
const MaxRegexSize = 500

// Sizes are the largest values a condition can see: strings (every name a
// file or a player gives), lists and maps (of properties, players,
// conditions). It implements checker.CostEstimator.
type Sizes struct {
	String, List, Map uint64
}

// EstimateSize bounds the variables and the fields of variables a
// condition reads (and what it iterates over in them). Values it computes
// (a replace, a split) are sized by cel-go's models of those functions;
// nothing else is assumed, so that a value of unknown size counts as
// unbounded.
func (s Sizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if len(n.Path()) == 0 || n.Type() == nil {
		return nil
	}
	var most uint64
	switch n.Type().Kind() {
	case types.StringKind:
		most = s.String
	case types.ListKind:
		most = s.List
	case types.MapKind:
		most = s.Map
	default:
		return nil
	}
	return &checker.SizeEstimate{Min: 0, Max: most}
}

// EstimateCallCost leaves the cost of calls to cel-go's models.
func (Sizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// Options are the environment options that refuse what the estimate
// cannot bound; a pack adds them to its CEL environment.
func Options() []cel.EnvOption {
	return []cel.EnvOption{cel.ASTValidators(cel.ValidateRegexProgramSizeLimit(MaxRegexSize), unbounded{})}
}

// Program returns the options of a program that stops at the cost limit.
func Program(limit uint64) []cel.ProgramOption {
	return []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.CostLimit(limit)}
}

// unbounded refuses the calls whose cost the estimate cannot bound.
type unbounded struct{}

// Name implements cel.ASTValidator.
func (unbounded) Name() string { return "tabula.celcost.unbounded" }

// Validate implements cel.ASTValidator.
func (unbounded) Validate(_ *cel.Env, _ cel.ValidatorConfig, a *ast.AST, iss *cel.Issues) {
	for _, call := range ast.MatchDescendants(ast.NavigateAST(a), ast.KindMatcher(ast.CallKind)) {
		c := call.AsCall()
		switch c.FunctionName() {
		case "matches":
			pattern := c.Args()[len(c.Args())-1]
			if pattern.Kind() != ast.LiteralKind {
				iss.ReportErrorAtID(pattern.ID(), "matches takes its pattern written out, in quotes: a pattern computed when the condition runs could cost any time")
			}
		case "format", "strings.quote":
			iss.ReportErrorAtID(call.ID(), "%s is not available in conditions: its cost cannot be bounded", c.FunctionName())
		}
	}
}

// CheckCostliest checks, for a pack's tests, conditions meant to be the
// costliest the pack accepts: each is estimated (in env, with sizes) at
// least at least, and its program (as the pack compiles it), run on vars
// (the largest values the pack allows), costs no more than its estimate
// and the limit, and allocates at most a megabyte.
func CheckCostliest(t testing.TB, env *cel.Env, sizes Sizes, limit, least uint64, srcs []string, program func(src string) cel.Program, vars any) {
	t.Helper()
	for _, src := range srcs {
		ast, iss := env.Compile(src)
		if iss != nil && iss.Err() != nil {
			t.Fatalf("%s: %v", src, iss.Err())
		}
		est, err := env.EstimateCost(ast, sizes)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if est.Max < least {
			t.Errorf("%s: estimated at %d, not among the costliest", src, est.Max)
		}
		prg := program(src)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, details, err := prg.Eval(vars)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		cost, bytes := *details.ActualCost(), after.TotalAlloc-before.TotalAlloc
		if cost > limit || cost > est.Max {
			t.Errorf("%s: costs %d, estimated at %d; the limit is %d", src, cost, est.Max, limit)
		}
		if bytes > 1<<20 {
			t.Errorf("%s: allocates %d bytes", src, bytes)
		}
		t.Logf("cost %5d (estimate %5d), %6d bytes: %s", cost, est.Max, bytes, src)
	}
}
