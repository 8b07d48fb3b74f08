package api

import "time"

// Pass is GET /pass: the counts of the latest publication, the pass the
// website shows as "The latest pass". Every count is over the package
// versions that publication holds (the selected sample of its run,
// methodology §4), never over a registry.
type Pass struct {
	RunID              string    `json:"run_id"`
	PublicationID      string    `json:"publication_id"`
	PublishedAt        time.Time `json:"published_at"`
	RunStartedAt       time.Time `json:"run_started_at"`
	MethodologyVersion string    `json:"methodology_version"`
	ExtractorVersion   string    `json:"extractor_version"`
	// Packages is the number of package versions the publication holds.
	Packages  int            `json:"packages"`
	ByVerdict map[string]int `json:"by_verdict"`
	ByGrade   map[string]int `json:"by_grade"`
	// ByReason counts the refused versions carrying each code, most
	// frequent first; a version refused for two reasons is in both.
	ByReason []PassReason `json:"by_reason"`
	// FindingsByStatus counts the published findings by public status
	// (withheld findings are never published).
	FindingsByStatus map[string]int `json:"findings_by_status"`
	Labels
}

// PassReason is one reason code's refusals in a pass.
type PassReason struct {
	Code     string `json:"code"`
	Packages int    `json:"packages"`
}
