package server

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/usertext"
)

// Names from strangers, checked once at the edge with package usertext.

// MaxGameName is the longest name of a saved game, in characters.
const MaxGameName = 80

// freeBotName is the first of "Bot n", "Bot n+1"… that reads as nobody's
// name at the table.
func freeBotName(n int, seats []store.Seat) string {
	for ; ; n++ {
		name := fmt.Sprintf("Bot %d", n)
		if !slices.ContainsFunc(seats, func(s store.Seat) bool { return s.Name != "" && usertext.LookAlike(s.Name, name) }) {
			return name
		}
	}
}

// gameName checks and normalises the name of a saved game, which the
// lobby shows to everybody: one line, nothing invisible or private-use.
func gameName(name string) (string, error) {
	out, err := usertext.Message(name, MaxGameName)
	var ue *usertext.Error
	if errors.As(err, &ue) {
		return "", fmt.Errorf("a game's name %s", ue.Reason)
	}
	return out, err
}
