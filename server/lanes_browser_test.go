package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// cascadeDrill is a short drone lane game for the page's test. Its decks
// hold one or two cards each, so that every hand is known in kind whatever
// the shuffle: the first seat deploys drones that set each other off
// (Relay draws when a friendly drone gains attack, Odin gains attack and
// Loki energy when their player draws, Thor gains attack on energy) and
// plays Boost, a card with a target; the second lays Proximity Mines and
// moves drones with Reposition, a card of several drones.
const cascadeDrill = `{"game": "lanes", "version": 1, "name": "Cascade drill", "description": "A short drone lane game whose drones set each other off: one side feeds a cascade, the other lays mines.",
 "rules": {
  "sections": [
   {"name": "Bridge", "description": "Sets the hand limit.", "hull": 10, "shields": 3, "thresholds": {"damaged": 5, "critical": 0}, "stats": {"healthy": {"handLimit": 5}, "damaged": {"handLimit": 4}, "critical": {"handLimit": 3}}, "middleLaneBonus": {"handLimit": 1}},
   {"name": "Power Cell", "description": "Sets the energy each round.", "hull": 10, "shields": 3, "thresholds": {"damaged": 5, "critical": 0}, "stats": {"healthy": {"energyPerRound": 10, "maxEnergy": 10}, "damaged": {"energyPerRound": 10, "maxEnergy": 10}, "critical": {"energyPerRound": 8, "maxEnergy": 8}}, "middleLaneBonus": {"energyPerRound": 2, "maxEnergy": 2}},
   {"name": "Drone Control Hub", "description": "Sets the deployment budget and the CPU limit.", "hull": 10, "shields": 3, "thresholds": {"damaged": 5, "critical": 0}, "stats": {"healthy": {"initialDeployment": 10, "deploymentBudget": 4, "cpuLimit": 8}, "damaged": {"initialDeployment": 10, "deploymentBudget": 3, "cpuLimit": 7}, "critical": {"initialDeployment": 10, "deploymentBudget": 2, "cpuLimit": 6}}, "middleLaneBonus": {"cpuLimit": 1}}
  ],
  "victory": {"damagePercent": 60}, "maxRounds": 3,
  "squads": [["Relay", "Odin", "Loki", "Thor"], ["Osiris", "Gladiator", "Firefly"]],
  "decks": [[{"card": "Boost", "count": 8}], [{"card": "Deploy_Proximity_Mine", "count": 4}, {"card": "Reposition", "count": 4}]]
 },
 "triggerTypes": [{"name": "ON_POWER_GAIN", "description": "A friendly drone's attack rose.", "category": "CONTROLLER", "firedBy": {"statRaised": "attack"}}],
 "drones": [
  {"name": "Relay", "class": 1, "attack": 0, "hull": 2, "shields": 0, "speed": 1, "limit": 1, "abilities": [{"name": "Feedback", "description": "When a friendly drone gains attack, draw a card.", "type": "TRIGGERED", "trigger": "ON_POWER_GAIN", "triggerOwner": "CONTROLLER", "effects": [{"type": "DRAW", "value": 1}]}]},
  {"name": "Odin", "class": 4, "attack": 1, "hull": 3, "shields": 3, "speed": 2, "limit": 1, "abilities": [{"name": "All-Seeing Eye", "description": "Gains +1 attack permanently for each card its controller draws.", "type": "TRIGGERED", "trigger": "ON_CARD_DRAWN", "triggerOwner": "CONTROLLER", "effects": [{"type": "MODIFY_STAT", "mod": {"stat": "attack", "value": 1, "type": "permanent"}}]}]},
  {"name": "Loki", "class": 2, "attack": 1, "hull": 2, "shields": 1, "speed": 2, "limit": 1, "abilities": [{"name": "Trickster", "description": "When its controller draws a card, gain 1 energy.", "type": "TRIGGERED", "trigger": "ON_CARD_DRAWN", "triggerOwner": "CONTROLLER", "effects": [{"type": "GAIN_ENERGY", "value": 1}]}]},
  {"name": "Thor", "class": 3, "attack": 1, "hull": 1, "shields": 3, "speed": 4, "limit": 2, "abilities": [{"name": "Storm Surge", "description": "Gains +1 attack permanently whenever its controller gains energy.", "type": "TRIGGERED", "trigger": "ON_ENERGY_GAINED", "triggerOwner": "CONTROLLER", "effects": [{"type": "MODIFY_STAT", "mod": {"stat": "attack", "value": 1, "type": "permanent"}}]}]},
  {"name": "Osiris", "class": 3, "attack": 0, "hull": 4, "shields": 1, "speed": 5, "limit": 2, "abilities": [{"name": "Regeneration Protocol", "description": "When this drone moves, it repairs 4 hull.", "type": "TRIGGERED", "trigger": "ON_MOVE", "triggerScope": "SELF", "effects": [{"type": "HEAL_HULL", "value": 4, "scope": "SELF"}]}]},
  {"name": "Gladiator", "class": 2, "attack": 1, "hull": 2, "shields": 2, "speed": 3, "limit": 2, "abilities": [{"name": "Veteran Instincts", "description": "After attacking, gains +1 attack permanently.", "type": "TRIGGERED", "trigger": "ON_ATTACK", "triggerScope": "SELF", "effects": [{"type": "MODIFY_STAT", "mod": {"stat": "attack", "value": 1, "type": "permanent"}}]}]},
  {"name": "Firefly", "class": 1, "attack": 3, "hull": 1, "shields": 0, "speed": 2, "limit": 4, "abilities": [{"name": "Self-Destruct", "description": "After attacking, this drone is destroyed.", "type": "TRIGGERED", "trigger": "ON_ATTACK", "triggerScope": "SELF", "effects": [{"type": "DESTROY", "scope": "SELF"}]}]},
  {"name": "Proximity Mine", "class": 0, "attack": 0, "hull": 1, "shields": 0, "speed": 1, "limit": 999, "token": true, "maxPerLane": 1, "keywords": ["INERT", "PASSIVE"], "abilities": [{"name": "Proximity Detonation", "description": "When a drone moves into this lane, deal 4 damage to it; then the mine is destroyed.", "type": "TRIGGERED", "trigger": "ON_LANE_MOVEMENT_IN", "triggerOwner": "LANE_OWNER", "destroyAfterTrigger": true, "effects": [{"type": "DAMAGE", "value": 4, "scope": "TRIGGERING_DRONE"}]}]}
 ],
 "cards": [
  {"id": "Boost", "name": "Boost", "type": "Tactic", "cost": 2, "maxInDeck": 8, "description": "A friendly drone gets +2 attack until the next round.", "targeting": {"type": "DRONE", "affinity": "FRIENDLY"}, "effects": [{"type": "MODIFY_STAT", "scope": "TARGET", "mod": {"stat": "attack", "value": 2, "type": "temporary"}}]},
  {"id": "Deploy_Proximity_Mine", "name": "Proximity Mine", "type": "Ordnance", "subType": "Mine", "cost": 2, "maxInDeck": 8, "description": "Place a Proximity Mine in an enemy lane.", "targeting": {"type": "LANE", "affinity": "ENEMY"}, "effects": [{"type": "CREATE_TOKENS", "tokenName": "Proximity Mine", "targetOwner": "OPPONENT", "ignoresCPULimit": true}]},
  {"id": "Reposition", "name": "Reposition", "type": "Tactic", "cost": 1, "maxInDeck": 8, "description": "Move up to 3 friendly drones from one lane to an adjacent lane, one after the other, without exhausting them.", "targeting": {"type": "DRONES", "affinity": "FRIENDLY"}, "effects": [{"type": "MULTI_MOVE", "count": 3, "exhaust": false}]}
 ]
}`

