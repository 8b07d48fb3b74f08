package analyzer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
)

// The training of the fifth reading's structural stage (purpose_struct5.go).
// The material is the development material by hand (purposeFoldParts). One
// logistic regression per category is trained over the structural features
// and their pairs on every sentence of the parts given; its threshold is
// calibrated by leave-one-hand-out inside those parts: for each part, a
// model trained on the others scores it, the scores of all parts are
// pooled, and the threshold is the lowest score at which the pooled
// proposals the stage could make (sentences the rules left without the
// category, admitted by the gate) reach structTrainPrecision, resting on at
// least structMinCorrect correct proposals. The shipped model is trained on
// all four parts, its thresholds calibrated on the four; a fold's model is
// trained on three, calibrated on the three (never on the scored part).

const (
	structTrainSeed   = 20261202
	structTrainEpochs = 12
	structTrainLR     = 0.05
	structTrainL2     = 1e-4
	// structTrainPrecision is the sentence-level precision each category's
	// threshold is calibrated for on the pooled leave-one-hand-out scores.
	structTrainPrecision = 0.95
	structMinCorrect     = 5
	structMinThreshold   = 0.5
)

// structSentence is one sentence as the structural stage reads it.
type structSentence struct {
	vec   []int
	rules [3]bool // a category the earlier stages gave
	admit [3]bool // the gate would admit a proposal of the category
	label [3]bool
	clean bool
}

// structSentences reads every case with the rules alone and returns its
// sentences with their structural features.
func structSentences(cases []trainCase) []structSentence {
	var out []structSentence
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
		type span struct{ a, b, cat int }
		var spans []span
		for _, s := range c.ExpectedSpans {
			if i := strings.Index(c.Description, s.Text); i >= 0 {
				spans = append(spans, span{i, i + len(s.Text), categoryIndex(s.Category)})
			}
		}
		p := purposeOf(e)
		a.traceStruct = func(_ Entry, sr sentenceReading, base []int) {
			ss := structSentence{clean: c.Kind == "clean", rules: [3]bool{sr.exfil, sr.override, sr.conceal}}
			ss.vec = structVector(nil, base)
			for k, cat := range purposeModelCategories {
				ss.admit[k] = !p.modelNeedsData(cat, sr.folded) && modelAdmits(cat, sr)
			}
			for _, s := range spans {
				if sr.start < s.b && s.a < sr.end && s.cat >= 0 {
					ss.label[s.cat] = true
				}
			}
			out = append(out, ss)
		}
		a.readEntry(e)
	}
	return out
}

// structWeights trains one class's weights and bias on sents.
func structWeights(sents []structSentence, c int) ([]float64, float64) {
	w := make([]float64, nStructFeatures)
	bias := 0.0
	if len(sents) == 0 {
		return w, bias
	}
	npos := 0
	for _, s := range sents {
		if s.label[c] {
			npos++
		}
	}
	posWeight := 1.0
	if npos > 0 {
		posWeight = math.Max(1, math.Min(10, float64(len(sents)-npos)/float64(npos)/4))
	}
	order := make([]int, len(sents))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(structTrainSeed, uint64(c)))
	for ep := range structTrainEpochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		lr := structTrainLR / math.Sqrt(float64(ep+1))
		for _, i := range order {
			s := sents[i]
			z := bias
			for _, h := range s.vec {
				z += w[h]
			}
			y, wt := 0.0, 1.0
			if s.label[c] {
				y, wt = 1, posWeight
			}
			g := (sigmoid(z) - y) * wt * lr
			bias -= g
			for _, h := range s.vec {
				w[h] -= g + lr*structTrainL2*w[h]
			}
		}
	}
	return w, bias
}

// structModelFrom quantises trained weights into a model (thresholds 1:
// proposing nothing until calibrated).
func structModelFrom(ws [3][]float64, bias [3]float64) *purposeStructModel {
	m := &purposeStructModel{}
	m.hdr.Format, m.hdr.Features, m.hdr.N = PurposeStructModelFormat, purposeStructFeaturesVersion, nStructFeatures
	m.hdr.Epochs, m.hdr.Seed = structTrainEpochs, structTrainSeed
	for c := range 3 {
		maxAbs := 0.0
		for _, x := range ws[c] {
			maxAbs = math.Max(maxAbs, math.Abs(x))
		}
		scale := maxAbs / 32767
		if scale == 0 {
			scale = 1
		}
		m.w[c] = make([]int16, nStructFeatures)
		for i, x := range ws[c] {
			m.w[c][i] = int16(math.Round(x / scale))
		}
		m.hdr.Scale[c], m.hdr.Bias[c], m.hdr.Threshold[c] = scale, bias[c], 1
	}
	return m
}

