package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestClassify pins which failures are the database's (unavailable or too
// slow) and which are not: a missing row, a constraint, a bad parameter or
// a caller that gave up must never read as an outage, or a client would be
// told to retry what can never succeed.
func TestClassify(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, c := range []struct {
		name string
		err  error
		want error // nil: returned as it is
	}{
		{"admin shutdown", &pgconn.PgError{Severity: "FATAL", Code: "57P01"}, ErrUnavailable},
		{"crash shutdown", &pgconn.PgError{Severity: "FATAL", Code: "57P02"}, ErrUnavailable},
		{"starting up", &pgconn.PgError{Severity: "FATAL", Code: "57P03"}, ErrUnavailable},
		{"too many connections", &pgconn.PgError{Severity: "FATAL", Code: "53300"}, ErrUnavailable},
		{"connection exception", &pgconn.PgError{Severity: "FATAL", Code: "08006"}, ErrUnavailable},
		{"statement timeout", &pgconn.PgError{Severity: "ERROR", Code: "57014"}, ErrTimeout},
		{"refused", fmt.Errorf("list runs: %w", refused), ErrUnavailable},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, ErrUnavailable},
		{"closed by peer", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), ErrUnavailable},
		{"closed by pgx", fmt.Errorf("x: %w", pgconn.ErrConnClosed), ErrUnavailable},
		{"deadline", fmt.Errorf("acquire: %w", context.DeadlineExceeded), ErrTimeout},
		{"no rows", pgx.ErrNoRows, nil},
		{"unique violation", &pgconn.PgError{Severity: "ERROR", Code: "23505"}, nil},
		{"invalid byte sequence", &pgconn.PgError{Severity: "ERROR", Code: "22021"}, nil},
		{"caller gave up", fmt.Errorf("q: %w", context.Canceled), nil},
	} {
		got := classify(c.err)
		if c.want == nil {
			if got != c.err {
				t.Errorf("%s: must be returned as it is, got %v", c.name, got)
			}
			continue
		}
		other := ErrTimeout
		if c.want == ErrTimeout {
			other = ErrUnavailable
		}
		if !errors.Is(got, c.want) || errors.Is(got, other) || !errors.Is(got, c.err) {
			t.Errorf("%s: want %v wrapping the cause, got %v", c.name, c.want, got)
		}
		if classify(got) != got {
			t.Errorf("%s: classifying twice must change nothing", c.name)
		}
	}
}
