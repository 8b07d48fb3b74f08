package analyzer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The purpose analyzer's second stage (offline-purpose-3, retrained for -4): a linear model
// over hashed word and character n-grams of each sentence and the
// structural readings the rules compute, trained on the development
// material by purpose_model_train.go and shipped as data
// (purpose_model.bin, embedded). A sentence the rules leave without a
// category is proposed with the model's category when its score reaches
// that category's threshold, chosen on the held-out part (split3.py) for
// precision. The quote is the whole sentence of the original bytes, as for
// the rules, so the verifier is unchanged. The model holds no case text:
// only weights indexed by 32-bit hashes of n-grams.

// PurposeModelFormat is the first line of the model file.
const PurposeModelFormat = "attestari-purpose-model-1"

// purposeModelBits is log2 of the hashed feature space.
const purposeModelBits = 18

// maxModelSentenceBytes bounds the text of one sentence the model reads:
// a longer sentence is read on its first maxModelSentenceBytes bytes (cut
// at a rune boundary), so the model's work per sentence is bounded.
const maxModelSentenceBytes = 2048

// purposeModelCategories is the order of the model's classes.
var purposeModelCategories = [3]string{CategoryExfiltrate, CategoryOverride, CategoryConceal}

//go:embed purpose_model.bin
var purposeModelData []byte

// purposeModelHeader is the model file's JSON header.
type purposeModelHeader struct {
	Format string `json:"format"`
	// Features names the feature extraction (modelFeatures); a model
	// trained under another cannot be read.
	Features string `json:"features"`
	Bits     int    `json:"bits"`
	// Scale turns the stored int16 weights of each class back into
	// weights; Bias is each class's intercept.
	Scale [3]float64 `json:"scale"`
	Bias  [3]float64 `json:"bias"`
	// Threshold per class: a sentence is proposed when its score (the
	// logistic of the linear sum) reaches it.
	Threshold [3]float64 `json:"threshold"`
	// TrainingSHA256 is the SHA-256 of the training material's bytes
	// (purposeTrainFiles in order), WeightsSHA256 that of the weights.
	TrainingSHA256 string `json:"training_sha256"`
	WeightsSHA256  string `json:"weights_sha256"`
	Epochs         int    `json:"epochs"`
	Seed           uint64 `json:"seed"`
}

// purposeFeaturesVersion names modelFeatures; a change to it is a new
// model and a new PurposeVersion.
const purposeFeaturesVersion = "purpose-features-2"

type purposeModel struct {
	hdr purposeModelHeader
	w   [3][]int16
	// fs is the feature set the model reads: purposeFeatureSet for a
	// model file (the fold tests set others).
	fs modelFeatureSet
}

// features is modelFeaturesWith under the model's feature set.
func (m *purposeModel) features(buf []uint32, sr sentenceReading, ctx sentenceContext) []uint32 {
	return modelFeaturesWith(buf, sr, ctx, m.fs)
}

var (
	loadedModelOnce sync.Once
	loadedModel     *purposeModel
	loadedModelErr  error
)

// errPurposeModel classifies a model file that cannot be read.
var errPurposeModel = errors.New("analyzer: purpose model")

// thePurposeModel is the embedded model, parsed once.
func thePurposeModel() (*purposeModel, error) {
	loadedModelOnce.Do(func() { loadedModel, loadedModelErr = parsePurposeModel(purposeModelData) })
	return loadedModel, loadedModelErr
}

// parsePurposeModel reads a gzip-compressed model file: the format line,
// one JSON header line, then 3 × 2^bits little-endian int16 weights.
func parsePurposeModel(data []byte) (*purposeModel, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errPurposeModel, err)
	}
	n := 3 << purposeModelBits
	raw, err := io.ReadAll(io.LimitReader(zr, int64(2*n+1<<16)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errPurposeModel, err)
	}
	var m purposeModel
	w, err := readModelFile(raw, PurposeModelFormat, &m.hdr, func() error {
		if m.hdr.Format != PurposeModelFormat || m.hdr.Features != purposeFeaturesVersion || m.hdr.Bits != purposeModelBits {
			return fmt.Errorf("%w: header names %s, %s, %d bits", errPurposeModel, m.hdr.Format, m.hdr.Features, m.hdr.Bits)
		}
		return nil
	}, 1<<purposeModelBits, func() string { return m.hdr.WeightsSHA256 })
	if err != nil {
		return nil, err
	}
	m.w = w
	m.fs = purposeFeatureSet
	for c := range 3 {
		if math.IsNaN(m.hdr.Scale[c]) || math.IsNaN(m.hdr.Bias[c]) || math.IsNaN(m.hdr.Threshold[c]) {
			return nil, fmt.Errorf("%w: not a number in the header", errPurposeModel)
		}
	}
	return &m, nil
}

// readModelFile reads the framing both purpose model files share: the
// format line, one JSON header line decoded strictly into hdr and checked by
// check, then 3 × n little-endian int16 weights whose SHA-256 is the one
// the header names (sum, read after the header is decoded).
func readModelFile(raw []byte, format string, hdr any, check func() error, n int, sum func() string) ([3][]int16, error) {
	var w [3][]int16
	line, rest, ok := bytes.Cut(raw, []byte("\n"))
	if !ok || string(line) != format {
		return w, fmt.Errorf("%w: not %s", errPurposeModel, format)
	}
	hline, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return w, fmt.Errorf("%w: no header", errPurposeModel)
	}
	dec := json.NewDecoder(bytes.NewReader(hline))
	dec.DisallowUnknownFields()
	if err := dec.Decode(hdr); err != nil {
		return w, fmt.Errorf("%w: header: %v", errPurposeModel, err)
	}
	if err := check(); err != nil {
		return w, err
	}
	if len(rest) != 2*3*n {
		return w, fmt.Errorf("%w: %d weight bytes, want %d", errPurposeModel, len(rest), 2*3*n)
	}
	if h := sha256.Sum256(rest); hex.EncodeToString(h[:]) != sum() {
		return w, fmt.Errorf("%w: weights do not hash to the header's", errPurposeModel)
	}
	for c := range 3 {
		w[c] = make([]int16, n)
		for i := range w[c] {
			w[c][i] = int16(binary.LittleEndian.Uint16(rest[2*(c*n+i):]))
		}
	}
	return w, nil
}

