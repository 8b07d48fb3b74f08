package checks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// lookupPointerEachTime is LookupPointer as it was before records kept
// their decoded values: every step decodes the value it stands on. The
// tree must answer every pointer exactly as this does, in any order of
// lookups on one tree.
func lookupPointerEachTime(doc []byte, ptr string) (json.RawMessage, bool) {
	cur := json.RawMessage(bytes.TrimSpace(doc))
	if ptr == "" {
		return cur, len(cur) > 0
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, raw := range strings.Split(ptr[1:], "/") {
		tok := unescapeToken(raw)
		switch firstByte(cur) {
		case '{':
			var m map[string]json.RawMessage
			if json.Unmarshal(cur, &m) != nil {
				return nil, false
			}
			v, ok := m[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			var a []json.RawMessage
			if json.Unmarshal(cur, &a) != nil || i >= len(a) {
				return nil, false
			}
			cur = a[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

var treeDocs = []string{
	`{"a": {"b": [1, {"c": "x"}, null]}, "a~b": 1, "a/b": 2, "": {"": 3}}`,
	`{"k": 1, "k": {"deep": true}}`, // a repeated key: the last one is read
	`  {"v": [ "s" , 2 ]}  `,
	`{"bad": {"x": }}`,             // not JSON: nothing below the root is found
	`{"ok": {"x": 1}, "bad": [1,}`, // one bad member makes the whole object unreadable
	`[{"a": 1}, [2, [3]]]`,
	`"just a string"`,
	``,
	`null`,
	`{"n": null, "e": {}, "z": []}`,
}

var treePointers = []string{"", "/", "/a", "/a/b", "/a/b/0", "/a/b/1/c", "/a/b/01", "/a/b/-1", "/a/b/3", "/a/b/x",
	"/a~0b", "/a~1b", "//", "/k", "/k/deep", "/v/0", "/v/1", "/bad", "/bad/x", "/ok/x", "/0", "/0/a", "/1/1/0", "/1/1/0/x",
	"/n", "/n/x", "/e/x", "/z/0", "no-slash", "/a/b/1/c/d"}

// TestPointerTreeAnswersAsLookupPointer: one tree per document, every
// pointer looked up on it forwards and then backwards (so a value decoded
// by an earlier lookup is reused), each answer equal to the decode-each-time
// reading, bytes and presence alike.
func TestPointerTreeAnswersAsLookupPointer(t *testing.T) {
	for _, doc := range treeDocs {
		tree := newPointerTree([]byte(doc))
		order := append(append([]string(nil), treePointers...), reversed(treePointers)...)
		for _, ptr := range order {
			want, wantOK := lookupPointerEachTime([]byte(doc), ptr)
			got, gotOK := tree.lookup(ptr)
			if gotOK != wantOK || !bytes.Equal(got, want) {
				t.Errorf("doc %q ptr %q: tree (%q, %v), decoded each time (%q, %v)", doc, ptr, got, gotOK, want, wantOK)
			}
			if pl, plOK := LookupPointer([]byte(doc), ptr); plOK != wantOK || !bytes.Equal(pl, want) {
				t.Errorf("doc %q ptr %q: LookupPointer (%q, %v), want (%q, %v)", doc, ptr, pl, plOK, want, wantOK)
			}
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// TestRecordDecodesEachValueOnce: after a record has been asked for every
// version's maintainers, the versions object has been decoded once and is
// the same node for every later lookup (what made one packument cost
// minutes was decoding it again for each version).
func TestRecordDecodesEachValueOnce(t *testing.T) {
	r := StoredRecord{Body: manyVersionsPackument(50, 2)}
	for i := range 50 {
		if _, ok := r.lookup(Pointer("versions", fmt.Sprintf("1.0.%d", i), "maintainers", "0", "name")); !ok {
			t.Fatalf("version 1.0.%d has no maintainer", i)
		}
	}
	versions := r.tree.root.members["versions"]
	if versions == nil || !versions.decoded || len(versions.members) != 50 {
		t.Fatalf("the versions object was not kept decoded: %+v", versions)
	}
	before := versions.members["1.0.7"]
	if _, ok := r.lookup("/versions/1.0.7/version"); !ok || r.tree.root.members["versions"].members["1.0.7"] != before {
		t.Fatal("a later lookup did not reuse the decoded version")
	}
}

// FuzzPointerTree: for any document and any two pointers looked up in
// turn on one tree, each answer equals the decode-each-time reading.
func FuzzPointerTree(f *testing.F) {
	for i, d := range treeDocs {
		f.Add([]byte(d), treePointers[i%len(treePointers)], treePointers[(i*7+3)%len(treePointers)])
	}
	f.Fuzz(func(t *testing.T, doc []byte, p1, p2 string) {
		tree := newPointerTree(doc)
		for _, ptr := range []string{p1, p2, p1} {
			want, wantOK := lookupPointerEachTime(doc, ptr)
			got, gotOK := tree.lookup(ptr)
			if gotOK != wantOK || !bytes.Equal(got, want) {
				t.Fatalf("ptr %q: tree (%q, %v), decoded each time (%q, %v)", ptr, got, gotOK, want, wantOK)
			}
		}
	})
}

// manyVersionsPackument is a packument of n versions published in turn,
// each with its maintainers (the maintainer set changes at the last
// version when changes is set), a repository, a publisher and a dist, and
// about 1 KB of text per version as a real packument's readme fields carry.
func manyVersionsPackument(n, maintainers int) []byte {
	var b strings.Builder
	b.WriteString(`{"_id": "big", "name": "big", "dist-tags": {"latest": "1.0.` + strconv.Itoa(n-1) + `"},`)
	b.WriteString(`"maintainers": [{"name": "m0", "email": "m0@example.org"}],`)
	b.WriteString(`"time": {"created": "2020-01-01T00:00:00.000Z", "modified": "2026-01-01T00:00:00.000Z"`)
	for i := range n {
		fmt.Fprintf(&b, `, "1.0.%d": "2020-01-%02dT%02d:%02d:00.000Z"`, i, 1+i/1440%28, i/60%24, i%60)
	}
	b.WriteString(`}, "versions": {`)
	pad := strings.Repeat("an example of the description text a version carries. ", 18)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"1.0.%d": {"name": "big", "version": "1.0.%d", "description": %q, `, i, i, pad)
		b.WriteString(`"repository": {"type": "git", "url": "git+https://code.example/acme/big.git"}, "maintainers": [`)
		for m := range maintainers {
			if m > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"name": "m%d", "email": "m%d@example.org"}`, m, m)
		}
		fmt.Fprintf(&b, `], "_npmUser": {"name": "m0", "email": "m0@example.org"}, "dist": {"integrity": "sha512-AA%d", "tarball": "https://registry.example/big/-/big-1.0.%d.tgz", "signatures": [{"keyid": "k", "sig": "s"}]}}`, i, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

func manyVersionsInput(doc []byte, version string) ProvenanceInput {
	ref := rundir.PackageRef{Registry: "npm", Name: "big", Version: version}
	r := StoredRecord{Record: rundir.Record{Package: ref, Kind: vocab.KindNPMPackument, URL: "https://registry.example/big",
		Status: 200, Outcome: vocab.RecordOK, SHA256: vocab.SHA256Hex(doc)}, Body: doc}
	att := StoredRecord{Record: rundir.Record{Package: ref, Kind: vocab.KindNPMAttestations,
		URL: "https://registry.example/-/npm/v1/attestations/big@" + version, Status: 404, Outcome: vocab.RecordNotFound}}
	return ProvenanceInput{Package: ref, Records: []StoredRecord{r, att}}
}

// TestManyVersionsProvenanceAsBefore: the check's whole result on a
// packument of many versions is the one the decode-each-time reading
// gives: the tree changes what it costs, never what it concludes.
func TestManyVersionsProvenanceAsBefore(t *testing.T) {
	doc := manyVersionsPackument(120, 3)
	res, findings := RunProvenance(context.Background(), manyVersionsInput(doc, "1.0.119"))
	if !strings.Contains(res.Detail, "tag maintainer_set_changed: not applied: the same maintainers across the 120 versions up to this one") {
		t.Fatalf("detail:\n%s", res.Detail)
	}
	for _, f := range findings {
		want, ok := lookupPointerEachTime(doc, f.Evidence.Path)
		if !ok || string(want) != f.Evidence.Excerpt {
			t.Errorf("finding %s cites %s = %q; decoded each time %q (%v)", f.Tag, f.Evidence.Path, f.Evidence.Excerpt, want, ok)
		}
	}
	if len(findings) == 0 {
		t.Fatal("no finding to compare (no_build_attestation is expected: dist.signatures and a 404 on attestations)")
	}
}
