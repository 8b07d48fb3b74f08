package analyzer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The training of the purpose analyzer's second stage (purpose_model.go).
// `make purpose-model` (go test ./internal/analyzer -run
// TestPurposeModelFile -update) reads the development material, keeps the
// held-out part of split3.py apart, trains one logistic regression per
// category on the design part's sentences, chooses each category's
// threshold on the held-out part, and writes purpose_model.bin. Without
// -update the test checks that the training material and the embedded
// model hash to the pinned values; with -retrain (make purpose-model-check,
// which make test runs) it also trains again and checks that the embedded
// file is the one the training writes, byte for byte.

// purposeTrainFiles is the development material of the fourth reading (the
// third's and the retired third blind part's hand-written cases), in the
// order its bytes are hashed. The runtime-truth clean base of the test
// side (the truth cases of test_cases.jsonl, blind_cases.jsonl and
// blind3_cases.jsonl) is not in it: that base stays the admission control
// set.
var purposeTrainFiles = []string{"cases.jsonl", "test_poisoned.jsonl", "test_clean.jsonl", "blind_poisoned.jsonl", "blind_clean.jsonl", "blind3_poisoned.jsonl", "blind3_clean.jsonl", "hand6_poisoned.jsonl", "hand6_clean.jsonl", "hand7_poisoned.jsonl", "hand7_clean.jsonl"}

// Pinned: the SHA-256 of the training material's bytes and of the model
// file's uncompressed bytes (format line, header, weights).
const (
	pinnedPurposeTrainingSHA256 = "f5e039462c42610419f26f7cd04568db8337906bae6be5ad2c921b93e60a4d71"
	pinnedPurposeModelSHA256    = "df4b2cbd213f78a793628cd2e6eae5e6ed13f610bc0a6ca38c408898402a99ed"
)

const (
	purposeTrainSeed   = 20261201
	purposeTrainEpochs = 20
	// purposeTrainPrecision is the precision each category's threshold is
	// chosen for on the held-out part.
	purposeTrainPrecision = 0.97
	// purposeMinThreshold: no threshold is chosen below it.
	purposeMinThreshold = 0.5
	// purposeMinCorrect: a class whose threshold would rest on fewer
	// correct held-out proposals than this proposes nothing.
	purposeMinCorrect  = 5
	purposeHeldOutRule = "attestari-purpose3-heldout"
	purposeTrainL2     = 1e-6
)

type trainCase struct {
	ID            string `json:"id"`
	Kind          string `json:"kind"`
	SurfaceKind   string `json:"surface_kind"`
	ToolName      string `json:"tool_name"`
	Description   string `json:"description"`
	ExpectedSpans []struct {
		Text     string `json:"text"`
		Category string `json:"category"`
	} `json:"expected_spans"`
	Source string `json:"source"`
	Split  string `json:"split"`
}

// purposeSourceKey is internal/eval.SourceKey (the package name of a
// runtime-truth case, a citation's first URL, else the source text);
// TestPurposeSourceKeyIsEvals keeps the two equal.
func purposeSourceKey(source string) string {
	s := strings.TrimSpace(source)
	if rest, ok := strings.CutPrefix(s, "npm:"); ok {
		if i := strings.LastIndex(rest, "@"); i > 0 {
			rest = rest[:i]
		}
		return "npm:" + rest
	}
	a, b := strings.Index(s, "https://"), strings.Index(s, "http://")
	i := a
	if i < 0 || (b >= 0 && b < i) {
		i = b
	}
	if i >= 0 {
		u := s[i:]
		if j := strings.IndexAny(u, " \t\n\"'<>"); j >= 0 {
			u = u[:j]
		}
		return strings.TrimRight(u, ").,;:")
	}
	return s
}

// purposeHeldOut3 is split3.py's rule: held out when the first byte of
// SHA-256(rule "\n" source key) is divisible by 3.
func purposeHeldOut3(source string) bool {
	h := sha256.Sum256([]byte(purposeHeldOutRule + "\n" + purposeSourceKey(source)))
	return h[0]%3 == 0
}

