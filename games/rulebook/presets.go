package rulebook

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// presetArgs are a preset's parameters as JSON, defaults filled in.
type presetArgs map[string]json.RawMessage

func (p presetArgs) str(name string) string {
	var s string
	json.Unmarshal(p[name], &s)
	return s
}

func (p presetArgs) num(name string) int {
	var n int
	json.Unmarshal(p[name], &n)
	return n
}

// and joins a preset's own condition with its "if" parameter.
func (p presetArgs) and(cond string) string {
	extra := p.str("if")
	switch {
	case extra == "":
		return cond
	case cond == "":
		return extra
	}
	return "(" + cond + ") && (" + extra + ")"
}

// ifParam is the "if" parameter of the presets that accept one.
var ifParam = Field{Name: "if", Type: TypeCondition, Doc: "a condition that must also hold (e.g. player.props['stuck'] == 0)", Default: ""}

var presets = []*PresetInfo{
	{Name: "Turn", Origin: "the original design's StartTurnRule and EndTurnRule (its TurnRule)",
		Doc:    "Players take turns in seat order: START_GAME starts the first turn, START_TURN queues END_TURN at priority 10 (after everything else of the turn), END_TURN makes the next player current and starts their turn, both at priority 1.",
		Params: []Field{},
		expand: func(p presetArgs) []Rule {
			return []Rule{
				hand("first turn", StartGame, "", nil, newAction(actEmit, 5, "event", StartTurn)),
				hand("end of turn", StartTurn, "", nil, newAction(actEmit, 10, "event", EndTurn)),
				hand("next turn", EndTurn, "", nil, newAction(actSetCurrent, 1), newAction(actEmit, 1, "event", StartTurn)),
			}
		}},
	{Name: "DieMove", Origin: "the original's DieMoveRule",
		Doc:    "At the start of a turn the player rolls and walks that many tiles (both at priority 1).",
		Params: []Field{ranged(Field{Name: "numberOfDice", Type: TypeCount, Doc: "how many dice", Default: 1}, 1, maxDice), ranged(Field{Name: "sides", Type: TypeCount, Doc: "the sides of each die", Default: 6}, 1, maxSides), ifParam},
		expand: func(p presetArgs) []Rule {
			return []Rule{hand("roll and move", StartTurn, p.and(""), nil,
				newAction(actRoll, 1, "dice", p.num("numberOfDice"), "sides", p.num("sides")), newAction(actMove, 1, "steps", "roll"))}
		}},
	{Name: "CardMove", Origin: "Candy Land, one of the original's example games",
		Doc:    "At the start of a turn the player draws a card (priority 1) and walks to the next tile of its colour, as many times as the card's number says, or goes to the tile the card names.",
		Params: []Field{{Name: "deck", Type: TypeDeck, Doc: "the deck to draw from", Required: true}, ifParam},
		expand: func(p presetArgs) []Rule {
			deck := p.str("deck")
			return []Rule{
				hand("draw", StartTurn, p.and(""), nil, newAction(actDraw, 1, "deck", deck)),
				hand("walk to the colour", CardDrawn, p.and("card.tile == ''"), &When{Deck: deck}, newAction(actMoveToNext, 1, "colour", "card.colour", "times", "card.move")),
				hand("go to the card's tile", CardDrawn, p.and("card.tile != ''"), &When{Deck: deck}, newAction(actMoveTo, 1, "to", "card.tile")),
			}
		}},
	{Name: "Jump", Origin: "Shoots and Ladders, one of the original's example games",
		Doc:    "A player who lands on a tile with a jump target (a chute or a ladder) goes there (priority 2).",
		Params: []Field{},
		expand: func(p presetArgs) []Rule {
			return []Rule{hand("jump", TileLanded, "tile.jump != ''", nil, newAction(actMoveTo, 2, "to", "tile.jump"))}
		}},
	{Name: "BuyTile", Origin: "the original's BuyTileRule",
		Doc:    "A player who lands on a tile of a kind that nobody owns, and can afford it, is offered to buy it (priority 3).",
		Params: []Field{{Name: "tileType", Type: TypeKind, Doc: "the kind of tile for sale; \"\" for any tile with a price", Default: "tile"}, ifParam},
		expand: func(p presetArgs) []Rule {
			var w *When
			if k := p.str("tileType"); k != "" {
				w = &When{Kind: k}
			}
			return []Rule{hand("offer", TileLanded, p.and("tile.owner < 0 && tile.price > 0 && player.score >= tile.price"), w, newAction(actBuy, 3))}
		}},
	{Name: "ScoreTile", Origin: "the original's ScoreTileRule",
		Doc:    "A player who lands on a tile another player owns pays its rent to the owner (priority 3).",
		Params: []Field{{Name: "tileType", Type: TypeKind, Doc: "the kind of tile that asks rent; \"\" for any", Default: ""}, ranged(Field{Name: "rent", Type: TypeInt, Doc: "how much", Default: "tile.rent"}, 0, maxAmount), ifParam},
		expand: func(p presetArgs) []Rule {
			var w *When
			if k := p.str("tileType"); k != "" {
				w = &When{Kind: k}
			}
			r := hand("rent", TileLanded, p.and("tile.owner >= 0 && tile.owner != player.seat"), w, newAction(actPay, 3, "to", SelOwner))
			r.Then[0].Fields["amount"] = p["rent"]
			return []Rule{r}
		}},
	{Name: "FiniteBoardWin", Origin: "the original's FiniteBoardWinRule",
		Doc:    "A player who lands on the last tile (one no arrow leads on from), or on the tile named, wins (priority 0).",
		Params: []Field{{Name: "tile", Type: TypeTile, Doc: "the winning tile; \"\" for any tile at the end of the board", Default: ""}},
		expand: func(p presetArgs) []Rule {
			if t := p.str("tile"); t != "" {
				return []Rule{hand("win", TileLanded, "", &When{Tile: t}, newAction(actWin, 0))}
			}
			return []Rule{hand("win", TileLanded, "tile.last", nil, newAction(actWin, 0))}
		}},
	{Name: "LastStandingWin", Origin: "the original's LastStandingWinRule",
		Doc:    "When a player is removed and only numWinPlayer players are left, they win (priority 0).",
		Params: []Field{ranged(Field{Name: "numWinPlayer", Type: TypeCount, Doc: "how many players are left when the game ends", Default: 1}, 1, maxPlayers)},
		expand: func(p presetArgs) []Rule {
			r := hand("last standing", PlayerRemoved, "game.players <= "+strconv.Itoa(p.num("numWinPlayer")), nil, newAction(actWin, 0))
			r.Then[0].Player = SelEach
			return []Rule{r}
		}},
	{Name: "RemovePlayer", Origin: "the original's RemovePlayerRule",
		Doc:    "At the start of every turn, players whose score is below scoreMinBound are out (priority 0).",
		Params: []Field{ranged(Field{Name: "scoreMinBound", Type: TypeCount, Doc: "the lowest score that stays in", Default: 0}, -maxAmount, maxAmount)},
		expand: func(p presetArgs) []Rule {
			r := hand("bankrupt", StartTurn, "", nil, newAction(actRemove, 0))
			r.Then[0].Player = SelEach
			r.Then[0].Where = "player.score < " + strconv.Itoa(p.num("scoreMinBound"))
			return []Rule{r}
		}},
	{Name: "TurnLimit", Origin: "Tabula, for games that might not end",
		Doc:    "When a turn of the round after the last one would begin, the game ends and the highest score wins (priority 0).",
		Params: []Field{ranged(Field{Name: "rounds", Type: TypeCount, Doc: "how many rounds are played", Required: true}, 1, maxRoundLimit)},
		expand: func(p presetArgs) []Rule {
			return []Rule{hand("round limit", StartTurn, "game.round > "+strconv.Itoa(p.num("rounds")), nil, newAction(actEndGame, 0))}
		}},
}

