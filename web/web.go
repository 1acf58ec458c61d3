// Package web is the page friends play on: plain ES modules, SVG and CSS,
// with no build step, embedded into the binary.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var static embed.FS

// Files are the page's files.
var Files, _ = fs.Sub(static, "static")

// Handler serves the page: the files themselves, and index.html for every
// page route (the lobby at /, a match at /m/ID, the editor at /edit).
func Handler() http.Handler {
	files := http.FileServer(http.FS(Files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path == "/edit" || strings.HasPrefix(r.URL.Path, "/m/") {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, Files, "index.html")
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
