package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"

	"github.com/attestari/attestari/internal/vocab"
)

// SimpleProjects is the simple index's root page: every project the index
// lists, by the name it lists it under.
type SimpleProjects struct {
	Response Response
	Names    []string
}

// simpleRootAccept asks for PEP 691 JSON and accepts PEP 503 HTML from an
// index that does not serve it.
const simpleRootAccept = SimpleContentType + ", text/html;q=0.01"

// SimpleProjects fetches GET {base}/simple/ and reads it as PEP 691 JSON
// when the index answers with that media type, and as PEP 503 HTML (one
// anchor per project, its text the name) otherwise.
func (c *PyPI) SimpleProjects(ctx context.Context) (*SimpleProjects, error) {
	s := &SimpleProjects{}
	resp, err := c.f.get(ctx, vocab.KindPyPIIndex, c.base+"/simple/", simpleRootAccept, c.f.o.MaxDocumentBytes)
	s.Response = *resp
	if err != nil {
		return s, fmt.Errorf("registry.PyPI.SimpleProjects: %w", err)
	}
	names, err := ParseSimpleProjects(resp.Body, resp.ContentType)
	if err != nil {
		c.f.fail(&s.Response, vocab.RecordMalformed, err)
		return s, fmt.Errorf("registry.PyPI.SimpleProjects: %w", err)
	}
	s.Names = names
	return s, nil
}

// maxIndexAnchors bounds the anchors read from an HTML root page: the public
// index lists under a million projects.
const maxIndexAnchors = 5_000_000

// ParseSimpleProjects reads a root page's bytes by its Content-Type. A JSON
// page must carry a projects array of objects with a string name; an HTML
// page is read with an HTML tokenizer, each anchor's text a name. A name
// that is not a valid project name makes the page malformed: the index
// would then be listing something this reader cannot take exactly.
func ParseSimpleProjects(body []byte, contentType string) ([]string, error) {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	var names []string
	switch {
	case strings.HasPrefix(ct, SimpleContentType) || strings.HasPrefix(ct, "application/json"):
		var doc struct {
			Projects *[]struct {
				Name any `json:"name"`
			} `json:"projects"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("%w: simple index root: %v", ErrMalformed, err)
		}
		if doc.Projects == nil {
			return nil, fmt.Errorf("%w: simple index root has no projects array", ErrMalformed)
		}
		for i, p := range *doc.Projects {
			n := str(p.Name)
			if !ValidPyPIName(n) {
				return nil, fmt.Errorf("%w: simple index root's projects[%d] has no valid name", ErrMalformed, i)
			}
			names = append(names, n)
		}
	case strings.HasPrefix(ct, "text/html"):
		z := html.NewTokenizer(bytes.NewReader(body))
		inAnchor := false
		var text strings.Builder
		for {
			tt := z.Next()
			switch tt {
			case html.ErrorToken:
				if z.Err() == io.EOF {
					return names, nil
				}
				return nil, fmt.Errorf("%w: simple index root: %v", ErrMalformed, z.Err())
			case html.StartTagToken:
				if tn, _ := z.TagName(); string(tn) == "a" {
					inAnchor = true
					text.Reset()
				}
			case html.TextToken:
				if inAnchor {
					text.Write(z.Text())
				}
			case html.EndTagToken:
				if tn, _ := z.TagName(); string(tn) == "a" && inAnchor {
					inAnchor = false
					n := strings.TrimSpace(text.String())
					if !ValidPyPIName(n) {
						return nil, fmt.Errorf("%w: simple index root lists %q, which is not a valid project name", ErrMalformed, n)
					}
					if len(names) >= maxIndexAnchors {
						return nil, fmt.Errorf("%w: simple index root lists more than %d projects", ErrTooLarge, maxIndexAnchors)
					}
					names = append(names, n)
				}
			}
		}
	default:
		return nil, fmt.Errorf("%w: simple index root answered %q, neither PEP 691 JSON nor HTML", ErrMalformed, contentType)
	}
	return names, nil
}

// ParsePackument parses a packument's bytes (as Packument does after
// fetching them), for a caller that holds recorded bytes.
func ParsePackument(body []byte) (*Packument, error) {
	p := &Packument{}
	if err := parsePackument(p, body); err != nil {
		return nil, err
	}
	return p, nil
}

// ParsePyPIProject parses the JSON API's project document (as Project does
// after fetching it), for a caller that holds recorded bytes.
func ParsePyPIProject(body []byte) (*PyPIProject, error) {
	var doc pypiJSON
	if err := json.Unmarshal(body, &doc); err != nil || len(doc.Info) == 0 || isNull(doc.Info) {
		if err == nil {
			err = fmt.Errorf("no info object")
		}
		return nil, fmt.Errorf("%w: JSON API: %v", ErrMalformed, err)
	}
	p := &PyPIProject{}
	var err error
	if p.Info, err = decodeInfo(doc.Info); err != nil {
		return nil, fmt.Errorf("%w: info: %v", ErrMalformed, err)
	}
	p.Files = doc.files()
	p.Releases = doc.releases()
	p.Ownership = doc.ownership()
	return p, nil
}
