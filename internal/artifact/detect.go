package artifact

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"strings"
)

// DetectFormat names the archive format of data. The bytes decide the
// container (gzip'd tar or zip); the file name decides the flavour (.whl is
// a wheel, .tgz an npm tarball, .tar.gz an sdist). With no telling name, a
// tarball whose first member lies under "package/" is npm's, anything else
// an sdist. Bytes that are neither container are FormatUnknown.
func DetectFormat(filename string, data []byte) Format {
	base := strings.ToLower(filename)
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	switch {
	case isZip(data):
		if strings.HasSuffix(base, ".whl") {
			return FormatWheel
		}
		return FormatSdistZip
	case isGzip(data):
		switch {
		case strings.HasSuffix(base, ".tgz"):
			return FormatNpmTarball
		case strings.HasSuffix(base, ".tar.gz"):
			return FormatSdistTar
		}
		if strings.HasPrefix(firstTarName(data), "package/") {
			return FormatNpmTarball
		}
		return FormatSdistTar
	}
	return FormatUnknown
}

// firstTarName returns the first member name of a gzip'd tar, reading at
// most 2 MiB of it (archive/tar caps a PAX header at 1 MiB), or "".
func firstTarName(data []byte) string {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return ""
	}
	tr := tar.NewReader(io.LimitReader(zr, 2<<20))
	hdr, err := tr.Next()
	if err != nil && hdr == nil {
		return ""
	}
	return strings.TrimPrefix(hdr.Name, "./")
}
