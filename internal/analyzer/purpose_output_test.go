package analyzer

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// The purpose analyzer's complete output, pinned: a change that is meant
// to leave what offline-purpose-4 reads unchanged (its speed,
// purpose_speed.go) must leave every proposal, quote, rationale, order and
// routing count of it byte-identical. The pin is a SHA-256 of the JSON
// answers over every case of the development material and the retired
// parts' hand-written cases (purposeTrainFiles), each read as its own kind
// and as a second entry kind (purposeOutputOther), and over the FuzzPurpose seeds. A change
// of the reading (a new analyzer id) updates it with -update-purpose-output;
// -purpose-output-dump FILE writes the answers themselves, one a line, to
// compare two revisions.

var (
	purposeOutputUpdate = flag.Bool("update-purpose-output", false, "rewrite testdata/purpose/output.sha256 from the analyzer's current output")
	purposeOutputDump   = flag.String("purpose-output-dump", "", "write the analyzer's answers over the pinned inputs to this file, one a line")
)

const purposeOutputPin = "testdata/purpose/output.sha256"

// purposeOutputOther is the second kind every case is read as beside its
// own: the rules read the kind (a parameter's text is addressed to the
// model, a tool's is not), so each text is pinned under both.
func purposeOutputOther(kind string) string {
	if kind == vocab.EntryParameterDescription {
		return vocab.EntryTool
	}
	return vocab.EntryParameterDescription
}

// purposeOutputEntries are the pinned inputs, in a fixed order.
func purposeOutputEntries(t testing.TB) []Entry {
	t.Helper()
	var out []Entry
	for _, c := range loadTrainFiles(t, purposeTrainFiles) {
		name := c.ToolName
		if name == "" {
			name = c.ID
		}
		out = append(out, Entry{ID: c.ID, Kind: c.SurfaceKind, Name: name, File: "case.json", State: "readable", Segments: []string{c.Description}})
		k := purposeOutputOther(c.SurfaceKind)
		out = append(out, Entry{ID: c.ID + "/" + k, Kind: k, Name: name, File: "case.json", State: "readable", Segments: []string{c.Description}})
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzPurpose")
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var args []string
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(make([]byte, 0, 1<<16), 8<<20)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "string(") || !strings.HasSuffix(line, ")") {
				continue
			}
			s, err := strconv.Unquote(line[len("string(") : len(line)-1])
			if err != nil {
				t.Fatalf("%s: %v", n.Name(), err)
			}
			args = append(args, s)
		}
		if len(args) != 4 {
			t.Fatalf("%s: %d string arguments, want 4", n.Name(), len(args))
		}
		out = append(out, Entry{ID: "fuzz/" + n.Name(), Kind: args[0], Name: args[1], File: "f", State: "readable", Segments: []string{args[2], args[3]}})
	}
	return out
}

func TestPurposeOutputPinned(t *testing.T) {
	a := NewPurpose()
	if a.ID() != "offline:offline-purpose-14" {
		t.Fatalf("analyzer id %s: a new reading pins its own output (-update-purpose-output)", a.ID())
	}
	var dump *bufio.Writer
	if *purposeOutputDump != "" {
		f, err := os.Create(*purposeOutputDump)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dump = bufio.NewWriter(f)
		defer dump.Flush()
	}
	h := sha256.New()
	entries := purposeOutputEntries(t)
	proposals := 0
	for _, e := range entries {
		resp, err := a.Analyze(context.Background(), Request{Entries: []Entry{e}})
		if err != nil {
			t.Fatal(err)
		}
		proposals += len(resp.Proposals)
		b, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
		h.Write(b)
		if dump != nil {
			_, _ = dump.Write(b)
		}
	}
	got := hex.EncodeToString(h.Sum(nil))
	if proposals == 0 {
		t.Fatal("no proposal over the pinned inputs: the inputs were not read")
	}
	if *purposeOutputUpdate {
		if err := os.WriteFile(purposeOutputPin, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(purposeOutputPin)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(want)) != got {
		t.Fatalf("the purpose analyzer's output over %d inputs changed: sha256 %s, pinned %s (compare two revisions with -purpose-output-dump)", len(entries), got, strings.TrimSpace(string(want)))
	}
}
