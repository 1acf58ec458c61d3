package pieces

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// The actions a space's trigger may run in a game of pieces: those of the
// party board that make sense for a piece, acting on the piece that moved.
const (
	// PromptAllPlayers shows a message to everybody.
	PromptAllPlayers = "PROMPT_ALL_PLAYERS"
	// PromptCurrentPlayer shows a message to the player whose piece moved.
	PromptCurrentPlayer = "PROMPT_CURRENT_PLAYER"
	// DisplacePlayer moves the piece that moved some spaces on (or back,
	// for negative steps).
	DisplacePlayer = "DISPLACE_PLAYER"
	// SetPlayerSpace puts the piece that moved on another space.
	SetPlayerSpace = "SET_PLAYER_SPACE"
	// ForceStop ends the piece's move on the space.
	ForceStop = "FORCE_STOP"
)

// ActionTypes are the actions a game of pieces supports.
var ActionTypes = []string{PromptAllPlayers, PromptCurrentPlayer, DisplacePlayer, SetPlayerSpace, ForceStop}

// refused are the party board's actions that act on a player's one token
// (or on stats, states and effects a game of pieces does not have), with
// why they are refused.
var refused = map[string]string{
	"SET_PLAYER_STATE": "a player's state belongs to a party board's one token",
	"APPLY_EFFECT":     "effects such as skipping turns belong to a party board's players",
	"SWAP_PLACES":      "swapping places needs a player's one token, and a player here has several pieces",
	"SET_STAT":         "a game of pieces keeps no stats",
	"CHANGE_STAT":      "a game of pieces keeps no stats",
	"MODIFY_STAT":      "a game of pieces keeps no stats",
	"CUSTOM":           "CUSTOM actions only write to the log and never finish",
	"PROMPT":           "write PROMPT_CURRENT_PLAYER",
}

// Action is what a space's trigger does.
type Action struct {
	Type string
	// Message is a prompt's message, with placeholders.
	Message string
	// Steps is how far DISPLACE_PLAYER moves the piece.
	Steps int
	// Space is where SET_PLAYER_SPACE puts the piece.
	Space ref
}

// Placeholders are the placeholders a prompt's message may hold.
var Placeholders = []string{"CURRENT_PLAYER_NAME", "PIECE"}

var placeholderRE = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

func readAction(pt *part, m map[string]any, ptr string) (Action, bool) {
	pt.checkKeys(m, ptr, "an action", []string{"type", "payload"})
	tptr := ptr + "/type"
	written, ok := pt.str(m, ptr, "type")
	if !ok {
		if m["type"] == nil {
			pt.errorf(tptr, "an action needs a type: %s", strings.Join(ActionTypes, ", "))
		}
		return Action{}, false
	}
	name := normalizeName(written)
	if why, ok := refused[name]; ok {
		pt.errorf(tptr, "a game of pieces cannot run %s (%s); its actions are %s", written, why, strings.Join(ActionTypes, ", "))
		return Action{}, false
	}
	if !slices.Contains(ActionTypes, name) {
		pt.errorf(tptr, "unknown action %q%s; the actions of a game of pieces are %s", written, pt.rep.DidYouMean(name, ActionTypes), strings.Join(ActionTypes, ", "))
		return Action{}, false
	}
	a := Action{Type: name}
	pptr := ptr + "/payload"
	pl, _ := pt.obj(m, ptr, "payload")
	switch name {
	case PromptAllPlayers, PromptCurrentPlayer:
		pt.checkKeys(pl, pptr, "the payload of "+name, []string{"message"})
		msg, ok := pt.str(pl, pptr, "message")
		if !ok || strings.TrimSpace(msg) == "" {
			if ok || pl["message"] == nil {
				pt.errorf(pptr+"/message", "%s needs a payload with a non-empty \"message\"", name)
			}
			return a, false
		}
		good := true
		for _, loc := range placeholderRE.FindAllStringSubmatchIndex(msg, -1) {
			ph := strings.ToUpper(msg[loc[2]:loc[3]])
			if !slices.Contains(Placeholders, ph) {
				pt.rep.AtString(diag.Error, pptr+"/message", len([]rune(msg[:loc[0]])),
					"unknown placeholder {{"+msg[loc[2]:loc[3]]+"}}"+pt.rep.DidYouMean(ph, Placeholders)+"; a game of pieces fills in {{CURRENT_PLAYER_NAME}} and {{PIECE}}")
				good = false
			}
		}
		a.Message = msg
		return a, good
	case DisplacePlayer:
		pt.checkKeys(pl, pptr, "the payload of "+name, []string{"steps"})
		n, ok := pt.whole(pl, pptr, "steps", -maxSpaces, maxSpaces)
		if !ok || n == 0 {
			if ok || pl["steps"] == nil {
				pt.errorf(pptr+"/steps", "%s needs a payload with \"steps\": how many spaces the piece moves on (negative: back), not 0", name)
			}
			return a, false
		}
		a.Steps = n
	case SetPlayerSpace:
		pt.checkKeys(pl, pptr, "the payload of "+name, []string{"spaceId"})
		v := pl["spaceId"]
		if v == nil {
			pt.errorf(pptr+"/spaceId", "%s needs a payload with \"spaceId\": the space the piece goes to", name)
			return a, false
		}
		id, ok := pt.spaceID(v, pptr+"/spaceId")
		if !ok {
			return a, false
		}
		a.Space = ref{pt: pt, ptr: pptr + "/spaceId", id: id}
	case ForceStop:
		pt.checkKeys(pl, pptr, "the payload of "+name, nil)
	}
	return a, true
}

// expand fills in a prompt's placeholders.
func expand(msg, player, piece string) string {
	if !strings.Contains(msg, "{{") {
		return msg
	}
	return placeholderRE.ReplaceAllStringFunc(msg, func(s string) string {
		switch strings.ToUpper(placeholderRE.FindStringSubmatch(s)[1]) {
		case "CURRENT_PLAYER_NAME":
			return player
		case "PIECE":
			return piece
		}
		return s
	})
}
