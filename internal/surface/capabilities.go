package surface

// The capability inventory (methodology §20): facts about what a package's
// source can reach — network, filesystem, processes, the environment,
// credentials, code obtained at run time — read from the flat syntax trees
// the extractor already holds, with no second parse, no model and no
// severity. Names are read as written: an API is recognised when the call
// names it through an import, a require or a well-known global, never
// through a value bound under another name, a wrapper or a computed member.
// docs/capabilities.md states what is recorded and what is not.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Capability kinds (methodology §20).
const (
	CapNetwork     = "network"
	CapFilesystem  = "filesystem"
	CapProcess     = "process"
	CapEnvironment = "environment"
	CapCredentials = "credentials"
	CapRemoteCode  = "remote_code"
)

// Capability tags. Network entries are tagged with the API family as
// written (fetch, http, axios, requests, …); the other kinds use these.
const (
	TagRead                         = "read"
	TagWrite                        = "write"
	TagSpawn                        = "spawn"
	TagExec                         = "exec"
	TagEnv                          = "env"
	TagFile                         = "file"
	TagDynamicEvaluation            = "dynamic_evaluation"
	TagRemoteImport                 = "remote_import"
	TagDynamicImport                = "dynamic_import"
	TagInstallScriptDownload        = "install_script_download"
	TagInstallScriptDownloadExecute = "install_script_download_execute"
)

// TargetDynamic is the target of a fact whose argument is not a literal.
const TargetDynamic = "dynamic"

// CapabilityRowCap is the most entries one surface row holds; the distinct
// facts beyond it are counted in capabilities_omitted.
const CapabilityRowCap = 500

// capExcerptMax caps the bytes an entry cites. A capped excerpt is still
// exactly the file's bytes [start, end): end moves, the bytes do not change.
const capExcerptMax = 240

// capTargetMax caps the length of a recorded target (a command line or an
// evaluated literal can be long); targets are labels, not cited bytes.
const capTargetMax = 160

// capRow is one entry with what decides whether it survives the row cap.
type capRow struct {
	rundir.Capability
	rank int // 0 runnable source, 1 minified bundle, 2 file that does not run (tests, examples, unreached TS)
}

// capAcc gathers one file's facts: one row per distinct (kind, tag,
// target), citing the first occurrence, with a count.
type capAcc struct {
	f    *file // nil for package.json
	path string
	sha  string
	src  []byte
	rows []capRow
	idx  map[[3]string]int
	rank int
}

func newCapAcc(path, sha string, src []byte, rank int) *capAcc {
	return &capAcc{path: path, sha: sha, src: src, idx: map[[3]string]int{}, rank: rank}
}

// add records a fact whose cited bytes are node n.
func (a *capAcc) add(kind, tag, target string, n nid) {
	if n < 0 || a.f == nil {
		return
	}
	if a.f.inVendoredRegion(n) {
		return
	}
	a.addSpan(kind, tag, target, a.f.start(n), a.f.end(n))
}

// addSpan records a fact citing bytes [start, end) of the file.
func (a *capAcc) addSpan(kind, tag, target string, start, end int) {
	target = capTarget(target)
	key := [3]string{kind, tag, target}
	if i, ok := a.idx[key]; ok {
		a.rows[i].Count++
		if start < a.rows[i].Start {
			a.setSpan(&a.rows[i].Capability, start, end)
		}
		return
	}
	c := rundir.Capability{Kind: kind, Tag: tag, Target: target, File: a.path, FileSHA256: a.sha, Count: 1,
		Bundle: a.f != nil && a.f.minified}
	if !a.setSpan(&c, start, end) {
		return
	}
	a.idx[key] = len(a.rows)
	a.rows = append(a.rows, capRow{Capability: c, rank: a.rank})
}

