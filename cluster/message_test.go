package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabulagames/tabula/cluster"
)

// A request reaches the named node's handler and its answer comes back;
// a handler's error comes back as the node's error; a node that is not
// there fails at once.
func TestRequestRoundTrip(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	err := b.Handle("match.command", func(data []byte) ([]byte, error) {
		if string(data) == "bad" {
			return nil, errors.New("not your turn")
		}
		return append([]byte("b saw "), data...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := a.Request(ctx, "b", "match.command", []byte("roll"))
	if err != nil || string(out) != "b saw roll" {
		t.Fatalf("answer %q, %v", out, err)
	}
	_, err = a.Request(ctx, "b", "match.command", []byte("bad"))
	var remote *cluster.RemoteError
	if !errors.As(err, &remote) || remote.Node != "b" || remote.Message != "not your turn" {
		t.Errorf("a handler's error: %v", err)
	}
	for _, c := range []struct{ node, subject string }{{"c", "match.command"}, {"b", "other"}} {
		start := time.Now()
		_, err = a.Request(ctx, c.node, c.subject, nil)
		if !errors.Is(err, cluster.ErrNodeGone) || time.Since(start) > time.Second {
			t.Errorf("asking %s for %s: %v after %v", c.node, c.subject, err, time.Since(start))
		}
	}
	for _, c := range []struct{ node, subject string }{{"b.c", "x"}, {"b", "x..y"}, {"b", "*"}, {"b", ""}} {
		if _, err := a.Request(ctx, c.node, c.subject, nil); err == nil || errors.Is(err, cluster.ErrNodeGone) {
			t.Errorf("asking %q for %q: %v", c.node, c.subject, err)
		}
	}
}

// Requests do not wait for each other: a slow one does not hold up the
// next.
func TestRequestsRunSideBySide(t *testing.T) {
	url := embed(t)
	a, b := join(t, url, "a"), join(t, url, "b")
	release := make(chan struct{})
	b.Handle("slow", func([]byte) ([]byte, error) { <-release; return nil, nil })
	b.Handle("fast", func([]byte) ([]byte, error) { return []byte("ok"), nil })
	go a.Request(context.Background(), "b", "slow", nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := a.Request(ctx, "b", "slow", nil) // a second one on the same subject
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a request nobody answers: %v", err)
	}
	close(release)
	if out, err := a.Request(context.Background(), "b", "fast", nil); err != nil || string(out) != "ok" {
		t.Errorf("%q, %v", out, err)
	}
}

// Messages published to a node arrive at its subscriber in the order
// they were sent, and only there.
func TestPublishInOrder(t *testing.T) {
	url := embed(t)
	a, b, c := join(t, url, "a"), join(t, url, "b"), join(t, url, "c")
	got := make(chan string, 1000)
	if err := b.Subscribe("views", func(data []byte) { got <- string(data) }); err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe("views", func(data []byte) { t.Errorf("c got %q", data) }); err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if err := a.Publish("b", "views", []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1000 {
		select {
		case s := <-got:
			if s != fmt.Sprint(i) {
				t.Fatalf("message %d is %q", i, s)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d messages arrived", i)
		}
	}
}
