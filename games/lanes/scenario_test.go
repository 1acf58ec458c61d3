package lanes

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/scenario"
)

// examples is the folder of the lanes scenario files, which `tabula test`
// runs too.
const examples = "../../examples/lanes"

// TestScenarios runs every scenario file of examples/lanes, twice: the
// second run must give the same log and state hash.
func TestScenarios(t *testing.T) {
	files, err := scenario.Find([]string{examples})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := RunScenario(f, data)
			if !r.Passed() {
				t.Error(r.String())
			}
		})
	}
}
