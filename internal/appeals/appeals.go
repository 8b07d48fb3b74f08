// Package appeals owns a run's appeal log, runs/<run-id>/appeals.json
// (docs/methodology.md §13, §16): the append-only record of the one act a
// person performs on a decided finding. An appeal is filed against a finding
// id and resolved as upheld, dismissed or withdrawn; each is one event.
//
// The log is a hash chain. Every event carries the SHA-256 of its own
// canonical bytes (RFC 8785, without that field) and the SHA-256 of the
// event before it, so an event edited or deleted anywhere but at the very end
// of the log, or edited without its hash being recomputed, is detected on
// Load and the whole log refused with a *TamperedError naming the event.
// (Publication records the head of the chain it applied, so a rewrite of the
// whole chain after a publication is detected there: internal/publish.)
//
// This package never edits decisions.json, never decides anything about a
// finding, and never publishes: grounds and notes stay in the log, and only
// the derived Status (id, status, dates) may leave it.
package appeals

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gowebpki/jcs"
)

// Schema names this version of the log format.
const Schema = "attestari.appeals/v1"

// FileName is the log's name inside a run directory.
const FileName = "appeals.json"

// Event types.
const (
	EventFiled    = "filed"
	EventResolved = "resolved"
)

// Outcomes a person may resolve an appeal with, and the statuses derived
// from the log (open until resolved).
const (
	Upheld    = "upheld"
	Dismissed = "dismissed"
	Withdrawn = "withdrawn"
	Open      = "open"
)

// Event is one line of the log's history. Grounds, By and Note are private:
// they never leave the log.
type Event struct {
	Seq       int       `json:"seq"`
	Type      string    `json:"type"`
	AppealID  string    `json:"appeal_id"`
	FindingID string    `json:"finding_id,omitempty"`
	By        string    `json:"by,omitempty"`
	Grounds   string    `json:"grounds,omitempty"`
	Outcome   string    `json:"outcome,omitempty"`
	Note      string    `json:"note,omitempty"`
	At        time.Time `json:"at"`
	// PrevSHA256 is the SHA256 of the event before (empty for the first).
	PrevSHA256 string `json:"prev_sha256"`
	// SHA256 is the SHA-256 of this event's canonical bytes: the RFC 8785
	// form of the event with this field left out.
	SHA256 string `json:"sha256"`
}

// document is the file's shape.
type document struct {
	Schema string  `json:"schema"`
	Events []Event `json:"events"`
}

// Log is a verified appeal log.
type Log struct {
	Events []Event
}

// HasAppeal reports whether the log holds a filed appeal with this id.
func (l *Log) HasAppeal(id string) bool {
	_, ok := l.status(id)
	return ok
}

// Status is what the log says of one appeal now. Only ID, Status, FiledAt
// and ResolvedAt are public.
type Status struct {
	ID         string
	FindingID  string
	Status     string // open, upheld, dismissed, withdrawn
	FiledAt    time.Time
	ResolvedAt *time.Time
}

// ErrTampered is matched (errors.Is) by every *TamperedError.
var ErrTampered = errors.New("appeal log altered")

// TamperedError names the first event at which a log stops verifying: an
// edited, reordered, inserted or deleted event, or a file that is not a log.
type TamperedError struct {
	Path     string
	Seq      int // 1-based position in the file; 0 for the file as a whole
	AppealID string
	Reason   string
}

func (e *TamperedError) Error() string {
	if e.Seq == 0 {
		return fmt.Sprintf("appeals: %s: %s", e.Path, e.Reason)
	}
	return fmt.Sprintf("appeals: %s: event %d (appeal %s): %s", e.Path, e.Seq, e.AppealID, e.Reason)
}

// Is makes errors.Is(err, ErrTampered) true.
func (e *TamperedError) Is(target error) bool { return target == ErrTampered }

// ErrUnknownAppeal is returned (wrapped) when Resolve names no filed appeal.
var ErrUnknownAppeal = errors.New("no such appeal")

// ErrNotOpen is returned (wrapped) when Resolve names an appeal already resolved.
var ErrNotOpen = errors.New("appeal is not open")

// ErrInvalid is returned (wrapped) for an argument no event may carry.
var ErrInvalid = errors.New("invalid appeal event")

