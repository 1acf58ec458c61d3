package lanes

import (
	"encoding/binary"
	"slices"

	"github.com/tabulagames/tabula/engine"
)

// Lanes is the number of lanes.
const Lanes = 3

// State is the state of one lanes match. Only the game's effects change it,
// in place.
type State struct {
	def     *Definition
	Players [2]Player
	// Drones are every drone the match has had, destroyed ones included,
	// by entity id: drone i has id FirstDrone+i.
	Drones []Drone
	Round  int
	// MaxRounds ends the match after that many rounds (0: no limit).
	MaxRounds int
	Phase     Phase
	// First is the player who acts first this round; Turn whose turn it is.
	First, Turn engine.PlayerID
	Passed      [2]bool
	// FirstPasser is the first player to pass in this round's action phase:
	// they go first next round.
	FirstPasser engine.PlayerID
	// GoAgain is set by GO_AGAIN during a command: its player acts again.
	GoAgain bool
	// NeedRound is set when both players passed the action phase.
	NeedRound bool
	// Winner is the winner once Phase is PhaseOver (NoPlayer: a draw).
	Winner engine.PlayerID
	// Order counts arrivals in lanes; it orders drones left to right.
	Order int64
	// Play is the card being played.
	Play cardPlay

	scratch []engine.EntityID // effects' working list of drones
}

// FirstDrone is the entity id of the first drone; ids below it are ship
// sections (player p's section i has id 1+3p+i).
const FirstDrone engine.EntityID = 1 + 2*Lanes

// Player is one side of the match.
type Player struct {
	Name   string
	Energy int
	// Budget is what is left of this round's deployment budget.
	Budget int
	Threat int
	// Deck (top first), Hand and Discard hold card indexes into the
	// definition's Cards.
	Deck, Hand, Discard []int
	// Lanes hold the drones on this player's board, left to right.
	Lanes    [Lanes][]engine.EntityID
	Sections [Lanes]Section
	// Drawn and EnergyGained count cards drawn and energy gained during
	// the match.
	Drawn, EnergyGained int
}

// Section is a ship section in play.
type Section struct {
	Def     *SectionDef
	Hull    int
	Shields int
}

// Drone is a drone in play (or destroyed).
type Drone struct {
	ID    engine.EntityID
	Kind  *DroneDef
	Owner engine.PlayerID
	// Label is the drone's name in logs: its kind's name, numbered from
	// the second drone of a kind on.
	Label string
	// Lane is 1..3: where the drone is, or was when destroyed.
	Lane      int
	Hull      int
	Shields   int
	Exhausted bool
	Marked    bool
	Destroyed bool
	Mods      []Mod
	// Drew and EnergyGained count what the drone's abilities caused.
	Drew, EnergyGained int
}

// Mod is a stat modifier; temporary ones end when the next round starts.
type Mod struct {
	Stat      Stat
	Value     int
	Temporary bool
}

// cardPlay is the card being played and its targets.
type cardPlay struct {
	Active bool
	Card   *CardDef
	Player engine.PlayerID
	Lane   int
	Target engine.EntityID
	To     int
	Drones []engine.EntityID
	Next   int // the next drone a MULTI_MOVE moves
}

// Drone returns the drone with the given id, or nil.
func (s *State) Drone(id engine.EntityID) *Drone {
	i := int(id - FirstDrone)
	if i < 0 || i >= len(s.Drones) {
		return nil
	}
	return &s.Drones[i]
}

// live returns the drone if it is on the board.
func (s *State) live(id engine.EntityID) *Drone {
	if d := s.Drone(id); d != nil && !d.Destroyed {
		return d
	}
	return nil
}

// SectionID returns the entity id of a player's section in a lane (1..3).
func SectionID(p engine.PlayerID, lane int) engine.EntityID {
	return engine.EntityID(1 + int(p)*Lanes + lane - 1)
}

// section returns the section an entity id names.
func (s *State) section(id engine.EntityID) (engine.PlayerID, int, bool) {
	if id < 1 || id >= FirstDrone {
		return 0, 0, false
	}
	i := int(id - 1)
	return engine.PlayerID(i / Lanes), i%Lanes + 1, true
}

