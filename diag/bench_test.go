package diag

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// measure runs op as a benchmark and reports, besides wall time, the
// process's CPU time per op (user and system, the garbage collector's
// included), which a busy machine does not inflate as it does wall time.
func measure(b *testing.B, op func()) {
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// The adversarial shapes: files a stranger can upload to make validation
// cost time or memory, each built at a given size in bytes. The figures
// are in docs/performance.md.

// longKeys is one long key holding an array of zeros: half the bytes in
// the key, half in the array.
func longKeys(size int) []byte {
	key := strings.Repeat("k", size/2)
	return []byte(`{"` + key + `": [` + strings.Repeat("0,", size/4) + `0]}`)
}

// idsAndRefs is a file of n ids and n references that name none of them,
// all of idLen characters that differ only near the end.
func idsAndRefs(size, idLen int) (ids, refs []string) {
	n := size / (2 * (idLen + 3))
	for i := range n {
		ids = append(ids, fmt.Sprintf("%0*d", idLen, i))
		refs = append(refs, fmt.Sprintf("%0*dx", idLen-1, i))
	}
	return ids, refs
}

// oneLine is an array of objects on one line, each with a bad id: one
// problem every few bytes, all on line 1.
func oneLine(size int, text string) ([]byte, int) {
	var b strings.Builder
	b.WriteString("[")
	n := 0
	for b.Len() < size {
		if n > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%q}`, text)
		n++
	}
	b.WriteString("]")
	return []byte(b.String()), n
}

// deep is arrays nested as deep as the size allows.
func deep(size int) []byte {
	return []byte(strings.Repeat("[", size/2) + strings.Repeat("]", size/2))
}

// longString is one member holding a string of the given size.
func longString(size int) []byte {
	return []byte(`{"a": "` + strings.Repeat("é", size/2) + `"}`)
}

// tinyObjects is an array of empty objects: the most values a decoder
// builds for the size.
func tinyObjects(size int) []byte {
	return []byte("[" + strings.Repeat("{},", size/3) + "{}]")
}

const adversarialSize = 2 << 20

// shape is one adversarial file and what a pack reports about it.
type shape struct {
	name   string
	data   []byte
	report func(r *Reporter)
}

func shapes(size int) []shape {
	longKey := strings.Repeat("k", size/2)
	ids, refs := idsAndRefs(size, 60)
	longIDs, longRefs := idsAndRefs(size, 1000)
	dangling := func(ids, refs []string) func(r *Reporter) {
		return func(r *Reporter) {
			for i, ref := range refs {
				r.Errorf(Pointer("refs", i), "no id %q%s", ref, r.DidYouMean(ref, ids))
			}
		}
	}
	everyID := func(n int) func(r *Reporter) {
		return func(r *Reporter) {
			for i := range n {
				r.Errorf(Pointer(i, "id"), "no space %d", i)
			}
		}
	}
	ascii, n := oneLine(size, "x")
	nonASCII, m := oneLine(size, "é")
	deepPtr := strings.Repeat("/0", MaxDepth)
	return []shape{
		{"long-keys", longKeys(size), func(r *Reporter) { r.Errorf(Pointer(longKey, size/4), "must not be zero") }},
		{"dangling-refs-60", nil, dangling(ids, refs)},
		{"dangling-refs-1000", nil, dangling(longIDs, longRefs)},
		{"one-line", ascii, everyID(n)},
		{"one-line-non-ascii", nonASCII, everyID(m)},
		{"deep", deep(size), func(r *Reporter) { r.Errorf(deepPtr, "too deep") }},
		{"long-string", longString(size), func(r *Reporter) { r.AtString(Error, "/a", size/2-1, "unknown name") }},
		{"tiny-objects", tinyObjects(size), everyID(size / 3)},
	}
}

// BenchmarkAdversarial measures what validation pays in diag for each
// shape at 2 MiB, in two parts: decoding the file (DecodeJSON), and
// reporting its problems as a pack does (building their pointers, locating
// them, wording them with "did you mean", sorting and printing them), whose
// "-no-limit" variant keeps every diagnostic (Reporter.Limit -1). "index"
// is the locator's share of reporting: indexing the file, once.
func BenchmarkAdversarial(b *testing.B) {
	for _, sh := range shapes(adversarialSize) {
		if sh.data != nil {
			b.Run(sh.name+"/decode", func(b *testing.B) {
				measure(b, func() { DecodeJSON(sh.data) })
			})
			b.Run(sh.name+"/index", func(b *testing.B) {
				measure(b, func() { NewLocator(sh.data).Find("") })
			})
		}
		for _, limit := range []int{0, -1} {
			name := sh.name + "/report"
			if limit < 0 {
				name += "-no-limit"
			}
			b.Run(name, func(b *testing.B) {
				measure(b, func() {
					r := NewReporter("f.json", sh.data)
					r.Limit = limit
					sh.report(r)
					r.List.Sort()
					_ = r.List.String()
				})
			})
		}
	}
}
