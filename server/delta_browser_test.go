package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tabulagames/tabula/game"
)

// deltaGames are whole games of every pack that the delta test plays: a
// board of each, with hidden information (hands, sealed bids) and without.
var deltaGames = []struct {
	board   string
	seats   int
	extra   map[string]any
	maxStep int
}{
	{"default", 2, nil, 400},
	{"everything", 3, map[string]any{"maxRounds": 6}, 400},
	{"chutes-and-ladders", 2, map[string]any{"maxRounds": 12}, 400},
	{"monopoly", 3, map[string]any{"maxRounds": 4}, 600},
	{"drone-lanes", 2, map[string]any{"maxRounds": 3}, 600},
	{"duel", 2, map[string]any{"maxRounds": 4}, 600},
	{"trouble", 4, map[string]any{"maxRounds": 6}, 600},
	{"crossroads", 2, map[string]any{"maxRounds": 8}, 600},
}

// deltaStream is what one connection was sent during a game: every
// message, and after each command the whole state a new connection would
// be sent then (the log from its start).
type deltaStream struct {
	Seat int `json:"seat"`
	// Shared is set when every viewer reads the same log.
	Shared bool `json:"shared"`
	// Messages are the messages of each step, in order; Lost, for a step,
	// the index of a delta to drop before the whole state the connection
	// asked for in that step (a message lost on the way).
	Messages [][]json.RawMessage `json:"messages"`
	Lost     []int               `json:"lost"`
	Fresh    []json.RawMessage   `json:"fresh"`
	// New are, for each step, the log entries a whole state from the
	// step's first record on tells (a log may tell a record anew later:
	// a card revealed, a blow told before the end).
	New []json.RawMessage `json:"new"`
}

// The page's own delta code (web/static/delta.js), run in Chromium on every
// message of whole games of every pack, holds after each command exactly
// what a fresh whole state says, for every seat and a spectator: the
// document (summary, view, legal commands, log length, hash, deadline) and
// the log entries shown. A delta after a missing message is refused as a
// gap, and the whole state asked for then mends it.
func TestPageDeltasMatchWholeStates(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	var streams = map[string][]*deltaStream{}
	for _, g := range deltaGames {
		streams[g.board] = playRecorded(t, ts, g.board, g.seats, g.extra, g.maxStep)
	}
	data, err := json.Marshal(streams)
	must(t, err)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /delta-test/streams", func(w http.ResponseWriter, _ *http.Request) { w.Write(data) })
	mux.Handle("/", ts.srv.Handler())
	hs := httptest.NewServer(mux)
	defer hs.Close()
	b := newBrowser(t, exe)
	page := b.person()
	b.run(page, chromedp.Navigate(hs.URL+"/favicon.svg"))
	ctx, cancel := context.WithTimeout(page, 2*time.Minute)
	defer cancel()
	report, err := chromedp.Run(ctx, chromedp.Evaluate[string](deltaRunner, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d KB of messages and whole states checked", len(data)>>10)
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, "ok ") {
			t.Log(line)
		} else if line != "" {
			t.Error(line)
		}
	}
}

