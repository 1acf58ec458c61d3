package lanes

import (
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// View is what a seat (or a spectator) sees of a match, ready for JSON:
// the board, both ships, the viewer's own hand face up, and of everything
// else hidden (the other hand, the decks, the discard piles) only counts.
type View struct {
	Game string `json:"game"`
	// You is the viewer's seat, or -1 for a spectator.
	You   int    `json:"you"`
	Round int    `json:"round"`
	Phase string `json:"phase"`
	// Turn is the seat whose turn it is, -1 once the game is over; First
	// the seat that went first this round.
	Turn      int `json:"turn"`
	First     int `json:"first"`
	MaxRounds int `json:"maxRounds"`
	// DamageToLose is the ship damage at which a player loses.
	DamageToLose int          `json:"damageToLose"`
	Players      []PlayerView `json:"players"`
	Outcome      game.Outcome `json:"outcome"`
	Hash         string       `json:"hash"`
}

// PlayerView is one side of the table.
type PlayerView struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	// Energy, Budget (what is left of this round's deployment budget) and
	// what the ship's sections give now.
	Energy         int  `json:"energy"`
	MaxEnergy      int  `json:"maxEnergy"`
	EnergyPerRound int  `json:"energyPerRound"`
	Budget         int  `json:"budget"`
	CPU            int  `json:"cpu"`
	CPULimit       int  `json:"cpuLimit"`
	HandLimit      int  `json:"handLimit"`
	Threat         int  `json:"threat"`
	Passed         bool `json:"passed"`
	// Damage is the damage the ship has taken.
	Damage int `json:"damage"`
	// Hand is the viewer's own hand, face up; null for the other seat and
	// for a spectator. The counts are everybody's.
	Hand         []CardView `json:"hand"`
	HandCount    int        `json:"handCount"`
	DeckCount    int        `json:"deckCount"`
	DiscardCount int        `json:"discardCount"`
	// Sections are the ship's sections, in lane order.
	Sections []SectionView `json:"sections"`
	// Lanes are the player's three lanes, each with its drones left to
	// right.
	Lanes [Lanes][]DroneView `json:"lanes"`
}

// SectionView is a ship section.
type SectionView struct {
	Name       string `json:"name"`
	Lane       int    `json:"lane"`
	Hull       int    `json:"hull"`
	MaxHull    int    `json:"maxHull"`
	Shields    int    `json:"shields"`
	MaxShields int    `json:"maxShields"`
	// Status is healthy, damaged or critical.
	Status string `json:"status"`
}

// DroneView is a drone on the board.
type DroneView struct {
	// Name is the drone's label, as commands and the log name it ("Odin
	// 2"); Kind its kind's name ("Odin").
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Lane       int    `json:"lane"`
	Attack     int    `json:"attack"`
	Hull       int    `json:"hull"`
	MaxHull    int    `json:"maxHull"`
	Shields    int    `json:"shields"`
	MaxShields int    `json:"maxShields"`
	Speed      int    `json:"speed"`
	Class      int    `json:"class"`
	Exhausted  bool   `json:"exhausted"`
	Marked     bool   `json:"marked"`
	Token      bool   `json:"token"`
	// Inert drones cannot move or attack; passive ones do not guard the
	// section behind them.
	Inert     bool      `json:"inert"`
	Passive   bool      `json:"passive"`
	Modifiers []ModView `json:"modifiers"`
}

// ModView is a stat modifier: temporary ones end when the next round
// starts.
type ModView struct {
	Stat      string `json:"stat"`
	Value     int    `json:"value"`
	Temporary bool   `json:"temporary"`
}

