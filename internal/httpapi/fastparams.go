package httpapi

import (
	"net/http"
	"net/url"
	"regexp"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
)

// fastCheck decides quickly, for the operations whose parameters are plain
// strings and integers, that a request certainly satisfies the contract: the
// checks are compiled from the same openapi.yaml at start-up. It only ever
// says "valid"; anything it does not accept, or any operation it cannot
// compile (a request body, another schema type), goes to kin-openapi, which
// decides and writes the error. FuzzFastCheckIsSound holds it to that: what
// it accepts, kin-openapi accepts.
type fastCheck struct {
	ok     bool // false: always ask kin-openapi
	params []paramCheck
}

type paramCheck struct {
	name, in       string
	required       bool
	integer        bool
	minLen, maxLen int // -1: no bound
	pattern        *regexp.Regexp
	enum           map[string]bool
	min, max       *float64
}

var plainInteger = regexp.MustCompile(`^-?[0-9]{1,15}$`)

func compileFastCheck(op *operation) fastCheck {
	if op.op.RequestBody != nil {
		return fastCheck{}
	}
	var all openapi3.Parameters
	all = append(all, op.pathItem.Parameters...)
	all = append(all, op.op.Parameters...)
	fc := fastCheck{ok: true}
	for _, ref := range all {
		p := ref.Value
		if p == nil || p.Schema == nil || p.Schema.Value == nil || p.Content != nil || (p.Style != "" && p.Style != "simple" && p.Style != "form") {
			return fastCheck{}
		}
		s := p.Schema.Value
		if s.Format != "" || s.Nullable || s.Not != nil || len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) > 0 ||
			s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet() || s.MultipleOf != nil {
			return fastCheck{}
		}
		pc := paramCheck{name: p.Name, in: p.In, required: p.Required, minLen: int(s.MinLength), maxLen: -1}
		if s.MaxLength != nil {
			pc.maxLen = int(*s.MaxLength)
		}
		switch {
		case s.Type.Is("string"):
			if s.Pattern != "" {
				re, err := regexp.Compile(s.Pattern)
				if err != nil {
					return fastCheck{}
				}
				pc.pattern = re
			}
			if len(s.Enum) > 0 {
				pc.enum = map[string]bool{}
				for _, e := range s.Enum {
					v, ok := e.(string)
					if !ok {
						return fastCheck{}
					}
					pc.enum[v] = true
				}
			}
		case s.Type.Is("integer"):
			if len(s.Enum) > 0 {
				return fastCheck{}
			}
			pc.integer, pc.min, pc.max = true, s.Min, s.Max
		default:
			return fastCheck{}
		}
		switch p.In {
		case "path", "query", "header":
		default:
			return fastCheck{}
		}
		fc.params = append(fc.params, pc)
	}
	return fc
}

// accepts reports whether r certainly satisfies the operation's parameters.
func (fc *fastCheck) accepts(r *http.Request, path map[string]string) bool {
	if !fc.ok {
		return false
	}
	var query url.Values
	for i := range fc.params {
		p := &fc.params[i]
		var v string
		var present bool
		switch p.in {
		case "path":
			v, present = path[p.name]
		case "query":
			if query == nil {
				var err error
				if query, err = url.ParseQuery(r.URL.RawQuery); err != nil {
					return false
				}
			}
			vs := query[p.name]
			if len(vs) > 1 {
				return false
			}
			if len(vs) == 1 {
				v, present = vs[0], true
			}
		case "header":
			vs := r.Header.Values(p.name)
			if len(vs) > 1 {
				return false
			}
			if len(vs) == 1 {
				v, present = vs[0], true
			}
		}
		if !present || v == "" {
			if p.required || present {
				return false // missing, or present and empty: let kin-openapi decide and explain
			}
			continue
		}
		if !p.check(v) {
			return false
		}
	}
	return true
}

func (p *paramCheck) check(v string) bool {
	if p.integer {
		if !plainInteger.MatchString(v) {
			return false
		}
		var n float64
		for _, c := range v {
			if c != '-' {
				n = n*10 + float64(c-'0')
			}
		}
		if v[0] == '-' {
			n = -n
		}
		return (p.min == nil || n >= *p.min) && (p.max == nil || n <= *p.max)
	}
	if !validText(v) {
		return false // checkInput refused it already; never vouch for it here
	}
	n := utf8.RuneCountInString(v)
	if n < p.minLen || (p.maxLen >= 0 && n > p.maxLen) {
		return false
	}
	if p.enum != nil && !p.enum[v] {
		return false
	}
	return p.pattern == nil || p.pattern.MatchString(v)
}
