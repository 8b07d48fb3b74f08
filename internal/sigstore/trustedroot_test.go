package sigstore

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refreshFrom regenerates the shipped trusted root from an upstream
// trusted_root.json (docs/provenance.md says where to find one):
//
//	go test ./internal/sigstore -run TestShippedTrustedRoot -args -refresh-trusted-root=PATH
var refreshFrom = flag.String("refresh-trusted-root", "", "upstream trusted_root.json to sanitize into testdata/sigstore/trusted_root.json")

func shippedRootPath() string { return filepath.Join("..", "..", DefaultTrustedRootPath) }

func TestShippedTrustedRoot(t *testing.T) {
	path := shippedRootPath()
	if *refreshFrom != "" {
		raw, err := os.ReadFile(*refreshFrom)
		if err != nil {
			t.Fatal(err)
		}
		out, err := SanitizeTrustedRoot(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := SanitizeTrustedRoot(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, b) {
		t.Fatal("the shipped trusted root is not in sanitized form; regenerate it with -refresh-trusted-root")
	}
	if _, err := NewVerifier(b, Options{}); err != nil {
		t.Fatalf("the shipped trusted root does not load: %v", err)
	}
	var doc struct {
		CAs   []json.RawMessage `json:"certificateAuthorities"`
		Tlogs []json.RawMessage `json:"tlogs"`
		CT    []json.RawMessage `json:"ctlogs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.CAs) == 0 || len(doc.Tlogs) == 0 || len(doc.CT) == 0 {
		t.Fatalf("trusted root lacks authorities, logs or CT logs: %v", err)
	}
}

func TestSanitizeEmptiesAddressesKeepsKeys(t *testing.T) {
	in := []byte(`{"tlogs":[{"baseUrl":"https://log.example","publicKey":{"rawBytes":"QUJD"}}],
	"certificateAuthorities":[{"subject":{"organization":"ca.example","commonName":"Some CA"},"uri":"https://ca.example","certChain":{"certificates":[{"rawBytes":"REVG"}]}}]}`)
	out, err := SanitizeTrustedRoot(in)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "example") || !strings.Contains(s, "QUJD") || !strings.Contains(s, "REVG") || !strings.Contains(s, "Some CA") {
		t.Fatalf("sanitized = %s", s)
	}
}
