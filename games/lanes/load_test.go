package lanes

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game/gametest"
)

// testPack is the pack the tests share.
var testPack = NewPack()

// bundled returns the bundled game.
func bundled(tb testing.TB) *Definition {
	tb.Helper()
	def, err := testPack.Bundled()
	if err != nil {
		tb.Fatal(err)
	}
	return def
}

// bundledData returns the bundled game file.
func bundledData(tb testing.TB) []byte {
	tb.Helper()
	src, err := BundledSource(BundledGame)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := src.Data()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestBundledIsValid(t *testing.T) {
	def, diags := testPack.load("drone-lanes.json", bundledData(t))
	if def == nil || len(diags) > 0 {
		t.Fatalf("the bundled game has problems:\n%s", diags.String())
	}
	if got := len(def.Drones); got != 15 {
		t.Errorf("%d drones, want the plan's 15", got)
	}
	for _, name := range []string{"Signal Beacon", "War Machine", "Scanner", "Specter", "Osiris", "Odin", "Thor", "Firefly",
		"Gladiator", "Threat Transmitter", "Rally Beacon", "Proximity Mine", "Inhibitor Mine", "Jitter Mine", "Anansi"} {
		if def.Drone(name) == nil {
			t.Errorf("no drone %s", name)
		}
	}
	for _, id := range []string{"Deploy_Proximity_Mine", "Deploy_Inhibitor_Mine", "Deploy_Jitter_Mine", "Deploy_Rally_Beacon"} {
		if c := def.Card(id); c == nil {
			t.Errorf("no card %s", id)
		} else if strings.Contains(id, "Mine") && c.SubType != "Mine" {
			t.Errorf("%s has subType %q, want Mine", id, c.SubType)
		}
	}
}

// TestPublishedSchema: docs/schema holds the schema the game is checked
// with (copy games/lanes/lanes-1.schema.json there after changing it).
func TestPublishedSchema(t *testing.T) {
	doc, err := os.ReadFile("../../docs/schema/lanes-1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, testPack.Schemas()[0].Data) {
		t.Error("docs/schema/lanes-1.schema.json differs from games/lanes/lanes-1.schema.json")
	}
}

// edit returns the bundled game file changed by fn, as JSON.
func edit(t testing.TB, fn func(g map[string]any)) []byte {
	t.Helper()
	var g map[string]any
	if err := json.Unmarshal(bundledData(t), &g); err != nil {
		t.Fatal(err)
	}
	fn(g)
	out, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func drone(g map[string]any, name string) map[string]any {
	for _, d := range g["drones"].([]any) {
		if d := d.(map[string]any); d["name"] == name {
			return d
		}
	}
	panic(name)
}

func ability(g map[string]any, name string) map[string]any {
	return drone(g, name)["abilities"].([]any)[0].(map[string]any)
}

func card(g map[string]any, id string) map[string]any {
	for _, c := range g["cards"].([]any) {
		if c := c.(map[string]any); c["id"] == id {
			return c
		}
	}
	panic(id)
}

// TestLoadErrors: each broken file gives a diagnostic at the right place
// that says how to fix it.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name    string
		data    func(t *testing.T) []byte
		pointer string
		message string
	}{
		{"syntax", func(*testing.T) []byte { return []byte("{\"game\": \"lanes\",\n  \"version\": 1,,\n}") },
			"", "invalid JSON: invalid character ','"},
		{"trailing data", func(t *testing.T) []byte { return append(bytes.Clone(bundledData(t)), "{}"...) },
			"", "invalid JSON: more data after the end of the document"},
		{"misspelt trigger", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { ability(g, "Odin")["trigger"] = "ON_CARD_DRAW" })
		}, "/drones/5/abilities/0/trigger", "unknown trigger ON_CARD_DRAW (did you mean ON_CARD_DRAWN?)"},
		{"trigger name in lower case", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { ability(g, "Odin")["trigger"] = "on_card_drawn" })
		}, "/drones/5/abilities/0/trigger", `not "on_card_drawn" (did you mean ON_CARD_DRAWN?); or declare it in triggerTypes`},
		{"owner on a self trigger", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { ability(g, "Osiris")["triggerOwner"] = "CONTROLLER" })
		}, "/drones/4/abilities/0/triggerOwner", "ON_MOVE is a self trigger"},
		{"lane trigger without owner", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { delete(ability(g, "Proximity Mine"), "triggerOwner") })
		}, "/drones/11/abilities/0", "triggerOwner LANE_OWNER, LANE_ENEMY or ANY"},
		{"lane owner on a player trigger", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { ability(g, "Thor")["triggerOwner"] = "LANE_OWNER" })
		}, "/drones/6/abilities/0/triggerOwner", "CONTROLLER, OPPONENT or ANY, not LANE_OWNER"},
		{"misspelt owner", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { ability(g, "Jitter Mine")["triggerOwner"] = "LANE_OWNR" })
		}, "/drones/13/abilities/0/triggerOwner", "(did you mean LANE_OWNER?)"},
		{"misspelt effect field", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				e := ability(g, "Proximity Mine")["effects"].([]any)[0].(map[string]any)
				e["valeu"] = e["value"]
			})
		}, "/drones/11/abilities/0/effects/0/valeu", `unknown member "valeu" (did you mean value?)`},
		{"unknown effect", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				card(g, "Intel_Report")["effects"].([]any)[0].(map[string]any)["type"] = "DRAWW"
			})
		}, "/cards/6/effects/0/type", "(did you mean DRAW?)"},
		{"unknown token", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				card(g, "Deploy_Proximity_Mine")["effects"].([]any)[0].(map[string]any)["tokenName"] = "Proximty Mine"
			})
		}, "/cards/0/effects/0/tokenName", `no drone named "Proximty Mine" (did you mean Proximity Mine?)`},
		{"token that is not a token", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				card(g, "Deploy_Proximity_Mine")["effects"].([]any)[0].(map[string]any)["tokenName"] = "Odin"
			})
		}, "/cards/0/effects/0/tokenName", "Odin is not a token"},
		{"unknown squad drone", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				r := g["rules"].(map[string]any)
				r["squad"] = append(r["squad"].([]any), "Odinn")
			})
		}, "/rules/squad/11", `no drone named "Odinn" (did you mean Odin?)`},
		{"token in the squad", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				r := g["rules"].(map[string]any)
				r["squad"] = append(r["squad"].([]any), "Proximity Mine")
			})
		}, "/rules/squad/11", "is a token"},
		{"too many copies", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				g["rules"].(map[string]any)["deck"].([]any)[2].(map[string]any)["count"] = 3
			})
		}, "/rules/deck/2/count", "at most 2 of Deploy_Proximity_Mine"},
		{"duplicate drone", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { drone(g, "Thor")["name"] = "Odin" })
		}, "/drones/6/name", `a drone named "Odin" is already defined at /drones/5`},
		{"card filter on another trigger", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				ability(g, "Odin")["triggerFilter"] = map[string]any{"cardSubType": "Mine"}
			})
		}, "/drones/5/abilities/0/triggerFilter", "filter ON_CARD_PLAY only"},
		{"scaling without an amount", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { ability(g, "Osiris")["scalingDivisor"] = 2 })
		}, "/drones/4/abilities/0/scalingDivisor", "carry no amount"},
		{"conditional effects off ON_ATTACK", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				ability(g, "Osiris")["conditionalEffects"] = ability(g, "Threat Transmitter")["conditionalEffects"]
			})
		}, "/drones/4/abilities/0/conditionalEffects/0", "need trigger ON_ATTACK"},
		{"a card with TRIGGERING_DRONE", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				card(g, "Laser_Blast")["effects"].([]any)[0].(map[string]any)["scope"] = "TRIGGERING_DRONE"
			})
		}, "/cards/4/effects/0/scope", "a card has none: use TARGET or LANE_ENEMIES"},
		{"an ability with TARGET", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				ability(g, "Proximity Mine")["effects"].([]any)[0].(map[string]any)["scope"] = "TARGET"
			})
		}, "/drones/11/abilities/0/effects/0/scope", "an ability has none"},
		{"a move in an ability", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				ability(g, "Osiris")["effects"] = []any{map[string]any{"type": "SINGLE_MOVE"}}
			})
		}, "/drones/4/abilities/0/effects/0/type", "SINGLE_MOVE is a card effect"},
		{"multi-move with company", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				c := card(g, "Reposition")
				c["effects"] = append(c["effects"].([]any), map[string]any{"type": "DRAW", "value": 1})
			})
		}, "/cards/9/effects/0", "MULTI_MOVE must be its card's only effect"},
		{"declared type clashes", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				g["triggerTypes"] = []any{map[string]any{"name": "ON_MOVE", "category": "SELF", "firedBy": map[string]any{"statRaised": "attack"}}}
			})
		}, "/triggerTypes/0/name", "ON_MOVE is a built-in trigger type"},
		{"squad and squads", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				r := g["rules"].(map[string]any)
				r["squads"] = []any{r["squad"], r["squad"]}
			})
		}, "/rules/squads", "either squad (both players') or squads (one per player), not both"},
		{"one deck of two", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				r := g["rules"].(map[string]any)
				r["decks"] = []any{r["deck"]}
				delete(r, "deck")
			})
		}, "/rules/decks", "at least 2"},
		{"no deck", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { delete(g["rules"].(map[string]any), "deck") })
		}, "/rules", "deck (both players') or decks (one per player)"},
		{"unknown card in a player's deck", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				r := g["rules"].(map[string]any)
				r["decks"] = []any{r["deck"], []any{map[string]any{"card": "Laser_Blats", "count": 1}}}
				delete(r, "deck")
			})
		}, "/rules/decks/1/0/card", `no card with id "Laser_Blats" (did you mean Laser_Blast?)`},
		{"token in a player's squad", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) {
				r := g["rules"].(map[string]any)
				r["squads"] = []any{r["squad"], []any{"Odin", "Jitter Mine"}}
				delete(r, "squad")
			})
		}, "/rules/squads/1/1", "is a token"},
		{"wrong game", func(t *testing.T) []byte {
			return edit(t, func(g map[string]any) { g["version"] = 2 })
		}, "/version", "must be 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data(t)
			def, diags := testPack.load("game.json", data)
			if def != nil {
				t.Fatal("the broken file loaded")
			}
			for _, d := range diags {
				if d.Severity == diag.Error && d.Pointer == tc.pointer && strings.Contains(d.Message, tc.message) {
					if d.Line == 0 {
						t.Errorf("no position: %s", d)
					}
					loc := diag.NewLocator(data)
					if line, _ := loc.Find(tc.pointer); tc.pointer != "" && line != d.Line {
						t.Errorf("line %d, want %d: %s", d.Line, line, d)
					}
					return
				}
			}
			t.Errorf("no error at %q containing %q; got:\n%s", tc.pointer, tc.message, diags.String())
		})
	}
}

