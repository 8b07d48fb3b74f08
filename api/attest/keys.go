package attest

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"time"
)

// AlgorithmEd25519 is the only signature algorithm of this format.
const AlgorithmEd25519 = "ed25519"

// ErrBadKey classifies every key file or key set this package refuses.
var ErrBadKey = errors.New("attest: not a key of this format")

// KeyID is the identifier of a public key in envelopes and key sets: the hex
// SHA-256 of its PKIX (SubjectPublicKeyInfo) DER encoding.
func KeyID(pub ed25519.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		// An ed25519.PublicKey of the right length always marshals.
		panic(err)
	}
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}

// PrivateKey is a signing key with its key id.
type PrivateKey struct {
	key ed25519.PrivateKey
	id  string
}

// GenerateKey makes a new Ed25519 signing key from rand (crypto/rand when nil).
func GenerateKey(r io.Reader) (*PrivateKey, error) {
	if r == nil {
		r = rand.Reader
	}
	pub, priv, err := ed25519.GenerateKey(r)
	if err != nil {
		return nil, err
	}
	return &PrivateKey{key: priv, id: KeyID(pub)}, nil
}

// NewPrivateKey wraps an Ed25519 private key.
func NewPrivateKey(k ed25519.PrivateKey) (*PrivateKey, error) {
	if len(k) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("%w: an Ed25519 private key is %d bytes", ErrBadKey, ed25519.PrivateKeySize)
	}
	return &PrivateKey{key: k, id: KeyID(k.Public().(ed25519.PublicKey))}, nil
}

// ID returns the key id.
func (k *PrivateKey) ID() string { return k.id }

// Public returns the public half.
func (k *PrivateKey) Public() ed25519.PublicKey { return k.key.Public().(ed25519.PublicKey) }

// MarshalPEM returns the key as a PKCS #8 "PRIVATE KEY" PEM block, the form
// `openssl genpkey -algorithm ed25519` writes and ParsePrivateKeyPEM reads.
func (k *PrivateKey) MarshalPEM() []byte {
	der, err := x509.MarshalPKCS8PrivateKey(k.key)
	if err != nil {
		panic(err) // an ed25519.PrivateKey of the right length always marshals
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// ParsePrivateKeyPEM reads a PKCS #8 PEM Ed25519 private key.
func ParsePrivateKeyPEM(b []byte) (*PrivateKey, error) {
	blk, rest := pem.Decode(b)
	if blk == nil {
		return nil, fmt.Errorf("%w: no PEM block (expected a PKCS #8 \"PRIVATE KEY\"; `attestari keys generate` writes one)", ErrBadKey)
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, fmt.Errorf("%w: more than one PEM block", ErrBadKey)
	}
	if blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%w: the PEM block is %q, not \"PRIVATE KEY\" (PKCS #8)", ErrBadKey, blk.Type)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: the key is a %T, not Ed25519", ErrBadKey, k)
	}
	return NewPrivateKey(ek)
}

// dsseSigner is the key as go-securesystemslib's dsse.Signer: it signs the
// pre-authentication encoding the envelope signer hands it.
type dsseSigner struct{ k *PrivateKey }

func (s dsseSigner) Sign(_ context.Context, data []byte) ([]byte, error) {
	return ed25519.Sign(s.k.key, data), nil
}

func (s dsseSigner) KeyID() (string, error) { return s.k.id, nil }

// PublicKey is one entry of a key set: a verification key with the window in
// which signatures by it are accepted. A statement verifies against the key
// only when its publication time lies in [NotBefore, NotAfter); a nil
// NotAfter is a key still in use.
type PublicKey struct {
	KeyID     string     `json:"keyid"`
	Algorithm string     `json:"algorithm"`
	PublicKey string     `json:"public_key"` // the PKIX DER, base64 (standard, padded)
	NotBefore time.Time  `json:"not_before"`
	NotAfter  *time.Time `json:"not_after"`

	key ed25519.PublicKey
}

