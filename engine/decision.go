package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Decision is input the engine needs from a player in the middle of a
// chain: which path to take at a fork, acknowledging a prompt, picking a
// target. The match pauses until every decision asked together is answered,
// then resumes exactly where it stopped.
type Decision struct {
	Player PlayerID
	// Kind names what is asked ("choose-path", "ack"); the answer must
	// carry the same kind, so a stale or misrouted input is rejected.
	Kind   string
	Prompt string
	// Options are the labels of the possible choices; an answer's Choice
	// is an index into them. No options means "acknowledge": Choice must be 0.
	Options []string
	// Sealed keeps the answer secret until every decision asked with it is
	// answered, as sealed bids are: its answer is recorded in the log only
	// when the last answer of the pause comes in, together with the other
	// sealed answers, in the order the decisions were asked, and the state
	// hash leaves its choice out until then. That it was answered shows
	// only in what Waiting no longer lists.
	Sealed bool
}

// Input answers a Decision.
type Input struct {
	Player PlayerID
	Kind   string
	Choice int
}

// RejectError is returned for input the match refuses: from the wrong
// player, of the wrong kind, out of range, or when nothing is asked. A
// rejected input changes nothing.
type RejectError struct {
	Reason string
}

func (e *RejectError) Error() string { return "rejected: " + e.Reason }

// IsRejected reports whether err is a rejected input or command.
func IsRejected(err error) bool {
	var r *RejectError
	return errors.As(err, &r)
}

// Rejectf returns a RejectError with a formatted reason. Games use it for
// commands that break their rules (out of turn, not enough energy).
func Rejectf(format string, args ...any) error {
	return &RejectError{Reason: fmt.Sprintf(format, args...)}
}

// errAsked is what Ctx.Ask returns to make the running effect pause.
var errAsked = errors.New("engine: effect is waiting for input")

// Waiting returns the decisions still unanswered, in the order they were
// asked. A player's decisions form a queue: Answer takes that player's first
// unanswered one.
func (m *Match) Waiting() []Decision {
	var out []Decision
	for i, d := range m.asked {
		if !m.answered[i] {
			out = append(out, d)
		}
	}
	return out
}

// Asked returns the decisions of the pause, in the order they were asked,
// and whether each is answered: what Waiting tells, without copying. Both
// slices are the match's own, to read before its next change.
func (m *Match) Asked() ([]Decision, []bool) { return m.asked, m.answered }

// IsWaiting reports whether the match is paused for input.
func (m *Match) IsWaiting() bool { return m.hasSuspended }

// WaitingFor returns the first unanswered decision of a player, if any.
func (m *Match) WaitingFor(p PlayerID) (Decision, bool) {
	for i, d := range m.asked {
		if !m.answered[i] && d.Player == p {
			return d, true
		}
	}
	return Decision{}, false
}

// Answer gives the match a player's input. Input that does not answer the
// player's next decision is rejected with a reason and changes nothing. When
// the last decision of a pause is answered, the chain resumes and runs until
// it ends or pauses again; an error then is the chain's.
func (m *Match) Answer(in Input) error {
	if m.err != nil {
		return m.err
	}
	if m.running {
		return errors.New("engine: Answer called from inside an effect")
	}
	if !m.hasSuspended {
		return &RejectError{Reason: "no decision is pending"}
	}
	slot := -1
	for i, d := range m.asked {
		if !m.answered[i] && d.Player == in.Player {
			slot = i
			break
		}
	}
	if slot < 0 {
		return &RejectError{Reason: fmt.Sprintf("%s is not asked anything; waiting for %s", m.PlayerName(in.Player), m.waitingNames())}
	}
	d := m.asked[slot]
	if in.Kind != d.Kind {
		return &RejectError{Reason: fmt.Sprintf("%s is asked for %q, not %q", m.PlayerName(in.Player), d.Kind, in.Kind)}
	}
	if n := len(d.Options); (n == 0 && in.Choice != 0) || (n > 0 && (in.Choice < 0 || in.Choice >= n)) {
		return &RejectError{Reason: fmt.Sprintf("choice %d is out of range for %q (%s)", in.Choice, d.Kind, rangeText(n))}
	}
	m.hashed = false
	m.answers[slot] = in
	m.answered[slot] = true
	if !d.Sealed {
		m.recordAnswer(slot)
	}
	for _, done := range m.answered {
		if !done {
			return nil
		}
	}
	for i := range m.asked {
		if m.asked[i].Sealed {
			m.recordAnswer(i)
		}
	}
	m.cur = m.suspended
	m.hasSuspended = false
	if m.Rules.BudgetPerInput {
		m.steps = 0
		m.budgetFrom = len(m.records)
	}
	if err := m.runEffect(&m.cur); err != nil {
		return m.fail(err)
	}
	return m.resolve(false)
}

// recordAnswer records the answer to the i-th decision of the pause.
func (m *Match) recordAnswer(i int) {
	in := m.answers[i]
	m.record(&Record{Kind: RecAnswer, Event: m.suspended.event, Trigger: m.suspended.trig, Player: in.Player, Choice: in.Choice, Text: m.asked[i].Kind})
}

func rangeText(n int) string {
	if n == 0 {
		return "acknowledge with 0"
	}
	return fmt.Sprintf("0..%d", n-1)
}

func (m *Match) waitingNames() string {
	var names []string
	for i, d := range m.asked {
		if !m.answered[i] {
			names = append(names, m.PlayerName(d.Player))
		}
	}
	return strings.Join(names, ", ")
}
