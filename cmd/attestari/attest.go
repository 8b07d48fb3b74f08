package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
)

// errVerifyFailed is what verify returns once it has said, line by line,
// which check failed: the exit status is 1 with nothing more to print.
var errVerifyFailed = errors.New("verification failed")

// parseRest parses the flags that follow the first positional argument, so
// that `attestari verify FILE --keys K` reads as a user would expect.
func parseRest(fs *flag.FlagSet) ([]string, error) {
	var pos []string
	args := fs.Args()
	for len(args) > 0 {
		pos = append(pos, args[0])
		if err := fs.Parse(args[1:]); err != nil {
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
	}
	return pos, nil
}

func keysCommand() *command {
	var out, key, notBefore string
	return &command{
		name:    "keys",
		args:    "generate | public",
		summary: "Make the Ed25519 key that signs attestations, or print a key's public entry for the key set.",
		detail: `
generate  writes a new signing key to --out (PKCS #8 PEM, mode 0600; an existing file
          is never overwritten) and prints its key-set entry on stdout.
public    prints the key-set entry of the key in --key (default $ATTESTARI_SIGNING_KEY).

The key set is the JSON document the API serves at /.well-known/attestari-keys.json
(ATTESTARI_ATTESTATION_KEYS names its file): {"keys": [entry, ...]}. Each entry has
a validity window [not_before, not_after): an attestation verifies against a key only
when its publication time lies in the window. To rotate, generate a new key, add its
entry, point ATTESTARI_SIGNING_KEY at it, and set the old entry's not_after to the
time of the switch; keep the old entry listed while attestations it signed are served.
See docs/attestations.md.`,
		example: "attestari keys generate --out /etc/attestari/signing.pem > new-entry.json\nattestari keys public --key /etc/attestari/signing.pem --not-before 2026-12-01T00:00:00Z",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&out, "out", "", "generate: the file to write the new private key to")
			fs.StringVar(&key, "key", "", "public: the private key file (default $ATTESTARI_SIGNING_KEY)")
			fs.StringVar(&notBefore, "not-before", "", "the start of the key's validity window, RFC 3339 (default now)")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			pos, err := parseRest(fs)
			if err != nil {
				return err
			}
			if len(pos) != 1 || (pos[0] != "generate" && pos[0] != "public") {
				return usageError{"expected one action: generate or public"}
			}
			from := time.Now().UTC().Truncate(time.Second)
			if notBefore != "" {
				if from, err = time.Parse(time.RFC3339, notBefore); err != nil {
					return usageError{"--not-before is not an RFC 3339 time (for example 2026-12-01T00:00:00Z)"}
				}
			}
			var k *attest.PrivateKey
			switch pos[0] {
			case "generate":
				if out == "" {
					return usageError{"generate needs --out FILE, where the private key is written"}
				}
				if k, err = attest.GenerateKey(nil); err != nil {
					return err
				}
				f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
				if err != nil {
					if errors.Is(err, os.ErrExist) {
						return fmt.Errorf("%s exists; a signing key is never overwritten (choose another --out, or remove it yourself)", out)
					}
					return err
				}
				if _, err := f.Write(k.MarshalPEM()); err != nil {
					f.Close()
					os.Remove(out)
					return err
				}
				if err := f.Close(); err != nil {
					os.Remove(out)
					return err
				}
				fmt.Fprintf(e.stderr, "wrote the private key %s to %s (keep it secret; the entry below is public)\n", k.ID(), out)
			case "public":
				if key == "" {
					key = e.getenv("ATTESTARI_SIGNING_KEY")
				}
				if key == "" {
					return usageError{"public needs --key FILE or ATTESTARI_SIGNING_KEY"}
				}
				if k, err = loadSigningKey(key); err != nil {
					return err
				}
			}
			return writeJSONTo(e.stdout, attest.NewPublicKey(k.Public(), from))
		},
	}
}

// loadSigningKey reads a signing key file, saying which file was wrong.
func loadSigningKey(path string) (*attest.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	k, err := attest.ParsePrivateKeyPEM(b)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	return k, nil
}

func verifyCommand() *command {
	var keys, artifact, toolsList string
	return &command{
		name:    "verify",
		args:    "ATTESTATION",
		summary: "Verify a signed attestation offline: signature, key window, artifact digest, and a server's tools/list.",
		detail: `
ATTESTATION is a DSSE envelope as GET /attestations/{name}/{version} serves it (a file,
or - for stdin). Checks, in order, each on its own line:

  signature   the envelope carries an in-toto statement of this format, signed by a key
              of the key set (--keys), over DSSE's pre-authentication encoding;
  key window  the key was valid at the statement's publication time;
  artifact    with --artifact FILE: the file's sha256 and sha512 are the subject's;
  tools       with --tools-list FILE: a server's tools/list answer (the result object or
              the whole JSON-RPC response) against the attested tool hashes, tool by tool.

It then prints the verdict the attestation carries: a grade, or the reasons a version
was refused. A refused version's attestation verifies too: it pins what was examined,
it does not endorse it. Exit status: 0 when every check run passed, 1 when one failed,
2 on a usage mistake.`,
		example: "attestari verify att.json --keys attestari-keys.json --artifact server-1.2.3.tgz --tools-list tools.json",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&keys, "keys", "", "the key set file (the API's /.well-known/attestari-keys.json); required")
			fs.StringVar(&artifact, "artifact", "", "a local copy of the examined artifact, to check its digests")
			fs.StringVar(&toolsList, "tools-list", "", "a server's tools/list answer, to check each tool against the attested hashes")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			pos, err := parseRest(fs)
			if err != nil {
				return err
			}
			if len(pos) != 1 {
				return usageError{"expected one ATTESTATION file (or - for stdin)"}
			}
			if keys == "" {
				return usageError{"--keys is required: the key set the attestation must be signed by"}
			}
			return runVerify(ctx, e, pos[0], keys, artifact, toolsList)
		},
	}
}

