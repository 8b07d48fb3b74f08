package methodology

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/attestari/attestari"
)

// publishedSHA256 pins every published snapshot. A published snapshot is
// never edited (§21): changing one of these bytes fails this test, and the
// fix is a new version, never a new pin for an old one.
var publishedSHA256 = map[string]string{
	"2.3.1":  "919e52bd705e63c185e91a0384c4e17ff1f883c975990b709a8373b1d9d5163c",
	"2.3.2":  "ba886bb235eb66b477dd6771b3b5006a37af0b1d83b9960703bea09d6f46b01c",
	"2.3.3":  "953a23f057a846fe8fa780ab594600aa46d2cd64a06ff639dea19933dc369106",
	"2.3.4":  "62c59692bfdd1fa9d842c86cb7e03c930a04c4bbc57c718392452e121fea5f6f",
	"2.3.5":  "25786aa5c2db11f77a7eb5bacd017100fcae4bb872e6e194b48963cd16027ca6",
	"2.3.6":  "acb3ecf5dc13dc6c5f73349ab969ba6afa0b4f32790d8e3d1fcbd556d63529ac",
	"2.3.7":  "908b964265d1333fc3cfce1535d58bfab19378bb6869b657682088360141962c",
	"2.3.8":  "6902e1e0d3768efc2ead3d2cd2d5179f34922163c31388f2c2aeb16fc9eb2192",
	"2.3.9":  "0ac2b6b06d6a2fc4029550cd4ccd081a0614cb7cc61a557a18065853bc2548a0",
	"2.3.10": "7089c352f6c69ec1ed26e55e3d87604d9f69b38a19967ab313bf9b0fccfd5665",
	"2.3.11": "2300a7e69bc188de9b13beddfad04effb2537ea1d65a5efda8ac19a63cbf0f60",
	"2.3.12": "35e9fb557b606b18d044c1f8601e8470e6ffeffb9ca9d88803e8b65da6474c03",
	"2.3.13": "5d7b4c7d0b6a5f608b74171a4e6573f6a1111dd98071120233adb9d6376f4fca",
	"2.3.14": "f64da81dee26632d5a894ab25c0cab2672c912725fd479d9c8c0939795c4fce1",
	"2.3.15": "2d9179d979019b4397963eec81556cd96cc718bd3663e641d191165f25b9a8ab",
	"2.3.16": "25814b89e1a14f42b6410b7aac6d24312c1b0948f24e4fd76f81e104540908fa",
	"2.3.17": "54346e134c9149c3282c2d2dccfaff717fd1b7ed49b405707a599d52f837c6ce",
	"2.3.18": "4ed469ea44efdc25ba779184b4501f6174e9eea6b45f5f485cf35cc941970d71",
	"2.3.19": "6a5574144719968ecff8bd36077b14dc002c305c092d05a63bf0c64cc6cdc999",
	"2.3.20": "2de0aa05ad4a80e0baa3b8876d4edce9572555d8dc80e844ed1928d0b6ccae4f",
	"2.3.21": "dc6cd4bcad658e39239d697e550e056d522b75828808ea1ac4fee695c3dc76cb",
}

func TestDocumentFirstLineIsVersion(t *testing.T) {
	v, err := ParseVersionLine(Document())
	if err != nil {
		t.Fatalf("document: %v", err)
	}
	if v != Version {
		t.Fatalf("docs/methodology.md says %q, Version is %q", v, Version)
	}
}

func TestSHA256IsHashOfDocument(t *testing.T) {
	sum := sha256.Sum256(Document())
	if got, want := SHA256(), hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("SHA256() = %s, want %s", got, want)
	}
}

func TestDocumentReturnsCopy(t *testing.T) {
	d := Document()
	d[0] ^= 0xff
	if _, err := ParseVersionLine(Document()); err != nil {
		t.Fatalf("mutating a returned document changed the embedded one: %v", err)
	}
	s, ok := Snapshot(Version)
	if !ok {
		t.Fatal("no snapshot for the current version")
	}
	orig := s.Bytes[0]
	s.Bytes[0] ^= 0xff
	again, _ := Snapshot(Version)
	if again.Bytes[0] != orig || Snapshots()[len(Snapshots())-1].Bytes[0] != orig {
		t.Fatal("mutating a returned snapshot changed the embedded one")
	}
}

