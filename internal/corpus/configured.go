package corpus

import (
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// listedAsProbed is the part of a surface's entries the probe's server was
// configured to list. An entry off by default (rundir.Entry.OffByDefault:
// registered only under a configuration other than the default, methodology
// §5.2) is compared as listed when its reading depends on a value the probe
// set: an environment variable of the probe's environment (the dummy set and
// the truth's extra_env) or a command-line option among the truth's args.
// Otherwise it is compared as not listed, which is what the default
// configuration decides. The probe's environment is not the default
// configuration (it sets dummy credentials), so this is how the two are
// measured against each other, never a rule of the extractor.
//
// An entry marked unreachable (registered in a module the package's run
// does not load, or in a function nothing it runs calls, methodology
// §5.2) is compared as not listed, since 2.3.8: it is left out of the
// attested manifest as an entry off by default is, so precision measures
// the list the manifest attests. EvaluateStaleAndReach still counts every
// such tool the running server lists (UnreachableListed, which must be
// empty) and the extras the marks explain.
func listedAsProbed(t Truth, es []rundir.Entry) []rundir.Entry {
	set := map[string]bool{}
	for k := range DummyEnv() {
		set[k] = true
	}
	for _, k := range t.ExtraEnv {
		set[k] = true
	}
	out := make([]rundir.Entry, 0, len(es))
	for _, e := range es {
		if e.Unreachable {
			continue
		}
		if !e.OffByDefault() || probeSetsConfig(t, set, e.Configuration) {
			out = append(out, e)
		}
	}
	return out
}

// probeSetsConfig reports whether the probe set one of the values read.
func probeSetsConfig(t Truth, env map[string]bool, reads []rundir.ConfigRead) bool {
	for _, r := range reads {
		switch r.Source {
		case "env":
			if env[r.Name] {
				return true
			}
		case "cli":
			for _, a := range t.Args {
				if a == r.Name || strings.HasPrefix(a, r.Name+"=") {
					return true
				}
			}
		}
	}
	return false
}
