// Command tabula validates, plays, tests, simulates and serves games whose
// behaviour is data.
//
//	tabula validate FILE...   check game files, all errors at once
//	tabula play FILE          play in the terminal, or let bots play
//	tabula test PATH...       run scenario files
//	tabula simulate FILE      play many bot games and report balance
//	tabula serve              host games for friends in the browser
//	tabula schema NAME        print a published JSON Schema
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
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
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
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

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "tabula",
		Short:         "Validate, play, test, simulate and serve tabletop games whose behaviour is data",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: 2, err: fmt.Errorf("%w\n%s", err, c.UsageString())}
	})
	for _, mk := range commands {
		root.AddCommand(mk())
	}
	return root
}

// commands are the constructors of the subcommands; each file adds its own.
var commands []func() *cobra.Command
