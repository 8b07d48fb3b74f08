package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"
)

func isZip(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06"))
}

// maxLinkTarget bounds how much of a zip symlink's body (its target) is
// read for the record.
const maxLinkTarget = 4096

// readZip reads a zip (sdist or wheel). The central directory is what
// installers read, so it is the member list; declared sizes are checked
// against the limits before anything is decompressed, and archive/zip then
// holds every member to its declared size and CRC-32 as it is read.
func readZip(ctx context.Context, data []byte, b *builder) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return unreadable(CauseInvalid, "zip: %v", strings.TrimPrefix(err.Error(), "zip: "))
	}
	if len(zr.File) > b.lim.MaxMembers {
		return unreadable(CauseMemberCount, "member count exceeds %d (the central directory lists %d)", b.lim.MaxMembers, len(zr.File))
	}
	var declared uint64
	for _, f := range zr.File {
		if f.Mode().IsRegular() {
			declared = saturatingAdd(declared, f.UncompressedSize64)
		}
	}
	if declared > uint64(b.lim.MaxTotalBytes) {
		return unreadable(CauseTotalBytes, "uncompressed size exceeds %d bytes (the central directory declares %d)", b.lim.MaxTotalBytes, declared)
	}
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.entry(); err != nil {
			return err
		}
		if err := readZipEntry(f, b); err != nil {
			return err
		}
	}
	return nil
}

func saturatingAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func readZipEntry(f *zip.File, b *builder) error {
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		target, err := zipLinkTarget(f, b)
		if err != nil {
			return err
		}
		b.skip(f.Name, SkipSymlink, target)
	case mode.IsDir():
		if _, why := splitName(f.Name); why != "" {
			b.skip(f.Name, why, "")
		}
	case mode&fs.ModeDevice != 0:
		b.skip(f.Name, SkipDevice, "")
	case mode&fs.ModeNamedPipe != 0:
		b.skip(f.Name, SkipFIFO, "")
	case mode&fs.ModeSocket != 0:
		b.skip(f.Name, SkipSocket, "")
	case !mode.IsRegular():
		b.skip(f.Name, SkipUnsupportedType, "")
	default:
		elems, ok := b.place(f.Name)
		if !ok {
			return nil
		}
		declared := int64(math.MaxInt64)
		if f.UncompressedSize64 <= math.MaxInt64 {
			declared = int64(f.UncompressedSize64)
		}
		if declared > b.lim.MaxMemberBytes {
			_, err := b.readMember(f.Name, nil, declared) // records the breach
			return err
		}
		b.current = f.Name
		rc, err := f.Open()
		if err != nil {
			return b.streamError(zipErr(err))
		}
		data, err := b.readMember(f.Name, &countingReader{r: zipErrReader{rc}, b: b}, declared)
		rc.Close()
		if err != nil {
			return err
		}
		b.addFile(f.Name, elems, data, mode)
	}
	return nil
}

// zipLinkTarget reads a zip symlink's target for the record (never to
// follow it). It is read through the limits like any other body.
func zipLinkTarget(f *zip.File, b *builder) (string, error) {
	b.current = f.Name
	rc, err := f.Open()
	if err != nil {
		return "", b.streamError(zipErr(err))
	}
	defer rc.Close()
	target, err := io.ReadAll(io.LimitReader(&countingReader{r: zipErrReader{rc}, b: b}, maxLinkTarget))
	if err != nil {
		return "", b.streamError(err)
	}
	return string(target), nil
}

// zipErr names the layer in a reason: errors from archive/zip already say
// "zip:", those from the inflater or the byte reader beneath do not.
func zipErr(err error) error {
	if err == nil || err == io.EOF || strings.HasPrefix(err.Error(), "zip: ") {
		return err
	}
	return fmt.Errorf("zip: %w", err)
}

type zipErrReader struct{ r io.Reader }

func (z zipErrReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	return n, zipErr(err)
}
