package server

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/coder/websocket"
	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/party"
)

// maxAllocsPerCommand bounds what one command of a party match costs the
// server in allocations: playing it, storing it (the store's writer
// included), and sending every connection what changed. It measures 32 to
// 35 (ten runs, as games go; each command stored in a transaction of its
// own here; 38.7 in BenchmarkServerCommand, whose matches end and are
// replaced, and whose sockets are real), down from 178; telling the log
// once for each seat rather than once for all (40 to 41) goes over it, and
// so would a context with a deadline for each socket's message.
const maxAllocsPerCommand = 38

// discardPeer is a connection that takes every frame and sends nothing:
// what the room does for a connection, without the socket.
type discardPeer struct{}

func (discardPeer) write([]byte) error                 { return nil }
func (discardPeer) ping(context.Context) error         { return nil }
func (discardPeer) close(websocket.StatusCode, string) {}
func (discardPeer) closeNow()                          {}

// The allocations of a command stay within their bound, so that the
// server's cost per command cannot grow unnoticed. TABULA_ALLOCS_PROFILE
// names a file for the allocation profile of the measured commands (go
// tool pprof -sample_index=alloc_objects -diff_base FILE.before FILE). Each match of the
// party's default board has both its players connected; a command is
// played as a client's would be (through its connection's link to the
// room) and both connections are sent their state.
func TestCommandAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("plays many commands")
	}
	if raceDetector {
		t.Skip("the race detector's bookkeeping allocates")
	}
	ts := newTestServer(t, Options{Packs: game.Packs{party.NewPack()}, Bundled: BundledGames{FS: examples.Games, Default: "default"}})
	ctx := context.Background()
	type player struct {
		s     *session
		link  *localLink
		legal []byte   // its first legal command, as its last message says
		queue []outMsg // what it was sent
	}
	type match struct {
		r       *room
		players []*player
	}
	var matches []*match
	for range 12 {
		tb := ts.newTable("default", 2, []string{"Ann", "Bob"}, false, true, map[string]any{"maxRounds": 10000})
		r, err := ts.srv.room(ctx, tb.ID)
		must(t, err)
		m := &match{r: r}
		for _, tok := range tb.tokens {
			s := newSession(discardPeer{}, -1)
			must(t, r.attachLocal(ctx, wsQuery{Token: tok}, s))
			m.players = append(m.players, &player{s: s, link: &localLink{r: r, s: s}})
		}
		matches = append(matches, m)
	}
	// drain reads what the players were sent, as a client would: the
	// first legal command of each (without allocating: the test's own
	// work is not counted).
	drain := func(m *match) {
		for _, p := range m.players {
			p.queue = p.s.take(p.queue)
			for _, msg := range p.queue {
				if cmd, changed := firstLegal(msg.data); changed {
					p.legal = cmd
				}
			}
		}
	}
	for _, m := range matches {
		drain(m)
	}
	id := 0
	// play plays the next command of the first match not over; false if
	// every match is over.
	play := func() bool {
		for _, m := range matches {
			for _, p := range m.players {
				if p.legal == nil {
					continue
				}
				id++
				reply, _, err := p.link.command(ctx, clientMsg{Type: "command", ID: id, Data: p.legal})
				must(t, err)
				if reply.Type != "ack" {
					t.Fatalf("a legal command was refused: %s", reply.Reason)
				}
				drain(m)
				return true
			}
		}
		return false
	}
	for range 5 { // warm the pools and the prepared statements
		play()
	}
	const n = 60
	var before, after runtime.MemStats
	if p := os.Getenv("TABULA_ALLOCS_PROFILE"); p != "" {
		// Every allocation of the measured commands: the profile less
		// the one saved before them (pprof -diff_base p.before).
		runtime.MemProfileRate = 1
		save := func(p string) {
			runtime.GC()
			f, err := os.Create(p)
			must(t, err)
			must(t, pprof.Lookup("allocs").WriteTo(f, 0))
			f.Close()
		}
		save(p + ".before")
		defer func() {
			save(p)
			runtime.MemProfileRate = 512 * 1024
		}()
	}
	runtime.ReadMemStats(&before)
	for i := range n {
		if !play() {
			t.Fatalf("every match ended after %d commands: make more", i)
		}
	}
	runtime.ReadMemStats(&after)
	per := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.1f allocations per command", per)
	if per > maxAllocsPerCommand {
		t.Errorf("a command costs %.1f allocations, more than the %d allowed: see what was added with the load benchmark's profile (TABULA_LOAD_ALLOCS)", per, maxAllocsPerCommand)
	}
}
