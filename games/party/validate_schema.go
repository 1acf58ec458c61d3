package party

import (
	"sync"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/docs/schema"
)

// schemaDefs are the definitions of the board schema that files are
// checked against: the whole-file formats and the parts of a bundle.
var schemaDefs = []string{
	"v1", "v3", "bundleManifest", "bundleMetadata", "bundleEngine", "bundleRules",
	"bundleUi", "bundleTopology", "bundleDependencies", "bundleSettings",
}

// compiledSchemas compiles the embedded board schema and each definition
// files are checked against, once ("" is the whole schema).
var compiledSchemas = sync.OnceValue(func() map[string]*diag.Schema {
	board := diag.MustCompileSchema(schema.BoardURL, schema.Board)
	out := map[string]*diag.Schema{"": board}
	for _, def := range schemaDefs {
		out[def] = board.MustDef(def)
	}
	return out
})

// schemaDiagnostics validates a part's JSON against a definition of the
// board schema and turns each failure into a diagnostic at its pointer.
func schemaDiagnostics(pt *part, def string) diag.List {
	rep := diag.NewReporter(pt.file, pt.data)
	compiledSchemas()[def].Check(rep, pt.root)
	return rep.List
}