// NewPublicKey makes a key-set entry valid from notBefore.
func NewPublicKey(pub ed25519.PublicKey, notBefore time.Time) PublicKey {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	return PublicKey{KeyID: KeyID(pub), Algorithm: AlgorithmEd25519, PublicKey: b64.EncodeToString(der), NotBefore: notBefore.UTC(), key: pub}
}

// ValidAt reports whether t lies in the key's window.
func (p *PublicKey) ValidAt(t time.Time) bool {
	return !t.Before(p.NotBefore) && (p.NotAfter == nil || t.Before(*p.NotAfter))
}

// KeySet is the document of public keys the service serves
// (GET /.well-known/attestari-keys.json): every key that signed an
// attestation still served, with its window. Rotation adds a key and closes
// the window of the old one; the old key stays listed while attestations it
// signed are served.
type KeySet struct {
	Keys []PublicKey `json:"keys"`
}

// ParseKeySet reads and checks a key set: each key's id must be its key's,
// the algorithm Ed25519, the window not empty, and no id listed twice.
func ParseKeySet(b []byte) (*KeySet, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var ks KeySet
	if err := dec.Decode(&ks); err != nil {
		return nil, fmt.Errorf("%w: key set: %v", ErrBadKey, err)
	}
	if len(ks.Keys) == 0 {
		return nil, fmt.Errorf("%w: the key set lists no key", ErrBadKey)
	}
	seen := map[string]bool{}
	for i := range ks.Keys {
		k := &ks.Keys[i]
		if k.Algorithm != AlgorithmEd25519 {
			return nil, fmt.Errorf("%w: key %d: algorithm %q, not %q", ErrBadKey, i, k.Algorithm, AlgorithmEd25519)
		}
		der, err := b64.DecodeString(k.PublicKey)
		if err != nil {
			return nil, fmt.Errorf("%w: key %d: public_key is not base64", ErrBadKey, i)
		}
		pk, err := x509.ParsePKIXPublicKey(der)
		if err != nil {
			return nil, fmt.Errorf("%w: key %d: %v", ErrBadKey, i, err)
		}
		ek, ok := pk.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("%w: key %d is not Ed25519", ErrBadKey, i)
		}
		if KeyID(ek) != k.KeyID {
			return nil, fmt.Errorf("%w: key %d: keyid is not the SHA-256 of its key", ErrBadKey, i)
		}
		if seen[k.KeyID] {
			return nil, fmt.Errorf("%w: key %s is listed twice", ErrBadKey, k.KeyID)
		}
		seen[k.KeyID] = true
		if k.NotBefore.IsZero() || (k.NotAfter != nil && !k.NotAfter.After(k.NotBefore)) {
			return nil, fmt.Errorf("%w: key %s: the window [not_before, not_after) is empty", ErrBadKey, k.KeyID)
		}
		k.key = ek
	}
	return &ks, nil
}

// Marshal returns the key set's bytes.
func (ks *KeySet) Marshal() ([]byte, error) { return json.MarshalIndent(ks, "", "  ") }

// find returns the key with id.
func (ks *KeySet) find(id string) *PublicKey {
	for i := range ks.Keys {
		if ks.Keys[i].KeyID == id {
			return &ks.Keys[i]
		}
	}
	return nil
}

// dsseVerifier is one key as a dsse.Verifier.
type dsseVerifier struct{ k *PublicKey }

func (v dsseVerifier) Verify(_ context.Context, data, sig []byte) error {
	if !ed25519.Verify(v.k.key, data, sig) {
		return errSignature
	}
	return nil
}

func (v dsseVerifier) KeyID() (string, error)   { return v.k.KeyID, nil }
func (v dsseVerifier) Public() crypto.PublicKey { return v.k.key }

var errSignature = errors.New("ed25519: signature does not verify")
