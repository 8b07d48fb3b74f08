package eval

// Recorded evaluations (docs/model-check.md "Recorded evaluations anyone can
// rescore"). An evaluation of a network analyzer is recorded as a directory:
//
//	recording.json  the manifest: format, analyzer id, prompt version and
//	                SHA-256, verifier version, samples, the corpus (file name,
//	                SHA-256, split, cases) and the answers file's SHA-256
//	cases.jsonl     the corpus exactly as scored
//	answers.jsonl   one line per analyzer call: sample, case, proposal key
//	                (analyzer, prompt SHA-256, evidence SHA-256) and its id,
//	                the outcome, usage, and the answer's bytes as they arrived
//
// Replaying re-parses every answer with the same strict parser the live
// clients use and scores it through the same path, so the figures are the
// same as the live evaluation's. Anything that does not check out is refused
// with ErrRecording before a figure is computed.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Files of a recording directory.
const (
	RecordingManifest = "recording.json"
	RecordingCases    = "cases.jsonl"
	RecordingAnswers  = "answers.jsonl"
	RecordingFormat   = "attestari-eval-recording-1"
)

// Outcome of a recorded call that produced a parsed answer; any other
// outcome is the not_analyzed reason of the failure (analyzer.Reason).
const OutcomeAnswered = "answered"

// ErrRecording classifies a recording that cannot be replayed: missing,
// altered, made with another prompt or verifier, or not matching the
// corpus.
var ErrRecording = errors.New("eval: recording refused")

// RecordedCorpus is the corpus part of the manifest.
type RecordedCorpus struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Split  string `json:"split"`
	Cases  int    `json:"cases"`
}

// RecordedAnswersFile is the answers part of the manifest.
type RecordedAnswersFile struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Count  int    `json:"count"`
}

// Manifest is recording.json.
type Manifest struct {
	Format          string              `json:"format"`
	Analyzer        string              `json:"analyzer"`
	PromptVersion   string              `json:"prompt_version"`
	PromptSHA256    string              `json:"prompt_sha256"`
	VerifierVersion string              `json:"verifier_version"`
	Samples         int                 `json:"samples"`
	Corpus          RecordedCorpus      `json:"corpus"`
	Answers         RecordedAnswersFile `json:"answers"`
}

// RecordedAnswer is one line of answers.jsonl.
type RecordedAnswer struct {
	Sample         int                  `json:"sample"`
	CaseID         string               `json:"case_id"`
	Key            evidence.ProposalKey `json:"key"`
	KeyID          string               `json:"key_id"`
	Outcome        string               `json:"outcome"`
	Model          string               `json:"model,omitempty"`
	StopReason     string               `json:"stop_reason,omitempty"`
	Usage          analyzer.Usage       `json:"usage"`
	AnswerEncoding string               `json:"answer_encoding,omitempty"` // "utf-8" or "base64"; empty when no answer arrived
	Answer         string               `json:"answer,omitempty"`
	AnswerSHA256   string               `json:"answer_sha256,omitempty"`
}

func (a RecordedAnswer) bytes() ([]byte, error) {
	switch a.AnswerEncoding {
	case "":
		if a.Answer != "" {
			return nil, errors.New("an answer without an encoding")
		}
		return nil, nil
	case "utf-8":
		return []byte(a.Answer), nil
	case "base64":
		return base64.StdEncoding.DecodeString(a.Answer)
	default:
		return nil, fmt.Errorf("answer encoding %q", a.AnswerEncoding)
	}
}

// Recording is a recorded evaluation held in memory.
type Recording struct {
	Manifest Manifest
	Cases    []byte // the corpus bytes
	Answers  []RecordedAnswer
	// SHA256 is the SHA-256 of recording.json as written or read: what
	// docs/model-check.md cites, and what a rescoring prints.
	SHA256 string
}

// callKey is where a call sits in an evaluation: its sample, its case, and
// the proposal key id of its request.
type callKey struct {
	sample int
	caseID string
	keyID  string
}

