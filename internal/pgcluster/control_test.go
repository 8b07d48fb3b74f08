package pgcluster

import (
	"context"
	"errors"
	"net"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestControls drives a private cluster through Down, Up, Freeze and Thaw
// and checks each from a client's side: down refuses connections, up
// accepts them on the same URL, frozen accepts TCP but never answers, thawed
// answers again, and Stop of a frozen cluster thaws and stops it.
func TestControls(t *testing.T) {
	if _, err := FindBinaries(nil); err != nil {
		t.Fatalf("this test needs PostgreSQL binaries (.ci/run installs them): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Env: func(string) string { return "" }, NoContainers: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	query := func(d time.Duration) error {
		qctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		conn, err := pgx.Connect(qctx, c.URL)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		var one int
		return conn.QueryRow(qctx, "SELECT 1").Scan(&one)
	}
	if err := query(10 * time.Second); err != nil {
		t.Fatalf("a started cluster answers: %v", err)
	}

	if err := c.Down(ctx); err != nil {
		t.Fatal(err)
	}
	if err := query(5 * time.Second); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("a cluster that is down refuses connections, got %v", err)
	}
	if err := c.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if err := query(10 * time.Second); err != nil {
		t.Fatalf("after Up the same URL answers: %v", err)
	}

	open, err := pgx.Connect(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close(context.Background())
	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	// A session opened before the freeze is frozen too: its backend is a
	// child of the postmaster in a session of its own.
	qctx, qcancel := context.WithTimeout(ctx, time.Second)
	var one int
	err = open.QueryRow(qctx, "SELECT 1").Scan(&one)
	qcancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a session open before the freeze must not answer, got %v", err)
	}
	u, _ := url.Parse(c.URL)
	tcp, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		t.Fatalf("a frozen server's port still accepts TCP: %v", err)
	}
	tcp.Close()
	if err := query(time.Second); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a frozen server never answers, so the client's deadline ends the attempt; got %v", err)
	}
	if err := c.Thaw(); err != nil {
		t.Fatal(err)
	}
	if err := query(10 * time.Second); err != nil {
		t.Fatalf("after Thaw the server answers: %v", err)
	}

	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatalf("Stop of a frozen cluster thaws it first, then stops it: %v", err)
	}
	if err := query(5 * time.Second); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("a stopped cluster refuses connections, got %v", err)
	}
	if err := (&Cluster{URL: c.URL, How: "DATABASE_URL"}).Freeze(); !errors.Is(err, ErrNotControllable) {
		t.Fatalf("a server this process did not start is never frozen: %v", err)
	}
}
