package manifest

import (
	"encoding/hex"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// The vectors below are published in docs/manifest.md. The expected hashes were
// computed by an independent implementation (Python hashlib over hand-written
// canonical bytes), not by this package, so a change to the definition fails here.
var vectors = []struct {
	id         string
	name       string
	desc       string
	schemaKind string
	schemaRaw  string
	component  string // the schema component the rule requires
	hash       string
}{
	{"ascii_no_schema", "echo", "Echoes the input.", "", "", "", "481f9edc4aa734628df09372d39ecc2a214e721ea908961ccaa744cc52638c1e"},
	{"non_ascii", "café_lookup", "Recherche un café — près de vous ☕", "none", "", "", "9b3e092a5cb812d1a4c1c5a38f6e06dcec2adf070d183b34035659c9690edead"},
	// Source was 'Line one\nLine two\t\'quoted\' \u00e9': description_raw holds the decoded text.
	{"escapes_decoded", "notes", "Line one\nLine two\t'quoted' é", "none", "", "", "82f215d13050108a4021c5dbb72a5c3a69d2210678802e3add3c6ad87ed13521"},
	{"key_order", "search", "Search.", "json",
		"{ \"type\": \"object\",\n  \"required\": [\"b\", \"a\"],\n  \"properties\": { \"b\": {\"type\": \"string\"}, \"a\": {\"type\": \"number\"} } }",
		`{"properties":{"a":{"type":"number"},"b":{"type":"string"}},"required":["b","a"],"type":"object"}`,
		"f31fce06ee1e878605867caeee3c49c49ac4dc74dbcf02575c712da5a04bd5d3"},
	{"number_forms", "limits", "Limits.", "json",
		`{"maximum": 1.0, "x": 1E-7, "neg": -0, "min": 0.000001, "big": 1e21}`,
		`{"big":1e+21,"maximum":1,"min":0.000001,"neg":0,"x":1e-7}`,
		"3730daa3563717d9c25a6879b76aa807be7fbae065c8fdc3f36baa0625020096"},
	{"empty_json_schema", "ping", "Ping.", "json", " { } ", `{}`, "14004f31893e15fcaaaa7577dbdb1f83b08131ac34b908bcd6f2183d5ca5c53b"},
	{"no_schema", "ping", "Ping.", "none", "", "", "ffef78635d26acafcdff826daab52f86588f0c491709a6e8cb715f3056bfade2"},
	{"zod_source", "read_file", "Read a file.", "source",
		`z.object({ path: z.string().describe("File path") })`,
		`z.object({ path: z.string().describe("File path") })`,
		"a6d904b178d87293ce74925641eeab41e5f74254d19927c98d4a4d6a48c51e5a"},
	// An absent description is hashed as the empty string (docs/methodology.md §7).
	{"absent_description", "noop", "", "none", "", "", "1e2e53696bf781ca01b2fbfd67d982cc4c3517ecb8edf7bcade71960edfa57fd"},
	{"json_string_escapes", "fmt", "Format.", "json",
		`{"description": "caf\u00e9 \"x\"\n"}`,
		"{\"description\":\"café \\\"x\\\"\\n\"}",
		"925b01170398c403ab612025741f9c7d94e7807b37094a95f562118af55fa259"},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.id, func(t *testing.T) {
			comp, err := SchemaComponent(v.schemaKind, v.schemaRaw)
			if err != nil {
				t.Fatalf("SchemaComponent: %v", err)
			}
			if string(comp) != v.component {
				t.Fatalf("component = %q, want %q", comp, v.component)
			}
			state := "readable"
			if v.id == "absent_description" {
				state = "absent"
			}
			th := HashTool(rundir.Entry{Kind: "tool", Name: v.name, DescriptionState: state, DescriptionRaw: v.desc, SchemaKind: v.schemaKind, SchemaRaw: v.schemaRaw})
			if th.Reason != "" || th.Hash != v.hash {
				t.Fatalf("HashTool = %+v, want hash %s", th, v.hash)
			}
		})
	}
}

