package party

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// actionAliases are action types the original's own example boards use
// although the original never had them (they stall it); they load as the
// action they meant, with a warning.
var actionAliases = map[string]string{
	"PROMPT":      PromptCurrentPlayer,
	"SET_STATE":   SetPlayerState,
	"MODIFY_STAT": ChangeStat,
}

// payloadKeys are the payload members each action reads.
var payloadKeys = map[string][]string{
	PromptAllPlayers:    {"message", "everyoneAcknowledges"},
	PromptCurrentPlayer: {"message"},
	SetPlayerState:      {"state"},
	DisplacePlayer:      {"steps"},
	ApplyEffect:         {"effect"},
	SetPlayerSpace:      {"spaceId"},
	ForceStop:           {},
	SwapPlaces:          {"targetPlayerId"},
	SetStat:             {"statId", "value", "mode"},
	ChangeStat:          {"statId", "delta", "mode"},
	"MODIFY_STAT":       {"statName", "statId", "delta", "mode"},
}

// statModes are the modes of SET_STAT and CHANGE_STAT.
var statModes = []string{"both", "true", "display"}

// action reads an event's action; ptr points at the action object.
func (p *parser) action(pt *part, m map[string]any, ptr string) (Action, bool) {
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
	canon := name
	if to, alias := actionAliases[name]; alias {
		canon = to
		pt.warnf(tptr, "%q is read as %s: write that (the original game has no %s action and stalls on it)", written, to, name)
	} else if name != written && slices.Contains(ActionTypes, name) {
		pt.warnf(tptr, "action %q is read as %s; write %s", written, name, name)
	}
	switch {
	case name == "CUSTOM":
		pt.errorf(tptr, "CUSTOM actions only write to the log and never finish, which stalls the game; use one of %s", strings.Join(ActionTypes, ", "))
		return Action{}, false
	case !slices.Contains(ActionTypes, canon):
		pt.errorf(tptr, "unknown action %q%s; the actions are %s", written, pt.rep.DidYouMean(name, ActionTypes), strings.Join(ActionTypes, ", "))
		return Action{}, false
	}

	pptr := ptr + "/payload"
	var pl map[string]any
	switch pv := m["payload"].(type) {
	case nil:
		if canon != ForceStop && canon != SwapPlaces {
			pt.errorf(pptr, "%s needs a payload with %s", canon, payloadHint(canon))
			return Action{}, false
		}
		pl = map[string]any{}
	case map[string]any:
		pl = pv
	default:
		pt.errorf(pptr, "a payload must be an object, not %s", diag.JSONKind(pv))
		return Action{}, false
	}
	keys := payloadKeys[canon]
	if name == "MODIFY_STAT" {
		keys = payloadKeys[name]
	}
	pt.checkKeys(pl, pptr, "the payload of "+canon, keys)

	a := Action{Type: canon}
	need := func(key string) (any, bool) {
		v, has := pl[key]
		if !has || v == nil {
			pt.errorf(pptr+"/"+key, "%s needs %s%s", canon, payloadHint(canon), foundInstead(pt, pl, key, keys))
			return nil, false
		}
		return v, true
	}
	switch canon {
	case PromptAllPlayers, PromptCurrentPlayer:
		v, ok := need("message")
		if !ok {
			return a, false
		}
		msg, isStr := v.(string)
		if !isStr || strings.TrimSpace(msg) == "" {
			pt.errorf(pptr+"/message", "a prompt's message must be a non-empty string, not %s", diag.Describe(v))
			return a, false
		}
		good := true
		for _, pr := range checkMessage(msg) {
			sev := diag.Error
			if pr.Warning {
				sev = diag.Warning
			} else {
				good = false
			}
			pt.rep.AtString(sev, pptr+"/message", pr.Offset, pr.Message)
		}
		everyone := false
		if canon == PromptAllPlayers {
			if v, ok := pt.boolean(pl, pptr, "everyoneAcknowledges"); ok {
				everyone = v
			} else if pl["everyoneAcknowledges"] != nil {
				good = false
			}
		}
		a.Args = PromptArgs{Message: msg, Everyone: everyone}
		return a, good
	case SetPlayerState:
		v, ok := need("state")
		if !ok {
			return a, false
		}
		st, isStr := v.(string)
		if !isStr || !slices.Contains(PlayerStates, st) {
			pt.errorf(pptr+"/state", "state %s is not a player state%s; the states are %s",
				diag.Describe(v), pt.rep.DidYouMean(fmt.Sprint(v), PlayerStates), strings.Join(PlayerStates, ", "))
			return a, false
		}
		a.Args = StateArgs{State: st}
	case DisplacePlayer:
		v, ok := need("steps")
		if !ok {
			return a, false
		}
		n, ok := wholeNumber(v)
		if !ok {
			pt.errorf(pptr+"/steps", "steps must be a whole number (negative to go back), not %s", diag.Describe(v))
			return a, false
		}
		if !pt.inRange(pptr+"/steps", "steps", float64(n), -MaxDisplace, MaxDisplace, "spaces to move on, or back when negative") {
			return a, false
		}
		if n == 0 {
			pt.warnf(pptr+"/steps", "DISPLACE_PLAYER with 0 steps moves nobody")
		}
		a.Args = DisplaceArgs{Steps: n}
	case ApplyEffect:
		v, ok := need("effect")
		if !ok {
			return a, false
		}
		eff, ok := readEffect(pt, v, pptr+"/effect")
		if !ok {
			return a, false
		}
		a.Args = EffectArgs{Effect: eff}
	case SetPlayerSpace:
		v, ok := need("spaceId")
		if !ok {
			return a, false
		}
		id, ok := pt.spaceID(v, pptr+"/spaceId")
		if !ok {
			return a, false
		}
		p.refs = append(p.refs, spaceRef{pt: pt, ptr: pptr + "/spaceId", id: id, what: "teleport target"})
		a.Args = TeleportArgs{SpaceID: id}
	case ForceStop:
		a.Args = ForceStopArgs{}
	case SwapPlaces:
		var args SwapArgs
		switch t := pl["targetPlayerId"].(type) {
		case nil:
		case string:
			args.Target = t
		case json.Number:
			args.Target = t.String()
			n, whole := wholeNumber(t)
			if !whole {
				pt.errorf(pptr+"/targetPlayerId", "targetPlayerId must be a player's name or seat number, not %s", t)
				return a, false
			}
			if !pt.inRange(pptr+"/targetPlayerId", "targetPlayerId", float64(n), 0, MaxSeats-1, "a seat, 0 for the first player") {
				return a, false
			}
		default:
			pt.errorf(pptr+"/targetPlayerId", "targetPlayerId must be a player's name or seat number, not %s", diag.JSONKind(t))
			return a, false
		}
		a.Args = args
	case SetStat, ChangeStat:
		statKey, amountKey := "statId", "value"
		if canon == ChangeStat {
			amountKey = "delta"
		}
		if name == "MODIFY_STAT" && pl["statId"] == nil {
			statKey = "statName"
		}
		sv, ok := need(statKey)
		if !ok {
			return a, false
		}
		stat, isStr := sv.(string)
		if !isStr || strings.TrimSpace(stat) == "" {
			pt.errorf(pptr+"/"+statKey, "%s must be the name of a stat, such as \"drinks\", not %s", statKey, diag.Describe(sv))
			return a, false
		}
		nv, ok := need(amountKey)
		if !ok {
			return a, false
		}
		n, isNum := nv.(json.Number)
		amount, err := n.Float64()
		if !isNum || err != nil {
			pt.errorf(pptr+"/"+amountKey, "%s must be a number, not %s", amountKey, diag.Describe(nv))
			return a, false
		}
		if !pt.inRange(pptr+"/"+amountKey, amountKey, amount, -MaxStat, MaxStat, "the stat's new value, or what to add to it") {
			return a, false
		}
		mode := "both"
		if mv, has := pl["mode"]; has && mv != nil {
			ms, isStr := mv.(string)
			if !isStr || !slices.Contains(statModes, ms) {
				pt.errorf(pptr+"/mode", "mode must be one of %s, not %s", strings.Join(statModes, ", "), diag.Describe(mv))
				return a, false
			}
			mode = ms
		}
		if p.stats == nil {
			p.stats = map[string]bool{}
		}
		p.stats[stat] = true
		if canon == SetStat {
			a.Args = SetStatArgs{Stat: stat, Value: amount, Mode: mode}
		} else {
			a.Args = ChangeStatArgs{Stat: stat, Delta: amount, Mode: mode}
		}
	}
	return a, true
}