// setSpan cites bytes [start, end), capped at capExcerptMax and cut before
// any byte that is not valid UTF-8, so that the excerpt survives JSON and
// still equals file[start:end] byte for byte. Line is the 1-based line of
// start, counted in '\n' as the decision side counts it.
func (a *capAcc) setSpan(c *rundir.Capability, start, end int) bool {
	if start < 0 || end > len(a.src) || end <= start {
		return false
	}
	if end-start > capExcerptMax {
		end = start + capExcerptMax
	}
	b := a.src[start:end]
	valid := 0
	for valid < len(b) {
		r, size := utf8.DecodeRune(b[valid:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		valid += size
	}
	if valid == 0 {
		return false
	}
	end = start + valid
	c.Start, c.End = start, end
	c.Excerpt = string(a.src[start:end])
	if a.f != nil {
		c.Line = a.f.line(start)
	} else {
		c.Line = bytes.Count(a.src[:start], []byte{'\n'}) + 1
	}
	return true
}

// capTarget bounds a target's length. An empty target is an empty literal
// (new Function("")), not dynamic: callers say dynamic themselves.
func capTarget(t string) string {
	t = strings.ToValidUTF8(t, "\uFFFD")
	if utf8.RuneCountInString(t) > capTargetMax {
		r := []rune(t)
		t = string(r[:capTargetMax]) + "…"
	}
	return t
}

// capabilities computes the inventory of every parsed member and of the
// package.json install scripts, and applies the row cap. It runs on the
// flat copies load() kept: nothing is parsed again.
func (x *extractor) capabilities(fsys fs.FS) {
	var rows []capRow
	for _, f := range x.files {
		x.checkBudget()
		if x.exceeded {
			return
		}
		if f.vendored || f.parsed == nil || len(f.nodes) == 0 {
			continue
		}
		rank := 0
		switch {
		case f.notRun:
			rank = 2
		case f.minified:
			rank = 1
		}
		acc := newCapAcc(f.path, f.sha256, f.src, rank)
		acc.f = f
		if !x.safeCapabilities(f, acc) {
			continue
		}
		rows = append(rows, acc.rows...)
	}
	rows = append(rows, x.installScriptCapabilities(fsys)...)
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].rank != rows[j].rank {
			return rows[i].rank < rows[j].rank
		}
		return capLess(&rows[i].Capability, &rows[j].Capability)
	})
	omitted := 0
	if len(rows) > CapabilityRowCap {
		omitted = len(rows) - CapabilityRowCap
		rows = rows[:CapabilityRowCap]
	}
	out := make([]rundir.Capability, len(rows))
	for i := range rows {
		out[i] = rows[i].Capability
	}
	sort.SliceStable(out, func(i, j int) bool { return capLess(&out[i], &out[j]) })
	x.s.Capabilities = out
	x.s.CapabilitiesOmitted = omitted
}

func capLess(a, b *rundir.Capability) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.Tag != b.Tag {
		return a.Tag < b.Tag
	}
	return a.Target < b.Target
}

// safeCapabilities reads one file's facts; a panic on hostile input drops
// that file's entries and is recorded as unresolved, never a crash.
func (x *extractor) safeCapabilities(f *file, acc *capAcc) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			x.addUnresolved(f.path, 0, fmt.Sprintf("capability inventory: %s the file: %v", reasonInternalError, r))
			ok = false
		}
	}()
	if f.lang == LangPython {
		scanPyCapabilities(f, acc)
	} else {
		scanJSCapabilities(f, acc)
	}
	return true
}

// ---- targets ----

// urlTarget is the target of a network call given a complete literal: the
// URL's host, or the literal itself when it is not a URL.
func urlTarget(s string) string {
	if h, ok := urlHost(s, true); ok {
		return h
	}
	if strings.Contains(s, "://") {
		return TargetDynamic
	}
	return s
}

// prefixTarget is the target of a network call given only the literal
// prefix of a template, f-string or concatenation: the host when the prefix
// carries it whole, else dynamic.
func prefixTarget(prefix string) string {
	if h, ok := urlHost(prefix, false); ok {
		return h
	}
	return TargetDynamic
}

// urlHost reads the host of scheme://[user@]host[:port][/?#…]. With whole
// false the text is only a prefix: the host counts only when a delimiter
// follows it, or when it ends the prefix looking complete (a dotted name or
// localhost not ending in '.' or '-').
func urlHost(s string, whole bool) (string, bool) {
	i := strings.Index(s, "://")
	if i <= 0 || !isScheme(s[:i]) {
		return "", false
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	delimited := end >= 0
	if end < 0 {
		end = len(rest)
	}
	auth := rest[:end]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		auth = auth[at+1:]
	}
	host := auth
	if strings.HasPrefix(host, "[") {
		if j := strings.Index(host, "]"); j > 0 {
			host = host[:j+1]
			delimited = true
		}
	} else if j := strings.IndexByte(host, ':'); j >= 0 {
		host = host[:j]
		delimited = true
	}
	host = strings.ToLower(host)
	if host == "" || strings.ContainsAny(host, " \t\r\n\"'`{}$<>\\") {
		return "", false
	}
	if !whole && !delimited {
		if strings.HasSuffix(host, ".") || strings.HasSuffix(host, "-") || (!strings.Contains(host, ".") && host != "localhost") {
			return "", false
		}
	}
	return host, true
}

