package evidence

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
)

func testKey(analyzer string) ProposalKey {
	return ProposalKey{
		Analyzer:       analyzer,
		PromptSHA256:   Sum([]byte("prompt")),
		EvidenceSHA256: Sum([]byte("evidence")),
	}
}

func TestProposalRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	key := testKey("offline-1")
	if _, err := s.GetProposal(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetProposal before put: %v, want ErrNotFound", err)
	}
	proposal := []byte(`{"spans":[]}`)
	sha, err := s.PutProposal(ctx, key, proposal)
	if err != nil {
		t.Fatal(err)
	}
	if sha != Sum(proposal) {
		t.Fatalf("PutProposal = %s, want blob hash %s", sha, Sum(proposal))
	}
	got, err := s.GetProposal(ctx, key)
	if err != nil || !bytes.Equal(got, proposal) {
		t.Fatalf("GetProposal = %q, %v", got, err)
	}
	// The proposal is an ordinary blob too, citable by hash.
	if b, err := s.Get(ctx, sha); err != nil || !bytes.Equal(b, proposal) {
		t.Fatalf("Get(proposal blob) = %q, %v", b, err)
	}
	// Each key field separates cache entries.
	for _, other := range []ProposalKey{
		testKey("offline-2"),
		{Analyzer: key.Analyzer, PromptSHA256: Sum([]byte("other prompt")), EvidenceSHA256: key.EvidenceSHA256},
		{Analyzer: key.Analyzer, PromptSHA256: key.PromptSHA256, EvidenceSHA256: Sum([]byte("other"))},
	} {
		if _, err := s.GetProposal(ctx, other); !errors.Is(err, ErrNotFound) {
			t.Errorf("GetProposal(%+v) = %v, want ErrNotFound", other, err)
		}
	}
	assertNoTempFiles(t, s)
}

func TestProposalFirstWriterWins(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	key := testKey("model-x")
	first := []byte("first answer")
	if _, err := s.PutProposal(ctx, key, first); err != nil {
		t.Fatal(err)
	}
	sha, err := s.PutProposal(ctx, key, []byte("second answer"))
	if err != nil {
		t.Fatal(err)
	}
	if sha != Sum(first) {
		t.Fatalf("second PutProposal returned %s, want the stored %s", sha, Sum(first))
	}
	got, err := s.GetProposal(ctx, key)
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("GetProposal = %q, %v; want the first answer", got, err)
	}
}

func TestProposalConcurrentPut(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	key := testKey("model-y")
	var wg sync.WaitGroup
	results := make([]string, 16)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sha, err := s.PutProposal(ctx, key, []byte{'a' + byte(i)})
			if err != nil {
				t.Error(err)
			}
			results[i] = sha
		}()
	}
	wg.Wait()
	got, err := s.GetProposal(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	// Whoever won, the cache holds one whole answer, and every writer was
	// told which one (the winner's) or wrote it after a verified miss.
	if len(got) != 1 || got[0] < 'a' || got[0] >= 'a'+16 {
		t.Fatalf("cached proposal = %q", got)
	}
	seenWinner := false
	for _, r := range results {
		if r == Sum(got) {
			seenWinner = true
		}
	}
	if !seenWinner {
		t.Fatal("no writer was told the stored proposal's hash")
	}
	assertNoTempFiles(t, s)
}

