package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/attestari/attestari/internal/vocab"
)

// KindNPMSearch is a query of the npm registry's search API. Its answers
// are never evidence about a package (nothing is decided on them); the run
// uses them only to suggest a name when a candidate's is not found.
const KindNPMSearch = vocab.KindNPMSearch

// maxSearchSize is the most results one query asks for (the API's own
// ceiling is 250).
const maxSearchSize = 250

// Search asks the registry's search API (GET /-/v1/search?text=&size=) for
// packages matching text and returns their names in the order served.
func (c *NPM) Search(ctx context.Context, text string, size int) ([]string, error) {
	if size <= 0 || size > maxSearchSize {
		size = maxSearchSize
	}
	q := url.Values{"text": {text}, "size": {strconv.Itoa(size)}}
	resp, err := c.f.get(ctx, KindNPMSearch, c.base+"/-/v1/search?"+q.Encode(), "application/json", c.f.o.MaxDocumentBytes)
	if err != nil {
		return nil, fmt.Errorf("npm search %q: %w", text, err)
	}
	var doc struct {
		Objects []struct {
			Package struct {
				Name string `json:"name"`
			} `json:"package"`
		} `json:"objects"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		return nil, fmt.Errorf("npm search %q: %w: %v", text, ErrMalformed, err)
	}
	names := make([]string, 0, len(doc.Objects))
	for _, o := range doc.Objects {
		if o.Package.Name != "" {
			names = append(names, o.Package.Name)
		}
	}
	return names, nil
}
