package artifact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// splitName turns an archive member name into clean path elements, or says
// why the name cannot be part of the FS. The checks run on the raw name so
// that nothing is ever resolved first: "a/../b" is refused, not cleaned into
// "b", because an installer that does resolve it and one that refuses it
// would disagree about what was installed.
func splitName(name string) (elems []string, skip string) {
	switch {
	case !utf8.ValidString(name):
		return nil, SkipNonUTF8Name
	case strings.IndexByte(name, 0) >= 0:
		return nil, SkipInvalidName
	case strings.HasPrefix(name, "/"):
		return nil, SkipAbsolutePath
	case hasDriveLetter(name):
		return nil, SkipAbsolutePath
	case strings.IndexByte(name, '\\') >= 0:
		// Checked after the absolute forms so that "C:\x" reads as
		// absolute; a backslash elsewhere is a separator on Windows and a
		// plain character on Linux, so either reading could be wrong.
		return nil, SkipBackslashName
	}
	for _, e := range strings.Split(name, "/") {
		switch e {
		case "..":
			return nil, SkipPathTraversal
		case "", ".":
			// "package//a.js" and "./package/a.js" name the same file
			// as "package/a.js" for every extractor.
			continue
		}
		elems = append(elems, e)
	}
	if len(elems) == 0 {
		return nil, SkipInvalidName
	}
	return elems, ""
}

func hasDriveLetter(name string) bool {
	if len(name) < 2 || name[1] != ':' {
		return false
	}
	c := name[0]
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// displayName keeps a recorded name readable and JSON-safe.
func displayName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	return strconv.Quote(name)
}
