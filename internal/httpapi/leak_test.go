package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

const secret = "UNPUBLISHED-MARKER"

// TestNothingUnpublishedIsServed seeds decided data that no publication
// holds — a run with no publication, a withheld finding and its evidence,
// a blob the publication does not list, the grade decided before an appeal —
// then walks every endpoint (following every identifier the API itself
// returns) and fails when any response carries any of it.
func TestNothingUnpublishedIsServed(t *testing.T) {
	t.Parallel()
	ts, dbURL := seeded(t)
	ctx := context.Background()

	// A decided run that was never published, written straight to the table.
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO runs (id, candidates_sha256, started_at, methodology_version, methodology_sha256,
		extractor_version, code_commit, code_dirty, package_count, header)
		VALUES ('run-unpublished', $1, now(), '2.3.2', $1, 'syntax-tree-4', $2, false, 1, $3)`,
		strings.Repeat("0", 64), secret, `{"note":"`+secret+`"}`); err != nil {
		t.Fatal(err)
	}

	// A publication whose input carries what must not be published.
	p := storetest.Publication("pub-3", "run-3", t0.Add(14*24*time.Hour))
	pkg := storetest.Package("npm", "quiet-server", "1.0.0", "not_gradeable", "", []string{"evidence_unpublishable"},
		storetest.Tool("lookup", "readable", "Looks things up.", "none", ""))
	pkg.DecidedVerdict, pkg.DecidedGrade = "graded", "F"
	p.Packages = append(p.Packages, pkg)
	withheld := []byte("// contact: " + secret + "@example.invalid\nserver.tool('lookup', '" + secret + "')\n")
	storetest.Finding(p, pkg, "F-withheld", "withheld", "high", "lookup", "index.js", withheld, secret)
	p.Findings[len(p.Findings)-1].Title = secret
	p.Evidence = nil // the withheld finding's blob is not in the publication's list...
	sum := sha256.Sum256(withheld)
	withheldSHA := hex.EncodeToString(sum[:])
	unlisted := []byte(secret + " an unlisted blob")
	us := sha256.Sum256(unlisted)
	unlistedSHA := hex.EncodeToString(us[:])
	p.Blobs[unlistedSHA] = unlisted // ...and neither is this one, though its bytes are there.
	st, err := store.Open(ctx, dbURL, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.LoadPublication(ctx, p); err != nil {
		t.Fatal(err)
	}

	mustBeAbsent := map[string]bool{"/runs/run-unpublished/diff": true, "/findings/F-withheld": true,
		"/evidence/" + withheldSHA: true, "/evidence/" + unlistedSHA: true}
	seen := map[string]bool{}
	var queue []string
	add := func(paths ...string) {
		for _, p := range paths {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	add("/packages?limit=200", "/runs?limit=100", "/gate_map.json", "/methodology",
		"/runs/run-unpublished/diff", "/findings/F-withheld", "/evidence/"+withheldSHA, "/evidence/"+unlistedSHA,
		"/manifest/quiet-server/1.0.0", "/packages/npm/quiet-server/1.0.0", "/manifest?purl=pkg:npm/quiet-server@1.0.0",
		"/", "/?q=quiet", "/?reason=evidence_unpublishable", "/gate-map", "/package/npm/quiet-server/1.0.0")
	check := func(path string, status int, body string) {
		if strings.Contains(body, secret) {
			t.Errorf("%s (%d) serves unpublished data: %s", path, status, firstLine(body))
		}
	}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		res, body := ts.get(path)
		check(path, res.StatusCode, body)
		if mustBeAbsent[path] && res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", path, res.StatusCode)
		}
		if res.StatusCode != 200 {
			continue
		}
		switch {
		case strings.HasPrefix(path, "/packages?"):
			var l api.PackageList
			_ = json.Unmarshal([]byte(body), &l)
			for _, it := range l.Items {
				add("/packages/"+it.Registry+"/"+it.Name+"/"+it.Version, "/manifest/"+it.Name+"/"+it.Version+"?registry="+it.Registry)
			}
		case strings.HasPrefix(path, "/runs?"):
			var l api.RunList
			_ = json.Unmarshal([]byte(body), &l)
			for _, r := range l.Items {
				if r.ID == "run-unpublished" {
					t.Errorf("an unpublished run is listed")
				}
				add("/runs/" + r.ID + "/diff")
			}
		case strings.HasPrefix(path, "/packages/"):
			var d api.PackageDetail
			_ = json.Unmarshal([]byte(body), &d)
			for _, f := range d.Findings {
				add("/findings/"+url.PathEscape(f.ID), "/evidence/"+f.Evidence.SHA256)
			}
			for _, v := range d.Versions {
				add("/packages/"+d.Registry+"/"+d.Name+"/"+v, "/package/"+d.Registry+"/"+d.Name+"/"+v)
				if v != d.Version {
					add("/diff/" + d.Name + "/" + v + "/" + d.Version + "?registry=" + d.Registry)
				}
			}
			if d.Name == "quiet-server" && (d.Verdict != "not_gradeable" || d.Grade != nil) {
				t.Errorf("the grade decided before publication leaked: %s", body)
			}
		}
	}
	res, body := postJSON(ts, "/lookup", `{"items":[{"registry":"npm","name":"quiet-server","version":"1.0.0"}]}`)
	check("/lookup", res.StatusCode, body)
	if strings.Contains(body, `"F"`) {
		t.Errorf("lookup shows the decided grade: %s", body)
	}
	if len(seen) < 20 {
		t.Fatalf("the walk reached only %d addresses; it is not exercising the API", len(seen))
	}
}
