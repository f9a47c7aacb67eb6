package einvoice

import (
	"encoding/xml"
	"strings"
)

// XML writes a prepared invoice (see Prepare) as UN/CEFACT Cross Industry
// Invoice D16B XML, with what the profile carries and in the order the
// schema asks for. MINIMUM and BASIC WL leave the lines out; BASIC leaves
// out what only EN 16931 carries (contacts, item identifiers beyond the
// standard one, the account's name and BIC, …).
func XML(inv *Invoice, p Profile) []byte {
	w := &xw{}
	w.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	w.open("rsm:CrossIndustryInvoice",
		"xmlns:rsm", "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
		"xmlns:qdt", "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
		"xmlns:ram", "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
		"xmlns:udt", "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100")
	w.open("rsm:ExchangedDocumentContext")
	if p == XRechnung {
		w.open("ram:BusinessProcessSpecifiedDocumentContextParameter")
		w.leaf("ram:ID", "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0")
		w.close()
	}
	w.open("ram:GuidelineSpecifiedDocumentContextParameter")
	w.leaf("ram:ID", p.Guideline())
	w.close()
	w.close()

	w.open("rsm:ExchangedDocument")
	w.leaf("ram:ID", inv.Number)
	w.leaf("ram:TypeCode", inv.TypeCode)
	w.date("ram:IssueDateTime", inv.IssueDate)
	if p.has(BasicWL) {
		for _, n := range inv.Notes {
			w.open("ram:IncludedNote")
			w.leaf("ram:Content", n.Text)
			w.leaf("ram:SubjectCode", n.Subject)
			w.close()
		}
	}
	w.close()

	w.open("rsm:SupplyChainTradeTransaction")
	if p.Lines() {
		for i := range inv.Lines {
			w.line(&inv.Lines[i], p)
		}
	}
	w.agreement(inv, p)
	w.delivery(inv, p)
	w.settlement(inv, p)
	w.close()
	w.close()
	return []byte(w.b.String())
}

func (w *xw) line(l *Line, p Profile) {
	w.open("ram:IncludedSupplyChainTradeLineItem")
	w.open("ram:AssociatedDocumentLineDocument")
	w.leaf("ram:LineID", l.ID)
	if l.Note != "" {
		w.open("ram:IncludedNote")
		w.leaf("ram:Content", l.Note)
		w.close()
	}
	w.close()
	w.open("ram:SpecifiedTradeProduct")
	if l.StandardID != nil {
		w.leaf("ram:GlobalID", l.StandardID.ID, "schemeID", l.StandardID.Scheme)
	}
	if p.has(EN16931) {
		w.leaf("ram:SellerAssignedID", l.SellerItemID)
		w.leaf("ram:BuyerAssignedID", l.BuyerItemID)
	}
	w.leaf("ram:Name", l.Name)
	if p.has(EN16931) {
		w.leaf("ram:Description", l.Description)
		if l.OriginCountry != "" {
			w.open("ram:OriginTradeCountry")
			w.leaf("ram:ID", l.OriginCountry)
			w.close()
		}
	}
	w.close()
	w.open("ram:SpecifiedLineTradeAgreement")
	if p.has(EN16931) && l.OrderLineReference != "" {
		w.open("ram:BuyerOrderReferencedDocument")
		w.leaf("ram:LineID", l.OrderLineReference)
		w.close()
	}
	if l.GrossPrice.Set() {
		w.open("ram:GrossPriceProductTradePrice")
		w.leaf("ram:ChargeAmount", l.GrossPrice.String())
		if l.BaseQuantity.Set() {
			w.leaf("ram:BasisQuantity", l.BaseQuantity.String(), "unitCode", l.Unit)
		}
		if l.PriceDiscount.Set() {
			w.open("ram:AppliedTradeAllowanceCharge")
			w.indicator(false)
			w.leaf("ram:ActualAmount", l.PriceDiscount.String())
			w.close()
		}
		w.close()
	}
	w.open("ram:NetPriceProductTradePrice")
	w.leaf("ram:ChargeAmount", l.Price.String())
	if l.BaseQuantity.Set() {
		w.leaf("ram:BasisQuantity", l.BaseQuantity.String(), "unitCode", l.Unit)
	}
	w.close()
	w.close()
	w.open("ram:SpecifiedLineTradeDelivery")
	w.leaf("ram:BilledQuantity", l.Quantity.String(), "unitCode", l.Unit)
	w.close()
	w.open("ram:SpecifiedLineTradeSettlement")
	w.open("ram:ApplicableTradeTax")
	w.leaf("ram:TypeCode", "VAT")
	w.leaf("ram:CategoryCode", l.VAT.Category)
	if l.VAT.Rate.Set() {
		w.leaf("ram:RateApplicablePercent", l.VAT.Rate.String())
	}
	w.close()
	w.period(l.Period)
	for _, a := range l.Allowances {
		w.allowanceCharge(a, false, false)
	}
	for _, ch := range l.Charges {
		w.allowanceCharge(ch, true, false)
	}
	w.open("ram:SpecifiedTradeSettlementLineMonetarySummation")
	w.leaf("ram:LineTotalAmount", l.NetAmount.Amount())
	w.close()
	w.close()
	w.close()
}

