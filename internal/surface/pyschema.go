package surface

import "strings"

// Parameter texts of a Python tool's input schema (methodology §5.3, since
// 2.3.12). A function registered as a tool is sent to the client with the
// input schema its framework builds from the signature through pydantic
// (the official SDK's func_metadata builds a model of the parameters and
// sends model_json_schema(); the standalone fastmcp sends a TypeAdapter's
// json_schema()). Every text that schema carries comes from a place of the
// signature: a parameter's Field(description=...), the metadata of an
// Annotated type, and the classes its annotations name (a pydantic model's
// docstring and its fields' descriptions, an Enum's docstring, written to
// $defs). A low-level server's Tool(inputSchema=...) is a dict sent as it
// is. The reading either reads every such place exactly, or records one
// parameter_description entry "(schema)", unreadable, at the first place it
// did not read (schematext.go's record), and the package is not graded on
// it (§5.4, not_analyzed).

// pyTypeDepthLimit bounds the walk over one parameter's types (nested
// generics, aliases, model fields and their classes together).
const pyTypeDepthLimit = 32

// pyTypeRead is the reading of one tool's parameter texts.
type pyTypeRead struct {
	x    *extractor
	c    *collector
	tool string
	// models are the classes already read for this tool: pydantic writes a
	// class once in $defs, whatever number of parameters name it, and a
	// class that names itself (a tree) is read once.
	models map[scopeRef]bool
	// scope holds the classes defined in the body of the model being read:
	// a field's annotation names them in the class's own namespace.
	scope map[string]val
	schemaGaps
}

func (r *pyTypeRead) stop() bool { return r.c.need != nil || r.x.exceeded }

// finish records the first gap, with the count of the others.
func (r *pyTypeRead) finish() {
	if r.stop() {
		return
	}
	r.record(r.x, r.c, r.tool)
}

// pyNoTextTypes are the types outside the package whose schema carries no
// text: builtins (an unbound name evaluates to its own spelling), typing's
// and the standard library's value types, and pydantic's constrained
// scalars. A type outside this list, or outside the package, is a gap.
var pyNoTextTypes = map[string]bool{
	"str": true, "int": true, "float": true, "bool": true, "bytes": true, "dict": true, "list": true,
	"tuple": true, "set": true, "frozenset": true, "object": true, "None": true, "complex": true, "bytearray": true,
	"typing.Any": true, "typing.Optional": true, "typing.Union": true, "typing.List": true, "typing.Dict": true,
	"typing.Tuple": true, "typing.Set": true, "typing.FrozenSet": true, "typing.Sequence": true,
	"typing.Mapping": true, "typing.Iterable": true, "typing.MutableMapping": true, "typing.MutableSequence": true,
	"typing_extensions.Any": true, "typing_extensions.Optional": true, "typing_extensions.Union": true,
	"collections.abc.Sequence": true, "collections.abc.Mapping": true, "collections.abc.Iterable": true,
	"datetime.datetime": true, "datetime.date": true, "datetime.time": true, "datetime.timedelta": true,
	"uuid.UUID": true, "pathlib.Path": true, "decimal.Decimal": true,
	"pydantic.AnyUrl": true, "pydantic.HttpUrl": true, "pydantic.AnyHttpUrl": true, "pydantic.EmailStr": true,
	"pydantic.SecretStr": true, "pydantic.PositiveInt": true, "pydantic.NonNegativeInt": true,
	"pydantic.PositiveFloat": true, "pydantic.NonNegativeFloat": true, "pydantic.StrictStr": true,
	"pydantic.StrictInt": true, "pydantic.StrictBool": true, "pydantic.StrictFloat": true,
	"pydantic.FilePath": true, "pydantic.DirectoryPath": true, "pydantic.Json": true,
}

// pyLiteralTypes hold values, not types: their arguments are the schema's
// enum or const, which carry no parameter's description.
var pyLiteralTypes = map[string]bool{"typing.Literal": true, "typing_extensions.Literal": true}

// pyAnnotatedTypes carry metadata after their first argument.
var pyAnnotatedTypes = map[string]bool{"typing.Annotated": true, "typing_extensions.Annotated": true}

// pyContextType reports whether an annotation names the framework's
// Context, which FastMCP leaves out of the schema (the parameter is
// injected, not sent).
func pyContextType(spec string) bool {
	if !strings.HasSuffix(spec, ".Context") {
		return false
	}
	return strings.HasPrefix(spec, "mcp.") || strings.HasPrefix(spec, "fastmcp.") || spec == "fastmcp.Context"
}