// CardView is a card.
type CardView struct {
	// Name is how commands name the card (its name, or its id where two
	// cards share a name); Title its name as printed.
	Name    string `json:"name"`
	Title   string `json:"title"`
	Type    string `json:"type"`
	SubType string `json:"subType,omitempty"`
	Cost    int    `json:"cost"`
	Text    string `json:"text"`
	GoAgain bool   `json:"goAgain,omitempty"`
	// Targeting is NONE, LANE, DRONE or DRONES; Affinity FRIENDLY, ENEMY
	// or ANY; Moves, for DRONES, how many drones it moves at most.
	Targeting string `json:"targeting"`
	Affinity  string `json:"affinity,omitempty"`
	Moves     int    `json:"moves,omitempty"`
	// MovesTarget is set when the card moves its target drone (a "to"
	// lane is then needed).
	MovesTarget bool `json:"movesTarget,omitempty"`
}

func cardView(c *CardDef) CardView {
	return CardView{Name: c.key, Title: c.Name, Type: c.Type, SubType: c.SubType, Cost: c.Cost, Text: c.Description,
		GoAgain: c.GoAgain, Targeting: c.Targeting.Type, Affinity: c.Targeting.Affinity, Moves: c.moves, MovesTarget: hasMove(c)}
}

// Secret reports whether the seat's view shows what the other may not:
// its own hand, face up.
func (m *Match) Secret(seat int) bool {
	return (seat == 0 || seat == 1) && len(m.s.Players[seat].Hand) > 0
}

// View is what a seat, or a spectator (game.Spectator), sees now.
func (m *Match) View(seat int) any { return m.view(seat) }

func (m *Match) view(seat int) *View {
	s := m.s
	if seat != 0 && seat != 1 {
		seat = game.Spectator
	}
	v := &View{Game: "lanes", You: seat, Round: s.Round, Phase: s.Phase.String(), Turn: int(s.Turn), First: int(s.First),
		MaxRounds: s.MaxRounds, DamageToLose: s.damageToLose(), Outcome: m.Outcome(), Hash: m.Hash()}
	if s.Phase == PhaseOver {
		v.Turn = -1
	}
	for p := range engine.PlayerID(2) {
		pl := &s.Players[p]
		st := s.Stats(p)
		pv := PlayerView{Seat: int(p), Name: pl.Name, Energy: pl.Energy, MaxEnergy: st.MaxEnergy, EnergyPerRound: st.EnergyPerRound,
			Budget: pl.Budget, CPU: s.onBoard(p), CPULimit: st.CPULimit, HandLimit: st.HandLimit, Threat: pl.Threat,
			Passed: s.Passed[p], Damage: s.ShipDamage(p), HandCount: len(pl.Hand), DeckCount: len(pl.Deck), DiscardCount: len(pl.Discard)}
		if int(p) == seat {
			pv.Hand = []CardView{}
			for _, ci := range pl.Hand {
				pv.Hand = append(pv.Hand, cardView(m.def.Cards[ci]))
			}
		}
		for i := range pl.Sections {
			sec := &pl.Sections[i]
			pv.Sections = append(pv.Sections, SectionView{Name: sec.Def.Name, Lane: i + 1, Hull: sec.Hull, MaxHull: sec.Def.Hull,
				Shields: sec.Shields, MaxShields: sec.Def.Shields, Status: sec.StatusName()})
		}
		for lane, ids := range pl.Lanes {
			pv.Lanes[lane] = []DroneView{}
			for _, id := range ids {
				pv.Lanes[lane] = append(pv.Lanes[lane], droneView(s.Drone(id)))
			}
		}
		v.Players = append(v.Players, pv)
	}
	return v
}

func droneView(d *Drone) DroneView {
	k := d.Kind
	dv := DroneView{Name: d.Label, Kind: k.Name, Lane: d.Lane, Attack: d.Attack(), Hull: d.Hull, MaxHull: k.Hull,
		Shields: d.Shields, MaxShields: d.MaxShields(), Speed: d.Speed(), Class: k.Class, Exhausted: d.Exhausted,
		Marked: d.Marked, Token: k.Token, Inert: k.Inert, Passive: k.Passive, Modifiers: []ModView{}}
	for _, mod := range d.Mods {
		dv.Modifiers = append(dv.Modifiers, ModView{Stat: mod.Stat.String(), Value: mod.Value, Temporary: mod.Temporary})
	}
	return dv
}