func TestProposalCorruptRecord(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	key := testKey("model-z")
	if _, err := s.PutProposal(ctx, key, []byte("answer")); err != nil {
		t.Fatal(err)
	}
	p := s.proposalPath(key)

	cases := map[string]string{
		"unparseable":     "{not json",
		"trailing":        `{"analyzer":"model-z"} trailing`,
		"other key":       `{"analyzer":"someone-else","prompt_sha256":"` + key.PromptSHA256 + `","evidence_sha256":"` + key.EvidenceSHA256 + `","proposal_sha256":"` + Sum([]byte("answer")) + `"}`,
		"bad blob hash":   `{"analyzer":"model-z","prompt_sha256":"` + key.PromptSHA256 + `","evidence_sha256":"` + key.EvidenceSHA256 + `","proposal_sha256":"../../etc/passwd"}`,
		"unknown field":   `{"analyzer":"model-z","extra":1}`,
		"empty":           ``,
		"wrong case hash": `{"analyzer":"model-z","prompt_sha256":"` + strings.ToUpper(key.PromptSHA256) + `","evidence_sha256":"` + key.EvidenceSHA256 + `","proposal_sha256":"` + Sum([]byte("answer")) + `"}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			corrupt(t, p, []byte(content))
			_, err := s.GetProposal(ctx, key)
			var ce *CorruptBlobError
			if !errors.As(err, &ce) {
				t.Fatalf("GetProposal = %v, want *CorruptBlobError", err)
			}
			if ce.Path != p || ce.Want != key.ID() {
				t.Fatalf("CorruptBlobError = %+v", ce)
			}
			if name == "other key" && ce.Got == "" {
				t.Fatal("a parseable record with another key must report that key's hash")
			}
		})
	}

	// A corrupt record is replaced by the next PutProposal.
	if _, err := s.PutProposal(ctx, key, []byte("fresh answer")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetProposal(ctx, key); err != nil || string(got) != "fresh answer" {
		t.Fatalf("after repair: %q, %v", got, err)
	}
}

func TestProposalCorruptBlob(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	key := testKey("model-w")
	sha, err := s.PutProposal(ctx, key, []byte("answer"))
	if err != nil {
		t.Fatal(err)
	}
	bp, _ := s.Path(sha)
	corrupt(t, bp, []byte("changed"))
	_, err = s.GetProposal(ctx, key)
	var ce *CorruptBlobError
	if !errors.As(err, &ce) || ce.Path != bp || ce.Want != sha {
		t.Fatalf("GetProposal with corrupt blob = %v", err)
	}
	// A later put notices the record points at a bad blob and replaces it.
	if _, err := s.PutProposal(ctx, key, []byte("new answer")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetProposal(ctx, key); err != nil || string(got) != "new answer" {
		t.Fatalf("after repair: %q, %v", got, err)
	}
	if err := os.Remove(bp); err != nil {
		t.Fatal(err)
	}
}

func TestProposalKeyValidation(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	good := testKey("a")
	for name, k := range map[string]ProposalKey{
		"empty analyzer":   {PromptSHA256: good.PromptSHA256, EvidenceSHA256: good.EvidenceSHA256},
		"control char":     {Analyzer: "a\x00b", PromptSHA256: good.PromptSHA256, EvidenceSHA256: good.EvidenceSHA256},
		"non-utf8":         {Analyzer: "a\xff", PromptSHA256: good.PromptSHA256, EvidenceSHA256: good.EvidenceSHA256},
		"bad prompt hash":  {Analyzer: "a", PromptSHA256: "abc", EvidenceSHA256: good.EvidenceSHA256},
		"bad evidence sha": {Analyzer: "a", PromptSHA256: good.PromptSHA256, EvidenceSHA256: "../x"},
	} {
		if _, err := s.PutProposal(ctx, k, []byte("x")); err == nil {
			t.Errorf("%s: PutProposal accepted %+v", name, k)
		}
		if _, err := s.GetProposal(ctx, k); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("%s: GetProposal = %v, want a validation error", name, err)
		}
	}
	for _, k := range []ProposalKey{{Analyzer: "bad", PromptSHA256: "x", EvidenceSHA256: "y"}} {
		if _, err := s.GetProposal(ctx, k); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("GetProposal(%+v) = %v, want ErrMalformedHash", k, err)
		}
	}
}

func TestProposalKeyIDIsUnambiguous(t *testing.T) {
	// Moving bytes between fields must change the ID.
	a := ProposalKey{Analyzer: "ab", PromptSHA256: Sum([]byte("1")), EvidenceSHA256: Sum([]byte("2"))}
	b := ProposalKey{Analyzer: "a", PromptSHA256: Sum([]byte("1")), EvidenceSHA256: Sum([]byte("2"))}
	c := ProposalKey{Analyzer: "ab", PromptSHA256: Sum([]byte("2")), EvidenceSHA256: Sum([]byte("1"))}
	if a.ID() == b.ID() || a.ID() == c.ID() {
		t.Fatal("distinct keys share an ID")
	}
	if err := ValidateHash(a.ID()); err != nil {
		t.Fatalf("ID is not a hash: %v", err)
	}
}