// pyParamDescriptions reads the parameter texts of a registered function:
// each parameter's annotation and default, as the framework's schema
// carries them.
func (x *extractor) pyParamDescriptions(c *collector, tool string, f *file, params nid, e *env) {
	if x.siteOver || x.exceeded {
		return
	}
	r := &pyTypeRead{x: x, c: c, tool: tool, models: map[scopeRef]bool{}}
	for _, p := range f.named(params) {
		if r.stop() {
			return
		}
		switch f.kind(p) {
		case "list_splat_pattern", "dictionary_splat_pattern", "keyword_separator", "positional_separator":
			continue
		case "typed_parameter":
			// *args: T and **kwargs: T are not schema members either.
			if ch := f.named(p); len(ch) > 0 && f.kind(ch[0]) != "identifier" {
				continue
			}
		}
		name := pyParamName(f, p)
		if name == "" || name == "self" || name == "cls" || name == "ctx" {
			continue
		}
		t := f.field(p, "type")
		if t >= 0 && r.isContext(f, t, e) {
			continue
		}
		if t >= 0 {
			r.typ(f, t, e, name, 0)
		}
		if v := f.field(p, "value"); v >= 0 {
			r.fieldValue(f, v, e, name, 0)
		}
	}
	r.finish()
}

// isContext reports an annotation naming the framework's Context (also
// Context[...] and Optional[Context]).
func (r *pyTypeRead) isContext(f *file, t nid, e *env) bool {
	found := false
	f.walk(t, func(n nid) bool {
		if found {
			return false
		}
		switch f.kind(n) {
		case "identifier", "attribute":
			if v := r.x.eval(f, n, e); v.k == vExternal && pyContextType(v.spec) {
				found = true
			}
			return false
		}
		return true
	})
	return found
}

// typ reads a type expression (an annotation, an alias's value, a type
// argument) for the texts its schema carries.
func (r *pyTypeRead) typ(f *file, n nid, e *env, path string, depth int) {
	if r.stop() {
		return
	}
	if depth > pyTypeDepthLimit {
		r.gap(f, n, "type nested past the reading's depth")
		return
	}
	switch f.kind(n) {
	case "type", "parenthesized_expression":
		ch := f.named(n)
		if len(ch) != 1 {
			r.gap(f, n, "type written as "+f.kind(n)+" not read")
			return
		}
		r.typ(f, ch[0], e, path, depth+1)
	case "none":
	case "union_type", "constrained_type":
		for _, ch := range f.named(n) {
			r.typ(f, ch, e, path, depth+1)
		}
	case "binary_operator":
		if op := f.field(n, "operator"); op < 0 || f.text(op) != "|" {
			r.gap(f, n, "type written as an operation not read")
			return
		}
		r.typ(f, f.field(n, "left"), e, path, depth+1)
		r.typ(f, f.field(n, "right"), e, path, depth+1)
	case "identifier", "attribute", "member_type":
		r.named(f, n, e, path, depth)
	case "generic_type":
		ids := f.named(n)
		if len(ids) != 2 || f.kind(ids[1]) != "type_parameter" {
			r.gap(f, n, "generic type not read")
			return
		}
		r.generic(f, n, ids[0], f.named(ids[1]), e, path, depth)
	case "subscript":
		r.generic(f, n, f.field(n, "value"), pySubscripts(f, n), e, path, depth)
	case "string", "concatenated_string":
		r.gap(f, n, "type written as a string (a forward reference) not read")
	default:
		r.gap(f, n, "type written as "+f.kind(n)+" not read")
	}
}

// pySubscripts are the arguments of X[a, b] as an expression.
func pySubscripts(f *file, n nid) []nid {
	var out []nid
	val := f.field(n, "value")
	for _, c := range f.named(n) {
		if c == val || f.kind(c) == "comment" {
			continue
		}
		out = append(out, c)
	}
	return out
}

// generic reads T[args]: typing's containers and unions walk their
// arguments, Literal carries values, Annotated its metadata; a class of
// the package is read and its arguments walked.
func (r *pyTypeRead) generic(f *file, at, head nid, args []nid, e *env, path string, depth int) {
	v := r.x.eval(f, head, e)
	if c := r.c; c.needs(v) {
		return
	}
	switch {
	case v.k == vExternal && pyLiteralTypes[v.spec]:
		return
	case v.k == vExternal && pyAnnotatedTypes[v.spec]:
		if len(args) == 0 {
			r.gap(f, at, "Annotated without a type")
			return
		}
		r.typ(f, args[0], e, path, depth+1)
		for _, m := range args[1:] {
			if pyBareString(f, m) {
				// pydantic (and so the SDK's FastMCP) ignores a bare string
				// in Annotated metadata; the standalone fastmcp (2.11 on,
				// utilities/types.py get_cached_typeadapter) makes
				// Annotated[T, "text"], exactly one metadata item, of a
				// function's own parameter (also through an alias)
				// Field(description="text"). It is read wherever the package
				// imports the standalone fastmcp and the form has one
				// metadata item (the text may be sent; nested deeper it is
				// not, an over-reading kept on the safe side), and nowhere
				// else (it is not sent).
				if r.x.pyDocMode() != "" && r.x.pyFastMCP && len(args) == 2 {
					r.x.paramEntry(r.c, r.tool, path, f, pyUnwrapType(f, m), e)
				}
				continue
			}
			r.metadata(f, m, e, path, depth+1)
		}
		return
	case v.k == vExternal && pyNoTextTypes[v.spec]:
	case v.k == vClass:
		r.class(v, f, head, path, depth+1)
	default:
		r.gap(f, head, "type "+f.text(head)+" not read: "+pyTypeReason(v))
		return
	}
	for _, a := range args {
		r.typ(f, a, e, path, depth+1)
	}
}

