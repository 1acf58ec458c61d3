package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/game"
)

func schemaNames(ps game.Packs) []string {
	var names []string
	for _, p := range ps {
		for _, s := range p.Schemas() {
			names = append(names, s.Name)
		}
	}
	slices.Sort(names)
	return names
}

func newSchema(ps game.Packs) *cobra.Command {
	return &cobra.Command{
		Use:   "schema NAME",
		Short: "Print a published JSON Schema: " + strings.Join(schemaNames(ps), ", "),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("schema: give one schema name: %s", strings.Join(schemaNames(ps), ", "))
			}
			for _, p := range ps {
				for _, s := range p.Schemas() {
					if s.Name == args[0] {
						c.OutOrStdout().Write(s.Data)
						return nil
					}
				}
			}
			return usageError("schema: no schema %q; there are: %s", args[0], strings.Join(schemaNames(ps), ", "))
		},
	}
}
