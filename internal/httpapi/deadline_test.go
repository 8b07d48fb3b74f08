package httpapi

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
)

// TestEveryReaderMethodHasADeadline: deadlineReader embeds Reader, so a
// method added to Reader compiles without an override and would run with no
// deadline. This reads deadline.go and requires one override per method.
func TestEveryReaderMethodHasADeadline(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "deadline.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	overridden := map[string]bool{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok && id.Name == "deadlineReader" {
			overridden[fn.Name.Name] = true
		}
	}
	rt := reflect.TypeFor[Reader]()
	for i := range rt.NumMethod() {
		if m := rt.Method(i).Name; !overridden[m] {
			t.Errorf("Reader.%s has no deadline: override it in deadline.go", m)
		}
	}
	if len(overridden) != rt.NumMethod() {
		t.Errorf("deadline.go overrides %d methods, Reader has %d", len(overridden), rt.NumMethod())
	}
}

// stuckReader never answers on its own: only the context ends a call, as
// with a frozen database.
type stuckReader struct{ Reader }

func (stuckReader) Manifest(ctx context.Context, _, _, _, _ string) (*api.Manifest, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (stuckReader) Package(ctx context.Context, _, _, _ string) (*api.PackageDetail, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestDeadlineAnswers504: a Reader that does not answer is cut off by the
// request deadline, and the client gets 504 with Retry-After, as
// problem+json from the API and as the HTML error page from the website.
func TestDeadlineAnswers504(t *testing.T) {
	s, err := New(Options{Reader: stuckReader{}, Logger: slog.New(slog.DiscardHandler), RequestsPerMinute: 1 << 20, RequestDeadline: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, t: t}
	res, body := ts.get("/manifest/x/1.0.0")
	if res.StatusCode != http.StatusGatewayTimeout || res.Header.Get("Retry-After") == "" || res.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("API: want 504 problem+json with Retry-After, got %d %v %s", res.StatusCode, res.Header, body)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/package/npm/x/1.0.0", nil))
	if rec.Code != http.StatusGatewayTimeout || rec.Header().Get("Retry-After") == "" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("page: want the 504 HTML error page with Retry-After, got %d %v", rec.Code, rec.Header())
	}
	if _, err := New(Options{RequestDeadline: -time.Second}); err == nil {
		t.Fatal("a negative deadline must be refused")
	}
}