func isScheme(s string) bool {
	if s == "" || len(s) > 16 {
		return false
	}
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// joinPathParts joins literal path parts the way path.join / os.path.join
// do: an absolute part restarts the path. clean applies Node's
// normalisation (path.join / path.resolve); Python's joins do not clean.
func joinPathParts(parts []string, clean bool) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		switch {
		case strings.HasPrefix(p, "/"):
			out = p
		case out == "" || strings.HasSuffix(out, "/"):
			out += p
		default:
			out += "/" + p
		}
	}
	if clean && out != "" {
		out = path.Clean(out)
	}
	return out
}

// ---- credentials ----

// credentialNames are path segments that name a known credential file or
// directory.
var credentialNames = map[string]bool{
	".ssh": true, "id_rsa": true, "id_dsa": true, "id_ecdsa": true, "id_ed25519": true,
	".aws": true, ".azure": true, ".gnupg": true, ".kube": true, ".docker": true,
	".netrc": true, "_netrc": true, ".npmrc": true, ".yarnrc": true, ".yarnrc.yml": true, ".pypirc": true,
	".git-credentials": true, ".pgpass": true, ".vault-token": true, ".boto": true, ".s3cfg": true,
	".env": true, "credentials.json": true, "application_default_credentials.json": true,
}

// envTemplates are .env.<suffix> files that hold placeholders, not secrets.
var envTemplates = map[string]bool{"example": true, "sample": true, "template": true, "dist": true, "defaults": true}

// credentialPath reports whether a literal is a path naming a known
// credential file: no whitespace, and a segment equal to a known name (or
// .env.<suffix> other than the template suffixes).
func credentialPath(s string) bool {
	if s == "" || len(s) > 512 {
		return false
	}
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return false
	}
	for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if credentialNames[seg] {
			return true
		}
		if suf, ok := strings.CutPrefix(seg, ".env."); ok && suf != "" && !envTemplates[strings.ToLower(suf)] &&
			strings.IndexFunc(suf, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') }) < 0 {
			return true
		}
	}
	return false
}

// secretWords are name words that mark an environment variable as a
// secret; secretSuffixes match words written without a separator.
var secretWords = map[string]bool{
	"key": true, "keys": true, "apikey": true, "token": true, "secret": true, "secrets": true,
	"password": true, "passwords": true, "passwd": true, "pass": true, "passphrase": true, "pwd": true,
	"credential": true, "credentials": true, "creds": true, "auth": true, "bearer": true, "pat": true,
	"privatekey": true, "accesskey": true, "secretkey": true, "cookie": true, "jwt": true,
}

var secretSuffixes = []string{"token", "secret", "password", "passwd", "apikey", "privatekey", "accesskey", "secretkey"}

// notSecretWords mark a name as configuration about a secret rather than
// the secret (AUTH_URL, TOKEN_LIMIT, MAX_TOKENS).
var notSecretWords = map[string]bool{
	"url": true, "uri": true, "host": true, "hostname": true, "endpoint": true, "port": true, "domain": true,
	"enabled": true, "disabled": true, "enable": true, "disable": true, "mode": true, "type": true, "method": true,
	"provider": true, "strategy": true, "timeout": true, "ttl": true, "limit": true, "max": true, "min": true,
	"count": true, "budget": true, "size": true, "expiry": true, "expires": true, "tokens": true,
	"server": true, "username": true, "require": true, "mask": true, "trust": true,
}

// secretEnvName reports whether an environment variable name matches the
// secret pattern: a word key, token, secret, password, credential, private
// key, auth or a variant, and no word saying it is configuration about one.
// PWD alone is the working directory, not a password.
func secretEnvName(name string) bool {
	if name == "" || len(name) > 200 || name == "PWD" || name == "OLDPWD" {
		return false
	}
	words := nameWords(name)
	hit := false
	for i, w := range words {
		if notSecretWords[w] {
			return false
		}
		if secretWords[w] {
			hit = true
		}
		if i+1 < len(words) && w == "private" && words[i+1] == "key" {
			hit = true
		}
		for _, s := range secretSuffixes {
			if len(w) > len(s) && strings.HasSuffix(w, s) {
				hit = true
			}
		}
	}
	return hit
}

// nameWords splits SCREAMING_SNAKE, kebab and camelCase names into
// lower-case words.
func nameWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// ---- commands ----

// pipInstallURL reports the host of a URL handed to `pip install` in a
// command's literal words, for remote_import.
func pipInstallURL(words []string) (string, bool) {
	pip, install := false, false
	for _, w := range words {
		switch {
		case w == "pip" || w == "pip3" || strings.HasSuffix(w, "/pip") || strings.HasSuffix(w, "/pip3"):
			pip = true
		case w == "install" && pip:
			install = true
		case install:
			u := strings.TrimPrefix(strings.TrimPrefix(w, "git+"), "hg+")
			if h, ok := urlHost(u, true); ok && (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
				return h, true
			}
		}
	}
	return "", false
}

