package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestDeadReplicaFallsBackToThePrimary: an API process reads from a
// streaming standby once it has caught up (the standby's own counters of
// table scans grow with the API's requests). The standby is then stopped:
// every request still answers 200 with the same body, from the primary,
// and /readyz stays 200 and reports the replica unreachable. The standby
// is started again: /readyz reports it caught up once a probe answers, and
// reads return to it (its scan counters grow again with the requests).
func TestDeadReplicaFallsBackToThePrimary(t *testing.T) {
	ctx := context.Background()
	primary, standby, st := primaryWithStandby(t)
	if err := st.LoadPublication(ctx, wiredPublication("pub-1", "", "F", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))); err != nil {
		t.Fatal(err)
	}
	a := startAPI(t, "DATABASE_URL="+primary.URL, "ATTESTARI_DATABASE_REPLICA_URL="+standby.URL)
	// /packages is read from the database on every request (no cache).
	const path = "/packages"
	until(t, path, `"scaled"`, a)
	_, want := a.get(t, path)

	// scans is how many table scans the standby itself has counted;
	// the router's probes scan no table.
	scans := func() int64 {
		t.Helper()
		conn, err := pgx.Connect(ctx, standby.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var n int64
		if err := conn.QueryRow(ctx, "SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)::bigint FROM pg_stat_user_tables").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	readyState := func(state string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			code, body := a.get(t, "/readyz")
			if code != 200 {
				t.Fatalf("/readyz answered %d with a replica %s wanted: %s", code, state, body)
			}
			if strings.Contains(body, `"replicas":[{"replica":1,"state":"`+state+`"}]`) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz never reported the replica %s: %s", state, body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	readsReachStandby := func(when string) {
		t.Helper()
		before := scans()
		deadline := time.Now().Add(60 * time.Second)
		for scans() <= before {
			for range 5 {
				if code, body := a.get(t, path); code != 200 || body != want {
					t.Fatalf("%s: %d %s", when, code, body)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the standby counted no scan after the API's requests: its reads did not go to it", when)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	readyState("caught_up")
	readsReachStandby("the standby caught up")

	if err := standby.Down(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if code, body := a.get(t, path); code != 200 || body != want {
			t.Fatalf("request %d with the standby stopped: %d %s; want the primary's answer", i, code, body)
		}
	}
	readyState("unreachable")
	for i := range 20 {
		if code, body := a.get(t, path); code != 200 || body != want {
			t.Fatalf("request %d with the standby marked unreachable: %d %s", i, code, body)
		}
	}

	if err := standby.Up(ctx); err != nil {
		t.Fatal(err)
	}
	readyState("caught_up")
	readsReachStandby("the standby started again")
}