// lanesNow is what a person's lane page shows: the seat, whose turn, the
// phase, whether the log is being played on the board, whether the game
// is over.
const lanesNow = `(() => {
  const L = document.getElementById("lanes");
  if (!L) return "{}";
  return JSON.stringify({you: Number(L.dataset.you), turn: Number(L.dataset.turn), phase: L.dataset.phase,
    round: Number(L.dataset.round), animating: !!L.dataset.animating,
    over: document.getElementById("app").dataset.over === "true"});
})()`

// lanesAct plays as a hurried person would: while deploying, the first
// drone of the squad into the first lane offered; then the first attack
// they find by clicking their drones one after the other and, on each, a
// highlighted ship section or enemy drone; without one they pass. It says
// what it did.
const lanesAct = `(() => {
  const L = document.getElementById("lanes");
  if (!L || L.dataset.animating || L.dataset.turn !== L.dataset.you) return "";
  const you = L.dataset.you, opp = String(1 - Number(you));
  const squad = document.querySelector("#controls .squad-drone.candidate");
  if (squad) {
    squad.click();
    const lane = L.querySelector(".lane-target.candidate");
    if (lane) { lane.click(); return "deploy " + squad.dataset.key; }
    document.getElementById("cancel").click();
  }
  for (const d of L.querySelectorAll('.drone.candidate[data-seat="' + you + '"]')) {
    d.click();
    const t = L.querySelector(".ship-section.candidate") || L.querySelector('.drone.candidate[data-seat="' + opp + '"]');
    if (t) {
      const what = "attack " + (t.dataset.section || t.dataset.drone) + " with " + d.dataset.drone;
      t.click();
      return what;
    }
    document.getElementById("cancel").click();
  }
  const pass = document.getElementById("pass");
  if (pass) { pass.click(); pass.click(); return "pass"; } // passing asks once
  return "";
})()`

