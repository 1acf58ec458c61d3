package party

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// defaultRules are the rules of a board that says nothing: one six-sided
// die, everybody starts on the first candidate space, no turn limit.
func defaultRules() GameRules {
	return GameRules{Dice: Dice{Count: 1, Sides: 6}, Start: StartingPositions{Mode: "single", Distribution: "round-robin"}}
}

// v1 reads the original's first board format: {"metadata": {…}, "spaces": […]}.
func (p *parser) v1(pt *part, obj map[string]any) *Board {
	pt.schemaDef = "v1"
	b := &Board{File: pt.file, SpacesFile: pt.file, Format: "v1", EngineType: "turn-based", Rules: defaultRules()}
	pt.checkKeys(obj, "", "a v1 board", []string{"$schema", "metadata", "spaces", "gameRules"})
	meta, _ := pt.obj(obj, "", "metadata")
	var engineConfig map[string]any
	if meta != nil {
		pt.checkKeys(meta, "/metadata", "metadata", []string{"name", "author", "description", "howToPlay", "notes", "createdDate", "version", "tags", "gameEngine", "renderConfig", "gameRules"})
		b.Name, _ = pt.str(meta, "/metadata", "name")
		b.Author, _ = pt.str(meta, "/metadata", "author")
		b.Description, _ = pt.str(meta, "/metadata", "description")
		b.HowToPlay, _ = pt.str(meta, "/metadata", "howToPlay")
		b.Notes, _ = pt.str(meta, "/metadata", "notes")
		b.Version, _ = pt.str(meta, "/metadata", "version")
		b.Tags = readTags(pt, meta, "/metadata")
		if ge, ok := pt.obj(meta, "/metadata", "gameEngine"); ok {
			if !p.engine(pt, ge, "/metadata/gameEngine", b) {
				return nil
			}
			engineConfig = b.EngineConfig
		}
		if rc, ok := pt.obj(meta, "/metadata", "renderConfig"); ok {
			b.Render = plainJSON(rc).(map[string]any)
		}
	}
	rulesPtr := "/metadata/gameRules"
	gr, ok := map[string]any(nil), false
	if meta != nil {
		gr, ok = pt.obj(meta, "/metadata", "gameRules")
	}
	if top, topOK := pt.obj(obj, "", "gameRules"); topOK {
		if ok {
			pt.warnf("/gameRules", "ignored: metadata.gameRules takes precedence over a top-level gameRules")
		} else {
			gr, ok, rulesPtr = top, true, "/gameRules"
		}
	}
	if ok {
		p.rulesV1(pt, gr, rulesPtr, &b.Rules)
	}
	if b.Rules.MaxTurns == 0 {
		b.Rules.MaxTurns = configMaxTurns(pt, engineConfig, "/metadata/gameEngine/config")
	}
	p.spacesPt, p.spacesPtr = pt, "/spaces"
	b.Spaces = p.spaces(pt, obj["spaces"], "/spaces", v1Shape)
	return b
}

func readTags(pt *part, m map[string]any, ptr string) []string {
	list, ok := pt.arr(m, ptr, "tags")
	if !ok {
		return nil
	}
	var tags []string
	for i, t := range list {
		if s, ok := t.(string); ok {
			tags = append(tags, s)
		} else {
			pt.errorf(fmt.Sprintf("%s/tags/%d", ptr, i), "a tag must be a string, not %s", diag.JSONKind(t))
		}
	}
	return tags
}

// engine reads {"type": …, "config": {…}}; it reports false (and stops the
// load) for engines other than turn-based.
func (p *parser) engine(pt *part, m map[string]any, ptr string, b *Board) bool {
	typ, ok := pt.str(m, ptr, "type")
	switch {
	case ok && typ == "multi-piece":
		// The original game had no multi-piece engine either: it played
		// such a file turn by turn, one token each, and so does Tabula.
		p.multiPiece = true
		pt.warnf(ptr+"/type", `the "multi-piece" engine is not supported for this file: it is played as the original game played it, turn by turn with one token each; its pieces per player, start and home zones, safe spaces and captures are ignored`)
	case ok && typ != "turn-based":
		pt.errorf(ptr+"/type", "the %q engine is not supported yet: Tabula plays \"turn-based\" boards", typ)
		p.stop = true
		return false
	}
	if cfg, ok := pt.obj(m, ptr, "config"); ok {
		b.EngineConfig = plainJSON(cfg).(map[string]any)
	}
	return true
}

