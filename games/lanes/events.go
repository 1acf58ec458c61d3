package lanes

import (
	"strconv"

	"github.com/tabulagames/tabula/engine"
)

// category says which owners and scopes a trigger type allows.
type category uint8

const (
	// catSelf types fire for the drone's own actions (no owner).
	catSelf category = iota
	// catController types fire for a player's draws, energy and cards.
	catController
	// catLane types fire when another drone acts in the drone's lane.
	catLane
)

var categoryNames = map[string]category{"SELF": catSelf, "CONTROLLER": catController, "LANE": catLane}

// triggerInfo describes a built-in trigger type.
type triggerInfo struct {
	name string
	cat  category
	// amount types carry a quantity (cards drawn, energy gained); their
	// abilities repeat once per scalingDivisor units.
	amount bool
	// actionOnly types fire only during the action phase.
	actionOnly bool
	// droneSubject types are about a drone (the event's subject).
	droneSubject bool
}

// builtinTriggers are the eleven trigger types of the plan, in the order
// they are interned (so their engine ids are the same in every game).
var builtinTriggers = []triggerInfo{
	{name: "ON_ROUND_START", cat: catSelf, droneSubject: true},
	{name: "ON_DEPLOY", cat: catSelf, droneSubject: true},
	{name: "ON_MOVE", cat: catSelf, droneSubject: true},
	{name: "ON_ATTACK", cat: catSelf, droneSubject: true},
	{name: "ON_LANE_MOVEMENT_IN", cat: catLane, droneSubject: true},
	{name: "ON_LANE_MOVEMENT_OUT", cat: catLane, droneSubject: true},
	{name: "ON_LANE_DEPLOYMENT", cat: catLane, droneSubject: true},
	{name: "ON_LANE_ATTACK", cat: catLane, droneSubject: true},
	{name: "ON_CARD_DRAWN", cat: catController, amount: true, actionOnly: true},
	{name: "ON_ENERGY_GAINED", cat: catController, amount: true, actionOnly: true},
	{name: "ON_CARD_PLAY", cat: catController},
}

// The engine ids of the built-in trigger types.
const (
	evRoundStart engine.EventType = iota
	evDeploy
	evMove
	evAttack
	evLaneIn
	evLaneOut
	evLaneDeploy
	evLaneAttack
	evCardDrawn
	evEnergyGained
	evCardPlay
	// The game's own events, which abilities cannot react to: they make
	// the log complete and readable.
	evRoundBegan
	evPhaseBegan
	evPassed
	evTokenCreated
	evCardPlayed
	evDamaged
	evDestroyed
	evHealed
	evStatChanged
	evExhausted
	evMarked
	evThreat
	evGoAgain
	evGameOver
	numBuiltinEvents
)

// internalEvents are the names of the game's own events, after the
// trigger types.
var internalEvents = []string{
	"ROUND_BEGAN", "PHASE_BEGAN", "PASSED", "TOKEN_CREATED", "CARD_PLAYED", "DAMAGED", "DESTROYED",
	"HEALED", "STAT_CHANGED", "EXHAUSTED", "MARKED", "THREAT_INCREASED", "GO_AGAIN", "GAME_OVER",
}

// builtinTrigger returns the description of a built-in trigger type.
func builtinTrigger(name string) (triggerInfo, bool) {
	for _, t := range builtinTriggers {
		if t.name == name {
			return t, true
		}
	}
	return triggerInfo{}, false
}

// newTypes interns the built-in types and then the file's own.
func newTypes(extra []*TriggerType) *engine.Types {
	types := engine.NewTypes()
	for _, t := range builtinTriggers {
		types.Intern(t.name)
	}
	for _, n := range internalEvents {
		types.Intern(n)
	}
	for _, t := range extra {
		types.Intern(t.Name)
	}
	return types
}

// Stat is a drone stat that modifiers change.
type Stat uint8

// The modifiable stats.
const (
	StatAttack Stat = iota
	StatShields
	StatSpeed
	numModStats
)

var modStatNames = [...]string{"attack", "shields", "speed"}

// String returns the stat's name as game files write it.
func (s Stat) String() string { return modStatNames[s] }

func parseModStat(name string) (Stat, bool) {
	for i, n := range modStatNames {
		if n == name {
			return Stat(i), true
		}
	}
	return 0, false
}

// Phase is the part of a round the game is in.
type Phase uint8

// The phases of a round.
const (
	// PhaseDeployment: players take turns deploying drones until both pass.
	PhaseDeployment Phase = iota
	// PhaseAction: players take turns moving, attacking and playing cards
	// until both pass.
	PhaseAction
	// PhaseOver: the game has ended.
	PhaseOver
)

var phaseNames = [...]string{"deployment", "action", "over"}

// String returns the phase's name.
func (p Phase) String() string { return phaseNames[p] }

// ParsePhase returns the phase with the given name.
func ParsePhase(name string) (Phase, bool) {
	for i, n := range phaseNames {
		if n == name {
			return Phase(i), true
		}
	}
	return 0, false
}

// damageInfo is the payload of DAMAGED events.
type damageInfo struct {
	Shields int `json:"shields"`
	Hull    int `json:"hull"`
}

// AttackResult is the payload of ON_ATTACK events: what the attack did.
type AttackResult struct {
	Section   bool `json:"section"`
	Damage    int  `json:"damage"`
	Shields   int  `json:"shields"`
	Hull      int  `json:"hull"`
	Destroyed bool `json:"destroyed"`
}

// statChange is the payload of STAT_CHANGED events.
type statChange struct {
	Stat      string `json:"stat"`
	Temporary bool   `json:"temporary"`
}

var (
	permanentChange = [numModStats]*statChange{{Stat: "attack"}, {Stat: "shields"}, {Stat: "speed"}}
	temporaryChange = [numModStats]*statChange{{Stat: "attack", Temporary: true}, {Stat: "shields", Temporary: true}, {Stat: "speed", Temporary: true}}
)

func itoa(i int) string { return strconv.Itoa(i) }
