package lanes

import (
	"encoding/json"

	"github.com/tabulagames/tabula/engine"
)

// Definition is a lanes game loaded from a game file: its rules, drones,
// cards and extra trigger types, with every ability compiled into engine
// triggers. It is immutable once loaded and shared by every match played
// with it.
type Definition struct {
	// File is where the game was loaded from.
	File        string
	Name        string
	Description string
	// HowToPlay tells players how the game is played, if the file says.
	HowToPlay string
	Rules     Rules
	// TriggerTypes are the trigger types the file adds to the built-in ones.
	TriggerTypes []*TriggerType
	Drones       []*DroneDef
	Cards        []*CardDef

	pack  *Pack
	rules *engine.Rules
	// squads are the drones each player may deploy, by seat.
	squads [2][]*DroneDef
	// decks are the players' decks as card indexes, in the order the file
	// lists them, by seat.
	decks  [2][]int
	raised [numModStats][]engine.EventType
	lower  [numModStats][]engine.EventType
}

// Rules are the game's rules: the ship, victory, round limit, squads and
// decks.
type Rules struct {
	// Sections are the three ship sections in lane order.
	Sections []*SectionDef `json:"sections"`
	Victory  struct {
		DamagePercent int `json:"damagePercent"`
	} `json:"victory"`
	// MaxRounds ends the game after that many rounds (0: no limit).
	MaxRounds int `json:"maxRounds"`
	// Squad names the drones both players may deploy; Squads, if given
	// instead, each player's, in seat order.
	Squad  []string   `json:"squad,omitempty"`
	Squads [][]string `json:"squads,omitempty"`
	// Deck lists the cards of both players' decks with counts; Decks, if
	// given instead, each player's, in seat order.
	Deck  []DeckEntry   `json:"deck,omitempty"`
	Decks [][]DeckEntry `json:"decks,omitempty"`
}

// DeckEntry is a card of the deck and how many copies it has.
type DeckEntry struct {
	Card  string `json:"card"`
	Count int    `json:"count"`
}

// SectionDef is a ship section: its hull and shields, the thresholds of its
// damaged and critical states, and what it gives the ship in each state.
type SectionDef struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Hull        int    `json:"hull"`
	Shields     int    `json:"shields"`
	Thresholds  struct {
		Damaged  int `json:"damaged"`
		Critical int `json:"critical"`
	} `json:"thresholds"`
	Stats struct {
		Healthy  ShipStats `json:"healthy"`
		Damaged  ShipStats `json:"damaged"`
		Critical ShipStats `json:"critical"`
	} `json:"stats"`
	MiddleLaneBonus ShipStats `json:"middleLaneBonus"`
}

// ShipStats are the numbers a ship's sections add up to.
type ShipStats struct {
	EnergyPerRound    int `json:"energyPerRound"`
	MaxEnergy         int `json:"maxEnergy"`
	HandLimit         int `json:"handLimit"`
	DeploymentBudget  int `json:"deploymentBudget"`
	InitialDeployment int `json:"initialDeployment"`
	CPULimit          int `json:"cpuLimit"`
}

func (a ShipStats) add(b ShipStats) ShipStats {
	return ShipStats{
		EnergyPerRound: a.EnergyPerRound + b.EnergyPerRound, MaxEnergy: a.MaxEnergy + b.MaxEnergy,
		HandLimit: a.HandLimit + b.HandLimit, DeploymentBudget: a.DeploymentBudget + b.DeploymentBudget,
		InitialDeployment: a.InitialDeployment + b.InitialDeployment, CPULimit: a.CPULimit + b.CPULimit,
	}
}

// TriggerType is a trigger type a game file adds, such as ON_POWER_GAIN,
// and the game event that fires it.
type TriggerType struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Category is SELF, CONTROLLER or LANE: it says which owners and
	// scopes abilities on this type may use.
	Category string `json:"category"`
	FiredBy  struct {
		StatRaised  string `json:"statRaised"`
		StatLowered string `json:"statLowered"`
	} `json:"firedBy"`
	ptr string
}

// DroneDef is a kind of drone: its stats and abilities.
type DroneDef struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Class is the CPU cost of deploying the drone.
	Class        int     `json:"class"`
	Attack       int     `json:"attack"`
	Hull         int     `json:"hull"`
	Shields      int     `json:"shields"`
	Speed        int     `json:"speed"`
	Rarity       string  `json:"rarity"`
	Limit        int     `json:"limit"`
	RebuildRate  float64 `json:"rebuildRate"`
	UpgradeSlots int     `json:"upgradeSlots"`
	Selectable   *bool   `json:"selectable"`
	// Token drones are created by cards; they ignore the CPU limit.
	Token      bool       `json:"token"`
	MaxPerLane int        `json:"maxPerLane"`
	Keywords   []string   `json:"keywords"`
	Abilities  []*Ability `json:"abilities"`

	// Inert drones cannot move or attack; Passive ones do not shield the
	// ship section behind them.
	Inert, Passive bool
	index          int
	triggers       []*engine.Trigger
	ptr            string
}