// configMaxTurns reads gameEngine.config.turnManager.maxTurns.
func configMaxTurns(pt *part, cfg map[string]any, ptr string) int {
	tm, ok := cfg["turnManager"].(map[string]any)
	if !ok {
		return 0
	}
	n, ok := tm["maxTurns"].(float64)
	if !ok || n < 0 || n != float64(int(n)) {
		if _, has := tm["maxTurns"]; has {
			pt.errorf(ptr+"/turnManager/maxTurns", "maxTurns must be a whole number of rounds (0: no limit), not %v", diag.Describe(tm["maxTurns"]))
		}
		return 0
	}
	if !pt.inRange(ptr+"/turnManager/maxTurns", "maxTurns", n, 0, MaxTurnLimit, "rounds before the game ends; 0: no limit") {
		return 0
	}
	return int(n)
}

// rulesV1 reads v1 gameRules.
func (p *parser) rulesV1(pt *part, gr map[string]any, ptr string, r *GameRules) {
	pt.checkKeys(gr, ptr, "gameRules", []string{"players", "turns", "victory", "movement", "constraints"})
	if pl, ok := pt.obj(gr, ptr, "players"); ok {
		pptr := ptr + "/players"
		pt.checkKeys(pl, pptr, "gameRules.players", []string{"min", "max", "recommended", "startingPositions"})
		readPlayerCounts(pt, pl, pptr, "min", "max", 0, &r.MinPlayers, &r.MaxPlayers)
		if rec, ok := pt.obj(pl, pptr, "recommended"); ok {
			readPlayerCounts(pt, rec, pptr+"/recommended", "min", "max", 0, &r.RecommendedMin, &r.RecommendedMax)
		}
		checkPlayerCounts(pt, r, pptr+"/min", pptr+"/recommended/min")
		if sp, ok := pt.obj(pl, pptr, "startingPositions"); ok {
			r.Start = p.startingPositions(pt, sp, pptr+"/startingPositions", false)
		}
	}
	p.rulesPlay(pt, gr, ptr, r)
}

// rulesPlay reads the members v1 and v2 gameRules share: turns, movement
// and victory.
func (p *parser) rulesPlay(pt *part, gr map[string]any, ptr string, r *GameRules) {
	if t, ok := pt.obj(gr, ptr, "turns"); ok {
		if n, ok := pt.wholeIn(t, ptr+"/turns", "maxTurns", 0, MaxTurnLimit, "rounds before the game ends; 0: no limit"); ok {
			r.MaxTurns = n
		}
	}
	if mv, ok := pt.obj(gr, ptr, "movement"); ok {
		mptr := ptr + "/movement"
		if typ, ok := pt.str(mv, mptr, "type"); ok && typ != "dice" {
			pt.warnf(mptr+"/type", "movement type %q is not supported: players move by rolling dice", typ)
		}
		if rr, ok := pt.obj(mv, mptr, "rollRange"); ok {
			if lo, ok := pt.whole(rr, mptr+"/rollRange", "min"); ok && lo != 1 {
				pt.warnf(mptr+"/rollRange/min", "a roll starts at 1: the range is read as 1 to its max")
			}
			if hi, ok := pt.wholeIn(rr, mptr+"/rollRange", "max", 1, MaxSides, "the highest roll of the die"); ok {
				r.Dice = Dice{Count: 1, Sides: hi}
			}
		}
	}
	if v, ok := pt.obj(gr, ptr, "victory"); ok {
		conds, _ := pt.arr(v, ptr+"/victory", "conditions")
		for i, c := range conds {
			cptr := fmt.Sprintf("%s/victory/conditions/%d", ptr, i)
			cm, ok := c.(map[string]any)
			if !ok {
				pt.errorf(cptr, "a victory condition must be an object, not %s", diag.JSONKind(c))
				continue
			}
			typ, _ := pt.str(cm, cptr, "type")
			if normalizeName(typ) != "REACH_SPACE" {
				pt.warnf(cptr, "victory condition %q is not played: only REACH_SPACE is; end the game with SET_PLAYER_STATE COMPLETED_GAME", typ)
				continue
			}
			idv, iptr := cm["spaceId"], cptr+"/spaceId"
			if cfg, ok := cm["config"].(map[string]any); ok && idv == nil {
				idv, iptr = cfg["spaceId"], cptr+"/config/spaceId"
			}
			if idv == nil {
				pt.errorf(iptr, "REACH_SPACE needs spaceId: the space that wins")
				continue
			}
			if id, ok := pt.spaceID(idv, iptr); ok {
				p.refs = append(p.refs, spaceRef{pt: pt, ptr: iptr, id: id, what: "winning space"})
				r.Win = append(r.Win, WinCondition{Type: "reach-space", SpaceIDs: []string{id}})
			}
		}
	}
}

