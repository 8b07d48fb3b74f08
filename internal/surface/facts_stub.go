package surface

import "github.com/attestari/attestari/internal/rundir"

type pyFacts struct{ notServer []rundir.Site }
type pyContext struct{}

func buildPyFacts(f *file) *pyFacts                                   { return &pyFacts{} }
func (x *extractor) pySites(f *file)                                  {}
func (x *extractor) evalPy(f *file, n nid, e *env) val                { return unknown("python") }
func (x *extractor) callPy(fn val, args []thunk, e *env) val          { return unknown("python") }
func (x *extractor) pyDictGet(v val, key string, e *env) (val, bool)  { return unknown("python"), true }
func (x *extractor) pyElements(v val, e *env) ([]val, bool)           { return nil, false }
func (x *extractor) pyDictEntries(v val, e *env) ([]val, []val, bool) { return nil, nil, false }
func (x *extractor) pyModuleAttr(f *file, name string) (val, bool)    { return unknown("python"), true }
func (x *extractor) pyInstances(s scopeRef, e *env) ([]env, string, *scopeRef) {
	return nil, "python", nil
}
func pyJSONLiteral(f *file, n nid) (string, bool) { return "", false }
