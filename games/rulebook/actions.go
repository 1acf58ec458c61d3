package rulebook

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// eventData is the payload of events that carry more than an amount.
type eventData struct {
	Card   string `json:"card,omitempty"`
	Deck   string `json:"deck,omitempty"`
	Prop   string `json:"prop,omitempty"`
	Dice   []int  `json:"dice,omitempty"`
	Total  int    `json:"total,omitempty"`
	Reason string `json:"reason,omitempty"`
	// words is the end's reason in the players' words.
	words string
	// settles is set on a score change that settles a payment or a
	// purchase told by the event before it.
	settles bool
}

// impl is how an action is carried out.
type impl struct {
	// decide returns the decision the action asks a player for, if any.
	decide func(x *run, seat int) (engine.Decision, bool, error)
	// do carries the action out for its players (answers given).
	do func(x *run) error
	// game actions also act for players who are out (announcing the end
	// of their turn, passing the turn on).
	game bool
}

var impls = map[string]impl{
	actEmit:       {do: doEmit, game: true},
	actSetCurrent: {do: doSetCurrent, game: true},
	actRoll:       {decide: decideRoll, do: doRoll},
	actDraw:       {decide: decideDraw, do: doDraw},
	actMove:       {decide: decideMove, do: doMove},
	actMoveTo:     {do: doMoveTo},
	actMoveToNext: {do: doMoveToNext},
	actScore:      {do: doScore},
	actPay:        {do: doPay},
	actBuy:        {decide: decideBuy, do: doBuy},
	actAuction:    {decide: decideBid, do: doAuction},
	actChangeProp: {do: doProp},
	actSetProp:    {do: doProp},
	actRemove:     {do: doRemove},
	actWin:        {do: doWin},
	actEndGame:    {do: doEndGame, game: true},
	actSay:        {do: doSay, game: true},
}

// run is one action being carried out: for which players, with which
// answers.
type run struct {
	c  *engine.Ctx
	s  *State
	a  *act
	ev *engine.Event
	// seats are the action's players; answers their choices (-1: not
	// asked).
	seats   []int
	answers []int
}

// perform is the effect of every action: it finds the action's players,
// asks them what it must ask (all at once) and carries it out. Once the
// game is over, actions do nothing.
func perform(c *engine.Ctx, s *State, a *act) error {
	if s.Over {
		return nil
	}
	x := &run{c: c, s: s, a: a, ev: c.Event()}
	im := impls[a.info.Name]
	if err := x.targets(im.game); err != nil || len(x.seats) == 0 {
		return err
	}
	x.answers = make([]int, len(x.seats))
	if im.decide != nil {
		answers := c.Answers()
		var ds []engine.Decision
		for i, seat := range x.seats {
			x.answers[i] = -1
			d, ok, err := im.decide(x, seat)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if answers == nil {
				ds = append(ds, d)
				continue
			}
			x.answers[i] = answers[0].Choice
			answers = answers[1:]
		}
		if len(ds) > 0 {
			return c.Ask(ds...)
		}
	}
	return im.do(x)
}

// targets finds the action's players: those its selector names, still in
// the game (unless it is a game action), for whom "where" holds.
func (x *run) targets(game bool) error {
	s, ev := x.s, x.ev
	var cands []int
	switch x.a.player {
	case SelCurrent:
		cands = []int{s.Current}
	case SelEvent:
		if ev != nil && ev.Player != engine.NoPlayer {
			cands = []int{int(ev.Player)}
		} else {
			cands = []int{s.Current}
		}
	case SelOther:
		if ev != nil && ev.Target != engine.System {
			cands = []int{seatOf(ev.Target)}
		}
	case SelOwner:
		if o := s.Owners[x.eventTile()]; o >= 0 {
			cands = []int{o}
		}
	case SelEach, SelOthers:
		for k := range s.Players {
			seat := (s.Current + k) % len(s.Players)
			if s.Players[seat].Active && (x.a.player == SelEach || seat != s.Current) {
				cands = append(cands, seat)
			}
		}
	}
	for _, seat := range cands {
		if !game && !s.Players[seat].Active {
			continue
		}
		if x.a.where != nil {
			ok, err := x.a.where.bool(x.scope(seat))
			if err != nil {
				return fmt.Errorf("where: %w", err)
			}
			if !ok {
				continue
			}
		}
		x.seats = append(x.seats, seat)
	}
	return nil
}

