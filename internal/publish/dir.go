// Package publish makes the published form of a decided run
// (docs/publish-contract.md): writing and reading a publication directory,
// and — in the files that implement `attestari publish` — the disclosure
// clock, appeals applied to the published status, projections of upstream
// records and of the run's diff (ProjectDiff: only published findings by
// reference, the rest as counts), the personal-data scan and the signing of
// attestations. The format's Go types are the leaf internal/publication,
// kept here under their names (format.go).
//
// A publication is what the public may see, and nothing else: the loader puts
// exactly a publication into the database. This package never reads the
// network or a model, and never edits a run's decisions. What a killed
// publish leaves is picked up by the next one: a temporary directory no live
// writer holds is removed (RemoveStaleTemps), and a publication written and
// never loaded is loaded rather than superseded (Options.IsLoaded).
package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// writeStep, when set (by tests), is called after each file Write puts in
// the temporary directory; an error from it aborts Write there, as a crash
// would, so a test can check nothing partial is left at the publication's
// address.
var writeStep func(name string) error

func step(name string) error {
	if writeStep == nil {
		return nil
	}
	return writeStep(name)
}

// tempPrefix starts the name of Write's temporary directories: hidden, and
// never a valid id.
const tempPrefix = ".tmp-"

// lockDir opens dir and takes an exclusive flock on it; closing the file
// releases it, as the kernel does when the process dies.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
}

// StaleTempAge is how old a temporary publication directory must be before
// RemoveStaleTemps considers it; its lock already protects a live writer of
// this build, and the age also protects one that takes no lock.
const StaleTempAge = time.Hour

// RemoveStaleTemps removes the temporary directories (".tmp-*") that a
// Write killed midway left under home: those last modified at least minAge
// before now whose lock no live writer holds. It returns how many it
// removed. Publish calls it before writing.
func RemoveStaleTemps(ctx context.Context, home string, minAge time.Duration, now time.Time) (int, error) {
	ents, err := os.ReadDir(home)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("publish: temporary directories under %s: %w", home, err)
	}
	n := 0
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("publish: %w", err)
		}
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		ok, err := evidence.RemoveStale(filepath.Join(home, e.Name()), minAge, now, os.RemoveAll)
		if err != nil {
			return n, fmt.Errorf("publish: %w", err)
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// ErrIncomplete reports a publication directory whose files do not match its header.
var ErrIncomplete = errors.New("publication is incomplete or altered")

// Write writes p into dir, which must not exist yet: a publication is never
// overwritten. Files are written into a temporary sibling and renamed into
// place at the end, so dir either appears whole or not at all.
func Write(dir string, p *Publication) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("publication %s exists already: publications are never overwritten", dir)
	}
	if !ValidID(p.Header.ID) {
		return fmt.Errorf("publication id %q is not valid", p.Header.ID)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, tempPrefix+filepath.Base(dir)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// Locked until Write returns (after the rename), so RemoveStaleTemps
	// never removes the directory of a live writer.
	lock, err := lockDir(tmp)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := os.Mkdir(filepath.Join(tmp, EvidenceDir), 0o755); err != nil {
		return err
	}
	sort.Slice(p.Evidence, func(i, j int) bool { return p.Evidence[i].SHA256 < p.Evidence[j].SHA256 })
	for _, e := range p.Evidence {
		b, ok := p.Blobs[e.SHA256]
		if !ok {
			return fmt.Errorf("evidence %s has no bytes", e.SHA256)
		}
		if vocab.SHA256Hex(b) != e.SHA256 {
			return fmt.Errorf("evidence %s: bytes hash to %s", e.SHA256, vocab.SHA256Hex(b))
		}
		if err := rundir.WriteFileAtomic(filepath.Join(tmp, EvidenceDir, e.SHA256), b); err != nil {
			return err
		}
		if err := step(EvidenceDir + "/" + e.SHA256); err != nil {
			return err
		}
	}
	files := []struct {
		name string
		v    any
	}{{PackagesFile, p.Packages}, {FindingsFile, p.Findings}, {EvidenceFile, p.Evidence}}
	var sums []rundir.InputFile
	for _, f := range files {
		b, err := rundir.Marshal(f.v)
		if err != nil {
			return err
		}
		if err := rundir.WriteFileAtomic(filepath.Join(tmp, f.name), b); err != nil {
			return err
		}
		if err := step(f.name); err != nil {
			return err
		}
		sums = append(sums, rundir.InputFile{Path: f.name, SHA256: vocab.SHA256Hex(b)})
	}
	for _, raw := range []struct {
		name string
		b    json.RawMessage
	}{{GateMapFile, p.GateMap}, {DiffFile, p.Diff}, {AttestationsFile, p.Attestations}} {
		if raw.b == nil {
			continue
		}
		if err := rundir.WriteFileAtomic(filepath.Join(tmp, raw.name), raw.b); err != nil {
			return err
		}
		if err := step(raw.name); err != nil {
			return err
		}
		sums = append(sums, rundir.InputFile{Path: raw.name, SHA256: vocab.SHA256Hex(raw.b)})
	}
	p.Header.Schema = Schema
	p.Header.Files = sums
	if err := rundir.WriteJSON(tmp, HeaderFile, p.Header); err != nil {
		return err
	}
	if err := step(HeaderFile); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("move publication into place: %w", err)
	}
	// The rename is durable only once the parent directory is synced.
	if d, err := os.Open(parent); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Read reads a publication directory and checks it is whole: every file the
