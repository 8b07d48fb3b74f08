package evidence

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// StaleTempAge is how old a temporary file must be before RemoveStaleTemps
// considers it. A writer of this build holds a lock that already protects
// its file; the age also protects a writer that holds none (a build from
// before the lock, sharing the store) and the instant between a file's
// creation and its lock. An hour is far beyond any single write: a write's
// file changes as its bytes arrive, and every download is bounded well
// below that.
const StaleTempAge = time.Hour

// RemoveStaleTemps removes the temporary files (".tmp-*" under blobs/ and
// proposals/) that interrupted writes left behind: those last modified at
// least minAge ago whose lock no live writer holds. A file still being
// written, by this process or another sharing the store, is left alone, and
// so is anything not named as this package names its temporary files. It
// returns how many it removed. Callers run it when a run starts (the
// pipeline does), not on every Open: it lists whole directories.
func (s *Store) RemoveStaleTemps(ctx context.Context, minAge time.Duration, now time.Time) (int, error) {
	removed := 0
	for _, sub := range []string{blobsDir, proposalsDir} {
		n, err := removeStaleIn(ctx, filepath.Join(s.root, sub), minAge, now)
		removed += n
		if err != nil {
			return removed, fmt.Errorf("evidence: remove stale temporary files: %w", err)
		}
	}
	return removed, nil
}

// removeStaleIn reads dir in batches, so a store of a million blobs is never
// held in memory as one listing.
func removeStaleIn(ctx context.Context, dir string, minAge time.Duration, now time.Time) (int, error) {
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer d.Close()
	removed := 0
	for {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		ents, err := d.ReadDir(1024)
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), tempPrefix) || !e.Type().IsRegular() {
				continue
			}
			ok, rerr := RemoveStale(filepath.Join(dir, e.Name()), minAge, now, os.Remove)
			if rerr != nil {
				return removed, rerr
			}
			if ok {
				removed++
			}
		}
		if errors.Is(err, io.EOF) {
			return removed, nil
		}
		if err != nil {
			return removed, err
		}
	}
}

// RemoveStale removes p with remove (os.Remove for a file, os.RemoveAll for
// a directory) when it is at least minAge old at now and its flock can be
// taken (no live writer holds it), and is still the entry that was locked.
// It is the one rule for what a killed writer left behind, used here for
// temporary blobs and by package publish for temporary publication
// directories.
func RemoveStale(p string, minAge time.Duration, now time.Time, remove func(string) error) (bool, error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // renamed into place or removed meanwhile
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	if now.Sub(fi.ModTime()) < minAge {
		return false, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return false, nil // a live writer holds it
		}
		return false, fmt.Errorf("lock %s: %w", p, err)
	}
	// The writer may have renamed the file into place between the open and
	// the lock; then the temporary name is gone, or names another file.
	cur, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !os.SameFile(fi, cur) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, nil
}
