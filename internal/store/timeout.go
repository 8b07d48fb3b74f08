package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store/internal/dbq"
)

// ErrUnavailable is what a read returns, wrapped around the driver's error,
// when PostgreSQL cancelled it at the statement timeout: the database is too
// busy to answer now, which the API tells a client as 503 with Retry-After,
// never as an internal error.
var ErrUnavailable = api.ErrUnavailable

// sqlstateQueryCanceled is PostgreSQL's query_canceled, the error of a
// statement cancelled at statement_timeout (or by a cancel request).
const sqlstateQueryCanceled = "57014"

// timedOut wraps err in ErrUnavailable when it is a cancelled statement.
func timedOut(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == sqlstateQueryCanceled {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// classifying is the readers' connection to the pool: every error a query
// returns, at once or while its rows are read, passes timedOut, so the
// classification is made once here and not in each read.
type classifying struct{ db dbq.DBTX }

func (c classifying) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	t, err := c.db.Exec(ctx, sql, args...)
	return t, timedOut(err)
}

func (c classifying) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := c.db.Query(ctx, sql, args...)
	if err != nil {
		return rows, timedOut(err)
	}
	return classifiedRows{rows}, nil
}

func (c classifying) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return classifiedRow{c.db.QueryRow(ctx, sql, args...)}
}

type classifiedRows struct{ pgx.Rows }

func (r classifiedRows) Err() error { return timedOut(r.Rows.Err()) }

func (r classifiedRows) Scan(dest ...any) error { return timedOut(r.Rows.Scan(dest...)) }

type classifiedRow struct{ row pgx.Row }

func (r classifiedRow) Scan(dest ...any) error { return timedOut(r.row.Scan(dest...)) }