// Ability is a triggered ability: when its trigger fires, its effects run.
type Ability struct {
	Name                string              `json:"name"`
	Description         string              `json:"description"`
	Type                string              `json:"type"`
	Trigger             string              `json:"trigger"`
	TriggerOwner        string              `json:"triggerOwner"`
	TriggerScope        string              `json:"triggerScope"`
	TriggerFilter       *TriggerFilter      `json:"triggerFilter"`
	Effects             []json.RawMessage   `json:"effects"`
	DestroyAfterTrigger bool                `json:"destroyAfterTrigger"`
	ScalingDivisor      int                 `json:"scalingDivisor"`
	GrantsGoAgain       bool                `json:"grantsGoAgain"`
	ConditionalEffects  []ConditionalEffect `json:"conditionalEffects"`
}

// TriggerFilter narrows the events an ability reacts to.
type TriggerFilter struct {
	CardType        string      `json:"cardType"`
	CardSubType     string      `json:"cardSubType"`
	DroneStatFilter *StatFilter `json:"droneStatFilter"`
}

// StatFilter compares a stat of the event's drone with a value.
type StatFilter struct {
	Stat       string `json:"stat"`
	Comparator string `json:"comparator"`
	Value      int    `json:"value"`
}

// ConditionalEffect is an effect an ON_ATTACK ability grants when the
// attack's result meets a condition.
type ConditionalEffect struct {
	Timing        string          `json:"timing"`
	Condition     string          `json:"condition"`
	GrantedEffect json.RawMessage `json:"grantedEffect"`
}

// CardDef is a card: its type, cost, targeting and effects.
type CardDef struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Type        string `json:"type"`
	SubType     string `json:"subType"`
	Cost        int    `json:"cost"`
	Rarity      string `json:"rarity"`
	MaxInDeck   int    `json:"maxInDeck"`
	GoAgain     bool   `json:"goAgain"`
	Targeting   struct {
		Type     string `json:"type"`
		Affinity string `json:"affinity"`
	} `json:"targeting"`
	Effects []json.RawMessage `json:"effects"`

	index int
	calls []engine.EffectCall
	// moves is the MULTI_MOVE effect's count, 0 for other cards.
	moves int
	ptr   string
	// key is how commands name the card: its name, or its id when another
	// card has the same name.
	key string
}

// Drone returns the drone kind with the given name, or nil.
func (d *Definition) Drone(name string) *DroneDef {
	for _, k := range d.Drones {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// Card returns the card with the given id or name, or nil.
func (d *Definition) Card(idOrName string) *CardDef {
	for _, c := range d.Cards {
		if c.ID == idOrName {
			return c
		}
	}
	for _, c := range d.Cards {
		if c.Name == idOrName {
			return c
		}
	}
	return nil
}

// Squad returns the drones a seat may deploy.
func (d *Definition) Squad(seat int) []*DroneDef { return d.squads[seat] }

// fileData is a game file as decoded, before checks.
type fileData struct {
	Schema       string         `json:"$schema"`
	Game         string         `json:"game"`
	Version      int            `json:"version"`
	Name         string         `json:"name"`
	Description  string         `json:"description"`
	HowToPlay    string         `json:"howToPlay"`
	Notes        string         `json:"notes"`
	Rules        Rules          `json:"rules"`
	TriggerTypes []*TriggerType `json:"triggerTypes"`
	Drones       []*DroneDef    `json:"drones"`
	Cards        []*CardDef     `json:"cards"`
}

// extension is what a scenario adds to a game.
type extension struct {
	TriggerTypes []*TriggerType `json:"triggerTypes"`
	Drones       []*DroneDef    `json:"drones"`
	Cards        []*CardDef     `json:"cards"`
}

// setPointers records where each item is, for diagnostics.
func setPointers(prefix string, types []*TriggerType, drones []*DroneDef, cards []*CardDef) {
	for i, t := range types {
		t.ptr = prefix + "/triggerTypes/" + itoa(i)
	}
	for i, d := range drones {
		d.ptr = prefix + "/drones/" + itoa(i)
	}
	for i, c := range cards {
		c.ptr = prefix + "/cards/" + itoa(i)
	}
}

// merge adds an extension's items to a game file's: an item with the name
// (or card id) of an existing one replaces it.
func (f *fileData) merge(x *extension) {
	for _, t := range x.TriggerTypes {
		f.TriggerTypes = replaceOrAppend(f.TriggerTypes, t, func(a *TriggerType) bool { return a.Name == t.Name })
	}
	for _, d := range x.Drones {
		f.Drones = replaceOrAppend(f.Drones, d, func(a *DroneDef) bool { return a.Name == d.Name })
	}
	for _, c := range x.Cards {
		f.Cards = replaceOrAppend(f.Cards, c, func(a *CardDef) bool { return a.ID == c.ID })
	}
}

func replaceOrAppend[T any](list []T, v T, same func(T) bool) []T {
	for i, a := range list {
		if same(a) {
			list[i] = v
			return list
		}
	}
	return append(list, v)
}
