package rundir

import (
	"encoding/json"
	"testing"
)

// A row held to a CPU budget carries cpu_ms and cpu_ms_limit, cpu_ms even
// at 0; a row without one is encoded byte for byte as before 2.3.11; both
// read back to the same values.
func TestBudgetCPUMembers(t *testing.T) {
	for _, tc := range []struct {
		b    Budget
		want string
	}{
		{Budget{WallMs: 5, RSSBytes: 7, WallMsLimit: 60000, RSSBytesLimit: 1 << 30},
			`{"wall_ms":5,"rss_bytes":7,"wall_ms_limit":60000,"rss_bytes_limit":1073741824}`},
		{Budget{WallMs: 5, RSSBytes: 7, WallMsLimit: 1200000, RSSBytesLimit: 1 << 30, CPUMsLimit: 120000},
			`{"wall_ms":5,"rss_bytes":7,"wall_ms_limit":1200000,"rss_bytes_limit":1073741824,"cpu_ms":0,"cpu_ms_limit":120000}`},
		{Budget{WallMs: 5, RSSBytes: 7, WallMsLimit: 1200000, RSSBytesLimit: 1 << 30, CPUMs: 4, CPUMsLimit: 120000},
			`{"wall_ms":5,"rss_bytes":7,"wall_ms_limit":1200000,"rss_bytes_limit":1073741824,"cpu_ms":4,"cpu_ms_limit":120000}`},
	} {
		got, err := json.Marshal(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("Marshal(%+v) = %s, want %s", tc.b, got, tc.want)
		}
		var back Budget
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if back != tc.b {
			t.Errorf("read back %+v, want %+v", back, tc.b)
		}
	}
}