// scores returns the model's score of each class for one sentence's
// features.
func (m *purposeModel) scores(feats []uint32) [3]float64 {
	var out [3]float64
	for c := range 3 {
		var s int64
		for _, h := range feats {
			s += int64(m.w[c][h])
		}
		out[c] = sigmoid(m.hdr.Bias[c] + m.hdr.Scale[c]*float64(s)*featureNorm(len(feats)))
	}
	return out
}

// featureNorm is the value of each of n features: the feature vector has
// unit length, so a long sentence does not outweigh a short one.
func featureNorm(n int) float64 {
	if n == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(n))
}

func sigmoid(x float64) float64 {
	switch {
	case x > 40:
		return 1
	case x < -40:
		return 0
	}
	return 1 / (1 + math.Exp(-x))
}

// modelCategory is the second stage on one sentence: the class whose score
// reaches its threshold by the widest margin, if any, and not one the
// rules already proposed for the sentence.
func (m *purposeModel) modelCategory(feats []uint32, rules [3]bool) (string, bool) {
	return widestMargin(m.scores(feats), m.hdr.Threshold, rules)
}

// widestMargin is the category whose score reaches its threshold by the
// widest margin, among those not already given; false when none does. Both
// model stages choose this way.
func widestMargin(sc, threshold [3]float64, given [3]bool) (string, bool) {
	best, bestMargin := -1, 0.0
	for c := range 3 {
		if given[c] {
			continue
		}
		if mg := sc[c] - threshold[c]; mg >= 0 && (best < 0 || mg > bestMargin) {
			best, bestMargin = c, mg
		}
	}
	if best < 0 {
		return "", false
	}
	return purposeModelCategories[best], true
}

// sentenceContext is what the features read of a sentence's entry.
type sentenceContext struct {
	kind    string
	deviant bool // a rule found something elsewhere in the entry
	// The ninth reading's concept features (purpose_model8.go) read the
	// entry's purpose, the sentence's original bytes and whether the rules
	// found a taking elsewhere in the entry.
	p      entryPurpose
	orig   string
	taking bool
}

// modelFeatures appends the hashed features of one sentence to buf under
// the shipped feature set (purpose_model8.go): word unigrams and bigrams,
// character 3- and 4-grams of the folded text (and of its deobfuscated
// form when it differs), the first word (an imperative's verb), the
// entry's kind, the rules' readings (addressed, data named, sink,
// negation, trigger, and the categories and deviant-only forms the rules
// concluded), and the ninth reading's concepts and their pairs, as
// purposeFeatureSet chooses. Linear in the sentence, bounded by
// maxModelSentenceBytes.
func modelFeatures(buf []uint32, sr sentenceReading, ctx sentenceContext) []uint32 {
	return modelFeaturesWith(buf, sr, ctx, purposeFeatureSet)
}

func capText(s string) string {
	if len(s) <= maxModelSentenceBytes {
		return s
	}
	i := maxModelSentenceBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// wordAndCharFeatures hashes the words (runs of letters, digits and
// apostrophes) of s, their bigrams, the first word, and the character 3-
// and 4-grams of the words joined by single spaces, padded with a space.
func wordAndCharFeatures(buf []uint32, s string) []uint32 {
	return wordFeaturesWith(buf, s, modelFeatureSet{words: true, bigrams: true, chars: true})
}

func modelWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
	featureMask = 1<<purposeModelBits - 1
)

func fnvString(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime32
	}
	return h
}

func featureHash(prefix, s string) uint32 {
	return fnvString(fnvString(fnvOffset32, prefix), s) & featureMask
}

func featureHash2(prefix, a, b string) uint32 {
	h := fnvString(fnvString(fnvOffset32, prefix), a)
	h ^= ' '
	h *= fnvPrime32
	return fnvString(h, b) & featureMask
}

func runeGramHash(tag byte, rs []rune) uint32 {
	h := uint32(fnvOffset32)
	h ^= uint32(tag)
	h *= fnvPrime32
	for _, r := range rs {
		for k := 0; k < 4; k++ {
			h ^= uint32(byte(r >> (8 * k)))
			h *= fnvPrime32
		}
	}
	return h & featureMask
}

// readStructureFlags records the structural readings the second stage
// reads beside the words: the same expressions the rules combine, each
// read alone.
func (sr *sentenceReading) readStructureFlags(p entryPurpose) {
	f := sr.folded
	sr.trigger = pxTrigger.MatchString(f)
	sr.addressed = sr.trigger || pxImperative.MatchString(f) || p.kind == "parameter_description" || p.kind == "prompt_text"
	sr.dataNamed = pxSecretData.MatchString(f) || pxConversation.MatchString(f) || pxPersonalData.MatchString(f)
	sr.sinkNamed = pxSink.MatchString(f) || pxExternal.MatchString(f)
	sr.negated = pxNoTransfer.MatchString(f)
	sr.userNamed = containsAny(f, "user", "human", "customer", "operator")
}
