package main

import (
	"bytes"
	"strings"

	"github.com/tabulagames/tabula/game/gametest"
)

// tabulaIn runs the command line (with the real packs, and Nim) with the given standard input and returns
// its exit status, standard output and standard error.
func tabulaIn(stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(append(packs(), gametest.NewNim()), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func tabula(args ...string) (int, string, string) { return tabulaIn("", args...) }
