package surface

import (
	"strconv"
	"strings"
)

// Parameter texts of a JavaScript or TypeScript tool schema (methodology
// §5.3, since 2.3.11). Every description a schema carries reaches the
// client in tools/list's inputSchema, so the reading of a schema either
// reads every place a description can come from, or records that it did
// not: a schema whose parameter texts were not all read yields one
// parameter_description entry in the state unreadable, with the place the
// reading stopped and why, and the package is not graded on it (§5.4,
// not_analyzed). What is read:
//
//   - a zod expression, built from zod's namespace (an import of zod, or the
//     package's own copy of it) through the methods zod documents: a
//     .describe(t), a .meta({description: t}) and the description option of
//     a constructor are the texts; the shapes, elements, members, options
//     and arms of object, array, union, tuple, record, intersection, pipe and
//     their kin are walked; the methods that check or transform a value
//     (min, regex, default, refine, transform, …) carry no text a client
//     receives;
//   - a JSON-schema object literal: the description of every subschema below
//     the root, through properties, items, the combinators (anyOf, oneOf,
//     allOf, not, …) and the definitions ($defs, definitions,
//     patternProperties);
//   - a converter whose output's descriptions are its input's texts by the
//     library's published code: zod-to-json-schema's zodToJsonSchema(s) and
//     zod 4's z.toJSONSchema(s) and s.toJSONSchema() write each schema's
//     description as the description of its node, so s is read; options that
//     can add or rewrite text (override, postProcess, definitions, metadata,
//     errorMessages, a value not written as a literal) are not read;
//   - a name, a member, a spread and a helper's return, by the extractor's
//     resolution, to one of the above.
//
// Anything else (a call into another package, a function of the package whose
// return is not resolved, a class instance, a computed key, a lazy schema, a
// method zod does not document) is a gap.

// schemaGapLimit bounds the gaps kept for one schema: the first names the
// place, the count says how many.
const schemaGapLimit = 8

// maxSchemaSteps bounds the resolution steps one schema's reading may take.
const maxSchemaSteps = 20000

// schemaVisitLimit bounds the schema expressions one schema's reading
// visits, a constant reused under several keys counted at each use: past it
// the schema is a gap. (The step limit, counted by the resolutions a reuse
// takes, is met first in the cases tested; this bound does not depend on
// how the resolution counts its steps.)
const schemaVisitLimit = 20000

// schemaDepthLimit bounds the walk over one schema (nested shapes and
// resolution hops together); past it the schema is a gap, never read in part.
const schemaDepthLimit = 96

type schemaGap struct {
	f      *file
	n      nid
	reason string
}

// schemaRead is the reading of one tool's schema.
type schemaRead struct {
	x    *extractor
	c    *collector
	tool string
	// seen holds the expressions open on the walk's path, each with the
	// count of lazy schemas open when it was entered, plus one.
	seen map[progKey]int
	// visits counts the expressions read, reuse included.
	visits int
	roots  map[progKey]bool // zodRoot's answers
	// lazyOpen are the lazy schemas being read (schematext_lazy.go).
	lazyOpen map[progKey]bool
	// deleted are the keys the package deletes from an object literal the
	// schema reading reached through a name (schematext_mut.go).
	deleted  map[progKey][]string
	mutDepth int             // literals followed by declChanges (schematext_mut.go)
	mutSteps int             // nodes its walks visited
	mutArgs  map[progKey]val // parameters bound to a literal by the call followed
	// mutFrames are the functions entered with the object as a parameter
	// (schematext_mut_wrap.go).
	mutFrames []mutFrame
	// mutCopyUse is a use of a shallow copy's name about to be classified
	// (schematext_mut_spread.go): a write or delete of the copy's own
	// member through it changes the copy, not the object.
	mutCopyUse  nid
	mutCopyFile *file
	// mutAt is where the reading stands while unchanged classifies the
	// uses (a spread's argument it reads: that use is the reading's own).
	mutAt  nid
	mutAtF *file
	// mutRecv memoises notSDKHandlerSite by call (schematext_mut_recv.go).
	mutRecv map[progKey]bool

	// mutMemo are declChanges' answers from the top (schematext_mut_handler.go).
	mutMemo map[mutMemoKey]mutMemoEntry
	schemaGaps
}

