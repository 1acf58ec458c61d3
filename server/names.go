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

// seatName checks and normalises the nickname someone joins a table
// with: refused if it cannot be shown (usertext.Name says why) or if it
// reads as the name of someone (or a bot) at the table already.
func seatName(name string, seats []store.Seat) (string, error) {
	name, err := usertext.Name(name)
	if err != nil {
		return "", err
	}
	for _, s := range seats {
		if s.Name != "" && usertext.LookAlike(s.Name, name) {
			return "", fmt.Errorf("%q is taken at this table (or one that reads the same); choose another nickname", name)
		}
	}
	return name, nil
}

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
