package literal

import (
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

var (
	namesOnce sync.Once
	names     map[string]rune
)

// lookupName resolves a Python \N{...} character name. Python matches names
// case-insensitively; the table is built on first use because most packages
// never write a \N escape. Names the table does not hold (aliases, Hangul
// syllables) are reported as unknown rather than guessed.
func lookupName(name string) (rune, bool) {
	key := strings.ToUpper(name)
	if rest, ok := strings.CutPrefix(key, "CJK UNIFIED IDEOGRAPH-"); ok && (len(rest) == 4 || len(rest) == 5) {
		v, ok := hexVal([]byte(rest))
		if ok && runenames.Name(v) != "" && strings.HasPrefix(runenames.Name(v), "<CJK Ideograph") {
			return v, true
		}
		return 0, false
	}
	namesOnce.Do(func() {
		names = make(map[string]rune, 40000)
		for r := rune(0); r <= 0x10FFFF; r++ {
			n := runenames.Name(r)
			if n == "" || n[0] == '<' {
				continue
			}
			if _, dup := names[n]; !dup {
				names[n] = r
			}
		}
	})
	r, ok := names[key]
	return r, ok
}
