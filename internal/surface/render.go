package surface

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// RenderTable writes the human-readable form of a surface row: the outcome,
// one line per entry with its state, and what was not resolved.
func RenderTable(w io.Writer, s rundir.Surface) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "package   %s\n", s.Package.Key())
	fmt.Fprintf(ew, "extractor %s\n", s.ExtractorVersion)
	fmt.Fprintf(ew, "outcome   %s", s.Outcome)
	if s.OutcomeDetail != "" {
		fmt.Fprintf(ew, " (%s)", s.OutcomeDetail)
	}
	fmt.Fprintln(ew)
	for _, ev := range s.OutcomeEvidence {
		fmt.Fprintf(ew, "  evidence %s:%d %s\n", ev.File, ev.Line, ev.Detail)
	}
	fmt.Fprintf(ew, "budget    %d ms of %d ms, %d bytes held of %d bytes\n",
		s.Budget.WallMs, s.Budget.WallMsLimit, s.Budget.RSSBytes, s.Budget.RSSBytesLimit)
	if s.Budget.CPUMsLimit > 0 {
		fmt.Fprintf(ew, "cpu       %d ms of %d ms (the time part; the wall limit above is the backstop)\n", s.Budget.CPUMs, s.Budget.CPUMsLimit)
	}
	entries := s.AllEntries()
	if len(entries) > 0 {
		fmt.Fprintln(ew)
		tw := tabwriter.NewWriter(ew, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KIND\tNAME\tSTATE\tSCHEMA\tWHERE\tDESCRIPTION")
		for _, e := range entries {
			name := e.Name
			if e.Parent != "" {
				name = e.Parent + "/" + e.Name
			}
			if e.NameState == vocab.StateUnreadable {
				name = "(unreadable name)"
			}
			desc := e.DescriptionRaw
			if e.DescriptionState == vocab.StateUnreadable {
				desc = "(" + e.UnreadableReason + ")"
			}
			where := fmt.Sprintf("%s:%d", e.File, e.Line)
			if e.Unreachable {
				where += " (unreachable)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Kind, name, e.DescriptionState, e.SchemaKind, where, oneLine(desc, 80))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if s.Sampling != nil {
		fmt.Fprintf(ew, "\nsampling    %s:%d\n", s.Sampling.File, s.Sampling.Line)
	}
	if s.Elicitation != nil {
		fmt.Fprintf(ew, "elicitation %s:%d\n", s.Elicitation.File, s.Elicitation.Line)
	}
	if len(s.AdvertisedTools) > 0 {
		var names []string
		for _, a := range s.AdvertisedTools {
			if a.Stale {
				names = append(names, a.Name+" ("+a.Source+", stale: "+staleReason(a.StaleBy)+")")
				continue
			}
			names = append(names, a.Name+" ("+a.Source+")")
		}
		fmt.Fprintf(ew, "\nadvertised  %s\n", strings.Join(names, ", "))
	}
	if s.Reach != nil {
		fmt.Fprintf(ew, "reach       %s\n", reachDetail(s.Reach))
	}
	if d := s.DelegatesTo; d != nil {
		fmt.Fprintf(ew, "delegates   %s:%s %s (%s:%d)\n", d.Registry, d.Name, d.Specifier, d.Evidence.File, d.Evidence.Line)
	}
	for _, r := range s.ReassignedAtRuntime {
		fmt.Fprintf(ew, "reassigned  %s:%d %s\n", r.File, r.Line, oneLine(r.Detail, 80))
	}
	for _, v := range s.Vendored {
		fmt.Fprintf(ew, "vendored    %s %s %s\n", v.File, v.Library, v.Reason)
	}
	if len(s.Capabilities) > 0 {
		fmt.Fprintln(ew, "\ncapabilities (what the code can reach, as written; methodology §20):")
		tw := tabwriter.NewWriter(ew, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KIND\tTAG\tTARGET\tCOUNT\tWHERE")
		for _, c := range s.Capabilities {
			where := fmt.Sprintf("%s:%d", c.File, c.Line)
			if c.Bundle {
				where += " (bundle)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", c.Kind, c.Tag, oneLine(c.Target, 50), c.Count, where)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if s.CapabilitiesOmitted > 0 {
			fmt.Fprintf(ew, "  (%d more beyond the row cap)\n", s.CapabilitiesOmitted)
		}
	}
	if len(s.Unresolved) > 0 {
		fmt.Fprintln(ew, "\nunresolved:")
		for _, u := range s.Unresolved {
			fmt.Fprintf(ew, "  %s:%d %s\n", u.File, u.Line, u.Reason)
		}
	}
	return ew.err
}

func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	s = strings.ReplaceAll(s, "\t", " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n]) + "…"
	}
	return s
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
