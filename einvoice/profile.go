package einvoice

import (
	"fmt"
	"strings"
)

// Profile is a Factur-X / ZUGFeRD profile, or XRechnung in CII syntax. The
// levels are ordered: each profile carries what the one before it does.
type Profile int

// The profiles, from the least data to the most.
const (
	Minimum Profile = iota + 1
	BasicWL
	Basic
	EN16931
	Extended
	XRechnung // EN 16931 with the German CIUS (XRechnung 3.0)
)

var profileNames = map[Profile]string{
	Minimum: "MINIMUM", BasicWL: "BASIC WL", Basic: "BASIC", EN16931: "EN 16931", Extended: "EXTENDED", XRechnung: "XRECHNUNG",
}

// ProfileNames lists the profiles as a manifest names them.
func ProfileNames() []string {
	return []string{"MINIMUM", "BASIC WL", "BASIC", "EN 16931", "EXTENDED", "XRECHNUNG"}
}

// ParseProfile reads a profile's name, in any case and with or without
// the space or dash: "EN 16931", "en16931", "basic-wl", "xrechnung".
func ParseProfile(s string) (Profile, error) {
	k := strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToUpper(strings.TrimSpace(s)))
	for p, name := range profileNames {
		if strings.ReplaceAll(name, " ", "") == k {
			return p, nil
		}
	}
	return 0, fmt.Errorf("must be one of %s", strings.Join(ProfileNames(), ", "))
}

func (p Profile) String() string { return profileNames[p] }

// level is the profile's place among the Factur-X levels; XRechnung
// carries what EN 16931 does.
func (p Profile) level() Profile {
	if p == XRechnung {
		return EN16931
	}
	return p
}

// has reports whether the profile carries what level q adds.
func (p Profile) has(q Profile) bool { return p.level() >= q }

// Guideline is the specification identifier (BT-24) the XML declares.
func (p Profile) Guideline() string {
	switch p {
	case Minimum:
		return "urn:factur-x.eu:1p0:minimum"
	case BasicWL:
		return "urn:factur-x.eu:1p0:basicwl"
	case Basic:
		return "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic"
	case Extended:
		return "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended"
	case XRechnung:
		return "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
	}
	return "urn:cen.eu:en16931:2017"
}

// FileName is the name of the XML embedded in the PDF.
func (p Profile) FileName() string {
	if p == XRechnung {
		return "xrechnung.xml"
	}
	return "factur-x.xml"
}

// Relationship is the embedded XML's AFRelationship: the profiles that
// are a full invoice are an Alternative to the PDF; MINIMUM and BASIC WL,
// which are not, are its Data (Factur-X 1.0, section 6.2.2).
func (p Profile) Relationship() string {
	if p == Minimum || p == BasicWL {
		return "Data"
	}
	return "Alternative"
}

// Lines reports whether the profile carries invoice lines.
func (p Profile) Lines() bool { return p.has(Basic) }

// XMP is the Factur-X extension schema for the PDF's XMP metadata: the
// schema's description, which PDF/A requires for a schema it does not
// know, and the four properties that name the embedded XML.
func (p Profile) XMP() string {
	const fx = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"
	prop := func(name, desc string) string {
		return `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>` + name + `</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>` + desc + `</pdfaProperty:description></rdf:li>`
	}
	return `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">` +
		`<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">` +
		`<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema><pdfaSchema:namespaceURI>` + fx + `</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix>` +
		`<pdfaSchema:property><rdf:Seq>` +
		prop("DocumentFileName", "The name of the embedded XML document") +
		prop("DocumentType", "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER") +
		prop("Version", "The actual version of the standard applying to the embedded XML document") +
		prop("ConformanceLevel", "The conformance level of the embedded XML document") +
		`</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>` + "\n" +
		`<rdf:Description rdf:about="" xmlns:fx="` + fx + `">` +
		`<fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>` + p.FileName() + `</fx:DocumentFileName>` +
		`<fx:Version>1.0</fx:Version><fx:ConformanceLevel>` + p.String() + `</fx:ConformanceLevel></rdf:Description>` + "\n"
}

// ValidatorProfile is the Factur-X profile folder of the official
// artefacts (../shared/einvoice/facturx) that checks p, or "" for
// XRechnung, which they check by the EN 16931 rules alone.
func ValidatorProfile(p Profile) string {
	return map[Profile]string{Minimum: "minimum", BasicWL: "basicwl", Basic: "basic", EN16931: "en16931", Extended: "extended"}[p]
}
