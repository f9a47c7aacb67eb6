package images

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

func pngURI(t testing.TB, m image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestLoadPNGWithAlpha(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	m.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 128})
	m.SetNRGBA(1, 0, color.NRGBA{0, 255, 0, 255})
	img, err := Load(pngURI(t, m))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Raster
	if r == nil || r.Kind != draw.Raster || r.Width != 3 || r.Height != 2 || r.Components != 3 {
		t.Fatalf("raster = %+v", r)
	}
	if img.Width != 3 || img.Height != 2 {
		t.Errorf("intrinsic size %vx%v, want 3x2", img.Width, img.Height)
	}
	if len(r.Alpha) != 6 || r.Alpha[0] != 128 || r.Alpha[1] != 255 || r.Alpha[2] != 0 {
		t.Errorf("alpha = %v", r.Alpha)
	}
	if !bytes.Equal(r.Data[:6], []byte{255, 0, 0, 0, 255, 0}) {
		t.Errorf("data = %v", r.Data[:6])
	}
}

func TestLoadRejectsOtherURLs(t *testing.T) {
	for _, src := range []string{"http://example.com/a.png", "file:///etc/passwd", "logo.png", ""} {
		if _, err := Load(src); !errors.Is(err, ErrNotDataURI) {
			t.Errorf("Load(%q) = %v, want ErrNotDataURI", src, err)
		}
	}
}