// deltaRunner applies each connection's messages with the page's module,
// step by step, and compares what it holds with the fresh whole state of
// the step; it also checks that skipping a delta is seen as a gap.
const deltaRunner = `(async () => {
  const { MatchState } = await import("/delta.js");
  const streams = await (await fetch("/delta-test/streams")).json();
  const out = [];
  const canon = (v) => Array.isArray(v) ? v.map(canon)
    : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
  const same = (a, b) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));
  for (const [game, conns] of Object.entries(streams)) {
    let steps = 0, deltas = 0, gaps = 0;
    for (const c of conns) {
      const st = new MatchState();
      const flat = c.messages.flat();
      let at = 0; // the message's place in flat
      let shown = [], logSeen = 0, failed = false;
      for (let i = 0; i < c.messages.length && !failed; i++) {
        const msgs = c.messages[i];
        const before = shown.length;
        for (let j = 0; j < msgs.length; j++, at++) {
          const msg = msgs[j];
          if (j === c.lost[i]) {
            // Lost on the way: the next delta is a gap.
            const next = msgs.slice(j + 1).find((m) => m.type === "delta");
            if (next && st.take(next) !== null) { out.push(game + " seat " + c.seat + " step " + i + ": a delta after a missing one was applied"); failed = true; }
            continue;
          }
          if (msg.type !== "state" && msg.type !== "delta") continue;
          if (msg.type === "delta") deltas++;
          // A gap probe: the message after this one, skipping it, is refused.
          const probe = new MatchState();
          probe.doc = st.doc; probe.n = st.n;
          const after = flat.slice(at + 1).find((m) => m.type === "delta");
          if (msg.type === "delta" && after) {
            gaps++;
            if (probe.take(after) !== null) { out.push(game + " seat " + c.seat + " step " + i + ": a skipped delta went unnoticed"); failed = true; }
          }
          const s = st.take(msg);
          if (s === null) {
            if (c.lost[i] >= 0 && j > c.lost[i]) continue; // waiting for the whole state asked for
            out.push(game + " seat " + c.seat + " step " + i + ": message " + msg.n + " refused after " + st.n); failed = true; break;
          }
          const fresh = s.entries.filter((e) => e.seq >= logSeen);
          shown.push(...fresh);
          if (s.view) logSeen = Math.max(logSeen, s.log || 0);
        }
        if (failed) break;
        const { type, n, entries, ...want } = new MatchState().take(c.fresh[i]);
        if (!same(st.doc, want)) {
          const diff = Object.keys({ ...want, ...st.doc }).filter((k) => !same(want[k], st.doc[k]));
          out.push(game + " seat " + c.seat + " step " + i + ": the page holds a different " + diff.join(", ") + ":\n  page  " +
            JSON.stringify(canon(diff.map((k) => st.doc[k]))).slice(0, 600) + "\n  whole " + JSON.stringify(canon(diff.map((k) => want[k]))).slice(0, 600));
          failed = true;
        } else if (!same(shown.map((e) => e.seq), entries.map((e) => e.seq))) {
          out.push(game + " seat " + c.seat + " step " + i + ": the page shows the log entries of records " + shown.map((e) => e.seq) +
            ", the whole state " + entries.map((e) => e.seq));
          failed = true;
        } else if (!same(shown.slice(before), c.new[i])) {
          const k = shown.findIndex((e, k) => k >= before && !same(e, c.new[i][k - before]));
          out.push(game + " seat " + c.seat + " step " + i + ": the new log entry of record " + shown[k].seq + " differs:\n  page  " +
            JSON.stringify(shown[k]) + "\n  whole " + JSON.stringify(c.new[i][k - before]));
          failed = true;
        }
        steps++;
      }
    }
    out.push("ok " + game + ": " + conns.length + " connections, " + steps + " steps compared, " + deltas + " deltas, " + gaps + " gaps probed");
  }
  return out.join("\n");
})()`

