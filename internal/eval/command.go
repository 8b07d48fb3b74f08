package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/vocab"
)

// Command is `attestari eval`, parsed by cmd/attestari. It runs in one of
// two ways:
//
//   - live: --cases FILE --analyzer NAME [--samples K] [--record DIR]
//     [--agree M]: every call reaches the analyzer; --record writes every
//     answer into DIR (record.go);
//   - replay: --replay DIR [--cases FILE] [--agree M]: no analyzer, no
//     network; the recorded answers are scored to the figures the live
//     evaluation gave (and --cases, when given, must be the recorded corpus).
//
// --agree M reports the M-of-K configuration (analyzer.Vote over the K
// samples of each call) instead of the K single-sample figures: a different
// analyzer, with its own id, admitted on its own.
type Command struct {
	Cases    string // path of a JSON Lines corpus, or several joined by commas (scored as one file, their bytes in that order)
	Analyzer string // offline, anthropic, openai (none evaluates nothing and fails the test)
	Samples  int    // passes over the corpus; default 1
	Record   string // live: write the recording into this directory (new or empty)
	Replay   string // score this recording instead of calling an analyzer
	Agree    int    // 0, or the m of m-of-K
	Split    string // the part of the corpus scored: dev, test or all ("" = all); recorded, and applied again on replay
	JSON     bool   // render JSON instead of text
	// ShowTestCases lists the misses and incorrect findings of test-part
	// cases too; without it their number is reported and their texts are
	// not (Report.WithholdTestCases).
	ShowTestCases bool
	Getenv        func(string) string // configuration of the network analyzers; os.Getenv in production
}

// ErrUsage classifies a combination of options that does not make sense.
var ErrUsage = errors.New("eval: invalid options")

// Run evaluates as c says and writes the report to w. It returns the report
// so the caller can set an exit status from AdmissionHolds.
func (c Command) Run(ctx context.Context, w io.Writer) (Report, error) {
	var rep Report
	var err error
	if c.Replay != "" {
		rep, err = c.replay(ctx)
	} else {
		rep, err = c.live(ctx)
	}
	if err != nil {
		return rep, err
	}
	if !c.ShowTestCases {
		rep.WithholdTestCases()
	}
	if c.JSON {
		b, err := rep.JSON()
		if err != nil {
			return rep, fmt.Errorf("eval: render: %w", err)
		}
		_, err = w.Write(b)
		return rep, err
	}
	_, err = io.WriteString(w, rep.Text())
	return rep, err
}

func (c Command) live(ctx context.Context) (Report, error) {
	if c.Cases == "" || c.Analyzer == "" {
		return Report{}, fmt.Errorf("%w: a live evaluation needs a corpus and an analyzer", ErrUsage)
	}
	raw, file, err := readCorpusFiles(c.Cases)
	if err != nil {
		return Report{}, err
	}
	all, err := ReadCases(bytes.NewReader(raw))
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", c.Cases, err)
	}
	cases, err := SelectSplit(all, c.Split)
	if err != nil {
		return Report{}, err
	}
	getenv := c.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	an, err := analyzer.New(c.Analyzer, getenv)
	if err != nil {
		return Report{}, fmt.Errorf("eval: %w", err)
	}
	samples := c.Samples
	if samples < 1 {
		samples = 1
	}
	if c.Agree != 0 {
		if err := analyzer.CheckVote(c.Agree, samples); err != nil {
			return Report{}, fmt.Errorf("eval: --agree with --samples: %w", err)
		}
	}
	if an == nil && (c.Record != "" || c.Agree != 0) {
		return Report{}, fmt.Errorf("%w: analyzer none answers nothing to record or vote on", ErrUsage)
	}
	if c.Record == "" && c.Agree == 0 {
		rep := Evaluate(ctx, cases, an, samples)
		rep.Corpus.File, rep.Corpus.SHA256, rep.Corpus.Split = file, vocab.SHA256Hex(raw), c.Split
		return rep, nil
	}
	recorder := NewRecorder(an)
	rep := Evaluate(ctx, cases, recorder, samples)
	rec, err := recorder.Recording(raw, file, c.Split, samples)
	if err != nil {
		return rep, fmt.Errorf("eval: record: %w", err)
	}
	if c.Record != "" {
		if err := rec.Write(c.Record); err != nil {
			return rep, err
		}
	}
	if c.Agree != 0 {
		if rep, err = scoreRecording(ctx, rec, c.Agree); err != nil {
			return rep, err
		}
	}
	rep.Corpus.File, rep.Corpus.SHA256, rep.Corpus.Split = file, vocab.SHA256Hex(raw), c.Split
	if c.Record != "" {
		rep.Recording = &RecordingRef{Dir: c.Record, ManifestSHA256: rec.SHA256}
	}
	return rep, nil
}

