package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/scenario"
)

// pack is what the command line needs from a game pack. Each pack registers
// itself from its own file (party.go, lanes.go, …).
type pack struct {
	// Name is the pack's name as scenario files write it ("party").
	Name string
	// Detect reports whether a game file (or folder) is this pack's.
	// data holds the file's contents (nil for a folder).
	Detect func(path string, data []byte) bool
	// Validate checks game files and returns every problem found.
	Validate func(path string) diag.List
	// Play plays a game in the terminal (or with bots).
	Play func(path string, o playOptions, in io.Reader, out, errOut io.Writer) error
	// Scenario runs one scenario file.
	Scenario func(path string, data []byte) *scenario.Result
	// Schemas are the JSON Schemas `tabula schema NAME` prints.
	Schemas map[string][]byte
}

var packs []*pack

func register(p *pack) { packs = append(packs, p) }

// detect finds the pack a game file belongs to.
func detect(path string) (*pack, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var data []byte
	if !info.IsDir() {
		if data, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	for _, p := range packs {
		if p.Detect != nil && p.Detect(path, data) {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s: not a game file Tabula knows (a party board, or a file whose \"game\" field names a pack: %s)", path, packNames())
}

func packByName(name string) *pack {
	for _, p := range packs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func packNames() string {
	var names []string
	for _, p := range packs {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// playOptions are the flags of `tabula play`, shared by every pack.
type playOptions struct {
	Players   []string
	Seed      uint64
	SeedSet   bool
	Bots      string // "all", or comma-separated player names
	Rolls     []int
	Choices   []int
	Log       string
	Yes       bool
	MaxRounds int
}

// IsBot reports whether the named player is played by a bot.
func (o playOptions) IsBot(name string) bool {
	if o.Bots == "all" {
		return true
	}
	for _, b := range strings.Split(o.Bots, ",") {
		if strings.TrimSpace(b) == name && name != "" {
			return true
		}
	}
	return false
}

// lineReader reads answers typed in the terminal.
type lineReader struct{ s *bufio.Scanner }

func newLineReader(in io.Reader) *lineReader { return &lineReader{s: bufio.NewScanner(in)} }

// Line returns the next line, or io.EOF.
func (r *lineReader) Line() (string, error) {
	if !r.s.Scan() {
		if err := r.s.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return strings.TrimSpace(r.s.Text()), nil
}
