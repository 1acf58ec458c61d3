package code

import (
	"cel.dev/cel-go/cel"

	"fmt"
	"github.com/tabulagames/tabula/games/internal/celcost"
	"strings"
	"testing"
)

// costliest are conditions Compile accepts whose estimated cost is near
// the limit: strings built and compared, loops over the stats, a regular
// expression as complex as allowed.
var costliest = []string{
	`player.stats.all(k, k.size() > 0 && player.stats[k] >= 0.0 && k != space.name)`,
	`player.stats.exists(k, k.startsWith(space.name) || k.endsWith(space.id))`,
	`(player.nickname + space.name + space.id + space.type).contains(player.currentSpaceId + space.name + player.nickname)`,
	`[player.nickname, space.name, space.id, space.type, player.currentSpaceId, player.nickname + space.id, space.name + space.type].exists(s, s.matches('^((a|aa)*(a+)+[b-z0-9]{1,70}){1,3}$'))`,
}

// longest are the values a condition sees, as long and as many as a board
// and a match allow.
func longest() *Vars {
	name := strings.Repeat("a", MaxName)
	stats := map[string]float64{}
	for i := range MaxStats {
		stats[fmt.Sprintf("%0*d", MaxName, i)] = float64(i)
	}
	return &Vars{Player: &Player{Nickname: name, CurrentSpaceID: name, Stats: stats},
		Space: &Space{ID: name, Name: name, Type: name}, Game: &Game{}}
}

// TestCostliestConditions: the costliest conditions Compile accepts, run
// on the longest strings and the most stats a board and a match allow,
// cost no more than the limit and allocate little; run on more stats
// than allowed, the limit stops them.
func TestCostliestConditions(t *testing.T) {
	v := longest()
	celcost.CheckCostliest(t, env, sizes, MaxCost, MaxCost/16, costliest, func(src string) cel.Program {
		c, probs := Compile(src)
		if c == nil {
			t.Fatalf("%s: %v", src, probs)
		}
		return c.prg
	}, v)
	for i := range 10 * MaxStats {
		v.Player.Stats[fmt.Sprintf("x%0*d", MaxName, i)] = 1
	}
	c, _ := Compile(costliest[0])
	if _, err := c.Eval(v); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("a condition over 11 times as many stats as allowed: %v, want the cost limit", err)
	}
}

// TestRefused: what the cost estimate cannot bound is refused.
func TestRefused(t *testing.T) {
	for _, src := range []string{
		`player.nickname.matches(space.name)`,
		`player.stats.all(k, player.stats.all(j, k + j != space.name))`,
	} {
		if c, probs := Compile(src); c != nil || len(probs) == 0 {
			t.Errorf("%s compiles", src)
		}
	}
}

// BenchmarkCostliestConditions measures the costliest conditions Compile
// accepts on the longest strings and the most stats allowed.
func BenchmarkCostliestConditions(b *testing.B) {
	v := longest()
	for i, src := range costliest {
		b.Run(fmt.Sprint(i), func(b *testing.B) {
			c, _ := Compile(src)
			b.ReportAllocs()
			for b.Loop() {
				c.Eval(v)
			}
		})
	}
}