// EntityName names drones by label and sections as "Bridge (A)".
func (s *State) EntityName(id engine.EntityID) string {
	if p, lane, ok := s.section(id); ok {
		return s.Players[p].Sections[lane-1].Def.Name + " (" + s.Players[p].Name + ")"
	}
	if d := s.Drone(id); d != nil {
		return d.Label
	}
	return ""
}

// Attack returns a drone's attack with its modifiers.
func (d *Drone) Attack() int { return d.Kind.Attack + d.mod(StatAttack) }

// MaxShields returns a drone's shields when fully restored.
func (d *Drone) MaxShields() int { return max(0, d.Kind.Shields+d.mod(StatShields)) }

// Speed returns a drone's speed with its modifiers.
func (d *Drone) Speed() int { return d.Kind.Speed + d.mod(StatSpeed) }

func (d *Drone) mod(st Stat) int {
	n := 0
	for _, m := range d.Mods {
		if m.Stat == st {
			n += m.Value
		}
	}
	return n
}

// stat returns a stat by its name in droneStatFilter.
func (d *Drone) stat(name string) int {
	switch name {
	case "attack":
		return d.Attack()
	case "hull":
		return d.Hull
	case "shields":
		return d.Shields
	case "speed":
		return d.Speed()
	case "cpu":
		return d.Kind.Class
	}
	return 0
}

// status returns 0 (healthy), 1 (damaged) or 2 (critical).
func (sec *Section) status() int {
	switch {
	case sec.Hull <= sec.Def.Thresholds.Critical:
		return 2
	case sec.Hull <= sec.Def.Thresholds.Damaged:
		return 1
	}
	return 0
}

// StatusName returns "healthy", "damaged" or "critical".
func (sec *Section) StatusName() string {
	return [...]string{"healthy", "damaged", "critical"}[sec.status()]
}

// Stats returns what a player's ship gives them now: the sum of its
// sections' stats for their state, plus the middle lane's bonus.
func (s *State) Stats(p engine.PlayerID) ShipStats {
	var st ShipStats
	for i := range s.Players[p].Sections {
		sec := &s.Players[p].Sections[i]
		by := [...]ShipStats{sec.Def.Stats.Healthy, sec.Def.Stats.Damaged, sec.Def.Stats.Critical}
		st = st.add(by[sec.status()])
		if i == Lanes/2 {
			st = st.add(sec.Def.MiddleLaneBonus)
		}
	}
	return st
}

// ShipDamage returns the damage a player's ship has taken.
func (s *State) ShipDamage(p engine.PlayerID) int {
	n := 0
	for _, sec := range s.Players[p].Sections {
		n += sec.Def.Hull - sec.Hull
	}
	return n
}

// damageToLose returns the ship damage at which a player loses.
func (s *State) damageToLose() int {
	total := 0
	for _, sec := range s.def.Rules.Sections {
		total += sec.Hull
	}
	pct := s.def.Rules.Victory.DamagePercent
	return (total*pct + 99) / 100
}

// onBoard counts a player's drones that count against the CPU limit.
func (s *State) onBoard(p engine.PlayerID) int {
	n := 0
	for _, lane := range s.Players[p].Lanes {
		for _, id := range lane {
			if !s.Drone(id).Kind.Token {
				n++
			}
		}
	}
	return n
}

// countKind counts a player's drones of a kind, on the board or in a lane
// (lane 0: anywhere).
func (s *State) countKind(p engine.PlayerID, k *DroneDef, lane int) int {
	n := 0
	for l, ids := range s.Players[p].Lanes {
		if lane != 0 && l != lane-1 {
			continue
		}
		for _, id := range ids {
			if s.Drone(id).Kind == k {
				n++
			}
		}
	}
	return n
}

// position orders a drone among reactions: lane in the high bits, arrival
// order in the low ones, so lanes read left to right and each lane in
// the order its drones arrived.
func position(lane int, order int64) int64 { return int64(lane)<<40 | order }

