package surface

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// setSchema records the schema component (methodology §7): canonical-ready
// JSON for a JSON literal, else the exact source bytes of the expression
// resolution stopped at, else the bytes written at the site.
func (x *extractor) setSchema(ent *rundir.Entry, v val, at *file, atNode nid) {
	switch v.k {
	case vUndefined:
		ent.SchemaKind = SchemaNone
		ent.SchemaRaw = ""
		return
	case vNeed:
		return
	}
	if v.f != nil && v.n >= 0 {
		if (v.k == vObject || v.k == vArray) && v.f.lang != LangPython {
			if js, ok := jsonLiteral(v.f, v.n); ok {
				ent.SchemaKind, ent.SchemaRaw = SchemaJSON, js
				return
			}
		}
		if (v.k == vObject || v.k == vArray) && v.f.lang == LangPython {
			if js, ok := pyJSONLiteral(v.f, v.n); ok {
				ent.SchemaKind, ent.SchemaRaw = SchemaJSON, js
				return
			}
		}
		ent.SchemaKind, ent.SchemaRaw = SchemaSource, v.f.text(v.n)
		return
	}
	ent.SchemaKind, ent.SchemaRaw = SchemaSource, at.text(atNode)
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// jsonLiteral converts a JS object/array literal made only of literals to
// JSON text: keys in first-definition order with the last value (as JS
// builds the object), strings decoded, numbers as written when they are
// valid JSON numbers.
func jsonLiteral(f *file, n nid) (string, bool) {
	var buf bytes.Buffer
	if !jsonValue(f, n, &buf, 0) {
		return "", false
	}
	return buf.String(), true
}

func jsonValue(f *file, n nid, buf *bytes.Buffer, depth int) bool {
	if depth > 64 {
		return false
	}
	switch f.kind(n) {
	case "parenthesized_expression":
		ch := f.named(n)
		return len(ch) == 1 && jsonValue(f, ch[0], buf, depth+1)
	case "string", "template_string":
		s, ok := f.stringValue(n)
		if !ok {
			return false
		}
		writeJSONString(buf, s)
		return true
	case "number":
		t := f.text(n)
		if !jsonNumber.MatchString(t) {
			return false
		}
		buf.WriteString(t)
		return true
	case "unary_expression":
		ch := f.named(n)
		if len(ch) == 1 && f.kind(ch[0]) == "number" && strings.HasPrefix(f.text(n), "-") && jsonNumber.MatchString(f.text(ch[0])) {
			buf.WriteString("-" + f.text(ch[0]))
			return true
		}
		return false
	case "true", "false", "null":
		buf.WriteString(f.kind(n))
		return true
	case "array":
		buf.WriteByte('[')
		for i, c := range f.named(n) {
			if i > 0 {
				buf.WriteByte(',')
			}
			if !jsonValue(f, c, buf, depth+1) {
				return false
			}
		}
		buf.WriteByte(']')
		return true
	case "object":
		var obj jsonMembers
		for _, c := range f.named(n) {
			if f.kind(c) != "pair" {
				return false
			}
			k := f.field(c, "key")
			var key string
			switch f.kind(k) {
			case "property_identifier":
				key = f.text(k)
			case "string":
				s, ok := f.stringValue(k)
				if !ok {
					return false
				}
				key = s
			default:
				return false
			}
			var vb bytes.Buffer
			if !jsonValue(f, f.field(c, "value"), &vb, depth+1) {
				return false
			}
			obj.set(key, vb.String())
		}
		obj.writeTo(buf)
		return true
	}
	return false
}

// jsonMembers are an object literal's members as JSON.parse and a Python
// dict keep them: a repeated key keeps its first position and its last
// value. Each value is already JSON text.
type jsonMembers struct {
	keys []string
	vals map[string]string
}

func (m *jsonMembers) set(key, value string) {
	if m.vals == nil {
		m.vals = map[string]string{}
	}
	if _, dup := m.vals[key]; !dup {
		m.keys = append(m.keys, key)
	}
	m.vals[key] = value
}

// writeTo writes the members as a JSON object.
func (m *jsonMembers) writeTo(w interface {
	io.StringWriter
	io.ByteWriter
}) {
	_ = w.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			_ = w.WriteByte(',')
		}
		writeJSONStringTo(w, k)
		_ = w.WriteByte(':')
		_, _ = w.WriteString(m.vals[k])
	}
	_ = w.WriteByte('}')
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	// Encode appends a newline.
	buf.Truncate(buf.Len() - 1)
}

func writeJSONStringTo(w io.StringWriter, s string) {
	var buf bytes.Buffer
	writeJSONString(&buf, s)
	_, _ = w.WriteString(buf.String())
}

// paramDescriptions records the parameter descriptions of a tool's schema
// (methodology §5.3): in JavaScript every text the schema carries, or an
// unreadable entry where its reading stopped (schematext.go); in Python the
// description fields of a JSON-literal schema.
func (x *extractor) paramDescriptions(c *collector, tool string, f *file, n nid, e *env) {
	if f == nil || n < 0 {
		return
	}
	if f.lang == LangPython {
		x.pyDictSchema(c, tool, f, n, e) // pyschema.go
		return
	}
	x.jsParamDescriptions(c, tool, f, n, e)
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func pathOrRoot(p string) string {
	if p == "" {
		return "(schema)"
	}
	return p
}

func (x *extractor) paramEntry(c *collector, tool, name string, f *file, n nid, e *env) {
	v := x.eval(f, n, e)
	if c.needs(v) {
		return
	}
	ent := entryBase(KindParameterDescription, f, n)
	ent.Parent, ent.Name = tool, name
	describe(&ent, v, true)
	c.entries = append(c.entries, ent)
}
