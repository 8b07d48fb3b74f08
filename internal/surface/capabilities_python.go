package surface

import (
	"strings"
)

// pyCapScan reads the capability facts of one Python file from its flat
// syntax tree. A callee resolves to a dotted API name ("subprocess.run",
// "os.environ.get") through the imports written in the file
// (`import subprocess as sp`, `from subprocess import run as r`) or a
// builtin no binding in scope shadows; nothing else is followed.
type pyCapScan struct {
	capBinds // its envNames are the local names bound to os.environ
	acc      *capAcc
}

// pyBuiltinRefs are the builtins the inventory reads by name.
var pyBuiltinRefs = map[string]string{"open": "open", "exec": "exec", "eval": "eval", "compile": "compile", "__import__": "__import__"}

func scanPyCapabilities(f *file, acc *capAcc) {
	s := &pyCapScan{capBinds: newCapBinds(f, pyBuiltinRefs, "os.environ"), acc: acc}
	s.collect()
	s.scan()
}

// scopeOf is the scope a binding at n belongs to.
func (s *pyCapScan) scopeOf(n nid) nid {
	f := s.f
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if k := f.pk(a); pyScopePK(k) || k == pkClassDefinition {
			return a
		}
	}
	return 0
}

// interestingAt is interesting(f.text(n)), looked up without making the
// string.
func (s *pyCapScan) interestingAt(n nid) bool {
	b := s.f.bytesOf(n)
	if _, ok := s.globals[string(b)]; ok {
		return true
	}
	_, ok := s.binds[string(b)]
	return ok
}

// dottedText joins a dotted_name's identifiers without whitespace.
func (s *pyCapScan) dottedText(n nid) string {
	f := s.f
	if f.pk(n) != pkDottedName {
		return strings.Join(strings.Fields(f.text(n)), "")
	}
	var parts []string
	for _, c := range capNamed(f, n) {
		parts = append(parts, f.text(c))
	}
	return strings.Join(parts, ".")
}

// collect records imports first (they win in their scope), then the other
// bindings of the names the inventory reads, which shadow them.
func (s *pyCapScan) collect() {
	f := s.f
	// Each loop visits only the kinds it reads, in preorder (the first
	// binding of a name in a scope wins), through the kind index.
	f.eachOfKinds(func(n nid) {
		switch f.pk(n) {
		case pkImportStatement:
			for _, c := range f.fieldAll(n, "name") {
				switch f.pk(c) {
				case pkDottedName:
					ids := capNamed(f, c)
					if len(ids) > 0 {
						s.bind(f.text(ids[0]), s.scopeOf(n), f.text(ids[0]))
					}
				case pkAliasedImport:
					s.bind(f.text(f.field(c, "alias")), s.scopeOf(n), s.dottedText(f.field(c, "name")))
				}
			}
		case pkImportFromStatement:
			mn := f.field(n, "module_name")
			mod := s.dottedText(mn)
			if f.pk(mn) == pkRelativeImport {
				mod = "." + mod // never an API name
			}
			for _, c := range f.fieldAll(n, "name") {
				switch f.pk(c) {
				case pkDottedName:
					name := s.dottedText(c)
					s.bind(name, s.scopeOf(n), mod+"."+name)
				case pkAliasedImport:
					s.bind(f.text(f.field(c, "alias")), s.scopeOf(n), mod+"."+s.dottedText(f.field(c, "name")))
				}
			}
		}
	}, pkImportStatement, pkImportFromStatement)
	var target func(t, scope nid)
	target = func(t, scope nid) {
		switch f.pk(t) {
		case pkIdentifier:
			if s.interestingAt(t) {
				s.bind(f.text(t), scope, "")
			}
		case pkPatternList, pkTuplePattern, pkListPattern, pkTuple, pkList, pkListSplatPattern:
			for _, c := range capNamed(f, t) {
				target(c, scope)
			}
		}
	}
	f.eachOfKinds(func(n nid) {
		switch f.pk(n) {
		case pkAssignment, pkForStatement, pkForInClause:
			target(f.field(n, "left"), s.scopeOf(n))
		case pkNamedExpression:
			target(f.field(n, "name"), s.scopeOf(n))
		case pkAsPattern:
			if a := f.field(n, "alias"); a >= 0 {
				for _, c := range capNamed(f, a) {
					target(c, s.scopeOf(n))
				}
			}
		case pkFunctionDefinition, pkClassDefinition:
			if nm := f.field(n, "name"); nm >= 0 && s.interestingAt(nm) {
				s.bind(f.text(nm), s.scopeOf(n), "")
			}
			for _, p := range capNamed(f, f.field(n, "parameters")) {
				if name := pyParamName(f, p); name != "" && s.interesting(name) {
					s.bind(name, n, "")
				}
			}
		case pkLambda:
			for _, p := range capNamed(f, f.field(n, "parameters")) {
				if name := pyParamName(f, p); name != "" && s.interesting(name) {
					s.bind(name, n, "")
				}
			}
		}
	}, pkAssignment, pkForStatement, pkForInClause, pkNamedExpression, pkAsPattern, pkFunctionDefinition, pkClassDefinition, pkLambda)
}

