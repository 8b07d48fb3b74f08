package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// builder accumulates one archive's entries in archive order, enforces the
// limits, and produces the Artifact. The tar and zip readers feed it.
type builder struct {
	format      Format
	lim         Limits
	archiveSize int64

	entries  int
	consumed int64            // uncompressed bytes counted against the limits
	breach   *unreadableError // set once a limit is passed; sticky
	current  string           // the member being read, for reasons

	files   map[string]*pending // by joined path (after the npm strip)
	dirs    map[string]bool     // directories implied by accepted files
	order   []*pending          // accepted files in archive order
	skipped []SkippedMember
}

type pending struct {
	name    string
	elems   []string
	data    []byte
	mode    fs.FileMode
	dropped bool
}

func newBuilder(format Format, lim Limits, archiveSize int64) *builder {
	return &builder{
		format:      format,
		lim:         lim,
		archiveSize: archiveSize,
		files:       map[string]*pending{},
		dirs:        map[string]bool{},
	}
}

// entry counts one archive entry of any kind against MaxMembers.
func (b *builder) entry() error {
	b.entries++
	if b.entries > b.lim.MaxMembers {
		return unreadable(CauseMemberCount, "member count exceeds %d", b.lim.MaxMembers)
	}
	return nil
}

func (b *builder) skip(name, reason, target string) {
	b.skipped = append(b.skipped, SkippedMember{Name: displayName(name), Reason: reason, Target: displayName(target)})
}

// place checks a name and returns its path elements in the FS, or records
// why it has none. For npm the leading directory is stripped here, since
// npm strips it whatever it is called; an sdist's is stripped in finish,
// once it is known that every member shares it.
func (b *builder) place(name string) ([]string, bool) {
	elems, why := splitName(name)
	if why != "" {
		b.skip(name, why, "")
		return nil, false
	}
	if b.format == FormatNpmTarball {
		if len(elems) < 2 {
			b.skip(name, SkipOutsidePackageRoot, "")
			return nil, false
		}
		elems = elems[1:]
	}
	return elems, true
}

// addFile records a regular file. Two members at one path: the later one
// is kept, as tar and zip extractors overwrite, and the earlier is recorded
// as duplicate_name. A file where a directory is needed (or the reverse)
// could not be installed by an extractor either: the later one is recorded
// as path_conflict.
func (b *builder) addFile(name string, elems []string, data []byte, mode fs.FileMode) {
	p := strings.Join(elems, "/")
	if b.dirs[p] {
		b.skip(name, SkipPathConflict, "")
		return
	}
	for i := 1; i < len(elems); i++ {
		if _, isFile := b.files[strings.Join(elems[:i], "/")]; isFile {
			b.skip(name, SkipPathConflict, "")
			return
		}
	}
	if prev, ok := b.files[p]; ok {
		prev.dropped = true
		prev.data = nil
		b.skip(prev.name, SkipDuplicateName, "")
	}
	f := &pending{name: name, elems: elems, data: data, mode: mode.Perm()}
	b.files[p] = f
	b.order = append(b.order, f)
	for i := 1; i < len(elems); i++ {
		b.dirs[strings.Join(elems[:i], "/")] = true
	}
}

// count charges n uncompressed bytes to the total and ratio limits.
func (b *builder) count(n int64) *unreadableError {
	b.consumed += n
	if b.consumed > b.lim.MaxTotalBytes {
		b.breach = unreadable(CauseTotalBytes, "uncompressed size exceeds %d bytes", b.lim.MaxTotalBytes)
		return b.breach
	}
	if b.consumed > b.lim.RatioFloorBytes && b.consumed/b.lim.MaxRatio > b.archiveSize {
		b.breach = unreadable(CauseCompressionRatio, "compression ratio exceeds %d:1 (%d uncompressed bytes from a %d-byte archive)",
			b.lim.MaxRatio, b.consumed, b.archiveSize)
		return b.breach
	}
	return nil
}

// countingReader sits on the uncompressed stream and charges every byte to
// the builder, so the limits hold however the archive describes itself.
type countingReader struct {
	r io.Reader
	b *builder
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.b.breach != nil {
		return 0, c.b.breach
	}
	// Never read more than one byte past the limit, so a bomb costs at
	// most the limit in memory and time.
	if room := c.b.lim.MaxTotalBytes - c.b.consumed + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	if n > 0 {
		if breach := c.b.count(int64(n)); breach != nil {
			return 0, breach
		}
	}
	return n, err
}