func pyTypeReason(v val) string {
	switch v.k {
	case vExternal:
		return "a type of another package or module (" + v.spec + ")"
	case vClass:
		return "a class of the package"
	}
	return reasonOf(v)
}

// named reads a type written as a name: a type of the list above, a class
// of the package, or an alias of the package bound to a type expression.
func (r *pyTypeRead) named(f *file, n nid, e *env, path string, depth int) {
	if f.kind(n) == "identifier" {
		if cls, ok := r.scope[f.text(n)]; ok {
			r.class(cls, f, n, path, depth+1)
			return
		}
	}
	if f.kind(n) == "attribute" {
		// Outer.Inner: a class defined in the body of a class of the package.
		if ov := r.x.eval(f, f.field(n, "object"), e); ov.k == vClass {
			attr := f.text(f.field(n, "attribute"))
			for _, st := range ov.f.named(ov.f.field(ov.n, "body")) {
				if ov.f.kind(st) == "class_definition" && ov.f.text(ov.f.field(st, "name")) == attr {
					r.class(val{k: vClass, f: ov.f, n: st, env: ov.env}, f, n, path, depth+1)
					return
				}
			}
		}
	}
	v := r.x.eval(f, n, e)
	if r.c.needs(v) {
		return
	}
	switch {
	case v.k == vExternal && (pyNoTextTypes[v.spec] || pyLiteralTypes[v.spec]):
	case v.k == vNull:
	case v.k == vClass:
		r.class(v, f, n, path, depth+1)
	default:
		if f.kind(n) == "identifier" {
			if af, an, ok := r.x.pyTypeAlias(f, n, f.text(n), 0); ok {
				r.typ(af, an, nil, path, depth+1)
				return
			}
		}
		r.gap(f, n, "type "+f.text(n)+" not read: "+pyTypeReason(v))
	}
}

// pyTypeAlias finds the type expression a name is bound to when it is an
// alias of the package: one module-level assignment NAME = <type> (also
// through from-imports of the package's modules), at most 16 hops.
func (x *extractor) pyTypeAlias(f *file, n nid, name string, hops int) (*file, nid, bool) {
	bf, bn, ok := x.pyModuleBinding(f, n, name, hops)
	if !ok {
		return nil, none, false
	}
	switch bf.kind(bn) {
	case "subscript", "binary_operator", "identifier", "attribute", "none":
		return bf, bn, true
	}
	return nil, none, false
}

// pyModuleBinding finds the one value a name is assigned (NAME = value,
// written once in its module or function), through from-imports of the
// package's modules, at most 16 hops.
func (x *extractor) pyModuleBinding(f *file, n nid, name string, hops int) (*file, nid, bool) {
	if hops > 16 || f.pyFacts == nil {
		return nil, none, false
	}
	var ds []nid
	if n >= 0 {
		loop, scope, ok := x.pyLookup(f, n, name)
		if !ok || loop >= 0 {
			return nil, none, false
		}
		ds = f.pyFacts.scopeDecls(f, scope)[name]
		if scope != 0 && len(ds) == 1 && f.kind(ds[0]) != "assignment" {
			return nil, none, false // a parameter, a loop or an import inside a function
		}
	} else {
		ds = f.pyFacts.scopeDecls(f, 0)[name]
	}
	if len(ds) != 1 {
		return nil, none, false
	}
	d := ds[0]
	switch f.kind(d) {
	case "assignment":
		left, right := f.field(d, "left"), f.field(d, "right")
		if f.kind(left) != "identifier" || right < 0 || f.kind(f.parent(d)) != "expression_statement" {
			return nil, none, false
		}
		return f, right, true
	case "dotted_name", "aliased_import":
		stmt := f.parent(d)
		if f.kind(stmt) != "import_from_statement" {
			return nil, none, false
		}
		imported := f.text(d)
		if f.kind(d) == "aliased_import" {
			imported = f.text(f.field(d, "name"))
		}
		target := x.pyResolveModule(f, f.text(f.field(stmt, "module_name")))
		if target == nil || target == f || strings.Contains(imported, ".") {
			return nil, none, false
		}
		return x.pyModuleBinding(target, none, imported, hops+1)
	}
	return nil, none, false
}