// resolve returns the dotted API name an expression names.
func (s *pyCapScan) resolve(n nid) (string, bool) {
	f := s.f
	for depth := 0; depth < 32 && n >= 0; depth++ {
		switch f.pk(n) {
		case pkIdentifier:
			return s.identRef(n)
		case pkAttribute:
			base, ok := s.resolve(f.field(n, "object"))
			if !ok {
				return "", false
			}
			return base + "." + f.text(f.field(n, "attribute")), true
		case pkParenthesizedExpression:
			ch := capNamed(f, n)
			if len(ch) != 1 {
				return "", false
			}
			n = ch[0]
		default:
			return "", false
		}
	}
	return "", false
}

func (s *pyCapScan) scan() {
	f := s.f
	// Calls, attributes, identifiers and strings are most of a file's
	// nodes: one loop over all of them comparing pyKinds costs less than
	// merging the four lists of the kind index.
	for i := range f.nodes {
		n := nid(i)
		switch f.pk(n) {
		case pkCall:
			s.call(n)
		case pkAttribute:
			a := f.field(n, "attribute")
			if f.end(a)-f.start(a) != len("environ") || string(f.bytesOf(a)) != "environ" {
				continue
			}
			if ref, ok := s.resolve(n); ok && ref == "os.environ" {
				s.envObject(n)
			}
		case pkIdentifier:
			if s.namesEnv(n) && s.readPosition(n) {
				s.envObject(n)
			}
		case pkString:
			s.credentialString(n)
		}
	}
}

// readPosition reports whether an identifier is read rather than bound
// by an import.
func (s *pyCapScan) readPosition(n nid) bool {
	f := s.f
	p := f.parent(n)
	switch f.pk(p) {
	case pkDottedName, pkAliasedImport, pkImportFromStatement, pkImportStatement:
		return false
	case pkAttribute:
		return f.field(p, "attribute") != n
	case pkKeywordArgument:
		return f.field(p, "name") != n
	}
	return true
}

// ---- literals ----

// pyPrefix returns the literal text that starts a string, an f-string, a
// concatenation or a format call: whole is true when it is all the text.
func (s *pyCapScan) pyPrefix(n nid) (text string, whole, ok bool) {
	f := s.f
	for depth := 0; depth < 64 && n >= 0; depth++ {
		switch f.kind(n) {
		case "string":
			v := pyStringText(f, n)
			if v.k != vText {
				return "", false, false
			}
			var b strings.Builder
			for _, sg := range v.txt.segs {
				if sg.hole {
					return b.String(), false, true
				}
				b.WriteString(sg.text)
			}
			return b.String(), true, true
		case "concatenated_string":
			var b strings.Builder
			for _, c := range capNamed(f, n) {
				t, w, ok := s.pyPrefix(c)
				if !ok {
					return b.String(), false, b.Len() > 0
				}
				b.WriteString(t)
				if !w {
					return b.String(), false, true
				}
			}
			return b.String(), true, true
		case "binary_operator":
			op := f.text(f.field(n, "operator"))
			t, _, ok := s.pyPrefix(f.field(n, "left"))
			if !ok {
				return "", false, false
			}
			switch op {
			case "+":
				return t, false, true
			case "%":
				if i := strings.IndexByte(t, '%'); i >= 0 {
					t = t[:i]
				}
				return t, false, true
			}
			return "", false, false
		case "call":
			fn := f.field(n, "function")
			if f.kind(fn) != "attribute" || f.text(f.field(fn, "attribute")) != "format" {
				return "", false, false
			}
			t, _, ok := s.pyPrefix(f.field(fn, "object"))
			if !ok {
				return "", false, false
			}
			if i := strings.IndexByte(t, '{'); i >= 0 {
				t = t[:i]
			}
			return t, false, true
		case "parenthesized_expression":
			ch := capNamed(f, n)
			if len(ch) != 1 {
				return "", false, false
			}
			n = ch[0]
		default:
			return "", false, false
		}
	}
	return "", false, false
}

