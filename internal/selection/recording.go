package selection

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// RecordingSchema is the first line of a recording's index.
const RecordingSchema = "attestari.selection-recording/v1"

const (
	indexFile = "index.jsonl"
	bodiesDir = "bodies"
)

// ErrNotRecorded: a replay asked a question its recording holds no answer
// to (the inputs differ from the recorded ones, or the recording is of an
// unfinished selection).
var ErrNotRecorded = errors.New("selection: the recording holds no answer to this request")

// ErrRecording: a recording directory that cannot be used as asked.
var ErrRecording = errors.New("selection: unusable recording")

// Exchange is one answer selection received: what was asked (Kind, Key),
// what came back (Outcome, Status, the body's SHA-256) and when (At). The
// body itself is kept under bodies/<sha256>.
type Exchange struct {
	Kind        string    `json:"kind"`
	Key         string    `json:"key"`
	Outcome     string    `json:"outcome"`
	Status      int       `json:"status,omitempty"`
	ContentType string    `json:"content_type,omitempty"`
	SHA256      string    `json:"sha256,omitempty"`
	At          time.Time `json:"at"`
	// NoBody marks an input file: its SHA-256 is recorded, its bytes are
	// not (the caller gives the file again).
	NoBody bool `json:"no_body,omitempty"`
}

type header struct {
	Schema string    `json:"schema"`
	Now    time.Time `json:"now"`
	// DownloadsAPI records whether npm figures were read from the
	// downloads API, so a replay ranks the way the recording did.
	DownloadsAPI bool `json:"downloads_api,omitempty"`
}

// Recording is a directory of exchanges: written as a selection fetches
// (Create, Resume) or read to answer in place of the network (Replay).
type Recording struct {
	dir          string
	replay       bool
	now          time.Time
	downloadsAPI bool

	mu    sync.Mutex
	byKey map[string]Exchange
	index *os.File
}

// Create starts a fresh recording in dir. A directory that already holds a
// recording is emptied first; any other non-empty directory is refused, so
// nothing selection did not write is removed.
func Create(dir string, now time.Time, downloadsAPI bool) (*Recording, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		if _, err := readHeader(dir); err != nil {
			return nil, fmt.Errorf("%w: %s is not empty and holds no selection recording; give another --record directory", ErrRecording, dir)
		}
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("selection: clearing the old recording %s: %w", dir, err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, bodiesDir), 0o755); err != nil {
		return nil, fmt.Errorf("selection: %w", err)
	}
	h, err := json.Marshal(header{Schema: RecordingSchema, Now: now.UTC(), DownloadsAPI: downloadsAPI})
	if err != nil {
		return nil, err
	}
	if err := rundir.WriteFileAtomic(filepath.Join(dir, indexFile), append(h, '\n')); err != nil {
		return nil, fmt.Errorf("selection: %w", err)
	}
	return open(dir, false)
}

// Resume reopens the recording in dir to add to it: every answer it holds
// is reused, the rest are fetched.
func Resume(dir string) (*Recording, error) { return open(dir, false) }

// Replay opens the recording in dir read-only: every answer comes from it,
// and a request it holds no answer to is ErrNotRecorded.
func Replay(dir string) (*Recording, error) { return open(dir, true) }