func TestEmptyAndNoSchemaDiffer(t *testing.T) {
	a := HashTool(rundir.Entry{Name: "ping", DescriptionState: "readable", DescriptionRaw: "Ping.", SchemaKind: "json", SchemaRaw: "{}"})
	b := HashTool(rundir.Entry{Name: "ping", DescriptionState: "readable", DescriptionRaw: "Ping.", SchemaKind: "none"})
	if a.Hash == b.Hash {
		t.Fatal("an empty JSON schema and no schema must hash differently")
	}
}

func TestAbsentIgnoresStrayRawText(t *testing.T) {
	// An absent description carries no text; stray bytes in description_raw
	// must not enter the hash.
	a := HashTool(rundir.Entry{Name: "noop", DescriptionState: "absent", DescriptionRaw: "junk", SchemaKind: "none"})
	if a.Hash != "1e2e53696bf781ca01b2fbfd67d982cc4c3517ecb8edf7bcade71960edfa57fd" {
		t.Fatalf("got %+v", a)
	}
}

func TestSeparatorsPreventAmbiguity(t *testing.T) {
	a := ToolDigest("ab", "c", nil)
	b := ToolDigest("a", "bc", nil)
	if a == b {
		t.Fatal("name/description boundary must be part of the hash")
	}
}

func TestManifestVector(t *testing.T) {
	s := &rundir.Surface{Outcome: "parsed"}
	// Deliberately not in sorted order: the manifest sorts digests, not names.
	for _, i := range []int{2, 0, 1} {
		v := vectors[i]
		s.Tools = append(s.Tools, rundir.Entry{Kind: "tool", Name: v.name, DescriptionState: "readable", DescriptionRaw: v.desc, SchemaKind: v.schemaKind, SchemaRaw: v.schemaRaw})
	}
	a := Compute(s)
	const want = "3a57d8fb30afe6fdb32d94904050b169e70f7914389fb6c2e564a585923edf5a"
	if a.ManifestHash != want || a.Reason != "" {
		t.Fatalf("manifest = %q (%s), want %s", a.ManifestHash, a.Reason, want)
	}
	if len(a.Tools) != 3 || a.Tools[0].Name != "notes" {
		t.Fatalf("tool_hashes must follow the surface order: %+v", a.Tools)
	}
}

func TestEmptyParsedSurfaceAttestsEmptySet(t *testing.T) {
	a := Compute(&rundir.Surface{Outcome: "parsed"})
	if a.ManifestHash != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("got %+v", a)
	}
	if a.Tools == nil {
		t.Fatal("tool_hashes must encode as [] not null")
	}
}

func TestNoHashReasons(t *testing.T) {
	cases := []struct {
		e    rundir.Entry
		want string
	}{
		{rundir.Entry{Name: "a", DescriptionState: "partial", DescriptionRaw: "Reads "}, ReasonDescriptionPartial},
		{rundir.Entry{Name: "a", DescriptionState: "unreadable"}, ReasonDescriptionUnreadable},
		{rundir.Entry{Name: "a"}, ReasonDescriptionStateUnrecorded},
		{rundir.Entry{Name: "a", DescriptionState: "bogus"}, ReasonDescriptionStateUnrecorded},
		{rundir.Entry{Name: "a", NameState: "unreadable", DescriptionState: "readable"}, ReasonNameUnreadable},
		{rundir.Entry{Name: "a", DescriptionState: "readable", SchemaKind: "json", SchemaRaw: `{"a":1,"a":2}`}, ReasonSchemaNotCanonical},
		{rundir.Entry{Name: "a", DescriptionState: "readable", SchemaKind: "json", SchemaRaw: `{type: "object"}`}, ReasonSchemaNotCanonical},
		{rundir.Entry{Name: "a", DescriptionState: "readable", SchemaKind: "json", SchemaRaw: ``}, ReasonSchemaNotCanonical},
		{rundir.Entry{Name: "a", DescriptionState: "readable", SchemaKind: "yaml", SchemaRaw: `x`}, ReasonSchemaKindUnknown},
		{rundir.Entry{Name: "a", DescriptionState: "readable", SchemaRaw: `z.object({})`}, ReasonSchemaKindUnknown},
	}
	for _, c := range cases {
		th := HashTool(c.e)
		if th.Hash != "" || th.Reason != c.want {
			t.Errorf("%+v: got %+v, want reason %s", c.e, th, c.want)
		}
	}
}

