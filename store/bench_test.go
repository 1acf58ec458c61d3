package store_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/store"
)

// BenchmarkAppend measures what storing a command costs in SQLite, with
// as many matches appending at once as writers: alone, each append is a
// transaction of its own; together, the group commit puts many in one.
// It reports the process's CPU time per append, the kernel's part
// included.
//
//	go test ./store -run '^$' -bench Append -benchtime 20000x
func BenchmarkAppend(b *testing.B) {
	for _, writers := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			s := mustOpen(b, filepath.Join(b.TempDir(), "bench.db"))
			defer s.Close()
			g := game(`{"pile":21}`)
			s.SaveGame(ctx, g)
			for w := range writers {
				if err := s.CreateMatch(ctx, newMatch(fmt.Sprintf("m%d", w), g, time.Now())); err != nil {
					b.Fatal(err)
				}
			}
			data := []byte(`{"kind":"roll"}`)
			var wg sync.WaitGroup
			b.ResetTimer()
			cpu := cpuTime()
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					id := fmt.Sprintf("m%d", w)
					for seq := w; seq < b.N; seq += writers {
						if err := s.Append(ctx, id, store.Command{Seq: seq / writers, Player: 0, Data: data, Hash: "0123456789abcdef0123456789abcdef"}, 0); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e3, "cpu-µs/append")
			if st, ok := store.StatsOf(s); ok && st.Commits > 0 {
				b.ReportMetric(float64(st.Appends)/float64(st.Commits), "appends/commit")
			}
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
