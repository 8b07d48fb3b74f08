package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/attestari/attestari/internal/pgcluster"
	"github.com/attestari/attestari/internal/store"
)

func dbCommand() *command {
	return &command{
		name:    "db",
		args:    "migrate | url",
		summary: "Manage the database: apply migrations, or print the connection string in use.",
		detail: `
migrate  applies every migration in db/migrations not yet applied, each in its own
         transaction: a migration that fails leaves nothing of itself behind; then River's
         own migrations (the job queue of 'run --queue' and 'worker'), one a transaction.
url      starts (or reuses) the database the way 'make run' does and prints its URL.

The database is DATABASE_URL when set; otherwise a private PostgreSQL cluster under
$ATTESTARI_HOME/pg started from local binaries (initdb/pg_ctl), which keeps running
only while the command runs.`,
		example: "attestari db migrate\nDATABASE_URL=postgres://attestari@db.internal:5432/attestari attestari db migrate",
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 || (fs.Arg(0) != "migrate" && fs.Arg(0) != "url") {
				return usageError{"expected one action: migrate or url"}
			}
			cl, err := startDatabase(ctx, e)
			if err != nil {
				return err
			}
			defer cl.Stop(context.WithoutCancel(ctx))
			if fs.Arg(0) == "url" {
				fmt.Fprintln(e.stdout, cl.URL)
				return nil
			}
			s, err := store.Open(ctx, cl.URL, store.Options{})
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := s.Migrate(ctx)
			if err != nil {
				return err
			}
			if len(res.Applied) == 0 {
				fmt.Fprintf(e.stdout, "database is current (migration %04d)\n", res.Current)
			}
			for _, m := range res.Applied {
				fmt.Fprintf(e.stdout, "applied %s\n", m)
			}
			if len(res.RiverApplied) == 0 {
				fmt.Fprintf(e.stdout, "job queue schema is current (River migration %03d)\n", res.RiverCurrent)
			}
			for _, m := range res.RiverApplied {
				fmt.Fprintf(e.stdout, "applied %s\n", m)
			}
			return nil
		},
	}
}

// startDatabase finds or starts PostgreSQL the one way the project does.
func startDatabase(ctx context.Context, e *env) (*pgcluster.Cluster, error) {
	return pgcluster.Start(ctx, pgcluster.Options{
		DataDir: filepath.Join(absHome(e), "pg"),
		Env:     e.getenv,
		Log:     func(f string, a ...any) { e.log.Info(fmt.Sprintf(f, a...)) },
	})
}
