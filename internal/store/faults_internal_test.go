package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
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
		{"admin shutdown", &pgconn.PgError{Severity: "FATAL", Code: "57P01"}, vocab.ErrUnavailable},
		{"crash shutdown", &pgconn.PgError{Severity: "FATAL", Code: "57P02"}, vocab.ErrUnavailable},
		{"starting up", &pgconn.PgError{Severity: "FATAL", Code: "57P03"}, vocab.ErrUnavailable},
		{"too many connections", &pgconn.PgError{Severity: "FATAL", Code: "53300"}, vocab.ErrUnavailable},
		{"connection exception", &pgconn.PgError{Severity: "FATAL", Code: "08006"}, vocab.ErrUnavailable},
		{"statement timeout", &pgconn.PgError{Severity: "ERROR", Code: "57014"}, vocab.ErrTimeout},
		{"refused", fmt.Errorf("list runs: %w", refused), vocab.ErrUnavailable},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, vocab.ErrUnavailable},
		{"closed by peer", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), vocab.ErrUnavailable},
		{"closed by pgx", fmt.Errorf("x: %w", pgconn.ErrConnClosed), vocab.ErrUnavailable},
		{"deadline", fmt.Errorf("acquire: %w", context.DeadlineExceeded), vocab.ErrTimeout},
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
		other := vocab.ErrTimeout
		if c.want == vocab.ErrTimeout {
			other = vocab.ErrUnavailable
		}
		if !errors.Is(got, c.want) || errors.Is(got, other) || !errors.Is(got, c.err) {
			t.Errorf("%s: want %v wrapping the cause, got %v", c.name, c.want, got)
		}
		if classify(got) != got {
			t.Errorf("%s: classifying twice must change nothing", c.name)
		}
	}
}
