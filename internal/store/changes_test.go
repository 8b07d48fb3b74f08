package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
)

func describeChange(c api.Change) string {
	s := c.Kind + " " + c.Name + "@" + c.Version
	if c.From != nil || c.To != nil {
		f, t := "-", "-"
		if c.From != nil {
			f = *c.From
		}
		if c.To != nil {
			t = *c.To
		}
		if len(f) > 12 {
			f = f[:12]
		}
		if len(t) > 12 {
			t = t[:12]
		}
		s += fmt.Sprintf(" %s→%s", f, t)
	}
	if c.FromVersion != "" {
		s += " from " + c.FromVersion
	}
	if c.AppealID != "" {
		s += " " + c.FindingID + "/" + c.AppealID + " " + c.AppealStatus
	}
	return s
}

// TestChangeFeed: each load records what it changed in what is served, in
// order; a poller's cursor returns only what is new; an older publication
// loaded after a newer one records nothing.
func TestChangeFeed(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	empty, err := s.Changes(ctx, "", 0)
	if err != nil || len(empty.Items) != 0 || empty.NextCursor == "" {
		t.Fatalf("empty feed: %+v %v", empty, err)
	}
	if err := s.LoadPublication(ctx, firstPublication()); err != nil {
		t.Fatal(err)
	}
	first, err := s.Changes(ctx, empty.NextCursor, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range first.Items {
		got = append(got, describeChange(c))
		if c.PublicationID != "pub-1" || !c.PublishedAt.Equal(t0) {
			t.Fatalf("change %+v", c)
		}
	}
	want := "version_published @acme/files@1.0.0|version_published mcp-client-lib@0.1.0|version_published minified-server@2.0.0"
	if strings.Join(got, "|") != want {
		t.Fatalf("first publication's changes:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	if c := first.Items[0]; c.Verdict != "graded" || c.Grade == nil || *c.Grade != "F" || c.ManifestHash == nil {
		t.Fatalf("version_published carries the verdict: %+v", c)
	}
	if err := s.LoadPublication(ctx, secondPublication()); err != nil {
		t.Fatal(err)
	}
	second, err := s.Changes(ctx, first.NextCursor, 0)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, c := range second.Items {
		got = append(got, describeChange(c))
	}
	var m11 *string
	for _, c := range second.Items {
		if c.Kind == api.ChangeManifestChanged {
			m11 = c.To
		}
	}
	if m11 == nil {
		t.Fatalf("no manifest change: %v", got)
	}
	want2 := []string{
		"grade_changed @acme/files@1.0.0 F→A",
		"version_published @acme/files@1.1.0",
		"manifest_changed @acme/files@1.1.0 " + (*first.Items[0].ManifestHash)[:12] + "→" + (*m11)[:12] + " from 1.0.0",
		"appeal_resolved @acme/files@1.0.0 F-1/A-1 upheld",
	}
	if strings.Join(got, "|") != strings.Join(want2, "|") {
		t.Fatalf("second publication's changes:\n got %s\nwant %s", strings.Join(got, "|"), strings.Join(want2, "|"))
	}
	// Polling again with the newest cursor: nothing, and the same cursor.
	again, err := s.Changes(ctx, second.NextCursor, 0)
	if err != nil || len(again.Items) != 0 || again.NextCursor != second.NextCursor || again.More {
		t.Fatalf("poll at the head: %+v %v", again, err)
	}
	// Pages of one: every change once, in order, with More on all but the last.
	var paged []string
	cur := ""
	for i := 0; i < 20; i++ {
		p, err := s.Changes(ctx, cur, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p.Items {
			paged = append(paged, describeChange(c))
		}
		cur = p.NextCursor
		if !p.More {
			break
		}
	}
	if len(paged) != len(first.Items)+len(second.Items) {
		t.Fatalf("paged %d changes, want %d", len(paged), len(first.Items)+len(second.Items))
	}
	for _, bad := range []string{"nope", "YzEuLTE", "eDEuNQ"} { // not base64 of c1.N; c1.-1; x1.5
		if _, err := s.Changes(ctx, bad, 0); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("cursor %q: %v", bad, err)
		}
	}
}

// TestChangeFeedOlderLoadedLater: loading the older publication after the
// newer one changes nothing served, so it records no change for versions
// both hold.
func TestChangeFeedOlderLoadedLater(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	if err := s.LoadPublication(ctx, secondPublication()); err != nil {
		t.Fatal(err)
	}
	before, err := s.Changes(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadPublication(ctx, firstPublication()); err != nil {
		t.Fatal(err)
	}
	after, err := s.Changes(ctx, before.NextCursor, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range after.Items {
		got = append(got, describeChange(c))
	}
	// Only the versions the newer publication does not hold are new.
	if strings.Join(got, "|") != "version_published mcp-client-lib@0.1.0|version_published minified-server@2.0.0" {
		t.Fatalf("older publication loaded later: %v", got)
	}
}
