package diag

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag/internal/old"
)

// BenchmarkOldNew runs the adversarial shapes through the package as it was
// and as it is, at sizes the old one can finish.
func BenchmarkOldNew(b *testing.B) {
	sizes := map[string][]int{
		"long-keys":          {16 << 10, 32 << 10, 64 << 10},
		"dangling-refs-60":   {16 << 10, 32 << 10, 64 << 10},
		"dangling-refs-1000": {64 << 10, 128 << 10},
		"one-line":           {64 << 10, 128 << 10, 256 << 10},
		"one-line-non-ascii": {64 << 10, 128 << 10, 256 << 10},
		"deep":               {2 << 20},
		"long-string":        {2 << 20},
		"tiny-objects":       {64 << 10, 128 << 10, 256 << 10},
	}
	for _, name := range []string{"long-keys", "dangling-refs-60", "dangling-refs-1000", "one-line", "one-line-non-ascii", "deep", "long-string", "tiny-objects"} {
		for _, size := range sizes[name] {
			var sh shape
			for _, s := range shapes(size) {
				if s.name == name {
					sh = s
				}
			}
			oldReport := oldShape(name, size)
			b.Run(name+"/"+strconv.Itoa(size>>10)+"KiB/old", func(b *testing.B) {
				measure(b, func() {
					r := old.NewReporter("f.json", sh.data)
					if sh.data != nil {
						r.DecodeJSON(sh.data)
					}
					oldReport(r)
					r.List.Sort()
					_ = r.List.String()
				})
			})
			b.Run(name+"/"+strconv.Itoa(size>>10)+"KiB/new", func(b *testing.B) {
				measure(b, func() {
					r := NewReporter("f.json", sh.data)
					if sh.data != nil {
						r.DecodeJSON(sh.data)
					}
					sh.report(r)
					r.List.Sort()
					_ = r.List.String()
				})
			})
		}
	}
}

// oldShape is what a pack reports about a shape, through the old package.
func oldShape(name string, size int) func(r *old.Reporter) {
	dangling := func(idLen int) func(r *old.Reporter) {
		ids, refs := idsAndRefs(size, idLen)
		return func(r *old.Reporter) {
			for i, ref := range refs {
				r.Errorf(old.Pointer("refs", i), "no id %q%s", ref, old.DidYouMean(ref, ids))
			}
		}
	}
	everyID := func(n int) func(r *old.Reporter) {
		return func(r *old.Reporter) {
			for i := range n {
				r.Errorf(old.Pointer(i, "id"), "no space %d", i)
			}
		}
	}
	switch name {
	case "long-keys":
		ptr := old.Pointer(strings.Repeat("k", size/2), size/4)
		return func(r *old.Reporter) { r.Errorf(ptr, "must not be zero") }
	case "dangling-refs-60":
		return dangling(60)
	case "dangling-refs-1000":
		return dangling(1000)
	case "one-line":
		_, n := oneLine(size, "x")
		return everyID(n)
	case "one-line-non-ascii":
		_, n := oneLine(size, "é")
		return everyID(n)
	case "deep":
		ptr := strings.Repeat("/0", MaxDepth)
		return func(r *old.Reporter) { r.Errorf(ptr, "too deep") }
	case "long-string":
		return func(r *old.Reporter) { r.AtString(old.Error, "/a", size/2-1, "unknown name") }
	case "tiny-objects":
		return everyID(size / 3)
	}
	panic(name)
}