func (w *xw) agreement(inv *Invoice, p Profile) {
	w.open("ram:ApplicableHeaderTradeAgreement")
	w.leaf("ram:BuyerReference", inv.BuyerReference)
	w.party("ram:SellerTradeParty", &inv.Seller, p, true)
	w.party("ram:BuyerTradeParty", &inv.Buyer, p, false)
	if p.has(BasicWL) && inv.TaxRepresentative != nil {
		w.party("ram:SellerTaxRepresentativeTradeParty", inv.TaxRepresentative, p, false)
	}
	if p.has(EN16931) {
		w.reference("ram:SellerOrderReferencedDocument", inv.SalesOrderReference)
	}
	w.reference("ram:BuyerOrderReferencedDocument", inv.OrderReference)
	if p.has(BasicWL) {
		w.reference("ram:ContractReferencedDocument", inv.ContractReference)
	}
	if p.has(EN16931) && inv.ProjectReference != "" {
		w.open("ram:SpecifiedProcuringProject")
		w.leaf("ram:ID", inv.ProjectReference)
		w.leaf("ram:Name", "Project reference")
		w.close()
	}
	w.close()
}

func (w *xw) reference(name, id string) {
	if id == "" {
		return
	}
	w.open(name)
	w.leaf("ram:IssuerAssignedID", id)
	w.close()
}

func (w *xw) party(name string, pt *Party, p Profile, seller bool) {
	w.open(name)
	if p.has(BasicWL) {
		// The schema wants every ID before the first GlobalID.
		for _, id := range pt.IDs {
			if id.Scheme == "" {
				w.leaf("ram:ID", id.ID)
			}
		}
		for _, id := range pt.IDs {
			if id.Scheme != "" {
				w.leaf("ram:GlobalID", id.ID, "schemeID", id.Scheme)
			}
		}
	}
	w.leaf("ram:Name", pt.Name)
	if p.has(EN16931) {
		w.leaf("ram:Description", pt.LegalInfo)
	}
	if pt.LegalID != nil && pt.LegalID.ID != "" || pt.TradingName != "" && p.has(BasicWL) {
		w.open("ram:SpecifiedLegalOrganization")
		if pt.LegalID != nil && pt.LegalID.ID != "" {
			w.leaf("ram:ID", pt.LegalID.ID, "schemeID", pt.LegalID.Scheme)
		}
		if p.has(BasicWL) {
			w.leaf("ram:TradingBusinessName", pt.TradingName)
		}
		w.close()
	}
	if ct := pt.Contact; ct != nil && *ct != (Contact{}) && p.has(EN16931) {
		w.open("ram:DefinedTradeContact")
		w.leaf("ram:PersonName", ct.Name)
		if ct.Phone != "" {
			w.open("ram:TelephoneUniversalCommunication")
			w.leaf("ram:CompleteNumber", ct.Phone)
			w.close()
		}
		if ct.Email != "" {
			w.open("ram:EmailURIUniversalCommunication")
			w.leaf("ram:URIID", ct.Email)
			w.close()
		}
		w.close()
	}
	// MINIMUM carries only the seller's country, and no buyer address.
	if a := pt.Address; a != nil && (p.has(BasicWL) || seller) {
		w.address(a, p)
	}
	if e := pt.Endpoint; e != nil && e.ID != "" && p.has(BasicWL) {
		w.open("ram:URIUniversalCommunication")
		w.leaf("ram:URIID", e.ID, "schemeID", e.Scheme)
		w.close()
	}
	if seller || p.has(BasicWL) {
		w.taxRegistration(pt.VATID, "VA")
		if seller {
			w.taxRegistration(pt.TaxID, "FC")
		}
	}
	w.close()
}