// schemaGaps are the places a schema reading (JavaScript's schemaRead,
// Python's pyTypeRead) did not read, at most schemaGapLimit of them listed
// and the rest counted.
type schemaGaps struct {
	gaps []schemaGap
	more int
}

func (r *schemaGaps) gap(f *file, n nid, reason string) {
	if len(r.gaps) >= schemaGapLimit {
		r.more++
		return
	}
	r.gaps = append(r.gaps, schemaGap{f, n, reason})
}

// record writes the first place not read as the tool's one unreadable
// (schema) entry, its reason counting the others; nothing when every place
// was read.
func (r *schemaGaps) record(x *extractor, c *collector, tool string) {
	if len(r.gaps) == 0 {
		return
	}
	g := r.gaps[0]
	reason := g.reason
	if extra := len(r.gaps) - 1 + r.more; extra > 0 {
		reason += " (and " + strconv.Itoa(extra) + " more)"
	}
	x.unreadSchema(c, tool, g.f, g.n, reason)
}

// need reports a value that needs a binding the site has not chosen: the
// schema reading does not fork the site (a fork re-reads the whole site),
// so the schema is a gap there.
func (r *schemaRead) need(f *file, n nid, v val) bool {
	if v.k != vNeed {
		return false
	}
	r.gap(f, n, "schema depends on a binding the site does not choose")
	return true
}

func (r *schemaRead) stop() bool { return r.c.need != nil || r.x.exceeded }

// jsParamDescriptions reads the parameter texts of a JavaScript schema
// expression and records the gaps.
func (x *extractor) jsParamDescriptions(c *collector, tool string, f *file, n nid, e *env) {
	r := &schemaRead{x: x, c: c, tool: tool, seen: map[progKey]int{}}
	if x.siteOver || x.exceeded {
		return
	}
	// The reading has a step limit of its own, and its steps are not taken
	// from the site's (as pyConditionsBounded): reading a schema never makes
	// the site unread; a schema that passes it is a gap. The package's step
	// limit still counts them.
	saved, before := x.siteLimit, x.steps
	x.siteLimit = x.steps + maxSchemaSteps
	if k := f.kind(n); k != "object" && k != "array" || r.unchanged(f, n, val{k: vObject, f: f, n: n}) { // schematext_mut_top.go
		r.node(f, n, e, "", 0)
	}
	if x.siteOver {
		r.gap(f, n, "the schema's reading passed its limit of "+strconv.Itoa(maxSchemaSteps)+" steps")
	}
	x.siteOver = false
	if saved > 0 {
		x.siteLimit = saved + (x.steps - before)
	} else {
		x.siteLimit = saved
	}
	if r.stop() {
		return
	}
	r.record(x, c, tool)
}

// unreadSchema records that the parameter texts of a tool's schema were not
// read: one parameter_description entry "(schema)", unreadable, at the place
// the reading stopped.
func (x *extractor) unreadSchema(c *collector, tool string, f *file, n nid, reason string) {
	ent := entryBase(KindParameterDescription, f, n)
	ent.Parent, ent.Name = tool, "(schema)"
	describe(&ent, unknown("parameter texts of the schema not read: "+reason), true)
	c.entries = append(c.entries, ent)
}

// schemaEnv is the binding a config's schema is read under: its own when
// resolution carried one, else the config object's when the schema is
// written inside it (resolution that stops at a call inside a callback keeps
// the node, not the callback's binding), else the site's.
func schemaEnv(sv, cfg val, e *env) *env {
	if sv.env != nil {
		return sv.env
	}
	if cfg.env != nil && cfg.f == sv.f && cfg.n >= 0 && sv.n >= 0 && cfg.f.start(cfg.n) <= sv.f.start(sv.n) && sv.f.end(sv.n) <= cfg.f.end(cfg.n) {
		return cfg.env
	}
	if sv.f != nil && cfg.f == sv.f && cfg.n >= 0 && cfg.f.start(cfg.n) <= sv.f.start(sv.n) && sv.f.end(sv.n) <= cfg.f.end(cfg.n) {
		return e
	}
	return sv.env
}

