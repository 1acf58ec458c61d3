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

// RunWrittenBefore runs, as Run, scenario files written in an earlier
// version's words, on the game files of then: each must pass, and at
// least one must name a line in those words (its result notes it), or the
// folder no longer tests what it is kept for.
func RunWrittenBefore(t *testing.T, dir string, least int, run func(path string, data []byte) *scenario.Result) []string {
	t.Helper()
	noted := 0
	files := Run(t, dir, least, func(path string, data []byte) *scenario.Result {
		r := run(path, data)
		noted += len(r.Notes)
		return r
	})
	if noted == 0 {
		t.Errorf("no scenario of %s names a line in an earlier version's words", dir)
	}
	return files
}