type callCtxKey struct{}

type callCtx struct {
	sample int
	caseID string
}

func withCall(ctx context.Context, sample int, caseID string) context.Context {
	return context.WithValue(ctx, callCtxKey{}, callCtx{sample, caseID})
}

func callOf(ctx context.Context) (callCtx, bool) {
	c, ok := ctx.Value(callCtxKey{}).(callCtx)
	return c, ok
}

// Recorder wraps an analyzer and records every call Evaluate makes.
type Recorder struct {
	inner analyzer.Analyzer
	mu    sync.Mutex
	rec   []RecordedAnswer
}

// NewRecorder wraps an.
func NewRecorder(an analyzer.Analyzer) *Recorder { return &Recorder{inner: an} }

// ID is the inner analyzer's id: recording changes nothing it answers.
func (r *Recorder) ID() string { return r.inner.ID() }

// Analyze calls the inner analyzer and records the call.
func (r *Recorder) Analyze(ctx context.Context, req analyzer.Request) (analyzer.Response, error) {
	resp, err := r.inner.Analyze(ctx, req)
	c, _ := callOf(ctx)
	key := evidence.ProposalKey{Analyzer: r.inner.ID(), PromptSHA256: req.PromptSHA256, EvidenceSHA256: req.EvidenceSHA256}
	a := RecordedAnswer{Sample: c.sample, CaseID: c.caseID, Key: key, KeyID: key.ID(), Outcome: OutcomeAnswered,
		Model: resp.Model, StopReason: resp.StopReason, Usage: resp.Usage}
	if err != nil {
		a.Outcome = analyzer.Reason(err)
	}
	raw := resp.Answer
	if raw == nil && err == nil {
		// An analyzer without a wire answer (the offline one): its answer
		// in the schema's own encoding.
		raw = analyzer.EncodeAnswer(resp.Proposals, resp.Entries)
	}
	if raw != nil {
		a.AnswerSHA256 = vocab.SHA256Hex(raw)
		if utf8.Valid(raw) {
			a.AnswerEncoding, a.Answer = "utf-8", string(raw)
		} else {
			a.AnswerEncoding, a.Answer = "base64", base64.StdEncoding.EncodeToString(raw)
		}
	}
	r.mu.Lock()
	r.rec = append(r.rec, a)
	r.mu.Unlock()
	return resp, err
}

// Recording returns what was recorded, in a fixed order (sample, case,
// key id), with its manifest.
func (r *Recorder) Recording(cases []byte, corpusFile, split string, samples int) (*Recording, error) {
	r.mu.Lock()
	answers := append([]RecordedAnswer(nil), r.rec...)
	r.mu.Unlock()
	sort.SliceStable(answers, func(i, j int) bool {
		a, b := answers[i], answers[j]
		if a.Sample != b.Sample {
			return a.Sample < b.Sample
		}
		if a.CaseID != b.CaseID {
			return a.CaseID < b.CaseID
		}
		return a.KeyID < b.KeyID
	})
	ans, err := encodeAnswers(answers)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Cases: cases, Answers: answers, Manifest: Manifest{
		Format: RecordingFormat, Analyzer: r.inner.ID(), PromptVersion: analyzer.PromptVersion, PromptSHA256: analyzer.PromptSHA256,
		VerifierVersion: checks.VerifierVersion, Samples: samples,
		Corpus:  RecordedCorpus{File: corpusFile, SHA256: vocab.SHA256Hex(cases), Split: split},
		Answers: RecordedAnswersFile{File: RecordingAnswers, SHA256: vocab.SHA256Hex(ans), Count: len(answers)},
	}}
	cs, err := ReadCases(bytes.NewReader(cases))
	if err != nil {
		return nil, err
	}
	rec.Manifest.Corpus.Cases = len(cs)
	m, err := rundir.Marshal(rec.Manifest)
	if err != nil {
		return nil, err
	}
	rec.SHA256 = vocab.SHA256Hex(m)
	return rec, nil
}

