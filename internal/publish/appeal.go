package publish

import (
	"errors"
	"fmt"
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
