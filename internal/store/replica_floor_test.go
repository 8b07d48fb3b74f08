package store_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
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

// TestPausedStandbyNeverAnswersAfterTheNotification is the product's
// promise over a replica, with the same interleaving forced: the standby has
// replayed everything the primary wrote and is paused; the WAL writer is
// held, so the load's commit stays in the primary's buffers and the standby
// sits exactly at the primary's write position. Once the notification is
// heard and the router has learnt the standby's position, a read through
// the store answers the new grade (from the primary), while the standby
// itself still answers the old one. With the write position as the floor
// the standby passed for caught up here and the read answered the old grade.
func TestPausedStandbyNeverAnswersAfterTheNotification(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := dbtest.Private(t)
	standby, err := c.StartStandby(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = standby.Stop(context.Background()) })
	s, err := store.Open(ctx, c.URL, store.Options{MaxConns: 2, ReplicaURLs: []string{standby.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	direct, err := store.Open(ctx, standby.URL, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	grade := func(st *store.Store) string {
		m, err := st.Manifest(ctx, "npm", "floored", "1.0.0", "")
		if err != nil {
			return err.Error()
		}
		if m.Grade == nil {
			return "no grade"
		}
		return *m.Grade
	}
	pub := func(id, supersedes, g string, at time.Time) *publication.Publication {
		p := storetest.Publication(id, "run-"+id, at)
		p.Header.Supersedes = supersedes
		p.Packages = append(p.Packages, storetest.Package("npm", "floored", "1.0.0", "graded", g, nil,
			storetest.Tool("t", "readable", "A tool.", "none", "")))
		return p
	}
	events := make(chan bool, 16)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = s.WatchPublications(wctx, func(live bool) { events <- live }) }()
	if !nextEvent(t, events, "listening") {
		t.Fatal("first event is not live")
	}
	if err := s.LoadPublication(ctx, pub("pub-1", "", "F", t0)); err != nil {
		t.Fatal(err)
	}
	if !nextEvent(t, events, "the first load") {
		t.Fatal("the first load was announced as not live")
	}
	admin, err := pgx.Connect(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	var syncCommit string
	if err := admin.QueryRow(ctx, "SHOW synchronous_commit").Scan(&syncCommit); err != nil || syncCommit != "off" {
		t.Fatalf("the premise: the loader commits with synchronous_commit off, got %q (%v)", syncCommit, err)
	}
	position := func(conn *pgx.Conn, sql string) int64 {
		t.Helper()
		var at int64
		if err := conn.QueryRow(ctx, sql).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	// Write and flush everything so far, then let the standby replay it all.
	if _, err := admin.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	flushed := position(admin, "SELECT pg_wal_lsn_diff(pg_current_wal_flush_lsn(), '0/0')::bigint")
	sb, err := pgx.Connect(ctx, standby.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(context.Background())
	const replaySQL = "SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint"
	for deadline := time.Now().Add(time.Minute); position(sb, replaySQL) < flushed; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the standby never replayed the primary's flushed WAL")
		}
	}
	if g := grade(direct); g != "F" {
		t.Fatalf("the standby shows %q after replaying the first load", g)
	}
	if err := standby.PauseReplay(ctx); err != nil {
		t.Fatal(err)
	}
	var walwriter int
	if err := admin.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'").Scan(&walwriter); err != nil {
		t.Fatalf("find the WAL writer: %v", err)
	}
	if err := syscall.Kill(walwriter, syscall.SIGSTOP); err != nil {
		t.Fatalf("hold the WAL writer: %v", err)
	}
	defer func() { _ = syscall.Kill(walwriter, syscall.SIGCONT) }()
	paused := position(sb, replaySQL)

	if err := s.LoadPublication(ctx, pub("pub-2", "pub-1", "A", t0.Add(24*time.Hour))); err != nil {
		t.Fatal(err)
	}
	if !nextEvent(t, events, "the second load") {
		t.Fatal("the second load was announced as not live")
	}
	// Let the router learn where the paused standby is: the state in
	// which the old floor chose it.
	for deadline := time.Now().Add(time.Minute); store.ReplicaReplayed(s)[0] < uint64(paused); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the router never learnt the standby's position %d: %v", paused, store.ReplicaReplayed(s))
		}
	}
	if g := grade(direct); g != "F" {
		t.Fatalf("replay was paused, yet the standby shows %q: the test proves nothing", g)
	}
	for range 5 {
		if g := grade(s); g != "A" {
			t.Fatalf("after the notification a read answered %q (floor %d, standby at %d)", g, store.ReplicaFloor(s), paused)
		}
	}
	t.Logf("floor %d, paused standby at %d", store.ReplicaFloor(s), paused)
}