func encodeAnswers(answers []RecordedAnswer) ([]byte, error) {
	var b bytes.Buffer
	for _, a := range answers {
		line, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// Write writes the recording into dir, which must not exist or be empty.
func (rec *Recording) Write(dir string) error {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return fmt.Errorf("eval: record: %s is not empty", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("eval: record: %w", err)
	}
	ans, err := encodeAnswers(rec.Answers)
	if err != nil {
		return fmt.Errorf("eval: record: %w", err)
	}
	m, err := rundir.Marshal(rec.Manifest)
	if err != nil {
		return fmt.Errorf("eval: record: %w", err)
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{RecordingCases, rec.Cases}, {RecordingAnswers, ans}, {RecordingManifest, m}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.b, 0o644); err != nil {
			return fmt.Errorf("eval: record: %w", err)
		}
	}
	return nil
}

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrRecording}, args...)...)
}

// ReadRecording reads and verifies a recording directory: the manifest's
// format; the corpus and answers files against the manifest's SHA-256s;
// every answer line strictly (unknown members refused), its key id against
// its key, its analyzer and prompt against the manifest, its answer bytes
// against their SHA-256, its sample within 1..K, its case in the corpus, and
// no (sample, case, key) twice. It does not compare the recording with this
// build: Replay does.
func ReadRecording(dir string) (*Recording, error) {
	mb, err := os.ReadFile(filepath.Join(dir, RecordingManifest))
	if err != nil {
		return nil, refuse("%s: %v", dir, err)
	}
	rec := &Recording{SHA256: vocab.SHA256Hex(mb)}
	dec := json.NewDecoder(bytes.NewReader(mb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec.Manifest); err != nil {
		return nil, refuse("%s: %v", RecordingManifest, err)
	}
	m := rec.Manifest
	if m.Format != RecordingFormat {
		return nil, refuse("%s: format %q, want %q", RecordingManifest, m.Format, RecordingFormat)
	}
	if m.Samples < 1 || m.Analyzer == "" {
		return nil, refuse("%s: no analyzer or no samples", RecordingManifest)
	}
	if m.Answers.File != RecordingAnswers {
		return nil, refuse("%s: answers file %q, want %q", RecordingManifest, m.Answers.File, RecordingAnswers)
	}
	rec.Cases, err = os.ReadFile(filepath.Join(dir, RecordingCases))
	if err != nil {
		return nil, refuse("%v", err)
	}
	if got := vocab.SHA256Hex(rec.Cases); got != m.Corpus.SHA256 {
		return nil, refuse("%s has sha256 %s, the manifest says %s: the corpus was altered", RecordingCases, got, m.Corpus.SHA256)
	}
	cases, err := ReadCases(bytes.NewReader(rec.Cases))
	if err != nil {
		return nil, refuse("%s: %v", RecordingCases, err)
	}
	if len(cases) != m.Corpus.Cases {
		return nil, refuse("%s holds %d cases, the manifest says %d", RecordingCases, len(cases), m.Corpus.Cases)
	}
	ids := map[string]bool{}
	for _, c := range cases {
		ids[c.ID] = true
	}
	ab, err := os.ReadFile(filepath.Join(dir, RecordingAnswers))
	if err != nil {
		return nil, refuse("%v", err)
	}
	if got := vocab.SHA256Hex(ab); got != m.Answers.SHA256 {
		return nil, refuse("%s has sha256 %s, the manifest says %s: the answers were altered", RecordingAnswers, got, m.Answers.SHA256)
	}
	seen := map[callKey]int{}
	sc := bufio.NewScanner(bytes.NewReader(ab))
	sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.DisallowUnknownFields()
		var a RecordedAnswer
		if err := d.Decode(&a); err != nil {
			return nil, refuse("%s line %d: %v", RecordingAnswers, line, err)
		}
		if err := checkAnswer(m, ids, a); err != nil {
			return nil, refuse("%s line %d: %v", RecordingAnswers, line, err)
		}
		k := callKey{a.Sample, a.CaseID, a.KeyID}
		if prev, ok := seen[k]; ok {
			return nil, refuse("%s line %d: sample %d, case %s, key %s already recorded on line %d", RecordingAnswers, line, a.Sample, a.CaseID, a.KeyID, prev)
		}
		seen[k] = line
		rec.Answers = append(rec.Answers, a)
	}
	if err := sc.Err(); err != nil {
		return nil, refuse("%s: %v", RecordingAnswers, err)
	}
	if len(rec.Answers) != m.Answers.Count {
		return nil, refuse("%s holds %d answers, the manifest says %d", RecordingAnswers, len(rec.Answers), m.Answers.Count)
	}
	return rec, nil
}

