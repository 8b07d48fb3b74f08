package artifact

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"time"
)

// memFS is the read-only, in-memory fs.FS over an archive's members. The
// extractor reads members through it and never through the disk.
type memFS struct {
	files map[string]*memFile
	dirs  map[string][]fs.DirEntry // "." is the root; children sorted by name
}

type memFile struct {
	data  []byte
	mode  fs.FileMode
	index int // into Artifact.Members
}

var (
	_ fs.ReadFileFS = (*memFS)(nil)
	_ fs.ReadDirFS  = (*memFS)(nil)
	_ fs.StatFS     = (*memFS)(nil)
)

// newMemFS indexes members (each path valid and unique, as the builder
// guarantees) and their bytes.
func newMemFS(members []Member, datas [][]byte) *memFS {
	m := &memFS{files: make(map[string]*memFile, len(members)), dirs: map[string][]fs.DirEntry{".": nil}}
	seen := map[string]bool{".": true}
	for i, mem := range members {
		m.files[mem.Path] = &memFile{data: datas[i], mode: mem.Mode, index: i}
		child := mem.Path
		m.dirs[path.Dir(child)] = append(m.dirs[path.Dir(child)],
			&fileInfo{name: path.Base(child), size: int64(len(datas[i])), mode: mem.Mode})
		for dir := path.Dir(child); !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			parent := path.Dir(dir)
			m.dirs[parent] = append(m.dirs[parent], &fileInfo{name: path.Base(dir), mode: fs.ModeDir | 0o755})
			if _, ok := m.dirs[dir]; !ok {
				m.dirs[dir] = nil
			}
		}
	}
	for _, entries := range m.dirs {
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	}
	return m
}

func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if f, ok := m.files[name]; ok {
		return &openFile{Reader: bytes.NewReader(f.data), info: f.info(name)}, nil
	}
	if entries, ok := m.dirs[name]; ok {
		return &openDir{info: dirInfo(name), entries: entries}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile returns a copy, as fs.ReadFileFS requires; Artifact.Bytes is
// the copy-free accessor.
func (m *memFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	f, ok := m.files[name]
	if !ok {
		if _, isDir := m.dirs[name]; isDir {
			return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return bytes.Clone(f.data), nil
}

func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	entries, ok := m.dirs[name]
	if !ok {
		if _, isFile := m.files[name]; isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return append([]fs.DirEntry(nil), entries...), nil
}

func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if f, ok := m.files[name]; ok {
		return f.info(name), nil
	}
	if _, ok := m.dirs[name]; ok {
		return dirInfo(name), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (f *memFile) info(name string) *fileInfo {
	return &fileInfo{name: path.Base(name), size: int64(len(f.data)), mode: f.mode}
}

func dirInfo(name string) *fileInfo {
	return &fileInfo{name: path.Base(name), mode: fs.ModeDir | 0o755}
}

// fileInfo serves as both fs.FileInfo and fs.DirEntry. Times are zero:
// archive timestamps are publisher-controlled and nothing should depend on
// them.
type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i *fileInfo) Name() string               { return i.name }
func (i *fileInfo) Size() int64                { return i.size }
func (i *fileInfo) Mode() fs.FileMode          { return i.mode }
func (i *fileInfo) ModTime() time.Time         { return time.Time{} }
func (i *fileInfo) IsDir() bool                { return i.mode.IsDir() }
func (i *fileInfo) Sys() any                   { return nil }
func (i *fileInfo) Type() fs.FileMode          { return i.mode.Type() }
func (i *fileInfo) Info() (fs.FileInfo, error) { return i, nil }
func (i *fileInfo) String() string             { return fs.FormatDirEntry(i) }

type openFile struct {
	*bytes.Reader
	info *fileInfo
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *openFile) Close() error               { return nil }

type openDir struct {
	info    *fileInfo
	entries []fs.DirEntry
	offset  int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fs.ErrInvalid}
}

func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.offset:]
	if n <= 0 {
		d.offset = len(d.entries)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.offset += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}
