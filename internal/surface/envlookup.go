package surface

// The frame lookup of an environment chain.
//
// An env chain is persistent: a frame's parent and scope never change after
// push. A site whose enumeration pushes a frame of the same scope on every
// attempt (a function's call sites tried one after another under each
// other) builds chains thousands of frames deep made of a few runs of one
// scope each, and a lookup that walks such a chain to its bottom, or misses,
// cost the whole depth each time: quadratic over the attempts. Each frame
// therefore carries skip, the nearest enclosing frame whose scope differs
// from its own; a lookup for another scope jumps over the whole run, since
// no frame in it can match. It finds the same frame as the plain walk.

// skipOf is the skip link of a frame of scope s pushed on parent.
func skipOf(parent *env, s scopeRef) *env {
	if parent != nil && parent.scope == s {
		return parent.skip
	}
	return parent
}

// lookup is the nearest frame of scope s in the chain from e, or nil.
func (e *env) lookup(s scopeRef) *env {
	for x := e; x != nil; x = x.skip {
		if x.scope == s {
			return x
		}
	}
	return nil
}
