package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Day 0 notices (docs/methodology.md §19; docs/publish-contract.md, "The
// disclosure clock"). When a finding is decided confirmed at high or medium,
// a notice for the registry's security contact and one for the publisher's
// contact are written under runs/<id>/notices/. They are files for an
// operator: nothing here sends anything anywhere.

// NoticesDir is the notices' directory inside a run directory, and
// NoticeIndexFile the index inside it.
const (
	NoticesDir      = "notices"
	NoticeIndexFile = "index.json"
	NoticeSchema    = "attestari.notices/v1"
)

// Notice recipients.
const (
	RecipientRegistry  = "registry"
	RecipientPublisher = "publisher"
)

// DisclosurePeriod is the time from day 0 to publication (§19).
const DisclosurePeriod = 30 * 24 * time.Hour

// NoticeIndex is notices/index.json: one entry per noticed finding. It
// holds contact addresses and is never published.
type NoticeIndex struct {
	Schema  string        `json:"schema"`
	Entries []NoticeEntry `json:"entries"`
}

// NoticeEntry records the notices written for one finding. WrittenAt is
// that finding's day 0.
type NoticeEntry struct {
	FindingID          string            `json:"finding_id"`
	Package            rundir.PackageRef `json:"package"`
	Check              string            `json:"check"`
	Tag                string            `json:"tag"`
	SeverityDecided    string            `json:"severity_decided"`
	EvidenceSHA256     string            `json:"evidence_sha256"`
	ExcerptSHA256      string            `json:"excerpt_sha256"`
	MethodologyVersion string            `json:"methodology_version"`
	MethodologySHA256  string            `json:"methodology_sha256"`
	DecidedAt          time.Time         `json:"decided_at"`
	WrittenAt          time.Time         `json:"written_at"`
	PublishNotBefore   time.Time         `json:"publish_not_before"`
	Notices            []NoticeFile      `json:"notices"`
}

// NoticeFile is one written notice.
type NoticeFile struct {
	Recipient     string   `json:"recipient"`
	File          string   `json:"file"` // relative to the notices directory
	Contact       string   `json:"contact,omitempty"`
	ContactSource string   `json:"contact_source"`
	OtherContacts []string `json:"other_contacts,omitempty"`
}

// NoticeOptions configure Notices.
type NoticeOptions struct {
	// Blobs is the evidence store, read for the publisher's contact.
	Blobs policy.Blobs
	// RegistryContacts maps a registry ("npm", "pypi") to its security
	// contact, from configuration (RegistryContactsFromEnv): the project
	// names no registry's address in code.
	RegistryContacts map[string]string
}

// EnvSecurityContact is the environment variable naming a registry's
// security contact: ATTESTARI_NPM_SECURITY_CONTACT, ATTESTARI_PYPI_SECURITY_CONTACT.
func EnvSecurityContact(registry string) string {
	return "ATTESTARI_" + strings.ToUpper(registry) + "_SECURITY_CONTACT"
}

// RegistryContactsFromEnv reads the security contacts of both registries
// through getenv (os.Getenv in the CLI).
func RegistryContactsFromEnv(getenv func(string) string) map[string]string {
	out := map[string]string{}
	for _, r := range []string{vocab.RegistryNPM, vocab.RegistryPyPI} {
		if v := strings.TrimSpace(getenv(EnvSecurityContact(r))); v != "" {
			out[r] = v
		}
	}
	return out
}

// NeedsNotice reports whether a decided finding gets day-0 notices:
// confirmed (D1) at high or medium. Noted, withheld, low, out-of-scope and
// refused packages' findings get none.
func NeedsNotice(f policy.FindingRow) bool {
	return f.Decision == vocab.DecisionConfirmed && (f.SeverityDecided == vocab.SeverityHigh || f.SeverityDecided == vocab.SeverityMedium)
}

// ReadNoticeIndex reads runDir/notices/index.json; a run with no notices
// has an empty index.
func ReadNoticeIndex(runDir string) (*NoticeIndex, error) {
	idx := &NoticeIndex{Schema: NoticeSchema, Entries: []NoticeEntry{}}
	_, err := rundir.ReadJSON(filepath.Join(runDir, NoticesDir), NoticeIndexFile, idx)
	if errors.Is(err, rundir.ErrMissing) {
		return idx, nil
	}
	if err != nil {
		return nil, fmt.Errorf("publish: notices of %s: %w", runDir, err)
	}
	if idx.Schema != NoticeSchema {
		return nil, fmt.Errorf("publish: notices of %s: schema %q, this build reads %q", runDir, idx.Schema, NoticeSchema)
	}
	return idx, nil
}

// entry returns the index's entry for a finding as decided now: the same id,
// severity and excerpt. A re-decided finding that changed needs a new notice.
func (idx *NoticeIndex) entry(f policy.FindingRow) (NoticeEntry, bool) {
	for _, e := range idx.Entries {
		if e.FindingID == f.ID && e.SeverityDecided == f.SeverityDecided && e.ExcerptSHA256 == f.ExcerptSHA256 && e.Package == f.Package {
			return e, true
		}
	}
	return NoticeEntry{}, false
}

// Notices writes the day-0 notices of d under runDir/notices/ at now, for
// every finding NeedsNotice and no notice of which exists yet, and returns
// the index. A finding noticed before keeps its notice and its day 0: running
// Notices again (a re-decided run, a resumed cycle) writes nothing new for it.
func Notices(ctx context.Context, runDir string, d *policy.Decisions, now time.Time, opts NoticeOptions) (*NoticeIndex, error) {
	if d == nil {
		return nil, errors.New("publish: notices: no decisions")
	}
	idx, err := ReadNoticeIndex(runDir)
	if err != nil {
		return nil, err
	}
	now = now.UTC()
	var records []rundir.Record
	if _, err := rundir.ReadJSON(runDir, rundir.RecordsFile, &records); err != nil && !errors.Is(err, rundir.ErrMissing) {
		return nil, fmt.Errorf("publish: notices: %w", err)
	}
	dir := filepath.Join(runDir, NoticesDir)
	wrote := false
	for _, f := range d.Findings {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("publish: notices: %w", err)
		}
		if !NeedsNotice(f) {
			continue
		}
		if _, ok := idx.entry(f); ok {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("publish: notices: %w", err)
		}
		e := NoticeEntry{
			FindingID: f.ID, Package: f.Package, Check: f.Check, Tag: f.Tag, SeverityDecided: f.SeverityDecided,
			EvidenceSHA256: f.EvidenceSHA256, ExcerptSHA256: f.ExcerptSHA256,
			MethodologyVersion: f.MethodologyVersion, MethodologySHA256: f.MethodologySHA256,
			DecidedAt: f.DecidedAt, WrittenAt: now, PublishNotBefore: now.Add(DisclosurePeriod),
		}
		if e.DecidedAt.After(now) {
			// Day 0 is never before the decision it reports.
			e.WrittenAt, e.PublishNotBefore = e.DecidedAt, e.DecidedAt.Add(DisclosurePeriod)
		}
		reg := NoticeFile{Recipient: RecipientRegistry, File: noticeName(f.ID, RecipientRegistry)}
		if c := opts.RegistryContacts[f.Package.Registry]; c != "" {
			reg.Contact, reg.ContactSource = c, "configuration ("+EnvSecurityContact(f.Package.Registry)+")"
		} else {
			reg.ContactSource = "none: no security contact is configured for registry " + f.Package.Registry + " (set " + EnvSecurityContact(f.Package.Registry) + ")"
		}
		pub := NoticeFile{Recipient: RecipientPublisher, File: noticeName(f.ID, RecipientPublisher)}
		contacts := publisherContacts(ctx, opts.Blobs, records, f.Package)
		if len(contacts) > 0 {
			pub.Contact, pub.ContactSource = contacts[0].address, contacts[0].source
			for _, c := range contacts[1:] {
				pub.OtherContacts = append(pub.OtherContacts, c.address+" ("+c.source+")")
			}
		} else {
			pub.ContactSource = "none: neither the registry record nor the repository records of this run name a contact address"
		}
		for _, nf := range []NoticeFile{reg, pub} {
			if err := rundir.WriteFileAtomic(filepath.Join(dir, nf.File), noticeMarkdown(f, e, nf)); err != nil {
				return nil, fmt.Errorf("publish: notices: %w", err)
			}
		}
		e.Notices = []NoticeFile{reg, pub}
		idx.Entries = slicesDeleteEntry(idx.Entries, f.ID)
		idx.Entries = append(idx.Entries, e)
		wrote = true
	}
	if wrote {
		if err := rundir.WriteJSON(dir, NoticeIndexFile, idx); err != nil {
			return nil, fmt.Errorf("publish: notices: %w", err)
		}
	}
	return idx, nil
}