// presetInfo returns the description of a named preset, or nil.
func presetInfo(name string) *PresetInfo {
	for _, p := range presets {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func presetNames() []string {
	var out []string
	for _, p := range presets {
		out = append(out, p.Name)
	}
	return out
}

// Expand returns the hand-written rules a preset stands for, with the
// given parameters (JSON values; omitted ones take their defaults). The
// rules are named "PRESET: part".
func (p PresetInfo) Expand(params map[string]json.RawMessage) ([]Rule, error) {
	args := presetArgs{}
	for _, f := range p.Params {
		raw, ok := params[f.Name]
		switch {
		case ok:
			args[f.Name] = raw
		case f.Required:
			return nil, fmt.Errorf("preset %s needs %q", p.Name, f.Name)
		default:
			js, _ := json.Marshal(f.Default)
			args[f.Name] = js
		}
	}
	for name := range params {
		if args[name] == nil {
			return nil, fmt.Errorf("preset %s has no parameter %q", p.Name, name)
		}
	}
	rules := p.expand(args)
	for i := range rules {
		rules[i].Name = p.Name + ": " + rules[i].Name
	}
	return rules, nil
}

// hand builds a hand-written rule.
func hand(name, event, cond string, w *When, then ...Action) Rule {
	r := Rule{Name: name, If: cond, Then: then}
	if w != nil {
		r.When = *w
	}
	r.When.Event = event
	return r
}

// newAction builds an action with fields given as name, value pairs.
func newAction(name string, priority int, fields ...any) Action {
	a := Action{Action: name, Priority: priority, Fields: map[string]json.RawMessage{}}
	for i := 0; i+1 < len(fields); i += 2 {
		js, _ := json.Marshal(fields[i+1])
		a.Fields[fields[i].(string)] = js
	}
	return a
}
