package store

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/attestari/attestari/internal/vocab"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A read returns vocab.ErrUnavailable (wrapping the cause) when the database
// could not be reached or the connection was lost: the server is down,
// restarting, refusing connections, or the socket broke. It returns
// vocab.ErrTimeout (wrapping the cause) when the database did not answer in
// time: the server cancelled the statement for its statement_timeout, or the
// caller's deadline passed while the read waited for a connection or an
// answer (a frozen server answers nothing, so only the deadline ends the
// wait). The API answers each as internal/vocab's failure table says (503
// and 504, with Retry-After).

// faultError keeps the cause (for the log) behind one of the two kinds
// (for the client), so errors.Is classifies it and Error explains it.
type faultError struct {
	kind  error
	cause error
}

func (e *faultError) Error() string        { return e.kind.Error() + ": " + e.cause.Error() }
func (e *faultError) Is(target error) bool { return target == e.kind }
func (e *faultError) Unwrap() error        { return e.cause }

// classify turns a connection failure into ErrUnavailable and a timeout
// into ErrTimeout; every other error (no rows, a constraint, a bug) is
// returned as it is. A caller that gave up (context.Canceled) is not a
// fault of the database and stays as it is.
func classify(err error) error {
	switch {
	case err == nil, errors.Is(err, vocab.ErrUnavailable), errors.Is(err, vocab.ErrTimeout), errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, context.DeadlineExceeded):
		return &faultError{vocab.ErrTimeout, err}
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		// Whatever refused the connection (no server, 57P03 while it starts,
		// too many clients, authentication), nothing this request can change.
		return &faultError{vocab.ErrUnavailable, err}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "57014":
			// query_canceled. pgx sends no cancel requests (its context
			// handler sets socket deadlines instead), so this is the
			// server's statement_timeout.
			return &faultError{vocab.ErrTimeout, err}
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
			pe.Code == "53300",               // too_many_connections
			strings.HasPrefix(pe.Code, "08"): // connection_exception
			return &faultError{vocab.ErrUnavailable, err}
		}
		return err
	}
	if lostConnection(err) {
		return &faultError{vocab.ErrUnavailable, err}
	}
	return err
}

// lostConnection reports a socket-level failure of a connection that was
// open: closed by the peer, reset, timed out at the socket, or already
// closed by pgx after an earlier failure.
func lostConnection(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED)
}

// reads is the pool as the read queries see it (Store.q): every error is
// classified, and a read that failed because its connection was dead is
// tried once more on a fresh one.
//
// Why a second try is safe and needed. These are reads only: the loader and
// the migrations run in transactions on the pool itself (inTx), never
// through here, so repeating one changes nothing. A pooled connection
// outlives the server session it was opened on: after a restart it still
// looks open until it is used, and pgxpool pings only connections idle for
// more than a second (poolConfig), so a read may be the first to learn the
// session is gone. The server ended such sessions before the read arrived
// (57P01 was sent at shutdown), so the read never ran. When that happens
// every other connection opened before is as dead, so the pool is reset
// (idle connections closed now, busy ones when they return) and the second
// try gets a new connection, not the next stale one. Only one retry, inside
// the caller's deadline: an outage is answered as one, quickly.
type reads struct {
	pool *pgxpool.Pool
	// route, when set, picks a read replica for each read (replica.go);
	// the read and its one retry then run on the pool it picked.
	route *router
	// rep is the replica pool is (nil: the primary); a read that cannot
	// reach it marks it unreachable and is tried again on the primary
	// (replica_health.go).
	rep *replica
}

// retry reports whether a failed read may be tried again, resetting the pool
// when the failure says its connections predate a restart. A read that
// could not reach a replica is tried again on the primary instead.
func (r *reads) retry(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || !errors.Is(classify(err), vocab.ErrUnavailable) {
		return false
	}
	if r.rep != nil {
		r.route.markDown(r.rep, err)
		r.pool, r.rep = r.route.primary, nil
		return true
	}
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		r.pool.Reset()
	}
	return true
}

func (r reads) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r = r.routed()
	tag, err := r.pool.Exec(ctx, sql, args...)
	if r.retry(ctx, err) {
		tag, err = r.pool.Exec(ctx, sql, args...)
	}
	return tag, classify(err)
}

func (r reads) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r = r.routed()
	rows, err := r.pool.Query(ctx, sql, args...)
	retried := false
	if r.retry(ctx, err) {
		retried = true
		rows, err = r.pool.Query(ctx, sql, args...)
	}
	if err != nil {
		return rows, classify(err)
	}
	return &readRows{Rows: rows, r: r, ctx: ctx, sql: sql, args: args, retried: retried}, nil
}

func (r reads) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r = r.routed()
	return &readRow{r: r, ctx: ctx, sql: sql, args: args, row: r.pool.QueryRow(ctx, sql, args...)}
}

// readRows classifies the errors of a result, and tries the query once more
// when it failed before its first row: pgx reports a dead connection on
// the first Next for a statement it had prepared, not from Query.
type readRows struct {
	pgx.Rows
	r       reads
	ctx     context.Context
	sql     string
	args    []any
	started bool // a row was returned: nothing may be repeated from here
	retried bool
}

func (rr *readRows) Next() bool {
	if rr.Rows.Next() {
		rr.started = true
		return true
	}
	if rr.started || rr.retried || !rr.r.retry(rr.ctx, rr.Rows.Err()) {
		return false
	}
	rr.retried = true
	rr.Rows.Close()
	// On failure pgxpool returns rows whose Err is the failure, so Next
	// and Err below report it.
	rr.Rows, _ = rr.r.pool.Query(rr.ctx, rr.sql, rr.args...)
	return rr.Next()
}

func (rr *readRows) Err() error { return classify(rr.Rows.Err()) }

// readRow is QueryRow's counterpart: the error comes at Scan, which fails
// before writing into dest, so the second try may scan into the same dest.
type readRow struct {
	r    reads
	ctx  context.Context
	sql  string
	args []any
	row  pgx.Row
}

func (rr *readRow) Scan(dest ...any) error {
	err := rr.row.Scan(dest...)
	if rr.r.retry(rr.ctx, err) {
		err = rr.r.pool.QueryRow(rr.ctx, rr.sql, rr.args...).Scan(dest...)
	}
	return classify(err)
}
