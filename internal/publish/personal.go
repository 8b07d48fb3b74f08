package publish

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
)

// The personal-data scan (docs/methodology.md §7; the rules, their known
// false positives and misses, and their measured figures are in
// docs/publish-contract.md, "Personal data"). Every blob and every published
// row is scanned before anything is written; a hit withholds, it never
// redacts. The rules are deliberately literal: a reader can apply them by
// hand, and a miss or a false positive is a property of a named rule.

// Kinds of personal data the scan looks for.
const (
	KindEmail         = "email_address"
	KindPhone         = "phone_number"
	KindStreetAddress = "street_address"
)

// Hit is one match of a rule. It never carries the matched text: only where
// it is, so a hit can be reported without repeating the personal data.
type Hit struct {
	Kind  string `json:"kind"`
	Rule  string `json:"rule"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Line  int    `json:"line"`
}

// Rule names, as the contract lists them.
const (
	ruleEmail         = "email"
	rulePhoneIntl     = "phone.international"
	rulePhoneNANP     = "phone.nanp"
	rulePhoneLabelled = "phone.labelled"
	ruleStreetNumber  = "address.number_street"
	ruleStreetEU      = "address.street_number"
	ruleStreetRomance = "address.romance"
	rulePOBox         = "address.po_box"
	ruleCityStateZIP  = "address.city_state_zip"
)

var (
	// email: local@domain.tld. The local part is the common dot-atom subset;
	// the domain is at least two labels; the last label is alphabetic (or an
	// IDNA xn-- label), so `pkg@1.2.3` never matches, and an npm scope
	// (`@scope/name`) has no local part.
	reEmail = regexp.MustCompile(`[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{2,59})`)

	// phone.international: + and a country code, then digits in groups.
	rePhoneIntl = regexp.MustCompile(`\+[1-9][0-9 ().-]{6,22}[0-9]`)
	// phone.nanp: (555) 123-4567, 555-123-4567, 555.123.4567, 555 123 4567,
	// optionally with a leading 1 and separator.
	rePhoneNANP = regexp.MustCompile(`(?:1[ .-])?(?:\(\d{3}\)[ ]?|\d{3}[ .-])\d{3}[ .-]\d{4}`)
	// phone.labelled: a word that says "this is a phone number", then a
	// number of at least 7 digits in any grouping.
	rePhoneLabelled = regexp.MustCompile(`(?i)(?:\b(?:tel|phone|telephone|mobile|cell|fax|whatsapp|call us(?: at| on)?|ring us(?: at| on)?)\b\.?[ \t]*(?:number|no\.?|nr\.?)?[ \t]*[:#]?[ \t]*|tel:)(\+?[0-9][0-9 ()./-]{5,20}[0-9])`)

	// address.number_street: 1600 Amphitheatre Parkway, 221B Baker Street.
	// The words between number and suffix are capitalised, on one line.
	reStreetNumber = regexp.MustCompile(`\b\d{1,6}[A-Za-z]?(?:[ \t]+[A-Z][A-Za-z'’.-]*){1,4}?[ \t]+(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Square|Sq|Parkway|Pkwy|Highway|Hwy|Terrace|Ter|Circle|Cir|Trail|Trl)\b\.?`)
	// address.street_number: Hauptstraße 5, Musterstr. 12a, Dorpsstraat 3.
	reStreetEU = regexp.MustCompile(`\b[A-ZÄÖÜÅØÆ][\p{L}-]*(?:straße|strasse|str\.|gasse|allee|platz|weg|plein|laan|straat|vej|gade|gatan|vägen|veien)[ \t]+\d{1,4}[a-z]?\b`)
	// address.romance: 12 rue de la Paix, Calle Mayor 5, Piazza Navona 3.
	reStreetRomance = regexp.MustCompile(`(?:\b\d{1,4}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?i:rue|avenue|boulevard|chemin|impasse|quai|allée)[ \t]+[\p{L}'’ -]{2,40}|\b(?:Calle|Avenida|Rua|Piazza|Viale|Carrer)[ \t]+[A-Z][\p{L}'’ ]{1,40},?[ \t]+\d{1,4}\b)`)
	// address.po_box: PO Box 123, P.O. Box 123, Postfach 1234.
	rePOBox = regexp.MustCompile(`(?i)\b(?:p\.?[ \t]?o\.?[ \t]?box|post office box|postfach)[ \t]+\d{1,8}\b`)
	// address.city_state_zip: Mountain View, CA 94043.
	reCityStateZIP = regexp.MustCompile(`\b[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){0,2},[ \t]+(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)[ \t]+\d{5}(?:-\d{4})?\b`)
)

// fileExtensions are last labels that make `name@x.js` a file name, not an
// address. None of them is a top-level domain.
var fileExtensions = map[string]bool{
	"js": true, "mjs": true, "cjs": true, "jsx": true, "ts": true, "mts": true, "cts": true, "tsx": true,
	"json": true, "map": true, "css": true, "scss": true, "less": true, "html": true, "htm": true,
	"txt": true, "yaml": true, "yml": true, "toml": true, "lock": true, "wasm": true, "node": true,
	"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "ico": true,
	"pyc": true, "pyi": true, "whl": true, "tgz": true, "gz": true, "zip": true, "tar": true,
	"min": true, "d": true, "cfg": true, "ini": true, "env": true, "exe": true, "dll": true, "so": true,
}

// reservedDomain reports the names RFC 2606 and RFC 6761 reserve for
// documentation and testing: no one's address is at them.
func reservedDomain(domain string) bool {
	d := strings.ToLower(domain)
	for _, r := range []string{"example.com", "example.net", "example.org"} {
		if d == r || strings.HasSuffix(d, "."+r) {
			return true
		}
	}
	last := d[strings.LastIndexByte(d, '.')+1:]
	switch last {
	case "example", "test", "invalid", "localhost":
		return true
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitCount(s []byte) int {
	n := 0
	for _, c := range s {
		if isDigit(c) {
			n++
		}
	}
	return n
}

// ScanPersonalData returns every hit of every rule in b, ordered by offset.
// Bytes that are not UTF-8 are scanned as they are.
//
// Every rule matches within one line, so b is scanned line by line, and a
// rule runs on a line only when the line has what any match of it needs (an
// @, a +, enough digits, a suffix word): most lines of code run none.
func ScanPersonalData(b []byte) []Hit {
	var hits []Hit
	add := func(kind, rule string, s, e int) {
		hits = append(hits, Hit{Kind: kind, Rule: rule, Start: s, End: e})
	}
	find := func(re *regexp.Regexp, ls int, line []byte, f func(m []int)) {
		for _, m := range re.FindAllSubmatchIndex(line, -1) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += ls
				}
			}
			f(m)
		}
	}
	for ls := 0; ls < len(b); {
		le := bytes.IndexByte(b[ls:], '\n')
		if le < 0 {
			le = len(b)
		} else {
			le += ls
		}
		line := b[ls:le]
		digits := digitCount(line)
		if bytes.IndexByte(line, '@') >= 0 {
			find(reEmail, ls, line, func(m []int) {
				if emailOK(b, m[0], m[1]) {
					add(KindEmail, ruleEmail, m[0], m[1])
				}
			})
		}
		if digits >= 8 && bytes.IndexByte(line, '+') >= 0 {
			find(rePhoneIntl, ls, line, func(m []int) {
				if s, e, ok := phoneIntlOK(b, m[0], m[1]); ok {
					add(KindPhone, rulePhoneIntl, s, e)
				}
			})
		}
		if digits >= 10 {
			find(rePhoneNANP, ls, line, func(m []int) {
				if nanpOK(b, m[0], m[1]) {
					add(KindPhone, rulePhoneNANP, m[0], m[1])
				}
			})
		}
		if digits >= 7 {
			find(rePhoneLabelled, ls, line, func(m []int) {
				s, e := m[2], m[3]
				if digitCount(b[s:e]) >= 7 && (e == len(b) || !isAlnum(b[e])) {
					add(KindPhone, rulePhoneLabelled, s, e)
				}
			})
		}
		if digits >= 1 {
			find(reStreetNumber, ls, line, func(m []int) {
				if boundaryBefore(b, m[0]) && streetTerminated(b, m[1]) {
					add(KindStreetAddress, ruleStreetNumber, m[0], m[1])
				}
			})
			if hasAny(line, euSuffixes) {
				find(reStreetEU, ls, line, func(m []int) { add(KindStreetAddress, ruleStreetEU, m[0], m[1]) })
			}
			find(reStreetRomance, ls, line, func(m []int) {
				if boundaryBefore(b, m[0]) {
					add(KindStreetAddress, ruleStreetRomance, m[0], m[1])
				}
			})
			if hasAny(line, poBoxWords) {
				find(rePOBox, ls, line, func(m []int) { add(KindStreetAddress, rulePOBox, m[0], m[1]) })
			}
		}
		if digits >= 5 && bytes.IndexByte(line, ',') >= 0 {
			find(reCityStateZIP, ls, line, func(m []int) { add(KindStreetAddress, ruleCityStateZIP, m[0], m[1]) })
		}
		ls = le + 1
	}
	hits = dedupe(hits)
	line, pos := 1, 0
	for i := range hits {
		line += bytes.Count(b[pos:hits[i].Start], []byte{'\n'})
		pos = hits[i].Start
		hits[i].Line = line
	}
	return hits
}

// Words a line must hold for the street-then-number and PO box rules to run.
var (
	euSuffixes = [][]byte{[]byte("stra"), []byte("str."), []byte("gasse"), []byte("allee"), []byte("platz"), []byte("weg"),
		[]byte("plein"), []byte("laan"), []byte("vej"), []byte("gade"), []byte("gatan"), []byte("vägen"), []byte("veien")}
	poBoxWords = [][]byte{[]byte("box"), []byte("Box"), []byte("BOX"), []byte("postfach"), []byte("Postfach"), []byte("POSTFACH")}
)

func hasAny(line []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(line, w) {
			return true
		}
	}
	return false
}

