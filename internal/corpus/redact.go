package corpus

import "regexp"

// The probe's diagnostics (npm's errors, a server's stderr) name hosts: the
// registry the npm client used, the services a server tried to reach. The
// project writes no such host down, so diagnostics are stored with every
// host replaced; what a server lists (descriptions, URIs) is stored verbatim,
// since that text is the truth being measured.
var (
	urlHost  = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)(?:[^/\s'"@]*@)?([A-Za-z0-9.-]+)`)
	bareHost = regexp.MustCompile(`\b(?:[A-Za-z0-9-]+\.)+(?:com|org|net|io|dev|ai|co|app|cloud|sh|so|biz|info|me|xyz|tech|us|uk|de|cn|jp)\b`)
)

// RedactHosts replaces the host of every URL in s, and every bare host name
// with a common top-level domain, by "<host>"; loopback addresses stay, so a
// refused connection to the probe's closed port still reads as one.
func RedactHosts(s string) string {
	s = urlHost.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlHost.FindStringSubmatch(m)
		if sub[2] == "127.0.0.1" || sub[2] == "localhost" {
			return m
		}
		return sub[1] + "<host>"
	})
	return bareHost.ReplaceAllString(s, "<host>")
}

// RedactDiagnostics applies RedactHosts to every diagnostic field of t (its
// error, stderr, skipped stdout and list errors), leaving what the server
// listed untouched. Truth files written before redaction existed are
// brought in line with it by `attestari-probe redact`.
func (t *Truth) RedactDiagnostics() {
	t.Error = RedactHosts(t.Error)
	t.StderrTail = RedactHosts(t.StderrTail)
	t.StdoutNoiseHead = RedactHosts(t.StdoutNoiseHead)
	for k, v := range t.Lists {
		v.Error = RedactHosts(v.Error)
		t.Lists[k] = v
	}
}