// pyUnwrapType is the expression inside a one-child "type" node.
func pyUnwrapType(f *file, n nid) nid {
	if f.kind(n) == "type" {
		if ch := f.named(n); len(ch) == 1 {
			return ch[0]
		}
	}
	return n
}

// pyBareString reports an Annotated metadata argument written as a string.
func pyBareString(f *file, n nid) bool {
	k := f.kind(pyUnwrapType(f, n))
	return k == "string" || k == "concatenated_string"
}

// metadata reads one argument of Annotated after the type (a bare string is
// generic's): a Field(...) or metadata known to add no text; any other
// metadata is a gap.
func (r *pyTypeRead) metadata(f *file, n nid, e *env, path string, depth int) {
	n = pyUnwrapType(f, n)
	switch f.kind(n) {
	case "call":
		if r.field(f, n, e, path) {
			return
		}
		fv := r.x.eval(f, f.field(n, "function"), e)
		if fv.k == vExternal && pyNoTextMetadata[fv.spec] {
			return
		}
		if fv.k == vExternal && (fv.spec == "pydantic.WithJsonSchema" || fv.spec == "pydantic.json_schema.WithJsonSchema") {
			// The dict given is the type's schema: read as a schema.
			args := f.named(f.field(n, "arguments"))
			if len(args) == 1 && f.kind(args[0]) != "keyword_argument" {
				r.dict(f, args[0], r.x.eval(f, args[0], e), e, path, false, depth+1)
				return
			}
		}
		r.gap(f, n, "Annotated metadata "+f.text(f.field(n, "function"))+" not read")
	default:
		r.gap(f, n, "Annotated metadata written as "+f.kind(n)+" not read")
	}
}

// pyNoTextMetadata are Annotated metadata that add no text to the schema:
// pydantic's validators (a function run on the value; PlainValidator's
// schema is its input type's) and annotated_types' constraints.
var pyNoTextMetadata = map[string]bool{
	"pydantic.BeforeValidator": true, "pydantic.AfterValidator": true, "pydantic.WrapValidator": true,
	"pydantic.functional_validators.BeforeValidator": true, "pydantic.functional_validators.AfterValidator": true,
	"annotated_types.Gt": true, "annotated_types.Ge": true, "annotated_types.Lt": true, "annotated_types.Le": true,
	"annotated_types.MinLen": true, "annotated_types.MaxLen": true, "annotated_types.Len": true,
	"annotated_types.MultipleOf": true, "annotated_types.Interval": true,
	"pydantic.StringConstraints": true, "pydantic.types.StringConstraints": true, "pydantic.Strict": true,
}

// pyFieldFunctions build a field's information; their description is the
// parameter's text.
var pyFieldFunctions = map[string]bool{"Field": true, "Param": true, "Query": true, "Body": true, "Path": true}

// pyFieldNoText are Field's arguments that add no text to the schema
// (pydantic's fields.py): constraints, defaults, aliases and settings.
// title is in JSON-schema terms a label, not a parameter's description,
// as on the JavaScript side (jsonTextFree), and is read when a literal.
var pyFieldNoText = map[string]bool{
	"default": true, "default_factory": true, "alias": true, "alias_priority": true, "validation_alias": true,
	"serialization_alias": true, "gt": true, "ge": true, "lt": true, "le": true, "multiple_of": true,
	"min_length": true, "max_length": true, "pattern": true, "strict": true, "max_digits": true,
	"decimal_places": true, "frozen": true, "exclude": true, "discriminator": true, "union_mode": true,
	"repr": true, "init": true, "init_var": true, "kw_only": true, "validate_default": true,
	"allow_inf_nan": true, "coerce_numbers_to_str": true, "fail_fast": true, "deprecated": true,
	"min_items": true, "max_items": true, "exclude_if": true,
}

