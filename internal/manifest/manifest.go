// Package manifest owns the attested manifest of methodology §7: the tool hash
// of each parsed tool whose description is readable or absent, and the manifest hash over
// a subject's tool hashes. It is the one implementation of that definition;
// docs/manifest.md publishes the same algorithm with fixed vectors so that a
// gateway can recompute both hashes from a server's tools/list answer.
//
// It reads surface entries and nothing else: no files, no network, no policy.
// It must not guess: a tool it cannot hash under the rule gets a reason, never
// a hash computed from something other than what the rule names.
package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/gowebpki/jcs"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Schema kinds as the extractor records them on a surface entry.
const (
	SchemaJSON   = vocab.SchemaJSON   // a JSON literal: hashed as its RFC 8785 canonical form
	SchemaSource = vocab.SchemaSource // any other expression: hashed as its exact source bytes
	SchemaNone   = vocab.SchemaNone   // no schema declared: the component is empty
)

// Verification levels: what a gateway can check of a tool against what a
// server sends (methodology §7, since 2.3.6), named on every tool of a
// manifest and in a client's result.
const (
	// LevelToolHash: the whole definition. The schema a client receives is
	// the JSON literal of the source (json), or none was declared (none:
	// the component is empty whatever default the SDK sends), so the tool
	// hash is recomputed from the wire.
	LevelToolHash = "tool_hash"
	// LevelNameAndDescription: the text a model reads. The schema is
	// generated at run time (source: a zod shape, a builder call, a
	// reference), so no client can rebuild its component; the name and the
	// description are compared with the attested text.
	LevelNameAndDescription = "name_and_description"
)

// Level returns the verification level of a tool whose schema was recorded
// as kind.
func Level(kind string) string {
	if kind == SchemaSource {
		return LevelNameAndDescription
	}
	return LevelToolHash
}

// Reasons a tool has no tool hash, or a subject no manifest hash. They are
// recorded on decision rows and served with the manifest, so they are stable.
const (
	// ReasonDescriptionUnreadable: the description did not resolve to literal text.
	ReasonDescriptionUnreadable = "description_unreadable"
	// ReasonDescriptionPartial: the description has substitutions (holes).
	ReasonDescriptionPartial = "description_partial"
	// ReasonDescriptionStateUnrecorded: the surface does not say which state the
	// description is in; §5 treats that as unreadable.
	ReasonDescriptionStateUnrecorded = "description_state_unrecorded"
	// ReasonNameUnreadable: the tool's name itself was not read as literal text.
	ReasonNameUnreadable = "name_unreadable"
	// ReasonSchemaNotCanonical: schema_kind is json but the bytes are not
	// I-JSON that RFC 8785 can canonicalise (malformed, duplicate keys, ...).
	ReasonSchemaNotCanonical = "schema_not_canonicalizable"
	// ReasonSchemaKindUnknown: the schema kind is not json, source or none, or
	// schema bytes are present with no kind recorded.
	ReasonSchemaKindUnknown = "schema_kind_unknown"
	// ReasonUnreachable: the tool is registered in a module no entry point
	// of the package loads (methodology §5.2, reachability). It is recorded
	// and examined like any tool, and left out of the attested manifest: the
	// running server does not list it.
	ReasonUnreachable = "registration_unreachable"

	// ReasonOffByDefault: the tool is registered only under a configuration
	// other than the default (an environment variable or an option set), so
	// the server as installed does not list it; it was read and checked, and
	// the manifest attests the tools the default server lists (methodology
	// §5.2 Configuration, §7). It does not withhold the manifest hash.
	ReasonOffByDefault = "off_by_default"

	// ReasonToolWithoutHash: at least one parsed tool has no tool hash.
	ReasonToolWithoutHash = "tool_without_hash"
	// ReasonSurfaceNotParsed: the surface outcome is not parsed, so there is no
	// set of parsed tools to attest.
	ReasonSurfaceNotParsed = "surface_not_parsed"
	// ReasonNoSurface: the subject has no surfaces.json row.
	ReasonNoSurface = "no_surface_row"
)

// Reasons lists every reason this package can record, for the gate map's
// neighbours (docs, the API contract) to enumerate.
var Reasons = []string{
	ReasonDescriptionUnreadable, ReasonDescriptionPartial,
	ReasonDescriptionStateUnrecorded, ReasonNameUnreadable, ReasonSchemaNotCanonical,
	ReasonSchemaKindUnknown, ReasonUnreachable, ReasonOffByDefault, ReasonToolWithoutHash, ReasonSurfaceNotParsed, ReasonNoSurface,
}

// ErrSchemaNotCanonical and ErrSchemaKindUnknown classify SchemaComponent failures.
var (
	ErrSchemaNotCanonical = errors.New("schema is not canonicalisable JSON")
	ErrSchemaKindUnknown  = errors.New("unknown schema kind")
)

// SchemaComponent returns the schema bytes that enter a tool hash: the RFC 8785
// canonical JSON of raw when kind is json, raw itself when kind is source, and
// nothing when kind is none or empty with no bytes.
func SchemaComponent(kind, raw string) ([]byte, error) {
	switch kind {
	case SchemaJSON:
		if !utf8.ValidString(raw) {
			// RFC 8785 is defined over I-JSON, which is UTF-8 only.
			return nil, fmt.Errorf("schema component: %w: invalid UTF-8", ErrSchemaNotCanonical)
		}
		out, err := jcs.Transform([]byte(raw))
		if err != nil {
			return nil, fmt.Errorf("schema component: %w: %v", ErrSchemaNotCanonical, err)
		}
		return out, nil
	case SchemaSource:
		return []byte(raw), nil
	case SchemaNone:
		return nil, nil
	case "":
		if raw != "" {
			return nil, fmt.Errorf("schema component: %w: %d schema bytes with no kind", ErrSchemaKindUnknown, len(raw))
		}
		return nil, nil
	default:
		return nil, fmt.Errorf("schema component: %w: %q", ErrSchemaKindUnknown, kind)
	}
}