// newDrone adds a drone to a lane of a player's board and places its
// triggers. It returns the new drone's id.
func (s *State) newDrone(x *engine.Index, k *DroneDef, owner engine.PlayerID, lane int) engine.EntityID {
	id := FirstDrone + engine.EntityID(len(s.Drones))
	n := 0
	for i := range s.Drones {
		if s.Drones[i].Kind.Name == k.Name {
			n++
		}
	}
	label := k.Name
	if n > 0 {
		label += " " + itoa(n+1)
	}
	s.Drones = append(s.Drones, Drone{ID: id, Kind: k, Owner: owner, Label: label, Lane: lane, Hull: k.Hull, Shields: k.Shields})
	s.Order++
	s.Players[owner].Lanes[lane-1] = append(s.Players[owner].Lanes[lane-1], id)
	for _, t := range k.triggers {
		x.Add(t, id, owner, engine.LocationID(lane), position(lane, s.Order))
	}
	return id
}

// removeFromLane takes a drone out of its lane's array.
func (s *State) removeFromLane(d *Drone) {
	lane := &s.Players[d.Owner].Lanes[d.Lane-1]
	if i := slices.Index(*lane, d.ID); i >= 0 {
		*lane = slices.Delete(*lane, i, i+1)
	}
}

// AppendCanonical encodes the whole state for the match's state hash: every
// field but the definition's own data (the drone kinds, the sections'
// rules) and what follows from the rest (a drone's id is its place).
func (s *State) AppendCanonical(b []byte) []byte {
	b = engine.AppendVarints(b, int64(s.Round), int64(s.MaxRounds), int64(s.Phase), int64(s.First), int64(s.Turn), engine.Bit(s.Passed[0]), engine.Bit(s.Passed[1]),
		int64(s.FirstPasser), engine.Bit(s.GoAgain), engine.Bit(s.NeedRound), int64(s.Winner), s.Order)
	b = s.Play.appendCanonical(b)
	for i := range s.Players {
		p := &s.Players[i]
		b = appendString(b, p.Name)
		b = engine.AppendVarints(b, int64(p.Energy), int64(p.Budget), int64(p.Threat), int64(p.Drawn), int64(p.EnergyGained))
		for _, cards := range [][]int{p.Deck, p.Hand, p.Discard} {
			b = binary.AppendUvarint(b, uint64(len(cards)))
			for _, c := range cards {
				b = binary.AppendVarint(b, int64(c))
			}
		}
		for _, lane := range p.Lanes {
			b = binary.AppendUvarint(b, uint64(len(lane)))
			for _, id := range lane {
				b = binary.AppendVarint(b, int64(id))
			}
		}
		for _, sec := range p.Sections {
			b = engine.AppendVarints(b, int64(sec.Hull), int64(sec.Shields))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.Drones)))
	for i := range s.Drones {
		d := &s.Drones[i]
		b = appendString(b, d.Label)
		b = engine.AppendVarints(b, int64(d.Kind.index), int64(d.Owner), int64(d.Lane), int64(d.Hull), int64(d.Shields),
			engine.Bit(d.Exhausted), engine.Bit(d.Marked), engine.Bit(d.Destroyed), int64(d.Drew), int64(d.EnergyGained), int64(len(d.Mods)))
		for _, m := range d.Mods {
			b = engine.AppendVarints(b, int64(m.Stat), int64(m.Value), engine.Bit(m.Temporary))
		}
	}
	return b
}

// appendCanonical encodes the card being played.
func (p *cardPlay) appendCanonical(b []byte) []byte {
	card := -1
	if p.Card != nil {
		card = p.Card.index
	}
	b = engine.AppendVarints(b, engine.Bit(p.Active), int64(card), int64(p.Player), int64(p.Lane), int64(p.Target), int64(p.To), int64(p.Next), int64(len(p.Drones)))
	for _, id := range p.Drones {
		b = binary.AppendVarint(b, int64(id))
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}
