package server

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// A simulation's worker runs at the lowest priority on a thread of its
// own, which the rest of the server never shares, and stops once that
// thread used its CPU budget.
func TestSimulationWorkerRunsBelowTheServer(t *testing.T) {
	niceOf := func() int {
		// Linux's getpriority answers 20 − nice.
		prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		if err != nil {
			t.Error(err)
		}
		return 20 - prio
	}
	type seen struct {
		nice    int
		stopped bool
		cpu     time.Duration
	}
	done := make(chan seen)
	go func() {
		stopped := false
		p := &simPace{budget: 20 * time.Millisecond, stop: func() { stopped = true }}
		p.beforeGame()
		start := threadCPU()
		for !stopped && threadCPU()-start < time.Second {
			p.beforeGame()
		}
		done <- seen{niceOf(), stopped, threadCPU() - start}
	}()
	got := <-done
	if got.nice != 19 {
		t.Errorf("the simulation's thread runs at nice %d, want 19", got.nice)
	}
	if !got.stopped || got.cpu < 20*time.Millisecond || got.cpu > 200*time.Millisecond {
		t.Errorf("with a budget of 20 ms of CPU: stopped %v after %v", got.stopped, got.cpu)
	}
	if n := niceOf(); n == 19 {
		t.Errorf("the test's own thread runs at nice %d too", n)
	}
}

// BenchmarkSimulationPace measures what running below the server costs a
// simulation: the process's CPU time per game of the default board, with
// the worker free and with it paced (its own thread at nice 19, yielding
// and reading its CPU time every millisecond). Compare the two with
//
//	go test ./server -run '^$' -bench SimulationPace -count 6
func BenchmarkSimulationPace(b *testing.B) {
	src, err := game.FromBytes("default.json", bundled(b, "party/default.json"), game.Limits{File: 1 << 20, Total: 1 << 20, Entries: 1, Ratio: 100})
	must(b, err)
	_, def, list := allPacks().Load(src, "")
	if def == nil {
		b.Fatal(list)
	}
	for _, paced := range []bool{false, true} {
		name := "free"
		if paced {
			name = "paced"
		}
		b.Run(name, func(b *testing.B) {
			const games = 2000
			var before, after syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			for range b.N {
				cfg := sim.Config{Games: games, Workers: 1, Players: []string{"A", "B"}, Seed: simSeed}
				if paced {
					cfg.BeforeGame = (&simPace{budget: time.Hour, stop: func() {}}).beforeGame
				}
				if _, err := sim.Run(context.Background(), def, cfg); err != nil {
					b.Fatal(err)
				}
			}
			syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			cpu := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
			b.ReportMetric(float64(cpu)/float64(b.N*games), "cpu-ns/game")
		})
	}
}
