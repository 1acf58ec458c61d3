package party

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Quirks are the ways the original party game plays that Tabula fixes by
// default: each is one switch, on to play as the original did. A match
// reads them from its state (s.quirks) wherever the rule they change is
// applied, and nowhere else. Original turns every one on.
//
// Actions and effects the original lacked (FORCE_STOP, SWAP_PLACES, stats,
// repeat and reversal effects) play as later versions of the game play
// them; the quirks still change when the events around them fire.
type Quirks struct {
	// StaysWaiting: players keep the WAITING state they join with all
	// game long; nothing sets them PLAYING when the game starts.
	StaysWaiting bool
	// EffectsIdle: player effects are stored but never act: a skip-turn
	// effect never skips a turn, a repeat never repeats one, a reversal
	// never reverses. The original only looks at effects when a game
	// starts or resumes, never between turns.
	EffectsIdle bool
	// ExitReFires: ON_EXIT fires for the space the movement history says
	// the player left last, each time the events are looked at: after a
	// step, but also right after the next roll (before moving), when a
	// step cannot move at a dead end, after a teleport (the space the
	// player was sent from) and after moving back (the move before the
	// latest one, which was just taken back: not the space left).
	ExitReFires bool
	// EnterReFires: ON_ENTER fires for the space the player stands on
	// each time the events are looked at, if the player has moved this
	// round: so again when a step cannot move at a dead end, and not
	// after moving back before any move of the round.
	EnterReFires bool
	// BacktrackMismatch: moving back counts the moves to go back among
	// those not yet taken back, but then marks as taken back the moves
	// after that position in the whole history: after one move back,
	// moves that were never taken back may be marked, and a later move
	// back lands further back than it should.
	BacktrackMismatch bool
	// MoveBackStalls: a move back by a player who has not moved yet (no
	// movement history) never completes: the original game hangs there.
	// The match ends at that point, with no winner, saying why.
	MoveBackStalls bool
	// EliminatedPlays: an ELIMINATED player still takes turns; only
	// COMPLETED_GAME, SKIPPING_TURN, SPECTATING and DISCONNECTED players
	// are skipped.
	EliminatedPlays bool
	// OneD6: a roll is always one six-sided die, whatever dice the board
	// asks for.
	OneD6 bool
	// AnyPlayerCount: the board's player limits are not enforced; any
	// number of players from 1 to 8 (the original's own limit) may play.
	AnyPlayerCount bool
	// OnlyFinishEnds: the game ends only at the end of a turn after
	// which every player is COMPLETED_GAME. Winning spaces, victory
	// conditions and turn limits are not played, nor does a game in which
	// nobody can play any more end; only the match's round cap stops it.
	OnlyFinishEnds bool
}

// The compatibility modes a match may be started in (game.Setup.Compat).
const (
	// CompatFixed is the default: the rules as their names promise.
	CompatFixed = ""
	// CompatOriginal plays as the original game did, every quirk on.
	CompatOriginal = "original"
)

// Original returns the quirks of the original game: every one on.
func Original() Quirks {
	return Quirks{StaysWaiting: true, EffectsIdle: true, ExitReFires: true, EnterReFires: true,
		BacktrackMismatch: true, MoveBackStalls: true, EliminatedPlays: true, OneD6: true, AnyPlayerCount: true, OnlyFinishEnds: true}
}

// QuirksOf returns the quirks of a compatibility mode: none for the
// default (""), every one for "original".
func QuirksOf(mode string) (Quirks, error) {
	switch mode {
	case CompatFixed:
		return Quirks{}, nil
	case CompatOriginal:
		return Original(), nil
	}
	return Quirks{}, fmt.Errorf("compat %q: the party game plays as %q or, by default, with its fixed rules", mode, CompatOriginal)
}

// CompatInfo is Info for matches played in a compatibility mode: as the
// original, any number of players from 1 to 8.
func (d *Definition) CompatInfo(mode string) (game.Info, error) {
	q, err := QuirksOf(mode)
	if err != nil {
		return game.Info{}, err
	}
	return d.info(q), nil
}

// dice returns the dice a match rolls.
func (d *Definition) dice(q Quirks) Dice {
	if q.OneD6 {
		return Dice{Count: 1, Sides: 6}
	}
	return d.Board.Rules.Dice
}

// active reports whether a player is in the state of a player who plays:
// PLAYING, or WAITING when players stay WAITING.
func (s *State) active(p *Player) bool {
	return p.State == Playing || (s.quirks.StaysWaiting && p.State == Waiting)
}

// skips reports whether a player in a state has their turns skipped.
func (s *State) skips(state string) bool {
	if state == Eliminated && s.quirks.EliminatedPlays {
		return false
	}
	return slices.Contains(skipped, state)
}

// appendBits appends one digit per quirk for the state hash.
func (q Quirks) appendBits(b []byte) []byte {
	for _, on := range []bool{q.StaysWaiting, q.EffectsIdle, q.ExitReFires, q.EnterReFires,
		q.BacktrackMismatch, q.EliminatedPlays, q.OneD6, q.AnyPlayerCount, q.OnlyFinishEnds, q.MoveBackStalls} {
		b = append(b, '0'+byte(engine.Bit(on)))
	}
	return b
}
