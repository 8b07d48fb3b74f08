package surface

// A schema helper reached without its call (methodology §5.3, since
// 2.3.12): a tool's config writes its schema as a call of the package's own
// function, inputSchema: toJSON(S), whose body returns a converter or a zod
// chain over its parameter (return zodToJsonSchema(schema, {…})). Resolution
// of the config's member gives the helper's return expression without the
// call frame that binds its parameter, so reading that expression stops at
// the parameter ("a binding the site does not choose"). The call as written
// in the config is read instead: the reading's helper route (schematext_zod.go)
// reads the helper's one return with its parameters bound to this call's
// arguments, so each call site binds its own schema and nothing is merged
// across sites. A helper with several returns, of bundled third-party code,
// or recursive, stays a gap there.

// configSchema is the expression a config object's schema member is read
// from: zod's builders first (schemaSource, schematext_zodnew.go), then a
// helper's return reached without its call.
func (x *extractor) configSchema(cfg val, key string, sv val, e *env) (*file, nid, *env) {
	sf, sn, se := x.schemaSource(cfg, key, sv, e)
	if sf != sv.f || sn != sv.n {
		return sf, sn, se
	}
	if wf, w, we, ok := x.helperCallWritten(cfg, key, sv, e); ok {
		return wf, w, we
	}
	return sf, sn, se
}

// helperCallWritten reports the config member's call as written when the
// resolved value sv is an expression inside the body of the function that
// call calls, carried without a frame: the value is that function's return,
// whose parameters only the written call binds.
func (x *extractor) helperCallWritten(cfg val, key string, sv val, e *env) (*file, nid, *env, bool) {
	if sv.env != nil || sv.f == nil || sv.n < 0 || sv.f.lang == LangPython ||
		cfg.k != vObject || cfg.f == nil || cfg.n < 0 || cfg.f.kind(cfg.n) != "object" {
		return nil, none, nil, false
	}
	ce := cfg.env
	if ce == nil {
		ce = e
	}
	wf, w, we, ok := x.writtenMember(cfg.f, cfg.n, ce, key, 0) // schematext_zodnew.go
	if !ok || w < 0 || wf.kind(w) != "call_expression" {
		return nil, none, nil, false
	}
	if wf == sv.f && wf.start(w) <= sv.f.start(sv.n) && sv.f.end(sv.n) <= wf.end(w) {
		return nil, none, nil, false // the value is written in the call itself
	}
	fn := x.eval(wf, wf.field(w, "function"), we)
	if fn.k != vFunc || fn.f != sv.f || fn.n < 0 || fn.f.inVendoredRegion(fn.n) {
		return nil, none, nil, false
	}
	body := fn.f.field(fn.n, "body")
	if body < 0 || sv.f.start(sv.n) < fn.f.start(body) || fn.f.end(body) < sv.f.end(sv.n) {
		return nil, none, nil, false
	}
	return wf, w, we, true
}