// pyLiteral returns the text of a string literal with no interpolation.
func (s *pyCapScan) pyLiteral(n nid) (string, bool) {
	t, whole, ok := s.pyPrefix(n)
	if !ok || !whole || s.f.kind(n) == "binary_operator" || s.f.kind(n) == "call" {
		return "", false
	}
	return t, true
}

// argOf returns positional argument i, or keyword argument kw, of a call.
func (s *pyCapScan) argOf(call nid, i int, kw string) nid {
	f := s.f
	pos := 0
	for _, a := range capNamed(f, f.field(call, "arguments")) {
		switch f.kind(a) {
		case "keyword_argument":
			if kw != "" && f.text(f.field(a, "name")) == kw {
				return f.field(a, "value")
			}
		case "list_splat", "dictionary_splat":
			// Arguments after a splat are not at a known position.
			pos = -1 << 30
		default:
			if pos == i {
				return a
			}
			pos++
		}
	}
	return none
}

func (s *pyCapScan) urlValue(n nid) string {
	f := s.f
	if n < 0 {
		return TargetDynamic
	}
	if f.kind(n) == "call" {
		if ref, ok := s.resolve(f.field(n, "function")); ok && ref == "urllib.request.Request" {
			return s.urlValue(s.argOf(n, 0, "url"))
		}
	}
	if f.kind(n) == "tuple" || f.kind(n) == "parenthesized_expression" && f.kind(capNamed(f, n)[0]) == "tuple" {
		// socket addresses: (host, port)
		if f.kind(n) == "parenthesized_expression" {
			n = capNamed(f, n)[0]
		}
		if els := capNamed(f, n); len(els) > 0 {
			if t, ok := s.pyLiteral(els[0]); ok {
				return urlTarget(t)
			}
		}
		return TargetDynamic
	}
	return prefixURL(s.pyPrefix(n))
}

// literalPath is a filesystem path written with literals only: a string,
// os.path.join of literals, or a pathlib expression of literals.
func (s *pyCapScan) literalPath(n nid, depth int) (string, bool) {
	f := s.f
	if n < 0 || depth > 16 {
		return "", false
	}
	if t, ok := s.pyLiteral(n); ok {
		return t, true
	}
	if f.kind(n) == "call" {
		if ref, ok := s.resolve(f.field(n, "function")); ok && (ref == "os.path.join" || ref == "posixpath.join") {
			var parts []string
			for _, a := range capNamed(f, f.field(n, "arguments")) {
				p, ok := s.literalPath(a, depth+1)
				if !ok {
					return "", false
				}
				parts = append(parts, p)
			}
			return joinPathParts(parts, false), len(parts) > 0
		}
	}
	if p, lit, ok := s.pathExpr(n, depth+1); ok && lit {
		return p, true
	}
	return "", false
}

func (s *pyCapScan) pathValue(n nid) string {
	return orDynamic(s.literalPath(n, 0))
}

var pyPathClasses = map[string]bool{
	"pathlib.Path": true, "pathlib.PurePath": true, "pathlib.PosixPath": true, "pathlib.WindowsPath": true,
	"pathlib.PurePosixPath": true, "pathlib.PureWindowsPath": true, "anyio.Path": true, "aiopath.AsyncPath": true,
}