type lanesState struct {
	You, Turn, Round int
	Phase            string
	Animating, Over  bool
}

// lanesLine is a line of a page's log.
type lanesLine struct {
	Seq   int    `json:"seq"`
	Chain int    `json:"chain"`
	Depth int    `json:"depth"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
}

// Two people play a lane game to its end in the browser, one of them on a
// phone-sized screen, while a third watches: they deploy by choosing a
// drone of their squad and a highlighted lane, play a card on a drone they
// click (setting off a cascade the watcher sees animated in the log's
// order), lay a mine in a lane, move two drones in order with a card,
// move a drone with the keyboard alone into the mine, and attack until
// the game ends. Nobody sees a card of another's hand before it is played.
func TestLanesInTheBrowser(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	var up struct {
		Board GameInfo `json:"board"`
	}
	if st := ts.call("POST", "/api/boards?name=cascade-drill.json", cascadeDrill, &up); st != http.StatusCreated && st != http.StatusOK {
		t.Fatalf("uploading the drill: %d", st)
	}
	var m created
	if st := ts.call("POST", "/api/matches", map[string]any{"board": up.Board.ID, "seats": 2}, &m); st != http.StatusCreated {
		t.Fatalf("creating the match: %d", st)
	}

	b := newBrowser(t, exe)
	ann, bob, watcher := b.person(), b.person(), b.person()
	defer failOnScriptErrors(t, ann, bob, watcher)()
	b.run(bob, phone())
	for _, p := range []struct {
		ctx  context.Context
		name string
	}{{ann, "Ann"}, {bob, "Bob"}} {
		b.run(p.ctx, chromedp.Navigate(ts.hs.URL+m.URL),
			chromedp.WaitVisible(chromedp.ID("nickname")),
			chromedp.SendKeys(chromedp.ID("nickname"), p.name),
			chromedp.Click(chromedp.ID("join-button")),
			chromedp.Poll[chromedp.Void](`[...document.querySelectorAll("#seats li")].some(li => li.textContent.includes("— you"))`))
	}
	b.run(watcher, chromedp.Navigate(ts.hs.URL+m.URL), chromedp.WaitVisible(chromedp.ID("seats")))
	if st := ts.call("POST", "/api/matches/"+m.ID+"/start", map[string]any{"owner": m.Owner}, nil); st != http.StatusOK {
		t.Fatalf("starting: %d", st)
	}
	people := map[string]context.Context{"Ann": ann, "Bob": bob, "the watcher": watcher}
	leaveWhatTheySaw(t, people)
	for _, ctx := range people {
		b.run(ctx, chromedp.WaitVisible(chromedp.ID("lanes")))
	}
	now := func(ctx context.Context) lanesState {
		t.Helper()
		var s lanesState
		if err := json.Unmarshal([]byte(b.eval(ctx, lanesNow)), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := now(ann); s.You != 0 || s.Phase != "deployment" {
		t.Fatalf("Ann sees %+v", s)
	}
	if s := now(watcher); s.You != -1 {
		t.Fatalf("the watcher sees %+v", s)
	}
	seat := map[int]context.Context{0: ann, 1: bob}
	names := map[int]string{0: "Ann", 1: "Bob"}

	// Nobody sees a card of another's hand before it is played: the
	// watcher sees only card backs, each player only their own cards.
	hidden := map[string][]string{
		"Boost":          {"Bob", "the watcher"},
		"Proximity Mine": {"Ann", "the watcher"},
		"Reposition":     {"Ann", "the watcher"},
	}
	checkHidden := func() {
		t.Helper()
		for card, who := range hidden {
			for _, name := range who {
				if b.eval(people[name], `String(document.documentElement.outerHTML.includes(`+strconv.Quote(card)+`))`) == "true" {
					t.Errorf("%s's page shows %q before it is played", name, card)
				}
			}
		}
		if n := b.eval(watcher, `String(document.querySelectorAll("#lanes .hand .card").length)`); n != "0" {
			t.Errorf("the watcher sees %s cards face up", n)
		}
		if n := b.eval(watcher, `String(document.querySelectorAll("#lanes .card-back").length)`); n == "0" {
			t.Errorf("the watcher sees no card backs")
		}
	}
	played := func(card string) {
		t.Helper()
		checkHidden()
		delete(hidden, card)
	}
	// noSideScroll: the phone's page never scrolls sideways; the hand
	// scrolls inside itself.
	noSideScroll := func() {
		t.Helper()
		if w := b.eval(bob, `document.documentElement.scrollWidth + " " + window.innerWidth`); strings.Fields(w)[0] != strings.Fields(w)[1] {
			t.Errorf("Bob's phone scrolls sideways: page width %s", w)
		}
	}
	checkHidden()
	noSideScroll()

	// ready waits until it is a seat's turn on its page, with nothing
	// being animated.
	ready := func(s int) context.Context {
		t.Helper()
		ctx := seat[s]
		b.run(ctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const L = document.getElementById("lanes");
			return L && L.dataset.turn === "%d" && !L.dataset.animating && !!document.querySelector("#lanes .candidate, #controls .candidate, #pass"); })()`, s)))
		return ctx
	}
	click := func(ctx context.Context, key string) {
		t.Helper()
		b.run(ctx, chromedp.Click(chromedp.CSS(`[data-key="`+key+`"].candidate`)))
	}
	turn := func() int { return now(ann).Turn }
	// acted waits until both players' pages show the state after a
	// command (before is the state hash it was played on) and have played
	// its log.
	hash := func() string { return b.eval(ann, `document.getElementById("app").dataset.hash || ""`) }
	acted := func(before string) {
		t.Helper()
		for _, ctx := range []context.Context{ann, bob} {
			b.run(ctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const h = document.getElementById("app").dataset.hash;
				return h && h !== %q && !document.getElementById("lanes").dataset.animating; })()`, before)))
		}
	}

	// Deployment: a drone of the squad, then a highlighted lane of one's
	// own side.
	plans := map[int][]string{0: {"Relay", "Odin", "Loki", "Thor"}, 1: {"Gladiator", "Firefly", "Osiris"}}
	lanesOf := map[string]int{"Relay": 1, "Odin": 1, "Loki": 1, "Thor": 1, "Gladiator": 1, "Firefly": 1, "Osiris": 2}
	for now(ann).Phase == "deployment" {
		s := turn()
		ctx := ready(s)
		if now(ann).Phase != "deployment" {
			break
		}
		before := hash()
		if len(plans[s]) == 0 {
			// Passing asks once: the second press passes.
			b.run(ctx, chromedp.Click(chromedp.ID("pass")), poll(`document.getElementById("pass").classList.contains("confirming")`),
				chromedp.Click(chromedp.ID("pass")))
		} else {
			d := plans[s][0]
			plans[s] = plans[s][1:]
			click(ctx, "squad:"+d)
			click(ctx, fmt.Sprintf("lane:%d:%d", s, lanesOf[d]))
		}
		acted(before)
	}
	b.run(ann, chromedp.Poll[chromedp.Void](`document.querySelectorAll('#lanes .drone[data-seat="0"]').length === 4`))
	b.run(watcher, chromedp.Poll[chromedp.Void](`document.querySelectorAll('#lanes .drone[data-seat="1"]').length === 3`))

	// The watcher's page records, as they happen, the drones that pulse
	// and the firings written in the log: the board shows them in the
	// log's order.
	b.eval(watcher, `(() => {
		window.pulses = []; window.firings = [];
		new MutationObserver((ms) => { for (const m of ms) {
			if (m.type === "attributes" && m.target.classList.contains("firing") && !(m.oldValue || "").includes("firing")) pulses.push(m.target.dataset.drone);
			for (const n of m.addedNodes || []) if (n.classList?.contains("kind-fired")) firings.push(n.dataset.seq);
		} }).observe(document.getElementById("app"), {subtree: true, childList: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true});
		return "";
	})()`)

	// The action phase, driven: Ann boosts Thor (a card with a target,
	// clicked on the board), which sets off a cascade, then moves Loki
	// into the lane Bob mined, with the keyboard alone; Bob lays a mine
	// in Ann's lane 2 and repositions Gladiator and Firefly, in that
	// order, to his lane 2.
	steps := map[int][]func(ctx context.Context){
		0: {func(ctx context.Context) {
			played("Boost")
			click(ctx, "card:Boost")
			// Boost is for a friendly drone: only those on Ann's board are
			// offered.
			if got := b.eval(ctx, `[...document.querySelectorAll('#lanes .drone.candidate')].map(d => d.dataset.seat).join(",")`); !strings.HasPrefix(got, "0,0,0,0") || strings.Contains(got, "1") {
				t.Errorf("Boost offers drones on the seats %s", got)
			}
			click(ctx, "drone:Thor")
			time.Sleep(1200 * time.Millisecond)
			b.screenshot(watcher, "lanes-cascade-animated.png")
		}, func(ctx context.Context) {
			loki := chromedp.CSS(`#lanes .drone.candidate[data-drone="Loki"]`)
			b.run(ctx, chromedp.Focus(loki), chromedp.KeyEvent(kb.Enter))
			if got := b.eval(ctx, `String(!!document.querySelector('.lane-target.candidate[data-key="lane:0:2"]') && document.activeElement.classList.contains("candidate"))`); got != "true" {
				t.Errorf("Enter on Loki does not offer lane 2 with the focus on a choice")
			}
			b.run(ctx, chromedp.KeyEvent(kb.Escape))
			if got := b.eval(ctx, `String(document.querySelectorAll("#lanes .picked, #lanes .lane-target.candidate").length)`); got != "0" {
				t.Errorf("Escape leaves %s things chosen", got)
			}
			b.run(ctx, chromedp.Focus(loki), chromedp.KeyEvent(kb.Enter))
			for i := 0; i < 20 && b.eval(ctx, `document.activeElement.dataset.key || ""`) != "lane:0:2"; i++ {
				b.run(ctx, chromedp.KeyEvent(kb.Tab))
			}
			if k := b.eval(ctx, `document.activeElement.dataset.key || ""`); k != "lane:0:2" {
				t.Fatalf("Tab never reaches lane 2 (focus on %q)", k)
			}
			b.run(ctx, chromedp.KeyEvent(kb.Enter))
		}},
		1: {func(ctx context.Context) {
			played("Proximity Mine")
			click(ctx, "card:Proximity Mine")
			click(ctx, "lane:0:2")
		}, func(ctx context.Context) {
			played("Reposition")
			click(ctx, "card:Reposition")
			click(ctx, "drone:Gladiator")
			b.screenshot(ctx, "lanes-phone-choosing.png")
			click(ctx, "drone:Firefly")
			click(ctx, "lane:1:2")
		}},
	}
	for len(steps[0])+len(steps[1]) > 0 {
		s := turn()
		ctx := ready(s)
		if len(steps[s]) == 0 {
			t.Fatalf("%s is to play again before the others' moves are done", names[s])
		}
		before := hash()
		steps[s][0](ctx)
		steps[s] = steps[s][1:]
		acted(before)
		noSideScroll()
	}
	for _, ctx := range people {
		b.run(ctx, chromedp.Poll[chromedp.Void](`[...document.querySelectorAll("#log li")].some(li => li.textContent.includes("Proximity Detonation")) &&
			!document.getElementById("lanes").dataset.animating`))
	}

	// The cascade: at least three firings, one set off by another, in the
	// log's order, the same for everybody; the watcher's board pulsed
	// their drones in that order.
	readLog := func(ctx context.Context) []lanesLine {
		t.Helper()
		var lines []lanesLine
		js := `JSON.stringify([...document.querySelectorAll("#log li")].map(li => ({seq: Number(li.dataset.seq), depth: Number(li.dataset.depth),
			chain: Number(li.dataset.chain), kind: li.dataset.kind, text: li.querySelector(".text")?.textContent || ""})))`
		if err := json.Unmarshal([]byte(b.eval(ctx, js)), &lines); err != nil {
			t.Fatal(err)
		}
		return lines
	}
	cascade := func(lines []lanesLine) []lanesLine {
		chain := -1
		var out []lanesLine
		for _, l := range lines {
			if strings.Contains(l.Text, "Ann plays Boost on Thor") {
				chain = l.Chain
			}
			if l.Chain == chain && l.Kind == "fired" {
				out = append(out, l)
			}
		}
		return out
	}
	annLog, watcherLog := readLog(ann), readLog(watcher)
	firings := cascade(annLog)
	deepest := 0
	for i, l := range firings {
		deepest = max(deepest, l.Depth)
		if i > 0 && l.Seq <= firings[i-1].Seq {
			t.Errorf("the log's firings are out of order: %v", firings)
		}
	}
	if len(firings) < 3 || deepest < 2 {
		t.Fatalf("Boost set off %d firings, %d deep: %v", len(firings), deepest, firings)
	}
	if got := cascade(watcherLog); fmt.Sprint(got) != fmt.Sprint(firings) {
		t.Errorf("the watcher's log tells the cascade otherwise:\n%v\n%v", got, firings)
	}
	t.Logf("the cascade: %d firings, %d deep", len(firings), deepest)
	for _, l := range firings {
		t.Logf("  %s%s", strings.Repeat("  ", l.Depth), l.Text)
	}
	var pulses []string
	json.Unmarshal([]byte(b.eval(watcher, `JSON.stringify(pulses)`)), &pulses)
	var want []string
	for _, l := range watcherLog {
		if l.Kind == "fired" && l.Seq >= firings[0].Seq {
			name, _, _ := strings.Cut(strings.TrimPrefix(l.Text, "⚡ "), ":")
			want = append(want, name)
		}
	}
	if len(pulses) < len(firings) || fmt.Sprint(pulses) != fmt.Sprint(want) {
		t.Errorf("the watcher's board pulsed %v; the log's firings are %v", pulses, want)
	}

	b.screenshot(ann, "lanes-desktop.png")
	b.screenshot(bob, "lanes-phone.png")
	if got := b.eval(bob, `(() => { const h = document.querySelector("#lanes .side-bottom .hand");
		return getComputedStyle(h).overflowX + " " + (h.scrollWidth > h.clientWidth); })()`); got != "auto true" {
		t.Errorf("Bob's hand on the phone does not scroll inside itself (overflow, wider: %s)", got)
	}
	b.screenshot(watcher, "lanes-spectator.png")

	// The rest of the game, quickly: every drone attacks what it can, then
	// its player passes.
	for _, ctx := range people {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
			t.Fatal(err)
		}
	}
	did := playOut(t, b, ann, bob)
	t.Logf("after the driven moves: %v", did)
	for who, ctx := range people {
		b.run(ctx, chromedp.Poll[chromedp.Void](`document.getElementById("app").dataset.over === "true" && !!document.getElementById("game-over")`))
		if s := b.eval(ctx, `document.getElementById("lanes-status").textContent`); !strings.Contains(s, "Game over") {
			t.Errorf("%s's page says %q at the end", who, s)
		}
	}
	noSideScroll()
	// A fresh connection shows the log at once, without animating it
	// (motion allowed again).
	if _, err := chromedp.Call(watcher, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: ""}}}); err != nil {
		t.Fatal(err)
	}
	b.run(watcher, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("lanes")),
		chromedp.Poll[chromedp.Void](`[...document.querySelectorAll("#log li")].some(li => li.textContent.includes("Ann plays Boost on Thor"))`))
	if got := b.eval(watcher, `String(!!document.getElementById("lanes").dataset.animating || !!document.querySelector(".fx-chip, .firing"))`); got != "false" {
		t.Errorf("the watcher's reloaded page animates the log")
	}
	b.screenshot(ann, "lanes-finished.png")
	b.screenshot(bob, "lanes-finished-phone.png")

	// The replay shows the board at any point of the match.
	b.run(ann, chromedp.Click(chromedp.ID("replay-link")), chromedp.WaitVisible(chromedp.ID("replay-first")),
		chromedp.Click(chromedp.ID("replay-first")),
		chromedp.Poll[chromedp.Void](`document.getElementById("lanes-status")?.textContent.startsWith("Round 1 of 3 · Deployment")`),
		chromedp.Click(chromedp.ID("replay-last")),
		chromedp.Poll[chromedp.Void](`document.getElementById("lanes-status")?.textContent.startsWith("Game over")`))
}

