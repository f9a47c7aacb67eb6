package einvoice

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// node is an element of a parsed CII document, for reading the official
// examples back into the JSON model.
type node struct {
	name  string
	attrs map[string]string
	text  string
	kids  []*node
}

func parseXML(t *testing.T, b []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	root := &node{}
	stack := []*node{root}
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch x := tok.(type) {
		case xml.StartElement:
			n := &node{name: x.Name.Local, attrs: map[string]string{}}
			for _, a := range x.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			stack[len(stack)-1].text += string(x)
		}
	}
	return root.kids[0]
}

// all is every descendant along a slash-separated path of local names.
func (n *node) all(path string) []*node {
	if n == nil {
		return nil
	}
	cur := []*node{n}
	for _, part := range strings.Split(path, "/") {
		var next []*node
		for _, c := range cur {
			for _, k := range c.kids {
				if k.name == part {
					next = append(next, k)
				}
			}
		}
		cur = next
	}
	return cur
}

func (n *node) get(path string) *node {
	if a := n.all(path); len(a) > 0 {
		return a[0]
	}
	return nil
}

func (n *node) str(path string) string {
	if m := n.get(path); m != nil {
		return strings.TrimSpace(m.text)
	}
	return ""
}

func (n *node) dec(path string) Dec {
	s := n.str(path)
	if s == "" {
		return Dec{}
	}
	d, err := ParseDec(s)
	if err != nil {
		return Dec{}
	}
	return d
}

func (n *node) date(path string) string {
	s := n.str(path)
	if len(s) != 8 {
		return s
	}
	return s[:4] + "-" + s[4:6] + "-" + s[6:]
}

func (n *node) ident(path string) *Identifier {
	m := n.get(path)
	if m == nil || strings.TrimSpace(m.text) == "" {
		return nil
	}
	return &Identifier{ID: strings.TrimSpace(m.text), Scheme: m.attrs["schemeID"]}
}

func readAddress(n *node) *Address {
	if n == nil {
		return nil
	}
	return &Address{Line1: n.str("LineOne"), Line2: n.str("LineTwo"), Line3: n.str("LineThree"), City: n.str("CityName"),
		PostCode: n.str("PostcodeCode"), Region: n.str("CountrySubDivisionName"), Country: n.str("CountryID")}
}

func readParty(n *node) Party {
	var p Party
	if n == nil {
		return p
	}
	p.Name = n.str("Name")
	p.LegalInfo = n.str("Description")
	for _, id := range n.all("ID") {
		p.IDs = append(p.IDs, Identifier{ID: strings.TrimSpace(id.text)})
	}
	for _, id := range n.all("GlobalID") {
		p.IDs = append(p.IDs, Identifier{ID: strings.TrimSpace(id.text), Scheme: id.attrs["schemeID"]})
	}
	p.LegalID = n.ident("SpecifiedLegalOrganization/ID")
	p.TradingName = n.str("SpecifiedLegalOrganization/TradingBusinessName")
	if c := n.get("DefinedTradeContact"); c != nil {
		p.Contact = &Contact{Name: c.str("PersonName"), Phone: c.str("TelephoneUniversalCommunication/CompleteNumber"), Email: c.str("EmailURIUniversalCommunication/URIID")}
		if p.Contact.Name == "" {
			p.Contact.Name = c.str("DepartmentName")
		}
	}
	p.Address = readAddress(n.get("PostalTradeAddress"))
	p.Endpoint = n.ident("URIUniversalCommunication/URIID")
	for _, r := range n.all("SpecifiedTaxRegistration/ID") {
		if r.attrs["schemeID"] == "VA" {
			p.VATID = strings.TrimSpace(r.text)
		} else {
			p.TaxID = strings.TrimSpace(r.text)
		}
	}
	return p
}

func readAllowances(n *node, path string, document bool) (allowances, charges []AllowanceCharge) {
	for _, a := range n.all(path) {
		ac := AllowanceCharge{Amount: a.dec("ActualAmount"), BaseAmount: a.dec("BasisAmount"), Percent: a.dec("CalculationPercent"),
			Reason: a.str("Reason"), ReasonCode: a.str("ReasonCode")}
		if document {
			ac.VATCategory, ac.VATRate = a.str("CategoryTradeTax/CategoryCode"), a.dec("CategoryTradeTax/RateApplicablePercent")
		}
		if a.str("ChargeIndicator/Indicator") == "true" {
			charges = append(charges, ac)
		} else {
			allowances = append(allowances, ac)
		}
	}
	return allowances, charges
}

