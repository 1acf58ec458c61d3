package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// openBucket binds the leases' bucket, creating it if no node did yet,
// and returns it with its lease time.
func openBucket(ctx context.Context, nc *nats.Conn, opts Options) (jetstream.KeyValue, time.Duration, error) {
	fail := func(err error) (jetstream.KeyValue, time.Duration, error) {
		return nil, 0, fmt.Errorf("cluster: the leases' bucket %s at %s: %w", opts.Bucket, opts.URL, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fail(err)
	}
	kv, err := js.KeyValue(ctx, opts.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = createBucket(ctx, js, opts)
	}
	if err != nil {
		return fail(err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return fail(err)
	}
	ttl := st.TTL()
	switch {
	case ttl <= 0:
		return fail(errors.New("its keys never expire, so a crashed node's leases would never end; delete the bucket (nats kv del) and let a node create it again"))
	case opts.LeaseTTL != 0 && opts.LeaseTTL != ttl:
		return fail(fmt.Errorf("its leases last %v but this node was told %v; start every node with the same lease time (or delete the bucket to change it)", ttl, opts.LeaseTTL))
	}
	return kv, ttl, nil
}

// createBucket creates the leases' bucket: a key-value bucket keeping one
// value per key, forgetting values older than the lease time, on disk.
//
// It is built as a stream (the way a key-value bucket is) rather than
// through CreateKeyValue for one setting the latter lacks: the first
// revision. Fences are revisions, and the store refuses a fence lower
// than a match's; if NATS ever loses the bucket (a new NATS cluster, a
// wiped disk), a bucket starting again from revision 1 would leave every
// match refusing its new owners. Starting from the clock in microseconds
// keeps new fences above the old ones: revisions would have to have been
// written faster than a million a second to be ahead of it.
func createBucket(ctx context.Context, js jetstream.JetStream, opts Options) (jetstream.KeyValue, error) {
	ttl := opts.LeaseTTL
	if ttl == 0 {
		ttl = DefaultLeaseTTL
	}
	cfg := jetstream.StreamConfig{
		Name:              "KV_" + opts.Bucket,
		Description:       "Tabula's match leases: one key per match, holding its owner's name",
		Subjects:          []string{"$KV." + opts.Bucket + ".>"},
		MaxMsgsPerSubject: 1,
		MaxAge:            ttl,
		MaxBytes:          -1,
		MaxMsgs:           -1,
		MaxMsgSize:        -1,
		MaxConsumers:      -1,
		Storage:           jetstream.FileStorage,
		Replicas:          max(opts.Replicas, 1),
		AllowRollup:       true,
		DenyDelete:        true,
		AllowDirect:       true,
		Discard:           jetstream.DiscardNew,
		Duplicates:        min(ttl, 2*time.Minute),
		FirstSeq:          uint64(time.Now().UnixMicro()),
	}
	if _, err := js.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		// (Another node creating it at the same moment is fine.)
		return nil, err
	}
	return js.KeyValue(ctx, opts.Bucket)
}
