package surface

import "slices"

// Python node kinds as small integers, and an index of a file's nodes by
// kind. The passes that look at every node of a Python file (the facts,
// the capability scan, the package-wide lookups) used to compare each
// node's kind name as a string; here the grammar's symbol ids are mapped
// once per grammar to a pyKind, so a comparison is one byte, and a pass
// that reads a few kinds visits only the nodes of those kinds.
//
// The mapping is by name, from every symbol id of the grammar: the Python
// grammar gives several ids to one kind name (block, lambda, tuple_pattern,
// list_pattern, as_pattern each have two or three), so a single id per
// kind would not be the same comparison as the name's. f.pk(n) == pkCall
// holds exactly when f.kind(n) == "call", for every symbol a node can
// carry (TestPyKindTable checks every id of every grammar).

// pyKind is a node kind the Python passes compare; pkOther is every kind
// they do not name.
type pyKind uint8

const (
	pkOther pyKind = iota
	pkModule
	pkFunctionDefinition
	pkClassDefinition
	pkDecoratedDefinition
	pkDecorator
	pkLambda
	pkListComprehension
	pkSetComprehension
	pkDictionaryComprehension
	pkGeneratorExpression
	pkForInClause
	pkForStatement
	pkCall
	pkAttribute
	pkIdentifier
	pkString
	pkConcatenatedString
	pkSubscript
	pkAssignment
	pkAugmentedAssignment
	pkNamedExpression
	pkExpressionStatement
	pkImportStatement
	pkImportFromStatement
	pkGlobalStatement
	pkDottedName
	pkAliasedImport
	pkRelativeImport
	pkArgumentList
	pkKeywordArgument
	pkPatternList
	pkTuplePattern
	pkListPattern
	pkTuple
	pkList
	pkListSplatPattern
	pkAsPattern
	pkParenthesizedExpression
	pkWithItem
	pkTypedParameter
	pkDefaultParameter
	pkTypedDefaultParameter
	pkCount
)

// pyKindNames is the kind name each pyKind stands for.
var pyKindNames = [pkCount]string{
	pkModule:                  "module",
	pkFunctionDefinition:      "function_definition",
	pkClassDefinition:         "class_definition",
	pkDecoratedDefinition:     "decorated_definition",
	pkDecorator:               "decorator",
	pkLambda:                  "lambda",
	pkListComprehension:       "list_comprehension",
	pkSetComprehension:        "set_comprehension",
	pkDictionaryComprehension: "dictionary_comprehension",
	pkGeneratorExpression:     "generator_expression",
	pkForInClause:             "for_in_clause",
	pkForStatement:            "for_statement",
	pkCall:                    "call",
	pkAttribute:               "attribute",
	pkIdentifier:              "identifier",
	pkString:                  "string",
	pkConcatenatedString:      "concatenated_string",
	pkSubscript:               "subscript",
	pkAssignment:              "assignment",
	pkAugmentedAssignment:     "augmented_assignment",
	pkNamedExpression:         "named_expression",
	pkExpressionStatement:     "expression_statement",
	pkImportStatement:         "import_statement",
	pkImportFromStatement:     "import_from_statement",
	pkGlobalStatement:         "global_statement",
	pkDottedName:              "dotted_name",
	pkAliasedImport:           "aliased_import",
	pkRelativeImport:          "relative_import",
	pkArgumentList:            "argument_list",
	pkKeywordArgument:         "keyword_argument",
	pkPatternList:             "pattern_list",
	pkTuplePattern:            "tuple_pattern",
	pkListPattern:             "list_pattern",
	pkTuple:                   "tuple",
	pkList:                    "list",
	pkListSplatPattern:        "list_splat_pattern",
	pkAsPattern:               "as_pattern",
	pkParenthesizedExpression: "parenthesized_expression",
	pkWithItem:                "with_item",
	pkTypedParameter:          "typed_parameter",
	pkDefaultParameter:        "default_parameter",
	pkTypedDefaultParameter:   "typed_default_parameter",
}

// pyKindTable maps every symbol id of a grammar (kinds, its id -> name
// table) to its pyKind; the error symbol, outside the table, is pyKindOfName
// of "ERROR" (pkOther). newGrammar builds one per grammar.
func pyKindTable(kinds []string) []pyKind {
	t := make([]pyKind, len(kinds))
	for i, k := range kinds {
		t[i] = pyKindOfName(k)
	}
	return t
}

// pyKindOfName is the pyKind of a kind name: pkOther for a name the passes
// do not compare.
func pyKindOfName(name string) pyKind {
	for k := pkOther + 1; k < pkCount; k++ {
		if pyKindNames[k] == name {
			return k
		}
	}
	return pkOther
}

// pk is the pyKind of node n: the same test as f.kind(n) == its name, as a
// byte. No node (n < 0) and the error symbol are pkOther, as their kind
// names ("", "ERROR") are none of pyKindNames.
func (f *file) pk(n nid) pyKind {
	if n < 0 {
		return pkOther
	}
	sym := f.nodes[n].sym
	if int(sym) >= len(f.g.pk) {
		return pkOther
	}
	return f.g.pk[sym]
}

