package demo

import (
	"bytes"
	"context"
	"testing"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/pipeline"
)

const root = "../../testdata/demo"

func TestDemoSetLoadsAndPacksDeterministically(t *testing.T) {
	pkgs, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("demo set too small: %d", len(pkgs))
	}
	a, err := Tarball(root + "/packages/weather")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Tarball(root + "/packages/weather")
	if !bytes.Equal(a, b) {
		t.Fatal("packing the same directory twice gave different bytes")
	}
	art, err := artifact.Read(context.Background(), a, artifact.FormatNpmTarball, artifact.Limits{})
	if err != nil || art.Outcome != "ok" {
		t.Fatalf("demo tarball unreadable: %v %+v", err, art)
	}
	if _, ok := art.Bytes("dist/index.js"); !ok {
		t.Fatal("package/ prefix not stripped as npm does")
	}
}

func TestDemoCandidatesParse(t *testing.T) {
	_, pkgs, err := Registry(root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Candidates(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.ParseCandidates(b)
	if err != nil {
		t.Fatalf("the demo candidates file does not parse: %v\n%s", err, b)
	}
	if len(c.Candidates) != len(pkgs) {
		t.Fatalf("candidates %d, packages %d", len(c.Candidates), len(pkgs))
	}
}
