package vocab

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestFailureKinds: each kind is found from an error that wraps its
// sentinel, and (apart from a bad cursor, whose 400 other refusals share)
// from its status, so a client's classification agrees with the server's.
func TestFailureKinds(t *testing.T) {
	names := map[string]bool{}
	statuses := map[int]bool{}
	for _, k := range Failures {
		if names[k.Name] || statuses[k.Status] {
			t.Errorf("kind %s repeats a name or a status", k.Name)
		}
		names[k.Name], statuses[k.Status] = true, true
		got, ok := FailureOf(fmt.Errorf("read x: %w", k.Err))
		if !ok || got.Name != k.Name {
			t.Errorf("FailureOf(wrapped %s) = %v, %v", k.Name, got.Name, ok)
		}
		got, ok = FailureForStatus(k.Status)
		if k.Err == ErrBadCursor {
			if ok {
				t.Errorf("FailureForStatus(%d) = %s: a 400 is not only a bad cursor", k.Status, got.Name)
			}
			continue
		}
		if !ok || got.Name != k.Name {
			t.Errorf("FailureForStatus(%d) = %v, %v; want %s", k.Status, got.Name, ok, k.Name)
		}
		if k.Transient != (k.Status >= 500) {
			t.Errorf("kind %s: transient %v with status %d", k.Name, k.Transient, k.Status)
		}
	}
	if k, ok := FailureOf(fmt.Errorf("wait: %w", context.DeadlineExceeded)); !ok || k.Err != ErrTimeout {
		t.Errorf("a passed deadline is %v, %v; want timeout", k.Name, ok)
	}
	for _, err := range []error{nil, errors.New("a constraint"), context.Canceled} {
		if k, ok := FailureOf(err); ok {
			t.Errorf("FailureOf(%v) = %s; want no kind", err, k.Name)
		}
	}
	if k, ok := FailureForStatus(500); ok {
		t.Errorf("FailureForStatus(500) = %s; want no kind", k.Name)
	}
}
