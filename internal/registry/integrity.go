package registry

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// Artifact is a downloaded tarball or distribution file. Response.Body holds
// the verified bytes; it is nil when the artifact was refused.
type Artifact struct {
	Response Response
	// Algorithm is the digest the bytes were verified against (sha512,
	// sha384, sha256 or sha1), empty when refused for want of one.
	Algorithm string
}

// sriAlgorithms lists the SRI algorithms accepted as strong, strongest first.
var sriAlgorithms = []struct {
	name string
	new  func() hash.Hash
}{
	{"sha512", sha512.New},
	{"sha384", sha512.New384},
	{"sha256", sha256.New},
}

// verifyNPM checks body against an npm version's published digests: the
// strongest SHA-2 entry of the SRI integrity string must match; only when no
// integrity string is published at all is the hex sha1 shasum used (and the
// result says so). An integrity string that is present but has no usable
// SHA-2 entry (only sha1, or garbage) is checked against its sha1 entry if it
// has one, otherwise refused: a digest we cannot read verifies nothing.
func verifyNPM(url string, body []byte, integrity, shasum string) (alg string, err *IntegrityError) {
	integrity = strings.TrimSpace(integrity)
	if integrity != "" {
		entries := parseSRI(integrity)
		for _, a := range sriAlgorithms {
			want, ok := entries[a.name]
			if !ok {
				continue
			}
			h := a.new()
			h.Write(body)
			got := base64.StdEncoding.EncodeToString(h.Sum(nil))
			for _, w := range want {
				if constantEq(w, got) {
					return a.name, nil
				}
			}
			return "", &IntegrityError{URL: url, Algorithm: a.name, Expected: strings.Join(want, " "), Actual: got,
				Reason: "published integrity does not match the bytes received"}
		}
		if want, ok := entries["sha1"]; ok {
			s := sha1.Sum(body)
			got := base64.StdEncoding.EncodeToString(s[:])
			for _, w := range want {
				if constantEq(w, got) {
					return "sha1", nil
				}
			}
			return "", &IntegrityError{URL: url, Algorithm: "sha1", Expected: strings.Join(want, " "), Actual: got,
				Reason: "published integrity does not match the bytes received"}
		}
		return "", &IntegrityError{URL: url, Expected: integrity, Reason: "published integrity names no supported digest"}
	}
	shasum = strings.ToLower(strings.TrimSpace(shasum))
	if shasum != "" {
		s := sha1.Sum(body)
		got := hex.EncodeToString(s[:])
		if constantEq(shasum, got) {
			return "sha1", nil
		}
		return "", &IntegrityError{URL: url, Algorithm: "sha1", Expected: shasum, Actual: got,
			Reason: "published shasum does not match the bytes received"}
	}
	return "", &IntegrityError{URL: url, Reason: "no integrity or shasum published"}
}

// verifySHA256 checks body against a published hex SHA-256 (PyPI digests).
func verifySHA256(url string, body []byte, want string) (string, *IntegrityError) {
	want = strings.ToLower(strings.TrimSpace(want))
	if want == "" {
		return "", &IntegrityError{URL: url, Reason: "no sha256 digest published"}
	}
	got := vocab.SHA256Hex(body)
	if !constantEq(want, got) {
		return "", &IntegrityError{URL: url, Algorithm: "sha256", Expected: want, Actual: got,
			Reason: "published sha256 does not match the bytes received"}
	}
	return "sha256", nil
}

// parseSRI splits an SRI string ("sha512-AAA... sha1-BBB...?opt") into
// algorithm → base64 digests. Unknown algorithms and options are ignored, as
// the SRI specification requires.
func parseSRI(s string) map[string][]string {
	out := map[string][]string{}
	for _, tok := range strings.Fields(s) {
		alg, rest, ok := strings.Cut(tok, "-")
		if !ok || rest == "" {
			continue
		}
		if i := strings.IndexByte(rest, '?'); i >= 0 {
			rest = rest[:i]
		}
		alg = strings.ToLower(alg)
		switch alg {
		case "sha512", "sha384", "sha256", "sha1":
			if _, err := base64.StdEncoding.DecodeString(rest); err != nil {
				continue
			}
			out[alg] = append(out[alg], rest)
		}
	}
	return out
}

func constantEq(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// SRI returns the sha512 SRI string npm publishes for b; fakes and tests use it.
func SRI(b []byte) string {
	s := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(s[:])
}
