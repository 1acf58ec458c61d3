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
// Besides, every game takes back a move when one may be; with device, the
// first two seats are one device's (pass-and-play), which switches seats
// once; with owner, the owner hands the last seat to a bot and back,
// mutes the first seat's player and lets spectators chat.
var deltaGames = []struct {
	board   string
	seats   int
	extra   map[string]any
	maxStep int
	device  bool
	owner   bool
}{
	{"default", 2, nil, 400, false, true},
	{"everything", 3, map[string]any{"maxRounds": 6}, 400, true, false},
	{"chutes-and-ladders", 2, map[string]any{"maxRounds": 12}, 400, false, false},
	{"monopoly", 3, map[string]any{"maxRounds": 4}, 600, false, true},
	{"drone-lanes", 2, map[string]any{"maxRounds": 3}, 600, false, true},
	{"duel", 2, map[string]any{"maxRounds": 4}, 600, true, false},
	{"trouble", 4, map[string]any{"maxRounds": 6}, 600, true, true},
	{"crossroads", 2, map[string]any{"maxRounds": 8}, 600, false, true},
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
	// Undone is, for each step, the seat whose move the step took back
	// (-1: none): the page holds it ("undone") until the next message.
	Undone []int `json:"undone"`
}

// The page's own delta code (web/static/delta.js), run in Chromium on every
// message of whole games of every pack, holds after each command exactly
// what a fresh whole state says, for every seat and a spectator: the
// document (summary, view, legal commands, log length, hash, deadline, who
// may take back a move) and the log entries shown, the notes of who
// played for whom among them. Moves are taken back (the log grows
// shorter), seats handed to a bot and back, a device holding two seats
// switches between them. A delta after a missing message is refused as a
// gap, and the whole state asked for then mends it.
func TestPageDeltasMatchWholeStates(t *testing.T) {
	exe := chromium(t)
	ts := newPageServer(t, Options{})
	var streams = map[string][]*deltaStream{}
	var total deltaCounts
	for _, g := range deltaGames {
		var n deltaCounts
		streams[g.board], n = playRecorded(t, ts, g.board, g.seats, g.extra, g.maxStep, g.device, g.owner)
		t.Logf("%s: %d moves taken back, %d notes of who played, %d seat switches", g.board, n.undos, n.notes, n.switches)
		total.undos += n.undos
		total.notes += n.notes
		total.switches += n.switches
	}
	if total.undos == 0 || total.notes == 0 || total.switches == 0 {
		t.Errorf("the games took back %d moves, told %d notes and switched seats %d times: each should happen", total.undos, total.notes, total.switches)
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
        let before = shown.length, undone = -1;
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
          if (s.view && typeof s.log === "number" && s.log < logSeen) {
            // A move taken back: the entries past the log's end go (undo.js).
            shown = shown.filter((e) => e.seq < s.log);
            logSeen = s.log;
            before = Math.min(before, shown.length);
          }
          if (s.undone !== undefined) undone = s.undone;
          const fresh = s.entries.filter((e) => e.seq >= logSeen);
          shown.push(...fresh);
          if (s.view) logSeen = Math.max(logSeen, s.log || 0);
        }
        if (failed) break;
        const { type, n, entries, ...want } = new MatchState().take(c.fresh[i]);
        // Whose move was taken back is told by the message of the undo,
        // and held until the next: a whole state made after has none.
        const doc = { ...st.doc };
        if (undone !== c.undone[i]) { out.push(game + " seat " + c.seat + " step " + i + ": the page was told undone " + undone + ", not " + c.undone[i]); failed = true; break; }
        if (undone >= 0 && doc.undone === undone) delete doc.undone;
        if (!same(doc, want)) {
          const diff = Object.keys({ ...want, ...doc }).filter((k) => !same(want[k], doc[k]));
          out.push(game + " seat " + c.seat + " step " + i + ": the page holds a different " + diff.join(", ") + ":\n  page  " +
            JSON.stringify(canon(diff.map((k) => doc[k]))).slice(0, 600) + "\n  whole " + JSON.stringify(canon(diff.map((k) => want[k]))).slice(0, 600));
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

// deltaCounts counts what a recorded game did besides commands.
type deltaCounts struct{ undos, notes, switches int }

// playRecorded plays a whole game of the board with people in every seat,
// each connected, and a spectator, the test choosing each command at
// random among the legal ones, and taking back the first moves that may
// be; it records what every connection is sent and, after each command,
// the whole state a new connection would be sent. Along the way a
// spectator comes and goes (the summary changes alone), and the first
// spectator asks for a whole state once, as a page that missed a message
// does. With device, the first two seats are one device's: each of its
// two connections sees one of them, and the first switches to the other
// seat and back once. With owner, the owner hands the last seat to a bot
// (whose moves the log tells of) and back, mutes the first seat and lets
// spectators chat.
func playRecorded(t *testing.T, ts *testServer, board string, seats int, extra map[string]any, maxStep int, device, owner bool) ([]*deltaStream, deltaCounts) {
	t.Helper()
	names := []string{"Ann", "Bob", "Cy", "Di", "Eve", "Fay"}[:seats]
	if extra == nil {
		extra = map[string]any{}
	}
	extra["turnLimit"] = 3600
	var tb *table
	if device {
		tb = ts.newTable(board, seats, names[:1], false, false, extra)
		tb.tokens = append(tb.tokens, tb.tokens[0])
		var j joined
		if st := ts.call("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": names[1], "token": tb.tokens[0]}, &j); st != http.StatusOK || j.Seat != 1 {
			t.Fatalf("%s: adding a player on the device: %d %+v", board, st, j)
		}
		for _, name := range names[2:] {
			if st := ts.call("POST", "/api/matches/"+tb.ID+"/join", map[string]any{"name": name, "invite": tb.Invite}, &j); st != http.StatusOK {
				t.Fatalf("%s joining: %d", name, st)
			}
			tb.tokens = append(tb.tokens, j.Token)
		}
		if st := ts.call("POST", "/api/matches/"+tb.ID+"/start", map[string]any{"owner": tb.Owner}, nil); st != http.StatusOK {
			t.Fatalf("%s: starting: %d", board, st)
		}
	} else {
		tb = ts.newTable(board, seats, names, false, true, extra)
	}
	r, err := ts.srv.room(context.Background(), tb.ID)
	must(t, err)
	var clients []*client
	var streams []*deltaStream
	var shared bool
	var counts deltaCounts
	must(t, r.do(context.Background(), func() { shared = game.IsSharedLog(r.m) }))
	for i := range seats {
		// A device's connection says which of its seats it sees.
		clients = append(clients, ts.dial(tb.ID, q("token", tb.tokens[i])+fmt.Sprintf("&seat=%d", i)))
		streams = append(streams, &deltaStream{Seat: i, Shared: shared})
	}
	clients = append(clients, ts.dial(tb.ID, q("invite", tb.Invite)))
	streams = append(streams, &deltaStream{Seat: game.Spectator, Shared: shared})
	rnd := rand.New(rand.NewPCG(uint64(len(board)), 7))
	// record waits until every client has the room's latest message, and
	// files what each got since the last step with the fresh whole state.
	stepLog := 0 // the log's length when the step began
	record := func(lost, undone int) {
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
				from := min(stepLog, logLen) // a move taken back shortens the log
				news = news[:0]
				for _, s := range streams {
					entries := append([]game.Entry{}, r.played.withNotes(r.m.Log(s.Seat, from), from, logLen, r.playerName)...)
					data, err := json.Marshal(entries)
					must(t, err)
					news = append(news, data)
				}
				counts.notes = len(r.played.notes)
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
			msgs := []json.RawMessage{}
			for _, raw := range c.raw {
				msgs = append(msgs, json.RawMessage(raw))
			}
			c.raw = nil
			streams[i].Messages = append(streams[i].Messages, msgs)
			streams[i].Fresh = append(streams[i].Fresh, fresh[i])
			streams[i].New = append(streams[i].New, news[i])
			streams[i].Lost = append(streams[i].Lost, -1)
			streams[i].Undone = append(streams[i].Undone, undone)
		}
		if lost >= 0 {
			s := streams[len(streams)-1]
			s.Lost[len(s.Lost)-1] = lost
		}
		stepLog = logLen
	}
	record(-1, -1)
	synced := false // the spectator asked for a whole state
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
		lost, undone := -1, -1
		if c.last.CanUndo && counts.undos < 3 && step > 1 {
			// The move is taken back, unless a bot played since: its
			// records leave the log.
			record(-1, -1)
			if c.last.CanUndo {
				if m := c.request(map[string]any{"type": "undo"}); m["type"] != "ack" {
					t.Fatalf("%s step %d: taking back a move offered: %v", board, step, m["reason"])
				}
				counts.undos++
				undone = c.last.You
				stepLog = min(stepLog, c.last.Log) // the log the step tells from
			}
		}
		switch {
		case owner && step == 4:
			// The owner hands the last seat to a bot, which plays it for a
			// while: the log says so.
			last := len(names) - 1
			if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/"+fmt.Sprint(last), map[string]any{"owner": tb.Owner, "bot": true}, nil); st != http.StatusOK {
				t.Fatalf("%s: handing a seat to a bot: %d", board, st)
			}
		case owner && step == 6:
			if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/0", map[string]any{"owner": tb.Owner, "mute": true}, nil); st != http.StatusOK {
				t.Fatalf("%s: muting a seat: %d", board, st)
			}
			if st := ts.call("POST", "/api/matches/"+tb.ID+"/settings", map[string]any{"owner": tb.Owner, "spectatorChat": true}, nil); st != http.StatusOK {
				t.Fatalf("%s: letting spectators chat: %d", board, st)
			}
		case owner && step == 9:
			// Unless the bot finished the game meanwhile (it plays as fast
			// as the machine lets it).
			last := len(names) - 1
			var out map[string]any
			if st := ts.call("POST", "/api/matches/"+tb.ID+"/seats/"+fmt.Sprint(last), map[string]any{"owner": tb.Owner, "bot": false}, &out); st != http.StatusOK &&
				!(st == http.StatusConflict && ts.summary(tb.ID, q("owner", tb.Owner)).Status == "finished") {
				t.Fatalf("%s: giving a seat back: %d %v", board, st, out)
			}
		case device && step == 7:
			// The device's first connection shows the other seat, then its
			// own again, keeping the log it has.
			dev := clients[0]
			for _, seat := range []int{1, 0} {
				dev.id++
				dev.send(map[string]any{"type": "seat", "id": dev.id, "seat": seat, "log": dev.last.Log})
				if m := dev.reply(); m["type"] != "ack" {
					t.Fatalf("%s: switching the device to seat %d: %v", board, seat, m)
				}
				dev.waitFor(fmt.Sprintf("seat %d's whole state", seat), func(s stateIn) bool { return s.You == seat })
				counts.switches++
			}
		}
		switch step {
		case 3:
			// Someone comes to watch, and goes.
			other := ts.dial(tb.ID, q("invite", tb.Invite))
			other.waitFor("a whole state", func(s stateIn) bool { return other.n > 0 })
			other.ws.CloseNow()
			time.Sleep(50 * time.Millisecond)
		}
		if spec := clients[len(clients)-1]; step >= 5 && !synced && len(spec.raw) > 0 {
			// The spectator missed the last delta and asks for the whole
			// state, from the log it has.
			synced = true
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
		record(lost, undone)
	}
	return streams, counts
}
