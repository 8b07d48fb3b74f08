package surface

import (
	"strconv"
	"strings"
)

// A JavaScript write's object resolved within a bound of its own (since
// 2.3.21, stp). jsMemberWrite resolves the object of every write of a key,
// and of every write through a computed key or of a prototype, in the
// package, once per write (outWriteObjects). An object that is a
// parameter is resolved through its function's call sites, each call
// checked by resolving its callee, and a callee that is a parameter's
// member through that function's call sites in turn: in a bundle that walk
// has no useful bound (mcp-discord 1.3.4: the check of `this.server`, the
// receiver of its setRequestHandler, meets express's own
// `Object.setPrototypeOf(req, this.request)` in `app.handle`, whose `req`
// is resolved through every call of a method named `handle` in the
// bundle: 2,069 call-site enumerations of 216 functions, over 600,000
// steps; the first schema reading that needs the check passed its limit
// of 20,000 steps, as it did at 200,000). Until 2.3.20 the answer that
// walk gave when the limit cut it (the object not resolved) was kept for
// the package, so every later check counted that write as reaching
// nothing: the other 21 schemas of mcp-discord were read through a write
// never resolved (a fail-open, in every member read after a check cut by
// a limit).
//
// Now each JavaScript write's object is resolved within outWriteSteps.
// Past them the write is cut: it is counted as reaching every object the
// check asks about (fail closed: the member read is not read, its reason
// naming the write), and that is kept for the package, as a resolved
// answer is. An answer cut by the step limit of the site or schema around
// it (rather than by this bound) is not kept: the next check resolves it
// again. A write whose object is resolved, to nothing the check asks
// about or not at all, is counted as before.

// outWriteSteps bounds the resolution of one JavaScript write's object.
const outWriteSteps = 10_000

// boundOutWrite sets the step limit for resolving write w's object (a
// JavaScript write), returning the limit around it; bounded false when w
// is not bounded here (a Python write, or a resolution already past the
// limit around it).
func (x *extractor) boundOutWrite(w outsideWrite) (saved int, bounded bool) {
	if w.f.lang == LangPython || x.siteOver || x.exceeded {
		return 0, false // past the limit around it already: resolved as before, not kept
	}
	saved = x.siteLimit
	if lim := x.steps + outWriteSteps; saved <= 0 || lim < saved {
		x.siteLimit = lim
	}
	return saved, true
}

// unboundOutWrite restores the limit around the resolution boundOutWrite
// bounded and reports whether its own bound cut it (the limit around it
// not passed).
func (x *extractor) unboundOutWrite(saved int, bounded bool) (cut bool) {
	if !bounded {
		return false
	}
	if x.siteOver && !(saved > 0 && x.steps > saved) && !x.exceeded {
		cut = true
		x.siteOver = false
	}
	x.siteLimit = saved
	return cut
}

// jsWriteCut reports whether the resolution of write w's object (of the
// class whose prototype w writes, for `C.prototype`) was cut by
// outWriteSteps.
func (x *extractor) jsWriteCut(w outsideWrite) bool {
	on := w.on
	if w.f.kind(on) == "member_expression" && w.f.text(w.f.field(on, "property")) == "prototype" {
		on = w.f.field(on, "object")
	}
	return x.pyReg.outCut[scopeRef{w.f, on}]
}

// outCutMark is in the reason of every member read a cut write refused.
const outCutMark = "(the write's object not resolved within "

// outCutReason is jsMemberWrite's reason for a write whose object was not
// resolved within outWriteSteps.
func outCutReason(key string, w outsideWrite) string {
	return "member " + key + " may be written at " + w.f.path + ":" + strconv.Itoa(w.f.lineOf(w.site)) +
		" " + outCutMark + strconv.Itoa(outWriteSteps) + " steps)"
}

// outWriteCutValue reports whether v is unresolved because a member read
// on its way was refused for a cut write. The schema check's wrapperSite
// takes such a callee as possibly the package's own function (the route
// is then followed into it, and a callee not resolved is a gap): a
// registration's receiver the check could not resolve is not taken for
// the SDK's.
func outWriteCutValue(v val) bool {
	return v.k == vUnknown && strings.Contains(v.reason, outCutMark)
}
