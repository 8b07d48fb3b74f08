package surface

import "strconv"

// A spread copy of the object (methodology §5.3, since 2.3.19). `{ ...o }`
// and `[...o]` are shallow copies: the copy's own members are o's members,
// the same objects. When the object read is o or sits below o's members,
// a write through the copy's members (`const c = { ...o };
// c.properties.q.description = "…"`) changes it; until 2.3.18 a spread was a
// plain read and such a write was not looked at (a fail-open). The literal
// holding the spread is now followed as a container with o's keys: its uses
// are classified as o's under the same path (spreadUse). A spread of a
// member inside the object (`{ ...o.properties }`) is a part of the object:
// its uses are followed as the object's. One thing differs from o's own
// uses, exactly: the copy's own members are the copy's, so assigning,
// incrementing or deleting a member directly on the copy's name (`c.k = v`,
// `delete c[k]`) does not change o (a reading that goes through the copy
// checks the copy's name for that, with its own deletes). A spread into a
// call's arguments (`f(...o)`) or a JSX element is as before.

// spreadUse classifies the spread sp of the object (or of a member holding
// it, rest below it; nil when the spread's argument is a member inside the
// object).
func (r *schemaRead) spreadUse(f *file, sp nid, rest []string) (del []string, ch mutChange, ok bool) {
	lit := f.parent(sp)
	if lit < 0 || (f.kind(lit) != "object" && f.kind(lit) != "array") {
		return nil, mutChange{}, true // f(...o), <C {...o} />: as before (a read)
	}
	lit = mutOuter(f, lit)
	decl := f.parent(lit)
	if decl < 0 || f.kind(decl) != "variable_declarator" || f.field(decl, "value") != lit || f.kind(f.field(decl, "name")) != "identifier" ||
		(nameScope(f, decl) == 0 && mutExportedDecl(f, decl)) {
		// Not a declared name of its own (or an exported one, whose
		// importers are followed too): the copy's uses as o's (the
		// literal, declared name or return it reaches counts its level).
		return r.useChanges(f, lit, rest)
	}
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, sp, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " copies"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	// const c = { ...o }: c's uses, each marked as the copy's (useChanges).
	id := f.field(decl, "name")
	name := f.text(id)
	ch, ok = r.bindingUses(f, nameScope(f, decl), id, name, func(b binding) bool { return b.decl == decl }, func(n nid) (mutChange, bool) {
		if p := f.parent(n); p >= 0 && f.kind(p) == "export_specifier" {
			return mutChange{f, p, "a copy of the object is exported"}, false
		}
		r.mutCopyUse, r.mutCopyFile = n, f
		d, c, good := r.useChanges(f, n, rest)
		r.mutCopyFile = nil
		if good {
			del = append(del, d...)
		}
		return c, good
	})
	return del, ch, ok
}

// copyOwnMember reports whether use n (at the start of useChanges) is the
// copy's name marked by spreadUse, and clears the mark.
func (r *schemaRead) copyOwnMember(f *file, n nid) bool {
	hit := r.mutCopyFile == f && r.mutCopyUse == n
	r.mutCopyFile = nil
	return hit
}

// readingAt reports whether n is the spread's argument the reading stands
// at (unchanged): the literal holding that spread is the one the reading
// reads, so that use reads, as every spread did until 2.3.18.
func (r *schemaRead) readingAt(f *file, n nid) bool {
	return r.mutAtF == f && (r.mutAt == n || mutOuter(f, r.mutAt) == n)
}
