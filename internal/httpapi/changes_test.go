package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/attestari/attestari/api"
)

// TestChangeFeedOverHTTP: GET /changes pages the feed as the contract says,
// a poller at the head gets nothing new and the same cursor, the page
// revalidates with If-None-Match, and a cursor the service did not issue is
// a 400.
func TestChangeFeedOverHTTP(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/changes")
	if res.StatusCode != 200 || res.Header.Get("ETag") == "" || res.Header.Get("Cache-Control") != "public, max-age=60" {
		t.Fatalf("%d %v %s", res.StatusCode, res.Header, body)
	}
	var all api.ChangeList
	if err := json.Unmarshal([]byte(body), &all); err != nil || len(all.Items) == 0 {
		t.Fatalf("%v %s", err, body)
	}
	kinds := map[string]bool{}
	for _, c := range all.Items {
		kinds[c.Kind] = true
	}
	if !kinds[api.ChangeVersionPublished] {
		t.Fatalf("no version_published in %s", body)
	}
	res, body = ts.get("/changes?since=" + all.NextCursor)
	var head api.ChangeList
	if err := json.Unmarshal([]byte(body), &head); err != nil || res.StatusCode != 200 || len(head.Items) != 0 || head.NextCursor != all.NextCursor {
		t.Fatalf("at the head: %d %s", res.StatusCode, body)
	}
	req := httptest.NewRequest(http.MethodGet, "/changes?since="+all.NextCursor, nil)
	req.Header.Set("If-None-Match", res.Header.Get("ETag"))
	if res := ts.do(req); res.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", res.StatusCode)
	}
	res, body = ts.get("/changes?limit=1")
	if res.StatusCode != 200 {
		t.Fatalf("limit 1: %d", res.StatusCode)
	}
	var one api.ChangeList
	if err := json.Unmarshal([]byte(body), &one); err != nil || len(one.Items) != 1 || !one.More || !reflect.DeepEqual(one.Items[0], all.Items[0]) {
		t.Fatalf("limit 1: %s", body)
	}
	for _, bad := range []string{"/changes?since=zzzz", "/changes?limit=0", "/changes?limit=1001", "/changes?since=$$"} {
		if res, _ := ts.get(bad); res.StatusCode != 400 {
			t.Errorf("%s: %d", bad, res.StatusCode)
		}
	}
}