func checkAnswer(m Manifest, ids map[string]bool, a RecordedAnswer) error {
	switch {
	case a.Sample < 1 || a.Sample > m.Samples:
		return fmt.Errorf("sample %d outside 1..%d", a.Sample, m.Samples)
	case !ids[a.CaseID]:
		return fmt.Errorf("case %q is not in the corpus", a.CaseID)
	case a.Key.Analyzer != m.Analyzer:
		return fmt.Errorf("answered by %q, the manifest says %q", a.Key.Analyzer, m.Analyzer)
	case a.Key.PromptSHA256 != m.PromptSHA256:
		return fmt.Errorf("prompt sha256 %s, the manifest says %s", a.Key.PromptSHA256, m.PromptSHA256)
	case a.Key.Validate() != nil:
		return a.Key.Validate()
	case a.KeyID != a.Key.ID():
		return fmt.Errorf("key id %s is not the id of its key (%s)", a.KeyID, a.Key.ID())
	}
	raw, err := a.bytes()
	if err != nil {
		return err
	}
	if raw != nil && vocab.SHA256Hex(raw) != a.AnswerSHA256 {
		return fmt.Errorf("the answer's sha256 is %s, the line says %s: the answer was altered", vocab.SHA256Hex(raw), a.AnswerSHA256)
	}
	if raw == nil && a.AnswerSHA256 != "" {
		return errors.New("an answer sha256 without an answer")
	}
	if a.Outcome == OutcomeAnswered && raw == nil {
		return errors.New("outcome answered without an answer")
	}
	if a.Outcome != OutcomeAnswered && errorFor(a.Outcome) == nil {
		return fmt.Errorf("outcome %q", a.Outcome)
	}
	return nil
}

// errorFor is the failure class a recorded outcome replays as.
func errorFor(outcome string) error {
	switch outcome {
	case analyzer.ReasonRefused:
		return analyzer.ErrRefused
	case analyzer.ReasonTruncated:
		return analyzer.ErrTruncated
	case analyzer.ReasonMalformed:
		return analyzer.ErrMalformed
	case analyzer.ReasonUnavailable:
		return analyzer.ErrUnavailable
	case analyzer.ReasonEvidence:
		return analyzer.ErrEvidence
	case analyzer.ReasonCancelled:
		return context.Canceled
	case analyzer.ReasonError:
		return errRecordedError
	}
	return nil
}

var errRecordedError = errors.New("analyzer error (recorded)")

// Replayer answers an evaluation from a recording. With vote 0 it is the
// recorded analyzer, sample by sample; with vote m it is the m-of-K
// configuration (analyzer.Vote over the K recorded answers of each call).
type Replayer struct {
	rec   *Recording
	vote  int
	index map[callKey]RecordedAnswer
	mu    sync.Mutex
	used  map[callKey]bool
	miss  []callKey
}

// CheckBuild refuses a recording made with another prompt or verifier than
// this build's: its figures would not be the ones recorded.
func (rec *Recording) CheckBuild() error {
	m := rec.Manifest
	if m.PromptSHA256 != analyzer.PromptSHA256 {
		return refuse("recorded with prompt %s (sha256 %s); this build's prompt is %s (sha256 %s): rescore it with the build that made it",
			m.PromptVersion, m.PromptSHA256, analyzer.PromptVersion, analyzer.PromptSHA256)
	}
	if m.VerifierVersion != checks.VerifierVersion {
		return refuse("recorded under verifier %s; this build's verifier is %s", m.VerifierVersion, checks.VerifierVersion)
	}
	return nil
}

