package store_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
)

// TestReplicaFloorCoversAnUnwrittenCommit reproduces the interleaving that
// let a paused standby serve a replaced grade: a load committed with
// synchronous_commit off, its commit record still in the primary's WAL
// buffers (the WAL writer is held with SIGSTOP, so nothing writes it) when
// the notification is heard. The floor the router then sets must lie at or
// past the end of that commit record, exactly as pg_walinspect reads it once
// the WAL is written: a standby that replayed up to the floor has replayed
// the load. The primary's write position (pg_current_wal_lsn) is, at that
// moment, before the commit record, which is what the floor used to be.
//
// The primary stands in as its own "replica" here: its replay position is
// NULL, so it is never read from, and only the floor is under test.
func TestReplicaFloorCoversAnUnwrittenCommit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := dbtest.Private(t)
	admin, err := pgx.Connect(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_walinspect"); err != nil {
		t.Fatalf("pg_walinspect: %v", err)
	}
	s, err := store.Open(ctx, c.URL, store.Options{MaxConns: 2, ReplicaURLs: []string{c.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	events := make(chan bool, 16)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = s.WatchPublications(wctx, func(live bool) { events <- live }) }()
	if !nextEvent(t, events, "listening") {
		t.Fatal("first event is not live")
	}

	// Hold the WAL writer, so an asynchronous commit stays unwritten.
	var walwriter int
	if err := admin.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'").Scan(&walwriter); err != nil {
		t.Fatalf("find the WAL writer: %v", err)
	}
	if err := syscall.Kill(walwriter, syscall.SIGSTOP); err != nil {
		t.Fatalf("hold the WAL writer: %v", err)
	}
	held := true
	release := func() {
		if held {
			held = false
			if err := syscall.Kill(walwriter, syscall.SIGCONT); err != nil {
				t.Errorf("release the WAL writer: %v", err)
			}
		}
	}
	defer release()

	loader, err := pgx.Connect(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer loader.Close(context.Background())
	var start string
	if err := loader.QueryRow(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&start); err != nil {
		t.Fatal(err)
	}
	tx, err := loader.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var xid int64
	if _, err := tx.Exec(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(ctx, "SELECT pg_current_xact_id()::text::bigint").Scan(&xid); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, 'pub-floor')", store.PublicationsChannel); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if !nextEvent(t, events, "the load's notification") {
		t.Fatal("the notification was announced as not live")
	}
	floor := store.ReplicaFloor(s)
	var written int64
	if err := admin.QueryRow(ctx, "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint").Scan(&written); err != nil {
		t.Fatal(err)
	}

	// Write the WAL, then read where the load's commit record ends.
	release()
	if _, err := admin.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	var end int64
	err = admin.QueryRow(ctx, `SELECT pg_wal_lsn_diff(end_lsn, '0/0')::bigint
		FROM pg_get_wal_records_info($1::pg_lsn, pg_current_wal_flush_lsn())
		WHERE xid::text::bigint = $2 AND record_type = 'COMMIT'`, start, xid).Scan(&end)
	if err != nil {
		t.Fatalf("the load's commit record: %v", err)
	}
	if floor < uint64(end) {
		t.Fatalf("the floor %d lies before the end %d of the load's commit record: a standby replayed up to it does not show the load", floor, end)
	}
	t.Logf("floor %d, commit record ends at %d, write position when heard %d", floor, end, written)
}