// emailOK applies the email rule's exclusions to the match b[s:e].
func emailOK(b []byte, s, e int) bool {
	if e < len(b) && (isAlnum(b[e]) || b[e] == '-' || b[e] == '_') {
		return false // the domain runs on into something that is not a domain
	}
	m := string(b[s:e])
	at := strings.IndexByte(m, '@')
	local, domain := m[:at], m[at+1:]
	if strings.Trim(local, ".") == "" {
		return false
	}
	last := strings.ToLower(domain[strings.LastIndexByte(domain, '.')+1:])
	if fileExtensions[last] || reservedDomain(domain) {
		return false
	}
	// URL userinfo (scheme://user@host) names a login, not a mailbox.
	if s >= 3 && string(b[s-3:s]) == "://" {
		return false
	}
	// scp-style git remote: git@host:owner/repo.
	if local == "git" && e < len(b) && b[e] == ':' {
		return false
	}
	return true
}

// phoneIntlOK checks a +CC match: not glued to a word or an exponent, 8 to
// 15 digits (10 to 15 when written without any separator), separators never
// doubled except around a bracket.
func phoneIntlOK(b []byte, s, e int) (int, int, bool) {
	if s > 0 && (isAlnum(b[s-1]) || b[s-1] == '.' || b[s-1] == '_') {
		return 0, 0, false
	}
	if e < len(b) && (isAlnum(b[e]) || b[e] == '_' || (b[e] == '.' || b[e] == '-') && e+1 < len(b) && isDigit(b[e+1])) {
		return 0, 0, false
	}
	m := b[s:e]
	n := digitCount(m)
	if n < 8 || n > 15 {
		return 0, 0, false
	}
	seps := len(m) - 1 - n
	if seps == 0 && n < 10 {
		return 0, 0, false
	}
	for i := 1; i+1 < len(m); i++ {
		if !isDigit(m[i]) && !isDigit(m[i+1]) && !(m[i] == ')' || m[i+1] == '(') {
			return 0, 0, false
		}
	}
	if bytes.Count(m, []byte("(")) != bytes.Count(m, []byte(")")) {
		return 0, 0, false
	}
	return s, e, true
}

