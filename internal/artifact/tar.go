package artifact

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

func isGzip(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
}

// readTar reads a gzip-compressed tar. Only gzip is accepted: it is what
// npm and PyPI serve, and its trailer (CRC-32 and length) is what lets a
// stream cut short at a member boundary be told from a complete one.
func readTar(ctx context.Context, data []byte, b *builder) error {
	if !isGzip(data) {
		return unreadable(CauseInvalid, "not a gzip stream (first bytes %x)", data[:min(len(data), 4)])
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return b.streamError(fmt.Errorf("gzip header: %w", err))
	}
	// Concatenated gzip members are one stream (RFC 1952 §2.2), as every
	// gunzip reads them; the limits apply across all of them.
	zr.Multistream(true)
	stream := &countingReader{r: zr, b: b}
	tr := tar.NewReader(stream)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.current = ""
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		// ErrInsecurePath comes with a usable header (only under a GODEBUG
		// setting); names are judged by splitName either way.
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			return b.streamError(err)
		}
		if err := b.entry(); err != nil {
			return err
		}
		if err := readTarEntry(tr, hdr, b); err != nil {
			return err
		}
	}
	// Read what follows the end-of-archive marker to the end of the gzip
	// stream, so its checksum and length are verified: a corrupt or cut
	// stream is unreadable even when the damage lies past the last member.
	b.current = ""
	if _, err := io.Copy(io.Discard, stream); err != nil {
		return b.streamError(err)
	}
	return nil
}

func readTarEntry(tr *tar.Reader, hdr *tar.Header, b *builder) error {
	switch hdr.Typeflag {
	case tar.TypeReg, '\x00', tar.TypeCont:
		if isSparse(hdr) {
			b.skip(hdr.Name, SkipSparse, "")
			return nil
		}
		elems, ok := b.place(hdr.Name)
		if !ok {
			return nil // tr.Next discards the body, still through the limits
		}
		data, err := b.readMember(hdr.Name, tr, hdr.Size)
		if err != nil {
			return err
		}
		b.addFile(hdr.Name, elems, data, fs.FileMode(hdr.Mode))
	case tar.TypeDir:
		// Directories carry no bytes; the FS derives them from files. A
		// bad name is still worth recording.
		if _, why := splitName(hdr.Name); why != "" {
			b.skip(hdr.Name, why, "")
		}
	case tar.TypeSymlink:
		b.skip(hdr.Name, SkipSymlink, hdr.Linkname)
	case tar.TypeLink:
		b.skip(hdr.Name, SkipHardlink, hdr.Linkname)
	case tar.TypeChar, tar.TypeBlock:
		b.skip(hdr.Name, SkipDevice, "")
	case tar.TypeFifo:
		b.skip(hdr.Name, SkipFIFO, "")
	case tar.TypeGNUSparse:
		b.skip(hdr.Name, SkipSparse, "")
	case tar.TypeXGlobalHeader:
		// Metadata for the archive (git archive writes one); nothing to read.
	default:
		b.skip(hdr.Name, SkipUnsupportedType, "")
	}
	return nil
}

// isSparse reports a PAX-encoded GNU sparse file. archive/tar presents it
// as a regular file and expands its holes on read, above the counting
// reader, so its logical size would escape the total limit.
func isSparse(hdr *tar.Header) bool {
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}
