package surface

import "github.com/attestari/attestari/internal/literal"

// rawTag reports whether a tagged template's tag is the global String.raw,
// whose result is defined by the language exactly: the template's raw
// segments (each source character as written, a CRLF or lone CR as LF)
// joined with its substitutions' values. The segments are recorded in the
// encoding js_template_raw, so the verifier decodes them as String.raw does.
// A String the package declares is not the global one, and any other tag
// (dedent, outdent, a package's own) stays a transformation not followed.
func (x *extractor) rawTag(f *file, callee nid) (string, bool) {
	if f.lang == LangPython || f.kind(callee) != "member_expression" {
		return "", false
	}
	obj, prop := f.field(callee, "object"), f.field(callee, "property")
	if f.kind(obj) != "identifier" || f.text(obj) != "String" || f.text(prop) != "raw" {
		return "", false
	}
	if _, declared := x.lookup(f, obj, "String"); declared {
		return "", false
	}
	return literal.JSTemplateRaw, true
}
