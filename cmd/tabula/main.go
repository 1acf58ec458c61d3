// Command tabula validates, plays, tests, simulates and serves games whose
// behaviour is data.
//
//	tabula validate FILE...   check game files, all errors at once
//	tabula play FILE          play in the terminal, or let bots play
//	tabula test PATH...       run scenario files
//	tabula simulate FILE      play many bot games and report balance
//	tabula serve              host games for friends in the browser
//	tabula schema NAME        print a published JSON Schema
//	tabula convert FILE       write a game in another format of its pack
//
// Every command reaches the games through one list of packs (packs.go)
// and the game interface.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/game"
)

// exitError carries a process exit status through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

// usageError is a mistake on the command line (exit status 2).
func usageError(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// failed is a run that completed and found problems (exit status 1),
// already reported.
var failed = &exitError{code: 1}

func main() {
	os.Exit(run(packs(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line with the given packs and returns the exit
// status.
func run(ps game.Packs, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(ps)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "tabula:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "tabula:", err)
	return 1
}

func newRoot(ps game.Packs) *cobra.Command {
	root := &cobra.Command{
		Use:           "tabula",
		Short:         "Validate, play, test, simulate and serve tabletop games whose behaviour is data",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: 2, err: fmt.Errorf("%w\n%s", err, c.UsageString())}
	})
	for _, mk := range []func(game.Packs) *cobra.Command{newValidate, newPlay, newTest, newSimulate, newServe, newSchema, newConvert} {
		root.AddCommand(mk(ps))
	}
	return root
}

// load reads the game at path (a file, a folder or a zip archive) with the
// pack that recognises it. Diagnostics come back either way; the
// definition is nil when there are errors.
func load(ps game.Packs, path string) (game.Pack, game.Definition, *game.Source, error) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, nil, nil, err
	}
	p, def, list := ps.Load(src, "")
	if list.HasErrors() || def == nil {
		return p, nil, src, &diagError{list}
	}
	return p, def, src, nil
}
