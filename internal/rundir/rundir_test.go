package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := PackageRef{Registry: "npm", Name: "@scope/srv", Version: "1.0.0"}
	if err := WriteJSON(dir, GradeableFile, []Gradeable{{Package: p, OK: false, Reasons: []string{"not_analyzed"}}}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Gradeable) != 1 || f.Gradeable[0].Package.Key() != "npm:@scope/srv@1.0.0" || f.Gradeable[0].Reasons[0] != "not_analyzed" {
		t.Fatalf("round trip lost data: %+v", f.Gradeable)
	}
	if len(f.Missing) != 7 {
		t.Fatalf("want 7 missing files, got %v", f.Missing)
	}
	if len(f.Inputs) != 1 || f.Inputs[0].Path != GradeableFile || len(f.Inputs[0].SHA256) != 64 {
		t.Fatalf("inputs not recorded: %+v", f.Inputs)
	}
}

func TestReadMalformedNamesFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FindingsFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(dir)
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != FindingsFile {
		t.Fatalf("want FileError naming %s, got %v", FindingsFile, err)
	}
}

func TestUnknownFieldRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, GradeableFile), []byte(`[{"package":{},"ok":true,"reasons":[],"extra":1}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	var g []Gradeable
	if _, err := ReadJSON(dir, GradeableFile, &g); err == nil {
		t.Fatal("a row with an unknown field must not be read silently")
	}
}

func TestMarshalIsStable(t *testing.T) {
	a, _ := Marshal(map[string]any{"b": "<x>", "a": 1})
	b, _ := Marshal(map[string]any{"a": 1, "b": "<x>"})
	if string(a) != string(b) || string(a) != "{\n  \"a\": 1,\n  \"b\": \"<x>\"\n}\n" {
		t.Fatalf("unstable or escaped encoding: %q", a)
	}
}

func TestSurfaceAddPutsEachKindInItsList(t *testing.T) {
	var s Surface
	kinds := []string{"tool", "prompt", "prompt_text", "resource", "resource_template", "instructions", "parameter_description"}
	for _, k := range kinds {
		if !s.Add(k, Entry{Kind: k, Name: k}) {
			t.Fatalf("kind %q refused", k)
		}
	}
	if s.Add("widget", Entry{Name: "w"}) {
		t.Fatal("an unknown kind was accepted")
	}
	all := s.AllEntries()
	if len(all) != len(kinds) {
		t.Fatalf("%d entries, want %d", len(all), len(kinds))
	}
	for i, e := range all {
		if e.Kind != kinds[i] {
			t.Fatalf("entry %d is %q, want %q (AllEntries' order is the kinds' order)", i, e.Kind, kinds[i])
		}
	}
	if len(s.Tools) != 1 || len(s.ParameterDescriptions) != 1 || s.PromptTexts[0].Name != "prompt_text" {
		t.Fatalf("%+v", s)
	}
}
