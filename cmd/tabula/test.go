package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

func newTest(ps game.Packs) *cobra.Command {
	var o scenario.Options
	c := &cobra.Command{
		Use:   "test PATH...",
		Short: "Run scenario files (files, or folders searched for *.scenario.yaml|yml|json)",
		Long: `Test runs scenario files: scripted games with expectations on the final
state and the ordered trace of trigger firings. Folders are searched for files
ending in .scenario.yaml, .scenario.yml or .scenario.json. A scenario's "game"
names its pack.

--compat original plays the scenarios that name no compatibility mode of
their own ("compat:") as the original game did, quirks included.

Exit status: 0 when every scenario passes, 1 when one fails (with a readable
diff), 2 on a usage error.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("test: give scenario files or folders")
			}
			files, err := scenario.Find(args)
			if err != nil {
				return usageError("test: %v", err)
			}
			out := c.OutOrStdout()
			passed, failedN := 0, 0
			for _, f := range files {
				r := runScenario(ps, f, o)
				fmt.Fprint(out, r.String())
				if r.Passed() {
					passed++
				} else {
					failedN++
				}
			}
			fmt.Fprintf(out, "%d passed, %d failed\n", passed, failedN)
			if failedN > 0 {
				return failed
			}
			return nil
		},
	}
	c.Flags().StringVar(&o.Compat, "compat", "", `play scenarios that name no mode in a compatibility mode ("original": as the original game did)`)
	return c
}

func runScenario(ps game.Packs, path string, o scenario.Options) *scenario.Result {
	fail := func(format string, args ...any) *scenario.Result {
		r := &scenario.Result{File: path, Name: path}
		r.Failf(format, args...)
		return r
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail("%v", err)
	}
	head, err := scenario.ReadHead(data)
	if err != nil {
		return fail("not a scenario file: %v", err)
	}
	name := head.Game
	var runners []string
	for _, p := range ps {
		if _, ok := p.(scenario.Runner); ok {
			runners = append(runners, p.Name())
		}
	}
	runner, ok := ps.Named(name).(scenario.Runner)
	if !ok {
		return fail("the \"game\" field is %q; it must name a pack with scenarios: %s", name, strings.Join(runners, ", "))
	}
	with, ok := runner.(scenario.OptionsRunner)
	switch {
	case !ok && head.Compat != "":
		return fail("compat: %s: %s games have no compatibility modes; leave compat out", head.Compat, name)
	case !ok && o.Compat != "":
		return fail("--compat %s: %s games have no compatibility modes", o.Compat, name)
	case o.Compat == "":
		return runner.RunScenario(path, data)
	}
	return with.RunScenarioWith(path, data, o)
}
