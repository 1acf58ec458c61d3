package rulebook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reference renders the catalog as the reference part of docs/rulebook.md.
func reference() string {
	var b strings.Builder
	c := Catalog()
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "—"
		}
		return strings.Join(xs, ", ")
	}
	def := func(f Field) string {
		switch {
		case f.Required:
			return "required"
		case f.Default == nil:
			return ""
		}
		js, _ := json.Marshal(f.Default)
		return "`" + string(js) + "`"
	}
	fields := func(fs []Field) {
		if len(fs) == 0 {
			return
		}
		b.WriteString("\n| field | type | default | meaning |\n|---|---|---|---|\n")
		for _, f := range fs {
			doc := f.Doc
			if len(f.Values) > 0 {
				doc += " (" + strings.Join(f.Values, ", ") + ")"
			}
			if f.Min != nil || f.Max != nil {
				doc += "; " + f.rangeText()
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", f.Name, f.Type, def(f), cell(doc))
		}
	}
	b.WriteString("### Events\n\n| event | carries | filters | EMIT | what happened |\n|---|---|---|---|---|\n")
	for _, e := range c.Events {
		emit := ""
		if e.Emittable {
			emit = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", e.Name, list(e.Fields), list(e.Filters), emit, cell(e.Doc))
	}
	b.WriteString("\n### Actions\n\nEvery action also has `priority` (default 5), `player` (whose queue; default below) and `where` (see [Whose queue](#whose-queue-per-player-action-queues)).\n")
	for _, a := range c.Actions {
		emits := list(a.Emits)
		if a.Name == actEmit {
			emits = "the event it names"
		}
		fmt.Fprintf(&b, "\n#### `%s`\n\n%s\n\nPlayer: `%s`. Emits: %s.", a.Name, a.Doc, a.Player, emits)
		if a.Asks != "" {
			fmt.Fprintf(&b, " Asks: `%s`.", a.Asks)
		}
		b.WriteString("\n")
		fields(a.Fields)
	}
	b.WriteString("\n### Presets\n")
	for _, p := range c.Presets {
		fmt.Fprintf(&b, "\n#### `%s`\n\n%s From %s.\n", p.Name, p.Doc, p.Origin)
		fields(p.Params)
		rules, _ := p.Expand(requiredArgs(p))
		b.WriteString("\nIt stands for:\n\n```json\n")
		for _, r := range rules {
			js, _ := marshal(r)
			b.Write(js)
			b.WriteString("\n")
		}
		b.WriteString("```\n")
	}
	b.WriteString("\n### Predicates\n\nReady-made conditions an editor offers for the events that carry what they read; `{name}` is where an argument goes (text is quoted).\n\n| predicate | condition | needs | meaning |\n|---|---|---|---|\n")
	for _, p := range c.Predicates {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", p.Name, cell(p.CEL), list(p.Needs), cell(p.Doc))
	}
	b.WriteString("\n### Variables\n\nWhat conditions and expressions read.\n")
	for _, v := range c.Variables {
		fmt.Fprintf(&b, "\n- `%s` (%s): %s", v.Name, v.Type, v.Doc)
		if len(v.Fields) > 0 {
			var fs []string
			for _, f := range v.Fields {
				fs = append(fs, "`"+f.Name+"` "+f.Doc)
			}
			b.WriteString(": " + strings.Join(fs, "; "))
		}
		b.WriteString(".")
	}
	b.WriteString("\n")
	return b.String()
}

func requiredArgs(p PresetInfo) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, f := range p.Params {
		if f.Required {
			out[f.Name] = json.RawMessage(map[FieldType]string{TypeDeck: `"cards"`, TypeCount: "100"}[f.Type])
		}
	}
	return out
}

const (
	refStart = "<!-- reference: made from rulebook.Catalog() by go test ./games/rulebook -update -->\n"
	refEnd   = "<!-- end of reference -->\n"
)

// TestDocsReference: the reference of docs/rulebook.md is the catalog's
// (go test -update rewrites it), so every event, action, preset and
// predicate is documented as the loader knows it.
func TestDocsReference(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "rulebook.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, refStart), strings.Index(doc, refEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the reference markers", path)
	}
	want := doc[:i+len(refStart)] + "\n" + reference() + "\n" + doc[j:]
	if *update {
		os.WriteFile(path, []byte(want), 0o644)
		return
	}
	if doc != want {
		t.Errorf("the reference in %s is not the catalog's (go test ./games/rulebook -update rewrites it)", path)
	}
}