// payloadHint says what an action's payload must hold.
func payloadHint(action string) string {
	switch action {
	case PromptAllPlayers, PromptCurrentPlayer:
		return `"message": the text to show (placeholders such as {{RANDOM_WORD}} allowed)`
	case SetPlayerState:
		return `"state": one of ` + strings.Join(PlayerStates, ", ")
	case DisplacePlayer:
		return `"steps": a whole number, negative to go back`
	case ApplyEffect:
		return `"effect": {"type": "SkipTurnsEffect", "args": ["skip", 1]}`
	case SetPlayerSpace:
		return `"spaceId": the id of the space to go to`
	case SetStat:
		return `"statId" and "value", such as {"statId": "drinks", "value": 0}`
	case ChangeStat:
		return `"statId" and "delta", such as {"statId": "drinks", "delta": 1}`
	}
	return "its members"
}

// foundInstead names a member of the payload that looks like a misspelling
// of the missing key.
func foundInstead(pt *part, pl map[string]any, key string, known []string) string {
	var unknown []string
	for _, k := range sortedKeys(pl) {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if s := pt.rep.Suggest(key, unknown); s != "" {
		return fmt.Sprintf(" (is %q a misspelling of %q?)", s, key)
	}
	return ""
}

// effectSpec describes one effect type: its meaning and its positional
// arguments as the original's constructor takes them.
type effectSpec struct {
	kind string
	// args names the arguments, for messages and for the names of
	// single-key object arguments.
	args []string
}

var effectSpecs = map[string]effectSpec{
	"SkipTurnsEffect":       {SkipTurns, []string{"id", "turnsToSkip", "toRemove", "playerIdToSkip", "turnsSkipped"}},
	"SkipTurnEffect":        {SkipTurns, []string{"id", "duration", "toRemove", "playerIdToSkip"}},
	"RepeatTurnsEffect":     {RepeatTurns, []string{"id", "extraTurns", "toRemove", "playerIdToRepeat", "turnsGranted"}},
	"DoubleTurnEffect":      {DoubleTurn, []string{"id", "duration", "toRemove", "playerIdToDouble", "hasUsed"}},
	"ChangeDirectionEffect": {ChangeDirection, []string{"id", "duration", "toRemove", "playerIdReversed", "isReversed"}},
}

// EffectTypes lists the effect types APPLY_EFFECT accepts.
var EffectTypes = []string{"SkipTurnsEffect", "SkipTurnEffect", "RepeatTurnsEffect", "DoubleTurnEffect", "ChangeDirectionEffect"}

// argRoles group the names a single-key argument may have by position, to
// catch arguments written in the wrong order (the names are otherwise
// ignored, as in the original).
var argRoles = [][]string{
	{"id"},
	{"duration", "turns", "turnsToSkip", "extraTurns"},
	{"toRemove"},
	{"playerId", "playerIdToSkip", "playerIdToRepeat", "playerIdReversed", "playerIdToDouble"},
	{"turnsSkipped", "turnsGranted", "isReversed", "hasUsed"},
}

// readEffect reads APPLY_EFFECT's effect: {"type": T, "args": [...]}, with
// positional arguments written as plain values or as single-key objects
// (["skip", 1] or [{"id": "skip"}, {"duration": 1}]). The form
// {"type": T, "config": {"id": …, "duration": …}} of one example board is
// read too, with a warning: the original ignores it.
func readEffect(pt *part, v any, ptr string) (PlayerEffect, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr, "an effect must be an object such as {\"type\": \"SkipTurnsEffect\", \"args\": [\"skip\", 1]}, not %s", diag.JSONKind(v))
		return PlayerEffect{}, false
	}
	pt.checkKeys(m, ptr, "an effect", []string{"type", "args", "config"})
	typ, ok := pt.str(m, ptr, "type")
	if !ok {
		if m["type"] == nil {
			pt.errorf(ptr+"/type", "an effect needs a type: %s", strings.Join(EffectTypes, ", "))
		}
		return PlayerEffect{}, false
	}
	spec, known := effectSpecs[typ]
	if !known {
		pt.errorf(ptr+"/type", "unknown effect %q%s; the effects are %s", typ, pt.rep.DidYouMean(typ, EffectTypes), strings.Join(EffectTypes, ", "))
		return PlayerEffect{}, false
	}
	eff := PlayerEffect{Type: typ, Kind: spec.kind}

	// Gather the positional values, with the pointer and name of each.
	type arg struct {
		v    any
		ptr  string
		name string // the key of a single-key object, or ""
	}
	var args []arg
	argsV, hasArgs := m["args"]
	cfg, hasCfg := m["config"]
	switch {
	case hasArgs && hasCfg:
		pt.errorf(ptr+"/config", "an effect has either args or config, not both: keep args")
		return eff, false
	case hasCfg:
		cm, ok := cfg.(map[string]any)
		if !ok {
			pt.errorf(ptr+"/config", "must be an object, not %s", diag.JSONKind(cfg))
			return eff, false
		}
		pt.checkKeys(cm, ptr+"/config", "an effect's config", slices.Concat(argRoles[0], argRoles[1]))
		var vals []string
		for i, role := range argRoles[:2] {
			for _, k := range sortedKeys(cm) {
				if slices.Contains(role, k) {
					args = append(args, arg{cm[k], ptr + "/config/" + diag.Escape(k), k})
					vals = append(vals, diag.Describe(cm[k]))
					break
				}
			}
			if len(args) == i {
				args = append(args, arg{nil, ptr + "/config", ""})
				vals = append(vals, "…")
			}
		}
		pt.warnf(ptr+"/config", "the original game ignores an effect's \"config\" (the effect does nothing there); it is read here as \"args\": [%s]: write that instead", strings.Join(vals, ", "))
	case hasArgs:
		list, ok := argsV.([]any)
		if !ok {
			pt.errorf(ptr+"/args", "args must be an array of the effect's arguments in order (%s), not %s", strings.Join(spec.args, ", "), diag.JSONKind(argsV))
			return eff, false
		}
		for i, av := range list {
			a := arg{av, fmt.Sprintf("%s/args/%d", ptr, i), ""}
			if om, ok := av.(map[string]any); ok && len(om) == 1 {
				for k, val := range om {
					a = arg{val, a.ptr + "/" + diag.Escape(k), k}
				}
			}
			args = append(args, a)
		}
	default:
		pt.errorf(ptr+"/args", "%s needs args: its arguments in order (%s), such as [\"skip\", 1]", typ, strings.Join(spec.args, ", "))
		return eff, false
	}
	if len(args) > len(spec.args) {
		pt.errorf(args[len(spec.args)].ptr, "%s takes at most %d arguments (%s), not %d", typ, len(spec.args), strings.Join(spec.args, ", "), len(args))
		return eff, false
	}
	for i, a := range args {
		if a.name == "" || slices.Contains(argRoles[i], a.name) {
			continue
		}
		for j, role := range argRoles {
			if j != i && slices.Contains(role, a.name) {
				pt.warnf(a.ptr, "argument %d is named %q, but arguments are read by position: argument %d of %s is %s", i+1, a.name, i+1, typ, spec.args[i])
			}
		}
	}
	good := true
	if len(args) > 0 {
		switch id := args[0].v.(type) {
		case nil:
		case string:
			eff.ID = id
		case json.Number:
			eff.ID = id.String()
		default:
			pt.errorf(args[0].ptr, "argument 1 of %s (id) must be a string, not %s", typ, diag.JSONKind(id))
			good = false
		}
	}
	if len(args) < 2 || args[1].v == nil {
		at := ptr + "/args"
		if len(args) >= 2 {
			at = args[1].ptr
		}
		pt.errorf(at, "%s needs argument 2 (%s): how many turns, such as [\"skip\", 1]", typ, spec.args[1])
		return eff, false
	}
	n, ok := wholeNumber(args[1].v)
	switch {
	case !ok || n < 0:
		pt.errorf(args[1].ptr, "argument 2 of %s (%s) must be a whole number of turns, not %s", typ, spec.args[1], diag.Describe(args[1].v))
		good = false
	case !pt.inRange(args[1].ptr, "argument 2 of "+typ+" ("+spec.args[1]+")", float64(n), 0, MaxEffectTurns, "turns"):
		good = false
	case n == 0:
		pt.warnf(args[1].ptr, "%s for 0 turns does nothing", typ)
	}
	eff.Turns = n
	if len(args) > 2 {
		switch r := args[2].v.(type) {
		case nil, bool:
			if r == true {
				pt.warnf(args[2].ptr, "toRemove true removes the effect before it acts; leave it false")
			}
		default:
			pt.errorf(args[2].ptr, "argument 3 of %s (toRemove) must be true or false, not %s", typ, diag.JSONKind(r))
			good = false
		}
	}
	if len(args) > 3 && args[3].v != nil {
		pt.warnf(args[3].ptr, "argument 4 of %s (%s) is ignored: the effect is always on the player who lands", typ, spec.args[3])
	}
	if len(args) > 4 {
		switch c := args[4].v; c {
		case nil, false:
		default:
			if k, ok := wholeNumber(c); !ok || k != 0 {
				pt.warnf(args[4].ptr, "argument 5 of %s (%s) is ignored: the effect starts afresh", typ, spec.args[4])
			}
		}
	}
	return eff, good
}
