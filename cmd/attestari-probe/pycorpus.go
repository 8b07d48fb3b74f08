package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/corpus"
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
)

// pyPack is `attestari-probe py-pack`, behind scripts/corpus-python-pack.sh:
// it packs every server of testdata/corpus-python/servers.json from a
// directory of bare git mirrors into sdist-shaped archives under
// $ATTESTARI_HOME/corpus-python and checks each against the pinned SHA-256.
// -update writes the packed digests into the list instead (when a server is
// added or re-pinned).
func pyPack(ctx context.Context, args []string) error {
	home := dataHome()
	fs := flag.NewFlagSet("py-pack", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus-python/servers.json", "Python corpus list")
	mirrors := fs.String("mirrors", "", "directory of bare git mirrors, one <owner>+<name>/repo (or <owner>+<name>.git) per repository")
	dir := fs.String("dir", filepath.Join(home, "corpus-python"), "directory to write the archives into")
	update := fs.Bool("update", false, "record the packed SHA-256 in the list instead of checking it")
	_ = fs.Parse(args)
	if *mirrors == "" {
		return errors.New("py-pack: -mirrors is required")
	}
	l, err := corpus.LoadPyList(*list)
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range corpus.PackAll(ctx, l, *mirrors, *dir, *update) {
		if r.Err != nil {
			failed++
			log.Printf("py-pack: %s: %v", r.Key, r.Err)
			continue
		}
		log.Printf("py-pack: %s %s %s", r.Key, r.SHA256, r.Path)
	}
	if *update {
		if err := corpus.WriteJSON(*list, l); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("py-pack: %d of %d servers not packed", failed, len(l.Servers))
	}
	return nil
}

// pyEval is `attestari-probe py-eval`, the Python half of `make
// corpus-eval`: it reads every packed archive of the Python corpus through
// the archive reader and the extractor exactly as a run reads an sdist,
// compares the rows with the reviewed truth and writes the report.
func pyEval(ctx context.Context, args []string) error {
	home := dataHome()
	fs := flag.NewFlagSet("py-eval", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus-python/servers.json", "Python corpus list")
	truth := fs.String("truth", "testdata/corpus-python/truth", "truth directory")
	dir := fs.String("dir", filepath.Join(home, "corpus-python"), "directory of packed archives (scripts/corpus-python-pack.sh)")
	out := fs.String("out", "", "Markdown report to write (stdout when empty)")
	rows := fs.String("rows", "", "directory to write each surface row into as JSON, for reading misses")
	command := fs.String("command", "make corpus-eval", "the command named in the report")
	_ = fs.Parse(args)
	l, err := corpus.LoadPyList(*list)
	if err != nil {
		return err
	}
	truths, err := corpus.LoadPyTruths(*truth)
	if err != nil {
		return err
	}
	inList := map[string]bool{}
	for _, s := range l.Servers {
		inList[s.Key()] = true
	}
	kept := truths[:0]
	for _, t := range truths {
		if inList[t.Key()] {
			kept = append(kept, t)
		}
	}
	truths = kept
	surfaces, missing, err := corpus.PyExtractAll(ctx, l, *dir, pyExtract)
	if err != nil {
		return err
	}
	if *rows != "" {
		for k, s := range surfaces {
			if err := corpus.WriteJSON(filepath.Join(*rows, k+".json"), s); err != nil {
				return err
			}
		}
	}
	r := corpus.EvaluatePython(truths, surfaces)
	md := r.Markdown(corpus.PyEvalHeader{Command: *command, Date: time.Now(), ExtractorVersion: surface.ExtractorVersion,
		Listed: len(l.Servers), Extracted: len(surfaces), Missing: missing}, truths, surfaces)
	if *out == "" {
		fmt.Print(md)
	} else if err := os.WriteFile(*out, []byte(md), 0o644); err != nil {
		return err
	}
	t := r.Names["tool"]
	summary, _ := json.Marshal(map[string]any{
		"servers": r.Servers, "outcome_right": r.OutcomeRight, "outcome_share": r.OutcomeShare(), "both_parsed": r.BothParsed,
		"tool_recall": t.Recall(), "tool_precision": t.Precision(), "description_equal": r.DescriptionEqualShare(),
		"tool_off_by_default": r.OffByDefault["tool"], "params": r.Params,
	})
	log.Printf("py-eval: %s", summary)
	return nil
}

// pyExtract reads one packed sdist the way the pipeline reads a PyPI source
// distribution, in a child process: an extraction that dies (a stack
// overflow no recover() can catch) becomes a row with outcome
// ExtractorDied and the runtime's first words as its detail, instead of
// ending the evaluation.
func pyExtract(ctx context.Context, s corpus.PyServer, data []byte) rundir.Surface {
	pkg := rundir.PackageRef{Registry: corpus.PyRegistry, Name: s.Name, Version: s.Version}
	self, err := os.Executable()
	if err != nil {
		return rundir.Surface{Package: pkg, Outcome: corpus.ExtractorDied, OutcomeDetail: "cannot start a child: " + err.Error()}
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, self, "py-extract-one", "-name", s.Name, "-version", s.Version)
	cmd.Stdin = bytes.NewReader(data)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return rundir.Surface{Package: pkg, Outcome: corpus.ExtractorDied, OutcomeDetail: err.Error() + ": " + firstLines(stderr.String(), 2)}
	}
	var row rundir.Surface
	if err := json.Unmarshal(out.Bytes(), &row); err != nil {
		return rundir.Surface{Package: pkg, Outcome: corpus.ExtractorDied, OutcomeDetail: "unreadable row: " + err.Error()}
	}
	return row
}

// pyExtractOne is `attestari-probe py-extract-one`, the child pyExtract
// starts: the archive on stdin, the surface row as JSON on stdout.
func pyExtractOne(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("py-extract-one", flag.ExitOnError)
	name := fs.String("name", "", "package name")
	version := fs.String("version", "", "package version")
	_ = fs.Parse(args)
	data, err := io.ReadAll(io.LimitReader(os.Stdin, 512<<20))
	if err != nil {
		return err
	}
	pkg := rundir.PackageRef{Registry: corpus.PyRegistry, Name: *name, Version: *version}
	// One extraction in this process: its CPU clock is the package's.
	row := extractor.FromArchive(ctx, pkg, data, artifact.FormatSdistTar, extractor.InProcessOptions())
	return json.NewEncoder(os.Stdout).Encode(row)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}
