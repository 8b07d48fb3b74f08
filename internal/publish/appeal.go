package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/attestari/attestari/internal/appeals"
)

// ErrUnknownFinding: an appeal names a finding the run's decisions do not hold.
var ErrUnknownFinding = errors.New("no such finding in the run's decisions")

// AppealsPath is the appeal log of a run directory.
func AppealsPath(runDir string) string { return filepath.Join(runDir, appeals.FileName) }

// FileAppeal files an appeal against a finding of the decided run in runDir
// (`attestari appeal file`), after checking the finding exists: an appeal
// against a mistyped id would otherwise sit in the log applying to nothing.
// It returns the appeal's id. decisions.json is only read, never edited.
func FileAppeal(runDir, findingID, by, grounds string, now time.Time) (string, error) {
	d, _, err := ReadDecisions(runDir)
	if err != nil {
		return "", err
	}
	found := false
	for _, f := range d.Findings {
		if f.ID == findingID {
			found = true
			break
		}
	}
	if !found {
		return "", fmt.Errorf("publish: appeal against %q: %w", findingID, ErrUnknownFinding)
	}
	return appeals.File(AppealsPath(runDir), findingID, by, grounds, now)
}

// ResolveAppeal resolves an appeal of the run in runDir (`attestari appeal
// resolve`) as upheld, dismissed or withdrawn.
func ResolveAppeal(runDir, appealID, outcome, note string, now time.Time) error {
	return appeals.Resolve(AppealsPath(runDir), appealID, outcome, note, now)
}

// ErrUnknownAppeal: no run's appeal log holds the appeal.
var ErrUnknownAppeal = errors.New("no run's appeal log holds this appeal")

// runDirs lists the directories under runsRoot ($ATTESTARI_HOME/runs).
func runDirs(runsRoot string) ([]string, error) {
	ents, err := os.ReadDir(runsRoot)
	if err != nil {
		return nil, fmt.Errorf("publish: runs under %s: %w", runsRoot, err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && e.Name()[0] != '.' {
			out = append(out, filepath.Join(runsRoot, e.Name()))
		}
	}
	return out, nil
}

// FindRunForFinding returns the run directory under runsRoot whose
// decisions hold findingID, the most recently decided when several do (a
// weekly pass decides the same finding id again): the run an appeal filed
// today is about. `attestari appeal file` uses it when no run is named.
func FindRunForFinding(runsRoot, findingID string) (string, error) {
	dirs, err := runDirs(runsRoot)
	if err != nil {
		return "", err
	}
	best, bestAt := "", time.Time{}
	for _, dir := range dirs {
		d, _, err := ReadDecisions(dir)
		if errors.Is(err, ErrNotDecided) {
			continue
		}
		if err != nil {
			return "", err
		}
		for _, f := range d.Findings {
			if f.ID == findingID {
				if best == "" || d.Header.DecidedAt.After(bestAt) {
					best, bestAt = dir, d.Header.DecidedAt
				}
				break
			}
		}
	}
	if best == "" {
		return "", fmt.Errorf("publish: finding %q under %s: %w", findingID, runsRoot, ErrUnknownFinding)
	}
	return best, nil
}

// FindRunForAppeal returns the run directory under runsRoot whose appeal
// log holds appealID (appeal ids are unique across logs). A log that does
// not verify is an error, never skipped.
func FindRunForAppeal(runsRoot, appealID string) (string, error) {
	dirs, err := runDirs(runsRoot)
	if err != nil {
		return "", err
	}
	var found []string
	for _, dir := range dirs {
		if _, err := os.Stat(AppealsPath(dir)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		l, err := appeals.Load(AppealsPath(dir))
		if err != nil {
			return "", err
		}
		if l.HasAppeal(appealID) {
			found = append(found, dir)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("publish: appeal %q under %s: %w", appealID, runsRoot, ErrUnknownAppeal)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("publish: appeal %q is in more than one run (%v); name the run", appealID, found)
}
