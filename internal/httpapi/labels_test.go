package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

// labelledServer serves one publication holding a graded and a refused
// package, labelled demo (demo) or published early (overridden only).
func labelledServer(t *testing.T, demo bool) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), dbtest.URL(t), store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	// An injected clock: a publication date that has not happened yet.
	p := storetest.Publication("pub-labelled", "run-labelled", time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC))
	p.Header.Demo, p.Header.DisclosurePeriodOverridden = demo, true
	p.Packages = append(p.Packages,
		storetest.Package("npm", "@attestari-demo/weather", "1.0.0", "graded", "A", nil,
			storetest.Tool("forecast", "readable", "Returns the forecast for a city.", "none", "")),
		storetest.Package("npm", "@attestari-demo/packed", "1.0.0", "not_gradeable", "", []string{"minified_only"}))
	if err := st.LoadPublication(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return newTestServer(t, st)
}

// TestLabelsServedByTheAPI: every body the contract says carries the labels
// carries them, validated against openapi.yaml (which makes both required),
// with the values of the publication; a plain publication serves false.
func TestLabelsServedByTheAPI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		ts               *testServer
		demo, overridden bool
	}{
		{"demo", labelledServer(t, true), true, true},
		{"early", labelledServer(t, false), false, true},
	} {
		check := func(path string, pick func(map[string]any) map[string]any) {
			t.Helper()
			res, body := c.ts.get(path)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: %d %s", c.name, path, res.StatusCode, body)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				t.Fatal(err)
			}
			o := pick(v)
			if o["demo"] != c.demo || o["disclosure_period_overridden"] != c.overridden {
				t.Errorf("%s %s: demo %v, disclosure_period_overridden %v; want %v, %v", c.name, path, o["demo"], o["disclosure_period_overridden"], c.demo, c.overridden)
			}
		}
		self := func(v map[string]any) map[string]any { return v }
		first := func(v map[string]any) map[string]any {
			items, _ := v["items"].([]any)
			if len(items) == 0 {
				t.Fatalf("%s: no items: %v", c.name, v)
			}
			o, _ := items[0].(map[string]any)
			return o
		}
		check("/packages", first)
		check("/runs", first)
		check("/packages/npm/@attestari-demo/weather/1.0.0", self)
		check("/packages/npm/@attestari-demo/packed/1.0.0", self)
		check("/manifest/@attestari-demo/weather/1.0.0", self)
		res, body := postJSON(c.ts, "/lookup", `{"items":[{"registry":"npm","name":"@attestari-demo/weather","version":"1.0.0"}]}`)
		var lk map[string]any
		if err := json.Unmarshal([]byte(body), &lk); res.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("%s lookup: %d %v %s", c.name, res.StatusCode, err, body)
		}
		if o := first(lk); o["demo"] != c.demo || o["disclosure_period_overridden"] != c.overridden {
			t.Errorf("%s lookup: %v", c.name, o)
		}
	}

	ts, _ := seeded(t)
	for _, path := range []string{"/packages", "/runs", "/packages/npm/@acme/files/1.0.0", "/manifest/@acme/files/1.0.0"} {
		res, body := ts.get(path)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `"demo":false`) || !strings.Contains(body, `"disclosure_period_overridden":false`) {
			t.Errorf("plain publication %s: %d %s", path, res.StatusCode, firstLine(body))
		}
	}
}

// TestLabelBannerOnEveryPage: the grades page, each package page and the gate
// map of a labelled publication carry the banner, saying demo or early and
// the injected date; the pages of a plain publication carry none.
func TestLabelBannerOnEveryPage(t *testing.T) {
	t.Parallel()
	pages := []string{"/", "/package/npm/@attestari-demo/weather/1.0.0", "/package/npm/@attestari-demo/packed/1.0.0", "/gate-map"}
	for _, c := range []struct {
		demo       bool
		label, say string
	}{
		{true, `data-label="demo"`, "Demonstration."},
		{false, `data-label="disclosure-period-overridden"`, "disclosure period overridden"},
	} {
		ts := labelledServer(t, c.demo)
		for _, p := range pages {
			res, body := ts.get(p)
			if res.StatusCode != http.StatusOK || !strings.Contains(body, c.label) || !strings.Contains(body, c.say) || !strings.Contains(body, "2 January 2027") {
				t.Errorf("%s (demo %v): %d, banner missing or wrong", p, c.demo, res.StatusCode)
			}
		}
	}
	ts, _ := seeded(t)
	for _, p := range []string{"/", "/package/npm/@acme/files/1.0.0", "/gate-map", "/docs/methodology"} {
		if _, body := ts.get(p); strings.Contains(body, "label-banner") {
			t.Errorf("%s of a plain publication shows a label banner", p)
		}
	}
}

// TestDemoBannerInBrowser: in Chromium, the demo's pages show the banner
// above the content, its text readable (WCAG AA contrast), and it does not
// push a phone-sized page sideways. With -screenshots it writes
// docs/screenshots/demo-*.png.
func TestDemoBannerInBrowser(t *testing.T) {
	t.Parallel()
	ts := labelledServer(t, true)
	srv := httptest.NewServer(ts.Server)
	defer srv.Close()
	ctx, problems := browser(t, 1280, 900)
	for _, p := range []struct{ path, shot string }{
		{"/", "demo-grades"},
		{"/package/npm/@attestari-demo/weather/1.0.0", "demo-package"},
		{"/package/npm/@attestari-demo/packed/1.0.0", ""},
		{"/gate-map", ""},
	} {
		do(t, ctx, chromedp.Navigate(srv.URL+p.path), chromedp.WaitVisible(chromedp.CSS(".label-banner")))
		text := run(t, ctx, chromedp.Text(chromedp.CSS(".label-banner")))
		if !strings.Contains(text, "Demonstration.") || !strings.Contains(text, "not real") || !strings.Contains(text, "2 January 2027") {
			t.Errorf("%s: banner %q", p.path, text)
		}
		// The banner is above the page's content, not somewhere below it.
		if above := run(t, ctx, chromedp.Evaluate[bool](`document.querySelector(".label-banner").getBoundingClientRect().bottom <= document.querySelector("main").getBoundingClientRect().top`)); !above {
			t.Errorf("%s: the banner is not above the content", p.path)
		}
		if low := run(t, ctx, chromedp.Evaluate[[]string](contrastJS)); len(low) > 0 {
			t.Errorf("%s: text below WCAG AA contrast: %v", p.path, low)
		}
		if p.shot != "" {
			shoot(t, ctx, p.shot)
		}
	}
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(".label-banner")))
	if run(t, ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`)) {
		t.Errorf("the demo's grades page is wider than a phone's screen")
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console errors: %v", p)
	}
}