// readMember reads one member's bytes. The declared size is checked
// against MaxMemberBytes before anything is allocated, and the first
// allocation is capped at 1 MiB whatever the header claims; the real size
// is whatever the stream yields, bounded by the member limit.
func (b *builder) readMember(name string, r io.Reader, declared int64) ([]byte, error) {
	b.current = name
	max := b.lim.MaxMemberBytes
	if declared > max || declared < 0 {
		return nil, unreadable(CauseMemberBytes, "member %q declares %d bytes, over the %d-byte member limit", displayName(name), declared, max)
	}
	data, err := readAllBounded(io.LimitReader(r, max+1), int(min(declared, 1<<20)))
	if err != nil {
		return nil, b.streamError(err)
	}
	if int64(len(data)) > max {
		return nil, unreadable(CauseMemberBytes, "member %q exceeds the %d-byte member limit", displayName(name), max)
	}
	return data, nil
}

// readAllBounded is io.ReadAll with a caller-chosen first allocation. When
// the buffer fills it probes for EOF before growing, so a member whose size
// was declared truthfully costs exactly one allocation.
func readAllBounded(r io.Reader, initial int) ([]byte, error) {
	buf := make([]byte, 0, initial)
	for {
		if len(buf) == cap(buf) {
			var probe [1]byte
			n, err := r.Read(probe[:])
			if n == 1 {
				buf = append(buf, probe[0])
			}
			if err == io.EOF {
				return buf, nil
			}
			if err != nil {
				return buf, err
			}
			continue
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// streamError turns an error from the decompressor or the archive reader
// into the recorded outcome. A limit breach wins over whatever error the
// layers above made of it.
func (b *builder) streamError(err error) *unreadableError {
	if b.breach != nil {
		return b.breach
	}
	var ue *unreadableError
	if errors.As(err, &ue) {
		return ue
	}
	where := ""
	if b.current != "" {
		where = fmt.Sprintf(", in member %q", displayName(b.current))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return unreadable(CauseTruncated, "unexpected EOF after %d uncompressed bytes%s", b.consumed, where)
	}
	return unreadable(CauseInvalid, "%v (after %d uncompressed bytes%s)", err, b.consumed, where)
}

func (b *builder) fail(ue *unreadableError) *Artifact {
	empty := newMemFS(nil, nil)
	return &Artifact{
		Format:            b.format,
		FS:                empty,
		Skipped:           b.skippedOrEmpty(),
		Outcome:           vocab.OutcomeArchiveUnreadable,
		Cause:             ue.cause,
		Reason:            ue.reason,
		Entries:           b.entries,
		UncompressedBytes: b.consumed,
		files:             empty,
	}
}

func (b *builder) skippedOrEmpty() []SkippedMember {
	if b.skipped == nil {
		return []SkippedMember{}
	}
	return b.skipped
}

func (b *builder) finish() *Artifact {
	if b.entries == 0 {
		// An empty stream is not an archive any installer would accept.
		return b.fail(unreadable(CauseInvalid, "archive holds no entries"))
	}
	var kept []*pending
	for _, f := range b.order {
		if !f.dropped {
			kept = append(kept, f)
		}
	}
	strip := 0
	if b.format == FormatSdistTar || b.format == FormatSdistZip {
		strip = commonRoot(kept)
	}
	members := make([]Member, 0, len(kept))
	datas := make([][]byte, 0, len(kept))
	for _, f := range kept {
		sum := sha256.Sum256(f.data)
		p := strings.Join(f.elems[strip:], "/")
		members = append(members, Member{
			Path:           p,
			Name:           f.name,
			Size:           int64(len(f.data)),
			SHA256:         hex.EncodeToString(sum[:]),
			Mode:           f.mode,
			Classification: Classify(p, f.data),
		})
		datas = append(datas, f.data)
	}
	idx := make([]int, len(members))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return members[idx[i]].Path < members[idx[j]].Path })
	sortedM := make([]Member, len(members))
	sortedD := make([][]byte, len(members))
	for i, k := range idx {
		sortedM[i], sortedD[i] = members[k], datas[k]
	}
	mfs := newMemFS(sortedM, sortedD)
	return &Artifact{
		Format:            b.format,
		FS:                mfs,
		Members:           sortedM,
		Skipped:           b.skippedOrEmpty(),
		Outcome:           OutcomeOK,
		Entries:           b.entries,
		UncompressedBytes: b.consumed,
		files:             mfs,
	}
}

// commonRoot returns 1 when every file sits under one shared top directory
// (an sdist's "name-version/"), else 0: a layout without it is read as is
// rather than losing its top level.
func commonRoot(files []*pending) int {
	if len(files) == 0 {
		return 0
	}
	root := files[0].elems[0]
	for _, f := range files {
		if len(f.elems) < 2 || f.elems[0] != root {
			return 0
		}
	}
	return 1
}