// readPlayerCounts reads a pair of player counts (the bounds of a game, or
// the recommended ones), each from lo (0: unset) to MaxSeats.
func readPlayerCounts(pt *part, m map[string]any, ptr, minKey, maxKey string, lo int, least, most *int) {
	if n, ok := pt.wholeIn(m, ptr, minKey, lo, MaxSeats, "the fewest players"); ok {
		*least = n
	}
	if n, ok := pt.wholeIn(m, ptr, maxKey, max(lo, 1), MaxSeats, "the most players"); ok {
		*most = n
	}
}

// checkPlayerCounts reports player bounds that contradict each other.
func checkPlayerCounts(pt *part, r *GameRules, minPtr, recPtr string) {
	if r.MinPlayers > 0 && r.MaxPlayers > 0 && r.MinPlayers > r.MaxPlayers {
		pt.errorf(minPtr, "at least %d players but at most %d: no game can start", r.MinPlayers, r.MaxPlayers)
	}
	if r.RecommendedMin > 0 && r.RecommendedMax > 0 && r.RecommendedMin > r.RecommendedMax {
		pt.warnf(recPtr, "recommended from %d to %d players: min is above max", r.RecommendedMin, r.RecommendedMax)
	}
}

var (
	startModes    = []string{"single", "spread", "random", "custom"}
	distributions = []string{"round-robin", "sequential"}
)

// startingPositions reads startingPositions.
func (p *parser) startingPositions(pt *part, m map[string]any, ptr string, v3 bool) StartingPositions {
	known := []string{"mode", "spaceIds", "distribution"}
	if v3 {
		known = append(known, "startZones")
	}
	pt.checkKeys(m, ptr, "startingPositions", known)
	s := StartingPositions{Mode: "single", Distribution: "round-robin"}
	if mode, ok := pt.str(m, ptr, "mode"); ok {
		switch {
		case mode == "multiple" && v3 && p.multiPiece:
			pt.warnf(ptr+"/mode", `starting mode "multiple" (several pieces per player, in start zones) is ignored: every player starts with one token on the first candidate space, as in "single"`)
			mode = "single"
		case mode == "multiple" && v3:
			pt.errorf(ptr+"/mode", `starting mode "multiple" places several pieces per player, which needs the "multi-piece" engine: it is not supported yet`)
		case !slices.Contains(startModes, mode):
			pt.errorf(ptr+"/mode", "unknown starting mode %q%s; the modes are %s", mode, pt.rep.DidYouMean(mode, startModes), strings.Join(startModes, ", "))
		case mode == "custom":
			pt.warnf(ptr+"/mode", `starting mode "custom" is for plugins: everybody starts on the first candidate space, as in "single"`)
		}
		s.Mode = mode
	}
	if ids, ok := pt.arr(m, ptr, "spaceIds"); ok {
		for i, v := range ids {
			iptr := fmt.Sprintf("%s/spaceIds/%d", ptr, i)
			if id, ok := pt.spaceID(v, iptr); ok {
				s.SpaceIDs = append(s.SpaceIDs, id)
				p.refs = append(p.refs, spaceRef{pt: pt, ptr: iptr, id: id, what: "starting space"})
			}
		}
	}
	if d, ok := pt.str(m, ptr, "distribution"); ok {
		if !slices.Contains(distributions, d) {
			pt.errorf(ptr+"/distribution", "unknown distribution %q%s; the distributions are %s", d, pt.rep.DidYouMean(d, distributions), strings.Join(distributions, ", "))
		}
		s.Distribution = d
	}
	return s
}

// plainJSON turns decoded JSON with json.Number values into the plain form
// encoding/json gives (float64 numbers), for the free-form members kept as
// written (engine configuration, rendering).
func plainJSON(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _ := v.Float64()
		return f
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plainJSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = plainJSON(e)
		}
		return out
	}
	return v
}
