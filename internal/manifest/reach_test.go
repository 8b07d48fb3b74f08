package manifest

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// TestUnreachableToolLeftOutOfManifest: methodology 2.3.4 §5.2/§7. A tool
// registered in a module no entry point loads is recorded with the reason
// registration_unreachable and is not hashed into the manifest: the manifest
// equals the manifest of the same surface without it, even when the
// unreachable tool's own description could not be hashed at all.
func TestUnreachableToolLeftOutOfManifest(t *testing.T) {
	v := vectors[0]
	reachable := rundir.Entry{Kind: "tool", Name: v.name, DescriptionState: "readable", DescriptionRaw: v.desc, SchemaKind: v.schemaKind, SchemaRaw: v.schemaRaw}
	without := Compute(&rundir.Surface{Outcome: "parsed", Tools: []rundir.Entry{reachable}})
	for _, dead := range []rundir.Entry{
		{Kind: "tool", Name: "dead", DescriptionState: "readable", DescriptionRaw: "Never listed.", Unreachable: true},
		{Kind: "tool", Name: "dead", DescriptionState: "partial", DescriptionRaw: "Never ", Unreachable: true},
	} {
		with := Compute(&rundir.Surface{Outcome: "parsed", Tools: []rundir.Entry{dead, reachable}})
		if with.ManifestHash == "" || with.ManifestHash != without.ManifestHash || with.Reason != "" {
			t.Fatalf("%s: manifest %q (%s), want %q", dead.DescriptionState, with.ManifestHash, with.Reason, without.ManifestHash)
		}
		if len(with.Tools) != 2 || with.Tools[0].Reason != ReasonUnreachable || with.Tools[0].Hash != "" || with.Tools[1].Hash != without.Tools[0].Hash {
			t.Fatalf("tool_hashes %+v", with.Tools)
		}
	}
	// The same tool, reachable, is hashed and enters the manifest.
	live := Compute(&rundir.Surface{Outcome: "parsed", Tools: []rundir.Entry{{Kind: "tool", Name: "dead", DescriptionState: "readable", DescriptionRaw: "Never listed."}, reachable}})
	if live.ManifestHash == without.ManifestHash || live.Tools[0].Hash == "" {
		t.Fatalf("a reachable tool is attested: %+v", live)
	}
}
