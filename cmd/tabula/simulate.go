package main

import (
	"github.com/spf13/cobra"
	"github.com/tabulagames/tabula/game"
)

func newSimulate(ps game.Packs) *cobra.Command {
	return &cobra.Command{Use: "simulate FILE", Short: "Play many bot games and report how the game plays"}
}