// field reads a Field(...) call: its description as the text at path,
// every other argument checked for text. It reports whether the call is a
// field function.
func (r *pyTypeRead) field(f *file, call nid, e *env, path string) bool {
	if !pyFieldFunctions[f.pyAttrName(f.field(call, "function"))] {
		return false
	}
	for _, a := range f.named(f.field(call, "arguments")) {
		switch f.kind(a) {
		case "keyword_argument":
			k := f.text(f.field(a, "name"))
			v := f.field(a, "value")
			switch {
			case k == "description":
				r.x.paramEntry(r.c, r.tool, path, f, v, e)
			case k == "json_schema_extra":
				// A dict merged into the field's schema: read as a schema
				// (its descriptions are texts, its keywords checked); a
				// callable is not read.
				r.dict(f, v, r.x.eval(f, v, e), e, path, false, 1)
			case k == "title" || k == "examples":
				if !r.literal(f, v, e) {
					r.gap(f, a, "Field's "+k+" not a literal")
				}
			case pyFieldNoText[k]:
			default:
				// Any other keyword (pydantic writes unknown keywords into
				// the schema).
				r.gap(f, a, "Field's "+k+" not read")
			}
		case "list_splat", "dictionary_splat":
			r.gap(f, a, "Field's arguments spread not read")
		}
	}
	return true
}

// literal reports whether n evaluates to a literal value (text, number,
// boolean, None, or a list or dict of them without a description key).
func (r *pyTypeRead) literal(f *file, n nid, e *env) bool {
	return r.literalVal(r.x.eval(f, n, e), e, 0)
}

