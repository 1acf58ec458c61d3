package pieces_test

import (
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
