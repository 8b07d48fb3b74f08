package publish

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gowebpki/jcs"
)

// A projection is how a finding that cites a structured upstream response (a
// registry record, a code host's API response) is published
// (docs/publish-contract.md, "Projections"): the RFC 8785 canonical form of
//
//	{"member": {NAME: VALUE}, "pointer": POINTER, "source_sha256": SHA}
//
// where POINTER is the RFC 6901 pointer of the object the member was taken
// from, NAME: VALUE the member the finding cites, and SHA the SHA-256 of the
// whole upstream response. The upstream bytes themselves are never published.

// Projection members.
type projection struct {
	Member       json.RawMessage `json:"member"`
	Pointer      string          `json:"pointer"`
	SourceSHA256 string          `json:"source_sha256"`
}

// ErrNotProjectable is matched (errors.Is) by every reason a projection
// cannot carry a finding's evidence: the pointer does not resolve, the
// response is not JSON, or the excerpt is not in the projection's bytes.
var ErrNotProjectable = errors.New("evidence cannot be published as a projection")

// IsPointer reports whether an evidence path is a JSON pointer into a
// structured record rather than a member path inside an artifact: RFC 6901
// ("/a/b") or its URI fragment form ("#/a/b", "#"). An artifact member path
// never starts with "/" or "#" (internal/artifact refuses absolute names).
func IsPointer(path string) bool {
	return strings.HasPrefix(path, "/") || strings.HasPrefix(path, "#")
}

// ParsePointer splits an evidence path into RFC 6901 reference tokens,
// unescaped. "" and "#" name the whole document. The fragment form is
// percent-decoded first, as RFC 6901 §6 says.
func ParsePointer(path string) ([]string, error) {
	if strings.HasPrefix(path, "#") {
		dec, err := url.PathUnescape(path[1:])
		if err != nil {
			return nil, fmt.Errorf("%w: pointer %q: %v", ErrNotProjectable, path, err)
		}
		path = dec
	}
	if path == "" {
		return nil, nil
	}
	if path[0] != '/' {
		return nil, fmt.Errorf("%w: %q is not a JSON pointer", ErrNotProjectable, path)
	}
	toks := strings.Split(path[1:], "/")
	for i, t := range toks {
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(t, "~0", ""), "~1", ""), "~") {
			return nil, fmt.Errorf("%w: pointer %q has an invalid escape", ErrNotProjectable, path)
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// formatPointer writes tokens as an RFC 6901 pointer.
func formatPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

type member struct {
	name  string
	value json.RawMessage
}

// container reads raw as an object (its members in document order, a
// repeated name refused) or an array (members named by index).
func container(raw json.RawMessage) (members []member, isObject bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, false, err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, false, err
			}
			k, _ := kt.(string)
			if seen[k] {
				return nil, false, fmt.Errorf("name %q appears twice in one object", k)
			}
			seen[k] = true
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, false, err
			}
			members = append(members, member{k, v})
		}
		return members, true, nil
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, false, err
			}
			members = append(members, member{strconv.Itoa(i), v})
		}
		return members, false, nil
	}
	return nil, false, nil
}

// Project builds the projection of upstream (whose SHA-256 is sourceSHA) for
// a finding citing path with excerpt. It returns the projection's canonical
// bytes, the pointer of the object the member was taken from, and the bytes
// a reader finds in the projection: the excerpt itself when it occurs there
// byte for byte, else its RFC 8785 form when the excerpt is a JSON value (a
// check quotes the value's upstream bytes, whose spacing and member order
// canonical form may change).
//
// Which member (docs/provenance.md, docs/publish-contract.md §4.2): the
// pointer's last reference token and the value it names, taken from the
// object (or array) the rest of the pointer names. A pointer to the whole
// document carries every member of it.
func Project(upstream []byte, sourceSHA, path, excerpt string) (proj []byte, pointer, found string, err error) {
	toks, err := ParsePointer(path)
	if err != nil {
		return nil, "", "", err
	}
	if !json.Valid(upstream) {
		return nil, "", "", fmt.Errorf("%w: the cited record is not JSON", ErrNotProjectable)
	}
	cur := json.RawMessage(upstream)
	for i, t := range toks {
		members, _, err := container(cur)
		if err != nil {
			return nil, "", "", fmt.Errorf("%w: at %s: %v", ErrNotProjectable, formatPointer(toks[:i]), err)
		}
		found := false
		for _, m := range members {
			if m.name == t {
				cur, found = m.value, true
				break
			}
		}
		if !found {
			return nil, "", "", fmt.Errorf("%w: pointer %s does not resolve (no %q at %s)", ErrNotProjectable, formatPointer(toks), t, formatPointer(toks[:i]))
		}
	}
	var mem []member
	if len(toks) == 0 {
		members, isObject, err := container(cur)
		if err != nil || !isObject {
			return nil, "", "", fmt.Errorf("%w: the cited record is not a JSON object", ErrNotProjectable)
		}
		mem = members
	} else {
		mem = []member{{toks[len(toks)-1], cur}}
		pointer = formatPointer(toks[:len(toks)-1])
	}
	var obj bytes.Buffer
	obj.WriteByte('{')
	for i, m := range mem {
		if i > 0 {
			obj.WriteByte(',')
		}
		k, _ := json.Marshal(m.name)
		obj.Write(k)
		obj.WriteByte(':')
		obj.Write(m.value)
	}
	obj.WriteByte('}')
	raw, err := json.Marshal(projection{Member: obj.Bytes(), Pointer: pointer, SourceSHA256: sourceSHA})
	if err != nil {
		return nil, "", "", fmt.Errorf("%w: %v", ErrNotProjectable, err)
	}
	proj, err = jcs.Transform(raw)
	if err != nil {
		return nil, "", "", fmt.Errorf("%w: %v", ErrNotProjectable, err)
	}
	if excerpt == "" {
		return nil, "", "", fmt.Errorf("%w: the finding quotes nothing", ErrNotProjectable)
	}
	if bytes.Contains(proj, []byte(excerpt)) {
		return proj, pointer, excerpt, nil
	}
	if json.Valid([]byte(excerpt)) {
		if c, err := jcs.Transform([]byte(excerpt)); err == nil && bytes.Contains(proj, c) {
			return proj, pointer, string(c), nil
		}
	}
	return nil, "", "", fmt.Errorf("%w: the excerpt does not occur in the projection of %s, as quoted or in canonical form", ErrNotProjectable, formatPointer(toks))
}