// firstWord is the executable of a command line: its first
// whitespace-separated word.
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// ---- package.json install scripts ----

var (
	downloadRe  = regexp.MustCompile(`(?i)(^|[^\w-])(curl|wget|invoke-webrequest|invoke-restmethod|iwr|irm|downloadstring|downloadfile|urlopen|urlretrieve)([^\w-]|$)|\bfetch\s*\(|\bhttps?['"]?\)?\.(get|request)\s*\(|\brequests\.get\s*\(`)
	executeRe   = regexp.MustCompile(`(?i)\|\s*(sudo\s+)?(sh|bash|zsh|dash|ksh|node|python[0-9.]*|perl|ruby|iex|invoke-expression)\b|\b(sh|bash|zsh)\s+<\(|\$\(\s*(curl|wget)\b|\beval\b|\bchmod\s+(\+|[0-7]*[1357][0-7]*\s)`)
	scriptURLRe = regexp.MustCompile(`(?i)\b(https?|ftp)://[^\s"'<>|;)]+`)
)

// installHooks are the package.json scripts npm runs when the package is
// installed from the registry.
var installHooks = map[string]bool{"preinstall": true, "install": true, "postinstall": true}

// installScriptCapabilities reads package.json's install hooks: the one
// kind read from a manifest. The entry cites the "hook": "command" member.
func (x *extractor) installScriptCapabilities(fsys fs.FS) []capRow {
	if x.pkg == nil {
		return nil
	}
	p := path.Join(x.root, "package.json")
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	acc := newCapAcc(p, vocab.SHA256Hex(b), b, 0)
	for _, s := range scriptMembers(b) {
		if !installHooks[s.name] {
			continue
		}
		tag, target, ok := classifyInstallScript(s.value)
		if !ok {
			continue
		}
		acc.addSpan(CapRemoteCode, tag, target, s.start, s.end)
	}
	return acc.rows
}

// classifyInstallScript says whether a hook's command downloads something,
// or downloads and runs it, and the host of the first URL it names.
func classifyInstallScript(cmd string) (tag, target string, ok bool) {
	if !downloadRe.MatchString(cmd) {
		return "", "", false
	}
	tag = TagInstallScriptDownload
	if executeRe.MatchString(cmd) {
		tag = TagInstallScriptDownloadExecute
	}
	target = TargetDynamic
	if u := scriptURLRe.FindString(cmd); u != "" {
		if h, ok := urlHost(u, true); ok {
			target = h
		}
	}
	return tag, target, true
}

type scriptMember struct {
	name, value string
	start, end  int // from the key's opening quote to the value's closing quote
}

// scriptMembers lists the string members of package.json's top-level
// "scripts" object with their byte ranges. Malformed JSON yields what was
// read before the fault.
func scriptMembers(b []byte) []scriptMember {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []scriptMember
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := kt.(string)
		if key != "scripts" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return out
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			if err != nil {
				return out
			}
			continue
		}
		for dec.More() {
			start := skipJSONSpace(b, int(dec.InputOffset()))
			kt, err := dec.Token()
			if err != nil {
				return out
			}
			name, _ := kt.(string)
			vt, err := dec.Token()
			if err != nil {
				return out
			}
			if d, ok := vt.(json.Delim); ok {
				// A nested value: skip to its end.
				depth := 1
				if d != '{' && d != '[' {
					continue
				}
				for depth > 0 {
					t, err := dec.Token()
					if err != nil {
						return out
					}
					if d, ok := t.(json.Delim); ok {
						if d == '{' || d == '[' {
							depth++
						} else {
							depth--
						}
					}
				}
				continue
			}
			if v, ok := vt.(string); ok && start < len(b) && b[start] == '"' {
				out = append(out, scriptMember{name: name, value: v, start: start, end: int(dec.InputOffset())})
			}
		}
		if _, err := dec.Token(); err != nil { // closing '}'
			return out
		}
	}
	return out
}

// skipJSONSpace moves past whitespace and the ',' between members.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n', ',':
			i++
		default:
			return i
		}
	}
	return i
}

// capNamed is file.named for a node that may be absent (an optional field).
func capNamed(f *file, n nid) []nid {
	if n < 0 {
		return nil
	}
	return f.named(n)
}

// ---- what the JavaScript and Python scans share ----

