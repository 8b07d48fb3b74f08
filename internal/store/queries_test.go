package store_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
)

var (
	nameLine = regexp.MustCompile(`(?m)^-- name: (\w+) :\w+\s*$`)
	sqlcArg  = regexp.MustCompile(`sqlc\.n?arg\((\w+)\)`)
)

// TestEveryQueryPrepares does what `sqlc vet` with sqlc/db-prepare does: every
// query of db/queries is prepared against a migrated live database, so a query
// that names a missing column or mistypes a parameter fails here.
func TestEveryQueryPrepares(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	files, err := filepath.Glob("../../db/queries/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files found: %v", err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		locs := nameLine.FindAllSubmatchIndex(b, -1)
		for i, loc := range locs {
			end := len(b)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			name := string(b[loc[2]:loc[3]])
			q := positional(string(b[loc[1]:end]))
			if err := store.Prepare(context.Background(), s, name, q); err != nil {
				t.Errorf("%s: query %s does not prepare: %v", filepath.Base(f), name, err)
			}
			n++
		}
	}
	if n < 10 {
		t.Fatalf("only %d queries found; the parser of query files is broken", n)
	}
}

// positional rewrites sqlc's named arguments to $N, numbering after the
// highest $N already present, one number per distinct name.
func positional(q string) string {
	maxN := 0
	for _, m := range regexp.MustCompile(`\$(\d+)`).FindAllStringSubmatch(q, -1) {
		if v, _ := strconv.Atoi(m[1]); v > maxN {
			maxN = v
		}
	}
	nums := map[string]int{}
	return strings.TrimSpace(sqlcArg.ReplaceAllStringFunc(q, func(m string) string {
		name := sqlcArg.FindStringSubmatch(m)[1]
		if _, ok := nums[name]; !ok {
			maxN++
			nums[name] = maxN
		}
		return "$" + strconv.Itoa(nums[name])
	}))
}

// TestNameReadsUseIndexes: every read that finds a package by name can be
// answered from an index, whatever the spelling rules (a comparison the
// planner cannot match to an index turns the gateways' hot path into a scan
// of every published version).
func TestNameReadsUseIndexes(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	b, err := os.ReadFile("../../db/queries/package_versions.sql")
	if err != nil {
		t.Fatal(err)
	}
	vd, err := os.ReadFile("../../db/queries/version_diffs.sql")
	if err != nil {
		t.Fatal(err)
	}
	queries := map[string]string{}
	for _, src := range [][]byte{b, vd} {
		locs := nameLine.FindAllSubmatchIndex(src, -1)
		for i, loc := range locs {
			end := len(src)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			queries[string(src[loc[2]:loc[3]])] = positional(string(src[loc[1]:end]))
		}
	}
	for name, nargs := range map[string]int{
		"ManifestGet": 7, "PackageVersionFindCurrent": 4, "PackageVersionRegistriesForName": 2,
		"PackageVersionVersionsForName": 2, "PackageVersionGetCurrent": 3, "PackageVersionHistory": 2,
		"VersionDiffGet": 4, "VersionDiffListForPackage": 2, "PackageVersionPyPIVersions": 1,
	} {
		q, ok := queries[name]
		if !ok {
			t.Fatalf("query %s not found", name)
		}
		args := make([]any, nargs)
		for i := range args {
			args[i] = "x"
		}
		if name == "PackageVersionPyPIVersions" {
			args[0] = []string{"x", "y"}
		}
		if name == "ManifestGet" { // the page: from_position, page_tools, page_bytes
			args[2], args[3], args[4] = 0, 1000, 256<<10
		}
		plan, err := store.Explain(ctx, s, strings.TrimSuffix(q, ";"), args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(plan, "Seq Scan on current_versions") || strings.Contains(plan, "Seq Scan on version_diffs") || strings.Contains(plan, "Seq Scan on tools") {
			t.Errorf("%s scans a whole table:\n%s", name, plan)
		}
	}
}
