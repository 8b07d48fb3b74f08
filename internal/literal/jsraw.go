package literal

import "unicode/utf8"

// JSTemplateRaw is one literal segment of a JavaScript template literal read
// as its raw value, as the tag String.raw receives it (ECMAScript's TRV):
// every source character as written, backslashes and what follows them
// included, except that a line terminator sequence CRLF or a lone CR is LF.
const JSTemplateRaw = "js_template_raw"

// jsRaw decodes a template segment's raw value.
func (d *decoder) jsRaw() error {
	src := d.src
	for i := 0; i < len(src); {
		if src[i] == '\r' {
			n := 1
			if i+1 < len(src) && src[i+1] == '\n' {
				n = 2
			}
			d.emit('\n', i, i+n)
			i += n
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		d.emit(r, i, i+n)
		i += n
	}
	return nil
}
