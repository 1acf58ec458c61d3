package skirmish

import (
	_ "embed"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/tabulagames/tabula/diag"
)

// Schema is the published JSON Schema of skirmish files (also in
// docs/schema/skirmish-1.schema.json).
//
//go:embed schema/skirmish-1.schema.json
var Schema []byte

// SchemaURL is the schema's $id.
const SchemaURL = "https://tabula.games/schema/skirmish-1.schema.json"

// compiled is the schema, compiled when the package starts: it ships with
// the program, so failing to compile it is a defect of the build.
var compiled = func() *diag.Schema {
	s := diag.MustCompileSchema(SchemaURL, Schema)
	s.Special = conditionFormFailure
	return s
}()

// conditionFormFailure words a condition that is neither a name nor an
// object: the schema would only say which types it may have.
func conditionFormFailure(e *jsonschema.ValidationError) (string, bool) {
	if _, ok := e.ErrorKind.(*kind.AnyOf); !ok || !strings.HasSuffix(e.SchemaURL, "/conditionUse") || !diag.OnlyTypesFail(e) {
		return "", false // a name or an object, with a problem of its own
	}
	return `must be a condition's name or an object like {"name": "blinded", "rounds": 2}`, true
}