// node reads any schema expression.
func (r *schemaRead) node(f *file, n nid, e *env, path string, depth int) {
	if r.stop() || n < 0 {
		return
	}
	if depth > schemaDepthLimit {
		r.gap(f, n, "schema nested past the reading's depth")
		return
	}
	// seen holds the expressions open on the walk's path, not every one
	// read: a schema constant used under two keys (`command: S, cmd: S`)
	// is read under each key, so each key's text is recorded (until
	// 2.3.14 the second use was skipped, and a schema met inside itself
	// was read as nothing there). An expression met again inside itself
	// is a cycle: a gap, but for a cycle through a lazy schema opened
	// inside it (the converters write the schema once and refer to it
	// there, schematext_lazy.go; without a lazy the schema cannot be built
	// referring to itself). Reuse is bounded by the depth, the reading's
	// step limit and schemaVisitLimit.
	k := progKey{f, n, e}
	if open := r.seen[k]; open > 0 {
		if len(r.lazyOpen) < open {
			r.gap(f, n, "schema refers to itself")
		}
		return
	}
	r.visits++
	if r.visits > schemaVisitLimit {
		r.gap(f, n, "schema reused past the reading's limit of "+strconv.Itoa(schemaVisitLimit)+" expressions")
		return
	}
	r.seen[k] = len(r.lazyOpen) + 1
	defer delete(r.seen, k)
	switch f.kind(n) {
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "await_expression", "type_assertion":
		if in := exprChild(f, n); in >= 0 {
			r.node(f, in, e, path, depth+1)
			return
		}
		r.gap(f, n, "schema expression not read")
	case "object":
		if jsonSchemaObject(f, n) {
			r.json(f, n, e, path, path == "", depth+1)
			return
		}
		r.shape(f, n, e, path, depth+1)
	case "array":
		for _, el := range f.named(n) {
			r.node(f, el, e, path, depth+1)
		}
	case "call_expression":
		r.call(f, n, e, path, depth+1)
	case "identifier", "shorthand_property_identifier", "member_expression", "subscript_expression":
		if r.shapeMember(f, n, e, path, depth) { // schematext_arrow.go
			return
		}
		if f.kind(n) == "identifier" {
			// A name declared once, never assigned and used only here, as
			// a call of esbuild's spread helpers is read as that call,
			// under the binding the name is read with: nothing else can
			// change the object it holds (schematext_esbuild.go).
			if init := r.x.writtenInit(f, n); init >= 0 && init != n && r.x.esbuildSpreadCall(f, init) {
				if !r.x.usedOnlyAt(f, n) {
					r.gap(f, n, "schema built by esbuild's spread helper and used elsewhere too")
					return
				}
				r.node(f, init, e, path, depth+1)
				return
			}
		}
		r.resolved(f, n, e, path, depth+1, func(g *file, m nid, ge *env) { r.node(g, m, ge, path, depth+1) })
	case "new_expression":
		r.newSchema(f, n, e, path, depth+1)
	case "string", "template_string", "number", "true", "false", "null", "undefined", "regex":
		// A literal where a schema is expected carries no description.
	default:
		r.gap(f, n, "schema written as "+f.kind(n)+" not read")
	}
}

// exprChild is the expression inside a parenthesis, an assertion or await.
func exprChild(f *file, n nid) nid {
	for _, c := range f.named(n) {
		k := f.kind(c)
		if strings.HasSuffix(k, "_type") || k == "type_identifier" || k == "type_arguments" || k == "predefined_type" ||
			k == "nested_type_identifier" || k == "comment" {
			continue
		}
		return c
	}
	return none
}