// pathExpr reads a pathlib expression as written: Path(...), Path.home(),
// and / joins and joinpath on one. ok says it is one; lit that every part
// is a literal, in which case p is the joined path.
func (s *pyCapScan) pathExpr(n nid, depth int) (p string, lit, ok bool) {
	f := s.f
	if n < 0 || depth > 32 {
		return "", false, false
	}
	switch f.kind(n) {
	case "call":
		fn := f.field(n, "function")
		if ref, ok := s.resolve(fn); ok {
			if pyPathClasses[ref] {
				var parts []string
				for _, a := range capNamed(f, f.field(n, "arguments")) {
					t, ok := s.literalPath(a, depth+1)
					if !ok {
						return "", false, true
					}
					parts = append(parts, t)
				}
				if len(parts) == 0 {
					return ".", true, true
				}
				return joinPathParts(parts, false), true, true
			}
			if base, m := splitRef(ref); pyPathClasses[base] && (m == "home" || m == "cwd") {
				return "", false, true
			}
		}
		if f.kind(fn) != "attribute" {
			return "", false, false
		}
		p, lit, ok := s.pathExpr(f.field(fn, "object"), depth+1)
		if !ok {
			return "", false, false
		}
		switch f.text(f.field(fn, "attribute")) {
		case "joinpath":
			parts := []string{p}
			for _, a := range capNamed(f, f.field(n, "arguments")) {
				t, ok := s.literalPath(a, depth+1)
				if !ok {
					lit = false
				}
				parts = append(parts, t)
			}
			if !lit {
				return "", false, true
			}
			return joinPathParts(parts, false), true, true
		case "expanduser":
			return p, lit, true
		case "resolve", "absolute", "with_name", "with_suffix", "with_stem":
			return "", false, true
		}
		return "", false, false
	case "binary_operator":
		if f.text(f.field(n, "operator")) != "/" {
			return "", false, false
		}
		p, lit, ok := s.pathExpr(f.field(n, "left"), depth+1)
		if !ok {
			return "", false, false
		}
		r, rok := s.literalPath(f.field(n, "right"), depth+1)
		if !lit || !rok {
			return "", false, true
		}
		return joinPathParts([]string{p, r}, false), true, true
	case "attribute":
		switch f.text(f.field(n, "attribute")) {
		case "parent", "parents", "stem", "name":
			if _, _, ok := s.pathExpr(f.field(n, "object"), depth+1); ok {
				return "", false, true
			}
		}
	case "parenthesized_expression":
		if ch := capNamed(f, n); len(ch) == 1 {
			return s.pathExpr(ch[0], depth+1)
		}
	}
	return "", false, false
}

// ---- classification ----

type pyNetSpec struct {
	tag string
	pos int    // positional index of the URL, -1 none
	kw  string // keyword naming it
}

var pyNetwork = func() map[string]pyNetSpec {
	m := map[string]pyNetSpec{
		"requests.request": {"requests", 1, "url"}, "requests.Session": {"requests", -1, ""}, "requests.session": {"requests", -1, ""},
		"httpx.request": {"httpx", 1, "url"}, "httpx.stream": {"httpx", 1, "url"},
		"httpx.Client": {"httpx", -1, "base_url"}, "httpx.AsyncClient": {"httpx", -1, "base_url"},
		"aiohttp.ClientSession": {"aiohttp", 0, "base_url"}, "aiohttp.request": {"aiohttp", 1, "url"},
		"urllib.request.urlopen": {"urllib", 0, "url"}, "urllib.request.urlretrieve": {"urllib", 0, "url"},
		"urllib.request.Request":     {"urllib", 0, "url"},
		"http.client.HTTPConnection": {"http.client", 0, "host"}, "http.client.HTTPSConnection": {"http.client", 0, "host"},
		"websockets.connect": {"websockets", 0, "uri"}, "websockets.client.connect": {"websockets", 0, "uri"},
		"websockets.asyncio.client.connect": {"websockets", 0, "uri"}, "websockets.sync.client.connect": {"websockets", 0, "uri"},
		"websocket.create_connection": {"websocket", 0, "url"}, "websocket.WebSocketApp": {"websocket", 0, "url"},
		"socket.socket": {"socket", -1, ""}, "socket.create_connection": {"socket", 0, "address"},
	}
	for _, v := range []string{"get", "post", "put", "patch", "delete", "head", "options"} {
		m["requests."+v] = pyNetSpec{"requests", 0, "url"}
		m["httpx."+v] = pyNetSpec{"httpx", 0, "url"}
	}
	return m
}()