func TestCurrentSnapshotIsDocument(t *testing.T) {
	s, ok := Snapshot(Version)
	if !ok {
		t.Fatalf("no docs/methodology/%s.md: every version in force has a snapshot", Version)
	}
	if !bytes.Equal(s.Bytes, Document()) {
		t.Fatalf("docs/methodology/%s.md differs from docs/methodology.md: a published snapshot is never edited, so a changed document needs a new version", Version)
	}
	if s.SHA256 != SHA256() {
		t.Fatalf("snapshot hash %s, document hash %s", s.SHA256, SHA256())
	}
}

// TestEverySnapshotFileNamesItsVersion walks the embedded folder itself, not
// Snapshots(), so a misnamed file that Snapshots skips still fails here.
func TestEverySnapshotFileNamesItsVersion(t *testing.T) {
	entries, err := fs.ReadDir(attestari.MethodologyFS, attestari.MethodologySnapshotDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("no snapshots embedded")
	}
	for _, e := range entries {
		name := e.Name()
		v, ok := strings.CutSuffix(name, ".md")
		if !ok || e.IsDir() {
			t.Errorf("%s: the snapshot folder holds only <version>.md files", name)
			continue
		}
		if _, ok := parseSemver(v); !ok {
			t.Errorf("%s: file name is not MAJOR.MINOR.PATCH.md", name)
			continue
		}
		b, err := fs.ReadFile(attestari.MethodologyFS, path.Join(attestari.MethodologySnapshotDir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseVersionLine(b)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got != v {
			t.Errorf("%s: first line names version %s", name, got)
		}
	}
}

func TestSnapshotsArePinned(t *testing.T) {
	snaps := Snapshots()
	if len(snaps) != len(publishedSHA256) {
		t.Errorf("%d snapshots embedded, %d pinned: pin every new snapshot", len(snaps), len(publishedSHA256))
	}
	for _, s := range snaps {
		want, ok := publishedSHA256[s.Version]
		if !ok {
			t.Errorf("snapshot %s is not pinned in publishedSHA256", s.Version)
			continue
		}
		if s.SHA256 != want {
			t.Errorf("snapshot %s has SHA-256 %s, published as %s: a published snapshot is never edited", s.Version, s.SHA256, want)
		}
	}
}

func TestSnapshotsOrderedAndLookup(t *testing.T) {
	snaps := Snapshots()
	for i := 1; i < len(snaps); i++ {
		if compareVersions(snaps[i-1].Version, snaps[i].Version) >= 0 {
			t.Errorf("snapshots out of order: %s before %s", snaps[i-1].Version, snaps[i].Version)
		}
	}
	if last := snaps[len(snaps)-1].Version; last != Version {
		t.Errorf("newest snapshot is %s, version in force is %s", last, Version)
	}
	for _, v := range []string{"", "2.3", "2.3.1 ", "9.9.9", "../methodology", "2.3.1.md"} {
		if _, ok := Snapshot(v); ok {
			t.Errorf("Snapshot(%q) found a snapshot", v)
		}
	}
}

func TestLoadSnapshotsSortsNumericallyAndSkipsOthers(t *testing.T) {
	fsys := fstest.MapFS{
		"d/10.0.0.md":  {Data: []byte("methodology_version: 10.0.0\n")},
		"d/2.10.0.md":  {Data: []byte("methodology_version: 2.10.0\n")},
		"d/2.9.1.md":   {Data: []byte("methodology_version: 2.9.1\n")},
		"d/notes.md":   {Data: []byte("x")},
		"d/2.3.txt":    {Data: []byte("x")},
		"d/sub/1.0.md": {Data: []byte("x")},
	}
	got, err := loadSnapshots(fsys, "d")
	if err != nil {
		t.Fatal(err)
	}
	var vs []string
	for _, s := range got {
		vs = append(vs, s.Version)
	}
	if want := "2.9.1 2.10.0 10.0.0"; strings.Join(vs, " ") != want {
		t.Fatalf("versions %v, want %s", vs, want)
	}
	if _, err := loadSnapshots(fsys, "missing"); err == nil {
		t.Fatal("missing folder: no error")
	}
}

func TestParseVersionLine(t *testing.T) {
	good := map[string]string{
		"methodology_version: 2.3.1\nrest": "2.3.1",
		"methodology_version: 0.0.0":       "0.0.0",
		"methodology_version: 10.20.30\n":  "10.20.30",
	}
	for in, want := range good {
		got, err := ParseVersionLine([]byte(in))
		if err != nil || got != want {
			t.Errorf("ParseVersionLine(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{
		"",
		"\nmethodology_version: 2.3.1",
		"methodology_version: 2.3.1\r\n",
		"methodology_version:2.3.1",
		"methodology_version: 2.3",
		"methodology_version: 2.3.1.4",
		"methodology_version: 02.3.1",
		"methodology_version: 2.3.x",
		"methodology_version: 2.3.-1",
		"methodology_version: 2.3.1 ",
		"Methodology_version: 2.3.1",
		"methodology_version: 9999999999.0.0",
		"\xff\xfe methodology_version: 2.3.1",
	}
	for _, in := range bad {
		if v, err := ParseVersionLine([]byte(in)); !errors.Is(err, ErrNoVersionLine) {
			t.Errorf("ParseVersionLine(%q) = %q, %v; want ErrNoVersionLine", in, v, err)
		}
	}
}

func FuzzParseVersionLine(f *testing.F) {
	f.Add([]byte("methodology_version: 2.3.1\n"))
	f.Add([]byte("methodology_version: 1.2"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ParseVersionLine(b)
		if err != nil {
			if !errors.Is(err, ErrNoVersionLine) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if !bytes.HasPrefix(b, []byte(versionLinePrefix+v)) {
			t.Fatalf("version %q not on the first line of %q", v, b)
		}
		if _, ok := parseSemver(v); !ok {
			t.Fatalf("accepted %q", v)
		}
	})
}

func TestExtractorAllowed(t *testing.T) {
	if !ExtractorAllowed("2.3.1", "syntax-tree-3") {
		t.Fatal("2.3.1 with syntax-tree-3 refused")
	}
	if !ExtractorAllowed("2.3.2", "syntax-tree-4") {
		t.Fatal("2.3.2 with syntax-tree-4 refused")
	}
	if !ExtractorAllowed("2.3.3", "syntax-tree-5") {
		t.Fatal("2.3.3 with syntax-tree-5 refused")
	}
	if !ExtractorAllowed("2.3.4", "syntax-tree-6") {
		t.Fatal("2.3.4 with syntax-tree-6 refused")
	}
	if !ExtractorAllowed("2.3.5", "syntax-tree-7") {
		t.Fatal("2.3.5 with syntax-tree-7 refused")
	}
	if !ExtractorAllowed("2.3.6", "syntax-tree-8") {
		t.Fatal("2.3.6 with syntax-tree-8 refused")
	}
	if !ExtractorAllowed("2.3.7", "syntax-tree-9") {
		t.Fatal("2.3.7 with syntax-tree-9 refused")
	}
	if !ExtractorAllowed("2.3.8", "syntax-tree-10") {
		t.Fatal("2.3.8 with syntax-tree-10 refused")
	}
	if !ExtractorAllowed("2.3.9", "syntax-tree-11") {
		t.Fatal("2.3.9 with syntax-tree-11 refused")
	}
	if !ExtractorAllowed("2.3.10", "syntax-tree-12") {
		t.Fatal("2.3.10 with syntax-tree-12 refused")
	}
	if !ExtractorAllowed("2.3.11", "syntax-tree-13") {
		t.Fatal("2.3.11 with syntax-tree-13 refused")
	}
	if !ExtractorAllowed("2.3.12", "syntax-tree-14") {
		t.Fatal("2.3.12 with syntax-tree-14 refused")
	}
	if !ExtractorAllowed("2.3.13", "syntax-tree-15") {
		t.Fatal("2.3.13 with syntax-tree-15 refused")
	}
	if !ExtractorAllowed("2.3.14", "syntax-tree-16") {
		t.Fatal("2.3.14 with syntax-tree-16 refused")
	}
	if !ExtractorAllowed("2.3.15", "syntax-tree-17") {
		t.Fatal("2.3.15 with syntax-tree-17 refused")
	}
	if !ExtractorAllowed("2.3.16", "syntax-tree-18") {
		t.Fatal("2.3.16 with syntax-tree-18 refused")
	}
	if !ExtractorAllowed("2.3.17", "syntax-tree-19") {
		t.Fatal("2.3.17 with syntax-tree-19 refused")
	}
	if !ExtractorAllowed("2.3.18", "syntax-tree-20") {
		t.Fatal("2.3.18 with syntax-tree-20 refused")
	}
	if !ExtractorAllowed("2.3.19", "syntax-tree-21") {
		t.Fatal("2.3.19 with syntax-tree-21 refused")
	}
	if !ExtractorAllowed("2.3.20", "syntax-tree-22") {
		t.Fatal("2.3.20 with syntax-tree-22 refused")
	}
	if !ExtractorAllowed("2.3.21", "syntax-tree-23") {
		t.Fatal("2.3.21 with syntax-tree-23 refused")
	}
	refused := [][2]string{
		{"2.3.2", "syntax-tree-3"}, // its advertised names were read under the older rule
		{"2.3.1", "syntax-tree-2"},
		{"2.3.1", "syntax-tree-4"},
		{"2.3.3", "syntax-tree-4"}, // it followed import cycles until the stack died; its bounds were not these
		{"2.3.2", "syntax-tree-5"},
		{"2.3.4", "syntax-tree-5"}, // it read composed servers with their bare names and registries as empty
		{"2.3.3", "syntax-tree-6"},
		{"2.3.5", "syntax-tree-6"}, // it read no JavaScript configuration, prompts/get handlers or String.raw
		{"2.3.4", "syntax-tree-7"},
		{"2.3.6", "syntax-tree-7"}, // it recorded McpServer zod shapes written as object literals as JSON schemas
		{"2.3.5", "syntax-tree-8"},
		{"2.3.7", "syntax-tree-8"}, // it counted every element of a filtered list as a tool
		{"2.3.6", "syntax-tree-9"},
		{"2.3.8", "syntax-tree-9"}, // it read a prompt's package fallback and runtime lists as holes, and roots from every export
		{"2.3.7", "syntax-tree-10"},
		{"2.3.9", "syntax-tree-10"}, // it read the package's constant tables, option defaults and helper returns as holes
		{"2.3.8", "syntax-tree-11"},
		{"2.3.10", "syntax-tree-11"}, // it read option defaults, texts chosen by configuration and helper returns as holes
		{"2.3.9", "syntax-tree-12"},
		{"2.3.11", "syntax-tree-12"}, // it set aside arms and branches not taken, and read no schema's texts behind converters or helpers
		{"2.3.10", "syntax-tree-13"},
		{"2.3.12", "syntax-tree-13"}, // it read no Python schema texts beyond the signature and examined no registered resource names
		{"2.3.11", "syntax-tree-14"},
		{"2.3.13", "syntax-tree-14"}, // it read no computed schema keys or named prompt shape members, counted fastmcp ranges as frameworks, and read Annotated strings the SDK does not send
		{"2.3.12", "syntax-tree-15"},
		{"2.3.14", "syntax-tree-15"}, // it read a function that changes its argument and returns it by the return alone
		{"2.3.13", "syntax-tree-16"},
		{"2.3.15", "syntax-tree-16"}, // a version pair never published
		{"2.3.16", "syntax-tree-17"}, // it read a schema object changed after it was built, and a class's attribute for an instance, as written
		{"2.3.17", "syntax-tree-18"}, // it read a class's attribute for an instance written from outside its class or by a base of a base as the class wrote it
		{"2.3.18", "syntax-tree-19"}, // it read members and elements the package writes (+=, Object.assign, an index, in place) as written, a number key by its source text, and an object handed to the package's own wrapper as registered
		{"2.3.19", "syntax-tree-20"}, // it read a schema object written through a spread copy, and one handed to a package's own setRequestHandler through a parameter, as written
		{"2.3.20", "syntax-tree-21"}, // syntax-tree-21 read the texts of a schema a registration's config names without checking the object for changes (a fail-open)
		{"2.3.21", "syntax-tree-22"}, // syntax-tree-22 kept an answer a step limit cut for later checks, which then read texts without the write weighed (a fail-open)
		{"2.3.20", "syntax-tree-23"},
		{"2.3.19", "syntax-tree-22"},
		{"2.3.18", "syntax-tree-21"},
		{"2.3.17", "syntax-tree-20"},
		{"2.3.16", "syntax-tree-19"},
		{"2.3.15", "syntax-tree-18"},
		{"2.3.14", "syntax-tree-17"},
		{"2.3.0", "syntax-tree-3"},
		{"2.2.0", "syntax-tree-2"},
		{"2.3.1", ""},
		{"", "syntax-tree-3"},
		{"", ""},
		{"2.3.1", "SYNTAX-TREE-3"},
		{"2.3.1", "syntax-tree-3 "},
		{" 2.3.1", "syntax-tree-3"},
		{"syntax-tree-3", "2.3.1"},
	}
	for _, p := range refused {
		if ExtractorAllowed(p[0], p[1]) {
			t.Errorf("ExtractorAllowed(%q, %q) = true", p[0], p[1])
		}
	}
}

func TestVersionTable(t *testing.T) {
	table := VersionTable()
	current := false
	for _, p := range table {
		if !ExtractorAllowed(p.Methodology, p.Extractor) {
			t.Errorf("table row %+v not allowed", p)
		}
		if _, ok := Snapshot(p.Methodology); !ok {
			t.Errorf("table row %+v names a methodology version with no snapshot", p)
		}
		if p.Methodology == Version {
			current = true
		}
	}
	if !current {
		t.Errorf("version table has no extractor for the version in force %s", Version)
	}
	table[0].Extractor = "tampered"
	if !ExtractorAllowed("2.3.1", "syntax-tree-3") || ExtractorAllowed("2.3.1", "tampered") {
		t.Fatal("mutating VersionTable() changed the table")
	}
}

// The document must name every extractor version the table pairs with the
// version in force: it is the extractor the rules describe.
func TestDocumentNamesItsExtractor(t *testing.T) {
	doc := string(Document())
	for _, p := range VersionTable() {
		if p.Methodology == Version && !strings.Contains(doc, "`"+p.Extractor+"`") {
			t.Errorf("document does not name extractor %s", p.Extractor)
		}
	}
}

// reasonCodes is every reason code of the brief's GATE_MAP. internal/policy
// will own this list; until it does, the list lives here so the document
// cannot lose a code.
var reasonCodes = []string{
	"version_pair_not_allowed",
	"gate_not_recorded",
	"gate_failed_as_recorded",
	"gate_not_recomputable",
	"minified_only",
	"runtime_generated",
	"declaration_not_parsed",
	"no_registration_site",
	"archive_unreadable",
	"extraction_budget_exceeded",
	"advertised_tools_not_parsed",
	"no_surface_examined",
	"not_analyzed",
	"partial_description",
	"model_check_skipped",
	"not_analyzed_recorded",
	"check_missing",
	"check_failed",
	"excerpt_unverified",
	"verifier_rejected",
	"not_a_server",
	"evidence_unpublishable",
}

// Every code has a row of the document's reason-code table, with a guard or
// decision and a line of explanation.
func TestDocumentTablesEveryReasonCode(t *testing.T) {
	rows := map[string][]string{}
	for _, line := range strings.Split(string(Document()), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows[strings.Trim(cells[0], "`")] = cells
	}
	for _, code := range reasonCodes {
		cells, ok := rows[code]
		if !ok {
			t.Errorf("reason code %s has no row in the document's table", code)
			continue
		}
		if len(cells) != 3 || cells[1] == "" || len(cells[2]) < 20 {
			t.Errorf("reason code %s: row %q lacks a guard or a plain-English line", code, cells)
		}
	}
	if len(rows) != len(reasonCodes) {
		t.Errorf("document tables %d codes, the list has %d: keep them equal", len(rows), len(reasonCodes))
	}
}

func TestDocumentUsesSharedVocabulary(t *testing.T) {
	doc := string(Document())
	words := []string{
		// checks that run, and declared checks that do not
		"publisher_provenance", "undetermined_tool_surface", "model_directed_text",
		"undeclared_network_calls", "dependency_risk", "abandonment", "fork_divergence",
		// surface outcomes
		"parsed", "not_a_server", "minified_only", "runtime_generated", "declaration_not_parsed",
		"no_registration_site", "archive_unreadable", "extraction_budget_exceeded",
		// description states
		"readable", "partial", "unreadable", "absent",
		// surface kinds
		"tool", "prompt", "prompt_text", "resource", "resource_template", "instructions", "parameter_description",
		// categories
		"exfiltrate_data", "override_user", "conceal_from_user",
		// paths the document must name in this codebase
		"internal/policy/policy.go", "internal/surface", "internal/checks/model_directed_text.go",
		"internal/checks/exfil_context.go", "internal/manifest", "internal/methodology", "internal/pipeline",
		"internal/publish", "internal/appeals", "docs/publish-contract.md", "analysis/gate_map.json",
		"analysis/fixtures/reason_codes/<code>/", "docs/model-check.md",
		"GATE_MAP", "MEASURED_CHECKS", "EXTRACTOR_VERSION", "VerifierVersion",
		"$ATTESTARI_HOME", "evidence/blobs/<sha256>", "evidence/proposals/", "runs/<run-id>/", "publications/<run-id>/",
		"under_appeal", "withdrawn_on_appeal",
	}
	for _, w := range words {
		if !strings.Contains(doc, "`"+w+"`") {
			t.Errorf("document does not name `%s`", w)
		}
	}
	for _, n := range []string{"1.", "2.", "3.", "4.", "5.", "6.", "7.", "8.", "9.", "10.", "11.", "12.", "13.", "14.", "15.", "16.", "17.", "18.", "19.", "20.", "21."} {
		if !strings.Contains(doc, "\n## "+n+" ") {
			t.Errorf("document has no section %s", n)
		}
	}
	if !strings.Contains(doc, "\n## Versions\n") {
		t.Error("document has no Versions section")
	}
}

// The brief's grade ladder, stated as rules.
func TestDocumentStatesGradeLadder(t *testing.T) {
	doc := string(Document())
	for _, line := range []string{
		"- **A**: no confirmed finding;",
		"- **B**: the highest confirmed severity is low;",
		"- **C**: the highest confirmed severity is medium;",
		"- **F**: at least one finding is confirmed high.",
	} {
		if !strings.Contains(doc, line) {
			t.Errorf("grade ladder line missing: %s", line)
		}
	}
}

// The admission test to MEASURED_CHECKS, exactly.
func TestDocumentStatesAdmissionTest(t *testing.T) {
	doc := string(Document())
	for _, s := range []string{
		"- at least 200 labelled spans;",
		"- precision of at least 95%;",
		"- at most 1 false positive per 500 clean descriptions",
		"This project has not yet run its own evaluation.",
	} {
		if !strings.Contains(doc, s) {
			t.Errorf("section 18 lacks %q", s)
		}
	}
}

// Hard rules: no public service host names and no email address in the
// document (clients take base URLs from configuration; appeals go through the
// operator command and the contact channel).
func TestDocumentNamesNoHostOrEmail(t *testing.T) {
	host := regexp.MustCompile(`(?i)\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|ai|dev|app|co|sh)\b`)
	email := regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}`)
	for _, s := range Snapshots() {
		if m := host.FindAllString(string(s.Bytes), -1); len(m) > 0 {
			t.Errorf("snapshot %s names hosts %q", s.Version, m)
		}
		if m := email.FindAllString(string(s.Bytes), -1); len(m) > 0 {
			t.Errorf("snapshot %s names email addresses %q", s.Version, m)
		}
	}
	if host.FindString(string(Document())) != "" || email.FindString(string(Document())) != "" {
		t.Error("document names a host or an email address")
	}
}

// The Versions section starts with this version's own line.
func TestVersionsSectionStartsWithCurrentVersion(t *testing.T) {
	_, after, ok := strings.Cut(string(Document()), "\n## Versions\n")
	if !ok {
		t.Fatal("no Versions section")
	}
	first := ""
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "- ") {
			first = line
			break
		}
	}
	if !strings.HasPrefix(first, "- **"+Version+"**") {
		t.Fatalf("first Versions line %q does not name %s", first, Version)
	}
}