// ToolDigest is SHA-256(name ‖ 0x00 ‖ descriptionRaw ‖ 0x00 ‖ schemaComponent).
func ToolDigest(name, descriptionRaw string, schemaComponent []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write([]byte(descriptionRaw))
	h.Write([]byte{0})
	h.Write(schemaComponent)
	var d [32]byte
	h.Sum(d[:0])
	return d
}

// ManifestDigest is SHA-256 over the 32-byte tool digests sorted bytewise and
// concatenated. Order of the input does not matter; duplicates are kept. Zero
// digests give the SHA-256 of the empty string.
func ManifestDigest(digests [][32]byte) [32]byte {
	sorted := make([][32]byte, len(digests))
	copy(sorted, digests)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i][:], sorted[j][:]) < 0 })
	h := sha256.New()
	for _, d := range sorted {
		h.Write(d[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// ToolHash is one entry of tool_hashes: a parsed tool with its hash (lowercase
// hex) or the reason it has none.
// Field names follow the API contract's ToolHash (openapi.yaml).
type ToolHash struct {
	Name             string `json:"name"`
	DescriptionState string `json:"description_state"`
	SchemaKind       string `json:"schema_kind,omitempty"`
	File             string `json:"file,omitempty"`
	Line             int    `json:"line,omitempty"`
	Hash             string `json:"tool_hash,omitempty"`
	Reason           string `json:"reason,omitempty"`
}

// Attested is the attested manifest of one subject.
type Attested struct {
	Tools        []ToolHash `json:"tool_hashes"`
	ManifestHash string     `json:"manifest_hash,omitempty"`
	Reason       string     `json:"manifest_reason,omitempty"`
}

// HashTool computes one tool's entry of tool_hashes.
func HashTool(e rundir.Entry) ToolHash {
	th := ToolHash{Name: e.Name, DescriptionState: e.DescriptionState, SchemaKind: e.SchemaKind, File: e.File, Line: e.Line}
	if e.OffByDefault() {
		th.Reason = ReasonOffByDefault
		return th
	}
	if e.NameState != "" && e.NameState != vocab.StateReadable {
		th.Reason = ReasonNameUnreadable
		return th
	}
	desc := e.DescriptionRaw
	switch e.DescriptionState {
	case vocab.StateReadable:
	case vocab.StateAbsent:
		// docs/methodology.md §7 (a Versions line): an absent description is
		// hashed as the empty string, which is what a client receives; every
		// byte the client sees is then attested.
		desc = ""
	case vocab.StatePartial:
		th.Reason = ReasonDescriptionPartial
		return th
	case vocab.StateUnreadable:
		th.Reason = ReasonDescriptionUnreadable
		return th
	default:
		th.Reason = ReasonDescriptionStateUnrecorded
		return th
	}
	comp, err := SchemaComponent(e.SchemaKind, e.SchemaRaw)
	switch {
	case errors.Is(err, ErrSchemaNotCanonical):
		th.Reason = ReasonSchemaNotCanonical
		return th
	case err != nil:
		th.Reason = ReasonSchemaKindUnknown
		return th
	}
	d := ToolDigest(e.Name, desc, comp)
	th.Hash = hex.EncodeToString(d[:])
	return th
}

// Compute returns the attested manifest of a surface row: a tool hash or a
// reason per parsed tool, in the surface's order, and the manifest hash when
// every tool has one. A nil surface has no manifest (ReasonNoSurface); a
// surface whose outcome is not parsed has none either (ReasonSurfaceNotParsed).
// A parsed surface with no tools attests the empty set: SHA-256 of nothing.
func Compute(s *rundir.Surface) Attested {
	if s == nil {
		return Attested{Tools: []ToolHash{}, Reason: ReasonNoSurface}
	}
	a := Attested{Tools: make([]ToolHash, 0, len(s.Tools))}
	digests := make([][32]byte, 0, len(s.Tools))
	missing := false
	for _, t := range s.Tools {
		if t.Unreachable {
			// Recorded with its reason, and neither hashed into the manifest
			// nor a tool without a hash that withholds the manifest hash.
			a.Tools = append(a.Tools, ToolHash{Name: t.Name, DescriptionState: t.DescriptionState, SchemaKind: t.SchemaKind,
				File: t.File, Line: t.Line, Reason: ReasonUnreachable})
			continue
		}
		th := HashTool(t)
		a.Tools = append(a.Tools, th)
		if th.Reason == ReasonOffByDefault {
			continue // not listed by the default server: outside the manifest
		}
		if th.Hash == "" {
			missing = true
			continue
		}
		var d [32]byte
		if _, err := hex.Decode(d[:], []byte(th.Hash)); err != nil {
			// HashTool only writes hex of 32 bytes; unreachable, but fail closed.
			missing = true
			continue
		}
		digests = append(digests, d)
	}
	switch {
	case s.Outcome != vocab.OutcomeParsed:
		a.Reason = ReasonSurfaceNotParsed
	case missing:
		a.Reason = ReasonToolWithoutHash
	default:
		m := ManifestDigest(digests)
		a.ManifestHash = hex.EncodeToString(m[:])
	}
	return a
}
