package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ensureDatabase creates database db on the server at rawURL when it does not exist.
// It connects to the maintenance database "postgres" to do so.
func ensureDatabase(ctx context.Context, rawURL, db string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var conn *pgx.Conn
	err := waitFor(ctx, func() error {
		var err error
		conn, err = pgx.Connect(ctx, WithDatabase(rawURL, "postgres"))
		return err
	})
	if err != nil {
		return fmt.Errorf("connect to the new cluster: %w", err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{db}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database
		return nil
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", db, err)
	}
	return nil
}
