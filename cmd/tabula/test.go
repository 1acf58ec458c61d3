package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/scenario"
)

func init() { commands = append(commands, newTest) }

func newTest() *cobra.Command {
	return &cobra.Command{
		Use:   "test PATH...",
		Short: "Run scenario files (files, or folders searched for *.scenario.yaml|yml|json)",
		Long: `Test runs scenario files: scripted games with expectations on the final
state and the ordered trace of trigger firings. Folders are searched for files
ending in .scenario.yaml, .scenario.yml or .scenario.json.

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
				r := runScenario(f)
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
}

func runScenario(path string) *scenario.Result {
	data, err := os.ReadFile(path)
	if err != nil {
		r := &scenario.Result{File: path, Name: path}
		r.Failf("%v", err)
		return r
	}
	game, err := scenario.Game(data)
	if err != nil {
		r := &scenario.Result{File: path, Name: path}
		r.Failf("not a scenario file: %v", err)
		return r
	}
	p := packByName(game)
	if p == nil || p.Scenario == nil {
		r := &scenario.Result{File: path, Name: path}
		r.Failf("the \"game\" field is %q; it must name a pack: %s", game, packNames())
		return r
	}
	return p.Scenario(path, data)
}
