package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/attestari/attestari/api"
)

// A gateway pins the tools it lets an agent call to the tools Attestari
// examined: it fetches the attested manifest of the exact version it runs,
// asks the server for tools/list, and refuses the tools that differ.
func ExampleVerifyTools() {
	// The service, here an httptest server answering with a manifest it
	// served for @example/hello-server 1.0.0.
	served, _ := os.ReadFile("testdata/manifest.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() != "/manifest/@example%2Fhello-server/1.0.0" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(served)
	}))
	defer srv.Close()

	c, _ := api.NewClient(srv.URL, srv.Client())
	m, err := c.Manifest(context.Background(), "npm", "@example/hello-server", "1.0.0")
	if err != nil {
		fmt.Println(err)
		return
	}

	// What the running server answered to tools/list, recorded.
	for _, recording := range []string{"testdata/tools_list.json", "testdata/tools_list_changed.json"} {
		b, _ := os.ReadFile(recording)
		tools, err := api.ParseToolsList(b)
		if err != nil {
			fmt.Println(err)
			return
		}
		report := api.VerifyTools(m, tools)
		fmt.Println(recording)
		for _, t := range report.Tools {
			fmt.Printf("  %-6s %s\n", t.Name, t.Outcome)
		}
		fmt.Printf("  tools that differ: %d\n", len(report.Differs()))
	}
	// Output:
	// testdata/tools_list.json
	//   echo   hash_matches
	//   add    text_matches
	//   debug  hash_matches
	//   tools that differ: 0
	// testdata/tools_list_changed.json
	//   echo   differs
	//   add    text_matches
	//   debug  hash_matches
	//   exec   not_in_manifest
	//   tools that differ: 2
}
