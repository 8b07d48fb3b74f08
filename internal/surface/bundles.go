package surface

import (
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// bundleSite is a registration site inside a minified bundle: a JS/TS site,
// or the node of a Python one.
type bundleSite struct {
	f  *file
	js siteRef
	py nid
}

// readBundleSites applies §5.2's bundle rule once every readable site has
// been read. Registration text that exists only in bundles is minified_only
// (decideOutcome). When readable source registers too, the bundle's own
// sites are read like any member being read, so its entries are on the
// surface rather than silently missing from a "parsed" one; their text is
// unreadable (bundleText), and calls inside the bundle are still never
// indexed, so what they cannot resolve fails the site. A Python site in a
// bundle is not read and fails.
func (x *extractor) readBundleSites() {
	if x.readSites == 0 || len(x.bundleSites) == 0 {
		return
	}
	reached := x.reachedFromEntries()
	for _, b := range x.bundleSites {
		if x.exceeded {
			return
		}
		if reached != nil && !reached[b.f] {
			// A bundle no entry point loads (a browser bundle for a UI, a
			// build artefact) is not the server's registration.
			continue
		}
		if b.f.lang == LangPython {
			x.siteFailed(b.f, b.py, "registration site inside a minified bundle is not read")
			continue
		}
		x.jsReadSite(b.f, b.js)
	}
}

// reachedFromEntries is the import closure of the package's entry points
// (package.json main, module, bin, exports), or nil when none is known.
func (x *extractor) reachedFromEntries() map[*file]bool {
	if len(x.entryFiles) == 0 {
		return nil
	}
	reached := map[*file]bool{}
	queue := append([]*file(nil), x.entryFiles...)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if reached[f] {
			continue
		}
		reached[f] = true
		if f.facts == nil {
			continue
		}
		for _, im := range f.facts.imports {
			if t := x.resolveModule(f, im.spec); t != nil && t.parsed != nil && !reached[t] {
				queue = append(queue, t)
			}
		}
	}
	return reached
}

// bundleText applies §5.2's description states to text that sits in a
// minified bundle: it is unreadable, whatever its literal form. A name read
// from a bundle stays a name.
func (x *extractor) bundleText(e *rundir.Entry) {
	inBundle := false
	for _, sp := range e.Spans {
		if f := x.byPath[sp.File]; f != nil && f.minified {
			inBundle = true
			break
		}
	}
	for _, h := range e.Holes {
		if f := x.byPath[h.File]; f != nil && f.minified {
			inBundle = true
			break
		}
	}
	if !inBundle {
		return
	}
	e.DescriptionState = vocab.StateUnreadable
	e.UnreadableReason = "the text sits in a minified bundle"
	e.DescriptionRaw = ""
	e.Spans = []rundir.Span{}
	e.Holes = []rundir.Hole{}
}
