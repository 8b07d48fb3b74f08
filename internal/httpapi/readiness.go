package httpapi

import (
	"net/http"
	"sync/atomic"
)

// watchState is what GET /readyz knows of the loader's notifications: a
// process behind a load balancer is ready only while the database answers
// and, once its owner wires a watcher (PublicationsChanged), while that
// watcher listens. A process that does not hear the channel cannot cache,
// and with read replicas reads everything from the primary; it still
// answers exactly, but it is taken out of rotation until it hears again, so
// a load balancer sends traffic to processes whose invalidation is live.
// A server nobody wires a watcher to (tests, tools) is ready on the
// database alone, as before.
type watchState struct{ v atomic.Int32 }

const (
	watchNone = iota // never told: no watcher
	watchLive        // listening
	watchLost        // told it stopped listening
)

func (w *watchState) set(live bool) {
	if live {
		w.v.Store(watchLive)
	} else {
		w.v.Store(watchLost)
	}
}

func (w *watchState) unready() *Problem {
	if w.v.Load() == watchLost {
		return &Problem{Status: http.StatusServiceUnavailable, Detail: "the database's publication notifications are not being heard", RetryAfter: 5}
	}
	return nil
}

func (w *watchState) body() map[string]string {
	b := map[string]string{"status": "ok", "database": "ok"}
	if w.v.Load() == watchLive {
		b["notifications"] = "heard"
	}
	return b
}