// pyKindIndex lists a file's nodes by pyKind, each list in preorder:
// ids[off[k]:off[k+1]] are the nodes of kind k. pkOther is not listed.
type pyKindIndex struct {
	off [pkCount + 1]int32
	ids []nid
}

// pyIndex returns f's kind index, built on first use by one counting pass
// and one filling pass over the flat copy.
func (f *file) pyIndex() *pyKindIndex {
	if f.pyKinds != nil {
		return f.pyKinds
	}
	ix := &pyKindIndex{}
	var count [pkCount]int32
	tab := f.g.pk
	for i := range f.nodes {
		if s := f.nodes[i].sym; int(s) < len(tab) {
			count[tab[s]]++
		}
	}
	count[pkOther] = 0
	var pos [pkCount]int32
	total := int32(0)
	for k := pyKind(0); k < pkCount; k++ {
		ix.off[k] = total
		pos[k] = total
		total += count[k]
	}
	ix.off[pkCount] = total
	ix.ids = make([]nid, total)
	for i := range f.nodes {
		s := f.nodes[i].sym
		if int(s) >= len(tab) {
			continue
		}
		if k := tab[s]; k != pkOther {
			ix.ids[pos[k]] = nid(i)
			pos[k]++
		}
	}
	f.pyKinds = ix
	return ix
}

// ofKind lists f's nodes of kind k in preorder (none for pkOther).
func (f *file) ofKind(k pyKind) []nid {
	if f.parsed == nil || k == pkOther || k >= pkCount {
		return nil
	}
	ix := f.pyIndex()
	return ix.ids[ix.off[k]:ix.off[k+1]]
}

// eachOfKinds calls fn for every node of f whose kind is one of kinds, in
// preorder: the order a walk over the whole flat copy meets them in, which
// passes that keep the first of several bindings rely on. It merges the
// kinds' lists.
func (f *file) eachOfKinds(fn func(n nid), kinds ...pyKind) {
	lists := make([][]nid, 0, 8)
	for _, k := range kinds {
		if l := f.ofKind(k); len(l) > 0 {
			lists = append(lists, l)
		}
	}
	m := len(lists)
	if m == 1 {
		for _, n := range lists[0] {
			fn(n)
		}
		return
	}
	for {
		best := -1
		for i := 0; i < m; i++ {
			if len(lists[i]) > 0 && (best < 0 || lists[i][0] < lists[best][0]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		fn(lists[best][0])
		lists[best] = lists[best][1:]
	}
}

// pyImport is one import statement n of file g.
type pyImport struct {
	g *file
	n nid
}

// pyPackageIndex holds what the Python passes index once per package,
// after every file is loaded (the package's files do not change after).
type pyPackageIndex struct {
	// importers lists the package's import statements by the module files
	// they load: for every runnable Python file g (in x.files order) and
	// every import statement n of g (in preorder), n is listed under each
	// file f that it loads (refImportsModule in the tests is the reading it
	// replaces). pyModuleConditions used to find them with a walk of every
	// node of every file for each module it asked about. nil until first
	// used.
	importers map[*file][]pyImport
	// modules memoizes pyResolveModule.
	modules map[pyModuleKey]*file
}

// pyModuleKey is what pyResolveModule's answer depends on: the dotted name
// and, for a relative one, the importing file's directory.
type pyModuleKey struct{ dir, mod string }

func (x *extractor) pyPackage() *pyPackageIndex {
	if x.pyPkg == nil {
		x.pyPkg = &pyPackageIndex{modules: map[pyModuleKey]*file{}}
	}
	return x.pyPkg
}

// pyImportersOf lists the import statements that load module f, in the
// order a walk of every runnable Python file of x.files meets them.
func (x *extractor) pyImportersOf(f *file) []pyImport {
	ix := x.pyPackage()
	if ix.importers == nil {
		ix.importers = map[*file][]pyImport{}
		for _, g := range x.files {
			if g.pyFacts == nil || !g.runnable() {
				continue
			}
			g.eachOfKinds(func(n nid) {
				for _, t := range x.pyImportTargets(g, n) {
					ix.importers[t] = append(ix.importers[t], pyImport{g, n})
				}
			}, pkImportStatement, pkImportFromStatement)
		}
	}
	return ix.importers[f]
}

// pyImportTargets lists, without repeats, the files import statement n of
// g loads: every f for which pyImportsModule(g, n, f) holds, by the same
// resolutions.
func (x *extractor) pyImportTargets(g *file, n nid) []*file {
	var out []*file
	add := func(t *file) {
		if t != nil && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if g.pk(n) == pkImportFromStatement {
		mod := g.text(g.field(n, "module_name"))
		add(x.pyResolveModule(g, mod))
		for _, c := range g.fieldAll(n, "name") {
			name := c
			if g.pk(c) == pkAliasedImport {
				name = g.field(c, "name")
			}
			add(x.pyResolveModule(g, joinModule(mod, g.text(name))))
		}
		return out
	}
	for _, c := range g.fieldAll(n, "name") {
		name := c
		if g.pk(c) == pkAliasedImport {
			name = g.field(c, "name")
		}
		add(x.pyResolveModule(g, g.text(name)))
	}
	return out
}
