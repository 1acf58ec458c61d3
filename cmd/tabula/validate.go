package main

import (
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

Exit status: 0 when every file is valid (warnings allowed), 1 when a file is
invalid, 2 on a usage error.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("validate: give at least one game file\n%s", c.UsageString())
			}
			var all diag.List
			for _, path := range args {
				src, err := game.Open(path, game.Limits{})
				if err != nil {
					all = append(all, diag.Diagnostic{File: path, Severity: diag.Error, Message: err.Error()})
					continue
				}
				all = append(all, validate(ps, src)...)
			}
			if asJSON {
				all.PrintJSON(c.OutOrStdout())
			} else {
				all.Print(c.OutOrStdout())
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
