// Package db holds the schema and the queries: migrations/ is the only DDL in
// the project (numbered, applied in order, each in its own transaction) and
// queries/ is sqlc's input, one file per table. It embeds the migrations so the
// binaries can apply them; it runs nothing itself.
package db

import "embed"

// Migrations holds migrations/NNNN_name.sql, applied in lexical order.
//
//go:embed migrations/*.sql
var Migrations embed.FS