func (w *xw) taxRegistration(id, scheme string) {
	if id == "" {
		return
	}
	w.open("ram:SpecifiedTaxRegistration")
	w.leaf("ram:ID", id, "schemeID", scheme)
	w.close()
}

func (w *xw) address(a *Address, p Profile) {
	w.open("ram:PostalTradeAddress")
	if p.has(BasicWL) {
		w.leaf("ram:PostcodeCode", a.PostCode)
		w.leaf("ram:LineOne", a.Line1)
		w.leaf("ram:LineTwo", a.Line2)
		w.leaf("ram:LineThree", a.Line3)
		w.leaf("ram:CityName", a.City)
	}
	w.leaf("ram:CountryID", a.Country)
	if p.has(BasicWL) {
		w.leaf("ram:CountrySubDivisionName", a.Region)
	}
	w.close()
}

func (w *xw) delivery(inv *Invoice, p Profile) {
	w.open("ram:ApplicableHeaderTradeDelivery")
	if d := inv.Delivery; d != nil && p.has(BasicWL) {
		if d.Name != "" || d.Address != nil {
			w.open("ram:ShipToTradeParty")
			w.leaf("ram:Name", d.Name)
			if d.Address != nil {
				w.address(d.Address, p)
			}
			w.close()
		}
		if d.Date != "" {
			w.open("ram:ActualDeliverySupplyChainEvent")
			w.date("ram:OccurrenceDateTime", d.Date)
			w.close()
		}
	}
	if p.has(BasicWL) {
		w.reference("ram:DespatchAdviceReferencedDocument", inv.DespatchReference)
	}
	if p.has(EN16931) {
		w.reference("ram:ReceivingAdviceReferencedDocument", inv.ReceivingReference)
	}
	w.close()
}