func (r *pyTypeRead) literalVal(v val, e *env, depth int) bool {
	if depth > 16 || r.stop() {
		return false
	}
	switch v.k {
	case vText:
		_, ok := plainText(v)
		return ok
	case vNumber, vBool, vNull:
		return true
	case vArray:
		if v.n < 0 {
			return false
		}
		els, ok := r.x.elements(v, e)
		if !ok {
			return false
		}
		for _, el := range els {
			if !r.literalVal(el, e, depth+1) {
				return false
			}
		}
		return true
	case vObject:
		if v.n < 0 || v.f == nil || v.f.kind(v.n) != "dictionary" {
			return false
		}
		keys, vals, ok := r.x.entries(v, e)
		if !ok {
			return false
		}
		for i := range keys {
			k, ok := plainText(keys[i])
			if !ok || k == "description" || !r.literalVal(vals[i], e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// fieldValue reads a parameter's or a field's default: a Field(...) call
// carries text; a literal or a name bound to one is a value; any other
// call or value is a gap.
func (r *pyTypeRead) fieldValue(f *file, v nid, e *env, path string, depth int) {
	if f.kind(v) == "call" {
		if r.field(f, v, e, path) {
			return
		}
		// A call whose value is read as text or a number (",".join of
		// literals) is a value; any other call may build a field.
		switch cv := r.x.eval(f, v, e); cv.k {
		case vText, vNumber, vBool, vNull:
			return
		case vNeed:
			r.c.needs(cv)
			return
		}
		r.gap(f, v, "default value "+f.text(f.field(v, "function"))+"(...) not read")
		return
	}
	switch f.kind(v) {
	case "string", "concatenated_string", "integer", "float", "true", "false", "none", "unary_operator":
		return
	case "identifier":
		// NAME = Field(...) at module level (also imported from another
		// module of the package), handed to several parameters.
		if bf, bn, ok := r.x.pyModuleBinding(f, v, f.text(v), 0); ok && bf.kind(bn) == "call" && r.field(bf, bn, nil, path) {
			return
		}
	}
	val := r.x.eval(f, v, e)
	if r.c.needs(val) {
		return
	}
	switch val.k {
	case vText, vNumber, vBool, vNull, vUndefined:
		// A value (the schema's default), not a text of the schema's own;
		// a default is no description, as on the JavaScript side
		// (jsonTextFree).
		return
	case vArray, vObject:
		// Only a dict, list, tuple or set written in the package: the
		// result of a call (a FieldInfo of another package) is not one.
		if val.n >= 0 && val.f != nil {
			switch val.f.kind(val.n) {
			case "dictionary", "list", "tuple", "set":
				return
			}
		}
	}
	r.gap(f, v, "default value not read: "+reasonOf(val))
}

// class reads a class of the package named by a type: a pydantic model
// (its docstring and fields) or an Enum (its docstring); any other class
// is a gap.
func (r *pyTypeRead) class(cls val, f *file, at nid, path string, depth int) {
	if depth > pyTypeDepthLimit {
		r.gap(f, at, "type nested past the reading's depth")
		return
	}
	key := scopeRef{cls.f, cls.n}
	if r.models[key] {
		return
	}
	r.models[key] = true
	if enum, _ := r.x.pyEnumClass(cls, nil); enum {
		r.classDoc(cls, path, true)
		return
	}
	if !r.x.pyModelClass(cls, nil) {
		r.gap(cls.f, cls.n, "class "+cls.f.text(cls.f.field(cls.n, "name"))+" is not read as a pydantic model or an Enum")
		return
	}
	r.model(cls, path, depth+1, true)
}

// classDoc records a class's docstring as pydantic writes it: the class's
// own __doc__ under inspect.cleandoc (json_schema.py _update_class_schema,
// and _generate_schema.py for an Enum), none when the class has none; an
// Enum's "An enumeration." is dropped.
func (r *pyTypeRead) classDoc(cls val, path string, enum bool) {
	f := cls.f
	doc, found := pyDocstring(f, cls.n)
	if !found {
		return // no docstring (an f-string is none): __doc__ is None
	}
	if doc.k != vText || doc.txt.partial() {
		r.gap(f, cls.n, "class docstring not read")
		return
	}
	clean := pyCleandoc(doc)
	s, ok := plainText(clean)
	if !ok {
		r.gap(f, cls.n, "class docstring not read")
		return
	}
	if s == "" || (enum && s == "An enumeration.") {
		return
	}
	body := f.named(f.field(cls.n, "body"))
	ent := entryBase(KindParameterDescription, f, body[0])
	ent.Parent, ent.Name = r.tool, pathOrRoot(path)
	describe(&ent, clean, true)
	r.c.entries = append(r.c.entries, ent)
}

// pyModelBases are pydantic's model base classes.
var pyModelBases = map[string]bool{"pydantic.BaseModel": true, "pydantic.main.BaseModel": true}

// pyModelClass reports whether a class of the package derives from
// pydantic's BaseModel through classes of the package.
func (x *extractor) pyModelClass(cls val, seen map[scopeRef]bool) bool {
	if cls.f == nil || cls.f.lang != LangPython {
		return false
	}
	if seen == nil {
		seen = map[scopeRef]bool{}
	}
	at := scopeRef{cls.f, cls.n}
	if seen[at] || len(seen) > 64 {
		return false
	}
	seen[at] = true
	f := cls.f
	supers := f.field(cls.n, "superclasses")
	if supers < 0 {
		return false
	}
	for _, b := range f.named(supers) {
		if f.kind(b) == "keyword_argument" {
			continue
		}
		bv := x.eval(f, b, cls.env)
		switch bv.k {
		case vExternal:
			if pyModelBases[bv.spec] {
				return true
			}
		case vClass:
			if x.pyModelClass(bv, seen) {
				return true
			}
		}
	}
	return false
}

// pyModelConfigNoText are ConfigDict settings that add no text (title is a
// label, read when a literal, as Field's).
var pyModelConfigNoText = map[string]bool{
	"extra": true, "frozen": true, "populate_by_name": true, "validate_by_name": true, "validate_by_alias": true,
	"str_strip_whitespace": true, "str_to_lower": true, "str_to_upper": true, "str_min_length": true,
	"str_max_length": true, "arbitrary_types_allowed": true, "validate_assignment": true,
	"use_enum_values": true, "validate_default": true, "strict": true, "protected_namespaces": true,
	"from_attributes": true, "coerce_numbers_to_str": true, "revalidate_instances": true,
	"ser_json_timedelta": true, "ser_json_bytes": true, "regex_engine": true, "loc_by_alias": true,
	"hide_input_in_errors": true, "defer_build": true, "validation_error_cause": true,
	"use_attribute_docstrings": false,
}

// model reads a pydantic model of the package: its docstring (own class
// only when own), the fields of its package bases, its config, and each
// field (annotation and default). Methods that rewrite the schema, a v1
// Config class, class keywords and statements other than fields are gaps.
func (r *pyTypeRead) model(cls val, path string, depth int, own bool) {
	if depth > pyTypeDepthLimit {
		r.gap(cls.f, cls.n, "model nested past the reading's depth")
		return
	}
	f, e := cls.f, cls.env
	if own {
		r.classDoc(cls, path, false)
	}
	if supers := f.field(cls.n, "superclasses"); supers >= 0 {
		for _, b := range f.named(supers) {
			if f.kind(b) == "keyword_argument" {
				// class Q(BaseModel, frozen=True): config settings.
				if k := f.text(f.field(b, "name")); !pyModelConfigNoText[k] || !r.literal(f, f.field(b, "value"), e) {
					r.gap(f, b, "model class keyword "+k+" not read")
				}
				continue
			}
			bv := r.x.eval(f, b, e)
			if bv.k == vClass {
				key := scopeRef{bv.f, bv.n}
				if r.models[key] {
					continue // its fields were read under this tool
				}
				// A base's fields are the model's; its docstring is not.
				r.model(bv, path, depth+1, false)
			}
		}
	}
	body := f.named(f.field(cls.n, "body"))
	saved := r.scope
	r.scope = map[string]val{}
	for k, v := range saved {
		r.scope[k] = v
	}
	for _, st := range body {
		if f.kind(st) == "class_definition" {
			r.scope[f.text(f.field(st, "name"))] = val{k: vClass, f: f, n: st, env: e}
		}
	}
	defer func() { r.scope = saved }()
	for i, st := range body {
		if r.stop() {
			return
		}
		switch f.kind(st) {
		case "comment", "pass_statement":
			continue
		case "expression_statement":
			ch := f.named(st)
			if len(ch) != 1 {
				r.gap(f, st, "model statement not read")
				continue
			}
			switch f.kind(ch[0]) {
			case "string", "concatenated_string":
				// The docstring (i == 0), or an attribute docstring, which
				// pydantic reads only under use_attribute_docstrings (a gap
				// of the config below).
				_ = i
			case "assignment":
				r.modelAssignment(f, ch[0], e, path, depth)
			default:
				r.gap(f, st, "model statement not read")
			}
		case "function_definition", "decorated_definition":
			fn := st
			if f.kind(st) == "decorated_definition" {
				fn = f.field(st, "definition")
			}
			switch f.text(f.field(fn, "name")) {
			case "__get_pydantic_json_schema__", "__get_pydantic_core_schema__", "model_json_schema", "__pydantic_init_subclass__":
				r.gap(f, st, "model method "+f.text(f.field(fn, "name"))+" rewrites the schema")
			}
		case "class_definition":
			if f.text(f.field(st, "name")) == "Config" {
				r.gap(f, st, "model Config class not read")
			}
		default:
			r.gap(f, st, "model statement "+f.kind(st)+" not read")
		}
	}
}

// modelAssignment reads one statement of a model's body: a field (an
// annotated name), model_config, or a class attribute.
func (r *pyTypeRead) modelAssignment(f *file, as nid, e *env, path string, depth int) {
	left := f.field(as, "left")
	t := f.field(as, "type")
	right := f.field(as, "right")
	name := ""
	if f.kind(left) == "identifier" {
		name = f.text(left)
	}
	if name == "model_config" {
		if right >= 0 {
			r.modelConfig(f, right, e, path)
		}
		return
	}
	if t < 0 {
		return // a class attribute, not a field
	}
	if name == "" {
		r.gap(f, as, "model field not read")
		return
	}
	if strings.HasPrefix(name, "_") || r.classVar(f, t, e) {
		return // a private attribute or a ClassVar: not in the schema
	}
	sub := joinPath(path, name)
	r.typ(f, t, e, sub, depth+1)
	if right >= 0 {
		r.fieldValue(f, right, e, sub, depth+1)
	}
}

func (r *pyTypeRead) classVar(f *file, t nid, e *env) bool {
	head := t
	for f.kind(head) == "type" || f.kind(head) == "generic_type" || f.kind(head) == "subscript" {
		switch f.kind(head) {
		case "type":
			ch := f.named(head)
			if len(ch) != 1 {
				return false
			}
			head = ch[0]
		case "generic_type":
			head = f.named(head)[0]
		case "subscript":
			head = f.field(head, "value")
		}
	}
	v := r.x.eval(f, head, e)
	return v.k == vExternal && (v.spec == "typing.ClassVar" || v.spec == "typing_extensions.ClassVar")
}

// modelConfig reads model_config = ConfigDict(...) or a dict literal: each
// setting must be one that adds no text, or a literal title.
func (r *pyTypeRead) modelConfig(f *file, n nid, e *env, path string) {
	check := func(k string, at, v nid) {
		switch {
		case k == "title":
			if !r.literal(f, v, e) {
				r.gap(f, at, "model config title not a literal")
			}
		case k == "json_schema_extra":
			r.dict(f, v, r.x.eval(f, v, e), e, path, false, 1)
		case pyModelConfigNoText[k]:
		default:
			r.gap(f, at, "model config "+k+" not read")
		}
	}
	switch f.kind(n) {
	case "call":
		if fn := f.pyAttrName(f.field(n, "function")); fn != "ConfigDict" && fn != "dict" {
			r.gap(f, n, "model config not read")
			return
		}
		for _, a := range f.named(f.field(n, "arguments")) {
			if f.kind(a) != "keyword_argument" {
				r.gap(f, a, "model config argument not read")
				continue
			}
			check(f.text(f.field(a, "name")), a, f.field(a, "value"))
		}
	case "dictionary":
		for _, p := range f.named(n) {
			if f.kind(p) != "pair" || f.kind(f.field(p, "key")) != "string" {
				r.gap(f, p, "model config member not read")
				continue
			}
			k, ok := plainText(pyStringText(f, f.field(p, "key")))
			if !ok {
				r.gap(f, p, "model config member not read")
				continue
			}
			check(k, p, f.field(p, "value"))
		}
	default:
		r.gap(f, n, "model config not read")
	}
}

// pyDictSchema reads a low-level tool's inputSchema, a dict sent as it is:
// the description of every subschema below the root (through the keywords
// schematext.go lists), literal values of the other keywords; anything
// else is a gap. X.model_json_schema() of a model of the package is read
// as the model (its docstring the root's description).
func (x *extractor) pyDictSchema(c *collector, tool string, f *file, n nid, e *env) {
	if x.siteOver || x.exceeded {
		return
	}
	r := &pyTypeRead{x: x, c: c, tool: tool, models: map[scopeRef]bool{}}
	if !r.modelSchemaCall(f, n, e) {
		r.dict(f, n, x.eval(f, n, e), e, "", true, 0)
	}
	r.finish()
}

// modelSchemaCall reads M.model_json_schema() with no arguments, M a
// pydantic model of the package.
func (r *pyTypeRead) modelSchemaCall(f *file, n nid, e *env) bool {
	if f.kind(n) != "call" {
		return false
	}
	fn := f.field(n, "function")
	if f.kind(fn) != "attribute" || f.text(f.field(fn, "attribute")) != "model_json_schema" {
		return false
	}
	if args := f.named(f.field(n, "arguments")); len(args) != 0 {
		return false
	}
	cls := r.x.eval(f, f.field(fn, "object"), e)
	if cls.k != vClass || !r.x.pyModelClass(cls, nil) {
		return false
	}
	r.models[scopeRef{cls.f, cls.n}] = true
	r.model(cls, "", 1, true)
	return true
}

func (r *pyTypeRead) dict(f *file, at nid, v val, e *env, path string, root bool, depth int) {
	if r.stop() {
		return
	}
	if depth > schemaDepthLimit {
		r.gap(f, at, "schema nested past the reading's depth")
		return
	}
	if r.c.needs(v) {
		return
	}
	if v.k == vBool {
		return
	}
	if v.k != vObject || v.f == nil || v.f.lang != LangPython || v.n < 0 || v.f.kind(v.n) != "dictionary" {
		r.gap(f, at, "schema not resolved to a dict: "+reasonOf(v))
		return
	}
	f, at = v.f, v.n
	keys, vals, ok := r.x.entries(v, e)
	if !ok {
		r.gap(f, at, "schema dict not resolved: "+reasonOf(v))
		return
	}
	for i := range keys {
		key, ok := plainText(keys[i])
		sv := vals[i]
		sf, sn := f, at
		if sv.f != nil && sv.n >= 0 {
			sf, sn = sv.f, sv.n
		}
		if !ok {
			r.gap(f, at, "schema key not resolved: "+reasonOf(keys[i]))
			continue
		}
		if r.c.needs(sv) {
			return
		}
		switch {
		case key == "description":
			if !root {
				ent := entryBase(KindParameterDescription, sf, sn)
				ent.Parent, ent.Name = r.tool, pathOrRoot(path)
				describe(&ent, sv, true)
				r.c.entries = append(r.c.entries, ent)
			}
		case jsonTextFree[key]:
			if !r.literalVal(sv, e, 0) {
				r.gap(sf, sn, "schema keyword "+key+" not a literal")
			}
		case jsonNamed[key]:
			if sv.k != vObject || sv.n < 0 || sv.f == nil || sv.f.kind(sv.n) != "dictionary" {
				r.gap(sf, sn, "schema "+key+" not resolved to a dict: "+reasonOf(sv))
				continue
			}
			nk, nv, ok := r.x.entries(sv, e)
			if !ok {
				r.gap(sf, sn, "schema "+key+" not resolved")
				continue
			}
			for j := range nk {
				name, ok := plainText(nk[j])
				if !ok {
					r.gap(sf, sn, "schema member name not resolved")
					continue
				}
				sub := joinPath(path, name)
				if key != "properties" {
					sub = joinPath(path, key+"."+name)
				}
				r.dict(sf, sn, nv[j], e, sub, false, depth+1)
			}
		case jsonOne[key] || jsonMany[key]:
			sub := path
			if key == "items" || key == "additionalItems" || key == "contains" || key == "prefixItems" {
				sub = path + "[]"
			}
			if sv.k == vArray {
				if sv.n < 0 {
					r.gap(sf, sn, "schema list not resolved")
					continue
				}
				els, ok := r.x.elements(sv, e)
				if !ok {
					r.gap(sf, sn, "schema list not resolved")
					continue
				}
				for _, el := range els {
					r.dict(sf, sn, el, e, sub, false, depth+1)
				}
				continue
			}
			r.dict(sf, sn, sv, e, sub, false, depth+1)
		default:
			if !r.literalVal(sv, e, 0) {
				r.gap(sf, sn, "schema keyword "+key+" not read")
			}
		}
	}
}
