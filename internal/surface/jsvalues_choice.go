package surface

import "github.com/attestari/attestari/internal/rundir"

// Texts chosen by configuration (methodology §5.2, Configuration of
// JavaScript and TypeScript servers; 2.3.10, part JV).
//
// A description is often one of two of the package's texts chosen by
// configuration (`useLite ? LITE_TOOL : TOOL`, `flag ? TEXT_A : TEXT_B`), or
// a text substituting an environment variable with the package's own
// default (`const D = process.env.X || "web"`, `process.env.X ?? "web"`).
// Until 2.3.10 such a text was "one of several values" (unreadable) or a
// hole. It is now read as the server is installed and started with nothing
// set, by the rule that decides registrations' tests: when the test (or
// the left side of `||` / `??`) is decided under the default configuration
// (jsCond: no environment variable set, no flag given, the package's own
// defaults), the value is the arm the server takes, read by the routes of
// the reader it appears in; the configuration read is recorded on every
// entry of the site (`configuration`), and the arm not taken is recorded
// as not read (`unresolved`), since it is text a configured server sends
// and this reading does not examine it. A test that is not decided leaves
// the value as before (one of several values, or a hole): never a guess.

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

// jvChoiceByDefault reads `test ? a : b` whose arms (c and a, evaluated)
// are two texts, or two object literals (whole definitions), that differ:
// the arm the default configuration takes. A choice between lists, or
// between a value and something else, is left as it was.
func (x *extractor) jvChoiceByDefault(f *file, n nid, c, a val, e *env) (val, bool) {
	if c.k != a.k || c.k != vText && c.k != vObject {
		return val{}, false // a text, or a whole definition; never a list
	}
	if _, ok := sameText([]val{c, a}); ok {
		return val{}, false // one text either way
	}
	t := x.jvDecide(f, f.field(n, "condition"), e)
	if !t.ok {
		return val{}, false
	}
	taken, other := c, f.field(n, "alternative")
	if !t.truth() {
		taken, other = a, f.field(n, "consequence")
	}
	x.addUnresolved(f.path, f.lineOf(other), "alternative not taken by default of `"+truncate(f.text(f.field(n, "condition")), 80)+"` not examined: "+truncate(f.text(other), 120))
	return taken, true
}

// jvConstChoice is constText for a choice: `test ? a : b`, `L || R` and
// `L ?? R` whose test or left side is decided under the default
// configuration, read as the constant text of the arm taken.
func (x *extractor) jvConstChoice(f *file, n nid, e *env) (val, bool) {
	if f.lang == LangPython || f.facts == nil {
		return val{}, false
	}
	switch f.kind(n) {
	case "ternary_expression":
		t := x.jvDecide(f, f.field(n, "condition"), e)
		if !t.ok {
			return val{}, false
		}
		taken, other := f.field(n, "consequence"), f.field(n, "alternative")
		if !t.truth() {
			taken, other = other, taken
		}
		v := x.constText(f, taken, e)
		if v.k != vText {
			return val{}, false
		}
		x.addUnresolved(f.path, f.lineOf(other), "alternative not taken by default of `"+truncate(f.text(f.field(n, "condition")), 80)+"` not examined: "+truncate(f.text(other), 120))
		return v, true
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