// Load reads and verifies the log at path. A log that does not exist is
// empty: no appeal has been filed. Any event that does not verify refuses
// the whole log.
func Load(path string) (*Log, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Log{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("appeals: load %s: %w", path, err)
	}
	return parse(path, b)
}

func parse(path string, b []byte) (*Log, error) {
	var doc document
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, &TamperedError{Path: path, Reason: "not an appeal log: " + err.Error()}
	}
	if dec.More() {
		return nil, &TamperedError{Path: path, Reason: "trailing data after the log"}
	}
	if doc.Schema != Schema {
		return nil, &TamperedError{Path: path, Reason: fmt.Sprintf("schema %q, this build reads %q", doc.Schema, Schema)}
	}
	l := &Log{}
	for i, e := range doc.Events {
		if err := l.check(e); err != nil {
			return nil, &TamperedError{Path: path, Seq: i + 1, AppealID: e.AppealID, Reason: err.Error()}
		}
		l.Events = append(l.Events, e)
	}
	return l, nil
}

// check verifies that e may follow the events already in l.
func (l *Log) check(e Event) error {
	want := len(l.Events) + 1
	if e.Seq != want {
		return fmt.Errorf("seq %d where %d belongs (an event was deleted, inserted or moved)", e.Seq, want)
	}
	prev := ""
	if n := len(l.Events); n > 0 {
		prev = l.Events[n-1].SHA256
		if e.At.Before(l.Events[n-1].At) {
			return fmt.Errorf("dated %s, before the event it follows", e.At.Format(time.RFC3339))
		}
	}
	if e.PrevSHA256 != prev {
		return errors.New("prev_sha256 does not match the event before (an event before it was edited or deleted)")
	}
	sum, err := eventSHA256(e)
	if err != nil {
		return err
	}
	if e.SHA256 != sum {
		return errors.New("sha256 does not match the event's bytes (the event was edited)")
	}
	switch e.Type {
	case EventFiled:
		if e.FindingID == "" || e.By == "" || e.Outcome != "" || e.Note != "" {
			return errors.New("a filed event carries a finding id and who filed it, and no outcome")
		}
		want, err := filedID(e)
		if err != nil {
			return err
		}
		if e.AppealID != want {
			return fmt.Errorf("appeal id %q, the event's content gives %q", e.AppealID, want)
		}
	case EventResolved:
		st, ok := l.status(e.AppealID)
		if !ok {
			return errors.New("resolves an appeal that was never filed")
		}
		if st.Status != Open {
			return fmt.Errorf("resolves an appeal already %s", st.Status)
		}
		if !validOutcome(e.Outcome) || e.FindingID != "" || e.By != "" || e.Grounds != "" {
			return fmt.Errorf("a resolved event carries an outcome (upheld, dismissed, withdrawn) and a note only, not %q", e.Outcome)
		}
	default:
		return fmt.Errorf("unknown event type %q", e.Type)
	}
	return nil
}

func validOutcome(o string) bool { return o == Upheld || o == Dismissed || o == Withdrawn }

// filedID is a filed appeal's id: "ap-" and the first 16 hex digits of the
// SHA-256 of the filed event's canonical bytes with no id. It depends on the
// finding, who filed, the grounds, the time and the event before, so ids are
// unique across runs' logs and an operator can name an appeal without its run.
func filedID(e Event) (string, error) {
	e.AppealID, e.SHA256 = "", ""
	c, err := canonical(e)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(c)
	return "ap-" + hex.EncodeToString(s[:8]), nil
}

// eventSHA256 is the SHA-256 of the event's canonical bytes: RFC 8785 over
// its JSON without the sha256 member.
func eventSHA256(e Event) (string, error) {
	c, err := canonical(e)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(c)
	return hex.EncodeToString(s[:]), nil
}

func canonical(e Event) ([]byte, error) {
	e.SHA256 = ""
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode event: %w", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("encode event: %w", err)
	}
	delete(m, "sha256")
	b, err = json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode event: %w", err)
	}
	return jcs.Transform(b)
}

// Head returns the SHA-256 of the last event, or "" for an empty log.
func (l *Log) Head() string {
	if len(l.Events) == 0 {
		return ""
	}
	return l.Events[len(l.Events)-1].SHA256
}

// Until returns the log as it stood at t: the events dated at or before t.
// Events are in time order (Load checks it), so this is a prefix.
func (l *Log) Until(t time.Time) *Log {
	n := 0
	for n < len(l.Events) && !l.Events[n].At.After(t) {
		n++
	}
	return &Log{Events: l.Events[:n:n]}
}

