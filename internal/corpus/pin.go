package corpus

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Candidate is one line of candidates.tsv: a package, the exact version the
// selection names, its tier and its monthly downloads in the listing it was
// drawn from ("-" when the version was chosen for another reason).
type Candidate struct {
	Name            string
	Version         string
	Tier            string
	DownloadsAMonth int64
}

// ParseCandidates reads candidates.tsv: tab-separated name, version, tier,
// downloads; lines starting with "#" and blank lines are skipped.
func ParseCandidates(r io.Reader) ([]Candidate, error) {
	var out []Candidate
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Split(s, "\t")
		if len(f) != 4 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("corpus.ParseCandidates line %d: %w: want name, version, tier, downloads", line, ErrInvalidList)
		}
		switch f[2] {
		case TierOfficial, TierOfficialOlder, TierPopular, TierLongTail:
		default:
			return nil, fmt.Errorf("corpus.ParseCandidates line %d: %w: unknown tier %q", line, ErrInvalidList, f[2])
		}
		c := Candidate{Name: f[0], Version: f[1], Tier: f[2]}
		if f[3] != "-" {
			d, err := strconv.ParseInt(f[3], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("corpus.ParseCandidates line %d: downloads %q: %w", line, f[3], err)
			}
			c.DownloadsAMonth = d
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("corpus.ParseCandidates: %w", err)
	}
	return out, nil
}

// SelectedBy is the sentence packages.json records for each tier.
func SelectedBy(tier string) string {
	switch tier {
	case TierOfficial:
		return "official: every @modelcontextprotocol/server-* in the package listing"
	case TierOfficialOlder:
		return "official_older: an earlier release of an official server, for the older SDK idioms"
	case TierPopular:
		return "popular: name or summary says MCP server, >= 10000 downloads a month, has a bin"
	case TierLongTail:
		return "long_tail: name or summary says MCP server, 300-10000 downloads a month, has a bin"
	}
	return tier
}

// ErrDigestMismatch reports a tarball whose SHA-512 differs from the
// integrity the registry's manifest records.
var ErrDigestMismatch = errors.New("tarball digest mismatch")

// PinOne resolves one candidate: its manifest, its tarball's digests (the
// tarball is packed into scratch and removed), and whether it can be a
// stdio server at all (a bin entry).
func PinOne(ctx context.Context, npm NPM, c Candidate, scratch string) (Package, *Excluded, error) {
	m, err := npm.View(ctx, c.Name, c.Version)
	if errors.Is(err, ErrNotFound) {
		return Package{}, &Excluded{Name: c.Name, Version: c.Version, Tier: c.Tier, Reason: "version not found on the registry"}, nil
	}
	if err != nil {
		return Package{}, nil, err
	}
	if len(m.Bin) == 0 {
		return Package{}, &Excluded{Name: c.Name, Version: c.Version, Tier: c.Tier, Reason: "no bin entry: cannot be started on stdio as published"}, nil
	}
	dir, err := os.MkdirTemp(scratch, "pin-")
	if err != nil {
		return Package{}, nil, fmt.Errorf("corpus.PinOne %s@%s: %w", c.Name, c.Version, err)
	}
	defer os.RemoveAll(dir)
	path, err := npm.Pack(ctx, c.Name, c.Version, dir)
	if err != nil {
		return Package{}, nil, err
	}
	d, err := DigestFile(path)
	if err != nil {
		return Package{}, nil, err
	}
	if m.Dist.Integrity != "" && d.Integrity != m.Dist.Integrity {
		return Package{}, nil, fmt.Errorf("corpus.PinOne %s@%s: %w: manifest %s, tarball %s", c.Name, c.Version, ErrDigestMismatch, m.Dist.Integrity, d.Integrity)
	}
	return Package{
		Name:            c.Name,
		Version:         c.Version,
		Tier:            c.Tier,
		SelectedBy:      SelectedBy(c.Tier),
		DownloadsAMonth: c.DownloadsAMonth,
		TarballSHA256:   d.SHA256,
		TarballSize:     d.Size,
		Integrity:       d.Integrity,
		Bin:             m.BinNames(),
	}, nil, nil
}

// Pin resolves every candidate, `parallel` at a time, and returns the list in
// candidate order. A candidate that fails for a reason other than "not found"
// or "no bin" is excluded with its error recorded, so one registry hiccup
// does not lose the whole list; log receives one line per candidate.
func Pin(ctx context.Context, npm NPM, cands []Candidate, scratch string, parallel int, log func(string)) *List {
	if parallel < 1 {
		parallel = 1
	}
	type res struct {
		pkg *Package
		exc *Excluded
	}
	results := make([]res, len(cands))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, exc, err := PinOne(ctx, npm, c, scratch)
			switch {
			case err != nil:
				exc = &Excluded{Name: c.Name, Version: c.Version, Tier: c.Tier, Reason: "pin failed: " + RedactHosts(tailString(err.Error(), 300))}
				results[i] = res{exc: exc}
				log(fmt.Sprintf("%s@%s: excluded: %s", c.Name, c.Version, exc.Reason))
			case exc != nil:
				results[i] = res{exc: exc}
				log(fmt.Sprintf("%s@%s: excluded: %s", c.Name, c.Version, exc.Reason))
			default:
				results[i] = res{pkg: &p}
				log(fmt.Sprintf("%s@%s: %s", c.Name, c.Version, p.TarballSHA256))
			}
		}()
	}
	wg.Wait()
	l := &List{Packages: []Package{}, Excluded: []Excluded{}}
	seen := map[string]bool{}
	for _, r := range results {
		switch {
		case r.pkg != nil && !seen[r.pkg.Key()]:
			seen[r.pkg.Key()] = true
			l.Packages = append(l.Packages, *r.pkg)
		case r.exc != nil:
			l.Excluded = append(l.Excluded, *r.exc)
		}
	}
	sort.SliceStable(l.Excluded, func(i, j int) bool { return l.Excluded[i].Name < l.Excluded[j].Name })
	return l
}
