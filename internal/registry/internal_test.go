package registry

import (
	"reflect"
	"testing"
)

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
