package surface

// The v2 MCP SDK's fromJsonSchema (since 2.3.17).
//
// @modelcontextprotocol/server 2.0.0 exports fromJsonSchema(schema,
// validator?), which returns a Standard Schema whose
// `~standard.jsonSchema.input()` returns `schema` itself; the server's
// tools/list sends standardSchemaToJsonSchema(inputSchema, "input"), which
// is `{ type: "object", ...schema }` (it refuses a non-object `type`). The
// texts the client receives are the argument's own bytes, so the argument
// is read as a JSON Schema. Read only with one argument: a validator given
// by the package is handed the schema object (getValidator(schema)) and
// could change it. The argument must resolve to a JSON Schema object
// literal (jsonSchemaObject); anything else is a gap.

// mcpServerFromJSONSchema is the SDK's export, as an import resolves it.
const mcpServerFromJSONSchema = "@modelcontextprotocol/server.fromJsonSchema"

// fromJSONSchema reads fromJsonSchema(S): S's texts as a JSON Schema's.
func (r *schemaRead) fromJSONSchema(f *file, n nid, args []nid, e *env, path string, depth int) {
	if len(args) != 1 {
		r.gap(f, n, "fromJsonSchema with a validator of the package not read")
		return
	}
	r.fromJSONSchemaArg(f, args[0], e, path, depth+1)
}

func (r *schemaRead) fromJSONSchemaArg(f *file, a nid, e *env, path string, depth int) {
	if depth > schemaDepthLimit {
		r.gap(f, a, "schema nested past the reading's depth")
		return
	}
	switch f.kind(a) {
	case "object":
		if !jsonSchemaObject(f, a) {
			r.gap(f, a, "fromJsonSchema argument not a JSON Schema literal")
			return
		}
		r.json(f, a, e, path, path == "", depth+1)
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		if in := exprChild(f, a); in >= 0 {
			r.fromJSONSchemaArg(f, in, e, path, depth+1)
			return
		}
		r.gap(f, a, "schema expression not read")
	case "identifier", "member_expression", "subscript_expression":
		r.resolved(f, a, e, path, depth+1, func(g *file, m nid, ge *env) {
			if g.kind(m) != "object" {
				r.gap(g, m, "fromJsonSchema argument written as "+g.kind(m)+" not read")
				return
			}
			r.fromJSONSchemaArg(g, m, ge, path, depth+1)
		})
	default:
		r.gap(f, a, "fromJsonSchema argument written as "+f.kind(a)+" not read")
	}
}

// sdkFromJSONSchema reports whether call is fromJsonSchema(S) of the v2 SDK
// with one argument. With its default validator (ajv's compile, in the Node
// shim) the SDK keeps S and hands it back unchanged at listing.
func (x *extractor) sdkFromJSONSchema(f *file, call nid) bool {
	callee := f.field(call, "function")
	if f.kind(callee) != "identifier" || len(f.args(call)) != 1 {
		return false
	}
	v := x.eval(f, callee, nil)
	return v.k == vExternal && v.spec == mcpServerFromJSONSchema
}
