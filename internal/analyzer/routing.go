package analyzer

// RoutingSpan is one span of routing guidance inside a literal segment:
// byte offsets into the segment [Start, End) and the text between them.
type RoutingSpan struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// RoutingSpans transcribes the routing guidance the offline rules count in
// one literal segment: every sentence (split as Offline.Analyze splits
// them) that matches a routing pattern and no finding rule. Their number is
// exactly what Offline.Analyze adds to the entry's routing_guidance_count
// for this segment, so the transcription and the count never disagree. It
// is for the opt-in inventory pass (docs/inventory.md); nothing that
// decides reads it. The rules are OfflineRulesVersion's.
func RoutingSpans(segment string) []RoutingSpan {
	var out []RoutingSpan
	for _, r := range sentences(segment) {
		sent := segment[r[0]:r[1]]
		if _, ok := classify(sent); ok {
			continue
		}
		if isRouting(sent) {
			out = append(out, RoutingSpan{Start: r[0], End: r[1], Text: sent})
		}
	}
	return out
}
