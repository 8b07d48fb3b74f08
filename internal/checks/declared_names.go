package checks

import "github.com/attestari/attestari/internal/checks/declared"

// The declared checks that do not run live in the leaf package
// internal/checks/declared; these names keep them reachable here.

// DeclaredCheck is declared.DeclaredCheck.
type DeclaredCheck = declared.DeclaredCheck

// The declared check ids are internal/vocab's (vocab.CheckUndeclaredNetworkCalls, ...).

// NotAssessed is declared.NotAssessed.
func NotAssessed() []DeclaredCheck { return declared.NotAssessed() }

// IsDeclaredNotRun is declared.IsDeclaredNotRun.
func IsDeclaredNotRun(id string) bool { return declared.IsDeclaredNotRun(id) }
