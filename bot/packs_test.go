package bot_test

// Small game packs for the bots' tests, each showing the bots something
// Nim does not:
//
//   - cards: hidden hands and a deck (a game.Determinizer), with an
//     Evaluator and a Clone;
//   - pig: dice (a Determinizer that only draws the dice to come again),
//     with an Evaluator and a Clone;
//   - bids: every seat decides at once, in secret (a Determinizer), with a
//     Clone and no Evaluator.
//
// Nim (game/gametest) has none of the optional interfaces: bots copy it by
// replaying its history.

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

func TestTestPacksPassTheChecks(t *testing.T) {
	for _, def := range []game.Definition{cardsGame(), pigGame(), bidsGame()} {
		t.Run(def.Info().Pack, func(t *testing.T) { gametest.Check(t, def, gametest.Options{}) })
	}
}

// testDef is a test pack's definition.
type testDef struct {
	info  game.Info
	start func(s game.Setup) game.Match
}

func (d *testDef) Info() game.Info { return d.info }
func (d *testDef) Drawing() any    { return nil }
func (d *testDef) Start(s game.Setup) (game.Match, error) {
	if err := d.info.CheckPlayers(len(s.Players)); err != nil {
		return nil, err
	}
	return d.start(s), nil
}

// table is what the test packs' matches share: the players, a public log,
// the outcome.
type table struct {
	names   []string
	log     []game.Entry
	over    bool
	winners []int
	reason  string
	rounds  int
}

func newTable(s game.Setup) table { return table{names: s.Players, winners: []int{}, rounds: 1} }

// copy shares the log's records, which only grow.
func (b table) copy() table {
	b.log = slices.Clip(b.log)
	b.winners = slices.Clone(b.winners)
	return b
}

func (b *table) say(seat int, format string, args ...any) {
	b.log = append(b.log, game.Entry{Seq: len(b.log), Kind: "event", Seat: seat, Text: fmt.Sprintf(format, args...)})
}

func (b *table) end(reason string, winners ...int) {
	b.over, b.reason, b.winners = true, reason, append([]int{}, winners...)
}

func (b *table) Log(_, from int) []game.Entry {
	if from >= len(b.log) {
		return nil
	}
	return slices.Clone(b.log[max(0, from):])
}

func (b *table) LogLen() int { return len(b.log) }

func (b *table) Outcome() game.Outcome {
	return game.Outcome{Over: b.over, Winners: slices.Clone(b.winners), Reason: b.reason, Rounds: b.rounds}
}

// decode reads a command of a seat the match waits for.
func decode(data json.RawMessage, v any, seat int, waiting []int) error {
	if err := game.DecodeCommand(data, v); err != nil {
		return engine.Rejectf("%v", err)
	}
	if !slices.Contains(waiting, seat) {
		return engine.Rejectf("the match does not wait for seat %d", seat)
	}
	return nil
}

// hashOf hashes a state's parts.
func hashOf(parts ...any) string {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return strconv.FormatUint(h.Sum64(), 16)
}

func cloneHands(hands [][]int) [][]int {
	out := make([][]int, len(hands))
	for i, h := range hands {
		out[i] = slices.Clone(h)
	}
	return out
}

func command(text, format string, args ...any) game.Command {
	return game.Command{Data: json.RawMessage(fmt.Sprintf(format, args...)), Text: text}
}

// --- cards ---

// cardsGame is a card game with hidden hands: a pile of 31 counters, a
// deck of cards 1 to 4 (six of each), four cards in each hand, which only
// its player sees. In turn, a player plays a card no higher than the
// pile, takes that many counters off it and draws a card; who takes the
// last counter wins. A player who cannot play discards a card, face up,
// and draws; when the deck is empty and the player to move cannot play,
// the match ends with no winner. (Leaving the pile a multiple of five
// wins, when the cards allow it.)
func cardsGame() game.Definition {
	return &testDef{
		info:  game.Info{Pack: "cards", Name: "Last card", MinPlayers: 2, MaxPlayers: 4},
		start: func(s game.Setup) game.Match { return newCards(s) },
	}
}

type cards struct {
	table
	pile     int
	hands    [][]int // each sorted
	deck     []int   // drawn from the end
	discards []int
	turn     int
}

type cardsCommand struct {
	Play    int `json:"play,omitempty"`
	Discard int `json:"discard,omitempty"`
}

