package httpapi

import (
	"errors"
	"fmt"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// TestEveryFailureKindIsAnswered: each failure kind of internal/vocab's
// table is answered with its status, a fixed detail of its own, and
// Retry-After exactly when it may pass; an error of no kind is passed on
// for the renderer's 500.
func TestEveryFailureKindIsAnswered(t *testing.T) {
	details := map[string]bool{}
	for _, k := range vocab.Failures {
		err := readError(fmt.Errorf("read: %w", k.Err))
		var p *Problem
		if !errors.As(err, &p) {
			t.Fatalf("kind %s: %v is not a problem", k.Name, err)
		}
		if p.Status != k.Status || p.Detail == "" || details[p.Detail] {
			t.Errorf("kind %s: status %d, detail %q", k.Name, p.Status, p.Detail)
		}
		details[p.Detail] = true
		if (p.RetryAfter > 0) != k.Transient {
			t.Errorf("kind %s: Retry-After %d, transient %v", k.Name, p.RetryAfter, k.Transient)
		}
	}
	plain := errors.New("a bug")
	if err := readError(plain); err != plain {
		t.Errorf("an error of no kind became %v", err)
	}
}
