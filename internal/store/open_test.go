package store

import (
	"context"
	"strings"
	"testing"
)

// TestOpenBadURLSaysTheForm: a database URL that does not parse is reported
// with the form expected, and without its password.
func TestOpenBadURLSaysTheForm(t *testing.T) {
	_, err := Open(context.Background(), "postgres://attestari:s3cret@db:notaport/attestari", Options{})
	if err == nil {
		t.Fatal("a URL with a bad port opened")
	}
	if !strings.Contains(err.Error(), "expected postgres://user:password@host:5432/dbname") || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("error %q: want the expected form and no password", err)
	}
}
