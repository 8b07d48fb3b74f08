package httpapi

import (
	"errors"
	"net/http"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/vocab"
)

// The latest pass (issue 21): GET /pass, and the website's page of the
// same counts, "The latest pass", linked from the home page.

func (s *Server) getPass(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	p, err := rd.LatestPass(r.Context())
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	return writeJSON(w, http.StatusOK, p)
}

type passCount struct {
	Label, Code, URL string
	N                int
}

type passView struct {
	Common    common
	Pass      *api.Pass
	Published string
	Started   string
	Verdicts  []passCount
	Grades    []passCount
	Reasons   []passCount
	Findings  []passCount
}

// passVerdicts are the verdicts in the order the page lists them, with
// the words the grades page uses.
var passVerdicts = []passCount{
	{Label: "Graded", Code: vocab.VerdictGraded},
	{Label: "Not graded (refused)", Code: vocab.VerdictNotGradeable},
	{Label: "Out of scope (not a server)", Code: vocab.VerdictOutOfScope},
}

var passFindingStatuses = []passCount{
	{Label: "Confirmed", Code: vocab.StatusConfirmed},
	{Label: "Noted", Code: vocab.StatusNoted},
	{Label: "Under appeal", Code: vocab.StatusUnderAppeal},
	{Label: "Withdrawn on appeal", Code: vocab.StatusWithdrawnOnAppeal},
}

func (s *Server) passPage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	v := passView{Common: s.common("pass")}
	p, err := rd.LatestPass(r.Context())
	switch {
	case errors.Is(err, vocab.ErrNotFound):
		// Nothing published yet: the page says so.
	case err != nil:
		return readError(err)
	default:
		v.Pass, v.Published, v.Started = p, date(p.PublishedAt), date(p.RunStartedAt)
		v.Common.Label.add(p.Labels, p.PublishedAt)
		for _, c := range passVerdicts {
			c.N = p.ByVerdict[c.Code]
			v.Verdicts = append(v.Verdicts, c)
		}
		for _, g := range []string{"A", "B", "C", "F"} {
			v.Grades = append(v.Grades, passCount{Label: "Grade " + g, Code: g, N: p.ByGrade[g]})
		}
		for _, rc := range p.ByReason {
			v.Reasons = append(v.Reasons, passCount{Code: rc.Code, N: rc.Packages, URL: "/gate-map#" + rc.Code})
		}
		for _, c := range passFindingStatuses {
			c.N = p.FindingsByStatus[c.Code]
			v.Findings = append(v.Findings, c)
		}
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	s.renderPage(w, r, http.StatusOK, "pass", v)
	return nil
}
