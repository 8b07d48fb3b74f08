package registry_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/registry"
)

// TestNPMSearch reads the search API's wire format and sends the query as
// text= and size=.
func TestNPMSearch(t *testing.T) {
	var gotText, gotSize string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/-/v1/search" {
			http.NotFound(w, r)
			return
		}
		gotText, gotSize = r.URL.Query().Get("text"), r.URL.Query().Get("size")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"objects":[{"package":{"name":"@scope/server-a","version":"1.0.0"},"score":{"final":0.9}},{"package":{"name":"server-b"}},{"package":{}}],"total":3,"time":"x"}`))
	}))
	defer srv.Close()
	c, err := registry.NewNPM(srv.URL, registry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names, err := c.Search(context.Background(), "server a", 20)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"@scope/server-a", "server-b"}) || gotText != "server a" || gotSize != "20" {
		t.Fatalf("names %v, query text=%q size=%q", names, gotText, gotSize)
	}
}

func TestNPMSearchMalformed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"objects": "not a list"}`))
	}))
	defer srv.Close()
	c, err := registry.NewNPM(srv.URL, registry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(context.Background(), "x", 0); !errors.Is(err, registry.ErrMalformed) {
		t.Fatalf("want ErrMalformed, got %v", err)
	}
}