func loadTrainCases(t testing.TB) ([]trainCase, string) {
	t.Helper()
	return loadTrainFilesHashed(t, purposeTrainFiles)
}

// loadTrainFiles reads the cases of files (under testdata/eval), in order.
func loadTrainFiles(t testing.TB, files []string) []trainCase {
	t.Helper()
	out, _ := loadTrainFilesHashed(t, files)
	return out
}

func loadTrainFilesHashed(t testing.TB, files []string) ([]trainCase, string) {
	t.Helper()
	hash := sha256.New()
	var out []trainCase
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "eval", name))
		if err != nil {
			t.Fatal(err)
		}
		hash.Write(data)
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 1<<16), 8<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var c trainCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out, hex.EncodeToString(hash.Sum(nil))
}

// trainSentence is one sentence as the second stage reads it, with its
// labels: the category of every expected span it overlaps.
type trainSentence struct {
	caseID string
	clean  bool
	feats  []uint32
	rules  [3]bool
	label  [3]bool
	any    bool // overlaps a span of any category
	// gate: the category is one the stage may propose on the sentence
	// (modelAdmits and not modelNeedsData), as readEntry applies them.
	gate [3]bool
}

func categoryIndex(c string) int {
	for i, x := range purposeModelCategories {
		if x == c {
			return i
		}
	}
	return -1
}

// trainSentences reads every case with the rules alone and returns its
// sentences with their features.
func trainSentences(cases []trainCase) []trainSentence {
	return trainSentencesWith(cases, purposeFeatureSet)
}

// trainSentencesWith is trainSentences under the feature set fs.
func trainSentencesWith(cases []trainCase, fs modelFeatureSet) []trainSentence {
	var out []trainSentence
	a := &Purpose{}
	for _, c := range cases {
		name := c.ToolName
		if name == "" {
			name = c.ID
		}
		e := Entry{ID: c.ID, Kind: c.SurfaceKind, Name: name, File: "case.json", State: "readable", Segments: []string{c.Description}}
		if !purposeReadable(e) {
			continue
		}
		type span struct {
			a, b, cat int
		}
		var spans []span
		for _, s := range c.ExpectedSpans {
			if i := strings.Index(c.Description, s.Text); i >= 0 {
				spans = append(spans, span{i, i + len(s.Text), categoryIndex(s.Category)})
			}
		}
		a.trace = func(_ Entry, sr sentenceReading, ctx sentenceContext) {
			ts := trainSentence{caseID: c.ID, clean: c.Kind == "clean", rules: [3]bool{sr.exfil, sr.override, sr.conceal}}
			ts.feats = modelFeaturesWith(nil, sr, ctx, fs)
			for k, cat := range purposeModelCategories {
				ts.gate[k] = !ctx.p.modelNeedsData(cat, sr.folded) && modelAdmits(cat, sr)
			}
			for _, s := range spans {
				if sr.start < s.b && s.a < sr.end && s.cat >= 0 {
					ts.label[s.cat] = true
					ts.any = true
				}
			}
			out = append(out, ts)
		}
		a.readEntry(e)
	}
	return out
}

// trainPurposeModel trains the three classes on design and chooses their
// thresholds on heldout; it returns the model file's uncompressed bytes.
// purposeTrainConfig is the training's hyperparameters.
type purposeTrainConfig struct {
	epochs int
	lr, l2 float64
	// maxPosWeight caps the weight of a positive sentence (the class
	// balance, divided by 4, at least 1).
	maxPosWeight float64
	// gated: thresholds are chosen on the sentences the gate admits
	// (modelAdmits, modelNeedsData), as the stage proposes; fpPer500, when
	// positive, is each category's budget of false proposals on clean
	// cases per 500 clean cases of the threshold part; precision, when
	// positive, replaces purposeTrainPrecision.
	gated     bool
	fpPer500  float64
	precision float64
	// residual: each class is trained on the sentences the rules did not
	// already give it (the stage only ever scores those).
	residual bool
}

