package pgcluster

import (
	"context"
	"fmt"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"
)

// startContainer runs PostgreSQL in a container when a Docker engine answers.
func startContainer(ctx context.Context, opts Options) (c *Cluster, err error) {
	defer func() {
		// testcontainers panics in some environments without an engine; a panic
		// here is "no engine", not a crash of the caller.
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("testcontainers: %v", r)
		}
	}()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return nil, err
	}
	defer provider.Close()
	if err := provider.Health(pctx); err != nil {
		return nil, err
	}
	opts.Log("pgcluster: starting a PostgreSQL container")
	ctr, err := tcpostgres.Run(ctx, "postgres:15-alpine",
		tcpostgres.WithDatabase(opts.Database),
		tcpostgres.WithUsername("postgres"),
		tcpostgres.WithPassword("postgres"),
		testcontainers.WithWaitStrategy(wait.ForLog("database system is ready to accept connections").WithOccurrence(2).WithStartupTimeout(60*time.Second)),
	)
	if err != nil {
		return nil, err
	}
	dsn, err := ctr.ConnectionString(ctx, "sslmode=disable")
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return nil, err
	}
	return &Cluster{URL: dsn, How: "container", stop: func(ctx context.Context) error {
		return testcontainers.TerminateContainer(ctr)
	}}, nil
}
