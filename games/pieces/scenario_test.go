package pieces_test

import (
	"github.com/tabulagames/tabula/scenario/scenariotest"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/games/pieces"
	"github.com/tabulagames/tabula/scenario"
)

// Every scenario file of the bundled games passes.
func TestExampleScenarios(t *testing.T) {
	files, err := scenario.Find([]string{"../../examples/pieces"})
	if err != nil {
		t.Fatal(err)
	}
	p := pieces.NewPack()
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if r := p.RunScenario(f, data); !r.Passed() {
				t.Error(r.String())
			}
		})
	}
}

// Scenario files written before players read spaces by name, on the game
// files of then, still pass: their log says "Ann's piece 1 moves from t3
// to t7" and "is sent home by", their moves "Move piece 1 from t3 to t7",
// as that version wrote them (long games from its bot among them).
func TestScenariosWrittenBeforeNames(t *testing.T) {
	scenariotest.RunWrittenBefore(t, "testdata/before-names", 12, pieces.NewPack().RunScenario)
}