// purposeTrain is the configuration the shipped model is trained with,
// chosen on the inner validation part of the design part
// (TestPurposeModelCurves), never on the held-out part.
//
// offline-purpose-8 adds the clean budget: each category's threshold keeps
// at most a third of a false proposal per 500 clean cases of the held-out
// part (so the three together at most one), chosen with the folds over
// dev, test and test2 (TestPurposeMdlFolds).
var purposeTrain = purposeTrainConfig{epochs: purposeTrainEpochs, lr: 0.5, l2: purposeTrainL2, maxPosWeight: 10, fpPer500: 1.0 / 3}

func trainPurposeModel(design, heldout []trainSentence, trainingSHA string) []byte {
	return trainPurposeModelWith(purposeTrain, design, heldout, trainingSHA)
}

func trainPurposeModelWith(cfg purposeTrainConfig, design, heldout []trainSentence, trainingSHA string) []byte {
	n := 1 << purposeModelBits
	var hdr purposeModelHeader
	hdr.Format, hdr.Features, hdr.Bits = PurposeModelFormat, purposeFeaturesVersion, purposeModelBits
	hdr.TrainingSHA256, hdr.Epochs, hdr.Seed = trainingSHA, cfg.epochs, purposeTrainSeed
	weights := make([]byte, 2*3*n)
	m := &purposeModel{}
	for c := range 3 {
		w := make([]float64, n)
		bias := 0.0
		rng := rand.New(rand.NewPCG(purposeTrainSeed, uint64(c)))
		order := make([]int, len(design))
		for i := range order {
			order[i] = i
		}
		npos := 0
		for _, s := range design {
			if s.label[c] {
				npos++
			}
		}
		posWeight := 1.0
		if npos > 0 {
			posWeight = math.Min(cfg.maxPosWeight, float64(len(design)-npos)/float64(npos)/4)
			posWeight = math.Max(1, posWeight)
		}
		for ep := range cfg.epochs {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			lr := cfg.lr / math.Sqrt(float64(ep+1))
			for _, i := range order {
				s := design[i]
				if cfg.residual && s.rules[c] {
					continue
				}
				v := featureNorm(len(s.feats))
				z := 0.0
				for _, h := range s.feats {
					z += w[h]
				}
				z = bias + z*v
				y, wt := 0.0, 1.0
				if s.label[c] {
					y, wt = 1, posWeight
				}
				g := (sigmoid(z) - y) * wt * lr
				bias -= g
				for _, h := range s.feats {
					w[h] -= g*v + lr*cfg.l2*w[h]
				}
			}
		}
		maxAbs := 0.0
		for _, x := range w {
			maxAbs = math.Max(maxAbs, math.Abs(x))
		}
		scale := maxAbs / 32767
		if scale == 0 {
			scale = 1
		}
		m.w[c] = make([]int16, n)
		for i, x := range w {
			q := int16(math.Round(x / scale))
			m.w[c][i] = q
			binary.LittleEndian.PutUint16(weights[2*(c*n+i):], uint16(q))
		}
		hdr.Scale[c], hdr.Bias[c] = scale, bias
	}
	m.hdr = hdr
	// Thresholds, on the held-out part, with the quantised weights.
	for c := range 3 {
		type sc struct {
			s       float64
			correct bool
			clean   bool
		}
		var cand []sc
		cleanCases := map[string]bool{}
		for _, s := range heldout {
			if s.clean {
				cleanCases[s.caseID] = true
			}
			if s.rules[c] || (cfg.gated && !s.gate[c]) {
				continue
			}
			cand = append(cand, sc{m.scores(s.feats)[c], s.label[c], s.clean})
		}
		sort.SliceStable(cand, func(i, j int) bool { return cand[i].s > cand[j].s })
		prec := purposeTrainPrecision
		if cfg.precision > 0 {
			prec = cfg.precision
		}
		thr, ok, good, fpClean := 1.0, 0, 0, 0
		for i, x := range cand {
			if x.s < purposeMinThreshold {
				break
			}
			if x.correct {
				good++
			} else if x.clean {
				fpClean++
			}
			ok = i + 1
			if cfg.fpPer500 > 0 && float64(fpClean)*500 > cfg.fpPer500*float64(len(cleanCases)) {
				break
			}
			if good >= purposeMinCorrect && float64(good)/float64(ok) >= prec && (i+1 == len(cand) || cand[i+1].s < x.s) {
				thr = x.s
			}
		}
		hdr.Threshold[c] = thr
	}
	sum := sha256.Sum256(weights)
	hdr.WeightsSHA256 = hex.EncodeToString(sum[:])
	hj, err := json.Marshal(hdr)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	buf.WriteString(PurposeModelFormat + "\n")
	buf.Write(hj)
	buf.WriteByte('\n')
	buf.Write(weights)
	return buf.Bytes()
}