// header lists hashes as listed, and every evidence blob hashes to its name.
func Read(dir string) (*Publication, error) {
	p := &Publication{Blobs: map[string][]byte{}}
	if _, err := rundir.ReadJSON(dir, HeaderFile, &p.Header); err != nil {
		return nil, err
	}
	if p.Header.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %q, this build reads %q", dir, p.Header.Schema, Schema)
	}
	// Every demo publication was made with an injected clock, including
	// those written before the header said so.
	if p.Header.Demo {
		p.Header.DisclosurePeriodOverridden = true
	}
	listed := map[string]string{}
	for _, f := range p.Header.Files {
		listed[f.Path] = f.SHA256
	}
	read := func(name string) ([]byte, error) {
		want, ok := listed[name]
		if !ok {
			return nil, nil
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrIncomplete, name, err)
		}
		if vocab.SHA256Hex(b) != want {
			return nil, fmt.Errorf("%w: %s does not hash to %s", ErrIncomplete, name, want)
		}
		return b, nil
	}
	for _, f := range []struct {
		name string
		v    any
	}{{PackagesFile, &p.Packages}, {FindingsFile, &p.Findings}, {EvidenceFile, &p.Evidence}} {
		b, err := read(f.name)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return nil, fmt.Errorf("%w: %s is not listed", ErrIncomplete, f.name)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f.v); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	var err error
	if p.GateMap, err = read(GateMapFile); err != nil {
		return nil, err
	}
	if p.Diff, err = read(DiffFile); err != nil {
		return nil, err
	}
	if p.Attestations, err = read(AttestationsFile); err != nil {
		return nil, err
	}
	if _, err := p.AttestationsByPackage(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrIncomplete, err)
	}
	for _, e := range p.Evidence {
		b, err := os.ReadFile(filepath.Join(dir, EvidenceDir, e.SHA256))
		if err != nil {
			return nil, fmt.Errorf("%w: evidence %s: %v", ErrIncomplete, e.SHA256, err)
		}
		if vocab.SHA256Hex(b) != e.SHA256 {
			return nil, fmt.Errorf("%w: evidence %s is corrupt", ErrIncomplete, e.SHA256)
		}
		p.Blobs[e.SHA256] = b
	}
	return p, nil
}
