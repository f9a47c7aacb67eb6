// Command pdfium-cid writes pdfium-cid.pdf: a membership card set by PDFium
// in Type 0 (CID-keyed, Identity-H) fonts, the way PDF editors and many
// server-side generators embed TrueType fonts. Run from this folder:
//
//	go run ./pdfium-cid
package main

import (
	"bytes"
	"log"
	"os"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
	"github.com/klippa-app/go-pdfium/webassembly"
)

func main() {
	pool, err := webassembly.Init(webassembly.Config{MinIdle: 1, MaxIdle: 1, MaxTotal: 1})
	if err != nil {
		log.Fatal(err)
	}
	p, err := pool.GetInstance(0)
	if err != nil {
		log.Fatal(err)
	}
	doc, err := p.FPDF_CreateNewDocument(&requests.FPDF_CreateNewDocument{})
	if err != nil {
		log.Fatal(err)
	}
	page, err := p.FPDFPage_New(&requests.FPDFPage_New{Document: doc.Document, PageIndex: 0, Width: 420, Height: 298})
	if err != nil {
		log.Fatal(err)
	}
	ref := requests.Page{ByReference: &page.Page}
	font := func(path string) *requests.FPDFPageObj_CreateTextObj {
		data, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		f, err := p.FPDFText_LoadFont(&requests.FPDFText_LoadFont{Document: doc.Document, Data: data, FontType: enums.FPDF_FONT_TRUETYPE, CID: true})
		if err != nil {
			log.Fatal(err)
		}
		return &requests.FPDFPageObj_CreateTextObj{Document: doc.Document, Font: f.Font}
	}
	sans := font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
	bold := font("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
	serif := font("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf")
	put := func(f *requests.FPDFPageObj_CreateTextObj, size float32, x, y float32, color structs.FPDF_COLOR, text string) {
		f.FontSize = size
		obj, err := p.FPDFPageObj_CreateTextObj(f)
		if err != nil {
			log.Fatal(err)
		}
		if _, err := p.FPDFText_SetText(&requests.FPDFText_SetText{PageObject: obj.PageObject, Text: text}); err != nil {
			log.Fatal(err)
		}
		p.FPDFPageObj_SetFillColor(&requests.FPDFPageObj_SetFillColor{PageObject: obj.PageObject, FillColor: color})
		p.FPDFPageObj_Transform(&requests.FPDFPageObj_Transform{PageObject: obj.PageObject, Transform: structs.FPDF_FS_MATRIX{A: 1, D: 1, E: x, F: y}})
		p.FPDFPage_InsertObject(&requests.FPDFPage_InsertObject{Page: ref, PageObject: obj.PageObject})
	}
	band, _ := p.FPDFPageObj_CreateNewRect(&requests.FPDFPageObj_CreateNewRect{X: 0, Y: 238, W: 420, H: 60})
	p.FPDFPageObj_SetFillColor(&requests.FPDFPageObj_SetFillColor{PageObject: band.PageObject, FillColor: structs.FPDF_COLOR{R: 120, G: 30, B: 60, A: 255}})
	p.FPDFPath_SetDrawMode(&requests.FPDFPath_SetDrawMode{PageObject: band.PageObject, FillMode: enums.FPDF_FILLMODE_ALTERNATE})
	p.FPDFPage_InsertObject(&requests.FPDFPage_InsertObject{Page: ref, PageObject: band.PageObject})
	white := structs.FPDF_COLOR{R: 255, G: 255, B: 255, A: 255}
	ink := structs.FPDF_COLOR{R: 30, G: 30, B: 40, A: 255}
	put(bold, 20, 24, 260, white, "Κλαμπ Κολύμβησης · Swim Club")
	put(sans, 11, 24, 200, ink, "Member:")
	put(bold, 14, 110, 200, ink, "Ελένη Παπαδοπούλου")
	put(sans, 11, 24, 170, ink, "Number:")
	put(sans, 11, 110, 170, ink, "SC-2026-0457")
	put(sans, 11, 24, 140, ink, "Valid until:")
	put(sans, 11, 110, 140, ink, "31 December 2027")
	put(serif, 10, 24, 40, structs.FPDF_COLOR{R: 90, G: 90, B: 90, A: 255}, "Present this card at the pool entrance.")
	if _, err := p.FPDFPage_GenerateContent(&requests.FPDFPage_GenerateContent{Page: ref}); err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := p.FPDF_SaveAsCopy(&requests.FPDF_SaveAsCopy{Document: doc.Document, FileWriter: &buf}); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("pdfium-cid.pdf", buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
