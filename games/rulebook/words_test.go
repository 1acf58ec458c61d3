package rulebook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// engineWords are what a rule book's log must not tell players: the names
// of events, actions and presets, its rules' own names, "score" (a game
// names its own counter), "Waiting for" and "option", which stay in
// Detail.
func engineWords(f *File) []string {
	words := []string{"Waiting for", "option ", "score", "PLAYER_WON"}
	for _, e := range EventsOf(f) {
		words = append(words, e.Name)
	}
	for _, a := range actions {
		words = append(words, a.Name)
	}
	for _, p := range presets {
		words = append(words, p.Name+":")
	}
	var names []string
	for _, t := range f.Board.Tiles {
		names = append(names, t.Name)
	}
	for _, d := range f.Decks {
		for _, c := range d.Cards {
			names = append(names, c.Name)
		}
	}
	for _, r := range f.Rules {
		// A rule may share its name with a tile or a card ("Chance").
		if r.Name != "" && !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, r.Name) }) {
			words = append(words, r.Name)
		}
	}
	return words
}

// The log tells players a game: no Text holds the engine's words, and a
// finished game is over once ("Game over: Ann won"). The shipped games
// are played by bots, and one that the rules end (END_GAME) with a score
// of its own name.
func TestLogSpeaksThePlayersWords(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(examples, "*.json"))
	type played struct {
		name string
		data []byte
	}
	var games []played
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, played{filepath.Base(path), data})
	}
	var f map[string]any
	json.Unmarshal(games[0].data, &f)
	f["players"] = map[string]any{"min": 2, "max": 4, "scoreName": "points", "start": map[string]any{"score": 3}}
	f["rules"] = append(f["rules"].([]any), map[string]any{"preset": "TurnLimit", "rounds": 2},
		map[string]any{"when": map[string]any{"event": "TILE_LANDED"}, "then": []any{map[string]any{"action": "CHANGE_SCORE", "amount": 1}}})
	data, _ := json.Marshal(f)
	games = append(games, played{"ended by the rules", data})
	for _, g := range games {
		def, list := pack.Parse(g.name, g.data)
		if def == nil {
			t.Fatalf("%s: %s", g.name, lines(list))
		}
		words := engineWords(def.File)
		for seed := range uint64(3) {
			m := start(t, def, game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: seed})
			if err := m.PlayBots(rng.New(seed).Stream("bots"), 100_000); err != nil {
				t.Fatal(err)
			}
			overs := 0
			for _, e := range m.Log(game.Spectator, 0) {
				for _, w := range words {
					// A SAY is the game's own line for players.
					if strings.Contains(e.Text, w) && e.Kind != "note" {
						t.Errorf("%s, seed %d: %q says %q", g.name, seed, e.Text, w)
					}
				}
				if strings.HasPrefix(e.Text, "Game over") {
					overs++
				}
			}
			if overs != 1 {
				t.Errorf("%s, seed %d: the game is over %d times in the log", g.name, seed, overs)
			}
		}
	}
}

// A game names its players' score (players.scoreName), and the log, the
// view and the terminal use the name; a game that keeps no score (Chutes
// and Ladders) shows none.
func TestScoreName(t *testing.T) {
	const game1 = `{"game": "rulebook", "players": {"scoreName": %s, "start": {"score": 10}}, "board": {"tiles": [{"id": "a", "next": ["b"]}, {"id": "b", "next": ["c"]}, {"id": "c"}]},
 "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}, {"when": {"event": "TILE_LANDED"}, "then": [{"action": "CHANGE_SCORE", "amount": 5}]}]}`
	def, list := pack.Parse("money.json", []byte(fmt.Sprintf(game1, `"money"`)))
	if def == nil {
		t.Fatal(lines(list))
	}
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{1}})
	apply(t, m, 0, `{"kind": "roll"}`)
	v := m.View(1).(View)
	if !v.Scores || v.ScoreName != "money" || !strings.Contains(m.Text(1), "Ann: 15 money, on B\n") {
		t.Errorf("view: scores %v named %q; terminal:\n%s", v.Scores, v.ScoreName, m.Text(1))
	}
	if !slices.ContainsFunc(m.Log(game.Spectator, 0), func(e game.Entry) bool { return e.Text == "Ann's money: +5 (now 15)" }) {
		t.Errorf("the log does not say money: %+v", m.Log(game.Spectator, 0))
	}
	chutes := start(t, load(t, "chutes-and-ladders.json"), game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
	if v := chutes.View(0).(View); v.Scores || v.ScoreName != "" || !strings.Contains(chutes.Text(0), "Ann (you): on Start\n") {
		t.Errorf("Chutes and Ladders: scores %v named %q; terminal:\n%s", v.Scores, v.ScoreName, chutes.Text(0))
	}
	for _, name := range []string{`"  "`, `"` + strings.Repeat("x", maxScoreName+1) + `"`} {
		if def, list := pack.Parse("money.json", []byte(fmt.Sprintf(game1, name))); def != nil || len(list) == 0 || list[0].Pointer != "/players/scoreName" {
			t.Errorf("scoreName %s: %s", name, lines(list))
		}
	}
}
