package surface

import (
	"strconv"
	"strings"
)

// The zod and converter half of the schema reading (schematext.go).

// zodSchemaArgs are zod's constructors and methods whose arguments are
// schemas (a shape, an element, a member, an arm): each argument is read.
var zodSchemaArgs = map[string]bool{
	"object": true, "strictObject": true, "looseObject": true, "extend": true, "merge": true, "safeExtend": true,
	"array": true, "optional": true, "nullable": true, "nullish": true, "promise": true, "set": true,
	"union": true, "discriminatedUnion": true, "xor": true, "intersection": true, "and": true, "or": true,
	"tuple": true, "record": true, "partialRecord": true, "map": true, "pipe": true, "catchall": true,
	"rest": true, "element": true, "unwrap": true, "readonly": true, "preprocess": true, "exactOptional": true,
}

// zodTextFree are zod's constructors and methods that check, coerce or
// transform a value: their arguments (limits, patterns, messages, callbacks,
// defaults, masks, enum values) are not descriptions, except the
// description option of a parameters object (zodParams).
var zodTextFree = map[string]bool{
	// constructors
	"string": true, "number": true, "boolean": true, "bigint": true, "date": true, "symbol": true,
	"undefined": true, "null": true, "void": true, "any": true, "unknown": true, "never": true, "nan": true,
	"literal": true, "enum": true, "nativeEnum": true, "instanceof": true, "custom": true, "int": true,
	"int32": true, "uint32": true, "float32": true, "float64": true, "int64": true, "uint64": true,
	"email": true, "url": true, "uuid": true, "guid": true, "uuidv4": true, "uuidv6": true, "uuidv7": true,
	"ipv4": true, "ipv6": true, "cidrv4": true, "cidrv6": true, "base64": true, "base64url": true,
	"e164": true, "jwt": true, "json": true, "stringbool": true, "file": true, "templateLiteral": true,
	"hostname": true, "hex": true, "httpUrl": true,
	// checks, coercions and transformations
	"min": true, "max": true, "length": true, "positive": true, "negative": true, "nonnegative": true,
	"nonpositive": true, "finite": true, "safe": true, "gt": true, "gte": true, "lt": true, "lte": true,
	"multipleOf": true, "step": true, "cuid": true, "cuid2": true, "ulid": true, "nanoid": true, "xid": true,
	"ksuid": true, "regex": true, "includes": true, "startsWith": true, "endsWith": true, "trim": true,
	"toLowerCase": true, "toUpperCase": true, "lowercase": true, "uppercase": true, "normalize": true,
	"datetime": true, "time": true, "duration": true, "ip": true, "cidr": true, "emoji": true,
	"nonempty": true, "default": true, "prefault": true, "catch": true, "refine": true, "superRefine": true,
	"transform": true, "check": true, "overwrite": true, "brand": true, "strict": true, "passthrough": true,
	"strip": true, "pick": true, "omit": true, "partial": true, "required": true, "keyof": true,
	"size": true, "extract": true, "exclude": true, "array_": true,
}

// zodConverterOptions are the options of zodToJsonSchema and toJSONSchema
// that shape the output without adding or rewriting a description; any other
// option (override, postProcess, definitions, metadata, errorMessages, …)
// and any value not written as a literal leaves the schema unread.
var zodConverterOptions = map[string]bool{
	"name": true, "target": true, "$refStrategy": true, "basePath": true, "effectStrategy": true,
	"pipeStrategy": true, "dateStrategy": true, "mapStrategy": true, "removeAdditionalStrategy": true,
	"allowedAdditionalProperties": true, "rejectedAdditionalProperties": true, "strictUnions": true,
	"definitionPath": true, "emailStrategy": true, "base64Strategy": true, "nameStrategy": true,
	"patternStrategy": true, "applyRegexFlags": true, "openaiStrictMode": true, "markdownDescription": true,
	"io": true, "unrepresentable": true, "cycles": true, "reused": true,
}

// zodToJSONSchemaModule is the module of the zod-to-json-schema converter.
const zodToJSONSchemaModule = "zod-to-json-schema"

// isZodToJSONSchema reports whether spec is that module's converter:
// its named export zodToJsonSchema, its default export, or the module
// itself (CommonJS `const zodToJsonSchema = require(...)` is the default).
func isZodToJSONSchema(spec string) bool {
	switch spec {
	case zodToJSONSchemaModule, zodToJSONSchemaModule + ".default", zodToJSONSchemaModule + ".zodToJsonSchema",
		zodToJSONSchemaModule + ".default.zodToJsonSchema":
		return true
	}
	return false
}