// resolved follows a name, a member or an element to the expression it
// holds and hands it on; a zod namespace needs nothing more, and anything
// else is a gap.
func (r *schemaRead) resolved(f *file, n nid, e *env, path string, depth int, then func(*file, nid, *env)) {
	v := r.x.eval(f, n, e)
	if r.need(f, n, v) {
		return
	}
	switch {
	case v.k == vExternal && zodNamespace(v.spec):
		return
	case v.k == vExternal:
		r.gap(f, n, "schema from another package ("+v.spec+")")
		return
	case v.k == vUndefined || v.k == vNull:
		return
	}
	if v.f == nil || v.n < 0 || v.f.facts == nil || (v.f == f && v.n == n) {
		r.gap(f, n, "schema not resolved: "+reasonOf(v))
		return
	}
	if v.f.inVendoredRegion(v.n) && !f.inVendoredRegion(n) {
		r.gap(f, n, "schema from bundled third-party code")
		return
	}
	switch v.f.kind(v.n) {
	case "identifier", "member_expression", "subscript_expression":
		if v.k != vObject {
			r.gap(f, n, "schema not resolved: "+reasonOf(v))
			return
		}
	}
	if !r.unchanged(f, n, v) { // schematext_mut.go
		return
	}
	then(v.f, v.n, v.env)
}

// jsonSchemaObject tells a JSON-schema object literal from a zod raw shape:
// a JSON schema has "type" written as a string or "properties" written as
// an object; a shape's members are schemas.
func jsonSchemaObject(f *file, n nid) bool {
	for _, c := range f.named(n) {
		if f.kind(c) != "pair" {
			continue
		}
		v := f.field(c, "value")
		switch propKeyName(f, f.field(c, "key")) {
		case "type", "$schema":
			if f.kind(v) == "string" {
				return true
			}
		case "properties":
			if f.kind(v) == "object" {
				return true
			}
		}
	}
	return false
}

// members lists an object literal's members with spreads and shorthands
// followed: each is a key (empty for a computed one) and a value node.
func (r *schemaRead) members(f *file, n nid, e *env, depth int, each func(key string, g *file, v nid, ge *env)) {
	if depth > schemaDepthLimit {
		r.gap(f, n, "schema nested past the reading's depth")
		return
	}
	if f.kind(n) == "call_expression" {
		// esbuild's lowered spread, read as the literal it stands for
		// (schematext_esbuild.go; callers have checked the call).
		r.esbuildSpreadMembers(f, n, e, depth, each)
		return
	}
	each = r.withoutDeleted(r.deleted[progKey{f, n, nil}], each) // schematext_mut.go
	for _, c := range f.named(n) {
		if r.stop() {
			return
		}
		switch f.kind(c) {
		case "comment":
		case "pair":
			kn := f.field(c, "key")
			switch f.kind(kn) {
			case "property_identifier", "string", "number":
				each(propKeyName(f, kn), f, f.field(c, "value"), e)
			case "computed_property_name":
				// Since 2.3.13: [k] whose k resolves, under the binding
				// the schema is read with, to one exact text is that key
				// (a helper's parameter bound at its call, a constant);
				// anything else (a number, a symbol, a value not pinned)
				// stays a gap.
				key, ok := r.computedKey(f, kn, e)
				if r.stop() {
					return
				}
				if !ok {
					r.gap(f, c, "schema member with a computed key")
					continue
				}
				each(key, f, f.field(c, "value"), e)
			default:
				r.gap(f, c, "schema member with a computed key")
			}
		case "shorthand_property_identifier":
			each(f.text(c), f, c, e)
		case "spread_element":
			arg := exprChild(f, c)
			if arg < 0 {
				r.gap(f, c, "schema spread not read")
				continue
			}
			if r.spreadArg(f, n, c, arg, e, depth, each) {
				return
			}
		default:
			r.gap(f, c, "schema member written as "+f.kind(c)+" not read")
		}
	}
}

