package attest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"

	"github.com/attestari/attestari/api"
)

var b64 = base64.StdEncoding

// What Verify and the checks after it refuse, each its own kind so that a
// caller can tell them apart with errors.Is.
var (
	// ErrBadEnvelope: the bytes are not a DSSE envelope (JSON with
	// payloadType, payload and signatures), or its payload is not base64.
	ErrBadEnvelope = errors.New("attest: not a DSSE envelope")
	// ErrPayloadType: the envelope does not carry an in-toto statement.
	ErrPayloadType = errors.New("attest: the envelope's payloadType is not " + PayloadType)
	// ErrUnknownKey: no signature is by a key of the key set.
	ErrUnknownKey = errors.New("attest: no signature is by a key of the key set")
	// ErrSignature: a signature by a known key does not verify over the
	// pre-authentication encoding of payloadType and payload.
	ErrSignature = errors.New("attest: the signature does not verify")
	// ErrKeyNotValid: the key that signed was not valid at the publication
	// time the statement states.
	ErrKeyNotValid = errors.New("attest: the signing key was not valid at the publication time")
	// ErrArtifactDigest: a local artifact's digest is not the subject's.
	ErrArtifactDigest = errors.New("attest: the artifact's digest is not the attested one")
)

// MaxEnvelopeBytes bounds what Verify reads: far above any real statement
// (a manifest page is at most 256 KiB of text; an attestation carries the
// whole manifest), far below what could exhaust a gateway.
const MaxEnvelopeBytes = 64 << 20

// Sign signs the statement with key: a DSSE envelope (one signature, keyid
// the key's id) over the statement's bytes, encoded as compact JSON.
func Sign(ctx context.Context, key *PrivateKey, s *Statement) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	body, err := s.Marshal()
	if err != nil {
		return nil, err
	}
	es, err := dsse.NewEnvelopeSigner(dsseSigner{key})
	if err != nil {
		return nil, err
	}
	env, err := es.SignPayload(ctx, PayloadType, body)
	if err != nil {
		return nil, err
	}
	return json.Marshal(env)
}

// Verified is what Verify accepted: the statement and the key that signed it.
type Verified struct {
	Statement *Statement
	Key       PublicKey
	// Payload is the statement's bytes exactly as signed.
	Payload []byte
}

// Verify checks an envelope against the key set and returns its statement:
// the envelope is well formed and carries an in-toto statement; a signature
// is by a key of the set and verifies over DSSE's pre-authentication
// encoding (so a changed payloadType or payload does not verify); the
// statement is of this format; and the key was valid at the statement's
// publication time. The first failure is returned, wrapping one of the
// errors above.
func Verify(ctx context.Context, envelope []byte, keys *KeySet) (*Verified, error) {
	if len(envelope) > MaxEnvelopeBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrBadEnvelope, MaxEnvelopeBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(envelope))
	dec.DisallowUnknownFields()
	var env dsse.Envelope
	if err := dec.Decode(&env); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadEnvelope, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the envelope", ErrBadEnvelope)
	}
	if env.Payload == "" || len(env.Signatures) == 0 {
		return nil, fmt.Errorf("%w: no payload or no signature", ErrBadEnvelope)
	}
	payload, err := b64.DecodeString(env.Payload)
	if err != nil {
		return nil, fmt.Errorf("%w: the payload is not standard base64", ErrBadEnvelope)
	}
	if env.PayloadType != PayloadType {
		return nil, fmt.Errorf("%w (it is %q)", ErrPayloadType, env.PayloadType)
	}
	var signer *PublicKey
	for _, sig := range env.Signatures {
		if k := keys.find(sig.KeyID); k != nil {
			signer = k
			break
		}
	}
	if signer == nil {
		return nil, ErrUnknownKey
	}
	// The library computes the pre-authentication encoding and checks
	// every signature whose keyid is the key's.
	ev, err := dsse.NewEnvelopeVerifier(dsseVerifier{signer})
	if err != nil {
		return nil, err
	}
	if _, err := ev.Verify(ctx, &env); err != nil {
		return nil, fmt.Errorf("%w (key %s)", ErrSignature, signer.KeyID)
	}
	st, err := ParseStatement(payload)
	if err != nil {
		return nil, err
	}
	at := st.Predicate.Publication.PublishedAt
	if !signer.ValidAt(at) {
		return nil, fmt.Errorf("%w: key %s is valid from %s%s, the statement was published %s",
			ErrKeyNotValid, signer.KeyID, signer.NotBefore.Format("2006-01-02T15:04:05Z"), until(signer), at.UTC().Format("2006-01-02T15:04:05Z"))
	}
	return &Verified{Statement: st, Key: *signer, Payload: payload}, nil
}

func until(k *PublicKey) string {
	if k.NotAfter == nil {
		return ""
	}
	return " until " + k.NotAfter.UTC().Format("2006-01-02T15:04:05Z")
}

// ArtifactDigests returns the hex sha256 and sha512 of r's bytes.
func ArtifactDigests(r io.Reader) (sha256Hex, sha512Hex string, err error) {
	h256, h512 := sha256.New(), sha512.New()
	if _, err := io.Copy(io.MultiWriter(h256, h512), r); err != nil {
		return "", "", err
	}
	return hex.EncodeToString(h256.Sum(nil)), hex.EncodeToString(h512.Sum(nil)), nil
}

// CheckArtifact checks that r's bytes are the statement's subject: both
// digests equal.
func (s *Statement) CheckArtifact(r io.Reader) error {
	d256, d512, err := ArtifactDigests(r)
	if err != nil {
		return err
	}
	sub := s.Subject[0]
	if d256 != sub.Digest[DigestSHA256] {
		return fmt.Errorf("%w: sha256 is %s, attested %s", ErrArtifactDigest, d256, sub.Digest[DigestSHA256])
	}
	if d512 != sub.Digest[DigestSHA512] {
		return fmt.Errorf("%w: sha512 differs (sha256 equal)", ErrArtifactDigest)
	}
	return nil
}

// CheckTools compares a server's tools/list answer with the attested tools,
// as api.VerifyTools does with a manifest fetched from the service.
func (s *Statement) CheckTools(toolsList []byte) (*api.Report, error) {
	wire, err := api.ParseToolsList(toolsList)
	if err != nil {
		return nil, err
	}
	return api.VerifyTools(s.AsManifest(), wire), nil
}