// NewReplayer builds the replaying analyzer; vote is 0 or the m of m-of-K
// (K being the recording's samples).
func NewReplayer(rec *Recording, vote int) (*Replayer, error) {
	if vote != 0 {
		if err := analyzer.CheckVote(vote, rec.Manifest.Samples); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	}
	r := &Replayer{rec: rec, vote: vote, index: map[callKey]RecordedAnswer{}, used: map[callKey]bool{}}
	for _, a := range rec.Answers {
		r.index[callKey{a.Sample, a.CaseID, a.KeyID}] = a
	}
	return r, nil
}

// ID is the recorded analyzer's id, or its m-of-K id.
func (r *Replayer) ID() string {
	if r.vote > 0 {
		return analyzer.VoteID(r.rec.Manifest.Analyzer, r.vote, r.rec.Manifest.Samples)
	}
	return r.rec.Manifest.Analyzer
}

// Analyze answers req from the recording: the recorded bytes parsed by
// analyzer.ParseAnswer, as the live client parsed them, or the recorded
// failure class.
func (r *Replayer) Analyze(ctx context.Context, req analyzer.Request) (analyzer.Response, error) {
	c, _ := callOf(ctx)
	keyID := evidence.ProposalKey{Analyzer: r.rec.Manifest.Analyzer, PromptSHA256: req.PromptSHA256, EvidenceSHA256: req.EvidenceSHA256}.ID()
	if r.vote == 0 {
		return r.one(callKey{c.sample, c.caseID, keyID}, req)
	}
	answers := make([]analyzer.SampleAnswer, 0, r.rec.Manifest.Samples)
	for s := 1; s <= r.rec.Manifest.Samples; s++ {
		resp, err := r.one(callKey{s, c.caseID, keyID}, req)
		answers = append(answers, analyzer.SampleAnswer{Response: resp, Err: err})
	}
	resp, err := analyzer.Vote(answers, r.vote)
	resp.Analyzer = r.ID()
	return resp, err
}

func (r *Replayer) one(k callKey, req analyzer.Request) (analyzer.Response, error) {
	a, ok := r.index[k]
	r.mu.Lock()
	if ok {
		r.used[k] = true
	} else {
		r.miss = append(r.miss, k)
	}
	r.mu.Unlock()
	if !ok {
		return analyzer.Response{}, fmt.Errorf("%w: not in the recording", analyzer.ErrUnavailable)
	}
	resp := analyzer.Response{Analyzer: a.Key.Analyzer, Model: a.Model, StopReason: a.StopReason, Usage: a.Usage}
	raw, _ := a.bytes() // verified by ReadRecording
	resp.Answer = raw
	if a.Outcome != OutcomeAnswered {
		return resp, fmt.Errorf("eval: replay: %w", errorFor(a.Outcome))
	}
	props, reps, err := analyzer.ParseAnswer(raw, req)
	if err != nil {
		return resp, fmt.Errorf("eval: replay: %w", err)
	}
	resp.Proposals, resp.Entries = props, reps
	return resp, nil
}

// Complete refuses a replay that asked for a call the recording does not
// hold, or left a recorded call unasked: either way the recording is not an
// evaluation of this corpus with this prompt and batching.
func (r *Replayer) Complete() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.miss) > 0 {
		k := r.miss[0]
		return refuse("it holds no answer for %d calls the corpus makes (first: sample %d, case %s, key %s)", len(r.miss), k.sample, k.caseID, k.keyID)
	}
	if len(r.used) != len(r.index) {
		return refuse("%d recorded answers belong to no call the corpus makes", len(r.index)-len(r.used))
	}
	return nil
}
