package api_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/attestari/attestari/api"
)

// TestClientClassifiesFaults: a gateway can tell "ask again later" (503,
// 504) from "not published" (404) with errors.Is.
func TestClientClassifiesFaults(t *testing.T) {
	for status, want := range map[int]error{
		http.StatusServiceUnavailable: api.ErrUnavailable,
		http.StatusGatewayTimeout:     api.ErrTimeout,
		http.StatusNotFound:           api.ErrNotFound,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"type":"about:blank","title":"x","status":` + strconv.Itoa(status) + `}`))
		}))
		c, err := api.NewClient(srv.URL, srv.Client())
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Manifest(context.Background(), "npm", "x", "1.0.0")
		srv.Close()
		if !errors.Is(err, want) {
			t.Errorf("%d: want errors.Is(err, %v), got %v", status, want, err)
		}
		for _, other := range []error{api.ErrUnavailable, api.ErrTimeout, api.ErrNotFound} {
			if other != want && errors.Is(err, other) {
				t.Errorf("%d must not also be %v", status, other)
			}
		}
	}
}
