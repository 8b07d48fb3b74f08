package fakeregistry

import (
	"html"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// SearchResult is one result the fake's search API serves for a query set
// with SetSearch.
type SearchResult struct {
	Name string
	// Monthly, when set, is served as the object's downloads.monthly.
	Monthly *int64
}

// SetSearch makes the search API answer text with exactly these results,
// in this order, a page at a time (size and from honoured, total the whole
// count), each object carrying downloads.monthly when Monthly is set. A
// query with no results set answers as searchNPM does.
func (f *Fake) SetSearch(text string, results []SearchResult) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.search == nil {
		f.search = map[string][]SearchResult{}
	}
	f.search[text] = append([]SearchResult(nil), results...)
}

// SetDownloads makes the downloads API answer name over from..to with n.
// Any other package or window is answered 404, as the API answers a
// package it has no figure for.
func (f *Fake) SetDownloads(name, from, to string, n int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.downloads == nil {
		f.downloads = map[string]int64{}
	}
	f.downloads[from+":"+to+"/"+name] = n
}

// NPMSearchPath is the decoded path of the search API.
const NPMSearchPath = "/-/v1/search"

// DownloadsPointPath is the decoded path of a downloads API point query.
func DownloadsPointPath(from, to, name string) string {
	return "/downloads/point/" + from + ":" + to + "/" + name
}

// PyPIIndexPath is the decoded path of the simple index's root page.
const PyPIIndexPath = "/simple/"

// searchPaged answers a query set with SetSearch; ok is false otherwise.
// f.mu is held.
func (f *Fake) searchPaged(q url.Values) (int, string, []byte, bool) {
	results, ok := f.search[q.Get("text")]
	if !ok {
		return 0, "", nil, false
	}
	size, err := strconv.Atoi(q.Get("size"))
	if err != nil || size <= 0 {
		size = 20
	}
	from, err := strconv.Atoi(q.Get("from"))
	if err != nil || from < 0 {
		from = 0
	}
	objs := []any{}
	for i := from; i < len(results) && i < from+size; i++ {
		o := map[string]any{"package": map[string]any{"name": results[i].Name, "version": "0.0.0"}, "searchScore": 1}
		if m := results[i].Monthly; m != nil {
			o["downloads"] = map[string]any{"monthly": *m, "weekly": *m / 4}
		}
		objs = append(objs, o)
	}
	status, ctype, body := jsonBody(map[string]any{"objects": objs, "total": len(results), "time": "fake"})
	return status, ctype, body, true
}

// downloadsPoint answers GET /downloads/point/{from}:{to}/{name}, and the
// bulk form {a},{b},...: an object keyed by name, null where there is no
// figure.
func (f *Fake) downloadsPoint(path string) (int, string, []byte) {
	rest := strings.TrimPrefix(path, "/downloads/point/")
	period, name, ok := strings.Cut(rest, "/")
	if ok && strings.Contains(name, ",") {
		from, to, _ := strings.Cut(period, ":")
		out := map[string]any{}
		for _, n := range strings.Split(name, ",") {
			if v, found := f.downloads[period+"/"+n]; found {
				out[n] = map[string]any{"downloads": v, "start": from, "end": to, "package": n}
			} else {
				out[n] = nil
			}
		}
		return jsonBody(out)
	}
	n, found := f.downloads[rest]
	if !ok || !found {
		return http.StatusNotFound, "application/json", []byte(`{"error":"package ` + name + ` not found"}`)
	}
	from, to, _ := strings.Cut(period, ":")
	status, ctype, body := jsonBody(map[string]any{"downloads": n, "start": from, "end": to, "package": name})
	return status, ctype, body
}

// simpleRoot answers the simple index's root: PEP 691 JSON when asked for
// it, PEP 503 HTML otherwise, every registered project by the name it was
// first registered under.
func (f *Fake) simpleRoot(r *http.Request) (int, string, []byte) {
	var names []string
	for _, k := range slices.Sorted(maps.Keys(f.pypi)) {
		names = append(names, f.pypi[k].name)
	}
	if strings.Contains(r.Header.Get("Accept"), "application/vnd.pypi.simple.v1+json") {
		projects := []any{}
		for _, n := range names {
			projects = append(projects, map[string]any{"name": n})
		}
		status, _, body := jsonBody(map[string]any{"meta": map[string]any{"api-version": "1.3"}, "projects": projects})
		return status, "application/vnd.pypi.simple.v1+json", body
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><body>\n")
	for _, n := range names {
		b.WriteString(`<a href="/simple/` + html.EscapeString(normalize(n)) + `/">` + html.EscapeString(n) + "</a>\n")
	}
	b.WriteString("</body></html>\n")
	return http.StatusOK, "text/html", []byte(b.String())
}
