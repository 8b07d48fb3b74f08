package rundir

import "encoding/json"

// MarshalJSON writes cpu_ms and cpu_ms_limit together whenever the CPU
// part of the budget applied (CPUMsLimit > 0), cpu_ms even when it is 0,
// so two rows held to a CPU budget always carry the same members; a row
// with no CPU limit is written as before 2.3.11, with the four wall and
// memory members only.
func (b Budget) MarshalJSON() ([]byte, error) {
	type plain Budget
	if b.CPUMsLimit <= 0 {
		return json.Marshal(plain(b))
	}
	return json.Marshal(struct {
		WallMs        int64 `json:"wall_ms"`
		RSSBytes      int64 `json:"rss_bytes"`
		WallMsLimit   int64 `json:"wall_ms_limit"`
		RSSBytesLimit int64 `json:"rss_bytes_limit"`
		CPUMs         int64 `json:"cpu_ms"`
		CPUMsLimit    int64 `json:"cpu_ms_limit"`
	}{b.WallMs, b.RSSBytes, b.WallMsLimit, b.RSSBytesLimit, b.CPUMs, b.CPUMsLimit})
}