// capBinds is what a capability scan knows of a file's names: for each
// local name, the scopes that bind it and the API reference each binding
// names ("" for a binding that shadows one). The two languages differ in
// how bindings are found, not in how they are kept and looked up.
type capBinds struct {
	f     *file
	binds map[string]map[nid]string
	// globals are the names that resolve without a binding (JavaScript's
	// globals, Python's builtins), each to its canonical reference.
	globals map[string]string
	// envRef is the environment object's reference (process.env,
	// os.environ); envNames are the local names bound to it.
	envRef   string
	envNames map[string]bool
}

func newCapBinds(f *file, globals map[string]string, envRef string) capBinds {
	return capBinds{f: f, binds: map[string]map[nid]string{}, globals: globals, envRef: envRef, envNames: map[string]bool{}}
}

// bind records that name, in scope, names ref. The first binding of a
// name in a scope wins: imports are collected first.
func (b *capBinds) bind(name string, scope nid, ref string) {
	if name == "" {
		return
	}
	m := b.binds[name]
	if m == nil {
		m = map[nid]string{}
		b.binds[name] = m
	}
	if _, ok := m[scope]; ok {
		return
	}
	m[scope] = ref
	if ref == b.envRef {
		b.envNames[name] = true
	}
}

// interesting reports a name the inventory reads: a global or a name some
// import binds. Other declarations matter only when they shadow one.
func (b *capBinds) interesting(name string) bool {
	if _, ok := b.globals[name]; ok {
		return true
	}
	_, ok := b.binds[name]
	return ok
}

// identRef resolves identifier n through the nearest enclosing scope that
// binds it, else as a global; a shadowing binding resolves to nothing.
func (b *capBinds) identRef(n nid) (string, bool) {
	f := b.f
	name := f.bytesOf(n)
	if m, ok := b.binds[string(name)]; ok {
		for a := f.parent(n); a >= 0; a = f.parent(a) {
			if ref, ok := m[a]; ok {
				return ref, ref != ""
			}
		}
	}
	g, ok := b.globals[string(name)]
	return g, ok
}

// namesEnv reports identifier n naming the environment object through a
// binding in scope. The spelling is tested first: most files bind no name
// to it.
func (b *capBinds) namesEnv(n nid) bool {
	if len(b.envNames) == 0 || !b.envNames[string(b.f.bytesOf(n))] {
		return false
	}
	ref, ok := b.identRef(n)
	return ok && ref == b.envRef
}

// orDynamic is a target read as a literal, or dynamic when it is not one.
func orDynamic(t string, ok bool) string {
	if ok {
		return t
	}
	return TargetDynamic
}

// prefixURL is the network target of a URL whose literal prefix was read
// (text, whole, ok as the prefix readers return them).
func prefixURL(t string, whole, ok bool) string {
	switch {
	case !ok:
		return TargetDynamic
	case whole:
		return urlTarget(t)
	default:
		return prefixTarget(t)
	}
}

// envRead records an environment variable read, and a credentials fact
// when its name matches the secret pattern.
func (a *capAcc) envRead(name string, cite nid) {
	a.add(CapEnvironment, TagRead, name, cite)
	if name != TargetDynamic && secretEnvName(name) {
		a.add(CapCredentials, TagEnv, name, cite)
	}
}

// process records a spawn or exec, and a pip install from a URL among its
// literal words as remote_import.
func (a *capAcc) process(c nid, tag, target string, words []string) {
	a.add(CapProcess, tag, target, c)
	if h, ok := pipInstallURL(words); ok {
		a.add(CapRemoteCode, TagRemoteImport, h, c)
	}
}

// openByMode decides an open of target by its mode argument (fs.open's
// flags, open()'s mode): a literal with any of the writes characters
// writes; none, or any other literal, reads; a mode that is not a literal
// may do either, so both are recorded.
func (a *capAcc) openByMode(c nid, target string, mode nid, literal func(nid) (string, bool), writes string) {
	if mode < 0 {
		a.add(CapFilesystem, TagRead, target, c)
		return
	}
	if m, ok := literal(mode); ok {
		if strings.ContainsAny(m, writes) {
			a.add(CapFilesystem, TagWrite, target, c)
		} else {
			a.add(CapFilesystem, TagRead, target, c)
		}
		return
	}
	a.add(CapFilesystem, TagRead, target, c)
	a.add(CapFilesystem, TagWrite, target, c)
}

// credentialParts records each literal part (of kind part) of a string
// with substitutions that names a credential file, citing the string.
func (a *capAcc) credentialParts(f *file, n nid, part string) {
	for _, c := range capNamed(f, n) {
		if f.kind(c) != part {
			continue
		}
		if t := f.text(c); credentialPath(t) {
			a.add(CapCredentials, TagFile, t, n)
		}
	}
}