func trainStructOn(sents []structSentence) *purposeStructModel {
	var ws [3][]float64
	var bias [3]float64
	for c := range 3 {
		ws[c], bias[c] = structWeights(sents, c)
	}
	return structModelFrom(ws, bias)
}

// structThresholds calibrates each class's threshold by leave-one-hand-out
// over parts (each part scored by a model trained on the others).
func structThresholds(parts [][]structSentence) [3]float64 {
	type sc struct {
		s       float64
		correct bool
	}
	var pooled [3][]sc
	for i := range parts {
		var rest []structSentence
		for j := range parts {
			if j != i {
				rest = append(rest, parts[j]...)
			}
		}
		m := trainStructOn(rest)
		for _, s := range parts[i] {
			score := m.scores(s.vec)
			for c := range 3 {
				if s.rules[c] || !s.admit[c] {
					continue
				}
				pooled[c] = append(pooled[c], sc{score[c], s.label[c]})
			}
		}
	}
	var thr [3]float64
	for c := range 3 {
		cand := pooled[c]
		sort.SliceStable(cand, func(i, j int) bool { return cand[i].s > cand[j].s })
		t, good := 1.0, 0
		for i, x := range cand {
			if x.s < structMinThreshold {
				break
			}
			if x.correct {
				good++
			}
			if good >= structMinCorrect && float64(good)/float64(i+1) >= structTrainPrecision && (i+1 == len(cand) || cand[i+1].s < x.s) {
				t = x.s
			}
		}
		thr[c] = t
	}
	return thr
}

// trainStructModel trains on every part and calibrates on them; it returns
// the model file's bytes.
func trainStructModel(parts [][]structSentence, trainingSHA string) []byte {
	var all []structSentence
	for _, p := range parts {
		all = append(all, p...)
	}
	m := trainStructOn(all)
	m.hdr.Threshold = structThresholds(parts)
	m.hdr.TrainingSHA256 = trainingSHA
	weights := make([]byte, 2*3*nStructFeatures)
	for c := range 3 {
		for i, q := range m.w[c] {
			binary.LittleEndian.PutUint16(weights[2*(c*nStructFeatures+i):], uint16(q))
		}
	}
	sum := sha256.Sum256(weights)
	m.hdr.WeightsSHA256 = hex.EncodeToString(sum[:])
	hj, err := json.Marshal(m.hdr)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	buf.WriteString(PurposeStructModelFormat + "\n")
	buf.Write(hj)
	buf.WriteByte('\n')
	buf.Write(weights)
	return buf.Bytes()
}

// structPartSentences reads each fold part's sentences once.
func structPartSentences(parts [][]trainCase) [][]structSentence {
	out := make([][]structSentence, len(parts))
	for i, p := range parts {
		out[i] = structSentences(p)
	}
	return out
}

// TestPurposeStructCurves prints, with ATTESTARI_PURPOSE_CURVES set, the
// pooled leave-one-hand-out precision of each class's proposals at a range
// of thresholds over the four parts: what the calibration chooses from.
func TestPurposeStructCurves(t *testing.T) {
	if os.Getenv("ATTESTARI_PURPOSE_CURVES") == "" {
		return
	}
	parts := structPartSentences(loadFoldParts(t))
	for i := range parts {
		var rest []structSentence
		for j := range parts {
			if j != i {
				rest = append(rest, parts[j]...)
			}
		}
		m := trainStructOn(rest)
		for c := range 3 {
			line := ""
			for _, thr := range []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95} {
				good, bad, clean := 0, 0, 0
				for _, s := range parts[i] {
					if s.rules[c] || !s.admit[c] || m.scores(s.vec)[c] < thr {
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
				line += " " + strings.TrimSpace(strings.Join([]string{ftoa(thr), ":", itoa(good), "/", itoa(good + bad), "(", itoa(clean), "c)"}, ""))
			}
			t.Logf("part %s %s:%s", purposeFoldParts[i].name, purposeModelCategories[c], line)
		}
	}
}

func ftoa(x float64) string { return strings.TrimRight(strings.TrimRight(fmtFloat(x), "0"), ".") }

func fmtFloat(x float64) string { return fmt.Sprintf("%.2f", x) }
func itoa(n int) string         { return fmt.Sprint(n) }
