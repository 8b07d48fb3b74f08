package surface

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

// The few declarations of tree-sitter's C API (v0.25.0, api.h) this file
// needs. The runtime itself is compiled and linked by go-tree-sitter; these
// prototypes only let one C function here drive it without a cgo crossing
// per node.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_parser_reset(TSParser *self);
void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
const TSLanguage *ts_parser_language(const TSParser *self);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_has_error(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);

uint32_t ts_node_descendant_count(TSNode self);

// at_node is flatNode's layout (parse.go checks it in flatLayoutFits).
typedef struct {
	uint16_t sym;
	uint16_t field;
	uint32_t start;
	uint32_t end;
	int32_t parent;
	int32_t first;
	int32_t next;
} at_node;

enum {
	at_node_size = sizeof(at_node),
	at_node_off_start = offsetof(at_node, start),
	at_node_off_parent = offsetof(at_node, parent),
	at_node_off_next = offsetof(at_node, next),
};

typedef struct {
	TSTree *tree;
	uint32_t visible; // the tree's visible nodes, root included: what a cursor walk visits
	int32_t status;   // 0 ok, 1 parse cancelled or timed out
	int32_t has_error;
} at_parsed;

// at_parse parses src within timeout_us. The caller deletes the tree
// (ts_tree_delete) once at_flatten has copied it.
static at_parsed at_parse(TSParser *p, const char *src, uint32_t len, uint64_t timeout_us) {
	at_parsed r = {0};
	ts_parser_set_timeout_micros(p, timeout_us);
	r.tree = ts_parser_parse_string(p, NULL, src, len);
	if (r.tree == NULL) {
		ts_parser_reset(p);
		r.status = 1;
		return r;
	}
	TSNode root = ts_tree_root_node(r.tree);
	r.has_error = ts_node_has_error(root);
	r.visible = ts_node_descendant_count(root);
	return r;
}

typedef struct {
	int32_t count;
	int32_t status; // 0 ok, 2 out of memory, 3 node limit, 4 out is too small (grow it and call again)
	int32_t max_depth;
} at_flat_result;

