package party

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tabulagames/tabula/game"
)

var _ game.Converter = (*Pack)(nil)

// The formats Convert writes.
const (
	FormatV3     = "v3"
	FormatBundle = "bundle"
)

// Formats are "v3" (one file) and "bundle" (a zip archive of a bundle
// folder's files).
func (p *Pack) Formats() []string { return []string{FormatV3, FormatBundle} }

// Convert writes a board of any format the pack reads (v1, v2, v3, a
// bundle) as a v3 game file or as a zipped bundle. What the board means
// is kept whole (its spaces, events, rules and rendering, and in a bundle
// its preview.png); what Tabula does not read (plugins, ui, free members)
// is not written. Loading the result gives the same board.
func (p *Pack) Convert(def game.Definition, format string) ([]byte, error) {
	d, ok := def.(*Definition)
	if !ok {
		return nil, fmt.Errorf("party: cannot convert a %T", def)
	}
	g := writeV3(d.Board)
	switch format {
	case FormatV3:
		return indentJSON(g)
	case FormatBundle:
		return zipBundle(g, d.Board.Preview)
	}
	return nil, fmt.Errorf("party boards convert to %s, not %q", strings.Join(p.Formats(), " or "), format)
}

// The v3 game file, in the order its members are written.
type v3Game struct {
	Schema   string         `json:"$schema,omitempty"`
	Version  string         `json:"version"`
	Type     string         `json:"type"`
	Metadata v3Metadata     `json:"metadata"`
	Engine   v3Engine       `json:"engine"`
	Rules    v3Rules        `json:"rules"`
	Board    v3BoardSection `json:"board"`
}

type v3Metadata struct {
	Name        string   `json:"name,omitempty"`
	Author      string   `json:"author,omitempty"`
	Description string   `json:"description,omitempty"`
	HowToPlay   string   `json:"howToPlay,omitempty"`
	Notes       string   `json:"notes,omitempty"`
	Version     string   `json:"version,omitempty"`
	Tags        []string `json:"tags,omitempty"`
}

type v3Engine struct {
	Type   string         `json:"type"`
	Config map[string]any `json:"config,omitempty"`
}

type v3Rules struct {
	MinPlayers         int             `json:"minPlayers,omitempty"`
	MaxPlayers         int             `json:"maxPlayers,omitempty"`
	RecommendedPlayers *v3Range        `json:"recommendedPlayers,omitempty"`
	StartingPositions  v3Start         `json:"startingPositions"`
	DiceRolling        v3Dice          `json:"diceRolling"`
	WinCondition       *v3WinCondition `json:"winCondition,omitempty"`
}