func (c Command) replay(ctx context.Context) (Report, error) {
	if c.Analyzer != "" || c.Record != "" {
		return Report{}, fmt.Errorf("%w: a replay calls no analyzer and records nothing", ErrUsage)
	}
	rec, err := ReadRecording(c.Replay)
	if err != nil {
		return Report{}, err
	}
	if err := rec.CheckBuild(); err != nil {
		return Report{}, err
	}
	if c.Samples > 1 && c.Samples != rec.Manifest.Samples {
		return Report{}, refuse("it holds %d samples, not %d", rec.Manifest.Samples, c.Samples)
	}
	if c.Cases != "" {
		raw, _, err := readCorpusFiles(c.Cases)
		if err != nil {
			return Report{}, err
		}
		if got := vocab.SHA256Hex(raw); got != rec.Manifest.Corpus.SHA256 {
			return Report{}, refuse("%s has sha256 %s; the recording scored a corpus with sha256 %s", c.Cases, got, rec.Manifest.Corpus.SHA256)
		}
	}
	if c.Split != "" && splitName(c.Split) != splitName(rec.Manifest.Corpus.Split) {
		return Report{}, refuse("it scored split %q, not %q", rec.Manifest.Corpus.Split, c.Split)
	}
	rep, err := scoreRecording(ctx, rec, c.Agree)
	if err != nil {
		return rep, err
	}
	rep.Recording = &RecordingRef{Dir: c.Replay, ManifestSHA256: rec.SHA256, Replayed: true}
	return rep, nil
}

// scoreRecording scores a verified recording: its K samples, or with
// agree > 0 the one sample of the agree-of-K configuration.
func scoreRecording(ctx context.Context, rec *Recording, agree int) (Report, error) {
	all, err := ReadCases(bytes.NewReader(rec.Cases))
	if err != nil {
		return Report{}, refuse("%s: %v", RecordingCases, err)
	}
	cases, err := SelectSplit(all, rec.Manifest.Corpus.Split)
	if err != nil {
		return Report{}, refuse("%s: %v", RecordingCases, err)
	}
	rp, err := NewReplayer(rec, agree)
	if err != nil {
		return Report{}, err
	}
	samples := rec.Manifest.Samples
	if agree > 0 {
		samples = 1
	}
	rep := Evaluate(ctx, cases, rp, samples)
	if err := rp.Complete(); err != nil {
		return rep, err
	}
	m := rec.Manifest.Corpus
	rep.Corpus.File, rep.Corpus.SHA256, rep.Corpus.Split = m.File, m.SHA256, m.Split
	return rep, nil
}

// readCorpusFiles reads a corpus given as one path or several joined by
// commas: their bytes in order (each ending in a newline, so the lines of
// one never run into the next) and their base names joined by commas.
func readCorpusFiles(paths string) ([]byte, string, error) {
	var raw []byte
	var names []string
	for _, p := range strings.Split(paths, ",") {
		if p == "" {
			return nil, "", fmt.Errorf("%w: an empty corpus path in %q", ErrUsage, paths)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, "", fmt.Errorf("eval: %w", err)
		}
		raw = append(raw, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			raw = append(raw, '\n')
		}
		names = append(names, filepath.Base(p))
	}
	return raw, strings.Join(names, ","), nil
}

// splitName is the split as reported: "" is all of the corpus.
func splitName(s string) string {
	if s == "" {
		return SplitAll
	}
	return s
}
