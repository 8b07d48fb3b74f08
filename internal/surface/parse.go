package surface

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

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

typedef struct {
	uint16_t sym;
	uint16_t field;
	uint32_t start;
	uint32_t end;
	int32_t parent;
} at_flat;

typedef struct {
	at_flat *nodes;
	int32_t count;
	int32_t status; // 0 ok, 1 parse cancelled or timed out, 2 out of memory, 3 node limit
	int32_t has_error;
	int32_t max_depth;
} at_result;

// at_parse_flatten parses src, copies the kept nodes of the tree in preorder
// into a malloc'd array (keep[sym] != 0, or the node sits in a field), and
// deletes the tree before returning, so no tree outlives this call.
static at_result at_parse_flatten(TSParser *p, const char *src, uint32_t len, uint64_t timeout_us,
                                  const uint8_t *keep, uint32_t nkeep, int32_t max_nodes) {
	at_result r = {0};
	ts_parser_set_timeout_micros(p, timeout_us);
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (tree == NULL) {
		ts_parser_reset(p);
		r.status = 1;
		return r;
	}
	TSNode root = ts_tree_root_node(tree);
	r.has_error = ts_node_has_error(root);
	int32_t cap = 1024, n = 0;
	int32_t scap = 256, depth = 0;
	at_flat *out = malloc(sizeof(at_flat) * cap);
	int32_t *stack = malloc(sizeof(int32_t) * scap);
	if (out == NULL || stack == NULL) {
		free(out); free(stack); ts_tree_delete(tree);
		r.status = 2;
		return r;
	}
	// stack[d] is the index of the nearest kept ancestor at cursor depth d.
	stack[0] = -1;
	TSTreeCursor c = ts_tree_cursor_new(root);
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		TSSymbol sym = ts_node_symbol(node);
		TSFieldId field = ts_tree_cursor_current_field_id(&c);
		int32_t parent = stack[depth];
		int32_t self = parent;
		if ((sym < nkeep && keep[sym]) || sym == 65535 || field != 0 || depth == 0) {
			if (n == cap) {
				if (cap >= max_nodes) { r.status = 3; break; }
				cap *= 2;
				at_flat *grown = realloc(out, sizeof(at_flat) * cap);
				if (grown == NULL) { r.status = 2; break; }
				out = grown;
			}
			out[n].sym = sym;
			out[n].field = field;
			out[n].start = ts_node_start_byte(node);
			out[n].end = ts_node_end_byte(node);
			out[n].parent = parent;
			self = n;
			n++;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			if (depth >= scap) {
				scap *= 2;
				int32_t *grown = realloc(stack, sizeof(int32_t) * scap);
				if (grown == NULL) { r.status = 2; break; }
				stack = grown;
			}
			if (depth > r.max_depth) r.max_depth = depth;
			stack[depth] = self;
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
	ts_tree_delete(tree);
	free(stack);
	r.nodes = out;
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
// flat copy. The tree-sitter tree is created and deleted inside one C call.
func parseFile(lang string, src []byte, timeout time.Duration, maxNodes int) (*parsed, error) {
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
	r := C.at_parse_flatten(parserPtr(p), csrc, C.uint32_t(len(src)), C.uint64_t(us),
		(*C.uint8_t)(unsafe.Pointer(&g.keep[0])), C.uint32_t(len(g.keep)), C.int32_t(maxNodes))
	defer C.free(unsafe.Pointer(r.nodes))
	switch r.status {
	case 1:
		reuse = false
		return nil, ErrParseTimeout
	case 2:
		reuse = false
		return nil, ErrParseMemory
	case 3:
		return nil, ErrTooManyNodes
	}
	n := int(r.count)
	out := &parsed{g: g, hasError: r.has_error != 0, maxDepth: int(r.max_depth)}
	out.nodes = make([]flatNode, n)
	if n > 0 {
		cn := unsafe.Slice((*C.at_flat)(unsafe.Pointer(r.nodes)), n)
		last := make([]int32, n) // last child seen per node, to link siblings
		for i := range cn {
			fn := &out.nodes[i]
			fn.sym, fn.field = uint16(cn[i].sym), uint16(cn[i].field)
			fn.start, fn.end = uint32(cn[i].start), uint32(cn[i].end)
			fn.parent = int32(cn[i].parent)
			fn.first, fn.next = -1, -1
			last[i] = -1
			if p := fn.parent; p >= 0 {
				if last[p] < 0 {
					out.nodes[p].first = int32(i)
				} else {
					out.nodes[last[p]].next = int32(i)
				}
				last[p] = int32(i)
			}
		}
	}
	return out, nil
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
