package publish

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// makePartial turns a package's first tool into a partial description with
// one substitution at offset.
func makePartial(tp *testPkg, offset int, source string) {
	e := &tp.tools[0]
	e.DescriptionState = vocab.StatePartial
	e.Holes = []rundir.Hole{{RawOffset: offset, File: srcPath, Start: 0, End: len(source), Line: e.Line, Source: source}}
}

// A refusal is published with what failed and where: the partial
// description's text and the place of each hole. When the package's rows
// carry personal data, the text and the holes' sources are withheld like a
// tool's text, and the place stays.
func TestPublishedBlockingCarriesDetail(t *testing.T) {
	r := newTestRun(t)
	plain, personal := ref("plain-server"), ref("personal-server")
	makePartial(r.addServer(plain, "", map[string]string{"search": "Searches the  index."}, []string{"search"}), len("Searches the "), "${indexName}")
	makePartial(r.addServer(personal, "", map[string]string{"support": "Opens a ticket in . Call +1 415 555 0132 for urgent cases."}, []string{"support"}), len("Opens a ticket in "), "${queue}")
	r.decideAndNotice()
	p := r.publish(day31).Publication

	partialOf := func(pkg Package) policy.Blocking {
		t.Helper()
		for _, b := range pkg.Blocking {
			if b.Code == vocab.CodePartialDescription {
				return b
			}
		}
		t.Fatalf("%s: no partial_description in %+v", pkg.Package.Key(), pkg.Blocking)
		return policy.Blocking{}
	}

	b := partialOf(pubPackage(t, p, plain))
	if b.File != srcPath || b.Line != 3 || len(b.Partial) != 1 {
		t.Fatalf("plain: %+v", b)
	}
	if e := b.Partial[0]; e.Text != "Searches the  index." || e.TextWithheld != "" || len(e.Holes) != 1 || e.Holes[0].Offset != len("Searches the ") || e.Holes[0].Source != "${indexName}" {
		t.Errorf("plain partial entry: %+v", e)
	}

	pp := pubPackage(t, p, personal)
	b = partialOf(pp)
	if b.File != srcPath || len(b.Partial) != 1 {
		t.Fatalf("personal: %+v", b)
	}
	if e := b.Partial[0]; e.Text != "" || e.TextWithheld != WithheldPersonalData || len(e.Holes) != 1 || e.Holes[0].Source != "" || e.Holes[0].Line != 3 || e.Name != "support" {
		t.Errorf("personal partial entry: %+v", e)
	}
	doc, err := json.Marshal(pp)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), "555 0132") || strings.Contains(string(doc), "${queue}") {
		t.Errorf("the personal package's published row still carries its text: %s", doc)
	}
	if last := pp.Blocking[len(pp.Blocking)-1]; last.Code != vocab.CodeEvidenceUnpublishable {
		t.Errorf("personal: last reason %+v", last)
	}
}