func readPeriod(n *node) *Period {
	if n == nil {
		return nil
	}
	return &Period{Start: n.date("StartDateTime/DateTimeString"), End: n.date("EndDateTime/DateTimeString")}
}

// readCII maps a CII invoice onto the JSON model: every term the model
// has; what it has not (attachments, item attributes, the VAT accounting
// currency) is left behind.
func readCII(t *testing.T, b []byte) *Invoice {
	root := parseXML(t, b)
	doc := root.get("ExchangedDocument")
	tx := root.get("SupplyChainTradeTransaction")
	ag := tx.get("ApplicableHeaderTradeAgreement")
	dl := tx.get("ApplicableHeaderTradeDelivery")
	st := tx.get("ApplicableHeaderTradeSettlement")
	inv := &Invoice{
		Number: doc.str("ID"), TypeCode: doc.str("TypeCode"), IssueDate: doc.date("IssueDateTime/DateTimeString"),
		Currency: st.str("InvoiceCurrencyCode"), BuyerReference: ag.str("BuyerReference"),
		OrderReference: ag.str("BuyerOrderReferencedDocument/IssuerAssignedID"), SalesOrderReference: ag.str("SellerOrderReferencedDocument/IssuerAssignedID"),
		ContractReference: ag.str("ContractReferencedDocument/IssuerAssignedID"), ProjectReference: ag.str("SpecifiedProcuringProject/ID"),
		DespatchReference: dl.str("DespatchAdviceReferencedDocument/IssuerAssignedID"), ReceivingReference: dl.str("ReceivingAdviceReferencedDocument/IssuerAssignedID"),
		BuyerAccountingReference: st.str("ReceivableSpecifiedTradeAccountingAccount/ID"),
		Seller:                   readParty(ag.get("SellerTradeParty")), Buyer: readParty(ag.get("BuyerTradeParty")),
	}
	for _, n := range doc.all("IncludedNote") {
		inv.Notes = append(inv.Notes, Note{Subject: n.str("SubjectCode"), Text: n.str("Content")})
	}
	if tr := ag.get("SellerTaxRepresentativeTradeParty"); tr != nil {
		p := readParty(tr)
		inv.TaxRepresentative = &p
	}
	if st.str("PayeeTradeParty/Name") != "" {
		inv.Payee = &Payee{Name: st.str("PayeeTradeParty/Name"), ID: st.ident("PayeeTradeParty/ID"), LegalID: st.ident("PayeeTradeParty/SpecifiedLegalOrganization/ID")}
	}
	if s := dl.get("ShipToTradeParty"); s != nil || dl.get("ActualDeliverySupplyChainEvent") != nil {
		inv.Delivery = &Delivery{Name: dl.str("ShipToTradeParty/Name"), Date: dl.date("ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString"),
			Address: readAddress(dl.get("ShipToTradeParty/PostalTradeAddress"))}
	}
	inv.Period = readPeriod(st.get("BillingSpecifiedPeriod"))
	for _, pi := range st.all("InvoiceReferencedDocument") {
		inv.PrecedingInvoices = append(inv.PrecedingInvoices, PrecedingInvoice{Number: pi.str("IssuerAssignedID"), IssueDate: pi.date("FormattedIssueDateTime/DateTimeString")})
	}
	pm := &Payment{CreditorID: st.str("CreditorReferenceID"), Reference: st.str("PaymentReference"),
		Terms: st.str("SpecifiedTradePaymentTerms/Description"), MandateID: st.str("SpecifiedTradePaymentTerms/DirectDebitMandateID")}
	inv.DueDate = st.date("SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString")
	if m := st.get("SpecifiedTradeSettlementPaymentMeans"); m != nil {
		pm.MeansCode, pm.MeansText = m.str("TypeCode"), m.str("Information")
		pm.IBAN = m.str("PayeePartyCreditorFinancialAccount/IBANID")
		if pm.IBAN == "" {
			pm.IBAN = m.str("PayeePartyCreditorFinancialAccount/ProprietaryID")
		}
		pm.AccountName, pm.BIC = m.str("PayeePartyCreditorFinancialAccount/AccountName"), m.str("PayeeSpecifiedCreditorFinancialInstitution/BICID")
		pm.DebitedIBAN = m.str("PayerPartyDebtorFinancialAccount/IBANID")
		pm.CardNumber, pm.CardHolder = m.str("ApplicableTradeSettlementFinancialCard/ID"), m.str("ApplicableTradeSettlementFinancialCard/CardholderName")
	}
	if *pm != (Payment{}) {
		inv.Payment = pm
	}
	for _, v := range st.all("ApplicableTradeTax") {
		inv.VATBreakdown = append(inv.VATBreakdown, VAT{Category: v.str("CategoryCode"), Rate: v.dec("RateApplicablePercent"),
			TaxableAmount: v.dec("BasisAmount"), TaxAmount: v.dec("CalculatedAmount"), ExemptionReason: v.str("ExemptionReason"), ExemptionReasonCode: v.str("ExemptionReasonCode")})
		if d := v.date("TaxPointDate/DateString"); d != "" {
			inv.TaxPoint = d
		}
	}
	inv.Allowances, inv.Charges = readAllowances(st, "SpecifiedTradeAllowanceCharge", true)
	sum := st.get("SpecifiedTradeSettlementHeaderMonetarySummation")
	var taxTotal Dec
	for _, tt := range sum.all("TaxTotalAmount") {
		if tt.attrs["currencyID"] == inv.Currency || tt.attrs["currencyID"] == "" {
			taxTotal, _ = ParseDec(tt.text)
		}
	}
	inv.Totals = Totals{LineTotal: sum.dec("LineTotalAmount"), AllowanceTotal: sum.dec("AllowanceTotalAmount"), ChargeTotal: sum.dec("ChargeTotalAmount"),
		TaxBasis: sum.dec("TaxBasisTotalAmount"), TaxTotal: taxTotal, GrandTotal: sum.dec("GrandTotalAmount"), Prepaid: sum.dec("TotalPrepaidAmount"),
		Rounding: sum.dec("RoundingAmount"), DuePayable: sum.dec("DuePayableAmount")}
	for _, li := range tx.all("IncludedSupplyChainTradeLineItem") {
		pr := li.get("SpecifiedTradeProduct")
		la := li.get("SpecifiedLineTradeAgreement")
		ls := li.get("SpecifiedLineTradeSettlement")
		l := Line{ID: li.str("AssociatedDocumentLineDocument/LineID"), Note: li.str("AssociatedDocumentLineDocument/IncludedNote/Content"),
			Name: pr.str("Name"), Description: pr.str("Description"), SellerItemID: pr.str("SellerAssignedID"), BuyerItemID: pr.str("BuyerAssignedID"),
			StandardID: pr.ident("GlobalID"), OriginCountry: pr.str("OriginTradeCountry/ID"), OrderLineReference: la.str("BuyerOrderReferencedDocument/LineID"),
			Quantity: li.dec("SpecifiedLineTradeDelivery/BilledQuantity"), Price: la.dec("NetPriceProductTradePrice/ChargeAmount"),
			BaseQuantity: la.dec("NetPriceProductTradePrice/BasisQuantity"), GrossPrice: la.dec("GrossPriceProductTradePrice/ChargeAmount"),
			PriceDiscount: la.dec("GrossPriceProductTradePrice/AppliedTradeAllowanceCharge/ActualAmount"),
			VAT:           LineVAT{Category: ls.str("ApplicableTradeTax/CategoryCode"), Rate: ls.dec("ApplicableTradeTax/RateApplicablePercent")},
			Period:        readPeriod(ls.get("BillingSpecifiedPeriod")), NetAmount: ls.dec("SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount")}
		if q := li.get("SpecifiedLineTradeDelivery/BilledQuantity"); q != nil {
			l.Unit = q.attrs["unitCode"]
		}
		l.Allowances, l.Charges = readAllowances(ls, "SpecifiedTradeAllowanceCharge", false)
		inv.Lines = append(inv.Lines, l)
	}
	return inv
}