func (w *xw) settlement(inv *Invoice, p Profile) {
	w.open("ram:ApplicableHeaderTradeSettlement")
	pm := inv.Payment
	if p.has(BasicWL) && pm != nil {
		w.leaf("ram:CreditorReferenceID", pm.CreditorID)
		w.leaf("ram:PaymentReference", pm.Reference)
	}
	w.leaf("ram:InvoiceCurrencyCode", inv.Currency)
	if p.has(BasicWL) {
		if pe := inv.Payee; pe != nil {
			w.open("ram:PayeeTradeParty")
			if pe.ID != nil {
				w.leaf("ram:ID", pe.ID.ID)
			}
			w.leaf("ram:Name", pe.Name)
			if pe.LegalID != nil {
				w.open("ram:SpecifiedLegalOrganization")
				w.leaf("ram:ID", pe.LegalID.ID, "schemeID", pe.LegalID.Scheme)
				w.close()
			}
			w.close()
		}
		if pm != nil && pm.MeansCode != "" {
			w.paymentMeans(pm, p)
		}
		for i, v := range inv.VATBreakdown {
			w.open("ram:ApplicableTradeTax")
			w.leaf("ram:CalculatedAmount", v.TaxAmount.Amount())
			w.leaf("ram:TypeCode", "VAT")
			w.leaf("ram:ExemptionReason", v.ExemptionReason)
			w.leaf("ram:BasisAmount", v.TaxableAmount.Amount())
			w.leaf("ram:CategoryCode", v.Category)
			w.leaf("ram:ExemptionReasonCode", v.ExemptionReasonCode)
			if inv.TaxPoint != "" && p.has(EN16931) && i == 0 { // CII-SR-461: once
				w.open("ram:TaxPointDate")
				w.leaf("udt:DateString", compact(inv.TaxPoint), "format", "102")
				w.close()
			}
			if v.Rate.Set() {
				w.leaf("ram:RateApplicablePercent", v.Rate.String())
			}
			w.close()
		}
		w.period(inv.Period)
		for _, a := range inv.Allowances {
			w.allowanceCharge(a, false, true)
		}
		for _, ch := range inv.Charges {
			w.allowanceCharge(ch, true, true)
		}
		if inv.DueDate != "" || pm != nil && (pm.Terms != "" || pm.MandateID != "") {
			w.open("ram:SpecifiedTradePaymentTerms")
			if pm != nil {
				w.leaf("ram:Description", pm.Terms)
			}
			if inv.DueDate != "" {
				w.date("ram:DueDateDateTime", inv.DueDate)
			}
			if pm != nil {
				w.leaf("ram:DirectDebitMandateID", pm.MandateID)
			}
			w.close()
		}
	}
	t := inv.Totals
	w.open("ram:SpecifiedTradeSettlementHeaderMonetarySummation")
	if p.has(BasicWL) {
		w.leaf("ram:LineTotalAmount", t.LineTotal.Amount())
		if t.ChargeTotal.Set() {
			w.leaf("ram:ChargeTotalAmount", t.ChargeTotal.Amount())
		}
		if t.AllowanceTotal.Set() {
			w.leaf("ram:AllowanceTotalAmount", t.AllowanceTotal.Amount())
		}
	}
	w.leaf("ram:TaxBasisTotalAmount", t.TaxBasis.Amount())
	w.leaf("ram:TaxTotalAmount", t.TaxTotal.Amount(), "currencyID", inv.Currency)
	if p.has(EN16931) && t.Rounding.Set() {
		w.leaf("ram:RoundingAmount", t.Rounding.Amount())
	}
	w.leaf("ram:GrandTotalAmount", t.GrandTotal.Amount())
	if p.has(BasicWL) && t.Prepaid.Set() {
		w.leaf("ram:TotalPrepaidAmount", t.Prepaid.Amount())
	}
	w.leaf("ram:DuePayableAmount", t.DuePayable.Amount())
	w.close()
	if p.has(BasicWL) {
		for _, pi := range inv.PrecedingInvoices {
			w.open("ram:InvoiceReferencedDocument")
			w.leaf("ram:IssuerAssignedID", pi.Number)
			if pi.IssueDate != "" {
				w.open("ram:FormattedIssueDateTime")
				w.leaf("qdt:DateTimeString", compact(pi.IssueDate), "format", "102")
				w.close()
			}
			w.close()
		}
		if inv.BuyerAccountingReference != "" {
			w.open("ram:ReceivableSpecifiedTradeAccountingAccount")
			w.leaf("ram:ID", inv.BuyerAccountingReference)
			w.close()
		}
	}
	w.close()
}

func (w *xw) paymentMeans(pm *Payment, p Profile) {
	w.open("ram:SpecifiedTradeSettlementPaymentMeans")
	w.leaf("ram:TypeCode", pm.MeansCode)
	if p.has(EN16931) {
		w.leaf("ram:Information", pm.MeansText)
		if pm.CardNumber != "" {
			w.open("ram:ApplicableTradeSettlementFinancialCard")
			w.leaf("ram:ID", pm.CardNumber)
			w.leaf("ram:CardholderName", pm.CardHolder)
			w.close()
		}
	}
	if pm.DebitedIBAN != "" {
		w.open("ram:PayerPartyDebtorFinancialAccount")
		w.leaf("ram:IBANID", pm.DebitedIBAN)
		w.close()
	}
	if pm.IBAN != "" {
		w.open("ram:PayeePartyCreditorFinancialAccount")
		if isIBAN(pm.IBAN) {
			w.leaf("ram:IBANID", pm.IBAN)
		}
		if p.has(EN16931) {
			w.leaf("ram:AccountName", pm.AccountName)
		}
		if !isIBAN(pm.IBAN) {
			w.leaf("ram:ProprietaryID", pm.IBAN)
		}
		w.close()
	}
	if pm.BIC != "" && p.has(EN16931) {
		w.open("ram:PayeeSpecifiedCreditorFinancialInstitution")
		w.leaf("ram:BICID", pm.BIC)
		w.close()
	}
	w.close()
}

