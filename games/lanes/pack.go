// Package lanes is the drone lane card game: two players, three lanes,
// drones whose abilities are triggers, played through the game interface
// (package game). docs/lanes.md describes the rules, the file format and
// the commands.
package lanes

import (
	"fmt"
	"io/fs"
	"sync"

	"github.com/tabulagames/tabula/diag"
	examplefiles "github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game"
)

// BundledGame is the bundled game, in examples.Lanes: the drones and cards
// of the original game's trigger plan. Scenario files that name no game
// file are played with it.
const BundledGame = "drone-lanes.json"

// bundledLabel is the folder diagnostics name the bundled games in.
const bundledLabel = "examples/lanes"

// Pack is the lanes game pack. It holds the registry of the game's effects
// and the compiled schemas, built once by NewPack and shared, read only,
// by every game it loads; it is safe for use by many goroutines.
type Pack struct {
	fx        *effectSet
	full, ext *diag.Schema
	bundled   func() (*Definition, error)
}

// NewPack returns the lanes pack.
func NewPack() *Pack {
	p := &Pack{fx: newEffectSet()}
	p.full, p.ext = compileSchemas()
	p.bundled = sync.OnceValues(func() (*Definition, error) { return p.loadBundled(BundledGame) })
	return p
}

// Name is "lanes".
func (p *Pack) Name() string { return "lanes" }

// Detect claims files whose "game" is "lanes".
func (p *Pack) Detect(src *game.Source) bool {
	if src.IsDir() {
		return false
	}
	data, err := src.Data()
	return err == nil && detect(data)
}

// Load reads and checks a lanes game file.
func (p *Pack) Load(src *game.Source) (game.Definition, diag.List) {
	def, list := p.LoadDefinition(src)
	if def == nil {
		return nil, list
	}
	return def, list
}

// LoadDefinition is Load with the definition's own type.
func (p *Pack) LoadDefinition(src *game.Source) (*Definition, diag.List) {
	data, err := src.Data()
	if err != nil {
		return nil, diag.List{{File: src.Name(), Severity: diag.Error, Message: err.Error()}}
	}
	return p.read(src.Context(), src.Name(), data)
}

// LoadFile loads a game file on disk (for tests and tools).
func (p *Pack) LoadFile(path string) (*Definition, diag.List) {
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		return nil, diag.List{{File: path, Severity: diag.Error, Message: err.Error()}}
	}
	return p.LoadDefinition(src)
}

// Schemas is the schema of lanes game files, as `tabula schema lanes`
// prints it (docs/schema/lanes-1.schema.json).
func (p *Pack) Schemas() []game.Schema {
	return []game.Schema{{Name: SchemaName, Data: schemaJSON}}
}

// Bundled returns the bundled game (BundledGame), loaded once.
func (p *Pack) Bundled() (*Definition, error) { return p.bundled() }

// BundledSource returns the source of a bundled game (a file name in
// examples.Lanes), named as in the repository.
func BundledSource(name string) (*game.Source, error) {
	data, err := fs.ReadFile(examplefiles.Lanes, "lanes/"+name)
	if err != nil {
		return nil, fmt.Errorf("no bundled lanes game %q", name)
	}
	return game.FromBytes(bundledLabel+"/"+name, data, game.Limits{})
}

func (p *Pack) loadBundled(name string) (*Definition, error) {
	src, err := BundledSource(name)
	if err != nil {
		return nil, err
	}
	def, list := p.LoadDefinition(src)
	if def == nil {
		return nil, fmt.Errorf("the bundled game is invalid:\n%s", list.String())
	}
	return def, nil
}

// Info describes the game: two players, its round limit and its size.
func (d *Definition) Info() game.Info {
	return game.Info{Pack: "lanes", Name: d.Name, Description: d.Description, HowToPlay: d.HowToPlay, MinPlayers: 2, MaxPlayers: 2,
		DefaultMaxRounds: d.Rules.MaxRounds, Size: fmt.Sprintf("%d drones, %d cards", len(d.Drones), len(d.Cards))}
}

// Drawing is what the page shows of the game besides a match: the ship
// sections, and the drones and cards with their texts, for the tooltips of
// the board and the hand. It reveals nothing of a match.
func (d *Definition) Drawing() any {
	type ability struct {
		Name        string `json:"name"`
		Trigger     string `json:"trigger"`
		Description string `json:"description"`
	}
	type drone struct {
		Name        string    `json:"name"`
		Description string    `json:"description,omitempty"`
		Class       int       `json:"class"`
		Attack      int       `json:"attack"`
		Hull        int       `json:"hull"`
		Shields     int       `json:"shields"`
		Speed       int       `json:"speed"`
		Token       bool      `json:"token,omitempty"`
		Keywords    []string  `json:"keywords,omitempty"`
		Abilities   []ability `json:"abilities"`
	}
	type section struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Hull        int    `json:"hull"`
		Shields     int    `json:"shields"`
	}
	out := struct {
		Lanes    int        `json:"lanes"`
		Sections []section  `json:"sections"`
		Drones   []drone    `json:"drones"`
		Cards    []CardView `json:"cards"`
	}{Lanes: Lanes, Sections: []section{}, Drones: []drone{}, Cards: []CardView{}}
	for _, s := range d.Rules.Sections {
		out.Sections = append(out.Sections, section{s.Name, s.Description, s.Hull, s.Shields})
	}
	for _, k := range d.Drones {
		dv := drone{Name: k.Name, Description: k.Description, Class: k.Class, Attack: k.Attack, Hull: k.Hull, Shields: k.Shields,
			Speed: k.Speed, Token: k.Token, Keywords: k.Keywords, Abilities: []ability{}}
		for i, ab := range k.Abilities {
			desc := ab.Description
			if i < len(k.triggers) && desc == "" {
				desc = k.triggers[i].Data.(*abilityInfo).Description
			}
			dv.Abilities = append(dv.Abilities, ability{ab.Name, ab.Trigger, desc})
		}
		out.Drones = append(out.Drones, dv)
	}
	for _, c := range d.Cards {
		out.Cards = append(out.Cards, cardView(c))
	}
	return out
}

// What the pack offers through the game interface.
var (
	_ game.Pack       = (*Pack)(nil)
	_ game.Definition = (*Definition)(nil)
	_ game.Match      = (*Match)(nil)
	_ game.Botter     = (*Match)(nil)
	_ game.Texter     = (*Match)(nil)
	_ game.Parser     = (*Match)(nil)
	_ game.Tallier    = (*Match)(nil)
)