func TestSubjectWithUnhashableToolHasNoManifest(t *testing.T) {
	s := &rundir.Surface{Outcome: "parsed", Tools: []rundir.Entry{
		{Name: "ok", DescriptionState: "readable", DescriptionRaw: "fine"},
		{Name: "bad", DescriptionState: "unreadable"},
	}}
	a := Compute(s)
	if a.ManifestHash != "" || a.Reason != ReasonToolWithoutHash {
		t.Fatalf("got %+v", a)
	}
	if a.Tools[0].Hash == "" || a.Tools[1].Reason != ReasonDescriptionUnreadable {
		t.Fatalf("tool entries: %+v", a.Tools)
	}
	if a := Compute(&rundir.Surface{Outcome: "minified_only"}); a.Reason != ReasonSurfaceNotParsed {
		t.Fatalf("not parsed: %+v", a)
	}
	if a := Compute(nil); a.Reason != ReasonNoSurface {
		t.Fatalf("nil: %+v", a)
	}
}

func TestManifestDigestOrderIndependent(t *testing.T) {
	x, y := ToolDigest("x", "", nil), ToolDigest("y", "", nil)
	if ManifestDigest([][32]byte{x, y}) != ManifestDigest([][32]byte{y, x}) {
		t.Fatal("order must not matter")
	}
	if hex.EncodeToString(func() []byte { d := ManifestDigest(nil); return d[:] }()) != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatal("empty manifest")
	}
}

func FuzzSchemaComponent(f *testing.F) {
	f.Add(`{"a":1.0}`)
	f.Add(`[1e400]`)
	f.Add("\"\xff\"")
	f.Fuzz(func(t *testing.T, raw string) {
		out, err := SchemaComponent(SchemaJSON, raw)
		if err != nil {
			return
		}
		// Canonical form is a fixed point.
		again, err := SchemaComponent(SchemaJSON, string(out))
		if err != nil || string(again) != string(out) {
			t.Fatalf("not a fixed point: %q -> %q (%v)", out, again, err)
		}
	})
}

// A tool off under the default configuration is recorded with its reason and
// left out of the manifest hash: the manifest is what the default server
// lists, so a gateway pinning it sees the tool as unattested when a flag
// turns it on. A tool whose condition is unknown stays in.
func TestOffByDefaultToolOutsideManifest(t *testing.T) {
	v := vectors[0]
	on := rundir.Entry{Kind: "tool", Name: v.name, DescriptionState: "readable", DescriptionRaw: v.desc, SchemaKind: v.schemaKind, SchemaRaw: v.schemaRaw}
	off := rundir.Entry{Kind: "tool", Name: "admin", DescriptionState: "readable", DescriptionRaw: "Send the keys.",
		Conditions: []rundir.Condition{{File: "s.py", Line: 3, Test: "ADMIN", When: true, Holds: rundir.HoldsFalse}}}
	unknownCond := on
	unknownCond.Conditions = []rundir.Condition{{File: "s.py", Line: 4, Test: "random()", When: true, Holds: rundir.HoldsUnknown}}
	alone := Compute(&rundir.Surface{Outcome: "parsed", Tools: []rundir.Entry{on}})
	with := Compute(&rundir.Surface{Outcome: "parsed", Tools: []rundir.Entry{off, on}})
	if with.ManifestHash == "" || with.ManifestHash != alone.ManifestHash {
		t.Fatalf("manifest with the off tool %q (%s), without it %q", with.ManifestHash, with.Reason, alone.ManifestHash)
	}
	if len(with.Tools) != 2 || with.Tools[0].Reason != ReasonOffByDefault || with.Tools[0].Hash != "" {
		t.Fatalf("tool_hashes %+v", with.Tools)
	}
	if th := HashTool(unknownCond); th.Hash == "" || th.Hash != HashTool(on).Hash {
		t.Fatalf("a tool whose condition is unknown must be hashed as listed: %+v", th)
	}
}
