package main

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newSchema) }

func schemaNames() []string {
	var names []string
	for _, p := range packs {
		for n := range p.Schemas {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func newSchema() *cobra.Command {
	return &cobra.Command{
		Use:   "schema NAME",
		Short: "Print a published JSON Schema (e.g. board)",
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("schema: give one schema name: %s", strings.Join(schemaNames(), ", "))
			}
			for _, p := range packs {
				if s, ok := p.Schemas[args[0]]; ok {
					c.OutOrStdout().Write(s)
					return nil
				}
			}
			return usageError("schema: no schema %q; there are: %s", args[0], strings.Join(schemaNames(), ", "))
		},
	}
}
