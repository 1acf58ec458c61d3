package cluster

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/nats-io/nats.go"
)

// Messages between nodes travel on subjects named after the node they are
// addressed to: tabula.node.<node>.<subject>.
const subjectPrefix = "tabula.node."

// errorHeader carries a handler's error back to the requesting node.
const errorHeader = "Tabula-Error"

var validSubject = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// RemoteError is a handler's error, returned by Request on the node that
// asked.
type RemoteError struct {
	Node, Subject, Message string
}

// Error names the node and the subject with the handler's message.
func (e *RemoteError) Error() string {
	return fmt.Sprintf("node %s, %s: %s", e.Node, e.Subject, e.Message)
}

func address(node, subject string) (string, error) {
	if !validName.MatchString(node) {
		return "", fmt.Errorf("cluster: node name %q: use letters, digits, '-' and '_'", node)
	}
	if !validSubject.MatchString(subject) {
		return "", fmt.Errorf("cluster: subject %q: use words of letters, digits, '-' and '_', separated by dots", subject)
	}
	return subjectPrefix + node + "." + subject, nil
}

// DefaultMaxHandling bounds the requests a node answers at once, all
// subjects together, unless Options.MaxHandling says otherwise; past it a
// request is answered at once with ErrBusy.
const DefaultMaxHandling = 1024

// DefaultMaxPending bounds the messages (and PendingBytes their bytes)
// waiting for a subscriber, unless Options.MaxPending says otherwise:
// past them NATS drops messages, and Options.OnError is told
// (ErrDropped).
const (
	DefaultMaxPending = 65536
	PendingBytes      = 64 << 20
)

// ErrBusy is a request refused because the node answers as many as it
// may already.
var ErrBusy = errors.New("the node is busy; try again")

// ErrDropped is what Options.OnError is told when messages for a
// subscriber were dropped, as many as may wait waiting already.
var ErrDropped = nats.ErrSlowConsumer

// Handle answers the requests addressed to this node on a subject with
// what fn returns; an error from fn reaches the requesting node as a
// *RemoteError, and so does a panic in fn (this node goes on). Each
// request runs on its own goroutine, at most Options.MaxHandling at once: requests
// do not wait for each other (a node that needs its requests in order
// waits for each answer before sending the next).
func (n *Node) Handle(subject string, fn func(data []byte) ([]byte, error)) error {
	subj, err := address(n.name, subject)
	if err != nil {
		return err
	}
	_, err = n.nc.Subscribe(subj, func(m *nats.Msg) {
		if m.Reply == "" {
			return // a message published without waiting for an answer
		}
		select {
		case n.handling <- struct{}{}:
		default:
			reply := nats.NewMsg(m.Reply)
			reply.Header.Set(errorHeader, ErrBusy.Error())
			m.RespondMsg(reply)
			return
		}
		go func() {
			defer func() { <-n.handling }()
			reply := nats.NewMsg(m.Reply)
			out, err := n.safely(subject, fn, m.Data)
			if err != nil {
				reply.Header.Set(errorHeader, err.Error())
			} else {
				reply.Data = out
			}
			m.RespondMsg(reply)
		}()
	})
	if err != nil {
		return err
	}
	return n.known()
}

// Request sends data to a node's handler of a subject and returns its
// answer. A node that is not there (stopped, cut off from NATS) fails at
// once with ErrNodeGone; one that does not answer in time fails when ctx
// ends.
func (n *Node) Request(ctx context.Context, node, subject string, data []byte) ([]byte, error) {
	subj, err := address(node, subject)
	if err != nil {
		return nil, err
	}
	msg := nats.NewMsg(subj)
	msg.Data = data
	r, err := n.nc.RequestMsgWithContext(ctx, msg)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return nil, fmt.Errorf("cluster: asking node %s (%s): %w", node, subject, ErrNodeGone)
	case errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, nats.ErrConnectionDraining):
		return nil, ErrClosed
	case err != nil:
		return nil, fmt.Errorf("cluster: asking node %s (%s): %w", node, subject, err)
	}
	if e := r.Header.Get(errorHeader); e != "" {
		return nil, &RemoteError{Node: node, Subject: subject, Message: e}
	}
	return r.Data, nil
}

// Publish sends data to a node's subscribers of a subject, without
// waiting: nothing tells whether the node got it.
func (n *Node) Publish(node, subject string, data []byte) error {
	subj, err := address(node, subject)
	if err != nil {
		return err
	}
	return n.nc.Publish(subj, data)
}

// Subscribe calls fn with every message published to this node on a
// subject, one at a time, in the order each sender sent them. At most
// Options.MaxPending messages wait for fn; past them some are dropped,
// and Options.OnError is told.
func (n *Node) Subscribe(subject string, fn func(data []byte)) error {
	subj, err := address(n.name, subject)
	if err != nil {
		return err
	}
	sub, err := n.nc.Subscribe(subj, func(m *nats.Msg) {
		n.safely(subject, func(data []byte) ([]byte, error) { fn(data); return nil, nil }, m.Data)
	})
	if err != nil {
		return err
	}
	// Messages are not dropped because fn was slow for a moment, but a
	// handler that falls far behind does not hold memory without bound.
	if err := sub.SetPendingLimits(n.maxPending, PendingBytes); err != nil {
		return err
	}
	return n.known()
}

// safely runs a handler; a panic in it is its error, and OnError is told.
func (n *Node) safely(subject string, fn func([]byte) ([]byte, error), data []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the node failed (a bug): %v", p)
			if n.onError != nil {
				n.onError(subject, err)
			}
		}
	}()
	return fn(data)
}

// known returns once NATS knows of this node's new subscriptions, so that
// a message sent by another node right after Handle or Subscribe returned
// finds them.
func (n *Node) known() error {
	if err := n.nc.FlushTimeout(n.opTimeout()); err != nil {
		return fmt.Errorf("cluster: subscribing: %w", err)
	}
	return nil
}
