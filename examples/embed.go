// Package examples holds the example game files that ship with Tabula. The
// server offers the party boards to play; the scenario files beside them
// are run by `tabula test examples/`.
package examples

import "embed"

// Party holds the example party boards (party/*.json).
//
//go:embed party/*.json
var Party embed.FS