// computedKey is the key a computed member name [k] stands for when k
// resolves to one exact text; a value needing a binding the site has not
// chosen is recorded as such.
func (r *schemaRead) computedKey(f *file, kn nid, e *env) (string, bool) {
	in := exprChild(f, kn)
	if in < 0 {
		return "", false
	}
	v := r.x.eval(f, in, e)
	if v.k == vNeed {
		r.need(f, kn, v)
		return "", false
	}
	return plainText(v)
}

// shape reads a zod raw shape: every member is a parameter's schema.
func (r *schemaRead) shape(f *file, n nid, e *env, path string, depth int) {
	r.members(f, n, e, depth, func(key string, g *file, v nid, ge *env) {
		r.node(g, v, ge, joinPath(path, key), depth+1)
	})
}

// jsonTextFree are JSON-schema keywords whose values are not subschemas:
// no description below them is a parameter's (the runtime truth's walk
// skips enum, const, default and examples the same way).
var jsonTextFree = map[string]bool{
	"type": true, "required": true, "enum": true, "const": true, "default": true, "examples": true,
	"format": true, "title": true, "$schema": true, "$id": true, "$ref": true, "$comment": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true, "contentMediaType": true, "contentEncoding": true,
	"readOnly": true, "writeOnly": true, "deprecated": true, "nullable": true,
}

// jsonOne are keywords whose value is one subschema (or a boolean);
// jsonMany hold an array of subschemas; jsonNamed an object of them.
var (
	jsonOne = map[string]bool{
		"items": true, "additionalProperties": true, "not": true, "contains": true, "propertyNames": true,
		"if": true, "then": true, "else": true, "additionalItems": true, "unevaluatedProperties": true, "unevaluatedItems": true,
	}
	jsonMany  = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true}
	jsonNamed = map[string]bool{"properties": true, "$defs": true, "definitions": true, "patternProperties": true, "dependentSchemas": true}
)

// json reads a JSON-schema object: its own description unless it is the
// root (the tool's, not a parameter's), and every subschema.
func (r *schemaRead) json(f *file, n nid, e *env, path string, root bool, depth int) {
	r.members(f, n, e, depth, func(key string, g *file, v nid, ge *env) {
		switch {
		case key == "description":
			if !root {
				r.x.paramEntry(r.c, r.tool, pathOrRoot(path), g, v, ge)
			}
		case jsonTextFree[key]:
		case key == "properties" && r.convertedProperties(g, v, ge, path, depth+1): // schematext_choice.go
		case jsonNamed[key]:
			r.jsonObject(g, v, ge, depth+1, func(name string, h *file, m nid, he *env) {
				sub := joinPath(path, name)
				if key != "properties" {
					sub = joinPath(path, key+"."+name)
				}
				r.jsonSub(h, m, he, sub, depth+1)
			})
		case jsonOne[key]:
			sub := path
			if key == "items" || key == "additionalItems" || key == "contains" {
				sub = path + "[]"
			}
			if g.kind(v) == "array" {
				for _, el := range g.named(v) {
					r.jsonSub(g, el, ge, sub, depth+1)
				}
				return
			}
			r.jsonSub(g, v, ge, sub, depth+1)
		case jsonMany[key]:
			r.jsonArray(g, v, ge, path, depth+1)
		default:
			// An unknown keyword: a literal carries no parameter's
			// description; anything else may hold one.
			if !literalValue(g, v) {
				r.gap(g, v, "schema keyword "+key+" not read")
			}
		}
	})
}

