package artifact

import (
	"reflect"
	"strings"
	"testing"
)

func TestLanguageOf(t *testing.T) {
	for _, c := range []struct {
		path string
		lang Language
		decl bool
	}{
		{"index.js", LanguageJavaScript, false},
		{"dist/index.mjs", LanguageJavaScript, false},
		{"dist/index.cjs", LanguageJavaScript, false},
		{"src/App.jsx", LanguageJavaScript, false},
		{"src/server.ts", LanguageTypeScript, false},
		{"src/server.mts", LanguageTypeScript, false},
		{"src/server.cts", LanguageTypeScript, false},
		{"src/View.tsx", LanguageTSX, false},
		{"dist/index.d.ts", LanguageTypeScript, true},
		{"dist/index.d.mts", LanguageTypeScript, true},
		{"dist/index.d.cts", LanguageTypeScript, true},
		{"DIST/INDEX.D.TS", LanguageTypeScript, true},
		{"d.ts", LanguageTypeScript, false}, // a file named d.ts is not a declaration of anything
		{"pkg/server.py", LanguagePython, false},
		{"pkg/server.pyi", LanguagePython, true},
		{"README.md", LanguageNone, false},
		{"package.json", LanguageNone, false},
		{"dist/index.js.map", LanguageNone, false},
		{"Makefile", LanguageNone, false},
		{"weird.JS", LanguageJavaScript, false},
	} {
		lang, decl := LanguageOf(c.path)
		if lang != c.lang || decl != c.decl {
			t.Errorf("LanguageOf(%q) = %q, %v; want %q, %v", c.path, lang, decl, c.lang, c.decl)
		}
	}
}