// TestAllErrorsAtOnce: schema errors and the checks beyond the schema are
// reported together, each once.
func TestAllErrorsAtOnce(t *testing.T) {
	data := edit(t, func(g map[string]any) {
		ability(g, "Odin")["trigger"] = "ON_CARD_DRAW"                                   // semantic
		ability(g, "Jitter Mine")["triggerOwner"] = "LANE_OWNR"                          // schema
		card(g, "Intel_Report")["effects"].([]any)[0].(map[string]any)["type"] = "DRAWW" // schema (and semantic, silenced)
	})
	_, diags := testPack.load("game.json", data)
	if len(diags) != 3 {
		t.Errorf("%d diagnostics, want 3:\n%s", len(diags), diags.String())
	}
}

// TestSchemaBoundsStrings: the schema bounds every string as the loader
// does.
func TestSchemaBoundsStrings(t *testing.T) {
	gametest.CheckSchemaStrings(t, schemaJSON, stringLimits)
}

// TestStringLimits: a string longer than its member's limit is one error
// at its place that says the limit; the longest strings allowed load.
func TestStringLimits(t *testing.T) {
	for _, c := range []struct {
		name, desc, want string
	}{
		{strings.Repeat("é", maxName), strings.Repeat("x", maxText), ""},
		{strings.Repeat("é", maxName+1), "", "/name: must be at most 100 characters long, not 101"},
		{"x", strings.Repeat("x", maxText+1), "/description: must be at most 2000 characters long, not 2001"},
	} {
		data := edit(t, func(g map[string]any) { g["name"], g["description"] = c.name, c.desc })
		def, list := testPack.load("game.json", data)
		if c.want == "" {
			if def == nil {
				t.Error(list.String())
			}
			continue
		}
		if def != nil || len(list) != 1 || !strings.Contains(list[0].String(), c.want) {
			t.Errorf("got\n%s\nwant one error: %s", list.String(), c.want)
		}
	}
}
