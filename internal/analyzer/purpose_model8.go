package analyzer

import (
	"strconv"
	"unicode/utf8"
)

// The ninth reading's model features (offline-purpose-8, part mdl,
// docs/model-check.md, "The purpose analyzer's ninth reading"): the second
// stage reads, beside (or instead of) the sentence's words, the concepts
// the rules already know how to ask about — the structural readings of the
// fifth reading (structFeatures: who is addressed, mood, trigger, data
// class and whether the purpose needs it, destination, user-choice noun,
// replacement, concealment verb, telling verb, the multilingual lexicon's
// concepts, the entry's kind and what the rest of the entry does) — each
// alone and every pair of them, hashed into the same space as the words.
// A pair is a partial frame: a data class beside a destination with no
// mark of excess, a concealment verb beside a telling verb, a choice noun
// beside a replacement. Which groups the shipped model reads is
// purposeFeatureSet; which set was shipped was chosen on the
// leave-one-part-out folds over dev, test and test2
// (purpose_mdl_folds_test.go), never on test3.

// modelFeatureSet names the groups of features modelFeaturesWith emits.
type modelFeatureSet struct {
	words, bigrams, chars bool // the sentence's words, word bigrams, character 3- and 4-grams
	rules                 bool // the rules' readings (the first model's flags)
	concepts, pairs       bool // the structural concepts, and every pair of them
	ovr11                 bool // the twelfth reading's partial override frames and their pairs (purpose_ovr11.go; a candidate, not shipped)
}

// purposeFeatureSet is the feature set of the shipped model
// (purposeFeaturesVersion names it).
var purposeFeatureSet = modelFeatureSet{words: true, bigrams: true, chars: true, rules: true, concepts: true, pairs: true}

// maxConceptPairs bounds the pairs one sentence emits (the concepts are a
// fixed, small set, so this never cuts in practice; it keeps the work per
// sentence bounded whatever the text).
const maxConceptPairs = 4096

// modelFeaturesWith appends the hashed features of one sentence under fs.
// Linear in the sentence (bounded by maxModelSentenceBytes), plus a
// bounded number of concept pairs.
func modelFeaturesWith(buf []uint32, sr sentenceReading, ctx sentenceContext, fs modelFeatureSet) []uint32 {
	if fs.words || fs.bigrams || fs.chars {
		buf = wordFeaturesWith(buf, capText(sr.folded), fs)
		if sr.plain != "" && sr.plain != sr.folded {
			buf = wordFeaturesWith(buf, capText(sr.plain), fs)
		}
	}
	buf = append(buf, featureHash("k:", ctx.kind))
	if fs.rules {
		flag := func(on bool, name string) {
			if on {
				buf = append(buf, featureHash("r:", name))
			}
		}
		flag(sr.exfil, "exfil")
		flag(sr.override, "override")
		flag(sr.conceal, "conceal")
		flag(sr.concealIfDeviant, "conceal-if-deviant")
		flag(sr.first, "first")
		flag(ctx.deviant, "deviant")
		flag(sr.addressed, "addressed")
		flag(sr.dataNamed, "data")
		flag(sr.sinkNamed, "sink")
		flag(sr.negated, "negated")
		flag(sr.trigger, "trigger")
		flag(sr.userNamed, "user")
	}
	if fs.concepts || fs.pairs {
		base := structFeatures(nil, sr, ctx.orig, ctx.p, ctx, ctx.taking)
		if fs.concepts {
			for _, i := range base {
				buf = append(buf, featureHash("c:", strconv.Itoa(i)))
			}
		}
		if fs.pairs {
			n := 0
			for a := 0; a < len(base) && n < maxConceptPairs; a++ {
				for b := a + 1; b < len(base) && n < maxConceptPairs; b++ {
					buf = append(buf, conceptPairHash(base[a], base[b]))
					n++
				}
			}
		}
	}
	if fs.ovr11 {
		buf = ovr11Features(buf, sr.folded, ctx.p)
	}
	return buf
}

func conceptPairHash(a, b int) uint32 {
	h := uint32(fnvOffset32)
	for _, x := range [...]uint32{'p', uint32(a), uint32(b)} {
		for k := 0; k < 4; k++ {
			h ^= x >> (8 * k) & 0xff
			h *= fnvPrime32
		}
	}
	return h & featureMask
}

// wordFeaturesWith hashes the word groups fs chooses of s (the hashes of
// wordAndCharFeatures, which is all three, in the same order): the words
// (runs of letters, digits and apostrophes) and the first word, their
// bigrams, and the character 3- and 4-grams of the words joined by single
// spaces, padded with a space.
func wordFeaturesWith(buf []uint32, s string, fs modelFeatureSet) []uint32 {
	prevStart, prevEnd := -1, -1
	first := true
	var ring [4]rune
	nring := 0
	pushRune := func(r rune) {
		if !fs.chars {
			return
		}
		ring[0], ring[1], ring[2], ring[3] = ring[1], ring[2], ring[3], r
		nring++
		if nring >= 3 {
			buf = append(buf, runeGramHash('3', ring[1:4]))
		}
		if nring >= 4 {
			buf = append(buf, runeGramHash('4', ring[0:4]))
		}
	}
	pushRune(' ')
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !modelWordRune(r) {
			i += n
			continue
		}
		j := i
		for j < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[j:])
			if !modelWordRune(r2) {
				break
			}
			pushRune(r2)
			j += n2
		}
		pushRune(' ')
		w := s[i:j]
		if fs.words {
			buf = append(buf, featureHash("w:", w))
			if first {
				buf = append(buf, featureHash("f:", w))
			}
		}
		first = false
		if fs.bigrams && prevStart >= 0 {
			buf = append(buf, featureHash2("b:", s[prevStart:prevEnd], w))
		}
		prevStart, prevEnd = i, j
		i = j
	}
	return buf
}