// pyOSFS maps os (and aiofiles.os) functions to the paths they touch.
var pyOSFS = func() map[string][]fsArg {
	m := map[string][]fsArg{
		"rename": {{TagWrite, 0}, {TagWrite, 1}}, "replace": {{TagWrite, 0}, {TagWrite, 1}}, "renames": {{TagWrite, 0}, {TagWrite, 1}},
		"symlink": {{TagWrite, 1}}, "link": {{TagWrite, 1}},
	}
	for _, k := range []string{"makedirs", "mkdir", "remove", "unlink", "rmdir", "removedirs", "chmod", "chown", "lchown",
		"truncate", "utime", "mkfifo"} {
		m[k] = fsWrite
	}
	for _, k := range []string{"listdir", "scandir", "walk", "stat", "lstat", "access", "readlink"} {
		m[k] = fsRead
	}
	for _, k := range []string{"exists", "isfile", "isdir", "getsize", "getmtime", "islink", "lexists"} {
		m["path."+k] = fsRead
	}
	return m
}()

var pyShutil = map[string][]fsArg{
	"copyfile": {{TagRead, 0}, {TagWrite, 1}}, "copy": {{TagRead, 0}, {TagWrite, 1}}, "copy2": {{TagRead, 0}, {TagWrite, 1}},
	"copytree": {{TagRead, 0}, {TagWrite, 1}}, "move": {{TagWrite, 0}, {TagWrite, 1}}, "rmtree": fsWrite,
	"make_archive": fsWrite, "unpack_archive": {{TagRead, 0}, {TagWrite, 1}}, "chown": fsWrite,
}

// pyPathMethods maps pathlib methods to what they do to the receiver's path.
var pyPathMethods = map[string]string{
	"read_text": TagRead, "read_bytes": TagRead, "iterdir": TagRead, "glob": TagRead, "rglob": TagRead,
	"exists": TagRead, "is_file": TagRead, "is_dir": TagRead, "stat": TagRead,
	"write_text": TagWrite, "write_bytes": TagWrite, "mkdir": TagWrite, "touch": TagWrite, "unlink": TagWrite,
	"rmdir": TagWrite, "rename": TagWrite, "replace": TagWrite, "symlink_to": TagWrite, "hardlink_to": TagWrite,
	"chmod": TagWrite, "open": "",
}

