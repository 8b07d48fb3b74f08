package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store/internal/dbq"
)

// The change feed (GET /changes): the loader writes, in the load's
// transaction, one row per effect of the publication on what is served; the
// reader pages through them by an opaque cursor.

// MaxChangeLimit bounds one page of the change feed.
const MaxChangeLimit = 1000

// insertChange records one change. Its detail (jsonb) is the api.Change
// exactly as served; the columns are the fields a poller pages and filters
// by, and they win over the detail when a row is read.
func insertChange(ctx context.Context, q *dbq.Queries, h publication.Header, ref rundir.PackageRef, kind string, c api.Change) error {
	c.Kind, c.Registry, c.Name, c.Version = kind, ref.Registry, ref.Name, ref.Version
	c.PublicationID, c.PublishedAt = h.ID, h.PublishedAt.UTC()
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := q.ChangeInsert(ctx, dbq.ChangeInsertParams{
		PublicationID: h.ID, PublishedAt: ts(h.PublishedAt), Registry: ref.Registry,
		Name: ref.Name, Version: ref.Version, Kind: kind, Detail: b,
	}); err != nil {
		return fmt.Errorf("change %s: %w", kind, err)
	}
	return nil
}

func eqPtr(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// servedBefore returns what was served for the package version before this
// load, and whether this publication will replace it (it is newer, by the
// rule CurrentVersionUpsert applies). ok is false when nothing was served.
func servedBefore(ctx context.Context, q *dbq.Queries, h publication.Header, pk publication.Package) (prev dbq.CurrentVersionStateRow, ok, replaces bool, err error) {
	prev, err = q.CurrentVersionState(ctx, dbq.CurrentVersionStateParams{Registry: pk.Package.Registry, Name: pk.Package.Name, Version: pk.Package.Version})
	if errors.Is(err, pgx.ErrNoRows) {
		return prev, false, true, nil
	}
	if err != nil {
		return prev, false, false, fmt.Errorf("served state: %w", err)
	}
	older := prev.PublishedAt.Time.Before(h.PublishedAt) || (prev.PublishedAt.Time.Equal(h.PublishedAt) && prev.PublicationID < h.ID)
	return prev, true, older, nil
}

// recordChanges writes the changes the package version's load makes to
// what is served. It is called before current_versions is updated. A new
// version's manifest is compared with that of the package's previous
// served version (the highest below it), as version_diffs are.
func recordChanges(ctx context.Context, q *dbq.Queries, h publication.Header, pk publication.Package) error {
	prev, served, replaces, err := servedBefore(ctx, q, h, pk)
	if err != nil || !replaces {
		return err
	}
	var prevVersion string
	var prevVersionManifest *string
	if !served {
		cur, err := q.CurrentVersionListForPackage(ctx, dbq.CurrentVersionListForPackageParams{Registry: pk.Package.Registry, Name: pk.Package.Name})
		if err != nil {
			return fmt.Errorf("versions of %s: %w", pk.Package.Name, err)
		}
		for _, c := range cur {
			if compareVersions(c.Version, pk.Package.Version) < 0 && (prevVersion == "" || compareVersions(c.Version, prevVersion) > 0) {
				prevVersion, prevVersionManifest = c.Version, c.ManifestHash
			}
		}
	}
	grade, manifest := strPtr(pk.Grade), strPtr(pk.ManifestHash)
	if !served {
		if err := insertChange(ctx, q, h, pk.Package, api.ChangeVersionPublished, api.Change{Verdict: pk.Verdict, Grade: grade, ManifestHash: manifest}); err != nil {
			return err
		}
		if prevVersion != "" && !eqPtr(prevVersionManifest, manifest) {
			return insertChange(ctx, q, h, pk.Package, api.ChangeManifestChanged, api.Change{FromVersion: prevVersion, From: prevVersionManifest, To: manifest})
		}
		return nil
	}
	if prev.Verdict != pk.Verdict {
		if err := insertChange(ctx, q, h, pk.Package, api.ChangeVerdictChanged, api.Change{From: &prev.Verdict, To: &pk.Verdict}); err != nil {
			return err
		}
	}
	if !eqPtr(prev.Grade, grade) {
		if err := insertChange(ctx, q, h, pk.Package, api.ChangeGradeChanged, api.Change{From: prev.Grade, To: grade}); err != nil {
			return err
		}
	}
	if !eqPtr(prev.ManifestHash, manifest) {
		return insertChange(ctx, q, h, pk.Package, api.ChangeManifestChanged, api.Change{From: prev.ManifestHash, To: manifest})
	}
	return nil
}

// recordAppealChange writes appeal_resolved for an appeal this publication
// records resolved and no earlier-loaded publication did.
func recordAppealChange(ctx context.Context, q *dbq.Queries, h publication.Header, f publication.Finding, a publication.AppealStatus) error {
	if a.Status == "open" {
		return nil
	}
	earlier, err := q.AppealResolvedEarlier(ctx, dbq.AppealResolvedEarlierParams{AppealID: a.ID, PublicationID: h.ID})
	if err != nil || earlier {
		return err
	}
	return insertChange(ctx, q, h, f.Package, api.ChangeAppealResolved, api.Change{FindingID: f.ID, AppealID: a.ID, AppealStatus: a.Status})
}

// cursorPrefix versions the cursor's encoding.
const cursorPrefix = "c1."

func changeCursor(seq int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(seq, 10)))
}

func parseChangeCursor(c string) (int64, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return 0, ErrBadCursor
	}
	seq, err := strconv.ParseInt(strings.TrimPrefix(string(b), cursorPrefix), 10, 64)
	if err != nil || seq < 0 {
		return 0, ErrBadCursor
	}
	return seq, nil
}

// Changes returns the changes after cursor (from the first when empty), at
// most limit (50 when 0). The answer's NextCursor is where to poll next.
func (s *Store) Changes(ctx context.Context, cursor string, limit int) (*api.ChangeList, error) {
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, MaxChangeLimit)
	var after int64
	if cursor != "" {
		var err error
		if after, err = parseChangeCursor(cursor); err != nil {
			return nil, err
		}
	}
	rows, err := s.q.ChangeList(ctx, dbq.ChangeListParams{After: after, Lim: int32(limit + 1)})
	if err != nil {
		return nil, fmt.Errorf("list changes: %w", err)
	}
	out := &api.ChangeList{Items: make([]api.Change, 0, min(len(rows), limit))}
	last := after
	for i, r := range rows {
		if i == limit {
			out.More = true
			break
		}
		var c api.Change
		if err := json.Unmarshal(r.Detail, &c); err != nil {
			return nil, fmt.Errorf("change %d: %w", r.Seq, err)
		}
		c.Kind, c.Registry, c.Name, c.Version = r.Kind, r.Registry, r.Name, r.Version
		c.PublicationID, c.PublishedAt = r.PublicationID, t(r.PublishedAt)
		out.Items = append(out.Items, c)
		last = r.Seq
	}
	if cursor == "" && len(out.Items) == 0 {
		// Nothing yet: a cursor that starts at the beginning.
		last = 0
	}
	out.NextCursor = changeCursor(last)
	return out, nil
}
