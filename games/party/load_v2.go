package party

import (
	"fmt"
)

// v2Keys are the top-level members of a v2 board: the metadata of v1,
// moved to the top, beside gameRules and the spaces.
var v2Keys = []string{"$schema", "version", "name", "author", "description", "howToPlay", "notes", "created", "modified", "tags",
	"gameEngine", "renderConfig", "requiredPlugins", "gameRules", "spaces"}

// v2Shape is the space format of v2 boards: that of v3 spaces.
var v2Shape = v3Shape

// isV2 tells a v2 board from a v1 board by their structure: both have
// "spaces", but v1 keeps the board's name, author and engine under
// "metadata" and writes its spaces with "events" and "visualDetails",
// where v2 writes them at the top and its spaces with "triggers",
// "position" and "visual". A board with "metadata" is v1; one with a
// member of v2's top level (other than gameRules, which v1 also allows
// there), or with a flat gameRules (minPlayers at its top, not under
// players), is v2; otherwise its spaces decide, and a board whose spaces
// say nothing either way is v1. (The original game reads every such file as
// v2, which drops the events of v1 boards.)
func isV2(obj map[string]any) bool {
	if _, ok := obj["metadata"]; ok {
		return false
	}
	for _, k := range v2Keys {
		switch k {
		case "$schema", "gameRules", "spaces":
			continue
		}
		if _, ok := obj[k]; ok {
			return true
		}
	}
	if gr, ok := obj["gameRules"].(map[string]any); ok {
		for _, k := range flatRuleKeys {
			if _, ok := gr[k]; ok {
				return true
			}
		}
	}
	spaces, _ := obj["spaces"].([]any)
	v1, v2 := false, false
	for _, s := range spaces {
		m, _ := s.(map[string]any)
		for _, k := range []string{"events", "visualDetails"} {
			if _, ok := m[k]; ok {
				v1 = true
			}
		}
		for _, k := range []string{"triggers", "position", "visual"} {
			if _, ok := m[k]; ok {
				v2 = true
			}
		}
	}
	return v2 && !v1
}

// v2 reads the original's flat board format of late 2025, which its
// running games also write: {"name", "author", "gameEngine", "gameRules",
// "spaces": [v3 spaces]}. Space ids may be integers or strings, and an
// action's space id may be an integer on a board of string ids: ids are
// compared as strings, as the original's board lookup does.
func (p *parser) v2(pt *part, obj map[string]any) *Board {
	pt.schemaDef = "v2"
	b := &Board{File: pt.file, SpacesFile: pt.file, Format: "v2", EngineType: "turn-based", Rules: defaultRules()}
	pt.checkKeys(obj, "", "a v2 board", v2Keys)
	b.Name, _ = pt.str(obj, "", "name")
	b.Author, _ = pt.str(obj, "", "author")
	b.Description, _ = pt.str(obj, "", "description")
	b.HowToPlay, _ = pt.str(obj, "", "howToPlay")
	b.Notes, _ = pt.str(obj, "", "notes")
	b.Version, _ = pt.str(obj, "", "version")
	b.Tags = readTags(pt, obj, "")
	if ge, ok := pt.obj(obj, "", "gameEngine"); ok && !p.engine(pt, ge, "/gameEngine", b) {
		return nil
	}
	if rc, ok := pt.obj(obj, "", "renderConfig"); ok {
		b.Render = plainJSON(rc).(map[string]any)
	}
	if plugins, ok := pt.arr(obj, "", "requiredPlugins"); ok {
		for i, v := range plugins {
			if id, _ := v.(string); id != "core" {
				pt.warnf(fmt.Sprintf("/requiredPlugins/%d", i), "plugin %s is not loaded: Tabula plays the board with its own rules, without plugins", describeID(v))
			}
		}
	}
	if gr, ok := pt.obj(obj, "", "gameRules"); ok {
		p.rulesV2(pt, gr, "/gameRules", &b.Rules)
	}
	if b.Rules.MaxTurns == 0 {
		b.Rules.MaxTurns = configMaxTurns(pt, b.EngineConfig, "/gameEngine/config")
	}
	p.spacesPt, p.spacesPtr = pt, "/spaces"
	b.Spaces = p.spaces(pt, obj["spaces"], "/spaces", v2Shape)
	return b
}

// flatRuleKeys are the members of a flat gameRules (v2): the player counts
// at its top instead of under "players".
var flatRuleKeys = []string{"minPlayers", "maxPlayers", "startingPositions", "recommendedPlayers"}

// rulesV2 reads a v2 board's gameRules, flat ({"minPlayers", "maxPlayers",
// "recommendedPlayers", "startingPositions", "turns", …}) or, when it has
// "players" and none of the flat members, nested as in v1.
func (p *parser) rulesV2(pt *part, gr map[string]any, ptr string, r *GameRules) {
	flat := gr["players"] == nil
	for _, k := range flatRuleKeys {
		if _, ok := gr[k]; ok {
			flat = true
		}
	}
	if !flat {
		p.rulesV1(pt, gr, ptr, r)
		return
	}
	pt.checkKeys(gr, ptr, "gameRules", []string{"minPlayers", "maxPlayers", "recommendedPlayers", "startingPositions", "turns", "victory", "movement", "constraints"})
	readPlayerCounts(pt, gr, ptr, "minPlayers", "maxPlayers", 0, &r.MinPlayers, &r.MaxPlayers)
	if rec, ok := pt.obj(gr, ptr, "recommendedPlayers"); ok {
		readPlayerCounts(pt, rec, ptr+"/recommendedPlayers", "min", "max", 0, &r.RecommendedMin, &r.RecommendedMax)
	}
	minPtr := ptr + "/minPlayers"
	if gr["minPlayers"] == nil {
		minPtr = ptr
	}
	checkPlayerCounts(pt, r, minPtr, ptr+"/recommendedPlayers/min")
	if sp, ok := pt.obj(gr, ptr, "startingPositions"); ok {
		r.Start = p.startingPositions(pt, sp, ptr+"/startingPositions", false)
	}
	p.rulesPlay(pt, gr, ptr, r)
}

// describeID quotes a string and writes anything else as JSON would.
func describeID(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