// failOnScriptErrors collects the uncaught exceptions and console errors
// of people's pages; the function it returns fails the test for each.
func failOnScriptErrors(t *testing.T, people ...context.Context) func() {
	var mu sync.Mutex
	var errs []string
	for _, ctx := range people {
		messages := chromedp.Console(ctx)
		go func() {
			for msg, err := range messages {
				if err != nil {
					return
				}
				if msg.IsException() || msg.Type == "error" && msg.Source == "" {
					mu.Lock()
					errs = append(errs, msg.String())
					mu.Unlock()
				}
			}
		}()
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("a page's script failed: %s", e)
		}
	}
}

// leaveWhatTheySaw keeps, when the test fails, each person's page: its
// text in the test's log and a screenshot in the artifacts.
func leaveWhatTheySaw(t *testing.T, people map[string]context.Context) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for who, ctx := range people {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			if text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`)); err == nil {
				t.Logf("%s sees:\n%s", who, text)
			}
			if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
				name := strings.ReplaceAll(strings.TrimPrefix(who, "the "), " ", "-")
				os.WriteFile(filepath.Join(artifacts(t), "lanes-failed-"+name+".png"), shot, 0o644)
			}
			cancel()
		}
	})
}

// playOut plays the players' pages with lanesAct until the game is over on
// every one of them, and counts what they did.
func playOut(t *testing.T, b *browser, players ...context.Context) map[string]int {
	t.Helper()
	did := map[string]int{}
	for i := 0; ; i++ {
		if i > 3000 {
			t.Fatalf("the game did not end: %v", did)
		}
		moved, over := false, true
		for _, ctx := range players {
			if a := b.eval(ctx, lanesAct); a != "" {
				did[strings.Fields(a)[0]]++
				moved = true
			}
			over = over && b.eval(ctx, `document.getElementById("app").dataset.over || ""`) == "true"
		}
		if over {
			return did
		}
		if !moved {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// One person plays the bundled drone lane game against a bot on a phone
// to its end: the bot answers at once, the page shows its moves in order
// and gives the turn back.
func TestLanesAgainstABotInTheBrowser(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	tb := ts.newTable("drone-lanes", 2, []string{"Ann"}, true, true, map[string]any{"maxRounds": 1})
	b := newBrowser(t, exe)
	ann := b.person()
	defer failOnScriptErrors(t, ann)()
	leaveWhatTheySaw(t, map[string]context.Context{"Ann": ann})
	secrets, _ := json.Marshal(map[string]string{"token": tb.tokens[0]})
	b.run(ann, phone(), chromedp.Navigate(ts.hs.URL+"/"))
	b.eval(ann, `localStorage.setItem("tabula:`+tb.ID+`", `+strconv.Quote(string(secrets))+`), ""`)
	b.run(ann, chromedp.Navigate(ts.hs.URL+"/m/"+tb.ID), chromedp.WaitVisible(chromedp.ID("lanes")))
	if you := b.eval(ann, `document.getElementById("lanes").dataset.you`); you != "0" {
		t.Fatalf("Ann's page plays seat %q", you)
	}
	did := playOut(t, b, ann)
	t.Logf("Ann: %v", did)
	if did["deploy"] == 0 || did["attack"] == 0 {
		t.Errorf("Ann could not deploy and attack: %v", did)
	}
	b.run(ann, chromedp.Poll[chromedp.Void](`!!document.getElementById("game-over") && !document.getElementById("lanes").dataset.animating`))
	if w := b.eval(ann, `document.documentElement.scrollWidth + " " + window.innerWidth`); strings.Fields(w)[0] != strings.Fields(w)[1] {
		t.Errorf("the phone scrolls sideways: page width %s", w)
	}
	b.screenshot(ann, "lanes-bot-phone.png")
}