// eventTile is the event's tile, or else the current player's.
func (x *run) eventTile() int {
	if x.ev != nil && x.ev.Location != engine.NoLocation {
		return int(x.ev.Location)
	}
	return x.s.Players[x.s.Current].Tile
}

// scope returns the scope of an expression evaluated for a player.
func (x *run) scope(seat int) *scope { return &scope{s: x.s, ev: x.ev, player: seat} }

// int returns a number field's value for a player. A number an expression
// gives outside the field's range is brought back into it (0 dice roll
// one die), so that what validates cannot break at run time; numbers
// written as such were checked when the file was loaded.
func (x *run) int(name string, seat int) (int, error) {
	v := x.a.vals[name]
	if v.e == nil {
		n, _ := v.lit.(int)
		return n, nil
	}
	n, err := v.e.int(x.scope(seat))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return x.a.info.field(name).clamp(n), nil
}

func (x *run) str(name string, seat int) (string, error) {
	v := x.a.vals[name]
	if v.e == nil {
		s, _ := v.lit.(string)
		return s, nil
	}
	s, err := v.e.string(x.scope(seat))
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// tile returns the tile a field names, -1 for "".
func (x *run) tile(name string, seat int) (int, error) {
	v := x.a.vals[name]
	if v.e == nil {
		return v.lit.(int), nil
	}
	id, err := v.e.string(x.scope(seat))
	if err != nil || id == "" {
		return -1, err
	}
	i, ok := x.s.def.byID[id]
	if !ok {
		return -1, fmt.Errorf("%s: %q gave %q, which is not the id of any tile", name, v.e.src, id)
	}
	return i, nil
}

// event returns an event about a player.
func (x *run) event(typ string, seat int) engine.Event {
	t, _ := x.s.def.rules.Types.Lookup(typ)
	ev := engine.NewEvent(t)
	if seat >= 0 {
		ev.Player = engine.PlayerID(seat)
		ev.Subject = playerEntity(seat)
	}
	return ev
}

func (x *run) emitAt(typ string, seat, tile int) {
	ev := x.event(typ, seat)
	ev.Location = engine.LocationID(tile)
	x.c.Emit(ev)
}

// end ends the game: reason says why in the engine's words (the state's
// EndReason), words in the players' ("" if reason says it).
func (s *State) end(c *engine.Ctx, reason, words string, winners []int) {
	types := s.def.rules.Types
	won, _ := types.Lookup(PlayerWon)
	for _, w := range winners {
		ev := engine.NewEvent(won)
		ev.Player, ev.Subject = engine.PlayerID(w), playerEntity(w)
		c.Emit(ev)
	}
	s.Over, s.Winners, s.EndReason, s.endWords = true, winners, reason, cmp.Or(words, reason)
	// The rules leave the match: what they queued is skipped, not fired.
	var ids []engine.TriggerID
	c.Index().Each(func(t *engine.Instance) { ids = append(ids, t.ID) })
	for _, id := range ids {
		c.Index().Remove(id)
	}
	over, _ := types.Lookup(GameOver)
	ev := engine.NewEvent(over)
	ev.Data = &eventData{Reason: reason, words: s.endWords}
	c.Emit(ev)
}

func (s *State) names(seats []int) string {
	var out []string
	for _, w := range seats {
		out = append(out, s.Players[w].Name)
	}
	return strings.Join(out, " and ")
}

// --- the start ---

// startArgs set a match up.
type startArgs struct {
	Opening *Opening
}

// startGame places the players on the starting tile, applies the match's
// opening, shuffles the decks and announces START_GAME.
func startGame(c *engine.Ctx, s *State, a startArgs) error {
	d := s.def
	for i := range s.Players {
		s.Players[i].Tile = d.start
	}
	a.Opening.apply(s)
	for i, dk := range d.File.Decks {
		var pile []int
		for j, card := range dk.Cards {
			for range max(card.Count, 1) {
				pile = append(pile, j)
			}
		}
		c.Rand("shuffle").Shuffle(len(pile), func(a, b int) { pile[a], pile[b] = pile[b], pile[a] })
		s.Decks[i] = DeckState{Draw: pile, Discard: []int{}}
	}
	s.Round = 1
	t, _ := d.rules.Types.Lookup(StartGame)
	ev := engine.NewEvent(t)
	ev.Amount = len(s.Players)
	c.Emit(ev)
	return nil
}

// --- the turn ---

func doEmit(x *run) error {
	s := x.s
	name := x.a.vals["event"].lit.(string)
	for _, seat := range x.seats {
		amount, err := x.int("amount", seat)
		if err != nil {
			return err
		}
		ev := x.event(name, seat)
		ev.Amount = amount
		if name == StartTurn {
			if s.MaxRounds > 0 && s.Round > s.MaxRounds {
				s.end(x.c, fmt.Sprintf("the round limit (%d) was reached", s.MaxRounds), fmt.Sprintf("the round limit of %d was reached", s.MaxRounds), nil)
				return nil
			}
			s.Turn++
			s.Players[seat].Turns++
			ev.Amount = s.Turn
		}
		x.c.Emit(ev)
	}
	return nil
}

func doSetCurrent(x *run) error {
	s := x.s
	to := x.a.vals["to"].lit.(string)
	if to == "this" {
		if !s.Players[x.seats[0]].Active {
			return nil
		}
		s.Current = x.seats[0]
	} else {
		next := -1
		for k := 1; k <= len(s.Players); k++ {
			seat := (s.Current + k) % len(s.Players)
			if s.Players[seat].Active {
				next = seat
				break
			}
		}
		if next < 0 {
			s.end(x.c, "nobody is left", "", nil)
			return nil
		}
		if next <= s.Current {
			s.Round++
		}
		s.Current = next
	}
	x.c.Emit(x.event(CurrentPlayerChanged, s.Current))
	return nil
}

// --- dice and cards ---

func decideRoll(x *run, seat int) (engine.Decision, bool, error) {
	n, err := x.int("dice", seat)
	if err != nil {
		return engine.Decision{}, false, err
	}
	what := "the die"
	if n != 1 {
		what = strconv.Itoa(n) + " dice"
	}
	return engine.Decision{Player: engine.PlayerID(seat), Kind: KindRoll, Prompt: "Roll " + what}, true, nil
}

func doRoll(x *run) error {
	s := x.s
	for _, seat := range x.seats {
		n, err := x.int("dice", seat)
		if err != nil {
			return err
		}
		sides, err := x.int("sides", seat)
		if err != nil {
			return err
		}
		s.Dice = s.Dice[:0]
		total := 0
		for range n {
			var v int
			if s.Scripted < len(s.Script) {
				v = s.Script[s.Scripted]
				s.Scripted++
				if v < 1 || v > sides {
					return fmt.Errorf("the scripted die %d is impossible with %d sides", v, sides)
				}
			} else {
				v = x.c.Rand("dice").Between(1, sides)
			}
			s.Dice = append(s.Dice, v)
			total += v
		}
		s.Roll = total
		ev := x.event(DiceRolled, seat)
		ev.Amount = total
		ev.Data = &eventData{Dice: slices.Clone(s.Dice)}
		x.c.Emit(ev)
	}
	return nil
}

func decideDraw(x *run, seat int) (engine.Decision, bool, error) {
	name := x.a.vals["deck"].lit.(string)
	prompt := "Draw a card"
	if t := x.s.def.deckTitle(x.s.def.deckIndex[name]); t != "" {
		prompt = "Draw a " + t + " card"
	}
	return engine.Decision{Player: engine.PlayerID(seat), Kind: KindDraw, Prompt: prompt}, true, nil
}

func doDraw(x *run) error {
	s := x.s
	name := x.a.vals["deck"].lit.(string)
	di := s.def.deckIndex[name]
	dk := &s.Decks[di]
	for _, seat := range x.seats {
		if len(dk.Draw) == 0 {
			dk.Draw, dk.Discard = dk.Discard, dk.Draw[:0]
			x.c.Rand("shuffle").Shuffle(len(dk.Draw), func(a, b int) { dk.Draw[a], dk.Draw[b] = dk.Draw[b], dk.Draw[a] })
		}
		top := dk.Draw[len(dk.Draw)-1]
		dk.Draw = dk.Draw[:len(dk.Draw)-1]
		dk.Discard = append(dk.Discard, top)
		s.Card = CardRef{Deck: di, Card: top}
		s.drawn++
		ev := x.event(CardDrawn, seat)
		ev.Data = &eventData{Card: s.def.File.Decks[di].Cards[top].Name, Deck: name}
		x.c.Emit(ev)
	}
	return nil
}

// --- moves ---

// ways are the tiles a walk may take from a tile.
func (s *State) ways(tile int, back bool) []int {
	if back {
		return s.def.prev[tile]
	}
	return s.def.next[tile]
}

// fork returns the decision of a player at a fork on the first step of a
// walk, if there is one.
func (s *State) fork(seat, steps int) (engine.Decision, bool) {
	if steps == 0 {
		return engine.Decision{}, false
	}
	ways := s.ways(s.Players[seat].Tile, steps < 0)
	if len(ways) < 2 {
		return engine.Decision{}, false
	}
	opts := make([]string, len(ways))
	for i, w := range ways {
		opts[i] = "Go to " + s.tileLabel(w)
	}
	return engine.Decision{Player: engine.PlayerID(seat), Kind: KindChoosePath, Prompt: "Which way?", Options: opts}, true
}

// tileLabel names a tile for players: its name; a numbered tile by its
// colour and number ("yellow 3") or its number; else a name made from its
// id.
func (s *State) tileLabel(i int) string {
	t := &s.def.File.Board.Tiles[i]
	_, err := strconv.Atoi(t.ID)
	switch {
	case t.Name != "":
		return t.Name
	case err != nil:
		return game.Readable(t.ID)
	case t.Colour != "":
		return t.Colour + " " + t.ID
	}
	return t.ID
}

// walk moves a player steps tiles (backwards if negative). choice is the
// answer for a fork at the first step (-1: none); at a later fork the walk
// stops, and a continuation asks and walks on.
func walk(c *engine.Ctx, s *State, seat, steps, choice int) error {
	if steps > maxSteps || steps < -maxSteps {
		return fmt.Errorf("cannot walk %d tiles (at most %d)", steps, maxSteps)
	}
	back := steps < 0
	n := steps
	if back {
		n = -n
	}
	p := &s.Players[seat]
	var path []int
	for n > 0 {
		ways := s.ways(p.Tile, back)
		var to int
		switch {
		case len(ways) == 0:
			n = 0
			continue
		case len(ways) == 1:
			to = ways[0]
		case len(path) == 0 && choice >= 0 && choice < len(ways):
			to = ways[choice]
		default:
			left := n
			if back {
				left = -n
			}
			emitPath(c, s, seat, path, false)
			c.Then(s.def.pack.moveOn.Call(moveOnArgs{Seat: seat, Steps: left}))
			return nil
		}
		p.Tile = to
		n--
		path = append(path, to)
	}
	emitPath(c, s, seat, path, true)
	return nil
}

// emitPath announces a walk: TILE_PASSED for each tile, but TILE_LANDED
// for the last one if the walk ends there.
func emitPath(c *engine.Ctx, s *State, seat int, path []int, ends bool) {
	types := s.def.rules.Types
	for i, t := range path {
		typ := TilePassed
		if ends && i == len(path)-1 {
			typ = TileLanded
		}
		emitTile(c, types, typ, seat, t)
	}
}

func emitTile(c *engine.Ctx, types *engine.Types, typ string, seat, tile int) {
	t, _ := types.Lookup(typ)
	ev := engine.NewEvent(t)
	ev.Player, ev.Subject, ev.Location = engine.PlayerID(seat), playerEntity(seat), engine.LocationID(tile)
	c.Emit(ev)
}

func decideMove(x *run, seat int) (engine.Decision, bool, error) {
	n, err := x.int("steps", seat)
	if err != nil {
		return engine.Decision{}, false, err
	}
	d, ok := x.s.fork(seat, n)
	return d, ok, nil
}

func doMove(x *run) error {
	steps := make([]int, len(x.seats))
	for i, seat := range x.seats {
		n, err := x.int("steps", seat)
		if err != nil {
			return err
		}
		steps[i] = n
	}
	for i, seat := range x.seats {
		if err := walk(x.c, x.s, seat, steps[i], x.answers[i]); err != nil {
			return err
		}
	}
	return nil
}

// moveOnArgs are the rest of a walk that stopped at a fork.
type moveOnArgs struct {
	Seat, Steps int
}

// moveOn asks the way at a fork and walks on.
func moveOn(c *engine.Ctx, s *State, a moveOnArgs) error {
	if s.Over || !s.Players[a.Seat].Active {
		return nil
	}
	choice := -1
	if d, ok := s.fork(a.Seat, a.Steps); ok {
		answers := c.Answers()
		if answers == nil {
			return c.Ask(d)
		}
		choice = answers[0].Choice
	}
	return walk(c, s, a.Seat, a.Steps, choice)
}

func doMoveTo(x *run) error {
	for _, seat := range x.seats {
		to, err := x.tile("to", seat)
		if err != nil || to < 0 {
			return err
		}
		x.s.Players[seat].Tile = to
		x.emitAt(TileLanded, seat, to)
	}
	return nil
}

func doMoveToNext(x *run) error {
	s := x.s
	tiles := s.def.File.Board.Tiles
	for _, seat := range x.seats {
		colour, err := x.str("colour", seat)
		if err != nil {
			return err
		}
		times, err := x.int("times", seat)
		if err != nil {
			return err
		}
		if colour == "" || times < 1 {
			continue
		}
		p := &s.Players[seat]
		var path []int
		at := p.Tile
	walking:
		for range min(times, maxSteps) {
			// At most once round the board looking for the colour.
			for range len(tiles) {
				ways := s.def.next[at]
				if len(ways) == 0 {
					break walking
				}
				at = ways[0]
				path = append(path, at)
				if tiles[at].Colour == colour {
					break
				}
			}
		}
		if len(path) == 0 {
			continue
		}
		p.Tile = at
		emitPath(x.c, s, seat, path, true)
	}
	return nil
}

// --- score and money ---

// changeScore changes a player's score; settles says that it settles a
// payment or a purchase the event before told.
func (x *run) changeScore(seat, amount int, settles bool) {
	p := &x.s.Players[seat]
	p.Score += amount
	ev := x.event(ScoreChanged, seat)
	ev.Amount = amount
	ev.Data = &eventData{Total: p.Score, settles: settles}
	x.c.Emit(ev)
}

func doScore(x *run) error {
	for _, seat := range x.seats {
		n, err := x.int("amount", seat)
		if err != nil {
			return err
		}
		if n != 0 {
			x.changeScore(seat, n, false)
		}
	}
	return nil
}

func doPay(x *run) error {
	s := x.s
	to := x.a.vals["to"].lit.(string)
	for _, payer := range x.seats {
		n, err := x.int("amount", payer)
		if err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		var payees []int
		switch to {
		case "bank":
			payees = []int{-1}
		case SelOwner:
			payees = []int{s.Owners[x.eventTile()]}
		case SelCurrent:
			payees = []int{s.Current}
		case SelEvent:
			if x.ev != nil && x.ev.Player != engine.NoPlayer {
				payees = []int{int(x.ev.Player)}
			}
		case SelOther:
			if x.ev != nil && x.ev.Target != engine.System {
				payees = []int{seatOf(x.ev.Target)}
			}
		case SelOthers:
			for k := 1; k < len(s.Players); k++ {
				payees = append(payees, (payer+k)%len(s.Players))
			}
		}
		for _, payee := range payees {
			if payee == payer || (payee >= 0 && !s.Players[payee].Active) || payee < -1 {
				continue
			}
			ev := x.event(Paid, payer)
			ev.Amount = n
			if payee >= 0 {
				ev.Target = playerEntity(payee)
			}
			if x.ev != nil {
				ev.Location = x.ev.Location
			}
			x.c.Emit(ev)
			x.changeScore(payer, -n, true)
			if payee >= 0 {
				x.changeScore(payee, n, true)
			}
		}
	}
	return nil
}

// offer returns the tile and price a BUY offers a player, and whether
// they may buy it (nobody owns it and they can afford it).
func (x *run) offer(seat int) (tile, price int, ok bool, err error) {
	if tile, err = x.tile("tile", seat); err != nil || tile < 0 {
		return -1, 0, false, err
	}
	if price, err = x.int("price", seat); err != nil {
		return 0, 0, false, err
	}
	return tile, price, x.s.Owners[tile] < 0 && price >= 0 && price <= x.s.Players[seat].Score, nil
}

func decideBuy(x *run, seat int) (engine.Decision, bool, error) {
	tile, price, ok, err := x.offer(seat)
	if !ok || err != nil {
		return engine.Decision{}, false, err
	}
	label := x.s.tileLabel(tile)
	buy := fmt.Sprintf("Buy %s for %d", label, price)
	return engine.Decision{Player: engine.PlayerID(seat), Kind: KindBuy, Prompt: buy + "?", Options: []string{buy, "Pass on " + label}}, true, nil
}

func doBuy(x *run) error {
	s := x.s
	for i, seat := range x.seats {
		tile, price, ok, err := x.offer(seat)
		switch {
		case err != nil:
			return err
		case tile < 0:
			continue
		case !ok:
			x.c.Note("%s cannot buy %s", s.Players[seat].Name, s.tileLabel(tile))
		case x.answers[i] == 0:
			s.Owners[tile] = seat
			ev := x.event(TileBought, seat)
			ev.Location, ev.Amount = engine.LocationID(tile), price
			x.c.Emit(ev)
			if price != 0 {
				x.changeScore(seat, -price, true)
			}
		default:
			x.emitAt(BuyDeclined, seat, tile)
		}
	}
	return nil
}

// bids are the bids a player may make for a tile: fractions of its price
// up to what they have.
func (x *run) bids(seat, tile int) []int {
	price := x.s.def.File.Board.Tiles[tile].Price
	var out []int
	for k := 1; k <= 6; k++ {
		b := price * k / 4
		if b > 0 && b <= x.s.Players[seat].Score && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

func decideBid(x *run, seat int) (engine.Decision, bool, error) {
	tile, err := x.tile("tile", seat)
	if err != nil || tile < 0 || x.s.Owners[tile] >= 0 {
		return engine.Decision{}, false, err
	}
	bids := x.bids(seat, tile)
	if len(bids) == 0 {
		return engine.Decision{}, false, nil
	}
	label := x.s.tileLabel(tile)
	opts := []string{"Pass on " + label}
	for _, b := range bids {
		opts = append(opts, "Bid "+strconv.Itoa(b))
	}
	// Everyone bids at once, and nobody sees a bid before all are in.
	return engine.Decision{Player: engine.PlayerID(seat), Kind: KindBid,
		Prompt: "Bid for " + label, Options: opts, Sealed: true}, true, nil
}

func doAuction(x *run) error {
	s := x.s
	tile, err := x.tile("tile", s.Current)
	if err != nil || tile < 0 || s.Owners[tile] >= 0 {
		return err
	}
	best, winner := 0, -1
	for i, seat := range x.seats {
		if x.answers[i] <= 0 {
			continue
		}
		bids := x.bids(seat, tile)
		if b := bids[x.answers[i]-1]; b > best {
			best, winner = b, seat
		}
	}
	if winner < 0 {
		x.c.Note("Nobody bids for %s", s.tileLabel(tile))
		return nil
	}
	s.Owners[tile] = winner
	ev := x.event(TileBought, winner)
	ev.Location, ev.Amount = engine.LocationID(tile), best
	x.c.Emit(ev)
	x.changeScore(winner, -best, true)
	return nil
}

func doProp(x *run) error {
	s := x.s
	name := x.a.vals["prop"].lit.(string)
	i := s.def.propIndex[name]
	for _, seat := range x.seats {
		p := &s.Players[seat]
		var delta int
		if x.a.info.Name == actSetProp {
			v, err := x.int("value", seat)
			if err != nil {
				return err
			}
			delta = v - p.Props[i]
		} else {
			n, err := x.int("amount", seat)
			if err != nil {
				return err
			}
			delta = n
		}
		if delta == 0 {
			continue
		}
		p.Props[i] += delta
		ev := x.event(PropChanged, seat)
		ev.Amount = delta
		ev.Data = &eventData{Prop: name, Total: p.Props[i]}
		x.c.Emit(ev)
	}
	return nil
}

// --- the end ---

func doRemove(x *run) error {
	s := x.s
	for _, seat := range x.seats {
		s.Players[seat].Active = false
		for t, o := range s.Owners {
			if o == seat {
				s.Owners[t] = -1
			}
		}
		x.c.Emit(x.event(PlayerRemoved, seat))
	}
	if s.activeCount() == 0 {
		s.end(x.c, "nobody is left", "", nil)
	}
	return nil
}

func doWin(x *run) error {
	x.s.end(x.c, x.s.names(x.seats)+" won", "", slices.Clone(x.seats))
	return nil
}

func doEndGame(x *run) error {
	s := x.s
	var winners []int
	if x.a.vals["winner"].lit.(string) == "highest-score" {
		best := 0
		for seat, p := range s.Players {
			switch {
			case !p.Active:
			case len(winners) == 0 || p.Score > best:
				best, winners = p.Score, []int{seat}
			case p.Score == best:
				winners = append(winners, seat)
			}
		}
	}
	reason, words := "the game was ended by "+x.a.part.name, "nobody won"
	if len(winners) > 0 {
		reason += "; the highest score won"
		words = s.names(winners) + " won"
		if name := s.def.scoreName; name != "" {
			words += " with the most " + name
		}
	}
	s.end(x.c, reason, words, winners)
	return nil
}

func doSay(x *run) error {
	x.c.Note("%s", x.a.vals["text"].lit.(string))
	return nil
}
