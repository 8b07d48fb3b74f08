package surface

import "github.com/attestari/attestari/internal/rundir"

// Texts chosen by configuration (methodology §5.2, Texts chosen by
// configuration; 2.3.10, part JV).
//
// A text often substitutes an environment variable with the package's own
// default (`const D = process.env.X || "web"`, `process.env.X ?? "web"`).
// Until 2.3.10 such a substitution was a hole. It is now read as the server
// is installed and started with nothing set, by the rule that decides
// registrations' tests: when the left side of `||` / `??` is decided under
// the default configuration (jsCond) to send the right side, the value is
// the right side, read by the routes of the reader it appears in; the
// configuration read is recorded on every entry of the site
// (`configuration`). What a configured server sends instead is the
// operator's own value.
//
// A ternary between two of the package's own texts (`lite ? A : B`) was not
// read this way in 2.3.10: the arm not taken is the publisher's text, which
// a configured server sends, and reading only the arm taken would have left
// it unexamined while the package graded. Since 2.3.11 it is read in
// jsbranches.go, with each arm not taken read too and recorded as an entry
// off by default (examined, its findings counted).

// jvDecide evaluates test under the default configuration. The
// configuration it reads is kept for the entries of the site (jvReads).
func (x *extractor) jvDecide(f *file, test nid, e *env) jcv {
	if f == nil || f.lang == LangPython || f.facts == nil || test < 0 {
		return jUnknown()
	}
	mark := len(x.pyConf)
	t := x.jsCond(f, test, e, 0)
	if t.ok {
		x.jvReads = append(x.jvReads, x.pyConf[mark:]...)
	}
	x.pyConf = x.pyConf[:mark]
	return t
}

// jvConstChoice is constText for `L || R` and `L ?? R` whose left side is
// decided under the default configuration to send R: R's constant text. A
// ternary between two of the package's texts is read by jbConstChoice.
func (x *extractor) jvConstChoice(f *file, n nid, e *env) (val, bool) {
	if f.lang == LangPython || f.facts == nil {
		return val{}, false
	}
	switch f.kind(n) {
	case "binary_expression":
		op := f.text(f.field(n, "operator"))
		if op != "||" && op != "??" {
			return val{}, false
		}
		l := x.jvDecide(f, f.field(n, "left"), e)
		if !l.ok {
			return val{}, false
		}
		if op == "||" && l.truth() || op == "??" && !l.nullish() {
			return val{}, false // the left side is sent: read as before
		}
		v := x.constText(f, f.field(n, "right"), e)
		if v.k != vText {
			return val{}, false
		}
		return v, true
	}
	return val{}, false
}

// jvAttachReads records the configuration read by choices while one
// reading of a site ran (from mark on) on each of its entries.
func (x *extractor) jvAttachReads(c *collector, mark int) {
	if mark > len(x.jvReads) {
		return
	}
	reads := uniqueReads(x.jvReads[mark:])
	x.jvReads = x.jvReads[:mark]
	if c.need != nil || len(reads) == 0 {
		return
	}
	for i := range c.entries {
		c.entries[i].Configuration = uniqueReads(append(append([]rundir.ConfigRead(nil), c.entries[i].Configuration...), reads...))
	}
}
