// Package scenariotest runs folders of scenario files from Go tests, as
// `tabula test` runs them, so that a pack's example scenarios are part of
// its tests.
package scenariotest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/scenario"
)

// Run runs every scenario file below dir with run (a pack's
// RunScenario), each as a subtest named after its path below dir, and
// fails each scenario that fails with its report. It returns the files,
// for a pack's own checks of them; it fails the test if there are fewer
// than least.
func Run(t *testing.T, dir string, least int, run func(path string, data []byte) *scenario.Result) []string {
	t.Helper()
	files, err := scenario.Find([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < least {
		t.Fatalf("%s holds %d scenario files, want at least %d", dir, len(files), least)
	}
	for _, f := range files {
		name, err := filepath.Rel(dir, f)
		if err != nil {
			name = f
		}
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if r := run(f, data); !r.Passed() {
				t.Error(r.String())
			}
		})
	}
	return files
}