// Statuses derives each appeal's current status, in the order filed.
func (l *Log) Statuses() []Status {
	var out []Status
	idx := map[string]int{}
	for _, e := range l.Events {
		switch e.Type {
		case EventFiled:
			idx[e.AppealID] = len(out)
			out = append(out, Status{ID: e.AppealID, FindingID: e.FindingID, Status: Open, FiledAt: e.At})
		case EventResolved:
			if i, ok := idx[e.AppealID]; ok {
				at := e.At
				out[i].Status, out[i].ResolvedAt = e.Outcome, &at
			}
		}
	}
	return out
}

func (l *Log) status(id string) (Status, bool) {
	for _, s := range l.Statuses() {
		if s.ID == id {
			return s, true
		}
	}
	return Status{}, false
}

// File appends a filed event: an appeal against findingID by who, on the
// stated grounds, at now. It returns the new appeal's id. The caller checks
// that the finding exists (internal/publish.FileAppeal does).
func File(logPath, findingID, by, grounds string, now time.Time) (string, error) {
	if findingID == "" || by == "" {
		return "", fmt.Errorf("appeals: file: %w: a finding id and who files are required", ErrInvalid)
	}
	var id string
	err := appendEvent(logPath, func(l *Log) (Event, error) {
		e := Event{Type: EventFiled, FindingID: findingID, By: by, Grounds: grounds, At: now.UTC(), Seq: len(l.Events) + 1, PrevSHA256: l.Head()}
		var err error
		if id, err = filedID(e); err != nil {
			return Event{}, err
		}
		if _, dup := l.status(id); dup {
			return Event{}, fmt.Errorf("%w: an identical appeal was filed at the same instant", ErrInvalid)
		}
		e.AppealID = id
		return e, nil
	})
	if err != nil {
		return "", fmt.Errorf("appeals: file against %s: %w", findingID, err)
	}
	return id, nil
}

// Resolve appends a resolved event closing appealID with outcome (upheld,
// dismissed or withdrawn) and a note, at now.
func Resolve(logPath, appealID, outcome, note string, now time.Time) error {
	if !validOutcome(outcome) {
		return fmt.Errorf("appeals: resolve %s: %w: outcome %q is not upheld, dismissed or withdrawn", appealID, ErrInvalid, outcome)
	}
	err := appendEvent(logPath, func(l *Log) (Event, error) {
		st, ok := l.status(appealID)
		if !ok {
			return Event{}, ErrUnknownAppeal
		}
		if st.Status != Open {
			return Event{}, fmt.Errorf("%w: it is %s", ErrNotOpen, st.Status)
		}
		return Event{Type: EventResolved, AppealID: appealID, Outcome: outcome, Note: note, At: now.UTC()}, nil
	})
	if err != nil {
		return fmt.Errorf("appeals: resolve %s: %w", appealID, err)
	}
	return nil
}

// appendEvent loads the log under an exclusive lock, verifies it, adds the
// event next returns, chained to the last, and writes the file atomically.
// The earlier events are written back as read: their hashes are over their
// values, so re-encoding them changes nothing a reader verifies.
func appendEvent(logPath string, next func(*Log) (Event, error)) error {
	unlock, err := lock(logPath)
	if err != nil {
		return err
	}
	defer unlock()
	l, err := Load(logPath)
	if err != nil {
		return err
	}
	e, err := next(l)
	if err != nil {
		return err
	}
	if n := len(l.Events); n > 0 && e.At.Before(l.Events[n-1].At) {
		return fmt.Errorf("%w: dated %s, before the last event (%s)", ErrInvalid, e.At.Format(time.RFC3339), l.Events[n-1].At.Format(time.RFC3339))
	}
	e.Seq = len(l.Events) + 1
	e.PrevSHA256 = l.Head()
	if e.SHA256, err = eventSHA256(e); err != nil {
		return err
	}
	if err := l.check(e); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	doc := document{Schema: Schema, Events: append(l.Events, e)}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return writeAtomic(logPath, buf.Bytes())
}

// lock takes an exclusive advisory lock beside the log, so two operators
// appending at once cannot lose an event.
func lock(logPath string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(logPath+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", logPath, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func writeAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
