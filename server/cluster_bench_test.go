package server

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/store/storetest"
)

// BenchmarkClusterCommands plays commands through `tabula serve`
// processes (closed loop: each match's players play as soon as they may,
// 100 matches of Chutes and Ladders at once) on one node with SQLite, one
// node with PostgreSQL, and three nodes with PostgreSQL with each match's
// players connected to the two nodes that do not own it. It reports
// commands a second and the latency from a command's sending to its
// acknowledgement (p50, p99):
//
//	go test ./server -run '^$' -bench ClusterCommands -benchtime 20000x
func BenchmarkClusterCommands(b *testing.B) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		b.Skip()
	}
	for _, c := range []struct {
		name  string
		nodes int
		pg    bool
	}{{"sqlite-1node", 1, false}, {"postgres-1node", 1, true}, {"postgres-3nodes", 3, true}} {
		b.Run(c.name, func(b *testing.B) {
			bin := buildTabula(b)
			db := filepath.Join(b.TempDir(), "t.db")
			if c.pg {
				db = storetest.Postgres(b)
			}
			var bus *testBus
			if c.nodes > 1 {
				var names []string
				for i := range c.nodes {
					names = append(names, fmt.Sprintf("n%d", i))
				}
				bus = natsForTest(b, names...)
			}
			var bases []string
			for i := range c.nodes {
				args := []string{"--node", fmt.Sprintf("n%d", i)}
				if bus != nil {
					args = append(bus.args(fmt.Sprintf("n%d", i)), "--lease", "2s")
				}
				p := startServer(b, bin, db, append(args, "--log-level", "error",
					"--limit-creates", "1000000", "--limit-creates-all", "1000000", "--limit-rate", "100000", "--limit-burst", "100000")...)
				bases = append(bases, p.base)
			}
			const n = 100
			pool := make(chan *loadMatch, n+b.N/8+n)
			var mu sync.Mutex
			var wgm sync.WaitGroup
			sem := make(chan struct{}, 16)
			for i := range cap(pool) {
				wgm.Add(1)
				sem <- struct{}{}
				go func() {
					defer wgm.Done()
					defer func() { <-sem }()
					k := i % len(bases)
					lm := newLoadMatch(b, bases[k], "chutes-and-ladders", bases[(k+1)%len(bases)], bases[(k+2)%len(bases)])
					mu.Lock()
					pool <- lm
					mu.Unlock()
				}()
			}
			wgm.Wait()
			var done atomic.Int64
			lat := &latencies{}
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					lm := <-pool
					for done.Load() < int64(b.N) {
						p, cmd, ok := lm.next()
						if !ok {
							lm.close()
							select {
							case lm = <-pool:
								continue
							default:
								return
							}
						}
						t0 := time.Now()
						p.play(cmd)
						lat.add(time.Since(t0))
						done.Add(1)
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			cnt, p50, p99, _ := lat.take()
			b.ReportMetric(float64(cnt)/time.Since(start).Seconds(), "cmds/s")
			b.ReportMetric(float64(p50.Microseconds())/1e3, "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1e3, "p99-ms")
		})
	}
}

// BenchmarkClusterFailover measures the time from an owner's death
// (SIGKILL) to its match answering again on another node, with a 2 s
// lease: each iteration kills the owner of a match being played.
//
//	go test ./server -run '^$' -bench ClusterFailover -benchtime 3x
func BenchmarkClusterFailover(b *testing.B) {
	if os.Getenv("TABULA_LOAD_SERVER") != "" {
		b.Skip()
	}
	bin := buildTabula(b)
	db := storetest.Postgres(b)
	var names []string
	for i := range b.N {
		for k := range 3 {
			names = append(names, fmt.Sprintf("f%d-%d", i, k))
		}
	}
	bus := natsForTest(b, names...)
	var total time.Duration
	for i := range b.N {
		var nodes []*serverProcess
		for k := range 3 {
			nodes = append(nodes, startServer(b, bin, db, append(bus.args(fmt.Sprintf("f%d-%d", i, k)), "--lease", "2s", "--log-level", "error")...))
		}
		lm := newLoadMatch(b, nodes[0].base, "chutes-and-ladders", nodes[1].base, nodes[2].base)
		for range 5 {
			p, cmd, _ := lm.next()
			p.play(cmd)
		}
		p, cmd, ok := lm.next()
		if !ok {
			b.Fatal("the match ended too soon")
		}
		nodes[0].cmd.Process.Signal(syscall.SIGKILL)
		<-nodes[0].exited
		t0 := time.Now()
		p.play(cmd)
		total += time.Since(t0)
		lm.close()
		for _, n := range nodes[1:] {
			n.cmd.Process.Kill()
			<-n.exited
		}
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "failover-s")
}
