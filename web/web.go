// Package web holds the website's templates and static assets, embedded so
// the binary serves them with no build step. It has no logic: the handlers in
// internal/httpapi prepare every value a template shows, and the templates
// only lay it out. No template may contain a script or an inline style (the
// Content-Security-Policy forbids both).
package web

import "embed"

// Templates holds templates/*.html: layout.html defines the page frame, and
// each other file defines the "title" and "main" blocks of one page.
//
//go:embed templates/*.html
var Templates embed.FS

// Static holds static/, served under /static/.
//
//go:embed static
var Static embed.FS
