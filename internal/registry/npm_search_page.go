package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/attestari/attestari/internal/vocab"
)

// SearchPage is one page of the npm registry's search API
// (GET /-/v1/search?text=&size=&from=), as selection reads it.
type SearchPage struct {
	// Response carries the exact bytes received and their Record.
	Response Response
	// Total is the answer's "total": how many packages match the query.
	Total int64
	// Objects are the page's results in the order served.
	Objects []SearchObject
}

// SearchObject is one result of a search page.
type SearchObject struct {
	Name    string
	Version string
	// MonthlyDownloads is the object's downloads.monthly, nil when the
	// answer carries none (the documented format has no downloads member;
	// the registry has served one since it began ranking by downloads).
	MonthlyDownloads *int64
}

// MaxSearchPageSize is the search API's own ceiling on size.
const MaxSearchPageSize = maxSearchSize

// SearchPage asks for one page of results of text: size results from the
// offset from. A 2xx body that is not the search API's JSON is ErrMalformed
// and the page's Response still carries the bytes, so the caller can keep
// them.
func (c *NPM) SearchPage(ctx context.Context, text string, from, size int) (*SearchPage, error) {
	p := &SearchPage{}
	if size <= 0 || size > maxSearchSize || from < 0 || text == "" {
		err := fmt.Errorf("%w: npm search %q from %d size %d", ErrInvalidRequest, text, from, size)
		p.Response = invalid(KindNPMSearch, err, c.f.o.Now)
		return p, err
	}
	resp, err := c.f.get(ctx, KindNPMSearch, c.base+"/-/v1/search?"+SearchQuery(text, from, size), "application/json", c.f.o.MaxDocumentBytes)
	p.Response = *resp
	if err != nil {
		return p, fmt.Errorf("npm search %q from %d: %w", text, from, err)
	}
	parsed, err := ParseSearchPage(resp.Body)
	if err != nil {
		c.f.fail(&p.Response, vocab.RecordMalformed, err)
		return p, fmt.Errorf("npm search %q from %d: %w", text, from, err)
	}
	p.Total, p.Objects = parsed.Total, parsed.Objects
	return p, nil
}

// SearchQuery is the query string of one search page request, its
// parameters in a fixed order so the request is the same bytes each time.
func SearchQuery(text string, from, size int) string {
	return "text=" + url.QueryEscape(text) + "&size=" + strconv.Itoa(size) + "&from=" + strconv.Itoa(from)
}

// ParseSearchPage reads a search answer's bytes strictly where selection
// depends on them: the top level must be an object whose objects member is
// an array of objects each naming its package, and total, when present, a
// whole number. A downloads member of another shape than
// {"monthly": whole number} gives no figure rather than a guessed one.
func ParseSearchPage(body []byte) (*SearchPage, error) {
	var doc struct {
		Objects *[]json.RawMessage `json:"objects"`
		Total   json.RawMessage    `json:"total"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("%w: search answer: %v", ErrMalformed, err)
	}
	if doc.Objects == nil {
		return nil, fmt.Errorf("%w: search answer has no objects array", ErrMalformed)
	}
	p := &SearchPage{}
	if len(doc.Total) > 0 && !isNull(doc.Total) {
		n, ok := wholeNumber(doc.Total)
		if !ok {
			return nil, fmt.Errorf("%w: search answer's total is not a whole number", ErrMalformed)
		}
		p.Total = n
	}
	for i, raw := range *doc.Objects {
		var o struct {
			Package *struct {
				Name    any `json:"name"`
				Version any `json:"version"`
			} `json:"package"`
			Downloads json.RawMessage `json:"downloads"`
		}
		if err := json.Unmarshal(raw, &o); err != nil || o.Package == nil {
			return nil, fmt.Errorf("%w: search answer's objects[%d] is not an object with a package", ErrMalformed, i)
		}
		name := str(o.Package.Name)
		if name == "" {
			return nil, fmt.Errorf("%w: search answer's objects[%d] names no package", ErrMalformed, i)
		}
		so := SearchObject{Name: name, Version: str(o.Package.Version)}
		if len(o.Downloads) > 0 && !isNull(o.Downloads) {
			var d map[string]json.RawMessage
			if json.Unmarshal(o.Downloads, &d) == nil {
				if n, ok := wholeNumber(d["monthly"]); ok && n >= 0 {
					so.MonthlyDownloads = &n
				}
			}
		}
		p.Objects = append(p.Objects, so)
	}
	return p, nil
}

// wholeNumber reads a JSON number that is a whole number within int64.
func wholeNumber(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}
