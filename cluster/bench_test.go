package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tabulagames/tabula/cluster"
)

// The round trip of a request between two nodes over loopback, with a
// command-sized message.
func BenchmarkRequest(b *testing.B) {
	url := embed(b)
	x, y := join(b, url, "x"), join(b, url, "y")
	y.Handle("echo", func(data []byte) ([]byte, error) { return data, nil })
	ctx := context.Background()
	data := make([]byte, 256)
	for b.Loop() {
		if _, err := x.Request(ctx, "y", "echo", data); err != nil {
			b.Fatal(err)
		}
	}
}

// Taking a free match and giving it back: what loading and evicting a
// match costs a node in the cluster.
func BenchmarkAcquireRelease(b *testing.B) {
	url := embed(b)
	n := join(b, url, "x")
	ctx := context.Background()
	i := 0
	for b.Loop() {
		id := fmt.Sprint("m", i)
		if _, err := n.Acquire(ctx, id); err != nil {
			b.Fatal(err)
		}
		n.Release(id)
		i++
	}
}

// How long the players of a crashed node wait: from the crash to another
// node owning the match (lease time 1s; run with -benchtime=5x).
func BenchmarkTakeoverAfterCrash(b *testing.B) {
	url := embed(b)
	y := join(b, url, "y")
	ctx := context.Background()
	i := 0
	for b.Loop() {
		b.StopTimer()
		x := join(b, url, fmt.Sprint("x", i))
		id := fmt.Sprint("m", i)
		if _, err := x.Acquire(ctx, id); err != nil {
			b.Fatal(err)
		}
		// Crash at a random point of the renewal cycle.
		time.Sleep(time.Duration(i%3) * ttl / 9)
		x.Crash()
		b.StartTimer()
		if _, err := y.Acquire(ctx, id); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(ttl.Milliseconds()), "lease-ms")
}

// How long a released match takes to reach a node waiting for it.
func BenchmarkHandoverOnRelease(b *testing.B) {
	url := embed(b)
	x, y := join(b, url, "x"), join(b, url, "y")
	ctx := context.Background()
	i := 0
	for b.Loop() {
		b.StopTimer()
		id := fmt.Sprint("m", i)
		if _, err := x.Acquire(ctx, id); err != nil {
			b.Fatal(err)
		}
		got := make(chan error)
		go func() { _, err := y.Acquire(ctx, id); got <- err }()
		time.Sleep(20 * time.Millisecond) // y is waiting
		b.StartTimer()
		x.Release(id)
		if err := <-got; err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// One round of renewals of a node holding a thousand matches (each op is
// the whole round).
func BenchmarkRenewThousandLeases(b *testing.B) {
	url := embed(b)
	n := joinWith(b, cluster.Options{URL: url, Name: "x", LeaseTTL: time.Minute})
	ctx := context.Background()
	for i := range 1000 {
		if _, err := n.Acquire(ctx, fmt.Sprint("m", i)); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if !n.RenewAll() {
			b.Fatal("a renewal failed")
		}
	}
}
