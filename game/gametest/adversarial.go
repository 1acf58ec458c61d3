package gametest

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
)

// Shape is a kind of file a stranger can upload to make validating it
// cost time or memory: long keys over many values, many dangling
// references, many problems on one line, deep nesting, the longest
// strings, thousands of bad parts. Make builds one of about size bytes.
type Shape struct {
	Name string
	Make func(size int) []byte
	// Valid says whether the file is a game the pack accepts (some
	// shapes are costly valid games), rather than one with errors.
	Valid bool
}

// AdversarialSize is the size of the files BenchmarkShapes loads: the
// largest upload a server takes.
const AdversarialSize = 2 << 20

// LoadBytes loads a file held in memory as a server validates an upload:
// a source from its bytes, with a context, the pack detected.
func LoadBytes(ctx context.Context, p game.Pack, data []byte) (game.Definition, diag.List) {
	src, err := game.FromBytes("game.json", data, game.Limits{})
	if err != nil {
		return nil, diag.List{{File: "game.json", Severity: diag.Error, Message: err.Error()}}
	}
	_, def, list := game.Packs{p}.Load(src.WithContext(ctx), "")
	return def, list
}

// CheckShapes loads each shape through the pack and checks what a server
// relies on: the diagnostics are capped (diag.MaxDiagnostics and one
// count of the rest), a shape meant to be invalid is refused and a valid
// one accepted, and the cost grows in proportion to the file: loading a
// file four times as large allocates less than eight times as much (a
// cost growing with the square of the size would allocate sixteen times
// as much). Allocations are counted rather than time measured, so that a
// busy machine does not make the test fail.
func CheckShapes(t *testing.T, p game.Pack, shapes []Shape) {
	const small = AdversarialSize / 16
	for _, sh := range shapes {
		t.Run(sh.Name, func(t *testing.T) {
			var alloc [2]uint64
			for i, size := range []int{small, 4 * small} {
				data := sh.Make(size)
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				def, list := LoadBytes(context.Background(), p, data)
				runtime.ReadMemStats(&after)
				alloc[i] = after.TotalAlloc - before.TotalAlloc
				if len(list) > diag.MaxDiagnostics+2 {
					t.Errorf("%d bytes: %d diagnostics", len(data), len(list))
				}
				if (def != nil) != sh.Valid {
					t.Errorf("%d bytes: loads: %v, want %v; %d diagnostics, the first:\n%s", len(data), def != nil, sh.Valid, len(list), list[:min(len(list), 5)])
				}
			}
			if alloc[1] > 8*alloc[0]+1<<20 {
				t.Errorf("loading %d bytes allocates %d bytes, and 4 times as many %d bytes: more than in proportion", small, alloc[0], alloc[1])
			}
		})
	}
}

// CheckStopped checks that loading a shape stops when its context has
// ended, with an error that says so.
func CheckStopped(t *testing.T, p game.Pack, sh Shape) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	def, list := LoadBytes(ctx, p, sh.Make(AdversarialSize/16))
	if def != nil || !list.HasErrors() {
		t.Errorf("%s: a load whose context has ended passes", sh.Name)
	}
}

// BenchmarkShapes loads each shape of AdversarialSize bytes and reports,
// besides wall time and allocations, the CPU time per load (user and
// system, the garbage collector's included: a busy machine does not
// inflate it as it does wall time) and the peak of the heap during a load
// above what it was before (peak-MB, sampled every 100 µs).
func BenchmarkShapes(b *testing.B, p game.Pack, shapes []Shape) {
	for _, sh := range shapes {
		b.Run(sh.Name, func(b *testing.B) {
			data := sh.Make(AdversarialSize)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var peak uint64
			start := cpuTime()
			n := 0
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				base := heapBytes()
				stop := samplePeak()
				b.StartTimer()
				LoadBytes(context.Background(), p, data)
				b.StopTimer()
				if top := stop(); top > base {
					peak = max(peak, top-base)
				}
				b.StartTimer()
				n++
			}
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
			b.ReportMetric(float64(peak)/1e6, "peak-MB")
		})
	}
}

func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// heapBytes is the memory the heap's objects take now, live or not yet
// collected.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// samplePeak samples the heap until the function it returns is called,
// which returns the largest sample.
func samplePeak() func() uint64 {
	var (
		mu   sync.Mutex
		peak = heapBytes()
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				h := heapBytes()
				mu.Lock()
				peak = max(peak, h)
				mu.Unlock()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return max(peak, heapBytes())
	}
}