func gzipModel(t testing.TB, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gunzipModel(t testing.TB, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func splitTrain(cases []trainCase) (design, heldout []trainCase) {
	for _, c := range cases {
		if purposeHeldOut3(c.Source) {
			heldout = append(heldout, c)
		} else {
			design = append(design, c)
		}
	}
	return design, heldout
}

// retrainPurposeModel makes TestPurposeModelFile train the model again and
// compare it with the embedded file (`make purpose-model-check`, run by
// `make test`); -update implies it.
var retrainPurposeModel = flag.Bool("retrain", false, "train the purpose model again and check the embedded purpose_model.bin is its output")

// TestPurposeModelFile: the shipped model is the one pinned for the pinned
// training material. Without -retrain it checks the hashes only (the
// training material's bytes, the embedded model's uncompressed bytes and the
// training hash its header names), so an ordinary test run costs no
// training; with -retrain (`make purpose-model-check`) it also trains again
// and checks the embedded file is the training's output byte for byte.
// With -update (`make purpose-model`) it writes purpose_model.bin and
// prints the hashes to pin.
func TestPurposeModelFile(t *testing.T) {
	cases, trainSHA := loadTrainCases(t)
	if !*update && !*retrainPurposeModel {
		checkPinnedPurposeModel(t, trainSHA, gunzipModel(t, purposeModelData))
		return
	}
	design, heldout := splitTrain(cases)
	raw := trainPurposeModel(trainSentences(design), trainSentences(heldout), trainSHA)
	if *update {
		sum := sha256.Sum256(raw)
		if err := os.WriteFile("purpose_model.bin", gzipModel(t, raw), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := parsePurposeModel(gzipModel(t, raw))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("training sha256 %s; model sha256 %s; thresholds %v", trainSHA, hex.EncodeToString(sum[:]), m.hdr.Threshold)
		return
	}
	checkPinnedPurposeModel(t, trainSHA, raw)
	if got := gunzipModel(t, purposeModelData); !bytes.Equal(got, raw) {
		t.Fatal("the embedded purpose_model.bin is not what the training writes")
	}
}

// checkPinnedPurposeModel fails unless the training material and raw (a
// model's uncompressed bytes) hash to the pinned values and the embedded
// model names the pinned training material.
func checkPinnedPurposeModel(t *testing.T, trainSHA string, raw []byte) {
	t.Helper()
	if trainSHA != pinnedPurposeTrainingSHA256 {
		t.Fatalf("the training material hashes to %s, pinned %s: retrain (make purpose-model), pin, and restate docs/model-check.md", trainSHA, pinnedPurposeTrainingSHA256)
	}
	sum := sha256.Sum256(raw)
	if modelSHA := hex.EncodeToString(sum[:]); modelSHA != pinnedPurposeModelSHA256 {
		t.Fatalf("the model hashes to %s, pinned %s", modelSHA, pinnedPurposeModelSHA256)
	}
	m, err := thePurposeModel()
	if err != nil {
		t.Fatal(err)
	}
	if m.hdr.TrainingSHA256 != pinnedPurposeTrainingSHA256 {
		t.Fatalf("the model names training material %s", m.hdr.TrainingSHA256)
	}
}

// purposeInner splits the design part once more, by source, for choosing
// the training's hyperparameters: a third of the design part's sources
// validate, the rest train.
func purposeInner(source string) bool {
	h := sha256.Sum256([]byte("attestari-purpose3-inner\n" + purposeSourceKey(source)))
	return h[0]%3 == 0
}

// TestPurposeModelCurves prints, with -v and ATTESTARI_PURPOSE_CURVES set,
// sentence-level precision and recall of each class at a range of
// thresholds: for each candidate configuration on the inner validation part
// (trained on the rest of the design part), and for the shipped
// configuration on the held-out part (trained on the design part).
func TestPurposeModelCurves(t *testing.T) {
	if os.Getenv("ATTESTARI_PURPOSE_CURVES") == "" {
		return
	}
	cases, trainSHA := loadTrainCases(t)
	design, heldout := splitTrain(cases)
	var inTrain, inVal []trainCase
	for _, c := range design {
		if purposeInner(c.Source) {
			inVal = append(inVal, c)
		} else {
			inTrain = append(inTrain, c)
		}
	}
	its, ivs := trainSentences(inTrain), trainSentences(inVal)
	hs := trainSentences(heldout)
	ds := append(append([]trainSentence{}, its...), ivs...)
	curves := func(name string, raw []byte, part []trainSentence) {
		m, err := parsePurposeModel(gzipModel(t, raw))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: thresholds %.3f", name, m.hdr.Threshold)
		for c := range 3 {
			total := 0
			for _, s := range part {
				if s.label[c] && !s.rules[c] {
					total++
				}
			}
			line := fmt.Sprintf("%s %s (%d unfound by the rules):", name, purposeModelCategories[c], total)
			for _, thr := range []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.95} {
				good, bad, clean := 0, 0, 0
				for _, s := range part {
					if s.rules[c] || m.scores(s.feats)[c] < thr {
						continue
					}
					if s.label[c] {
						good++
					} else {
						bad++
						if s.clean {
							clean++
						}
					}
				}
				line += fmt.Sprintf(" %.2f:%d/%d(%dc)", thr, good, good+bad, clean)
			}
			t.Log(line)
		}
	}
	for _, cfg := range []purposeTrainConfig{
		{8, 0.2, 1e-5, 10, false, 0, 0, false}, {20, 0.5, 1e-6, 10, false, 0, 0, false}, {30, 1.0, 1e-6, 10, false, 0, 0, false}, {30, 1.0, 1e-7, 4, false, 0, 0, false}, {50, 2.0, 1e-7, 10, false, 0, 0, false},
	} {
		curves(fmt.Sprintf("inner %+v", cfg), trainPurposeModelWith(cfg, its, ivs, trainSHA), ivs)
	}
	curves("held-out (shipped configuration)", trainPurposeModel(ds, hs, trainSHA), hs)
}

// TestPurposeHeldOutIsSplit3: the Go rule reads source keys as
// eval.SourceKey does, and splits the development material exactly as
// split3.py did when it was run before the first training (288 poisoned and
// 1,741 clean cases held out, 531 and 3,148 in the design part).
func TestPurposeHeldOutIsSplit3(t *testing.T) {
	for src, want := range map[string]string{
		"npm:@scope/pkg@1.2.3": "npm:@scope/pkg",
		"npm:pkg@0.1.0":        "npm:pkg",
		"adapted from https://example.org/post-a (what it shows; text written for this corpus)": "https://example.org/post-a",
		"see http://a.example/x), and https://b.example/y":                                      "http://a.example/x",
		"  written for this corpus: a thing  ":                                                  "written for this corpus: a thing",
	} {
		if got := purposeSourceKey(src); got != want {
			t.Errorf("%q: key %q, want %q", src, got, want)
		}
	}
	cases, _ := loadTrainCases(t)
	design, heldout := splitTrain(cases)
	count := func(cs []trainCase) (p, c int) {
		for _, x := range cs {
			if x.Kind == "clean" {
				c++
			} else {
				p++
			}
		}
		return p, c
	}
	dp, dc := count(design)
	hp, hc := count(heldout)
	if dp != 906 || dc != 3559 || hp != 470 || hc != 1966 {
		t.Fatalf("design %d poisoned %d clean, held out %d and %d; split3.py gave 906, 3559, 470, 1966", dp, dc, hp, hc)
	}
}