func readArg(path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(io.LimitReader(os.Stdin, attest.MaxEnvelopeBytes+1))
	}
	return os.ReadFile(path)
}

func runVerify(ctx context.Context, e *env, envPath, keysPath, artifactPath, toolsPath string) error {
	envBytes, err := readArg(envPath)
	if err != nil {
		return err
	}
	kb, err := os.ReadFile(keysPath)
	if err != nil {
		return err
	}
	ks, err := attest.ParseKeySet(kb)
	if err != nil {
		return fmt.Errorf("%s: %w", keysPath, err)
	}
	failed := false
	line := func(ok bool, check, msg string) {
		mark := "ok  "
		if !ok {
			mark = "FAIL"
			failed = true
		}
		fmt.Fprintf(e.stdout, "%s %-10s %s\n", mark, check, msg)
	}
	v, err := attest.Verify(ctx, envBytes, ks)
	if err != nil {
		check := "signature"
		if errors.Is(err, attest.ErrKeyNotValid) {
			check = "key window"
		}
		line(false, check, err.Error())
		return errVerifyFailed
	}
	st := v.Statement
	p := st.Predicate
	line(true, "signature", fmt.Sprintf("signed by key %s; %s %s@%s", v.Key.KeyID, p.Package.Registry, p.Package.Name, p.Package.Version))
	line(true, "key window", "valid at the publication time "+p.Publication.PublishedAt.UTC().Format(time.RFC3339))
	if artifactPath != "" {
		f, err := os.Open(artifactPath)
		if err != nil {
			return err
		}
		err = st.CheckArtifact(f)
		f.Close()
		if err != nil {
			line(false, "artifact", err.Error())
		} else {
			line(true, "artifact", "sha256 and sha512 of "+artifactPath+" are the subject's")
		}
	}
	if toolsPath != "" {
		tb, err := os.ReadFile(toolsPath)
		if err != nil {
			return err
		}
		r, err := st.CheckTools(tb)
		if err != nil {
			line(false, "tools", err.Error())
		} else {
			bad := r.Differs()
			for _, t := range r.Tools {
				ok := t.Outcome == api.ToolHashMatches || t.Outcome == api.ToolTextMatches
				msg := t.Name + ": " + t.Outcome
				if t.Detail != "" {
					msg += " (" + t.Detail + ")"
				}
				line(ok, "tools", msg)
			}
			if len(bad) == 0 {
				line(true, "tools", fmt.Sprintf("every one of %d tools verified", len(r.Tools)))
			}
		}
	}
	fmt.Fprintln(e.stdout, verdictLine(st))
	if failed {
		return errVerifyFailed
	}
	return nil
}

// verdictLine says what the attestation concludes, beside what was verified.
func verdictLine(st *attest.Statement) string {
	p := st.Predicate
	labels := ""
	if p.Publication.Demo {
		labels = " [demo publication]"
	} else if p.Publication.DisclosurePeriodOverridden {
		labels = " [disclosure period overridden]"
	}
	switch p.Verdict {
	case api.VerdictGraded:
		return fmt.Sprintf("verdict: graded %s under methodology %s%s", *p.Grade, p.Methodology.Version, labels)
	default:
		codes := make([]string, len(p.Reasons))
		for i, r := range p.Reasons {
			codes[i] = r.Code
		}
		return fmt.Sprintf("verdict: %s (%s) under methodology %s; the manifest pins what was examined and is not an endorsement%s",
			p.Verdict, strings.Join(codes, ", "), p.Methodology.Version, labels)
	}
}

// Demo signing: `make run` publishes the demo with a key of its own, kept in
// $ATTESTARI_HOME beside the key set the API serves for it, so the demo's
// attestations verify. It is never used for a publication that is not the
// demo's.
const (
	demoSigningKeyFile = "demo-signing-key.pem"
	demoKeySetFile     = "demo-attestation-keys.json"
)

// signingKeyFor returns the key a publication is signed with: the operator's
// (ATTESTARI_SIGNING_KEY), or for the demo its own key, made on first use.
// Nil (and a note on stderr) when a real publication has no key configured.
func signingKeyFor(e *env, demo bool) (*attest.PrivateKey, error) {
	if path := e.getenv("ATTESTARI_SIGNING_KEY"); path != "" {
		return loadSigningKey(path)
	}
	if !demo {
		fmt.Fprintln(e.stderr, "attestari publish: ATTESTARI_SIGNING_KEY is not set: the publication carries no signed attestations (attestari keys generate makes a key)")
		return nil, nil
	}
	home := absHome(e)
	keyPath := filepath.Join(home, demoSigningKeyFile)
	if b, err := os.ReadFile(keyPath); err == nil {
		return attest.ParsePrivateKeyPEM(b)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	k, err := attest.GenerateKey(nil)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(keyPath, k.MarshalPEM(), 0o600); err != nil {
		return nil, err
	}
	// The demo's clock is injected, so its key is valid from long before any
	// date the demo can be published at.
	ks, err := (&attest.KeySet{Keys: []attest.PublicKey{attest.NewPublicKey(k.Public(), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))}}).Marshal()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(home, demoKeySetFile), ks, 0o644); err != nil {
		return nil, err
	}
	return k, nil
}
