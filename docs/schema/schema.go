// Package schema holds Tabula's published JSON Schemas, embedded so that
// the command line can print them and the game packs can validate with
// them. The files beside this one are the published copies.
package schema

import _ "embed"

// Board is the JSON Schema (draft 2020-12) of party boards, version 1:
// board-1.schema.json.
//
//go:embed board-1.schema.json
var Board []byte

// BoardURL is the $id of the board schema.
const BoardURL = "https://raw.githubusercontent.com/tabulagames/tabula/main/docs/schema/board-1.schema.json"
