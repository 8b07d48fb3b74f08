package surface

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestParseAfterTimeouts: parses stopped at the time budget, interleaved
// with ordinary ones, never leave a parser that aborts the next parse (a
// timed-out parser is closed, not pooled), and every ordinary parse still
// reads its tree.
func TestParseAfterTimeouts(t *testing.T) {
	big := []byte(strings.Repeat("const a = [1, [2, [3, {b: (c) => c + 1}]]];\n", 20000))
	small := []byte("const x = 1;\n")
	timeouts := 0
	for i := 0; i < 100; i++ {
		if _, err := parseFile(LangJS, big, time.Microsecond, 0); errors.Is(err, ErrParseTimeout) {
			timeouts++
		}
		p, err := parseFile(LangJS, small, time.Second, 0)
		if err != nil || len(p.nodes) == 0 {
			t.Fatalf("ordinary parse after a stopped one: %v", err)
		}
	}
	if timeouts == 0 {
		t.Fatal("no parse was stopped at the time budget: the test did not exercise the path")
	}
}