func lines(n, width int) string {
	var b strings.Builder
	for range n {
		b.WriteString(strings.Repeat("x", width))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestMinifiedRule(t *testing.T) {
	for _, c := range []struct {
		name     string
		body     string
		minified bool
		longest  int
		avg      float64
		lines    int
	}{
		{"readable", "const a = 1;\nconst b = 2;\n", false, 12, 12, 2},
		{"longest exactly 800", lines(1, 800) + lines(9, 10), false, 800, 89, 10},
		{"longest 801", lines(1, 801) + lines(9, 10), true, 801, 89.1, 10},
		{"one long line, no newline", strings.Repeat("a", 5000), true, 5000, 5000, 1},
		{"average exactly 200", lines(10, 200), false, 200, 200, 10},
		{"average 201", lines(10, 201), true, 201, 201, 10},
		{"average over 200 without a long line", lines(3, 300) + lines(1, 100), true, 300, 250, 4},
		{"crlf not counted", strings.Repeat("y", 800) + "\r\n" + strings.Repeat("a\r\n", 9), false, 800, 80.9, 10},
		{"empty", "", false, 0, 0, 0},
		{"blank lines", "\n\n\n", false, 0, 0, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Classify("dist/x.js", []byte(c.body))
			if got.Minified != c.minified || got.LongestLine != c.longest || got.AverageLine != c.avg || got.Lines != c.lines {
				t.Fatalf("minified %v longest %d avg %v lines %d; want %v %d %v %d",
					got.Minified, got.LongestLine, got.AverageLine, got.Lines, c.minified, c.longest, c.avg, c.lines)
			}
		})
	}
	// The rule applies to source only: a long line of prose is not a bundle.
	if c := Classify("README.md", []byte(strings.Repeat("word ", 400))); c.Minified || c.LongestLine != 0 {
		t.Fatalf("README classified %+v", c)
	}
	if c := Classify("gen/table.py", []byte("TABLE = ["+strings.Repeat("1, ", 400)+"]\n")); !c.Minified {
		t.Fatal("a one-line Python table is minified by the rule")
	}
}

func TestVendoredByPath(t *testing.T) {
	for _, c := range []struct {
		path     string
		vendored bool
		segment  string
		library  string
	}{
		{"node_modules/zod/lib/index.js", true, "node_modules", "zod"},
		{"node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js", true, "node_modules", "@modelcontextprotocol/sdk"},
		{"node_modules/.pnpm/zod@3.22.4/node_modules/zod/lib/index.js", true, "node_modules", "zod"},
		{"dist/vendor/jquery.min.js", true, "vendor", "jquery"},
		{"lib/vendored/graphql/index.js", true, "vendored", "graphql"},
		{"src/third_party/acorn/acorn.js", true, "third_party", "acorn"},
		{"mypkg/_vendor/requests/api.py", true, "_vendor", "requests"},
		{"venv/lib/python3.12/site-packages/pydantic/main.py", true, "site-packages", "pydantic"},
		{"static/bower_components/lodash/lodash.js", true, "bower_components", "lodash"},
		{"src/vendors/x.js", false, "", ""},
		{"src/node_modules", false, "", ""}, // a file, not a directory
		{"src/vendor.js", false, "", ""},
		{"src/server.ts", false, "", ""},
		{"node_modules/README.md", true, "node_modules", "README"},
	} {
		got := Classify(c.path, []byte("x"))
		if got.Vendored != c.vendored || got.VendorSegment != c.segment || got.VendoredLibrary != c.library {
			t.Errorf("Classify(%q) vendored %v %q %q; want %v %q %q", c.path, got.Vendored, got.VendorSegment, got.VendoredLibrary, c.vendored, c.segment, c.library)
		}
	}
}

// A webpack 5 development bundle: a module table keyed by path, each
// module closed by `/***/ })`, the runtime in `/******/` lines.
const webpackBundle = `/******/ (() => { // webpackBootstrap
/******/ 	var __webpack_modules__ = ({

/***/ "./node_modules/zod/lib/index.mjs":
/*!****************************************!*\
  !*** ./node_modules/zod/lib/index.mjs ***!
  \****************************************/
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

const z = { object() {} };
server.tool("not_a_tool", "vendored", {});

/***/ }),

/***/ "./src/index.ts":
/*!**********************!*\
  !*** ./src/index.ts ***!
  \**********************/
/***/ ((module) => {

server.tool("real", "desc", {});

/***/ }),

/***/ "./node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js":
/***/ ((module) => {
class McpServer {}
/***/ })

/******/ 	});
/******/ })();
`

func TestWebpackRegions(t *testing.T) {
	c := Classify("dist/bundle.js", []byte(webpackBundle))
	want := []Region{
		{StartLine: 4, EndLine: 13, Library: "zod", Module: "./node_modules/zod/lib/index.mjs", Marker: MarkerWebpack},
		{StartLine: 25, EndLine: 28, Library: "@modelcontextprotocol/sdk", Module: "./node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js", Marker: MarkerWebpack},
	}
	if !reflect.DeepEqual(c.VendoredRegions, want) {
		t.Fatalf("regions\n got %+v\nwant %+v", c.VendoredRegions, want)
	}
	if c.Vendored {
		t.Fatal("a bundle with vendored regions is not itself a vendored path")
	}
	// Line 11 is inside the zod region, line 21 (the real registration) is not.
	ls := strings.Split(webpackBundle, "\n")
	if !strings.Contains(ls[10], "not_a_tool") || !strings.Contains(ls[20], `"real"`) {
		t.Fatalf("fixture lines moved: %q / %q", ls[10], ls[20])
	}
}

// Production webpack with numeric ids; output.pathinfo writes the banner.
const webpackNumeric = `/******/ var __webpack_modules__ = ({
/***/ 742:
/*!*******************************!*\
  !*** ./node_modules/zod/index.js ***!
  \*******************************/
/***/ ((module) => {
module.exports = {};
/***/ }),
/***/ 17:
/***/ ((module) => {
module.exports = 1;
/***/ })
/******/ });
`

func TestWebpackNumericIDs(t *testing.T) {
	c := Classify("dist/main.cjs", []byte(webpackNumeric))
	want := []Region{{StartLine: 2, EndLine: 8, Library: "zod", Module: "./node_modules/zod/index.js", Marker: MarkerWebpack}}
	if !reflect.DeepEqual(c.VendoredRegions, want) {
		t.Fatalf("regions %+v, want %+v", c.VendoredRegions, want)
	}
}

// An esbuild (or tsup) bundle: one path comment before each module.
const esbuildBundle = `#!/usr/bin/env node
import { createRequire } from "module";

// node_modules/.pnpm/zod@3.23.8/node_modules/zod/lib/index.mjs
var util;
(function(util2) {
  util2.x = 1;
})(util || (util = {}));

// node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js
var McpServer = class {
  tool() {}
};

// src/index.ts
// see node_modules/foo/index.js for the details
// https://host.invalid/node_modules/x/index.js
var server = new McpServer();
server.tool("real", "desc");
`

func TestEsbuildRegions(t *testing.T) {
	c := Classify("dist/index.js", []byte(esbuildBundle))
	want := []Region{
		{StartLine: 4, EndLine: 8, Library: "zod", Module: "node_modules/.pnpm/zod@3.23.8/node_modules/zod/lib/index.mjs", Marker: MarkerEsbuild},
		{StartLine: 10, EndLine: 13, Library: "@modelcontextprotocol/sdk", Module: "node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js", Marker: MarkerEsbuild},
	}
	if !reflect.DeepEqual(c.VendoredRegions, want) {
		t.Fatalf("regions\n got %+v\nwant %+v", c.VendoredRegions, want)
	}

	// The same text in an IIFE bundle is indented; the markers still count.
	indented := strings.ReplaceAll(esbuildBundle, "\n// ", "\n  // ")
	if got := Classify("dist/index.js", []byte(indented)).VendoredRegions; len(got) != 2 {
		t.Fatalf("indented bundle: %+v", got)
	}
	// Markers mean nothing outside JavaScript.
	if got := Classify("src/index.ts", []byte(esbuildBundle)).VendoredRegions; got != nil {
		t.Fatalf("TypeScript source got regions %+v", got)
	}
}

func TestWebpackConcatenatedRegions(t *testing.T) {
	src := `"use strict";
;// CONCATENATED MODULE: ./node_modules/zod/v3/external.js
const a = 1;

;// CONCATENATED MODULE: ./src/tools.ts + 2 modules
server.tool("real");
`
	c := Classify("dist/main.js", []byte(src))
	want := []Region{{StartLine: 2, EndLine: 3, Library: "zod", Module: "./node_modules/zod/v3/external.js", Marker: MarkerWebpackConcatenated}}
	if !reflect.DeepEqual(c.VendoredRegions, want) {
		t.Fatalf("regions %+v, want %+v", c.VendoredRegions, want)
	}
}

func TestNoRegionsInOrdinaryCode(t *testing.T) {
	src := `// utils.js
// node_modules are not bundled here
/***/
// TODO: see vendor/x.js
const p = "/***/ \"./node_modules/x/index.js\":";
`
	if got := Classify("src/utils.js", []byte(src)).VendoredRegions; got != nil {
		t.Fatalf("regions %+v", got)
	}
}

func TestVendorSegmentsCopy(t *testing.T) {
	s := VendorSegments()
	s[0] = "changed"
	if VendorSegments()[0] == "changed" {
		t.Fatal("VendorSegments exposes the package's slice")
	}
}
