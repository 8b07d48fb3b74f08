package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
	"github.com/attestari/attestari/internal/vocab"
)

func reasonsPublication() (*publish.Publication, string) {
	p := storetest.Publication("pub-r", "run-r", t0)
	pkg := storetest.Package("npm", "docs-server", "3.1.0", "not_gradeable", "",
		[]string{vocab.CodeAdvertisedToolsNotParsed, vocab.CodeExcerptUnverified, vocab.CodeCheckFailed})
	pkg.Blocking = []policy.Blocking{
		{Code: vocab.CodeAdvertisedToolsNotParsed, Guard: "G3", Detail: "advertised, not parsed: get-library-docs", File: "README.md", Line: 14, Names: []string{"get-library-docs"}},
		{Code: vocab.CodeExcerptUnverified, Guard: "G6", Detail: "finding zq-secret: excerpt_not_in_blob ", File: "zq-where.js", Line: 3, Findings: []string{"zq-secret"}},
		{Code: vocab.CodeCheckFailed, Guard: "G5", Detail: "model_directed_text result says error: zq-analyzer-error", Names: []string{"model_directed_text"}},
	}
	p.Packages = append(p.Packages, pkg)
	return p, "docs-server"
}

// Each reason is loaded with its detail and read back on the package row;
// a reason resting on a (withheld) finding is read back naming none. Rows
// loaded before migration 0004 get the same from the stored row.
func TestReasonDetailLoadedAndBackfilled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := dbtest.Open(t)
	p, name := reasonsPublication()
	if err := s.LoadPublication(ctx, p); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		d, err := s.Package(ctx, "npm", name, "3.1.0")
		if err != nil {
			t.Fatal(err)
		}
		adv, ex := d.BlockedBy[0].Detail, d.BlockedBy[1].Detail
		if adv == nil || adv.Summary != "advertised, not parsed: get-library-docs" || adv.File == nil || *adv.File != "README.md" || *adv.Line != 14 || len(adv.Names) != 1 {
			t.Errorf("%s: advertised %+v", when, adv)
		}
		if ex == nil || ex.File != nil || len(ex.Names) != 0 || strings.Contains(ex.Summary, "zq-") || !strings.Contains(ex.Summary, "withheld from publication") {
			t.Errorf("%s: excerpt_unverified %+v", when, ex)
		}
	}
	check("loaded")
	d, err := s.Package(ctx, "npm", name, "3.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if cf := d.BlockedBy[2].Detail; cf == nil || strings.Contains(cf.Summary, "zq-") || cf.Summary != "did not complete on the examiner's side: model_directed_text" || len(cf.Names) != 1 {
		t.Errorf("check_failed %+v", cf)
	}

	var sql string
	ms, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if strings.HasSuffix(m.Name, "_blocking_detail.sql") {
			sql = m.SQL
		}
	}
	if sql == "" {
		t.Fatal("no blocking_detail migration")
	}
	if err := store.Exec(ctx, s, "ALTER TABLE package_versions DROP COLUMN blocking"); err != nil {
		t.Fatal(err)
	}
	if err := store.Exec(ctx, s, sql); err != nil {
		t.Fatal(err)
	}
	check("backfilled")
	if d, err = s.Package(ctx, "npm", name, "3.1.0"); err != nil {
		t.Fatal(err)
	}
	if cf := d.BlockedBy[2].Detail; cf == nil || cf.Summary != "did not complete on the examiner's side: model_directed_text" || len(cf.Names) != 1 {
		t.Errorf("backfilled check_failed %+v", cf)
	}
}
