// gate_map.json: the gate map of the methodology in force, as a decision
// writes it beside its rows and the store loads it.

package decision

import (
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// GateMapDoc is gate_map.json's shape (openapi.yaml GateMap).
type GateMapDoc struct {
	MethodologyVersion string            `json:"methodology_version"`
	Codes              []vocab.GateEntry `json:"codes"`
}

// ExportGateMap returns the bytes of gate_map.json: the map of the
// methodology in force, encoded like every run file.
func ExportGateMap() []byte {
	b, err := rundir.Marshal(GateMapDoc{MethodologyVersion: methodology.Version, Codes: vocab.GateMap})
	if err != nil {
		// Marshal of strings cannot fail; a failure is a build defect.
		panic("decision: gate map does not encode: " + err.Error())
	}
	return b
}