// call reads a schema built by a call: a zod chain, a converter, or a
// helper whose return resolves.
func (r *schemaRead) call(f *file, n nid, e *env, path string, depth int) {
	callee := f.field(n, "function")
	args := f.args(n)
	if f.kind(callee) != "member_expression" {
		cv := r.x.eval(f, callee, e)
		if r.need(f, n, cv) {
			return
		}
		if cv.k == vExternal && isZodToJSONSchema(cv.spec) {
			r.converter(f, n, args, 0, e, path, depth)
			return
		}
		if cv.k == vExternal && cv.spec == mcpServerFromJSONSchema { // schematext_sdk.go, since 2.3.17
			r.fromJSONSchema(f, n, args, e, path, depth)
			return
		}
		if cv.k == vExternal {
			r.gap(f, n, "schema built by another package's function ("+cv.spec+")")
			return
		}
		if r.x.esbuildSpreadCall(f, n) { // schematext_esbuild.go, since 2.3.15
			if r.x.esbuildSpreadJSON(f, n, 0) {
				r.json(f, n, e, path, path == "", depth)
			} else {
				r.shape(f, n, e, path, depth)
			}
			return
		}
		r.helper(f, n, e, path, depth)
		return
	}
	method := f.text(f.field(callee, "property"))
	obj := f.field(callee, "object")
	switch {
	case method == "toJSONSchema":
		// z.toJSONSchema(s, params) or s.toJSONSchema(params).
		if r.zodRoot(f, obj, e) {
			r.converter(f, n, args, 0, e, path, depth)
			return
		}
		if len(args) > 0 && !r.converterOptions(f, args[0]) {
			return
		}
		r.node(f, obj, e, path, depth+1)
		return
	case method == "lazy" && r.zodRoot(f, obj, e):
		r.lazy(f, n, e, path, depth) // schematext_lazy.go
		return
	case method == "describe":
		if len(args) == 1 {
			r.x.paramEntry(r.c, r.tool, pathOrRoot(path), f, args[0], e)
		} else {
			r.gap(f, n, "describe() with "+strconv.Itoa(len(args))+" arguments")
		}
	case method == "meta":
		if len(args) != 1 || f.kind(args[0]) != "object" {
			r.gap(f, n, "meta() not written as an object literal")
			break
		}
		r.zodParamsObject(f, args[0], e, path)
	case zodSchemaArgs[method]:
		for i, a := range args {
			if method == "discriminatedUnion" && i == 0 && f.kind(a) == "string" {
				continue
			}
			if method == "preprocess" && i == 0 {
				continue // the callback
			}
			if i > 0 && r.zodParams(f, a, e, path) {
				continue
			}
			sub := path
			if method == "array" || method == "element" || method == "rest" || method == "set" {
				sub = path + "[]"
			}
			r.node(f, a, e, sub, depth+1)
		}
	case zodTextFree[method]:
		for _, a := range args {
			if f.kind(a) == "object" {
				r.zodParams(f, a, e, path)
			}
		}
	default:
		if r.zodRoot(f, schemaChainRoot(f, obj), e) {
			r.gap(f, n, "zod's "+method+"() not read")
			return
		}
		if method == "shape" {
			r.node(f, obj, e, path, depth+1)
			return
		}
		r.helper(f, n, e, path, depth)
		return
	}
	if r.zodRoot(f, obj, e) {
		return
	}
	r.node(f, obj, e, path, depth+1)
}

// zodRoot reports whether n is zod's namespace (an import of zod, or a
// member of it such as z.coerce), so a chain written on it ends there.
// A copy of zod bundled into the package is read as 2.3.10 read it: a
// name that resolves to an object of the package and not to a schema
// expression (a bundler's namespace object) ends the chain too.
func (r *schemaRead) zodRoot(f *file, n nid, e *env) bool {
	k := progKey{f, n, e}
	if f.kind(n) == "identifier" {
		// An imported name means the same whatever the call frame: one answer.
		if b, ok := r.x.lookup(f, n, f.text(n)); ok && b.kind == bImport {
			k = progKey{f, n, nil}
		}
	}
	if is, done := r.roots[k]; done {
		return is
	}
	is := r.zodRootOnce(f, n, e)
	if r.roots == nil {
		r.roots = map[progKey]bool{}
	}
	r.roots[k] = is
	return is
}

// schemaChainRoot is the receiver a method chain starts from: z in
// z.string().min(1).describe("…").
func schemaChainRoot(f *file, n nid) nid {
	for i := 0; i < 256 && n >= 0; i++ {
		switch f.kind(n) {
		case "call_expression":
			c := f.field(n, "function")
			if f.kind(c) != "member_expression" {
				return n
			}
			n = f.field(c, "object")
		case "parenthesized_expression", "non_null_expression":
			n = exprChild(f, n)
		default:
			return n
		}
	}
	return n
}

func (r *schemaRead) zodRootOnce(f *file, n nid, e *env) bool {
	switch f.kind(n) {
	case "identifier", "member_expression":
	default:
		return false
	}
	if f.kind(n) == "member_expression" && f.text(f.field(n, "property")) == "coerce" {
		return r.zodRoot(f, f.field(n, "object"), e)
	}
	v := r.x.eval(f, n, e)
	if v.k == vExternal {
		return zodNamespace(v.spec)
	}
	if v.f != nil && v.n >= 0 && v.f.inVendoredRegion(v.n) {
		// The receiver of a zod method, bound in bundled third-party code:
		// the package's copy of zod (rollup's frozen namespace object).
		return true
	}
	if v.k == vObject && v.f != nil && v.n >= 0 && v.f.kind(v.n) == "object" && f.kind(n) == "identifier" {
		// A namespace object: a schema would be a call, a shape is never
		// the receiver of a zod method.
		return !jsonSchemaObject(v.f, v.n) && len(v.f.named(v.n)) == 0
	}
	return false
}