func (s *pyCapScan) call(c nid) {
	f := s.f
	fn := f.field(c, "function")
	ref, ok := s.resolve(fn)
	if !ok {
		s.pathMethod(c, fn)
		return
	}
	if spec, ok := pyNetwork[ref]; ok {
		target := TargetDynamic
		if spec.pos >= 0 || spec.kw != "" {
			target = s.urlValue(s.argOf(c, spec.pos, spec.kw))
		}
		s.acc.add(CapNetwork, spec.tag, target, c)
		return
	}
	base, name := splitRef(ref)
	switch {
	case base == "os" || base == "aiofiles.os" || base == "os.path" || base == "aiofiles.os.path":
		key := name
		if strings.HasSuffix(base, ".path") {
			key = "path." + name
		}
		if ops, ok := pyOSFS[key]; ok {
			s.fsOps(c, ops)
			return
		}
	case base == "shutil":
		if ops, ok := pyShutil[name]; ok {
			s.fsOps(c, ops)
			return
		}
	case base == "tempfile":
		switch name {
		case "mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryFile", "TemporaryDirectory", "SpooledTemporaryFile", "mktemp":
			s.acc.add(CapFilesystem, TagWrite, s.pathValue(s.argOf(c, -1, "dir")), c)
			return
		}
	}
	switch ref {
	case "open", "io.open", "codecs.open", "builtins.open", "aiofiles.open":
		s.openCall(c, s.argOf(c, 0, "file"), s.argOf(c, 1, "mode"))
	case "os.open":
		tag := TagRead
		fl := s.argOf(c, 1, "flags")
		if t := f.text(fl); strings.Contains(t, "O_WRONLY") || strings.Contains(t, "O_RDWR") || strings.Contains(t, "O_CREAT") ||
			strings.Contains(t, "O_APPEND") || strings.Contains(t, "O_TRUNC") {
			tag = TagWrite
		}
		s.acc.add(CapFilesystem, tag, s.pathValue(s.argOf(c, 0, "path")), c)
	case "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen":
		tag := TagSpawn
		if v := s.argOf(c, -1, "shell"); v >= 0 && f.kind(v) == "true" {
			tag = TagExec
		}
		s.argvProcess(c, tag, s.argOf(c, 0, "args"))
	case "subprocess.getoutput", "subprocess.getstatusoutput", "os.system", "os.popen":
		s.argvProcess(c, TagExec, s.argOf(c, 0, "cmd"))
	case "os.execl", "os.execle", "os.execlp", "os.execlpe", "os.execv", "os.execve", "os.execvp", "os.execvpe",
		"os.posix_spawn", "os.posix_spawnp":
		s.argvProcess(c, TagSpawn, s.argOf(c, 0, "path"))
	case "os.spawnl", "os.spawnle", "os.spawnlp", "os.spawnlpe", "os.spawnv", "os.spawnve", "os.spawnvp", "os.spawnvpe":
		s.argvProcess(c, TagSpawn, s.argOf(c, 1, "file"))
	case "asyncio.create_subprocess_exec", "asyncio.subprocess.create_subprocess_exec":
		s.argvProcess(c, TagSpawn, s.argOf(c, 0, "program"))
	case "asyncio.create_subprocess_shell", "asyncio.subprocess.create_subprocess_shell":
		s.argvProcess(c, TagExec, s.argOf(c, 0, "cmd"))
	case "pip.main", "pip._internal.main":
		words := []string{"pip"}
		if a := s.argOf(c, 0, "args"); f.kind(a) == "list" {
			for _, e := range capNamed(f, a) {
				t, _ := s.pyLiteral(e)
				words = append(words, t)
			}
		}
		if h, ok := pipInstallURL(words); ok {
			s.acc.add(CapRemoteCode, TagRemoteImport, h, c)
		}
	case "os.getenv", "os.getenvb":
		s.acc.envRead(s.nameValue(s.argOf(c, 0, "key")), c)
	case "exec", "eval", "compile", "builtins.exec", "builtins.eval", "builtins.compile":
		s.acc.add(CapRemoteCode, TagDynamicEvaluation, s.nameValue(s.argOf(c, 0, "source")), c)
	case "importlib.import_module", "__import__", "builtins.__import__":
		a := s.argOf(c, 0, "name")
		if _, ok := s.pyLiteral(a); !ok && a >= 0 {
			s.acc.add(CapRemoteCode, TagDynamicImport, TargetDynamic, c)
		}
	default:
		s.pathMethod(c, fn)
	}
}

// nameValue is the literal text of n, or dynamic.
func (s *pyCapScan) nameValue(n nid) string {
	return orDynamic(s.pyLiteral(n))
}

func (s *pyCapScan) fsOps(c nid, ops []fsArg) {
	for _, o := range ops {
		s.acc.add(CapFilesystem, o.tag, s.pathValue(s.argOf(c, o.idx, "")), c)
	}
}

// openCall decides open() by its mode: w, a, x or + writes; none or r
// reads; a mode that is not a literal may do either, so both are recorded.
func (s *pyCapScan) openCall(c, p, mode nid) {
	s.acc.openByMode(c, s.pathValue(p), mode, s.pyLiteral, "wax+")
}

