package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
)

// diagError is a game that does not load, with every problem found.
type diagError struct{ list diag.List }

func (e *diagError) Error() string { return strings.TrimSpace(e.list.Errors().String()) }

func newValidate(ps game.Packs) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check game files and report every error and warning at once",
		Long: `Validate checks game files (a file, a bundle folder or a zip archive, of any
pack: ` + strings.Join(ps.Names(), ", ") + `) against their JSON Schema and the game's
rules, and reports every problem at once, one per line:

    FILE:LINE:COL: /json/pointer: message

Each file ends with one line that sums it up ("default.json: a party board,
11 spaces, no problems"; "board.json: not valid: 2 errors, 1 warning").

Exit status: 0 when every file is valid (warnings allowed), 1 when a file is
invalid, 2 on a usage error.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("validate: give at least one game file\n%s", c.UsageString())
			}
			var all diag.List
			out := c.OutOrStdout()
			for _, path := range args {
				src, err := game.Open(path, game.Limits{})
				var list diag.List
				if err != nil {
					list = diag.List{{File: path, Severity: diag.Error, Message: err.Error()}}
				} else {
					list = validate(ps, src)
				}
				all = append(all, list...)
				if !asJSON {
					list.Print(out)
					fmt.Fprintln(out, summary(ps, path, src, list))
				}
			}
			if asJSON {
				all.PrintJSON(out)
			}
			if all.HasErrors() {
				return failed
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the diagnostics as a JSON array")
	return c
}

// validate checks a game file: with the pack's own validation of any of
// its files where it has one, else by loading it.
func validate(ps game.Packs, src *game.Source) diag.List {
	if p, err := ps.Detect(src); err == nil {
		if v, ok := p.(game.Validator); ok {
			return v.Validate(src)
		}
	}
	_, _, list := ps.Load(src, "")
	return list
}

// summary is the line that ends a file's validation: what the file is and
// how many problems it has.
func summary(ps game.Packs, path string, src *game.Source, list diag.List) string {
	errs, warns := len(list.Errors()), len(list.Warnings())
	count := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	if errs > 0 {
		s := path + ": not valid: " + count(errs, "error")
		if warns > 0 {
			s += ", " + count(warns, "warning")
		}
		return s
	}
	what := "a game file"
	if src != nil {
		if _, def, _ := ps.Load(src, ""); def != nil {
			info := def.Info()
			what = "a " + info.Pack + " game"
			if info.Pack == "party" {
				what = "a party board"
			}
			if info.Size != "" {
				what += ", " + info.Size
			}
		} else if p, err := ps.Detect(src); err == nil {
			what = "a " + p.Name() + " file"
		}
	}
	if warns > 0 {
		return path + ": " + what + ", valid with " + count(warns, "warning")
	}
	return path + ": " + what + ", no problems"
}