// zodParams reads a zod parameters object ({ description, message, … })
// where one may stand; it reports whether a was one.
func (r *schemaRead) zodParams(f *file, a nid, e *env, path string) bool {
	if f.kind(a) != "object" {
		return false
	}
	for _, c := range f.named(a) {
		if f.kind(c) != "pair" {
			return false
		}
		switch propKeyName(f, f.field(c, "key")) {
		case "description", "message", "required_error", "invalid_type_error", "errorMap", "error", "abort", "coerce", "when":
		default:
			return false
		}
	}
	r.zodParamsObject(f, a, e, path)
	return true
}

// zodParamsObject records the description of a parameters or meta object.
func (r *schemaRead) zodParamsObject(f *file, a nid, e *env, path string) {
	for _, c := range f.named(a) {
		switch f.kind(c) {
		case "pair":
			if propKeyName(f, f.field(c, "key")) == "description" {
				r.x.paramEntry(r.c, r.tool, pathOrRoot(path), f, f.field(c, "value"), e)
			}
		case "comment":
		default:
			r.gap(f, c, "zod metadata member written as "+f.kind(c)+" not read")
		}
	}
}

// converter reads the schema a converter is handed (argument i) after its
// options (argument i+1).
func (r *schemaRead) converter(f *file, n nid, args []nid, i int, e *env, path string, depth int) {
	if len(args) <= i {
		r.gap(f, n, "converter without a schema")
		return
	}
	if len(args) > i+1 && !r.converterOptions(f, args[i+1]) {
		return
	}
	r.node(f, args[i], e, path, depth+1)
}

// converterOptions reports whether a converter's options argument leaves
// every description as the schema wrote it, recording a gap when not.
func (r *schemaRead) converterOptions(f *file, opt nid) bool {
	switch f.kind(opt) {
	case "string", "undefined":
		return true // zodToJsonSchema(s, "Name")
	case "object":
	default:
		r.gap(f, opt, "converter options not read")
		return false
	}
	for _, c := range f.named(opt) {
		if f.kind(c) == "comment" {
			continue
		}
		if f.kind(c) != "pair" {
			r.gap(f, c, "converter option written as "+f.kind(c)+" not read")
			return false
		}
		key := propKeyName(f, f.field(c, "key"))
		if !zodConverterOptions[key] || !literalValue(f, f.field(c, "value")) {
			r.gap(f, c, "converter option "+key+" may change the texts")
			return false
		}
	}
	return true
}

// helper reads a call of the package's own function by what it returns:
// its one return expression (or an arrow's expression body) is read as the
// schema with the call's arguments bound, written where the function is, so
// nothing of it is evaluated that the schema reading does not need. A
// function of bundled third-party code, one with several returns, or any
// other callee is a gap.
func (r *schemaRead) helper(f *file, n nid, e *env, path string, depth int) {
	callee := f.field(n, "function")
	fn := r.x.eval(f, callee, e)
	if r.need(f, n, fn) {
		return
	}
	name := strings.TrimSpace(f.text(callee))
	if len(name) > 60 {
		name = name[:60]
	}
	if fn.k != vFunc || fn.f == nil || fn.n < 0 || fn.f.lang == LangPython {
		r.gap(f, n, "schema built by "+name+"() not resolved: "+reasonOf(fn))
		return
	}
	if fn.f.inVendoredRegion(fn.n) && !zodBuilder(fn.f, fn.n) { // schematext_zodnew.go
		r.gap(f, n, "schema built by bundled third-party code ("+name+")")
		return
	}
	for c := e; c != nil; c = c.parent {
		if c.calling && c.scope == (scopeRef{fn.f, fn.n}) {
			r.gap(f, n, "schema built by a recursive call of "+name+"()")
			return
		}
	}
	body := fn.f.field(fn.n, "body")
	if body < 0 {
		r.gap(f, n, "schema built by "+name+"() not resolved: function without a body")
		return
	}
	ret := body
	if fn.f.kind(body) == "statement_block" {
		if p, ok := r.x.changedParam(fn.f, fn.n, body); ok { // jseval.go, since 2.3.14
			r.gap(f, n, "schema built by "+name+"(), which may change its parameter "+p+" and returns it")
			return
		}
		rets := returnsOf(fn.f, body)
		if len(rets) != 1 || len(fn.f.named(rets[0])) == 0 {
			r.gap(f, n, "schema built by "+name+"(), which has "+strconv.Itoa(len(rets))+" returns")
			return
		}
		ret = fn.f.named(rets[0])[0]
	}
	base := e
	if fn.env != nil {
		base = fn.env
	}
	ne := base.push(env{scope: scopeRef{fn.f, fn.n}, args: r.x.thunks(f, f.args(n), e), calling: true})
	r.node(fn.f, ret, ne, path, depth+1)
}