// isIBAN reports whether an account identifier looks like an IBAN (two
// letters, two digits); another account number is written as proprietary.
func isIBAN(s string) bool {
	return len(s) >= 15 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9'
}

func (w *xw) allowanceCharge(a AllowanceCharge, charge, document bool) {
	w.open("ram:SpecifiedTradeAllowanceCharge")
	w.indicator(charge)
	if a.Percent.Set() {
		w.leaf("ram:CalculationPercent", a.Percent.String())
	}
	if a.BaseAmount.Set() {
		w.leaf("ram:BasisAmount", a.BaseAmount.Amount())
	}
	w.leaf("ram:ActualAmount", a.Amount.Amount())
	w.leaf("ram:ReasonCode", a.ReasonCode)
	w.leaf("ram:Reason", a.Reason)
	if document {
		w.open("ram:CategoryTradeTax")
		w.leaf("ram:TypeCode", "VAT")
		w.leaf("ram:CategoryCode", a.VATCategory)
		if a.VATRate.Set() {
			w.leaf("ram:RateApplicablePercent", a.VATRate.String())
		}
		w.close()
	}
	w.close()
}

func (w *xw) indicator(charge bool) {
	w.open("ram:ChargeIndicator")
	if charge {
		w.leaf("udt:Indicator", "true")
	} else {
		w.leaf("udt:Indicator", "false")
	}
	w.close()
}

func (w *xw) period(pd *Period) {
	if pd == nil || pd.Start == "" && pd.End == "" {
		return
	}
	w.open("ram:BillingSpecifiedPeriod")
	if pd.Start != "" {
		w.date("ram:StartDateTime", pd.Start)
	}
	if pd.End != "" {
		w.date("ram:EndDateTime", pd.End)
	}
	w.close()
}

// date writes a date element in CII's form: YYYYMMDD, format 102.
func (w *xw) date(name, iso string) {
	w.open(name)
	w.leaf("udt:DateTimeString", compact(iso), "format", "102")
	w.close()
}

func compact(iso string) string { return strings.ReplaceAll(iso, "-", "") }

// xw writes indented XML: elements opened and closed in order, and leaves
// with text, left out when the text is empty.
type xw struct {
	b     strings.Builder
	stack []string
	// opened is where the last element opened ends in b, while nothing has
	// been written into it: closing it then makes it an empty element.
	opened int
}

func (w *xw) indent() {
	for range w.stack {
		w.b.WriteString("  ")
	}
}

func (w *xw) attrs(kv []string) {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		w.b.WriteString(" " + kv[i] + `="` + escape(kv[i+1]) + `"`)
	}
}

func (w *xw) open(name string, attrs ...string) {
	w.indent()
	w.b.WriteString("<" + name)
	w.attrs(attrs)
	w.b.WriteString(">\n")
	w.opened = w.b.Len()
	w.stack = append(w.stack, name)
}

func (w *xw) close() {
	name := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	if w.opened == w.b.Len() {
		// Nothing inside: <name/>, for CII's empty delivery in MINIMUM.
		s := w.b.String()[:w.b.Len()-2]
		w.b.Reset()
		w.b.WriteString(s + "/>\n")
		w.opened = -1
		return
	}
	w.indent()
	w.b.WriteString("</" + name + ">\n")
}

func (w *xw) leaf(name, text string, attrs ...string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	w.indent()
	w.b.WriteString("<" + name)
	w.attrs(attrs)
	w.b.WriteString(">" + escape(text) + "</" + name + ">\n")
}

// escape escapes text for XML content and attributes (encoding/xml's
// escaping: a character XML 1.0 cannot hold becomes U+FFFD).
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}
