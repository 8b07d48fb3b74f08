package httpapi

import (
	"strconv"
	"strings"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/vocab"
)

// reasonView is one refusal reason as the package page shows it: the code
// and its gate-map line, then what failed for this version and where, the
// names involved when the summary does not already list them, and each
// partial description with its holes.
type reasonView struct {
	api.BlockedBy
	Summary, Where string
	Names          []string
	Partial        []partialView
}

// partialView is a partial description cut into literal text and holes.
type partialView struct {
	Kind, Name, Where string
	Withheld          bool
	Pieces            []textPiece
}

// textPiece is literal text, or a hole: a substitution the extractor could
// not read, shown by its source at the place it sits.
type textPiece struct {
	Text, Source string
	Hole         bool
	Line         int
}

func reasonViews(codes []api.BlockedBy) []reasonView {
	out := make([]reasonView, 0, len(codes))
	for _, c := range codes {
		rv := reasonView{BlockedBy: c}
		if d := c.Detail; d != nil {
			rv.Summary = d.Summary
			if d.File != nil {
				rv.Where = *d.File
				if d.Line != nil {
					rv.Where += ":" + strconv.Itoa(*d.Line)
				}
			}
			for _, n := range d.Names {
				if !strings.Contains(d.Summary, n) {
					rv.Names = d.Names
					break
				}
			}
			for _, p := range d.Partial {
				rv.Partial = append(rv.Partial, partialOf(p))
			}
		}
		out = append(out, rv)
	}
	return out
}

func partialOf(p api.PartialDescription) partialView {
	pv := partialView{Kind: strings.ReplaceAll(p.Kind, "_", " "), Name: p.Name, Where: p.File + ":" + strconv.Itoa(p.Line)}
	if p.TextWithheld != nil {
		pv.Withheld = true
		return pv
	}
	pv.Pieces = holePieces(p.Text, p.Holes)
	return pv
}

// holePieces cuts text at each hole's offset. A hole whose offset is outside
// the text, or before the one it follows, is left out rather than guessed at.
func holePieces(text string, holes []api.Hole) []textPiece {
	var out []textPiece
	at := 0
	for _, h := range holes {
		if h.Offset < at || h.Offset > len(text) {
			continue
		}
		if h.Offset > at {
			out = append(out, textPiece{Text: text[at:h.Offset]})
		}
		out = append(out, textPiece{Hole: true, Source: h.Source, Line: h.Line})
		at = h.Offset
	}
	if at < len(text) {
		out = append(out, textPiece{Text: text[at:]})
	}
	return out
}

// toolHoles maps each tool's name to its partial description's pieces, from
// the refusal's partial_description reason, so the tool table shows the
// holes too.
func toolHoles(reasons []reasonView) map[string][]textPiece {
	out := map[string][]textPiece{}
	for _, r := range reasons {
		for _, p := range r.Partial {
			if p.Kind == vocab.EntryTool && !p.Withheld {
				out[p.Name] = p.Pieces
			}
		}
	}
	return out
}