// slicesDeleteEntry drops an older entry of the same finding (superseded by
// a notice of the finding as decided now).
func slicesDeleteEntry(es []NoticeEntry, id string) []NoticeEntry {
	out := es[:0]
	for _, e := range es {
		if e.FindingID != id {
			out = append(out, e)
		}
	}
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// noticeName is a file name for a finding id: the id where it is safe, else
// a cleaned id with a short hash so two ids never share a file.
func noticeName(id, recipient string) string {
	safe := unsafeName.ReplaceAllString(id, "_")
	if safe != id || strings.HasPrefix(safe, ".") || len(safe) > 100 {
		if len(safe) > 80 {
			safe = safe[:80]
		}
		safe = strings.TrimLeft(safe, ".") + "-" + vocab.SHA256Hex([]byte(id))[:12]
	}
	return safe + "." + recipient + ".md"
}

type contact struct{ address, source string }

// publisherContacts reads the package's registry and repository records for
// contact addresses, most specific first: the bug-report address, the
// author, the maintainers, the publishing account, then the repository
// owner's public address.
func publisherContacts(ctx context.Context, blobs policy.Blobs, records []rundir.Record, ref rundir.PackageRef) []contact {
	var out []contact
	seen := map[string]bool{}
	add := func(v any, source string) {
		s, _ := v.(string)
		for _, m := range reEmail.FindAllString(s, -1) {
			if !seen[strings.ToLower(m)] {
				seen[strings.ToLower(m)] = true
				out = append(out, contact{m, source})
			}
		}
	}
	fromPerson := func(v any, source string) {
		switch p := v.(type) {
		case string:
			add(p, source)
		case map[string]any:
			add(p["email"], source+".email")
		}
	}
	npmDoc := func(doc map[string]any, kind, prefix string) {
		if b, ok := doc["bugs"].(map[string]any); ok {
			add(b["email"], kind+" record, "+prefix+"bugs.email")
		}
		fromPerson(doc["author"], kind+" record, "+prefix+"author")
		if ms, ok := doc["maintainers"].([]any); ok {
			for _, m := range ms {
				fromPerson(m, kind+" record, "+prefix+"maintainers[]")
			}
		}
		fromPerson(doc["_npmUser"], kind+" record, "+prefix+"_npmUser")
	}
	order := []string{vocab.KindNPMVersion, vocab.KindNPMPackument, vocab.KindPyPIJSON, vocab.KindRepositoryOwner, vocab.KindRepository}
	for _, kind := range order {
		for _, r := range records {
			if r.Package != ref || r.Kind != kind || r.SHA256 == "" || blobs == nil {
				continue
			}
			b, err := blobs.Get(ctx, r.SHA256)
			if err != nil || vocab.SHA256Hex(b) != r.SHA256 {
				continue
			}
			var doc map[string]any
			if json.Unmarshal(b, &doc) != nil {
				continue
			}
			switch kind {
			case vocab.KindNPMVersion:
				npmDoc(doc, kind, "")
			case vocab.KindNPMPackument:
				if vs, ok := doc["versions"].(map[string]any); ok {
					if v, ok := vs[ref.Version].(map[string]any); ok {
						npmDoc(v, kind, "versions["+ref.Version+"].")
					}
				}
				npmDoc(doc, kind, "")
			case vocab.KindPyPIJSON:
				if info, ok := doc["info"].(map[string]any); ok {
					add(info["maintainer_email"], kind+" record, info.maintainer_email")
					add(info["author_email"], kind+" record, info.author_email")
				}
			default:
				add(doc["email"], kind+" record, email")
			}
		}
	}
	return out
}

// fence returns a code fence longer than any run of backticks in s.
func fence(s string) string {
	n, run := 3, 0
	for _, c := range s {
		if c == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

func noticeMarkdown(f policy.FindingRow, e NoticeEntry, nf NoticeFile) []byte {
	var b strings.Builder
	to := nf.Contact
	if to == "" {
		to = "no contact known: " + strings.TrimPrefix(nf.ContactSource, "none: ")
	}
	who := "the security contact of the " + f.Package.Registry + " registry"
	if nf.Recipient == RecipientPublisher {
		who = "the publisher of " + f.Package.Name
	}
	fmt.Fprintf(&b, "# Notice of a finding about %s\n\n", f.Package.Key())
	fmt.Fprintf(&b, "NOT SENT. This file is a notice for an operator to send; Attestari sends nothing.\n\n")
	fmt.Fprintf(&b, "- To: %s\n- Recipient: %s\n", to, who)
	if nf.Contact != "" {
		fmt.Fprintf(&b, "- Contact taken from: %s\n", nf.ContactSource)
	}
	for _, o := range nf.OtherContacts {
		fmt.Fprintf(&b, "- Other contact: %s\n", o)
	}
	fmt.Fprintf(&b, "- Day 0 (written): %s\n- Publication not before (day 30): %s\n\n", e.WrittenAt.Format(time.RFC3339), e.PublishNotBefore.Format(time.RFC3339))
	b.WriteString("## The finding\n\n")
	fmt.Fprintf(&b, "- Finding id: %s\n- Subject: %s %s version %s\n- Check: %s, tag %s\n- Title: %s\n", f.ID, f.Package.Registry, f.Package.Name, f.Package.Version, f.Check, f.Tag, f.Title)
	fmt.Fprintf(&b, "- Severity: %s as decided (%s as assigned by the check), decision %s by rule %s\n", f.SeverityDecided, f.SeverityAssigned, f.Decision, f.Rule)
	if f.SurfaceKind != "" {
		fmt.Fprintf(&b, "- Entry: %s %s\n", f.SurfaceKind, f.EntryName)
	}
	b.WriteString("\n## Its evidence\n\n")
	fmt.Fprintf(&b, "- Stored evidence (SHA-256): %s\n- Path: %s\n", f.Evidence.SHA256, f.Evidence.Path)
	if f.Evidence.LineStart > 0 {
		fmt.Fprintf(&b, "- Lines: %d to %d\n", f.Evidence.LineStart, f.Evidence.LineEnd)
	}
	fmt.Fprintf(&b, "- Excerpt (SHA-256 %s), exactly as it occurs in the evidence:\n\n", f.ExcerptSHA256)
	fn := fence(f.Evidence.Excerpt)
	fmt.Fprintf(&b, "%s\n%s\n%s\n\n", fn, f.Evidence.Excerpt, fn)
	b.WriteString("## The rules it was decided under\n\n")
	fmt.Fprintf(&b, "- Methodology %s (document SHA-256 %s), policy %s\n- Decided at %s by code %s\n\n", f.MethodologyVersion, f.MethodologySHA256, f.Policy, f.DecidedAt.Format(time.RFC3339), f.CodeCommit)
	b.WriteString("## What happens next\n\n")
	fmt.Fprintf(&b, "Under section 19 of the methodology this finding is published on or after %s, whether or not anyone answers. ", e.PublishNotBefore.Format("2006-01-02"))
	b.WriteString("Until then it goes to no one but the registry and the publisher. The publisher may dispute it at any time through the project's contact channel; ")
	fmt.Fprintf(&b, "the operator records the appeal against finding id %s, and an open appeal is published as such.\n", f.ID)
	return []byte(b.String())
}