type v3Range struct {
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

type v3Start struct {
	Mode         string   `json:"mode"`
	SpaceIDs     []string `json:"spaceIds,omitempty"`
	Distribution string   `json:"distribution,omitempty"`
}

type v3Dice struct {
	DiceCount int `json:"diceCount"`
	DiceSides int `json:"diceSides"`
}

type v3WinCondition struct {
	Type   string         `json:"type"`
	Config map[string]any `json:"config"`
}

type v3BoardSection struct {
	Topology v3Topology `json:"topology"`
	// Rendering is nil or the board's rendering, kept even when empty.
	Rendering any `json:"rendering,omitempty"`
}

type v3Topology struct {
	Spaces []v3Space `json:"spaces"`
}

type v3Space struct {
	ID          string         `json:"id"`
	Name        string         `json:"name,omitempty"`
	Type        string         `json:"type,omitempty"`
	Position    *v3Position    `json:"position,omitempty"`
	Visual      map[string]any `json:"visual,omitempty"`
	Connections []v3Connection `json:"connections"`
	Triggers    []v3Trigger    `json:"triggers,omitempty"`
}

type v3Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type v3Connection struct {
	TargetID string `json:"targetId"`
	Draw     bool   `json:"draw"`
}

type v3Trigger struct {
	When     v3When   `json:"when"`
	Action   v3Action `json:"action"`
	Priority string   `json:"priority"`
	State    string   `json:"state,omitempty"`
}

type v3When struct {
	Type    string `json:"type"`
	Payload string `json:"payload,omitempty"`
}

type v3Action struct {
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload"`
}

// writeV3 is the v3 game of a board.
func writeV3(b *Board) *v3Game {
	g := &v3Game{
		Version: "3.0.0",
		Type:    "game",
		Metadata: v3Metadata{Name: b.Name, Author: b.Author, Description: b.Description, HowToPlay: b.HowToPlay, Notes: b.Notes,
			Version: b.Version, Tags: b.Tags},
		Engine: v3Engine{Type: "turn-based", Config: engineConfig(b)},
	}
	if b.Render != nil {
		g.Board.Rendering = b.Render
	}
	r := b.Rules
	g.Rules = v3Rules{MinPlayers: r.MinPlayers, MaxPlayers: r.MaxPlayers,
		StartingPositions: v3Start{Mode: r.Start.Mode, SpaceIDs: r.Start.SpaceIDs, Distribution: r.Start.Distribution},
		DiceRolling:       v3Dice{DiceCount: r.Dice.Count, DiceSides: r.Dice.Sides}}
	if r.RecommendedMin > 0 || r.RecommendedMax > 0 {
		g.Rules.RecommendedPlayers = &v3Range{Min: r.RecommendedMin, Max: r.RecommendedMax}
	}
	// v3 has one win condition: several winning spaces are one reach-end.
	var wins []string
	for _, w := range r.Win {
		wins = append(wins, w.SpaceIDs...)
	}
	switch {
	case len(r.Win) == 1 && r.Win[0].Type == "reach-space":
		g.Rules.WinCondition = &v3WinCondition{Type: "reach-space", Config: map[string]any{"spaceId": wins[0]}}
	case len(wins) > 0:
		g.Rules.WinCondition = &v3WinCondition{Type: "reach-end", Config: map[string]any{"endSpaceIds": wins}}
	}
	g.Board.Topology.Spaces = make([]v3Space, len(b.Spaces))
	for i, s := range b.Spaces {
		out := v3Space{ID: s.ID, Name: s.Name, Type: s.Type, Visual: visualMap(s.Visual), Connections: []v3Connection{}}
		if s.Visual.X != 0 || s.Visual.Y != 0 {
			out.Position = &v3Position{X: s.Visual.X, Y: s.Visual.Y}
		}
		for _, c := range s.Connections {
			out.Connections = append(out.Connections, v3Connection{TargetID: c.Target, Draw: c.Draw})
		}
		for _, e := range s.Events {
			t := v3Trigger{When: v3When{Type: e.Trigger, Payload: e.Code}, Action: writeAction(e.Action), Priority: e.Priority.String()}
			if e.Inactive {
				t.State = "INACTIVE"
			}
			out.Triggers = append(out.Triggers, t)
		}
		g.Board.Topology.Spaces[i] = out
	}
	return g
}

// engineConfig is the board's engine configuration with its turn limit,
// which v3 keeps there (v1 and v2 may keep it in gameRules).
func engineConfig(b *Board) map[string]any {
	cfg := map[string]any{}
	for k, v := range b.EngineConfig {
		cfg[k] = v
	}
	tm, _ := cfg["turnManager"].(map[string]any)
	if b.Rules.MaxTurns == 0 && (tm == nil || tm["maxTurns"] == nil) {
		if len(cfg) == 0 {
			return nil
		}
		return cfg
	}
	copied := map[string]any{}
	for k, v := range tm {
		copied[k] = v
	}
	copied["maxTurns"] = b.Rules.MaxTurns
	cfg["turnManager"] = copied
	return cfg
}

// visualMap is a space's look without its position, leaving out what is
// unset.
func visualMap(v Visual) map[string]any {
	m := map[string]any{}
	for k, n := range map[string]float64{"size": v.Size, "borderWidth": v.BorderWidth} {
		if n != 0 {
			m[k] = n
		}
	}
	for k, s := range map[string]string{"color": v.Color, "textColor": v.TextColor, "borderColor": v.BorderColor,
		"font": v.Font, "textAlign": v.TextAlign, "textBaseline": v.TextBaseline} {
		if s != "" {
			m[k] = s
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// writeAction is an action with its payload as v3 writes it.
func writeAction(a Action) v3Action {
	pl := map[string]any{}
	switch args := a.Args.(type) {
	case PromptArgs:
		pl["message"] = args.Message
		if args.Everyone {
			pl["everyoneAcknowledges"] = true
		}
	case StateArgs:
		pl["state"] = args.State
	case DisplaceArgs:
		pl["steps"] = args.Steps
	case EffectArgs:
		var id any
		if args.Effect.ID != "" {
			id = args.Effect.ID
		}
		pl["effect"] = map[string]any{"type": args.Effect.Type, "args": []any{id, args.Effect.Turns}}
	case TeleportArgs:
		pl["spaceId"] = args.SpaceID
	case SwapArgs:
		if args.Target != "" {
			pl["targetPlayerId"] = args.Target
		}
	case SetStatArgs:
		pl["statId"], pl["value"], pl["mode"] = args.Stat, args.Value, args.Mode
	case ChangeStatArgs:
		pl["statId"], pl["delta"], pl["mode"] = args.Stat, args.Delta, args.Mode
	}
	return v3Action{Type: a.Type, Payload: pl}
}

// indentJSON writes v as indented JSON, its strings as written (no
// escaping of <, > and &, which prompts use).
func indentJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipBundle writes a v3 game as a zipped bundle: the manifest and one
// file per part, at the top of the archive, and its preview if any.
func zipBundle(g *v3Game, preview []byte) ([]byte, error) {
	type file struct {
		name string
		v    any
	}
	paths := map[string]string{"metadata": "metadata.json", "engine": "engine.json", "rules": "rules.json", "topology": "topology.json"}
	files := []file{{"metadata.json", g.Metadata}, {"engine.json", g.Engine}, {"rules.json", g.Rules}, {"topology.json", g.Board.Topology}}
	if g.Board.Rendering != nil {
		paths["settings"] = "settings.json"
		files = append(files, file{"settings.json", map[string]any{"renderConfig": g.Board.Rendering}})
	}
	manifest := map[string]any{"schema_version": 2, "id": bundleID(g.Metadata.Name), "paths": paths}
	files = append([]file{{manifestName, manifest}}, files...)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		data, err := indentJSON(f.v)
		if err != nil {
			return nil, err
		}
		// A fixed date (the first a zip can hold): the same board gives the
		// same archive.
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if preview != nil {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: previewName, Method: zip.Store, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(preview); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// bundleID makes a bundle's id from the board's name: lower-case letters
// and digits joined by "-" ("board" if none).
func bundleID(name string) string {
	var parts []string
	for _, f := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		parts = append(parts, f)
	}
	if len(parts) == 0 {
		return "board"
	}
	return strings.Join(parts, "-")
}
