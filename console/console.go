package console

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"strings"
	"sync"
)

//go:embed static
var static embed.FS

// Asset is one embedded file, ready to serve.
type Asset struct {
	Body        []byte
	ContentType string
	// ETag validates a cached copy; assets are served with no-cache so a
	// node's upgrade is seen at once and an unchanged file costs a 304.
	ETag string
	// Gzip is Body compressed, for a browser that accepts gzip; nil for a
	// file too small or too dense to gain from it.
	Gzip []byte
}

// gzipFrom is the size from which an asset is also kept gzipped: the
// editor's bundle is about 390 KB and 130 KB compressed.
const gzipFrom = 1024

func compressed(b []byte) []byte {
	if len(b) < gzipFrom {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	if buf.Len() > len(b)*9/10 {
		return nil
	}
	return buf.Bytes()
}

var (
	loadOnce sync.Once
	assets   map[string]Asset
)

func load() {
	assets = map[string]Asset{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) {
		case ".js", ".mjs":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		case ".html":
			ct = "text/html; charset=utf-8"
		case ".svg":
			ct = "image/svg+xml"
		}
		assets[strings.TrimPrefix(p, "static/")] = Asset{Body: b, ContentType: ct, ETag: `"` + hex.EncodeToString(sum[:8]) + `"`, Gzip: compressed(b)}
		return nil
	})
	if err != nil {
		panic("console: embedded files unreadable: " + err.Error())
	}
}

// Lookup returns the asset at name, a path under /assets/ without that prefix.
func Lookup(name string) (Asset, bool) {
	loadOnce.Do(load)
	if name == "index.html" {
		return Asset{}, false // the shell is served at page paths only
	}
	a, ok := assets[name]
	return a, ok
}

// Shell returns the application's HTML shell, which every page path answers.
func Shell() Asset {
	loadOnce.Do(load)
	return assets["index.html"]
}

// reserved are the first path segments that are not pages: the API, the
// operator API, downloads, the console's own routes, assets and probes.
var reserved = map[string]bool{"v1": true, "admin": true, "files": true, "console": true, "assets": true,
	"healthz": true, "readyz": true, "metrics": true}

// IsPage reports whether a GET of path is a page of the application, which
// the shell answers and the application's router draws.
func IsPage(p string) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return !reserved[first]
}

// Serves reports whether the console answers a GET of p: a page or an asset.
func Serves(p string) bool {
	if name, ok := strings.CutPrefix(p, "/assets/"); ok {
		_, found := Lookup(name)
		return found
	}
	return IsPage(p)
}