func readHeader(dir string) (header, error) {
	f, err := os.Open(filepath.Join(dir, indexFile))
	if err != nil {
		return header{}, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil {
		return header{}, fmt.Errorf("%w: %s has no header line", ErrRecording, indexFile)
	}
	var h header
	if err := json.Unmarshal(line, &h); err != nil || h.Schema != RecordingSchema {
		return header{}, fmt.Errorf("%w: %s does not start with a %s header", ErrRecording, filepath.Join(dir, indexFile), RecordingSchema)
	}
	return h, nil
}

func open(dir string, replay bool) (*Recording, error) {
	h, err := readHeader(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s holds no recording (%s is missing)", ErrRecording, dir, indexFile)
		}
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, indexFile))
	if err != nil {
		return nil, fmt.Errorf("selection: %w", err)
	}
	r := &Recording{dir: dir, replay: replay, now: h.Now, downloadsAPI: h.DownloadsAPI, byKey: map[string]Exchange{}}
	lines := bytes.SplitAfter(b, []byte("\n"))
	for i, line := range lines[1:] {
		if len(line) == 0 {
			continue
		}
		if line[len(line)-1] != '\n' {
			// A line cut short by a process that died while appending it:
			// the exchange was never complete, so it is fetched again.
			break
		}
		var ex Exchange
		if err := json.Unmarshal(line, &ex); err != nil || ex.Key == "" {
			return nil, fmt.Errorf("%w: %s line %d is not an exchange", ErrRecording, indexFile, i+2)
		}
		r.byKey[ex.Key] = ex
	}
	if !replay {
		f, err := os.OpenFile(filepath.Join(dir, indexFile), os.O_RDWR, 0)
		if err != nil {
			return nil, fmt.Errorf("selection: %w", err)
		}
		// Drop a torn last line before appending after it.
		if n := int64(len(bytes.TrimRightFunc(b, func(r rune) bool { return r != '\n' }))); n < int64(len(b)) {
			if err := f.Truncate(n); err != nil {
				f.Close()
				return nil, fmt.Errorf("selection: %w", err)
			}
		}
		if _, err := f.Seek(0, io.SeekEnd); err != nil {
			f.Close()
			return nil, fmt.Errorf("selection: %w", err)
		}
		r.index = f
	}
	return r, nil
}

// Dir is the recording's directory.
func (r *Recording) Dir() string { return r.dir }

// Now is the selection time the recording was started with.
func (r *Recording) Now() time.Time { return r.now }

// DownloadsAPI reports whether the recording's npm figures come from the
// downloads API.
func (r *Recording) DownloadsAPI() bool { return r.downloadsAPI }

// IsReplay reports whether the recording answers in place of the network.
func (r *Recording) IsReplay() bool { return r.replay }

// inputs returns the keys of the input files the recording read, sorted.
func (r *Recording) inputs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k, ex := range r.byKey {
		if ex.Kind == vocab.KindSelectionInput {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Len is how many exchanges the recording holds.
func (r *Recording) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byKey)
}

// Lookup returns the recorded exchange for key and its body (nil for an
// input file). A body that no longer hashes to the recorded SHA-256 is an
// error: a recording is evidence and is not read past damage.
func (r *Recording) Lookup(key string) (Exchange, []byte, bool, error) {
	r.mu.Lock()
	ex, ok := r.byKey[key]
	r.mu.Unlock()
	if !ok {
		return Exchange{}, nil, false, nil
	}
	if ex.SHA256 == "" || ex.NoBody {
		return ex, nil, true, nil
	}
	b, err := os.ReadFile(filepath.Join(r.dir, bodiesDir, ex.SHA256))
	if err != nil {
		return ex, nil, true, fmt.Errorf("%w: the body of %q: %v", ErrRecording, key, err)
	}
	if vocab.SHA256Hex(b) != ex.SHA256 {
		return ex, nil, true, fmt.Errorf("%w: the body of %q does not hash to its recorded SHA-256", ErrRecording, key)
	}
	return ex, b, true, nil
}

// Add records an exchange: the body first (atomically, by its hash), then
// the index line, synced, so an index line always names a whole body.
func (r *Recording) Add(ex Exchange, body []byte) error {
	if r.replay {
		return fmt.Errorf("%w: a replay records nothing", ErrRecording)
	}
	if body != nil && !ex.NoBody {
		ex.SHA256 = vocab.SHA256Hex(body)
		p := filepath.Join(r.dir, bodiesDir, ex.SHA256)
		if _, err := os.Stat(p); err != nil {
			if err := rundir.WriteFileAtomic(p, body); err != nil {
				return fmt.Errorf("selection: recording %q: %w", ex.Key, err)
			}
		}
	}
	line, err := json.Marshal(ex)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.index.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("selection: recording %q: %w", ex.Key, err)
	}
	if err := r.index.Sync(); err != nil {
		return fmt.Errorf("selection: recording %q: %w", ex.Key, err)
	}
	r.byKey[ex.Key] = ex
	return nil
}

// Close releases the index file.
func (r *Recording) Close() error {
	if r.index == nil {
		return nil
	}
	err := r.index.Close()
	r.index = nil
	return err
}
