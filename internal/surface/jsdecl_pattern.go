package surface

// Part JD (issue 15): a parameter written as an object pattern, read by the
// tests of jsconfig.go (jsCond). `tools.filter(({ isTopLevel }) =>
// isTopLevel)` binds isTopLevel to the element's field; before this route a
// destructured parameter was never known, so the filter was not decided and
// the site reading the list was `declaration_not_parsed`. The parameter's
// whole value is read exactly as a plain parameter's (the filter's element,
// the call being evaluated, or every call site agreeing), then each key of
// the path from the pattern's root to the name is read by the constant
// routes of an object literal (jsCondProp); a key's default (`{ x = d }`,
// `{ k: x = d }`) applies when the key reads as undefined. An array
// pattern, a rest pattern, a computed key and a value that is not an object
// literal the constant routes read stay not known.

// maxPatternDepth bounds the keys of one path through nested patterns.
const maxPatternDepth = 8

// patternStep is one key of the path from a parameter's pattern to a name,
// with the default written for it (none when there is none).
type patternStep struct {
	key string
	def nid
}

// jsCondPatternParam reads a name bound by an object pattern of parameter
// b.decl; any other shape of parameter is not known.
func (x *extractor) jsCondPatternParam(f *file, b binding, e *env, depth int) jcv {
	root, path, ok := patternPath(f, b.decl, b.id)
	if !ok {
		return jUnknown()
	}
	whole := binding{kind: bParam, decl: b.decl, id: root, fn: b.fn, index: b.index}
	v := x.jsCondParam(f, whole, e, depth+1)
	for i := len(path) - 1; i >= 0; i-- {
		if !v.ok {
			return jUnknown()
		}
		switch v.k {
		case 'o':
			v = x.jsCondProp(v, path[i].key, depth+1)
		default:
			return jUnknown() // undefined or null throws; anything else is not read
		}
		if v.ok && v.k == 'u' && path[i].def >= 0 {
			v = x.jsCond(f, path[i].def, e, depth+1)
		}
	}
	return v
}

// patternPath walks from the binding identifier id up to the pattern root
// that parameter p binds whole: root is the node jsCondParam reads as the
// parameter (p itself, the left of `pattern = default`, or a TypeScript
// parameter's pattern), and path lists the keys innermost first.
func patternPath(f *file, p, id nid) (root nid, path []patternStep, ok bool) {
	top := p
	switch f.kind(p) {
	case "assignment_pattern":
		top = f.field(p, "left")
	case "required_parameter", "optional_parameter":
		top = f.field(p, "pattern") // its default, if any, is read by jsCondParam
	}
	if top < 0 || f.kind(top) != "object_pattern" {
		return none, nil, false
	}
	n := id
	for steps := 0; n != top; steps++ {
		if steps > maxPatternDepth || n < 0 {
			return none, nil, false
		}
		parent := f.parent(n)
		switch f.kind(parent) {
		case "object_pattern":
			if f.kind(n) != "shorthand_property_identifier_pattern" {
				return none, nil, false
			}
			path = append(path, patternStep{key: f.text(n), def: none})
			n = parent
			continue
		case "object_assignment_pattern": // { key = default }
			if f.field(parent, "left") != n || f.kind(n) != "shorthand_property_identifier_pattern" {
				return none, nil, false
			}
			path = append(path, patternStep{key: f.text(n), def: f.field(parent, "right")})
			n = f.parent(parent)
			if f.kind(n) != "object_pattern" {
				return none, nil, false
			}
			continue
		case "assignment_pattern": // { key: name = default }
			if f.field(parent, "left") != n {
				return none, nil, false
			}
			pair := f.parent(parent)
			if f.kind(pair) != "pair_pattern" || f.field(pair, "value") != parent {
				return none, nil, false
			}
			key := propKeyName(f, f.field(pair, "key"))
			if key == "" {
				return none, nil, false
			}
			path = append(path, patternStep{key: key, def: f.field(parent, "right")})
			n = f.parent(pair)
			continue
		case "pair_pattern": // { key: name } or { key: { nested } }
			if f.field(parent, "value") != n {
				return none, nil, false
			}
			key := propKeyName(f, f.field(parent, "key"))
			if key == "" {
				return none, nil, false
			}
			path = append(path, patternStep{key: key, def: none})
			n = f.parent(parent)
			continue
		}
		return none, nil, false
	}
	if len(path) == 0 {
		return none, nil, false
	}
	return top, path, true
}
