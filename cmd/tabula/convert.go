package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/game"
)

func newConvert(ps game.Packs) *cobra.Command {
	var to, out string
	c := &cobra.Command{
		Use:   "convert FILE --to FORMAT [-o OUT]",
		Short: "Write a game in another of its pack's formats (a party board as v3 or a zipped bundle)",
		Long: `Convert loads a game (a file, a bundle folder or a zip archive) and writes it
in another format of its pack: a party board of any format (v1, v2, v3, a
bundle) as one v3 file (--to v3) or as a zipped bundle (--to bundle). Loading
what it writes gives the same game. The game must be valid; its warnings are
printed. Without -o the result goes to the standard output (a zip archive only
when that is not a terminal).`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("convert: give one game file\n%s", c.UsageString())
			}
			if to == "" {
				return usageError("convert: say which format to write with --to (party boards: v3 or bundle)")
			}
			p, def, _, err := loadWarn(ps, args[0], c)
			if err != nil {
				return err
			}
			conv, ok := p.(game.Converter)
			if !ok {
				return usageError("convert: %s games have no other format to convert to", p.Name())
			}
			data, err := conv.Convert(def, to)
			if err != nil {
				return usageError("convert: %v", err)
			}
			if out == "" {
				if game.IsZip(data) && isTerminal(c.OutOrStdout()) {
					return usageError("convert: a %s is a zip archive: write it to a file with -o OUT.zip", to)
				}
				_, err = c.OutOrStdout().Write(data)
				return err
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				return fmt.Errorf("convert: %w", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&to, "to", "", "the format to write: v3 or bundle (party boards)")
	c.Flags().StringVarP(&out, "output", "o", "", "the file to write (default: the standard output)")
	return c
}

// loadWarn loads a game that must be valid, printing its diagnostics
// (warnings too) on the standard error.
func loadWarn(ps game.Packs, path string, c *cobra.Command) (game.Pack, game.Definition, *game.Source, error) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, nil, nil, usageError("%s: %v", c.Name(), err)
	}
	p, def, list := ps.Load(src, "")
	list.Print(c.ErrOrStderr())
	if list.HasErrors() || def == nil {
		return nil, nil, nil, failed
	}
	if p == nil {
		return nil, nil, nil, errors.New(strings.TrimSpace("no pack reads " + path))
	}
	return p, def, src, nil
}
