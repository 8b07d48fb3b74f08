package surface

import (
	"strings"
)

// Python docstrings: the text a client receives when a function is
// registered without an explicit description is not the literal's value.
// The official SDK's FastMCP (mcp.server.fastmcp) sends fn.__doc__, which
// the interpreter itself cleans since Python 3.13 (the compiler's
// _PyCompile_CleanDoc); the standalone fastmcp package sends
// inspect.getdoc(fn), that is inspect.cleandoc. docs/extractor.md lists
// both. Each is applied to the decoded docstring by keeping source ranges,
// so every kept byte still maps to its source bytes.

// Docstring transformations.
const (
	pyDocCompiler = "compiler" // __doc__ as Python 3.13+ stores it
	pyDocGetdoc   = "getdoc"   // inspect.getdoc / inspect.cleandoc
)

// pyDocMode says which transformation the package's framework applies:
// inspect.getdoc when the package imports the standalone fastmcp and not
// the official SDK's FastMCP, __doc__ otherwise. An import of only inert
// names from the SDK (its Context, Image, ...) is not the SDK's FastMCP
// (pyread6_docmode.go).
func (x *extractor) pyDocMode() string {
	if x.pyDoc != "" {
		return x.pyDoc
	}
	standalone, official := false, false
	for _, f := range x.files {
		if f.lang != LangPython || f.parsed == nil {
			continue
		}
		f.eachOfKinds(func(n nid) {
			var mod string
			switch f.pk(n) {
			case pkImportFromStatement:
				mod = f.text(f.field(n, "module_name"))
			case pkImportStatement:
				for _, c := range f.named(n) {
					if t := f.text(c); t == "fastmcp" || strings.HasPrefix(t, "fastmcp.") || strings.HasPrefix(t, "fastmcp ") {
						standalone = true
					}
					if pyImportStatementSDK(f, c) {
						official = true
					}
				}
				return
			}
			switch {
			case mod == "fastmcp" || strings.HasPrefix(mod, "fastmcp."):
				standalone = true
			case mod == "mcp.server.fastmcp" || strings.HasPrefix(mod, "mcp.server.fastmcp."):
				if pyImportsSDKRegistrar(f, n) {
					official = true
				}
			case pyImportFromSDKServer(f, n, mod):
				official = true
			}
		}, pkImportStatement, pkImportFromStatement)
	}
	x.pyDoc, x.pyFastMCP = pyDocCompiler, standalone
	if standalone && !official {
		x.pyDoc = pyDocGetdoc
	}
	return x.pyDoc
}

// pyDocText applies the package's docstring transformation.
func (x *extractor) pyDocText(v val) val {
	if v.k != vText {
		return v
	}
	if v.txt.partial() {
		return unknown("docstring with substitutions")
	}
	// Both transformations first expand tabs to spaces, which no range of
	// the source reproduces: a tab is kept as a tab (docs/extractor.md
	// states this limit).
	if x.pyDocMode() == pyDocGetdoc {
		return pyCleandoc(v)
	}
	return pyCompilerCleanDoc(v)
}

// pyCompilerCleanDoc is what Python 3.13+ stores as __doc__: the first
// line's leading spaces removed; from every later line, up to the smallest
// indentation (in spaces) of the later lines that hold more than spaces;
// blank lines and trailing spaces kept.
func pyCompilerCleanDoc(v val) val {
	raw := v.txt.raw()
	lines := strings.SplitAfter(raw, "\n")
	margin := -1
	for i, l := range lines {
		if i == 0 {
			continue
		}
		body := strings.TrimSuffix(l, "\n")
		ind := len(body) - len(strings.TrimLeft(body, " "))
		if ind == len(body) {
			continue // only spaces: blank
		}
		if margin < 0 || ind < margin {
			margin = ind
		}
	}
	if margin < 0 {
		margin = 0
	}
	return keepRanges(v.txt, func(yield func(a, b int)) {
		off := 0
		for i, l := range lines {
			lead := len(l) - len(strings.TrimLeft(l, " "))
			if i > 0 {
				lead = min(lead, margin)
			}
			yield(off+lead, off+len(l))
			off += len(l)
		}
	})
}

// pyCleandoc is inspect.cleandoc: the first line stripped of leading
// whitespace; the smallest indentation of the later non-blank lines cut
// from every later line; then leading and trailing empty lines removed and
// the lines joined without a final newline.
func pyCleandoc(v val) val {
	raw := v.txt.raw()
	lines := strings.Split(raw, "\n")
	margin := -1
	for _, l := range lines[1:] {
		content := len(strings.TrimLeft(l, pyWhitespace))
		if content > 0 {
			if ind := len(l) - content; margin < 0 || ind < margin {
				margin = ind
			}
		}
	}
	type rng struct{ a, b int }
	kept := make([]rng, len(lines))
	off := 0
	for i, l := range lines {
		var lead int
		if i == 0 {
			lead = len(l) - len(strings.TrimLeft(l, pyWhitespace))
		} else if margin >= 0 {
			lead = min(margin, len(l))
		}
		kept[i] = rng{off + lead, off + len(l)}
		off += len(l) + 1
	}
	first, last := 0, len(lines)-1
	for last >= 0 && kept[last].a == kept[last].b {
		last--
	}
	for first <= last && kept[first].a == kept[first].b {
		first++
	}
	if first > last {
		return val{k: vText, txt: &textv{}}
	}
	return keepRanges(v.txt, func(yield func(a, b int)) {
		for i := first; i <= last; i++ {
			b := kept[i].b
			if i < last {
				b++ // the newline joining it to the next line
			}
			yield(kept[i].a, b)
		}
	})
}

// pyWhitespace is what str.lstrip() removes from ASCII text.
const pyWhitespace = " \t\n\r\v\f"
