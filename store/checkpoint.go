package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"
)

// SQLite in WAL mode appends every commit to its write-ahead log, and a
// checkpoint copies the log back into the database file and syncs it.
// SQLite's own checkpoints run inside the commit that filled the log (1,000
// pages), so that every command waiting for that commit waits for the
// copy and the sync as well: the slow tail of a busy server. Here the
// writer's connection never checkpoints; a checkpointer does, from a
// connection of its own, beside the writer (a passive checkpoint takes no
// lock a writer needs). The log starts over from its beginning only once
// it has been copied whole, which a checkpoint beside a busy writer never
// achieves (the writer appends while it copies): so once the checkpoints
// beside the writer have copied most of it, the checkpointer holds the
// writer between two commits for a last one, which copies the little
// written meanwhile (a few milliseconds, most of it the sync), and the
// next commit starts the log over. It stays a few megabytes long.

// A checkpoint is asked for once the log has about ckptPages pages (as
// SQLite's own default), counted as a page for each command and two for
// each commit (the pages of the table and of the index a command lands
// in, which differ from match to match), and in any case ckptEvery after
// something was written. A checkpoint copies each page once however many
// commits wrote it since the last one, so that they are not made more
// often than that.
const (
	ckptPages = 1000
	ckptEvery = time.Second
	// ckptTail is the length of log left for the last checkpoint, which
	// holds the writer: the checkpoints beside it run until no more is
	// left, or ckptRounds of them ran.
	ckptTail   = 64
	ckptRounds = 4
	// ckptLong is a log long enough (16 MiB of 4 KiB pages) that the
	// writer is held for the rest at once: a checkpointer slower than the
	// writer (the machine busy) would let it grow.
	ckptLong = 4096
)

// checkpointer copies the write-ahead log into the database file.
type checkpointer struct {
	conn *sql.Conn
	// hold is held by the writer while it commits, and by the checkpointer
	// for the last checkpoint of a round.
	hold    sync.Mutex
	kick    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	written atomic.Int64 // pages written since the last checkpoint was asked for, about
	done    atomic.Int64 // checkpoints run
	pages   atomic.Int64 // the log's length after the last checkpoint
}

func newCheckpointer(conn *sql.Conn) *checkpointer {
	c := &checkpointer{conn: conn, kick: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	go c.run()
	return c
}

// wrote tells the checkpointer of a commit of n commands (on the writer's
// goroutine).
func (c *checkpointer) wrote(n int) {
	if c.written.Add(int64(n)+2) >= ckptPages {
		c.written.Store(0)
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

func (c *checkpointer) run() {
	defer close(c.stopped)
	tick := time.NewTicker(ckptEvery)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		case <-tick.C:
			if c.written.Load() == 0 {
				continue // nothing written since
			}
			c.written.Store(0)
		}
		c.round()
	}
}

// round copies the log into the database file, most of it beside the
// writer and the rest with the writer held, so that the log starts over.
func (c *checkpointer) round() {
	for range ckptRounds {
		log, copied, ok := c.checkpoint()
		if !ok || log-copied <= ckptTail || log > ckptLong {
			break
		}
	}
	c.hold.Lock()
	c.checkpoint()
	c.hold.Unlock()
}

// checkpoint runs one passive checkpoint and returns the log's length and
// how much of it is copied, in pages.
func (c *checkpointer) checkpoint() (log, copied int64, ok bool) {
	var busy int64
	err := c.conn.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &copied)
	if err != nil {
		return 0, 0, false // the next round will tell
	}
	c.done.Add(1)
	c.pages.Store(log)
	return log, copied, true
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() {
	close(c.stop)
	<-c.stopped
	c.conn.Close()
}
