package neighbour

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/corpus"
	"github.com/attestari/attestari/internal/eval"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
	"github.com/attestari/attestari/internal/vocab"
)

// The measurement is opt-in: it reads the fetched corpus tarballs, which are
// not in the repository (scripts/corpus-fetch.sh fetches them into
// $ATTESTARI_HOME/corpus). Run from the repository root:
//
//	ATTESTARI_NEIGHBOUR=1 ATTESTARI_HOME=/path/to/var \
//	  go test -count=1 ./internal/neighbour
//
// With ATTESTARI_NEIGHBOUR=1 the test binary runs the measurement instead of
// the tests, prints the Markdown figures (and writes them to
// ATTESTARI_NEIGHBOUR_OUT when set) and exits non-zero if an input is
// missing; without it, only the tests run.
func TestMain(m *testing.M) {
	if os.Getenv("ATTESTARI_NEIGHBOUR") != "1" {
		os.Exit(m.Run())
	}
	if err := measure(); err != nil {
		fmt.Fprintln(os.Stderr, "neighbour:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func measure() error {
	root := filepath.Join("..", "..")
	home := os.Getenv("ATTESTARI_HOME")
	if home == "" {
		home = filepath.Join(root, "var")
	}
	var b strings.Builder
	if err := measureCorpus(&b, filepath.Join(root, "testdata/corpus/packages.json"), filepath.Join(root, "testdata/corpus/truth"), filepath.Join(home, "corpus")); err != nil {
		return err
	}
	cases, err := eval.LoadCases(filepath.Join(root, "testdata/eval/cases.jsonl"))
	if err != nil {
		return err
	}
	f := scoreCases(cases)
	if f.dev == 0 {
		return fmt.Errorf("no development case in testdata/eval/cases.jsonl")
	}
	f.markdown(&b)
	if out := os.Getenv("ATTESTARI_NEIGHBOUR_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	fmt.Print(b.String())
	return nil
}

// toolCounts compares one reader's tools with a package's runtime list.
type toolCounts struct {
	truth, found, matched, descEqual, descRead int
}

func (c *toolCounts) add(o toolCounts) {
	c.truth += o.truth
	c.found += o.found
	c.matched += o.matched
	c.descEqual += o.descEqual
	c.descRead += o.descRead
}

func compare(truth []corpus.ToolTruth, found map[string]struct {
	desc string
	has  bool
}) toolCounts {
	c := toolCounts{truth: len(truth), found: len(found)}
	for _, tt := range truth {
		f, ok := found[tt.Name]
		if !ok {
			continue
		}
		c.matched++
		if f.has {
			c.descRead++
			if f.desc == tt.Description {
				c.descEqual++
			}
		}
	}
	return c
}

type pkgRow struct {
	key        string
	nb, at     toolCounts
	nbNames    toolCounts // the neighbour before it read .tool(/.registerTool( descriptions
	outcome    string
	nbUnenum   int
	nbReadFile int
}

func pct(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(a)/float64(b), a, b)
}

func measureCorpus(b *strings.Builder, listPath, truthDir, dir string) error {
	ctx := context.Background()
	l, err := corpus.LoadList(listPath)
	if err != nil {
		return err
	}
	truths, err := corpus.LoadTruths(truthDir)
	if err != nil {
		return err
	}
	byKey := map[string]corpus.Package{}
	for _, p := range l.Packages {
		byKey[p.Key()] = p
	}
	var rows []pkgRow
	surfaces := map[string]rundir.Surface{}
	for _, tr := range truths {
		if !tr.Started || tr.Lists["tools/list"].Status != corpus.ListOK {
			continue
		}
		p, ok := byKey[tr.Key()]
		if !ok {
			continue
		}
		data, err := os.ReadFile(corpus.TarballPath(dir, p))
		if err != nil {
			return fmt.Errorf("%s: %w (scripts/corpus-fetch.sh fetches the tarballs)", p.Key(), err)
		}
		if vocab.SHA256Hex(data) != p.TarballSHA256 {
			return fmt.Errorf("%s: tarball does not match the pinned SHA-256", p.Key())
		}
		row := pkgRow{key: p.Key()}
		// The neighbour's side: its documented reader over the unpacked package.
		nbFound := map[string]struct {
			desc string
			has  bool
		}{}
		nbStaticOnly := map[string]struct {
			desc string
			has  bool
		}{}
		if a, err := pipeline.ReadArtifact(ctx, data, artifact.FormatNpmTarball, artifact.Limits{}); err == nil && a.Outcome == artifact.OutcomeOK {
			r := shipgateRead(a.FS)
			row.nbUnenum, row.nbReadFile = r.Unenumerated, r.FilesRead
			for _, tl := range r.Tools {
				nbFound[tl.Name] = struct {
					desc string
					has  bool
				}{tl.Description, tl.HasDesc}
				nbStaticOnly[tl.Name] = struct {
					desc string
					has  bool
				}{tl.Description, tl.HasDesc && tl.Idiom == idiomStaticName}
			}
		}
		row.nb = compare(tr.Tools, nbFound)
		row.nbNames = compare(tr.Tools, nbStaticOnly)
		// Attestari's side: the extractor exactly as corpus-eval and the pass
		// run it. Only a parsed surface is graded: a refused package's tools
		// count as not found, because nothing of it is published as read.
		s := extractor.FromArchive(ctx, rundir.PackageRef{Registry: corpus.Registry, Name: p.Name, Version: p.Version}, data, artifact.FormatNpmTarball, surface.Options{})
		surfaces[p.Key()] = s
		row.outcome = s.Outcome
		atFound := map[string]struct {
			desc string
			has  bool
		}{}
		if s.Outcome == vocab.OutcomeParsed {
			for _, e := range s.Tools {
				if e.NameState != "" && e.NameState != vocab.StateReadable {
					continue
				}
				if _, dup := atFound[e.Name]; dup {
					continue
				}
				atFound[e.Name] = struct {
					desc string
					has  bool
				}{e.DescriptionRaw, e.DescriptionState == vocab.StateReadable}
			}
		}
		row.at = compare(tr.Tools, atFound)
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return fmt.Errorf("no started package with a fetched tarball")
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
	var nb, at, nbNames toolCounts
	nbAll, atAll, nbAny, atAny, withTools, parsed := 0, 0, 0, 0, 0, 0
	nbAllDesc, atAllDesc := 0, 0
	for _, r := range rows {
		nb.add(r.nb)
		at.add(r.at)
		nbNames.add(r.nbNames)
		if r.outcome == vocab.OutcomeParsed {
			parsed++
		}
		if r.nb.truth == 0 {
			continue
		}
		withTools++
		if r.nb.matched == r.nb.truth {
			nbAll++
		}
		if r.at.matched == r.at.truth {
			atAll++
		}
		if r.nb.descEqual == r.nb.truth {
			nbAllDesc++
		}
		if r.at.descEqual == r.at.truth {
			atAllDesc++
		}
		if r.nb.matched > 0 {
			nbAny++
		}
		if r.at.matched > 0 {
			atAny++
		}
	}
	rep := corpus.Evaluate(truths, surfaces)
	tc := rep.Names["tool"]
	fmt.Fprintf(b, "## Tools over the npm corpus\n\n")
	fmt.Fprintf(b, "Servers that started and listed their tools: %d (%d with at least one tool; Attestari's extractor parsed %d).\n\n", len(rows), withTools, parsed)
	fmt.Fprintf(b, "| figure | neighbour (documented reader) | Attestari (`%s`, graded surfaces only) |\n| --- | ---: | ---: |\n", surface.ExtractorVersion)
	fmt.Fprintf(b, "| runtime tools found (name recall) | %s | %s |\n", pct(nb.matched, nb.truth), pct(at.matched, at.truth))
	fmt.Fprintf(b, "| names found that the server lists (precision) | %s | %s |\n", pct(nb.matched, nb.found), pct(at.matched, at.found))
	fmt.Fprintf(b, "| runtime tools whose description was read byte-equal | %s | %s |\n", pct(nb.descEqual, nb.truth), pct(at.descEqual, at.truth))
	fmt.Fprintf(b, "| descriptions read that are byte-equal | %s | %s |\n", pct(nb.descEqual, nb.descRead), pct(at.descEqual, at.descRead))
	fmt.Fprintf(b, "| packages with at least one tool found | %s | %s |\n", pct(nbAny, withTools), pct(atAny, withTools))
	fmt.Fprintf(b, "| packages with every tool found | %s | %s |\n", pct(nbAll, withTools), pct(atAll, withTools))
	fmt.Fprintf(b, "| packages with every tool found and every description byte-equal | %s | %s |\n\n", pct(nbAllDesc, withTools), pct(atAllDesc, withTools))
	fmt.Fprintf(b, "The neighbour before it read a description beside a `.tool(`/`.registerTool(` name (only a `static toolName` class's sibling field): runtime tools with a byte-equal description %s.\n\n", pct(nbNames.descEqual, nbNames.truth))
	fmt.Fprintf(b, "Attestari on parsed packages only, as `attestari-probe corpus-eval` reports it (same rows): name recall %s, precision %s, readable descriptions byte-equal %s.\n\n",
		pct(tc.Matched, tc.Truth), pct(tc.Matched, tc.Found), pct(rep.EqualDescriptions, rep.ReadableDescriptions))
	unenum, nbFiles := 0, 0
	for _, r := range rows {
		unenum += r.nbUnenum
		nbFiles += r.nbReadFile
	}
	fmt.Fprintf(b, "The neighbour's reader opened %d source files across these packages and matched %d registration sites it could not name.\n\n", nbFiles, unenum)
	fmt.Fprintf(b, "<details><summary>Per package</summary>\n\n| package | runtime tools | neighbour found / matched / desc equal | Attestari outcome | Attestari matched / desc equal |\n| --- | ---: | ---: | --- | ---: |\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %d | %d / %d / %d | %s | %d / %d |\n", r.key, r.nb.truth, r.nb.found, r.nb.matched, r.nb.descEqual, r.outcome, r.at.matched, r.at.descEqual)
	}
	fmt.Fprintf(b, "\n</details>\n\n")
	return nil
}

// caseFigures scores the four patterns on labelled cases.
type caseFigures struct {
	dev, poisoned, detected, clean, cleanFlagged int
	flags, correctAny, correctStrict, fpClean    int
	toolClean, toolCleanFlagged                  int
	expected, found                              map[string]int // by category
}

// scoreCases applies shipgateFlags to each development case: a pattern's
// first match is the neighbour's finding; it finds an expected span it
// overlaps, whatever the span's category (correctStrict counts only
// override_user spans, the one category the check names). Cases of another
// split are not read.
func scoreCases(cases []eval.Case) caseFigures {
	f := caseFigures{expected: map[string]int{}, found: map[string]int{}}
	for _, c := range cases {
		if c.Split != "dev" {
			continue
		}
		f.dev++
		fl := shipgateFlags(c.Description)
		type rng struct{ a, b int }
		spans := make([]rng, len(c.ExpectedSpans))
		for i, sp := range c.ExpectedSpans {
			k := strings.Index(c.Description, sp.Text)
			spans[i] = rng{k, k + len(sp.Text)}
		}
		found := make([]bool, len(spans))
		for _, g := range fl {
			f.flags++
			anyHit, strictHit := false, false
			for i, sp := range spans {
				if g.Start < sp.b && sp.a < g.End {
					anyHit = true
					found[i] = true
					if c.ExpectedSpans[i].Category == analyzer.CategoryOverride {
						strictHit = true
					}
				}
			}
			if anyHit {
				f.correctAny++
			}
			if strictHit {
				f.correctStrict++
			}
			if !anyHit && c.Kind == eval.KindClean {
				f.fpClean++
			}
		}
		if c.Kind == eval.KindPoisoned {
			f.poisoned++
			hit := false
			for i, sp := range c.ExpectedSpans {
				f.expected[sp.Category]++
				if found[i] {
					f.found[sp.Category]++
					hit = true
				}
			}
			if hit {
				f.detected++
			}
			continue
		}
		f.clean++
		if len(fl) > 0 {
			f.cleanFlagged++
		}
		if c.SurfaceKind == "tool" {
			f.toolClean++
			if len(fl) > 0 {
				f.toolCleanFlagged++
			}
		}
	}
	return f
}

func (f caseFigures) fpPer500() float64 {
	if f.clean == 0 {
		return 0
	}
	return float64(f.fpClean) * 500 / float64(f.clean)
}

func (f caseFigures) markdown(b *strings.Builder) {
	var exp, fnd int
	for _, c := range analyzer.Categories {
		exp += f.expected[c]
		fnd += f.found[c]
	}
	fmt.Fprintf(b, "## Poisoning on the labelled cases (development part)\n\n")
	fmt.Fprintf(b, "%d development cases of testdata/eval/cases.jsonl: %d poisoned, %d clean.\n\n", f.dev, f.poisoned, f.clean)
	fmt.Fprintf(b, "| figure | neighbour (four patterns) |\n| --- | ---: |\n")
	fmt.Fprintf(b, "| span recall | %s |\n", pct(fnd, exp))
	for _, c := range analyzer.Categories {
		fmt.Fprintf(b, "| span recall, %s | %s |\n", c, pct(f.found[c], f.expected[c]))
	}
	fmt.Fprintf(b, "| poisoned cases with a span found | %s |\n", pct(f.detected, f.poisoned))
	fmt.Fprintf(b, "| precision (matches overlapping an expected span) | %s |\n", pct(f.correctAny, f.flags))
	fmt.Fprintf(b, "| precision, matches overlapping an override_user span | %s |\n", pct(f.correctStrict, f.flags))
	fmt.Fprintf(b, "| false positives per 500 clean | %.2f (%d on %d clean) |\n", f.fpPer500(), f.fpClean, f.clean)
	fmt.Fprintf(b, "| clean cases flagged | %s |\n", pct(f.cleanFlagged, f.clean))
	fmt.Fprintf(b, "| clean tool descriptions flagged | %s |\n\n", pct(f.toolCleanFlagged, f.toolClean))
}
