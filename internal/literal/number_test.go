package literal

import "testing"

// The expected renderings are what String(n) gives in Node for each literal
// (ECMAScript Number::toString and BigInt::toString).
func TestRenderJSNumber(t *testing.T) {
	cases := []struct{ src, want string }{
		{"0", "0"}, {"7", "7"}, {"100", "100"}, {"5432", "5432"},
		{"1e21", "1e+21"}, {"1e20", "100000000000000000000"}, {"12e20", "1.2e+21"}, {"12e21", "1.2e+22"},
		{"0.000001", "0.000001"}, {"1e-7", "1e-7"}, {"2e-6", "0.000002"}, {"1.2e-6", "0.0000012"},
		{"123.456", "123.456"}, {"1.5e3", "1500"}, {"1.0e0", "1"}, {"1E3", "1000"}, {"1e+3", "1000"},
		{"5e-324", "5e-324"}, {"1.7976931348623157e308", "1.7976931348623157e+308"},
		{"0.1", "0.1"}, {"0.30000000000000004", "0.30000000000000004"},
		{".5", "0.5"}, {"5.", "5"}, {"1.50", "1.5"}, {"0.0", "0"},
		{"1e400", "Infinity"}, {"1e-400", "0"},
		{"123456789012345680000", "123456789012345680000"}, {"9007199254740993", "9007199254740992"},
		{"0x10", "16"}, {"0XfF", "255"}, {"0b101", "5"}, {"0o17", "15"},
		{"1_000_000", "1000000"}, {"0x1_0", "16"}, {"1_0.5_5", "10.55"},
		{"10n", "10"}, {"0x1fn", "31"}, {"0n", "0"}, {"123456789012345678901234567890n", "123456789012345678901234567890"},
	}
	for _, c := range cases {
		got, ok := RenderJSNumber([]byte(c.src))
		if !ok || got != c.want {
			t.Errorf("RenderJSNumber(%q) = %q, %v; want %q", c.src, got, ok, c.want)
		}
	}
}

// Literals whose value depends on the mode, or that are not numeric
// literals, are not rendered: the substitution stays a hole.
func TestRenderJSNumberRefuses(t *testing.T) {
	for _, src := range []string{"", "017", "08", "0_1", "1__0", "_1", "1_", "1e", "1e+", ".", "1.2.3", "0x", "0xg",
		"0x20000000000001", "012n", "1.5n", "-1", "+1", "1 ", "NaN", "Infinity", "0b2", "0o8", "1_e5", "1._5"} {
		if got, ok := RenderJSNumber([]byte(src)); ok {
			t.Errorf("RenderJSNumber(%q) = %q; want it refused", src, got)
		}
	}
}

// A canonical literal maps byte for byte; any other rendering maps every
// decoded byte to the whole literal, so Locate covers the literal whole.
func TestDecodeJSNumberMap(t *testing.T) {
	text, offs, err := Decode(JSNumber, []byte("5432"))
	if err != nil || text != "5432" || offs[1] != 1 || offs[4] != 4 {
		t.Fatalf("Decode 5432 = %q %v %v", text, offs, err)
	}
	if s, e, ok := Locate(JSNumber, []byte("5432"), "43"); !ok || s != 1 || e != 3 {
		t.Fatalf("Locate 43 in 5432 = %d %d %v", s, e, ok)
	}
	text, offs, err = Decode(JSNumber, []byte("1e3"))
	if err != nil || text != "1000" || len(offs) != 5 || offs[0] != 0 || offs[3] != 0 || offs[4] != 3 {
		t.Fatalf("Decode 1e3 = %q %v %v", text, offs, err)
	}
	if s, e, ok := Locate(JSNumber, []byte("1e3"), "00"); !ok || s != 0 || e != 3 {
		t.Fatalf("Locate 00 in 1e3 = %d %d %v", s, e, ok)
	}
	if _, _, err := Decode(JSNumber, []byte("017")); err == nil {
		t.Fatal("Decode 017 succeeded")
	}
}
