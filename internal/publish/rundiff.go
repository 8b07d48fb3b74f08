package publish

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
)

// ParseRunDiff reads a run's diff.json strictly: anything that is not a
// run diff is not published.
func ParseRunDiff(b []byte) (policy.RunDiff, error) {
	var d policy.RunDiff
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return policy.RunDiff{}, fmt.Errorf("%s: %w", DiffFileName, err)
	}
	if dec.More() {
		return policy.RunDiff{}, fmt.Errorf("%s: more than one JSON value", DiffFileName)
	}
	return d, nil
}

// publishedSide reads, from the publication at dir, what it publishes: its
// packages and findings, each checked against the hash its header lists.
func publishedSide(dir string, h Header) (DiffSide, error) {
	listed := map[string]string{}
	for _, f := range h.Files {
		listed[f.Path] = f.SHA256
	}
	var pkgs []Package
	var findings []Finding
	for _, f := range []struct {
		name string
		v    any
	}{{PackagesFile, &pkgs}, {FindingsFile, &findings}} {
		sum, err := rundir.ReadJSON(dir, f.name, f.v)
		if err != nil {
			return DiffSide{}, err
		}
		if want, ok := listed[f.name]; !ok || sum != want {
			return DiffSide{}, fmt.Errorf("%w: %s", ErrIncomplete, filepath.Join(dir, f.name))
		}
	}
	return SideOf(h.ID, pkgs, findings), nil
}
