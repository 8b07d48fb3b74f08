package surface
import ("os";"testing")
func TestZZDump(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("DUMP"))
	p, err := parseFile(languageOf(os.Getenv("DUMP")), src, 1e9, 0)
	if err != nil { t.Fatal(err) }
	f := &file{src: src, parsed: p}
	t.Log("\n" + f.sexp(0))
}