func newCards(s game.Setup) *cards {
	c := &cards{table: newTable(s), pile: 31, hands: make([][]int, len(s.Players))}
	for v := 1; v <= 4; v++ {
		for range 6 {
			c.deck = append(c.deck, v)
		}
	}
	r := rng.New(s.Seed).Stream("deal")
	r.Shuffle(len(c.deck), func(i, j int) { c.deck[i], c.deck[j] = c.deck[j], c.deck[i] })
	for seat := range c.hands {
		for range 4 {
			c.draw(seat)
		}
	}
	return c
}

func (c *cards) draw(seat int) {
	if n := len(c.deck); n > 0 {
		c.hands[seat] = append(c.hands[seat], c.deck[n-1])
		c.deck = c.deck[:n-1]
		slices.Sort(c.hands[seat])
	}
}

// playable lists the different cards of the seat's hand no higher than the
// pile.
func (c *cards) playable(seat int) []int {
	var out []int
	for _, v := range c.hands[seat] {
		if v <= c.pile && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func (c *cards) Waiting() []int {
	if c.over {
		return nil
	}
	return []int{c.turn}
}

func (c *cards) Legal(seat int) []game.Command {
	if c.over || seat != c.turn {
		return nil
	}
	var out []game.Command
	for _, v := range c.playable(seat) {
		out = append(out, command(fmt.Sprintf("Play a %d", v), `{"play":%d}`, v))
	}
	if out != nil {
		return out
	}
	for i, v := range c.hands[seat] {
		if i == 0 || v != c.hands[seat][i-1] {
			out = append(out, command(fmt.Sprintf("Discard a %d", v), `{"discard":%d}`, v))
		}
	}
	return out
}

func (c *cards) Apply(seat int, data json.RawMessage) error {
	var cmd cardsCommand
	if err := decode(data, &cmd, seat, c.Waiting()); err != nil {
		return err
	}
	playable := c.playable(seat)
	switch {
	case cmd.Play > 0 && cmd.Discard == 0 && slices.Contains(playable, cmd.Play):
		c.pile -= cmd.Play
		c.say(seat, "%s plays a %d", c.names[seat], cmd.Play)
	case cmd.Discard > 0 && cmd.Play == 0 && playable == nil && slices.Contains(c.hands[seat], cmd.Discard):
		c.say(seat, "%s discards a %d", c.names[seat], cmd.Discard)
	default:
		return engine.Rejectf("play a card no higher than the pile (%d) if you can, else discard one", c.pile)
	}
	v := cmd.Play + cmd.Discard
	c.hands[seat] = slices.Delete(c.hands[seat], slices.Index(c.hands[seat], v), slices.Index(c.hands[seat], v)+1)
	c.discards = append(c.discards, v)
	if c.pile == 0 {
		c.end(c.names[seat]+" took the last counter", seat)
		return nil
	}
	c.draw(seat)
	if c.turn = (c.turn + 1) % len(c.names); c.turn == 0 {
		c.rounds++
	}
	if len(c.deck) == 0 && c.playable(c.turn) == nil {
		c.end("nobody can play")
	}
	return nil
}

func (c *cards) View(seat int) any {
	sizes := make([]int, len(c.hands))
	for i, h := range c.hands {
		sizes[i] = len(h)
	}
	v := struct {
		Pile     int   `json:"pile"`
		Turn     int   `json:"turn"`
		Hand     []int `json:"hand,omitempty"`
		Sizes    []int `json:"handSizes"`
		Deck     int   `json:"deck"`
		Discards []int `json:"discards"`
	}{c.pile, c.turn, nil, sizes, len(c.deck), c.discards}
	if seat >= 0 && seat < len(c.hands) {
		v.Hand = c.hands[seat]
	}
	return v
}

func (c *cards) Hash() string {
	return hashOf(c.pile, c.hands, c.deck, c.discards, c.turn, c.over, c.winners, c.rounds, len(c.log))
}

func (c *cards) Clone() game.Match {
	d := *c
	d.table = c.table.copy()
	d.hands = cloneHands(c.hands)
	d.deck = slices.Clone(c.deck)
	d.discards = slices.Clip(c.discards)
	return &d
}

// Determinize deals the cards the seat has not seen (the other hands and
// the deck) again at random: what it depends on is only what the seat
// sees.
func (c *cards) Determinize(seat int, r *rng.Stream) game.Match {
	d := c.Clone().(*cards)
	unseen := slices.Clone(d.deck)
	for s, h := range d.hands {
		if s != seat {
			unseen = append(unseen, h...)
		}
	}
	slices.Sort(unseen)
	r.Shuffle(len(unseen), func(i, j int) { unseen[i], unseen[j] = unseen[j], unseen[i] })
	for s, h := range d.hands {
		if s != seat {
			n := len(h)
			d.hands[s] = slices.Sorted(slices.Values(unseen[:n]))
			unseen = unseen[n:]
		}
	}
	d.deck = unseen
	return d
}

// Evaluate knows that leaving a multiple of five wins.
func (c *cards) Evaluate(seat int) float64 {
	if c.over {
		return outcomeValue(c.winners, seat)
	}
	if (seat == c.turn) == (c.pile%5 != 0) {
		return 0.5
	}
	return -0.5
}

func outcomeValue(winners []int, seat int) float64 {
	switch {
	case slices.Contains(winners, seat):
		return 1
	case len(winners) > 0:
		return -1
	}
	return 0
}

// --- pig ---

// pigGame is a dice game: in turn, a player rolls a die as often as they
// like, adding up its faces, and holds to bank the sum; a 1 loses the
// turn's sum and ends the turn. Who banks 30 wins; after 100 rounds the
// match ends with no winner.
func pigGame() game.Definition {
	return &testDef{
		info:  game.Info{Pack: "pig", Name: "Pig", MinPlayers: 2, MaxPlayers: 4, DefaultMaxRounds: 100},
		start: func(s game.Setup) game.Match { return newPig(s) },
	}
}

type pig struct {
	table
	scores    []int
	total     int // this turn's
	turn      int
	maxRounds int
	dice      rng.Stream
}

type pigCommand struct {
	Do string `json:"do"`
}

func newPig(s game.Setup) *pig {
	p := &pig{table: newTable(s), scores: make([]int, len(s.Players)), maxRounds: s.MaxRounds}
	if p.maxRounds == 0 {
		p.maxRounds = 100
	}
	p.dice = *rng.New(s.Seed).Stream("dice")
	return p
}

func (p *pig) Waiting() []int {
	if p.over {
		return nil
	}
	return []int{p.turn}
}

func (p *pig) Legal(seat int) []game.Command {
	if p.over || seat != p.turn {
		return nil
	}
	out := []game.Command{command("Roll", `{"do":"roll"}`)}
	if p.total > 0 {
		out = append(out, command(fmt.Sprintf("Hold %d", p.total), `{"do":"hold"}`))
	}
	return out
}

func (p *pig) Apply(seat int, data json.RawMessage) error {
	var cmd pigCommand
	if err := decode(data, &cmd, seat, p.Waiting()); err != nil {
		return err
	}
	switch {
	case cmd.Do == "roll":
		d := p.dice.IntN(6) + 1
		p.say(seat, "%s rolls %d", p.names[seat], d)
		if d != 1 {
			p.total += d
			return nil
		}
		p.total = 0
	case cmd.Do == "hold" && p.total > 0:
		p.scores[seat] += p.total
		p.total = 0
		p.say(seat, "%s holds: %d", p.names[seat], p.scores[seat])
		if p.scores[seat] >= 30 {
			p.end(p.names[seat]+" banked 30", seat)
			return nil
		}
	default:
		return engine.Rejectf(`roll, or hold once you have rolled: {"do": "roll"} or {"do": "hold"}`)
	}
	if p.turn = (p.turn + 1) % len(p.names); p.turn == 0 {
		if p.rounds++; p.rounds > p.maxRounds {
			p.end("the round limit was reached")
		}
	}
	return nil
}

func (p *pig) View(int) any {
	return struct {
		Scores []int `json:"scores"`
		Total  int   `json:"total"`
		Turn   int   `json:"turn"`
	}{p.scores, p.total, p.turn}
}

func (p *pig) Hash() string {
	return hashOf(p.scores, p.total, p.turn, p.over, p.winners, p.rounds, p.dice.Draws(), len(p.log))
}

func (p *pig) Clone() game.Match {
	q := *p
	q.table = p.table.copy()
	q.scores = slices.Clone(p.scores)
	return &q
}

// Determinize draws the dice to come again: nobody may know them.
func (p *pig) Determinize(_ int, r *rng.Stream) game.Match {
	q := p.Clone().(*pig)
	q.dice = *rng.New(r.Uint64()).Stream("dice")
	return q
}

// Evaluate is the seat's lead over the best other seat, counting the sum
// of the turn being played, over the 30 to bank.
func (p *pig) Evaluate(seat int) float64 {
	if p.over {
		return outcomeValue(p.winners, seat)
	}
	score := func(s int) int {
		if s == p.turn {
			return p.scores[s] + p.total
		}
		return p.scores[s]
	}
	best := -1 << 30
	for s := range p.scores {
		if s != seat {
			best = max(best, score(s))
		}
	}
	return float64(score(seat)-best) / 30
}

// --- bids ---

// bidsGame has every seat decide at once and in secret: each holds cards
// 1 to 5; each round every player bids a card face down (the match waits
// for all who have not), then the bids are shown and the highest bid,
// alone, wins the round. Who wins most of the five rounds wins.
func bidsGame() game.Definition {
	return &testDef{
		info:  game.Info{Pack: "bids", Name: "Bids", MinPlayers: 2, MaxPlayers: 4},
		start: func(s game.Setup) game.Match { return newBids(s) },
	}
}

type bids struct {
	table
	hands [][]int // what each seat has not bid yet: everyone knows
	bid   []int   // this round's bids, 0 for none yet: secret
	won   []int
}

type bidsCommand struct {
	Bid int `json:"bid"`
}

func newBids(s game.Setup) *bids {
	b := &bids{table: newTable(s), hands: make([][]int, len(s.Players)), bid: make([]int, len(s.Players)), won: make([]int, len(s.Players))}
	for i := range b.hands {
		b.hands[i] = []int{1, 2, 3, 4, 5}
	}
	return b
}

func (b *bids) Waiting() []int {
	var out []int
	for s, v := range b.bid {
		if v == 0 && !b.over {
			out = append(out, s)
		}
	}
	return out
}

func (b *bids) Legal(seat int) []game.Command {
	if !slices.Contains(b.Waiting(), seat) {
		return nil
	}
	var out []game.Command
	for _, v := range b.hands[seat] {
		out = append(out, command(fmt.Sprintf("Bid %d", v), `{"bid":%d}`, v))
	}
	return out
}

func (b *bids) Apply(seat int, data json.RawMessage) error {
	var cmd bidsCommand
	if err := decode(data, &cmd, seat, b.Waiting()); err != nil {
		return err
	}
	if !slices.Contains(b.hands[seat], cmd.Bid) {
		return engine.Rejectf("bid one of your cards: %v", b.hands[seat])
	}
	b.bid[seat] = cmd.Bid
	b.say(seat, "%s bids", b.names[seat])
	if slices.Contains(b.bid, 0) {
		return nil
	}
	top := slices.Max(b.bid)
	if winner := slices.Index(b.bid, top); slices.Index(b.bid[winner+1:], top) < 0 {
		b.won[winner]++
		b.say(winner, "%s wins the round with %d", b.names[winner], top)
	}
	for s, v := range b.bid {
		b.hands[s] = slices.DeleteFunc(b.hands[s], func(c int) bool { return c == v })
		b.bid[s] = 0
	}
	if len(b.hands[0]) > 0 {
		b.rounds++
		return nil
	}
	most := slices.Max(b.won)
	if winner := slices.Index(b.won, most); slices.Index(b.won[winner+1:], most) < 0 {
		b.end(b.names[winner]+" won most rounds", winner)
	} else {
		b.end("a tie")
	}
	return nil
}

func (b *bids) View(seat int) any {
	v := struct {
		Hands [][]int `json:"hands"`
		Bid   []bool  `json:"bid"`
		Won   []int   `json:"won"`
		Mine  int     `json:"mine,omitempty"`
	}{b.hands, make([]bool, len(b.bid)), b.won, 0}
	for s, x := range b.bid {
		v.Bid[s] = x != 0
	}
	if seat >= 0 && seat < len(b.bid) {
		v.Mine = b.bid[seat]
	}
	return v
}

func (b *bids) Hash() string {
	return hashOf(b.hands, b.bid, b.won, b.over, b.winners, b.rounds, len(b.log))
}

func (b *bids) Clone() game.Match {
	c := *b
	c.table = b.table.copy()
	c.hands = cloneHands(b.hands)
	c.bid = slices.Clone(b.bid)
	c.won = slices.Clone(b.won)
	return &c
}

// Determinize draws again the bids the seat has not seen.
func (b *bids) Determinize(seat int, r *rng.Stream) game.Match {
	c := b.Clone().(*bids)
	for s, v := range c.bid {
		if s != seat && v != 0 {
			c.bid[s] = c.hands[s][r.IntN(len(c.hands[s]))]
		}
	}
	return c
}