// nanpOK: the match stands alone, not inside a longer number, a version, a
// path or an identifier.
func nanpOK(b []byte, s, e int) bool {
	if s > 0 {
		c := b[s-1]
		if isAlnum(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == '+' || c == '=' || c == '#' {
			return false
		}
	}
	if e < len(b) {
		c := b[e]
		if isAlnum(c) || c == '_' || (c == '.' || c == '-' || c == '/') && e+1 < len(b) && isDigit(b[e+1]) {
			return false
		}
	}
	return true
}

func boundaryBefore(b []byte, s int) bool {
	return s == 0 || !(isAlnum(b[s-1]) || b[s-1] == '.' || b[s-1] == '-' || b[s-1] == '_' || b[s-1] == '#' || b[s-1] == '$')
}

var streetFollowers = regexp.MustCompile(`^[ \t]+(?:N|S|E|W|NE|NW|SE|SW|Suite|Ste|Apt|Unit|Floor|Fl|#)\b`)

// streetTerminated: a number-street match counts only where the address
// visibly ends (end of text or line, a comma, a full stop, a bracket) or goes
// on as an address does (a direction, a suite or unit). "10 Google Drive
// files" does not end there; "221B Baker Street." does.
func streetTerminated(b []byte, e int) bool {
	if e == len(b) {
		return true
	}
	switch b[e] {
	case ',', '\n', '\r', ';', ')', '"', '<', '|':
		return true
	}
	if b[e-1] == '.' && (b[e] == ' ' || b[e] == '\t') {
		return true
	}
	return streetFollowers.Match(b[e:])
}

// dedupe orders hits by offset and drops a hit that lies inside another of
// the same kind (a labelled phone number also matched by the NANP rule).
// Sorted by start, and by end descending at equal starts, a hit lies inside
// an earlier one of its kind exactly when that kind's furthest end so far
// reaches its end: one pass, so a blob with many hits costs n log n.
func dedupe(hits []Hit) []Hit {
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Start != hits[j].Start {
			return hits[i].Start < hits[j].Start
		}
		return hits[i].End > hits[j].End
	})
	furthest := map[string]int{}
	out := hits[:0]
	for _, h := range hits {
		if end, ok := furthest[h.Kind]; ok && end >= h.End {
			continue
		}
		furthest[h.Kind] = h.End
		out = append(out, h)
	}
	return out
}