// at_flatten copies the kept nodes of tree in preorder into out (keep[sym]
// != 0, or the node sits in a field), at most cap of them, with each node's
// first child and next sibling linked. One cursor walk, no allocation but the
// walk's depth stacks. More than limit kept nodes is status 3; filling cap
// below limit is status 4.
//
// The sibling links are kept per cursor depth, not per node: the kept
// ancestor of every node the walk is under sits at one cursor depth, and its
// last kept child so far is the only one a later child links from, so
// slot[d] holds it for the kept node at depth d (reset when a node is kept
// there) and pdepth[d] names the depth of the nearest kept ancestor of a
// node at depth d. TestFlattenMatchesCursorWalk compares the result node
// for node with a walk that links through each node's own last child.
static at_flat_result at_flatten(TSTree *tree, at_node *out, int32_t cap, int32_t limit,
                                 const uint8_t *keep, uint32_t nkeep) {
	at_flat_result r = {0};
	int32_t n = 0;
	int32_t local[3 * 256];
	int32_t scap = 256, depth = 0;
	int32_t *stack = local;          // stack[d]: index of the nearest kept ancestor of a node at depth d
	int32_t *pdepth = local + 256;   // pdepth[d]: the cursor depth that ancestor sits at
	int32_t *slot = local + 2 * 256; // slot[d]: last kept child so far of the kept node at depth d
	int32_t *heap = NULL;
	stack[0] = -1;
	pdepth[0] = -1;
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		TSSymbol sym = ts_node_symbol(node);
		TSFieldId field = ts_tree_cursor_current_field_id(&c);
		int32_t parent = stack[depth];
		int32_t self = parent;
		int32_t selfdepth = pdepth[depth];
		if ((sym < nkeep && keep[sym]) || sym == 65535 || field != 0 || depth == 0) {
			if (n == cap) {
				r.status = cap >= limit ? 3 : 4;
				break;
			}
			at_node *o = &out[n];
			o->sym = sym;
			o->field = field;
			o->start = ts_node_start_byte(node);
			o->end = ts_node_end_byte(node);
			o->parent = parent;
			o->first = -1;
			o->next = -1;
			if (parent >= 0) {
				int32_t *prev = &slot[pdepth[depth]];
				if (*prev < 0) {
					out[parent].first = n;
				} else {
					out[*prev].next = n;
				}
				*prev = n;
			}
			slot[depth] = -1;
			self = n;
			selfdepth = depth;
			n++;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			if (depth >= scap) {
				int32_t *grown = malloc(sizeof(int32_t) * scap * 6);
				if (grown == NULL) { r.status = 2; break; }
				memcpy(grown, stack, sizeof(int32_t) * scap);
				memcpy(grown + 2 * scap, pdepth, sizeof(int32_t) * scap);
				memcpy(grown + 4 * scap, slot, sizeof(int32_t) * scap);
				free(heap);
				heap = grown;
				stack = grown;
				pdepth = grown + 2 * scap;
				slot = grown + 4 * scap;
				scap *= 2;
			}
			if (depth > r.max_depth) r.max_depth = depth;
			stack[depth] = self;
			pdepth[depth] = selfdepth;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	free(heap);
	r.count = n;
	return r;
}

static const TSLanguage *at_parser_language(TSParser *p) { return ts_parser_language(p); }

void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                      void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

// at_use_libc_allocator points tree-sitter at libc directly. go-tree-sitter's
// default allocator is the same libc malloc reached through a Go callback on
// every allocation, which costs a fifth of the parse; memory from either
// path is libc memory, so the switch is safe at any time.
static void at_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

// at_parse_only parses and deletes the tree: the baseline the extractor's
// overhead is measured against.
static int at_parse_only(TSParser *p, const char *src, uint32_t len) {
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (tree == NULL) { ts_parser_reset(p); return 0; }
	ts_tree_delete(tree);
	return 1;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Language names recorded on rundir.SourceFile.
const (
	LangJS     = "javascript"
	LangTS     = "typescript"
	LangTSX    = "tsx"
	LangPython = "python"
)

// grammar is one tree-sitter language with its symbol and field tables read
// once, so the Go side compares kinds without crossing into C.
type grammar struct {
	name   string
	lang   *ts.Language
	kinds  []string // symbol id -> kind name
	fields []string // field id -> field name
	keep   []byte   // symbol id -> 1 when the flat copy keeps nodes of that kind
	named  []bool   // symbol id -> named node kind
	pk     []pyKind // symbol id -> the Python passes' kind (pykinds.go)
	pool   sync.Pool
	// loadErr is set when the grammar's ABI does not fit the runtime.
	loadErr error
}

// keptAnonymous are unnamed tokens the extractor reads although they carry
// no field: modifiers that change what a declaration means.
var keptAnonymous = map[string]bool{
	"default": true, "async": true, "static": true, "get": true, "set": true,
	"export": true, "*": true, "of": true, "in": true, "const": true, "let": true, "var": true,
}

func newGrammar(name string, ptr unsafe.Pointer) *grammar {
	g := &grammar{name: name, lang: ts.NewLanguage(ptr)}
	n := int(g.lang.NodeKindCount())
	g.kinds = make([]string, n)
	g.keep = make([]byte, n)
	g.named = make([]bool, n)
	for i := 0; i < n; i++ {
		k := g.lang.NodeKindForId(uint16(i))
		g.kinds[i] = k
		named := g.lang.NodeKindIsNamed(uint16(i))
		g.named[i] = named
		if (named && k != "comment") || (!named && keptAnonymous[k]) {
			g.keep[i] = 1
		}
	}
	g.pk = pyKindTable(g.kinds)
	nf := int(g.lang.FieldCount())
	g.fields = make([]string, nf+1)
	for i := 1; i <= nf; i++ {
		g.fields[i] = g.lang.FieldNameForId(uint16(i))
	}
	// Check the ABI once up front: a grammar that does not fit the runtime
	// must fail every parse with a recorded error, not crash.
	p := ts.NewParser()
	if err := p.SetLanguage(g.lang); err != nil {
		g.loadErr = fmt.Errorf("grammar %s: %w", name, err)
	}
	p.Close()
	if !flatLayoutFits() {
		g.loadErr = fmt.Errorf("grammar %s: the flat node layout does not match the C walk's", name)
	}
	g.pool.New = func() any {
		p := ts.NewParser()
		if err := p.SetLanguage(g.lang); err != nil {
			p.Close()
			return nil
		}
		return p
	}
	return g
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar
)

func loadGrammars() map[string]*grammar {
	grammarsOnce.Do(func() {
		C.at_use_libc_allocator()
		grammars = map[string]*grammar{
			LangJS:     newGrammar(LangJS, tsjs.Language()),
			LangTS:     newGrammar(LangTS, tsts.LanguageTypescript()),
			LangTSX:    newGrammar(LangTSX, tsts.LanguageTSX()),
			LangPython: newGrammar(LangPython, tspy.Language()),
		}
	})
	return grammars
}

// languageOf maps a member path to the grammar that reads it, or "".
// Declaration files (.d.ts) carry types only and never run.
func languageOf(path string) string {
	switch {
	case hasSuffix(path, ".d.ts", ".d.mts", ".d.cts"):
		return ""
	case hasSuffix(path, ".js", ".mjs", ".cjs", ".jsx"):
		return LangJS
	case hasSuffix(path, ".ts", ".mts", ".cts"):
		return LangTS
	case hasSuffix(path, ".tsx"):
		return LangTSX
	case hasSuffix(path, ".py"):
		return LangPython
	}
	return ""
}

// Errors a parse can end in; classify with errors.Is.
var (
	ErrParseTimeout = errors.New("surface: parse stopped at the time budget")
	ErrParseMemory  = errors.New("surface: parse ran out of memory")
	ErrTooManyNodes = errors.New("surface: file has more nodes than the limit")
	ErrGrammar      = errors.New("surface: grammar unavailable")
)

// flatNode is one kept node of a parsed file, in preorder. Children follow
// their parent; first and next link them so the Go side walks without C.
type flatNode struct {
	sym, field  uint16
	start, end  uint32
	parent      int32
	first, next int32
}

// parsed is the Go-side copy of one file's syntax tree.
type parsed struct {
	g        *grammar
	nodes    []flatNode
	hasError bool
	maxDepth int
}

// parseFile parses src with the named grammar within timeout and returns the
// flat copy. The tree-sitter tree is created by one C call and deleted before
// parseFile returns.
func parseFile(lang string, src []byte, timeout time.Duration, maxNodes int) (*parsed, error) {
	return parseFileScratch(lang, src, timeout, maxNodes, -1)
}

// parseFileScratch is parseFile with the flattening's first scratch of want
// nodes; want < 0 is the tree's visible node count, which always suffices
// (tests pass a smaller one to exercise the growth).
func parseFileScratch(lang string, src []byte, timeout time.Duration, maxNodes, want int) (*parsed, error) {
	g := loadGrammars()[lang]
	if g == nil {
		return nil, fmt.Errorf("parse %s: %w", lang, ErrGrammar)
	}
	if g.loadErr != nil {
		return nil, fmt.Errorf("parse %s: %w: %v", lang, ErrGrammar, g.loadErr)
	}
	pv := g.pool.Get()
	if pv == nil {
		return nil, fmt.Errorf("parse %s: %w", lang, ErrGrammar)
	}
	p := pv.(*ts.Parser)
	// A parser stopped part way (time budget, memory) is closed, never
	// pooled: tree-sitter 0.25.0's ts_parser_reset does not clear the
	// balancing state a timed-out parse leaves, and the next parse with that
	// parser aborts the process on an assertion (fixed upstream in 0.25.1).
	reuse := true
	defer func() {
		if reuse {
			g.pool.Put(p)
		} else {
			p.Close()
		}
	}()
	if len(src) > 1<<31-1 {
		return nil, fmt.Errorf("parse: %w", ErrTooManyNodes)
	}
	us := timeout.Microseconds()
	if us <= 0 {
		us = 1
	}
	var csrc *C.char
	if len(src) > 0 {
		csrc = (*C.char)(unsafe.Pointer(&src[0]))
	}
	if maxNodes <= 0 || maxNodes > 1<<30 {
		maxNodes = 1 << 30
	}
	pr := C.at_parse(parserPtr(p), csrc, C.uint32_t(len(src)), C.uint64_t(us))
	if pr.status == 1 {
		reuse = false
		return nil, ErrParseTimeout
	}
	defer C.ts_tree_delete(pr.tree)
	if want < 0 {
		want = int(pr.visible)
	}
	nodes, r := flattenTree(g, pr.tree, want, flatLimit(maxNodes))
	switch r.status {
	case 2:
		reuse = false
		return nil, ErrParseMemory
	case 3:
		return nil, ErrTooManyNodes
	}
	return &parsed{g: g, nodes: nodes, hasError: pr.has_error != 0, maxDepth: int(r.max_depth)}, nil
}

// flatLimit is the number of kept nodes past which a file is refused
// (ErrTooManyNodes) for a maxNodes bound: the first of 1024, 2048, 4096, ...
// that is at least maxNodes, the capacities the flat copy used to grow
// through, so the bound refuses exactly the files it always refused.
func flatLimit(maxNodes int) int {
	lim := 1024
	for lim < maxNodes {
		lim *= 2
	}
	return lim
}

// flatScratch is the buffer one flattening writes into before the kept
// nodes are copied out at their exact count; pooled, so a parse allocates
// only its result.
type flatScratch struct {
	nodes []flatNode
}

var flatScratchPool = sync.Pool{New: func() any { return new(flatScratch) }}

// flattenTree copies tree's kept nodes into a new slice with one C walk
// into a scratch of want nodes. A walk visits at most the tree's visible
// nodes (the root's included), so parseFile's want of min(visible, limit)
// always holds them; a scratch that is full below limit grows (doubling, to
// limit) and the walk runs again.
func flattenTree(g *grammar, tree *C.TSTree, want, limit int) ([]flatNode, C.at_flat_result) {
	sc := flatScratchPool.Get().(*flatScratch)
	defer flatScratchPool.Put(sc)
	want = min(max(want, 1), limit)
	for {
		if cap(sc.nodes) < want {
			sc.nodes = make([]flatNode, want)
		}
		buf := sc.nodes[:want]
		r := C.at_flatten(tree, (*C.at_node)(unsafe.Pointer(&buf[0])),
			C.int32_t(want), C.int32_t(limit), (*C.uint8_t)(unsafe.Pointer(&g.keep[0])), C.uint32_t(len(g.keep)))
		if r.status == 4 {
			want = min(2*want, limit)
			continue
		}
		if r.status != 0 {
			return nil, r
		}
		out := make([]flatNode, int(r.count))
		copy(out, buf)
		return out, r
	}
}

// flatLayoutFits reports whether flatNode has the C walk's at_node layout,
// which at_flatten writes into directly.
func flatLayoutFits() bool {
	var n flatNode
	return unsafe.Sizeof(n) == uintptr(C.at_node_size) &&
		unsafe.Offsetof(n.start) == uintptr(C.at_node_off_start) &&
		unsafe.Offsetof(n.parent) == uintptr(C.at_node_off_parent) &&
		unsafe.Offsetof(n.next) == uintptr(C.at_node_off_next)
}

// parserPtr reads the TSParser pointer a go-tree-sitter Parser wraps (its
// only field, v0.25.0). TestParserPointer pins this against the library.
func parserPtr(p *ts.Parser) *C.TSParser {
	return *(**C.TSParser)(unsafe.Pointer(p))
}

// parseOnly parses src and deletes the tree, for the benchmark baseline.
func parseOnly(lang string, src []byte) bool {
	g := loadGrammars()[lang]
	p := g.pool.Get().(*ts.Parser)
	defer g.pool.Put(p)
	var csrc *C.char
	if len(src) > 0 {
		csrc = (*C.char)(unsafe.Pointer(&src[0]))
	}
	C.ts_parser_set_timeout_micros(parserPtr(p), 0)
	return C.at_parse_only(parserPtr(p), csrc, C.uint32_t(len(src))) == 1
}

func parserLanguagePtr(p *ts.Parser) unsafe.Pointer {
	return unsafe.Pointer(C.at_parser_language(parserPtr(p)))
}

func hasSuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if len(s) >= len(x) && s[len(s)-len(x):] == x {
			return true
		}
	}
	return false
}