// pathMethod records a pathlib method called on a pathlib expression
// written in place (Path("x").read_text(), (Path.home() / ".aws").open()).
func (s *pyCapScan) pathMethod(c, fn nid) {
	f := s.f
	if f.kind(fn) != "attribute" {
		return
	}
	method := f.text(f.field(fn, "attribute"))
	tag, ok := pyPathMethods[method]
	if !ok {
		return
	}
	p, lit, ok := s.pathExpr(f.field(fn, "object"), 0)
	if !ok {
		return
	}
	target := TargetDynamic
	if lit {
		target = p
	}
	if method == "open" {
		s.acc.openByMode(c, target, s.argOf(c, 0, "mode"), s.pyLiteral, "wax+")
		return
	}
	s.acc.add(CapFilesystem, tag, target, c)
	if method == "rename" || method == "replace" {
		s.acc.add(CapFilesystem, TagWrite, s.pathValue(s.argOf(c, 0, "target")), c)
	}
}

// argvProcess records a process whose command is a string or an argument
// list; the target is the command literal (the list's first element).
func (s *pyCapScan) argvProcess(c nid, tag string, a nid) {
	f := s.f
	target := TargetDynamic
	var words []string
	switch f.kind(a) {
	case "list", "tuple":
		els := capNamed(f, a)
		if len(els) > 0 {
			target = s.nameValue(els[0])
		}
		for _, e := range els {
			t, _ := s.pyLiteral(e)
			words = append(words, t)
		}
	default:
		if t, ok := s.pyLiteral(a); ok {
			target = t
			words = strings.Fields(t)
		}
	}
	// asyncio.create_subprocess_exec and os.exec* take the rest as arguments.
	if f.kind(a) != "list" && f.kind(a) != "tuple" {
		for _, e := range capNamed(f, f.field(c, "arguments")) {
			if e != a && f.kind(e) != "keyword_argument" {
				t, _ := s.pyLiteral(e)
				words = append(words, t)
			}
		}
	}
	s.acc.process(c, tag, target, words)
}

// ---- environment ----

// envObject records what is read from os.environ at n.
func (s *pyCapScan) envObject(n nid) {
	f := s.f
	p := f.parent(n)
	switch f.kind(p) {
	case "attribute":
		if f.field(p, "object") != n {
			break
		}
		gp := f.parent(p)
		called := f.kind(gp) == "call" && f.field(gp, "function") == p
		switch method := f.text(f.field(p, "attribute")); {
		case !called:
		case method == "get" || method == "setdefault" || method == "pop":
			s.acc.envRead(s.nameValue(s.argOf(gp, 0, "key")), gp)
			return
		case method == "update" || method == "clear" || method == "__setitem__" || method == "__delitem__":
			return
		default:
			s.acc.envRead(TargetDynamic, gp)
			return
		}
	case "subscript":
		if f.field(p, "value") != n {
			break
		}
		gp := f.parent(p)
		if f.kind(gp) == "assignment" && f.field(gp, "left") == p || f.kind(gp) == "delete_statement" {
			return
		}
		s.acc.envRead(s.nameValue(f.field(p, "subscript")), p)
		return
	case "comparison_operator":
		ch := capNamed(f, p)
		if len(ch) == 2 && ch[1] == n {
			if op := f.field(p, "operators"); op >= 0 && strings.HasSuffix(f.text(op), "in") {
				if t, ok := s.pyLiteral(ch[0]); ok {
					s.acc.envRead(t, p)
					return
				}
			}
		}
	}
	s.acc.envRead(TargetDynamic, n)
}

// ---- credential files ----

func (s *pyCapScan) credentialString(n nid) {
	f := s.f
	if !mayNameCredential(f.bytesOf(n)) {
		return
	}
	p := f.parent(n)
	if f.pk(p) == pkExpressionStatement && len(capNamed(f, p)) == 1 {
		return // a docstring or a bare string statement
	}
	if f.pk(p) == pkConcatenatedString {
		if gp := f.parent(p); f.pk(gp) == pkExpressionStatement {
			return
		}
	}
	if t, whole, ok := s.pyPrefix(n); ok && whole {
		if credentialPath(t) {
			s.acc.add(CapCredentials, TagFile, t, n)
		}
		return
	}
	s.acc.credentialParts(f, n, "string_content")
}