// literalValue reports whether n is a literal, or an array or object
// literal of literals, with no description key in it.
func literalValue(f *file, n nid) bool {
	ok := true
	var walk func(m nid, d int)
	walk = func(m nid, d int) {
		if !ok || d > 32 {
			ok = false
			return
		}
		switch f.kind(m) {
		case "string", "number", "true", "false", "null", "undefined", "comment":
		case "template_string":
			if _, lit := f.stringValue(m); !lit {
				ok = false
			}
		case "unary_expression":
			ch := f.named(m)
			if len(ch) != 1 || f.kind(ch[0]) != "number" {
				ok = false
			}
		case "array":
			for _, c := range f.named(m) {
				walk(c, d+1)
			}
		case "object":
			for _, c := range f.named(m) {
				if f.kind(c) != "pair" || propKeyName(f, f.field(c, "key")) == "description" {
					ok = false
					return
				}
				walk(f.field(c, "value"), d+1)
			}
		default:
			ok = false
		}
	}
	walk(n, 0)
	return ok
}

// jsonSub reads one subschema: an object (literal or resolved), a boolean,
// or a gap.
func (r *schemaRead) jsonSub(f *file, n nid, e *env, path string, depth int) {
	if depth > schemaDepthLimit {
		r.gap(f, n, "schema nested past the reading's depth")
		return
	}
	switch f.kind(n) {
	case "true", "false":
	case "object":
		r.json(f, n, e, path, false, depth+1)
	case "call_expression":
		if r.x.esbuildSpreadCall(f, n) { // schematext_esbuild.go
			r.json(f, n, e, path, false, depth+1)
			return
		}
		r.jsonSubResolved(f, n, e, path, depth)
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		if in := exprChild(f, n); in >= 0 {
			r.jsonSub(f, in, e, path, depth+1)
			return
		}
		r.gap(f, n, "schema expression not read")
	case "identifier", "member_expression", "subscript_expression":
		r.jsonSubResolved(f, n, e, path, depth)
	default:
		r.gap(f, n, "subschema written as "+f.kind(n)+" not read")
	}
}

// jsonSubResolved reads a subschema written as a name, a member or a call
// by the object literal it resolves to.
func (r *schemaRead) jsonSubResolved(f *file, n nid, e *env, path string, depth int) {
	v := r.x.eval(f, n, e)
	if r.need(f, n, v) {
		return
	}
	if v.k == vBool || v.k == vUndefined {
		return
	}
	if v.k == vObject && v.f != nil && v.n >= 0 && v.f.kind(v.n) == "object" && !(v.f == f && v.n == n) {
		if !r.unchanged(f, n, v) {
			return
		}
		r.json(v.f, v.n, v.env, path, false, depth+1)
		return
	}
	r.gap(f, n, "subschema not resolved: "+reasonOf(v))
}

// jsonObject resolves an object of named subschemas and hands on each.
func (r *schemaRead) jsonObject(f *file, n nid, e *env, depth int, each func(string, *file, nid, *env)) {
	if f.kind(n) != "object" && !r.x.esbuildSpreadCall(f, n) {
		v := r.x.eval(f, n, e)
		if r.need(f, n, v) {
			return
		}
		if v.k == vUndefined {
			return
		}
		if v.k != vObject || v.f == nil || v.n < 0 || v.f.kind(v.n) != "object" {
			r.gap(f, n, "schema properties not resolved: "+reasonOf(v))
			return
		}
		if !r.unchanged(f, n, v) {
			return
		}
		f, n, e = v.f, v.n, v.env
	}
	r.members(f, n, e, depth, func(key string, g *file, v nid, ge *env) { each(key, g, v, ge) })
}

// jsonArray resolves an array of subschemas and reads each.
func (r *schemaRead) jsonArray(f *file, n nid, e *env, path string, depth int) {
	if f.kind(n) != "array" {
		v := r.x.eval(f, n, e)
		if r.need(f, n, v) {
			return
		}
		if v.f == nil || v.n < 0 || v.f.kind(v.n) != "array" {
			r.gap(f, n, "schema list not resolved: "+reasonOf(v))
			return
		}
		if !r.unchanged(f, n, v) {
			return
		}
		f, n, e = v.f, v.n, v.env
	}
	for _, el := range f.named(n) {
		if f.kind(el) == "spread_element" {
			r.gap(f, el, "schema list spread not read")
			continue
		}
		r.jsonSub(f, el, e, path, depth+1)
	}
}
