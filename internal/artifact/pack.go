package artifact

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path"
	"path/filepath"
	"time"
)

// PackTarGz packs the named files of dir (slash-separated paths relative to
// dir, written in the order given) into a gzipped tar whose member names are
// prefix/name, each a regular file with mode 0644 and modification time
// epoch, in the given tar format, at the best compression: the same files
// give the same bytes. The demo's packages and attestari check's directory
// targets are packed by it.
func PackTarGz(dir string, files []string, prefix string, format tar.Format, epoch time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.ModTime = epoch
	tw := tar.NewWriter(gz)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		hdr := &tar.Header{Name: path.Join(prefix, f), Mode: 0o644, Size: int64(len(b)), ModTime: epoch, Typeflag: tar.TypeReg, Format: format}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(b); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
