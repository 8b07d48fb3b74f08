package surface

// maxSpreadToolDepth bounds how many spreads deep markSpreadTools follows a
// tool definition ({...{...tool}} is two).
const maxSpreadToolDepth = 4

// markSpreadTools records, as tool objects, the objects a tool definition
// spreads in (`const modified = { ...tool }` in a tools/list handler): a
// description rewritten on the spread source at load (`for (const tool of
// allTools) tool.description = ...`) rewrites the text the client receives,
// so checkReassignments must recognise the source as a tool. Readable
// esbuild and tsc output of large servers often builds its list this way.
func (x *extractor) markSpreadTools(cfg val, depth int) {
	if depth >= maxSpreadToolDepth || x.exceeded || cfg.k != vObject || cfg.n < 0 || cfg.f == nil {
		return
	}
	f := cfg.f
	if f.kind(cfg.n) != "object" {
		return
	}
	for _, c := range f.named(cfg.n) {
		if f.kind(c) != "spread_element" {
			continue
		}
		ch := f.named(c)
		if len(ch) == 0 {
			continue
		}
		x.markSpreadValue(x.eval(f, ch[0], cfg.env), depth)
	}
}

func (x *extractor) markSpreadValue(v val, depth int) {
	switch v.k {
	case vObject:
		if v.n >= 0 && v.f != nil {
			x.toolObjects[progKey{v.f, v.n, nil}] = true
			x.markSpreadTools(v, depth+1)
		}
	case vUnion:
		for i, a := range v.elems {
			if i >= 256 {
				break
			}
			if a.k == vObject {
				x.markSpreadValue(a, depth)
			}
		}
	}
}
