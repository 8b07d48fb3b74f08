// Package evstore opens the evidence store ATTESTARI_EVIDENCE_URL names:
// the directory backend of package evidence (file:///abs/path; by default
// $ATTESTARI_HOME/evidence, as before the variable existed) or the
// S3-compatible backend of package evidence/s3store
// (s3://bucket/prefix?endpoint=host:port&region=..&secure=false, signed with
// ATTESTARI_S3_ACCESS_KEY and ATTESTARI_S3_SECRET_KEY).
//
// It is the one constructor every command goes through, so `attestari run`,
// `decide`, `publish`, `check` and `cycle` work against either backend. It
// reads configuration only: it never logs a credential, and no error it
// returns carries one.
package evstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evidence/s3store"
)

// The environment variables the store is configured by.
const (
	EnvURL       = "ATTESTARI_EVIDENCE_URL"
	EnvAccessKey = "ATTESTARI_S3_ACCESS_KEY"
	EnvSecretKey = "ATTESTARI_S3_SECRET_KEY"
)

// URL schemes.
const (
	SchemeFile = "file"
	SchemeS3   = "s3"
)

// ErrBadURL is returned (wrapped) for an ATTESTARI_EVIDENCE_URL that does
// not parse as one of the two forms; the message says what to set.
var ErrBadURL = errors.New("evidence store URL")

// Config is what Open reads. Zero URL means the directory Home/evidence.
type Config struct {
	// URL is ATTESTARI_EVIDENCE_URL.
	URL string
	// Home is $ATTESTARI_HOME, whose evidence/ is the default store.
	Home string
	// AccessKey and SecretKey sign requests to an s3:// store.
	AccessKey, SecretKey string
}

// FromEnv reads the store's configuration from getenv (os.Getenv in a
// command) for the data home home.
func FromEnv(getenv func(string) string, home string) Config {
	return Config{
		URL:       strings.TrimSpace(getenv(EnvURL)),
		Home:      home,
		AccessKey: getenv(EnvAccessKey),
		SecretKey: getenv(EnvSecretKey),
	}
}

// IsFile reports whether c names the directory backend (the default).
func (c Config) IsFile() bool {
	return c.URL == "" || strings.HasPrefix(strings.ToLower(c.URL), SchemeFile+":")
}

// Open opens the store c names. An s3:// store is reached once (its bucket
// must exist); a file:// store is created if needed.
func Open(ctx context.Context, c Config) (evidence.Backend, error) {
	if c.URL == "" {
		if c.Home == "" {
			return nil, fmt.Errorf("%w: neither %s nor a data home is set", ErrBadURL, EnvURL)
		}
		return evidence.Open(filepath.Join(c.Home, "evidence"))
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		// url's error quotes the whole URL; say only what is wrong.
		return nil, fmt.Errorf("%w: %s does not parse as a URL (file:///abs/path or s3://bucket/prefix?endpoint=host:port)", ErrBadURL, EnvURL)
	}
	switch strings.ToLower(u.Scheme) {
	case SchemeFile:
		root, err := fileRoot(u)
		if err != nil {
			return nil, err
		}
		return evidence.Open(root)
	case SchemeS3:
		cfg, err := s3Config(u, c)
		if err != nil {
			return nil, err
		}
		return s3store.Open(ctx, cfg)
	default:
		return nil, fmt.Errorf("%w: %s has scheme %q; use file:///abs/path or s3://bucket/prefix?endpoint=host:port", ErrBadURL, EnvURL, u.Scheme)
	}
}

// fileRoot is the absolute directory of a file:///abs/path URL.
func fileRoot(u *url.URL) (string, error) {
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("%w: %s file URL names host %q; use file:///abs/path", ErrBadURL, EnvURL, u.Host)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" {
		return "", fmt.Errorf("%w: %s file URL takes no query, fragment, user or opaque part; use file:///abs/path", ErrBadURL, EnvURL)
	}
	p := u.Path
	if p == "" || !filepath.IsAbs(p) {
		return "", fmt.Errorf("%w: %s file URL must name an absolute directory (file:///abs/path)", ErrBadURL, EnvURL)
	}
	return filepath.Clean(p), nil
}

// s3Query are the query parameters an s3:// URL may carry.
var s3Query = map[string]bool{"endpoint": true, "region": true, "secure": true}

// s3Config reads s3://bucket/prefix?endpoint=host:port&region=..&secure=..
func s3Config(u *url.URL, c Config) (s3store.Config, error) {
	if u.User != nil {
		return s3store.Config{}, fmt.Errorf("%w: %s must not carry credentials; set %s and %s", ErrBadURL, EnvURL, EnvAccessKey, EnvSecretKey)
	}
	if u.Host == "" {
		return s3store.Config{}, fmt.Errorf("%w: %s names no bucket (s3://bucket/prefix?endpoint=host:port)", ErrBadURL, EnvURL)
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return s3store.Config{}, fmt.Errorf("%w: %s query does not parse", ErrBadURL, EnvURL)
	}
	for k, v := range q {
		if !s3Query[k] {
			return s3store.Config{}, fmt.Errorf("%w: %s has unknown parameter %q (endpoint, region, secure)", ErrBadURL, EnvURL, k)
		}
		if len(v) != 1 {
			return s3store.Config{}, fmt.Errorf("%w: %s gives %q %d times", ErrBadURL, EnvURL, k, len(v))
		}
	}
	cfg := s3store.Config{
		Bucket:   u.Host,
		Prefix:   strings.Trim(u.Path, "/"),
		Endpoint: q.Get("endpoint"),
		Region:   q.Get("region"),
		Secure:   true,
	}
	if cfg.Endpoint == "" {
		return s3store.Config{}, fmt.Errorf("%w: %s names no endpoint: add ?endpoint=host:port (the S3 API of the object store)", ErrBadURL, EnvURL)
	}
	if s := q.Get("secure"); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return s3store.Config{}, fmt.Errorf("%w: %s secure=%q: want true or false", ErrBadURL, EnvURL, s)
		}
		cfg.Secure = b
	}
	var missing []string
	if c.AccessKey == "" {
		missing = append(missing, EnvAccessKey)
	}
	if c.SecretKey == "" {
		missing = append(missing, EnvSecretKey)
	}
	if len(missing) > 0 {
		return s3store.Config{}, fmt.Errorf("%w: evidence store %s needs credentials: set %s", s3store.ErrNoCredentials,
			"s3://"+cfg.Bucket+"/"+cfg.Prefix, strings.Join(missing, " and "))
	}
	cfg.AccessKey, cfg.SecretKey = c.AccessKey, c.SecretKey
	return cfg, nil
}
