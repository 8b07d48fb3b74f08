package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLatestPassPageInBrowser: from the home page a reader reaches "The
// latest pass", sees the counts, and a reason code leads to its line of
// the gate map; no console error (a CSP violation shows as one), every
// text meets WCAG AA contrast, and a phone does not scroll sideways. With
// -screenshots it writes docs/screenshots/latest-pass.png.
func TestLatestPassPageInBrowser(t *testing.T) {
	t.Parallel()
	ts := seededPass(t)
	srv := httptest.NewServer(ts.Server)
	defer srv.Close()
	ctx, problems := browser(t, 1280, 900)

	do(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(".results")),
		chromedp.Click(chromedp.CSS(`a[href="/latest-pass"]`)), chromedp.WaitVisible(chromedp.CSS("table.pass-reasons")))
	body := run(t, ctx, chromedp.Text(chromedp.CSS("main")))
	for _, want := range []string{"The latest pass", "run-pass", "It holds 6 package versions.", "minified_only", "partial_description"} {
		if !strings.Contains(body, want) {
			t.Errorf("latest pass page lacks %q:\n%s", want, body)
		}
	}
	verdicts := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.pass-verdicts tbody tr")).map(r => Array.from(r.cells).map(c => c.textContent.replace(/\s+/g, " ").trim()).join(" / "))`))
	if strings.Join(verdicts, "|") != "Graded graded / 2|Not graded (refused) not_gradeable / 3|Out of scope (not a server) out_of_scope / 1" {
		t.Errorf("verdict rows: %q", verdicts)
	}
	if low := run(t, ctx, chromedp.Evaluate[[]string](contrastJS)); len(low) > 0 {
		t.Errorf("text below WCAG AA contrast: %v", low)
	}
	shoot(t, ctx, "latest-pass")

	do(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/gate-map#minified_only"]`)), chromedp.WaitVisible(chromedp.CSS("table.gatemap")))
	if row := run(t, ctx, chromedp.Text(chromedp.CSS("tr#minified_only"))); !strings.Contains(row, "minified_only") {
		t.Errorf("the reason code does not lead to its gate-map line: %q", row)
	}

	pctx, pproblems := browser(t, 1280, 900)
	do(t, pctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(srv.URL+"/latest-pass"), chromedp.WaitVisible(chromedp.CSS("table.pass-reasons")))
	if run(t, pctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`)) {
		t.Error("/latest-pass is wider than a phone's screen")
	}
	if p := append(problems(), pproblems()...); len(p) > 0 {
		t.Errorf("console errors (a CSP violation shows here): %v", p)
	}
}
