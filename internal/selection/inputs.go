package selection

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/vocab"
)

// ErrInput: a file given to selection (a name list, a download dataset, the
// conflicts list) that cannot be read exactly. Its message names the file,
// the line or row, and what to do.
var ErrInput = errors.New("selection: invalid input file")

// maxInputBytes bounds an input file. The largest, a PyPI download dataset
// of every project, is tens of megabytes.
const maxInputBytes = 256 << 20

// Input is a local file selection reads, with the SHA-256 of its bytes,
// which is its snapshot identifier in the selection record.
type Input struct {
	Path   string
	Bytes  []byte
	SHA256 string
}

// ReadInput reads a file whole, within the size bound.
func ReadInput(path string) (*Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInput, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInput, path, err)
	}
	if len(b) > maxInputBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInput, path, maxInputBytes)
	}
	return &Input{Path: path, Bytes: b, SHA256: vocab.SHA256Hex(b)}, nil
}

// listedName is one name of a name list, with its line.
type listedName struct {
	registry string
	name     string
	line     int
}

// parseNames reads a name list: one package name a line, npm unless written
// "pypi:NAME" ("npm:NAME" is accepted too); blank lines and lines starting
// with # are skipped; surrounding space is dropped. Every invalid line is
// reported at once.
func parseNames(in *Input) ([]listedName, error) {
	var out []listedName
	var problems []string
	for i, raw := range strings.Split(string(in.Bytes), "\n") {
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		reg, name := "npm", line
		if r, n, ok := strings.Cut(line, ":"); ok && (r == vocab.RegistryNPM || r == vocab.RegistryPyPI) {
			reg, name = r, strings.TrimSpace(n)
		}
		switch reg {
		case vocab.RegistryNPM:
			if _, err := registry.EscapeNPMName(name); err != nil {
				problems = append(problems, fmt.Sprintf("line %d: %q is not a valid npm package name (write the name exactly as the registry lists it; PyPI names as pypi:NAME)", i+1, name))
				continue
			}
		case vocab.RegistryPyPI:
			if !registry.ValidPyPIName(name) {
				problems = append(problems, fmt.Sprintf("line %d: %q is not a valid PyPI project name", i+1, name))
				continue
			}
		}
		out = append(out, listedName{registry: reg, name: name, line: i + 1})
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s: %d problem(s):\n  %s", ErrInput, in.Path, len(problems), strings.Join(problems, "\n  "))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s lists no package name (one name a line; # starts a comment)", ErrInput, in.Path)
	}
	return out, nil
}

// parseDataset reads a PyPI download dataset: JSON
// {"rows": [{"project": NAME, "download_count": N}, ...]} (other members
// ignored), or CSV whose header names a "project" column and a
// "download_count" (or "downloads") column. It returns the figures by PEP
// 503 name. A row without a valid name or a whole, non-negative count, and
// a project listed twice, make the dataset unreadable: a snapshot states
// each project once.
func parseDataset(in *Input) (map[string]int64, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s (a dataset is JSON {\"rows\": [{\"project\", \"download_count\"}]} or CSV with project and download_count columns)",
			ErrInput, in.Path, fmt.Sprintf(format, args...))
	}
	out := map[string]int64{}
	add := func(row int, name, count string) error {
		if !registry.ValidPyPIName(name) {
			return bad("row %d: %q is not a valid project name", row, name)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(count), 10, 64)
		if err != nil || n < 0 {
			return bad("row %d (%s): %q is not a whole, non-negative download count", row, name, count)
		}
		k := registry.NormalizePyPIName(name)
		if _, dup := out[k]; dup {
			return bad("row %d: %s is listed twice", row, name)
		}
		out[k] = n
		return nil
	}
	trimmed := bytes.TrimSpace(in.Bytes)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var doc struct {
			Rows *[]struct {
				Project       any             `json:"project"`
				DownloadCount json.RawMessage `json:"download_count"`
			} `json:"rows"`
		}
		if err := json.Unmarshal(trimmed, &doc); err != nil {
			return nil, bad("not valid JSON: %v", err)
		}
		if doc.Rows == nil {
			return nil, bad("has no rows array")
		}
		for i, r := range *doc.Rows {
			name, _ := r.Project.(string)
			if err := add(i+1, name, string(r.DownloadCount)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	cr := csv.NewReader(bytes.NewReader(in.Bytes))
	cr.ReuseRecord = false
	head, err := cr.Read()
	if err != nil {
		return nil, bad("no CSV header: %v", err)
	}
	pc, dc := -1, -1
	for i, h := range head {
		switch strings.TrimSpace(strings.ToLower(strings.TrimPrefix(h, "\ufeff"))) {
		case "project":
			pc = i
		case "download_count", "downloads":
			dc = i
		}
	}
	if pc < 0 || dc < 0 {
		return nil, bad("the CSV header %q names no project and download_count columns", strings.Join(head, ","))
	}
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bad("row %d: %v", row, err)
		}
		if err := add(row, strings.TrimSpace(rec[pc]), rec[dc]); err != nil {
			return nil, err
		}
	}
	return out, nil
}
