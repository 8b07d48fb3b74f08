package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// ProbeAll probes pkgs, parallel at a time, writing each truth file into
// truthDir as soon as it is known, so an interrupted pass keeps what it did.
// With skipDone, a package whose truth file already exists is left alone
// (unless retryFailed is set and that file records a failure).
func ProbeAll(ctx context.Context, opt ProbeOptions, pkgs []Package, truthDir string, parallel int, skipDone, retryFailed bool, log func(string)) error {
	if parallel < 1 {
		parallel = 1
	}
	if err := os.MkdirAll(truthDir, 0o755); err != nil {
		return fmt.Errorf("corpus.ProbeAll: %w", err)
	}
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i, p := range pkgs {
		path := filepath.Join(truthDir, TruthFileName(p.Name, p.Version))
		if skipDone {
			if old, err := LoadTruth(path); err == nil && (!retryFailed || old.Started) {
				continue
			}
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t := Probe(ctx, opt, p)
			if ctx.Err() != nil {
				// An interrupted probe says nothing about the server.
				return
			}
			if err := WriteJSON(path, t); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				return
			}
			status := fmt.Sprintf("started tools=%d prompts=%d resources=%d templates=%d", len(t.Tools), len(t.Prompts), len(t.Resources), len(t.Templates))
			if !t.Started {
				status = "not started: " + t.ErrorKind
			}
			log(fmt.Sprintf("[%d/%d] %s: %s (%d ms)", i+1, len(pkgs), p.Key(), status, t.DurationMs))
		}()
	}
	wg.Wait()
	return firstErr
}