// playRecorded plays a whole game of the board with people in every seat,
// each connected, and a spectator, the test choosing each command at
// random among the legal ones; it records what every connection is sent
// and, after each command, the whole state a new connection would be
// sent. Along the way a spectator comes and goes (the summary changes
// alone), and the first spectator asks for a whole state once, as a page
// that missed a message does.
func playRecorded(t *testing.T, ts *testServer, board string, seats int, extra map[string]any, maxStep int) []*deltaStream {
	t.Helper()
	names := []string{"Ann", "Bob", "Cy", "Di", "Eve", "Fay"}[:seats]
	if extra == nil {
		extra = map[string]any{}
	}
	extra["turnLimit"] = 3600
	tb := ts.newTable(board, seats, names, false, true, extra)
	r, err := ts.srv.room(context.Background(), tb.ID)
	must(t, err)
	var clients []*client
	var streams []*deltaStream
	var shared bool
	must(t, r.do(context.Background(), func() { shared = game.IsSharedLog(r.m) }))
	for i := range seats {
		clients = append(clients, ts.dial(tb.ID, q("token", tb.tokens[i])))
		streams = append(streams, &deltaStream{Seat: i, Shared: shared})
	}
	clients = append(clients, ts.dial(tb.ID, q("invite", tb.Invite)))
	streams = append(streams, &deltaStream{Seat: game.Spectator, Shared: shared})
	rnd := rand.New(rand.NewPCG(uint64(len(board)), 7))
	// record waits until every client has the room's latest message, and
	// files what each got since the last step with the fresh whole state.
	stepLog := 0 // the log's length when the step began
	record := func(lost int) {
		var ver, logLen int
		var fresh, news [][]byte
		for {
			last := ver
			must(t, r.do(context.Background(), func() {
				ver = r.ver
				if ver == last {
					return
				}
				logLen = r.m.LogLen()
				news = news[:0]
				for _, s := range streams {
					entries, err := json.Marshal(r.m.Log(s.Seat, stepLog))
					must(t, err)
					news = append(news, entries)
				}
				// Made anew, not from what the room keeps of each seat.
				seen := r.seen
				defer func() { r.seen = seen }()
				fresh = fresh[:0]
				for _, s := range streams {
					r.seen = nil
					_, msg := r.whole(s.Seat, 0)
					fresh = append(fresh, msg)
				}
			}))
			if ver == last {
				break // no message since: every connection has the last
			}
			for _, c := range clients {
				c.waitFor(fmt.Sprintf("message %d", ver), func(stateIn) bool { return c.n >= ver })
			}
			time.Sleep(20 * time.Millisecond) // a connection that goes may be noticed late
		}
		for i, c := range clients {
			var msgs []json.RawMessage
			for _, raw := range c.raw {
				msgs = append(msgs, json.RawMessage(raw))
			}
			c.raw = nil
			streams[i].Messages = append(streams[i].Messages, msgs)
			streams[i].Fresh = append(streams[i].Fresh, fresh[i])
			streams[i].New = append(streams[i].New, news[i])
			streams[i].Lost = append(streams[i].Lost, -1)
		}
		if lost >= 0 {
			s := streams[len(streams)-1]
			s.Lost[len(s.Lost)-1] = lost
		}
		stepLog = logLen
	}
	record(-1)
	for step := 1; ; step++ {
		if step > maxStep {
			t.Fatalf("%s: not over after %d commands", board, maxStep)
		}
		var movers []int
		for i := range seats {
			if len(clients[i].last.Legal) > 0 {
				movers = append(movers, i)
			}
		}
		if clients[0].last.over() {
			break
		}
		if len(movers) == 0 {
			t.Fatalf("%s step %d: nobody may play, and the match is not over", board, step)
		}
		c := clients[movers[rnd.IntN(len(movers))]]
		legal := c.last.Legal[rnd.IntN(len(c.last.Legal))]
		if m := c.command(legal.Data); m["type"] != "ack" {
			t.Fatalf("%s step %d: a legal command %s was refused: %v", board, step, legal.Data, m["reason"])
		}
		lost := -1
		switch step {
		case 3:
			// Someone comes to watch, and goes.
			other := ts.dial(tb.ID, q("invite", tb.Invite))
			other.waitFor("a whole state", func(s stateIn) bool { return other.n > 0 })
			other.ws.CloseNow()
			time.Sleep(50 * time.Millisecond)
		case 5:
			// The spectator missed the last delta and asks for the whole
			// state, from the log it has.
			spec := clients[len(clients)-1]
			var ver int
			must(t, r.do(context.Background(), func() { ver = r.ver }))
			spec.waitFor("the last delta", func(stateIn) bool { return spec.n >= ver })
			lost = len(spec.raw) - 1
			if !strings.HasPrefix(spec.raw[lost], `{"type":"delta"`) {
				t.Fatalf("%s: the spectator's last message is not a delta: %s", board, spec.raw[lost])
			}
			// What the page would have: the log as it was before the
			// message lost.
			spec.send(map[string]any{"type": "sync", "log": spec.logBefore})
			spec.waitFor("the whole state asked for", func(stateIn) bool {
				return len(spec.raw) > lost+1 && strings.HasPrefix(spec.raw[len(spec.raw)-1], `{"type":"state"`)
			})
		}
		record(lost)
	}
	return streams
}
