package party

import (
	"sync"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/docs/schema"
)

// schemaDefs are the definitions of the board schema that files are
// checked against: the whole-file formats and the parts of a bundle.
var schemaDefs = []string{
	"v1", "v2", "v3", "bundleManifest", "bundleMetadata", "bundleEngine", "bundleRules",
	"bundleUi", "bundleTopology", "bundleDependencies", "bundleSettings",
}

// compiledSchemas compiles the embedded board schema and each definition
// files are checked against, once ("" is the whole schema). Spaces are
// checked one at a time: a board of thousands of bad ones would otherwise
// cost the validator hundreds of bytes per byte of the file.
var compiledSchemas = sync.OnceValue(func() map[string]*diag.Schema {
	board := diag.MustCompileSchema(schema.BoardURL, schema.Board)
	out := map[string]*diag.Schema{"": board}
	for _, def := range schemaDefs {
		out[def] = board.MustDef(def)
	}
	spaces := func(items, array, def string) diag.Part { return diag.Part{Items: items, Array: array, Def: def} }
	out["v1"] = out["v1"].Split(spaces("/$defs/v1/properties/spaces/items", "/spaces", "v1Space"))
	out["v2"] = out["v2"].Split(spaces("/$defs/v2/properties/spaces/items", "/spaces", "v3Space"))
	out["v3"] = out["v3"].Split(spaces("/$defs/topology/properties/spaces/items", "/board/topology/spaces", "v3Space"))
	out["bundleTopology"] = out["bundleTopology"].Split(spaces("/$defs/topology/properties/spaces/items", "/spaces", "v3Space"))
	return out
})
