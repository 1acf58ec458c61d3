package server

import (
	"syscall"
	"testing"
	"time"
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
