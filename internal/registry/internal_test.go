package registry

import (
	"reflect"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"":                               0,
		"0":                              0,
		"-5":                             0,
		" 12 ":                           12 * time.Second,
		"Sun, 01 Mar 2026 12:00:30 GMT":  30 * time.Second,
		"Sunday, 01-Mar-26 12:01:00 GMT": time.Minute,     // RFC 850
		"Sun Mar  1 12:00:05 2026":       5 * time.Second, // asctime
		"Sun, 01 Mar 2026 11:00:00 GMT":  0,
		"tomorrow":                       0,
		"99999999999999999999":           0, // not an int64: unparseable, so back off instead
	}
	for in, want := range cases {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
	if got := parseRetryAfter("9223372036854775807", now); got <= 0 {
		t.Errorf("huge seconds overflowed to %v", got)
	}
}

func TestBackoffJitterOutOfRangeIsZero(t *testing.T) {
	for _, j := range []float64{-1, 1, 2} {
		f := newFetcher(Options{Jitter: func() float64 { return j }})
		if got := f.backoff(3); got != 0 {
			t.Errorf("jitter %v: %v", j, got)
		}
	}
	f := newFetcher(Options{Jitter: func() float64 { return 0.999 }, BaseBackoff: time.Second, MaxBackoff: 4 * time.Second})
	if got := f.backoff(1000); got <= 0 || got > 4*time.Second {
		t.Errorf("large n: %v", got)
	}
}

func TestParseSRI(t *testing.T) {
	got := parseSRI("sha512-AAAA sha1-BBBB?opt md5-CCCC sha256-!!!! SHA384-DDDD junk")
	want := map[string][]string{"sha512": {"AAAA"}, "sha1": {"BBBB"}, "sha384": {"DDDD"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseSRI = %v", got)
	}
}

func TestVerifyNPMStrongestWins(t *testing.T) {
	body := []byte("x")
	good := SRI(body)
	// A correct sha512 beside a wrong sha1: sha512 decides.
	if alg, err := verifyNPM("u", body, good+" sha1-AAAA", ""); err != nil || alg != "sha512" {
		t.Errorf("%q %v", alg, err)
	}
	// A wrong sha512 beside a correct sha1 entry: refused.
	if _, err := verifyNPM("u", body, "sha512-AAAA sha1-EfatjsUqKYSrqv18O1FlA3hcIHI=", ""); err == nil {
		t.Error("wrong sha512 accepted on the strength of sha1")
	}
	// Only a sha1 SRI entry: weak, but verified.
	if alg, err := verifyNPM("u", body, "sha1-EfatjsUqKYSrqv18O1FlA3hcIHI=", ""); err != nil || alg != "sha1" {
		t.Errorf("sha1 SRI: %q %v", alg, err)
	}
	// Shasum is case-insensitive hex.
	if alg, err := verifyNPM("u", body, "", "11F6AD8EC52A2984ABAAFD7C3B516503785C2072"); err != nil || alg != "sha1" {
		t.Errorf("shasum: %q %v", alg, err)
	}
}

func TestPyPIBaseFromIndex(t *testing.T) {
	if got, err := pypiBaseFromIndex("https://h.example.test/a/simple/?x=1"); err != nil || got != "https://h.example.test/a" {
		t.Errorf("%q %v", got, err)
	}
}

func TestRedactURL(t *testing.T) {
	if got := redactURL("https://u:secret@h.example.test/x"); got != "https://u:xxxxx@h.example.test/x" {
		t.Errorf("%q", got)
	}
}
