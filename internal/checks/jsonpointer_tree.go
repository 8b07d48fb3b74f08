package checks

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// This file belongs to publisher_provenance: a stored record read once per
// package. LookupPointer decodes every object and array on the way to the
// member it names, so a check that asks a packument listing thousands of
// versions for each version's maintainers decodes the whole document once
// per question (issue 21: 117 s of one warm pass were one package's
// packument). A pointerTree remembers each value it decoded, so every
// object and array of a document is decoded at most once, however many
// pointers are looked up in it; what a lookup returns is exactly what
// LookupPointer returns, because LookupPointer is a lookup in a fresh tree.

// pointerNode is one value of a document: its bytes exactly as they appear
// there, and, once a lookup has stepped into it, its members.
type pointerNode struct {
	raw     json.RawMessage
	decoded bool
	bad     bool // the value is not a JSON object or array that decodes
	members map[string]*pointerNode
	items   []*pointerNode
}

// pointerTree is one document's values, decoded on demand and kept. It is
// not safe for concurrent use; each package's check reads its own records.
type pointerTree struct{ root *pointerNode }

func newPointerTree(doc []byte) *pointerTree {
	return &pointerTree{root: &pointerNode{raw: json.RawMessage(bytes.TrimSpace(doc))}}
}

// decode reads n's members once (an object's last occurrence of a repeated
// key wins, as encoding/json does), and remembers a value that does not
// decode as such.
func (n *pointerNode) decode() {
	if n.decoded {
		return
	}
	n.decoded = true
	switch firstByte(n.raw) {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(n.raw, &m) != nil {
			n.bad = true
			return
		}
		n.members = make(map[string]*pointerNode, len(m))
		for k, v := range m {
			n.members[k] = &pointerNode{raw: v}
		}
	case '[':
		var a []json.RawMessage
		if json.Unmarshal(n.raw, &a) != nil {
			n.bad = true
			return
		}
		n.items = make([]*pointerNode, len(a))
		for i, v := range a {
			n.items[i] = &pointerNode{raw: v}
		}
	default:
		n.bad = true
	}
}

// lookup is LookupPointer over the tree: the raw bytes of the value ptr
// designates and whether it exists.
func (t *pointerTree) lookup(ptr string) (json.RawMessage, bool) {
	cur := t.root
	if ptr == "" {
		return cur.raw, len(cur.raw) > 0
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, raw := range strings.Split(ptr[1:], "/") {
		tok := unescapeToken(raw)
		cur.decode()
		if cur.bad {
			return nil, false
		}
		switch firstByte(cur.raw) {
		case '{':
			v, ok := cur.members[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || (len(tok) > 1 && tok[0] == '0') || i >= len(cur.items) {
				return nil, false
			}
			cur = cur.items[i]
		}
	}
	return cur.raw, true
}

// lookup reads a member of the record's body through the record's tree,
// built on the first lookup and kept with the record, so each of its
// values is decoded once for the whole package.
func (r *StoredRecord) lookup(ptr string) (json.RawMessage, bool) {
	if r.tree == nil {
		r.tree = newPointerTree(r.Body)
	}
	return r.tree.lookup(ptr)
}
