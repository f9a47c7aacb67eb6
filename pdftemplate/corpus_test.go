package pdftemplate

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// corpus is PDFs made by different producers (see testdata/corpus/README.md)
// and, for each, pieces to fill: the piece's text, the new value, and
// whether the embedded font has the value's glyphs ("embedded") or the
// value must be set in a substitute.
var corpus = []struct {
	file  string
	why   string
	fills [][3]string
}{
	{"chromium-invoice.pdf", "Chromium: CID TrueType subsets, a text object a glyph",
		[][3]string{{"INV-2026-0142", "INV-2026-0999", "embedded"}, {"Marlow Coffee Roasters Ltd", "Acme Ltd", "embedded"}}},
	{"corpus/latex-certificate.pdf", "pdfTeX: Type 1 fonts, ligatures, table cells in one TJ",
		[][3]string{{"Margaret Okonkwo-Hale", "Jonathan Price", "substitute"}, {"Grade: Distinction", "Grade: Merit", "substitute"}, {"Certificate no. CW-88213", "Certificate no. CW-90001", "substitute"}, {"Centre: Leeds", "Centre: Derby", "embedded"}}},
	{"corpus/ghostscript-rotated.pdf", "Ghostscript: Type 1C fonts, label and value in one TJ, a page with /Rotate 90",
		[][3]string{{"Consignee:", "Consignor:", "embedded"}, {"Borealis Timber AB", "Gothenburg Timber AB", "embedded"}, {"MV Skagen Star", "MV Nordic Pine", "substitute"}, {"MSKU 7739210", "CAIU 5512004", "substitute"}, {"20 ft standard", "40 ft reefer", "embedded"}}},
	{"corpus/libreoffice-letter.pdf", "LibreOffice: simple TrueType subsets, a table",
		[][3]string{{"GBP 78,500 per year", "GBP 87,250 per year", "embedded"}, {"Jonas Whitfield", "Ana Ribeiro", "substitute"}}},
	{"corpus/libreoffice-coloured.pdf", "LibreOffice: light text on coloured cells",
		[][3]string{{"Harbour Lights Festival", "Harbour Festival", "embedded"}, {"Saturday 12 June 2027, doors 18:30", "Sunday 13 June 2027, doors 19:00", "substitute"}, {"Gate C, Row 14, Seat 22", "Gate C, Row 12, Seat 41", "embedded"}}},
	{"corpus/pdfium-cid.pdf", "PDFium: Type 0 CID fonts with Identity-H, Greek, white on a coloured band",
		[][3]string{{"Ελένη Παπαδοπούλου", "Νίκος Γεωργίου", "embedded"}, {"SC-2026-0457", "SC-2026-0999", "embedded"}, {"Κλαμπ Κολύμβησης · Swim Club", "Όμιλος · Swim Club", "embedded"}}},
}

// TestCorpusRoundTrips fills pieces of every corpus PDF and checks what
// the issue asks of each: the pieces are found; text extraction shows the
// new values and not the old; every page renders pixel for pixel as
// before outside the filled pieces' boxes (with PDFium and with poppler);
// and each value is set in its original's size and colour, read back from
// the output's text layer.
func TestCorpusRoundTrips(t *testing.T) {
	e := testEngine(t)
	for _, c := range corpus {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(c.file, "corpus/"), ".pdf"), func(t *testing.T) {
			t.Log(c.why)
			orig := readFixture(t, c.file)
			a, err := e.Analyze(orig, DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			var fills []Fill
			pieces := map[int][]Piece{}
			for _, f := range c.fills {
				p, ok := findPiece(a, f[0])
				if !ok {
					t.Fatalf("no piece %q among %s", f[0], pieceTexts(a))
				}
				fills = append(fills, Fill{PieceID: p.ID, Text: f[1]})
				pieces[p.Page] = append(pieces[p.Page], p)
			}
			out, report, err := e.Fill(orig, fills, DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range report {
				t.Logf("%s: %s %v pt, substituted %v %s", r.PieceID, r.Font, r.Size, r.Substituted, r.Reason)
				p, _ := findPiece(a, c.fills[i][0])
				embedded := !r.Substituted && r.Font == p.Font
				if embedded != (c.fills[i][2] == "embedded") || r.Substituted && r.Reason == "" {
					t.Errorf("%q: report %+v, want it set in the %s font", c.fills[i][1], r, c.fills[i][2])
				}
			}

			before, after := pdfText(t, orig), pdfText(t, out)
			for _, f := range c.fills {
				if got := strings.Count(after, f[1]) - strings.Count(before, f[1]); got != 1 {
					t.Errorf("%q shows %d more times after the fill, want 1:\n%s", f[1], got, after)
				}
				if got := strings.Count(before, f[0]) - strings.Count(after, f[0]); got != 1 {
					t.Errorf("%q shows %d fewer times after the fill, want 1:\n%s", f[0], got, after)
				}
			}

			// A field's box is where its old text was and where its new
			// text is (a new glyph may reach further, as a J's hook does).
			for n, ps := range pieces {
				for i, p := range ps {
					for _, r := range report {
						if r.PieceID != p.ID || r.Box.W == 0 {
							continue
						}
						q := r.Box
						x2, y2 := max(p.Box.X+p.Box.W, q.X+q.W), max(p.Box.Y+p.Box.H, q.Y+q.H)
						ps[i].Box.X, ps[i].Box.Y = min(p.Box.X, q.X), min(p.Box.Y, q.Y)
						ps[i].Box.W, ps[i].Box.H = x2-ps[i].Box.X, y2-ps[i].Box.Y
					}
				}
				pb, err := e.PageImage(orig, n, 72, DefaultLimits)
				if err != nil {
					t.Fatal(err)
				}
				pa, err := e.PageImage(out, n, 72, DefaultLimits)
				if err != nil {
					t.Fatal(err)
				}
				comparePages(t, fmt.Sprintf("PDFium page %d", n), pb, pa, ps...)
				comparePages(t, fmt.Sprintf("poppler page %d", n), pageImageN(t, orig, n), pageImageN(t, out, n), ps...)
			}

			// The size is the original's, or smaller where the value is
			// wider in the substitute font than the space (DejaVu is
			// wider than Computer Modern), down to the floor.
			same := 0
			for i, f := range c.fills {
				p, _ := findPiece(a, f[0])
				r := report[i]
				st := textStyleOn(t, e, out, p.Page, f[1])
				if math.Abs(st.size-r.Size) > 0.05 || st.color != p.Color {
					t.Errorf("%q set at %v pt in %s; the report says %v pt, the original %q is %s", f[1], st.size, st.color, r.Size, f[0], p.Color)
				}
				if r.Size > p.Size || r.Size < round2(shrinkFloor(p.Size)) || r.Lines != 1 {
					t.Errorf("report %+v for a value about as long as %q at %v pt", r, f[0], p.Size)
				}
				if r.Size == p.Size {
					same++
				}
			}
			if same == 0 {
				t.Errorf("no value kept its original's size: %+v", report)
			}
		})
	}
}

func findPiece(a *Analysis, text string) (Piece, bool) {
	for _, p := range a.Pieces {
		if p.Text == text {
			return p, true
		}
	}
	return Piece{}, false
}

func pieceTexts(a *Analysis) string {
	var s []string
	for _, p := range a.Pieces {
		s = append(s, fmt.Sprintf("%q", p.Text))
	}
	return strings.Join(s, " ")
}
